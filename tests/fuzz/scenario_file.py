"""Target: a scenario file, loaded, checked and run. Any bytes give a scenario whose
runs all finish with a result, or one :class:`YamlInputError` or :class:`ScenarioError`
naming the file."""

from __future__ import annotations

from mammamia_ref.formats.safeyaml import Loaded, YamlInputError, load_bytes
from mammamia_ref.formats.scenario import ScenarioError, parse_scenario
from mammamia_ref.sim.scenario_run import run_scenario

from . import corpus

EXPECTED: tuple[type[BaseException], ...] = (YamlInputError, ScenarioError)
FORMAT = "yaml"  # how inputs encode documents, for structured mutations


def fuzz_one(data: bytes) -> None:
    loaded = load_bytes(data, "fuzz/case.yaml")
    doc = loaded.data
    if isinstance(doc, dict) and isinstance(doc.get("id"), str):  # get past the naming check
        loaded = Loaded(doc, loaded.lines, f"fuzz/{doc['id']}.yaml")
    try:
        scenario = parse_scenario(loaded)
    except ScenarioError as exc:
        assert exc.file == loaded.file and str(exc).startswith(loaded.file), str(exc)
        raise
    for result in run_scenario(scenario):
        assert result.passed or (result.failure and result.step is not None), result


def seeds() -> list[bytes]:
    return list(corpus.scenario_bytes())
