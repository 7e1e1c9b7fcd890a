"""The pytest plugin ``mammamia`` (the ``pytest11`` entry point): ``pytest FOLDER`` run
from outside the project collects a porter's scenarios, one test per run, leaves their
other YAML files alone, and a failing run's message shows the expected and the actual
value on the keys compared."""

from __future__ import annotations

import subprocess
import sys
from importlib.metadata import entry_points
from pathlib import Path

import pytest

PLAYS = """\
id: {id}
title: "Green plays two salami"
rules: [turn.play]
given:
  state:
    players:
      - colour: green
        hand: {{ingredients: {{salami: 2}}}}
      - colour: red
        hand: {{ingredients: {{pepper: 1}}}}
    supply: [olive, mamma_mia, olive]
steps:
  - do: {{type: play, kind: salami, count: 2}}
    expect:
      events: [{{event: played, rule: turn.play, kind: salami, count: {count}}}]
"""


def test_the_plugin_is_registered_by_its_entry_point() -> None:
    found = [e for e in entry_points(group="pytest11") if e.name == "mammamia"]
    assert [e.value for e in found] == ["mammamia_ref.tools.pytest_scenarios"]


@pytest.mark.slow  # runs pytest in a subprocess
def test_pytest_collects_a_porters_folder(tmp_path: Path) -> None:
    folder = tmp_path / "their" / "scenarios"
    folder.mkdir(parents=True)
    (folder / "plays-two.yaml").write_text(PLAYS.format(id="plays-two", count=2),
                                           encoding="utf-8")
    (folder / "plays-three.yaml").write_text(PLAYS.format(id="plays-three", count=3),
                                             encoding="utf-8")
    (folder / "workflow.yaml").write_text("name: ci\non: push\njobs: {}\n", encoding="utf-8")
    (folder / "broken.yaml").write_text("id: broken\ngiven: {}\nsteps: [1]\n",
                                        encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "pytest", "their", "-p", "no:cacheprovider",
                           "-n", "0", "-rf"], cwd=tmp_path, capture_output=True, text=True,
                          check=False)
    out = done.stdout + done.stderr
    assert done.returncode == 1, out
    assert "2 failed, 1 passed" in out, out
    # a file that is no valid scenario fails under its own name, not "test session"
    assert "_ invalid scenario file broken.yaml _" in out and "_ test session _" not in out, out
    assert "plays-three.yaml:13: diverged at step 0" in out, out
    assert ('expected {"event": "played", "rule": "turn.play", "kind": "salami", "count": 3}'
            in out), out
    assert 'got: {"event": "played", "rule": "turn.play", "kind": "salami", "count": 2}' in out
    assert "workflow" not in out
