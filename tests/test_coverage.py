"""Every rule is exercised by a passing scenario, every variant flag is shown side by
side (one scenario with runs under each of its values), and no scenario cites a rule
or a variant that does not exist."""

from __future__ import annotations

from pathlib import Path

import pytest

from mammamia_ref.formats.scenario import load_all, run_scenario
from mammamia_ref.rules import specdata
from mammamia_ref.rules.state import variant_values

SCENARIOS = Path(__file__).resolve().parent.parent / "scenarios"


@pytest.fixture(scope="module")
def corpus():
    scenarios, errors = load_all([SCENARIOS])
    results = {s.id: run_scenario(s) for s in scenarios}
    return scenarios, errors, results


def test_every_scenario_file_loads(corpus) -> None:
    _, errors, _ = corpus
    assert not errors, "\n".join(str(e) for e in errors)


def test_every_rule_is_cited_by_a_passing_scenario(corpus) -> None:
    scenarios, _, results = corpus
    passing = {sid for sid, runs in results.items() if all(r.passed for r in runs)}
    cited = {rule for s in scenarios if s.id in passing for rule in s.rules}
    missing = sorted(specdata.rule_ids() - cited)
    assert not missing, f"rules with no passing scenario: {missing}"


def test_every_cited_rule_exists(corpus) -> None:
    scenarios, _, _ = corpus
    unknown = {(s.id, r) for s in scenarios for r in s.rules if r not in specdata.rule_ids()}
    assert not unknown


@pytest.mark.parametrize("flag", sorted(variant_values()))
def test_every_variant_flag_is_shown_side_by_side(corpus, flag: str) -> None:
    """Some scenario runs the same situation under every value of the flag."""
    scenarios, _, results = corpus
    values = set(variant_values()[flag])
    default = {e["flag"]: e["default"] for e in specdata.variant_flags()}[flag]
    for scenario in scenarios:
        if not all(r.passed for r in results[scenario.id]):
            continue
        shown = {run.variants.get(flag, default) for run in scenario.runs}
        if shown == values:
            return
    pytest.fail(f"no passing scenario shows {flag} under all of {sorted(values)}")

