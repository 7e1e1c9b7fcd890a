"""The conformance kit against the reference, against deliberately broken
implementations (each catches with the rule named) and against hostile programs."""

from __future__ import annotations

import functools
import json
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from mammamia_ref.formats.scenario import Scenario, load_all, load_scenario
from mammamia_ref.rules.state import variant_defaults, variant_values
from mammamia_ref.sim.scenario_run import run_scenario

sys.path.insert(0, str(Path(__file__).resolve().parent))
import patience

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.slow  # every test here drives implementations as subprocesses
BROKEN = [sys.executable, str(ROOT / "tests" / "impls" / "broken.py")]
REFERENCE = [sys.executable, "-m", "mammamia_ref", "serve"]
SCENARIOS = str(ROOT / "scenarios")


CORPUS = pytest.mark.xdist_group("conformance-corpus")   # the tests that read _corpus()


@functools.cache
def _corpus() -> tuple[Scenario, ...]:
    """The committed scenarios, loaded once for the tests here that read them all (each
    loaded and checked every file again: about 1.1 s of CPU)."""
    scenarios, problems = load_all([SCENARIOS])
    assert not problems, problems
    return tuple(scenarios)


def conform(*args: str, impl: list[str], cwd: Path | None = None,
            idle_seconds: float = 300) -> subprocess.CompletedProcess[str]:
    """``mammamia conform``, failing the test if it has not ended within ``idle_seconds``
    of an idle machine (stretched by the load: a hang guard, not a speed check)."""
    command = [sys.executable, "-m", "mammamia_ref", "conform", *args, "--", *impl]
    return patience.run(command, idle_seconds, cwd=cwd or ROOT)


@CORPUS
def test_reference_passes_everything_and_an_empty_folder_runs_the_packaged_suite(
        tmp_path: Path) -> None:
    """From a folder with no ``scenarios/`` the packaged suite is run: every scenario run
    and counting table, and a random game per player count, all passing."""
    jsonl, junit = tmp_path / "r.jsonl", tmp_path / "r.xml"
    result = conform("-q", "--random-games", "1", "--max-nodes", "300",
                     "--jsonl", str(jsonl), "--junit", str(junit), impl=REFERENCE, cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    records = [json.loads(line) for line in jsonl.read_text().splitlines()]
    kinds = {r["kind"] for r in records}
    assert kinds == {"scenario", "perft", "random"}
    assert all(r["status"] == "pass" for r in records)
    assert sum(r["kind"] == "random" for r in records) == 4  # one game per player count
    runs = sum(len(s.runs) for s in _corpus())
    assert sum(r["kind"] == "scenario" for r in records) == runs
    assert sum(r["kind"] == "perft" for r in records) == len(list(Path(SCENARIOS, "perft")
                                                                  .glob("*.yaml")))
    suite = ET.parse(junit).getroot()
    assert suite.get("tests") == str(len(records)) and suite.get("failures") == "0"


@pytest.mark.parametrize("breakage,rule,folder", [
    ("mixed_draw_sources", "turn.draw_short", "turn"),
    ("bombastica_keeps_table", "oven.bombastica", "oven"),
    ("minimale_names_personal", "oven.minimale", "oven"),
    ("draw_past_seven", "turn.draw", "turn"),
    ("failed_order_on_top", "oven.fail", "oven"),
])
def test_broken_implementation_is_caught_with_its_rule(breakage: str, rule: str, folder: str,
                                                       tmp_path: Path) -> None:
    result = conform("-q", "--scenarios", f"{SCENARIOS}/{folder}", "--random-games", "1",
                     "--perft", str(tmp_path), impl=[*BROKEN, breakage])
    assert result.returncode == 1, result.stdout
    rules_section = result.stdout.split("rules involved in unexpected failures:")[1]
    named = [line.split(":")[0].strip() for line in rules_section.splitlines()[1:4]]
    assert rule in named, result.stdout[:3000]
    assert "FAIL" in result.stdout


@pytest.mark.parametrize("kind,expected", [
    ("never_answers", "timeout"),
    ("floods", "too_long"),
    ("invalid_json", "malformed"),
    ("invalid_utf8", "malformed"),
    ("wrong_ids", "wrong_id"),
    ("crashes_halfway", "crash"),
])
def test_hostile_implementation_is_reported_and_the_run_goes_on(kind: str, expected: str,
                                                                tmp_path: Path) -> None:
    jsonl = tmp_path / "r.jsonl"
    result = conform("-q", "--timeout", "1", "--scenarios",  # no hang: within the guard
                     str(ROOT / "scenarios" / "rulebook" / "alberto-turn.yaml"),
                     "--random-games", "1", "--players", "2", "--players", "3",
                     "--perft", str(tmp_path), "--jsonl", str(jsonl), impl=[*BROKEN, kind],
                     idle_seconds=60)
    assert result.returncode == 1
    records = [json.loads(line) for line in jsonl.read_text().splitlines()]
    assert len(records) == 3, "every case was tried despite the failures"
    assert all(r["status"] == "error" for r in records)
    assert any(r["message"].startswith(expected) for r in records), records


@pytest.mark.parametrize("kind,expected", [
    ("exit_at_once", "crash"),
    pytest.param("wrong_protocol", "mammamia-protocol/0",
                 marks=pytest.mark.xdist_group("wrong-protocol-run")),
])
def test_implementation_that_cannot_start(kind: str, expected: str,
                                          request: pytest.FixtureRequest) -> None:
    """The run of a port that speaks no version the kit knows is shared with
    ``test_protocol_versions`` (``wrong_protocol_run``): the same command."""
    result = request.getfixturevalue("wrong_protocol_run") if kind == "wrong_protocol" \
        else conform("-q", "--random-games", "0", impl=[*BROKEN, kind])
    assert result.returncode == 2
    assert expected in result.stderr and "Traceback" not in result.stderr


def test_missing_command_is_a_one_line_error() -> None:
    result = subprocess.run([sys.executable, "-m", "mammamia_ref", "conform"],
                            capture_output=True, text=True, check=False, cwd=ROOT)
    assert result.returncode == 2 and result.stderr.startswith("mammamia: error:")


def test_expected_failures_file(tmp_path: Path) -> None:
    xfail = tmp_path / "xfail.txt"
    xfail.write_text("# known\nbombastica-big-table\nalberto-turn  # passes: an xpass\n")
    result = conform("-q", "--scenarios", str(ROOT / "scenarios" / "oven" /
                                              "bombastica-big-table.yaml"),
                     "--scenarios", str(ROOT / "scenarios" / "rulebook" / "alberto-turn.yaml"),
                     "--random-games", "0", "--perft", str(tmp_path),
                     "--expected-failures", str(xfail), impl=[*BROKEN, "bombastica_keeps_table"])
    assert "1 expected failures" in result.stdout
    assert "1 unexpected passes" in result.stdout
    assert result.returncode == 1  # the unexpected pass must be removed from the file


def test_divergence_is_written_as_a_scenario_that_replays(tmp_path: Path) -> None:
    out = tmp_path / "divergences"
    result = conform("-q", "--scenarios", str(tmp_path), "--perft", str(tmp_path),
                     "--random-games", "2", "--players", "2", "--write-divergences", str(out),
                     impl=[*BROKEN, "draw_past_seven"])
    assert result.returncode == 1
    written = sorted(out.glob("*.yaml"))
    assert written, result.stdout
    for path in written:
        scenario = load_scenario(path)
        assert all(r.passed for r in run_scenario(scenario)), path


# --- issue 15: the packaged suite, self-checking scenarios, options, reports ------------


def test_a_run_without_scenarios_says_so(tmp_path: Path) -> None:
    """Random games alone may pass, but never as if the scenarios had."""
    result = conform("-q", "--scenarios", str(tmp_path), "--random-games", "1", "--players",
                     "2", impl=REFERENCE)
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"warning: no scenario to run: looked for scenarios in {tmp_path}" in result.stderr
    assert "scenarios: none run; counting tables: none run; random games: 1 pass" \
        in result.stdout


def test_a_run_that_finds_no_case_is_an_error(tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    result = conform("--scenarios", str(empty), "--random-games", "0", impl=REFERENCE)
    assert result.returncode == 2 and result.stderr.count("\n") == 1, result.stderr
    assert "no case to run" in result.stderr and str(empty) in result.stderr
    for command in (["scenario", "run", str(empty)], ["scenario", "export", str(empty)],
                    ["verify", "--scenarios", str(empty)]):
        done = subprocess.run([sys.executable, "-m", "mammamia_ref", *command],
                              capture_output=True, text=True, check=False, cwd=ROOT)
        assert done.returncode == 2, command
        assert done.stderr == f"mammamia: error: no scenarios found in {empty}\n", command


@pytest.mark.parametrize("options", [
    ["--players", "9"], ["--players", "2", "--players", "1"], ["--timeout", "nan"],
    ["--timeout", "inf"], ["--timeout", "-1"], ["--budget", "-0.5"], ["--budget", "inf"],
    ["--startup-timeout", "nan"], ["--variant", "no_such_flag=x"],
    ["--variant", "final_tie=no_such_value"],
    ["--variant", "final_tie=shared", "--variant", "final_tie=seat_order"],
    ["--max-nodes", "-3"], ["--random-games", "x"], ["--jsonl", "/"],
])
def test_options_are_checked_before_any_work(options: list[str], tmp_path: Path) -> None:
    marker = tmp_path / "started"
    impl = [sys.executable, "-c", f"open({str(marker)!r}, 'w')"]
    result = conform(*options, impl=impl)
    assert result.returncode == 2, result.stdout + result.stderr
    assert result.stderr.startswith("mammamia: error:") and result.stderr.count("\n") == 1
    assert not result.stdout and not marker.exists(), "work began before the options were checked"


def test_the_budget_holds_inside_a_counting_run(tmp_path: Path) -> None:
    jsonl = tmp_path / "r.jsonl"
    result = conform("-q", "--scenarios", str(tmp_path), "--max-nodes", "100000000",
                     "--random-games", "0", "--perft", SCENARIOS + "/perft", "--budget", "1",
                     "--jsonl", str(jsonl), impl=REFERENCE)
    records = [json.loads(line) for line in jsonl.read_text().splitlines()]
    assert result.returncode == 1
    assert any(r["status"] == "error" and "budget" in r["message"] for r in records), records


def test_jsonl_is_written_as_each_case_finishes(tmp_path: Path) -> None:
    jsonl = tmp_path / "r.jsonl"
    command = [sys.executable, "-m", "mammamia_ref", "conform", "-q", "--random-games", "50",
               "--scenarios", SCENARIOS + "/turn", "--jsonl", str(jsonl), "--", *REFERENCE]
    process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)

    def three_or_ended() -> bool:
        return (jsonl.exists() and jsonl.read_text().count("\n") >= 3) or \
            process.poll() is not None

    try:  # until a few cases are on disk (or the run ends), with a hang guard
        patience.Patience(120).wait(three_or_ended)
    finally:
        process.kill()
        process.wait()
    lines = jsonl.read_text().splitlines()
    assert len(lines) >= 3 and all(json.loads(line)["status"] == "pass" for line in lines)


def test_a_scenario_the_reference_fails_is_a_defect_of_the_suite(tmp_path: Path) -> None:
    text = (ROOT / "scenarios" / "game_end" / "tie-break.yaml").read_text(encoding="utf-8")
    assert "winner_rule: game_end.tie_break" in text
    (tmp_path / "tie-break.yaml").write_text(
        text.replace("winner_rule: game_end.tie_break", "winner_rule: game_end.shared_win", 1),
        encoding="utf-8")
    result = conform("-q", "--scenarios", str(tmp_path), "--random-games", "0", impl=REFERENCE)
    assert result.returncode == 1
    assert "ERROR scenario tie-break" in result.stdout
    assert "defect of the suite: the reference fails this scenario's own" in result.stdout


def test_a_random_game_failure_says_how_to_replay_it(tmp_path: Path) -> None:
    result = conform("-q", "--scenarios", str(tmp_path), "--random-games", "1", "--players",
                     "2", "--seed", "4", "--variant", "draw_amount=any",
                     impl=[*BROKEN, "draw_past_seven"])
    assert result.returncode == 1
    assert "replay: mammamia conform --players 2 --seed 4 --random-games 1 " \
        "--variant draw_amount=any -- COMMAND" in result.stdout, result.stdout


def test_every_ruling_is_swept(tmp_path: Path) -> None:
    jsonl = tmp_path / "r.jsonl"
    result = conform("-q", "--scenarios", str(tmp_path), "--random-games", "1", "--players",
                     "3", "--sweep-variants", "--jsonl", str(jsonl), impl=REFERENCE)
    assert result.returncode == 0, result.stdout
    names = [json.loads(line)["name"] for line in jsonl.read_text().splitlines()]
    values, defaults = variant_values(), variant_defaults()
    assert len(names) == 1 + sum(len(v) - 1 for v in values.values())
    for flag, vals in values.items():
        for value in vals:
            if value != defaults[flag]:
                assert f"random-3p-seed0-{flag}={value}" in names


@CORPUS
def test_the_bundle_carries_each_runs_complete_start(tmp_path: Path) -> None:
    from mammamia_ref.formats.jsonform import format_state
    from mammamia_ref.formats.scenario import given_state

    target = tmp_path / "bundle.json"
    done = subprocess.run([sys.executable, "-m", "mammamia_ref", "scenario", "export", "-o",
                           str(target)], capture_output=True, text=True, check=False,
                          cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    bundle = json.loads(target.read_text(encoding="utf-8"))
    scenarios = {s.id: s for s in _corpus()}
    assert {s["id"] for s in bundle["scenarios"]} == set(scenarios)
    for item in bundle["scenarios"]:
        scenario = scenarios[item["id"]]
        assert item["start"] == {run.name: format_state(given_state(scenario, run))
                                 for run in scenario.runs}


def test_a_port_without_the_seats_feature_skips_the_seat_refusals() -> None:
    from mammamia_ref.kit.cases import run_scenario_case
    from mammamia_ref.kit.client import Implementation

    [scenario] = load_all([ROOT / "scenarios" / "turn" / "only-the-seat-to-move.yaml"])[0]
    with Implementation(REFERENCE, cwd=str(ROOT)) as impl:
        impl.start()
        assert run_scenario_case(impl, scenario, scenario.runs[0]).status == "pass"
        impl.info["features"] = [f for f in impl.info["features"] if f != "seats"]
        skipped = run_scenario_case(impl, scenario, scenario.runs[0])
    assert skipped.status == "skip" and "seats" in skipped.message


@pytest.mark.parametrize(("kind", "said"), [
    ("ignores_seat", "was accepted; the reference rejects it under"),
    ("refuses_under_another_rule", "was rejected under 'turn.play'; the reference rejects "
                                   "it under"),
    ("spectator_sees_a_hand", "the observation of a spectator differs from the reference"),
])
def test_random_games_probe_refusals_seats_and_views(tmp_path: Path, kind: str,
                                                     said: str) -> None:
    """With no scenario and no counting table, the random games alone find a port that
    accepts a move from the wrong seat, refuses under the wrong rule, or shows a
    spectator a hand."""
    result = conform("-q", "--scenarios", str(tmp_path), "--perft", str(tmp_path),
                     "--random-games", "2", "--players", "3", impl=[*BROKEN, kind])
    assert result.returncode == 1, result.stdout
    assert "FAIL random random-3p-seed" in result.stdout, result.stdout
    assert said in result.stdout, result.stdout


# --- issue 32: the porter's first hour ----------------------------------------------


def test_hello_variants_decide_what_runs_and_skips_are_grouped_by_flag(tmp_path: Path) -> None:
    """A port offering only ``bombastica_hand=forbidden`` and ``stall=letter`` lacks both
    defaults: every case needing one is skipped with the value it needs, the summary
    groups the skips by flag, and the games under its own rulings run and pass."""
    jsonl = tmp_path / "r.jsonl"
    result = conform("-q", "--scenarios", f"{SCENARIOS}/oven", "--perft", str(tmp_path),
                     "--random-games", "1", "--players", "2", "--variant",
                     "bombastica_hand=forbidden", "--variant", "stall=letter",
                     "--jsonl", str(jsonl), impl=[*BROKEN, "offers_few_rulings"])
    assert result.returncode == 0, result.stdout
    records = [json.loads(line) for line in jsonl.read_text().splitlines()]
    assert [r["status"] for r in records if r["kind"] == "random"] == ["pass"]
    skips = [r for r in records if r["status"] == "skip"]
    assert skips and all(r["kind"] == "scenario" for r in skips)
    assert {r["message"] for r in skips} <= {
        "needs bombastica_hand=allowed: your implementation offers bombastica_hand=forbidden "
        "only", "needs stall=cut: your implementation offers stall=letter only"}
    by_flag = {line.split(": ", 1)[1]: int(line.split()[1].rstrip(":"))
               for line in result.stdout.splitlines() if line.startswith("skipped ")}
    assert sum(by_flag.values()) == len(skips)
    assert set(by_flag) == {"your implementation offers bombastica_hand=forbidden only",
                            "your implementation offers stall=letter only"}


def test_a_state_only_port_past_the_reference_decision_is_named_by_it(tmp_path: Path) -> None:
    """Issue 32's porter in miniature (``tests/impls/broken.py``): it plays
    ``bombastica_hand=forbidden`` while claiming the default, and sends no events. The
    report names ``oven.bombastica`` first, says in words that the reference waits for
    the owner's decision, leads each report with the position, diffs no pile across the
    round's end it went past, and records only the rules in force."""
    jsonl = tmp_path / "r.jsonl"
    result = conform("-q", "--scenarios", f"{SCENARIOS}/oven/bombastica-from-hand.yaml",
                     "--perft", str(tmp_path), "--random-games", "2", "--players", "2",
                     "--jsonl", str(jsonl), impl=[*BROKEN, "bombastica_table_only_state_only"])
    assert result.returncode == 1
    rules_section = result.stdout.split("rules involved in unexpected failures:\n")[1]
    assert rules_section.splitlines()[0].startswith("  oven.bombastica: ")
    records = [json.loads(line) for line in jsonl.read_text().splitlines()]
    failed = [r for r in records if r["status"] == "fail"]
    assert len(failed) >= 4 and all(r["rules"][0] == "oven.bombastica" for r in failed)
    for record in failed:
        lines = record["message"].splitlines()
        assert "the reference stops here and waits for the owner's decision" in lines[1]
        assert "must complete the revealed order from hand (or decline) (oven.bombastica)" \
            in lines[1]
        position = [line.strip().split(":")[0] for line in lines[2:6]]
        assert all(p.split("/")[1] in ("phase", "step", "current", "reveal")
                   for p in position if p.startswith("state/")), lines
        assert any("state/reveal" in line for line in lines)
        assert "the piles of different rounds are not compared" in record["message"]
        assert not any(line.strip().startswith(("state/supply", "state/oven", "state/table",
                                                "state/used")) for line in lines)
    in_force = {r["name"].split("[")[1].rstrip("]"): set(r["rules"]) for r in records
                if r["kind"] == "scenario"}
    assert not {"oven.bombastica_table_only", "oven.complete_mandatory"} & \
        in_force["bombastica_hand=allowed"]
    assert "oven.complete_mandatory" in in_force["completion=mandatory"]
    assert "oven.bombastica_table_only" in in_force["bombastica_hand=forbidden"]


# --- protocol version 3: the numbers of the rules ---------------------------------------

HOUSE = str(ROOT / "examples" / "house-rules" / "hand-of-eight.yaml")


def house_runs() -> dict[str, dict[str, Any]]:
    """Every run of ``scenarios/house/`` by its name in a report, with the numbers of the
    rules it sets (not the spec's): the expectations below follow the folder, so a new
    house scenario needs no edit here."""
    return {f"{scenario.id}[{run.name}]": run.rules.non_default_parameters()
            for scenario in load_all([f"{SCENARIOS}/house"])[0] for run in scenario.runs}


def test_a_port_taking_no_parameter_skips_the_house_cases_grouped_by_parameter(
        tmp_path: Path) -> None:
    """``conform --house``: the random games are played under the house rule, and a port
    whose hello lists no parameter has them skipped, with the scenarios under a house
    rule's numbers, one summary line per parameter; the spec's scenarios still run."""
    jsonl = tmp_path / "r.jsonl"
    result = conform("-q", "--scenarios", f"{SCENARIOS}/house", "--random-games", "2",
                     "--players", "2", "--house", HOUSE, "--jsonl", str(jsonl),
                     impl=[*BROKEN, "takes_no_parameters"])
    assert result.returncode == 0, result.stdout + result.stderr
    records = [json.loads(line) for line in jsonl.read_text().splitlines()]
    random_games = [r for r in records if r["kind"] == "random"]
    assert [r["status"] for r in random_games] == ["skip", "skip"]
    assert all(r["name"].endswith("-hand_limit=8") and "--house" in r["replay"]
               for r in random_games)
    runs = house_runs()
    numbered = {name: numbers for name, numbers in runs.items() if numbers}
    assert numbered and len(numbered) < len(runs)  # the folder has both kinds of run
    skipped = [r for r in records if r["status"] == "skip" and r["kind"] == "scenario"]
    assert sorted(r["name"] for r in skipped) == sorted(numbered)
    for record in skipped:  # each names a number of its run that the port does not take
        assert any(record["message"] == f"needs {name}={value}: your implementation takes no "
                   f"parameter {name}" for name, value in numbered[record["name"]].items())
    # the spec's numbers run, and so does a house rule's flag (a flag is not a parameter)
    assert sorted(r["name"] for r in records if r["status"] == "pass") == \
        sorted(name for name, numbers in runs.items() if not numbers)
    by_parameter = Counter(next(iter(numbers)) for numbers in numbered.values())
    by_parameter["hand_limit"] += len(random_games)  # the house rule's number
    for name, count in by_parameter.items():
        assert f"skipped {count}: your implementation takes no parameter {name}" \
            in result.stdout
    assert "random games: house rule 'hand of eight': hand_limit=8" in result.stdout


def test_a_port_dropping_the_parameters_of_new_game_fails_under_the_house_rule(
        tmp_path: Path) -> None:
    """A port that lists every parameter but plays the spec's numbers: the state after
    new_game lacks the parameters, and the rule of the number is named."""
    result = conform("-q", "--scenarios", str(tmp_path), "--perft", str(tmp_path),
                     "--random-games", "1", "--players", "3", "--house", HOUSE,
                     impl=[*BROKEN, "ignores_parameters"])
    assert result.returncode == 1, result.stdout + result.stderr
    assert "FAIL random random-3p-seed0-hand_limit=8" in result.stdout
    assert 'state/parameters: missing (expected {"hand_limit":8})' in result.stdout
    assert "turn.draw: 1" in result.stdout
    assert f"--house {HOUSE}" in result.stdout


def test_the_reference_passes_under_a_house_rule_and_a_bad_file_is_one_line(
        tmp_path: Path) -> None:
    result = conform("-q", "--scenarios", f"{SCENARIOS}/house", "--random-games", "1",
                     "--house", HOUSE, impl=REFERENCE)
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"scenarios: {len(house_runs())} pass" in result.stdout
    assert "random games: 4 pass" in result.stdout
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: x\nparameters: {hand_limit: 0}\n", encoding="utf-8")
    result = conform("--house", str(bad), impl=REFERENCE)
    assert result.returncode == 2 and result.stderr.count("\n") == 1
    assert "hand_limit" in result.stderr and "Traceback" not in result.stderr
