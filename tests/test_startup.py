"""``mammamia --version`` and ``--help`` start fast: they load no engine, no kit, no
jsonschema, no solver (``mammamia_ref/cli/app.py`` says how).

Held by the modules a fresh interpreter has loaded, never by a time: the machines the
tests run on are shared, and a time would fail at random.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

import mammamia_ref

sys.path.insert(0, str(Path(__file__).resolve().parent))
import patience

pytestmark = pytest.mark.slow  # fresh interpreters, one a check

# What start-up must not load: the packages named and everything below them.
HEAVY = ("jsonschema", "yaml", "z3", "dask", "distributed", "matplotlib", "chess", "numpy",
         "mammamia_ref.tools.bench", "mammamia_ref.kit", "mammamia_ref.sim.fast",
         "mammamia_ref.queries", "mammamia_ref.formats.scenario",
         "mammamia_ref.formats.jsonform")

# Every help, and the version, in one fresh interpreter: for each call, the modules it
# was the first to load. sys.modules only grows, so a heavy module any call loads is
# listed under the first call that loaded it, and the calls together load nothing
# heavy only if each alone loads nothing heavy: one process is as strict as one per call.
STARTUP = r"""
import argparse, contextlib, io, json, sys

def loaded():
    return set(sys.modules)

before = loaded()
from mammamia_ref.cli import main
from mammamia_ref.cli.app import build_parser

def commands(parser, words):
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield [*words, name]
                yield from commands(sub, [*words, name])

calls = [["--version"], ["--help"]] + [[*words, "--help"] for words in
                                      commands(build_parser(), [])]
report = {"import": sorted(loaded() - before), "calls": []}
for argv in calls:
    seen, out = loaded(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        try:
            code = main(argv)
        except SystemExit as exc:
            code = exc.code
    report["calls"].append({"argv": argv, "code": code, "printed": out.getvalue(),
                            "loaded": sorted(loaded() - seen)})
report["modules"] = sorted(sys.modules)
print(json.dumps(report))
"""


def run_python(code: str) -> Any:
    """What the ``code`` run by a fresh interpreter printed, as JSON."""
    result = patience.run([sys.executable, "-c", code], idle_seconds=300)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def heavy(modules: list[str]) -> list[str]:
    return [m for m in modules if any(m == h or m.startswith(h + ".") for h in HEAVY)]


def test_version_and_every_help_load_nothing_heavy() -> None:
    report = run_python(STARTUP)
    assert not heavy(report["import"]), \
        f"importing mammamia_ref.cli loads {heavy(report['import'])}"
    shown = {" ".join(call["argv"]) for call in report["calls"]}
    assert {"--version", "--help", "play --help", "conform --help", "bench --help",
            "scenario run --help", "query run --help"} <= shown, shown
    for call in report["calls"]:
        words = " ".join(call["argv"])
        assert call["code"] == 0 and call["printed"], f"mammamia {words}: {call}"
        assert not heavy(call["loaded"]), f"mammamia {words} loads {heavy(call['loaded'])}"
    assert not heavy(report["modules"])  # the same, said once for everything


def test_importing_the_package_loads_no_api_module() -> None:
    modules = run_python("import json, sys\nimport mammamia_ref\n"
                         "print(json.dumps(sorted(sys.modules)))")
    assert "jsonschema" not in modules
    assert not heavy(modules), heavy(modules)


def test_the_public_names_still_import() -> None:
    names = run_python(
        "import json\nfrom mammamia_ref import format_state, new_game\n"
        "from mammamia_ref.formats.jsonform import format_state as f\n"
        "from mammamia_ref.rules.game import new_game as n\n"
        "print(json.dumps([format_state is f, new_game is n, format_state.__name__]))")
    assert names == [True, True, "format_state"]
    star: dict[str, Any] = {}
    exec("from mammamia_ref import *", star)
    assert sorted(set(star) - {"__builtins__"}) == sorted(mammamia_ref.__all__)
    assert set(mammamia_ref.__all__) <= set(dir(mammamia_ref))
    assert mammamia_ref.__version__


def test_the_written_out_policy_names_are_the_registry() -> None:
    from mammamia_ref.cli.game import POLICY_NAMES
    from mammamia_ref.sim.policies import POLICIES

    assert tuple(sorted(POLICIES)) == POLICY_NAMES
