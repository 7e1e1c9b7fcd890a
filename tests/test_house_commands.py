"""``--house FILE`` on ``scenario run`` and ``perft`` (protocol version 3's task):
every run under a house rule with its own values winning, and the house rule's game."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import patience

from mammamia_ref.formats.house import load_house
from mammamia_ref.formats.scenario import given_state, load_all, with_rules_under

ROOT = Path(__file__).resolve().parent.parent
HOUSE = ROOT / "examples" / "house-rules" / "hand-of-eight.yaml"
HAND_LIMIT = ROOT / "scenarios" / "house" / "hand-limit.yaml"


def mammamia(*args: str) -> subprocess.CompletedProcess[str]:
    return patience.run([sys.executable, "-m", "mammamia_ref", *args], 300, cwd=ROOT)


def test_a_house_rule_lies_under_each_runs_own_values() -> None:
    [scenario], _ = load_all([str(HAND_LIMIT)])
    rules = load_house(HOUSE).rules
    limits = {run.name: given_state(scenario, run).parameters.hand_limit
              for run in with_rules_under(scenario, rules).runs}
    assert limits == {"hand_limit=6": 6, "hand_limit=7": 8, "hand_limit=8": 8}


def test_a_runs_own_trimming_wins_player_count_by_player_count() -> None:
    from mammamia_ref.rules.ruleset import make_rules

    [scenario], _ = load_all([str(HAND_LIMIT)])
    run = scenario.runs[0]
    scenario = type(scenario)(**{**scenario.__dict__, "runs": (
        type(run)(run.name, {"refill": "as_many_as_played"}, run.steps,
                  {"trimming": {"2": 2}}),)})
    under = make_rules({"refill": "to_seven", "stall": "letter"},
                       {"trimming": {"2": 4, "3": 1}, "rounds": 2})
    [merged] = with_rules_under(scenario, under).runs
    assert merged.variants == {"stall": "letter", "refill": "as_many_as_played"}
    assert merged.parameters == {"trimming": {"2": 2, "3": 1, "4": 1, "5": 0}, "rounds": 2}


@pytest.mark.slow  # subprocesses
def test_scenario_run_house_plays_every_run_under_it() -> None:
    result = mammamia("scenario", "run", str(HAND_LIMIT), "--house", str(HOUSE))
    assert result.returncode == 1  # the run that expects the rulebooks' 7 draws 6 cards
    assert "every run under house rule 'hand of eight': hand_limit=8" in result.stdout
    assert "FAIL hand-limit[hand_limit=7]" in result.stdout
    assert "PASS hand-limit[hand_limit=6]" in result.stdout
    assert "PASS hand-limit[hand_limit=8]" in result.stdout
    plain = mammamia("scenario", "run", str(HAND_LIMIT), "--json")
    assert plain.returncode == 0
    records = [json.loads(line) for line in
               mammamia("scenario", "run", str(HAND_LIMIT), "--json", "--house",
                        str(HOUSE)).stdout.splitlines()]
    assert [r["passed"] for r in records] == [True, False, True]


@pytest.mark.slow  # subprocesses
def test_perft_house_counts_the_house_rules_game(tmp_path: Path) -> None:
    plain = mammamia("perft", "--players", "2", "--depth", "1", "--seed", "3")
    house = mammamia("perft", "--players", "2", "--depth", "1", "--seed", "3",
                     "--house", str(HOUSE))
    assert plain.returncode == house.returncode == 0, house.stderr
    assert "hand_limit=8" in house.stdout and "hand_limit" not in plain.stdout
    table = next((ROOT / "scenarios" / "perft").glob("*.yaml"))
    refused = mammamia("perft", str(table), "--house", str(HOUSE))
    assert refused.returncode == 2 and refused.stderr.count("\n") == 1
    assert "--house" in refused.stderr
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: x\nparameters: {bombastica_total: 100}\n", encoding="utf-8")
    result = mammamia("perft", "--players", "2", "--depth", "1", "--house", str(bad))
    assert result.returncode == 2 and "bombastica_total" in result.stderr
    assert "Traceback" not in result.stderr
