"""Scenario files: every problem is reported with its file and line; the runner reports
divergences as results, not exceptions; the `mammamia scenario` commands."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from mammamia_ref.cli.app import main
from mammamia_ref.errors import MalformedError
from mammamia_ref.formats.safeyaml import YamlInputError
from mammamia_ref.formats.scenario import ScenarioError, load_all, load_scenario
from mammamia_ref.rules import specdata
from mammamia_ref.sim.scenario_run import run_scenario

ROOT = Path(__file__).resolve().parent.parent
ALBERTO = ROOT / "scenarios" / "rulebook" / "alberto-turn.yaml"

TINY = """\
id: tiny
title: A tiny scenario
rules: [turn.play]
given:
  state:
    players:
      - colour: red
        hand:
          ingredients: {salami: 2}
          orders: [red.pineapple4]
      - colour: yellow
        hand:
          ingredients: {olive: 1}
    supply: [pepper, mamma_mia, mushroom]
steps:
  - do: {type: play, kind: salami, count: 2}
    expect:
      events:
        - {event: played, rule: turn.play, kind: salami, count: 2}
      to_move: red
"""

TWO_RUNS = """\
id: two-runs
title: The same draw under two refill rulings
rules: [turn.draw, turn.draw_as_played]
given:
  state:
    players:
      - colour: red
        hand:
          ingredients: {salami: 2}
      - colour: yellow
        hand:
          ingredients: {olive: 1}
    supply: [pepper, mamma_mia, mushroom, olive, olive, salami, pepper]
runs:
  - name: to_seven
    variants: {}
    steps:
      - do: {type: play, kind: salami, count: 1}
      - do: {type: draw, source: supply}
        expect:
          events: [{event: drew, rule: turn.draw}]
  - name: as_played
    variants: {refill: as_many_as_played}
    steps:
      - do: {type: play, kind: salami, count: 1}
      - do: {type: draw, source: supply}
        expect:
          events: [{event: drew, rule: turn.draw_as_played, count: 1}]
"""


def line_of(text: str, marker: str, nth: int = 1) -> int:
    """The 1-based line of the ``nth`` line containing ``marker``."""
    hits = [i for i, line in enumerate(text.splitlines(), 1) if marker in line]
    assert len(hits) >= nth, marker
    return hits[nth - 1]


def write(folder: Path, text: str, name: str = "tiny.yaml") -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def load_error(path: Path, line: int | set[int] | None, *needles: str,
               kind: type = ScenarioError) -> MalformedError:
    """``line`` may be a set of acceptable lines (where a more precise line would be better
    than the one reported today)."""
    with pytest.raises(kind) as info:
        load_scenario(path)
    error = info.value
    assert error.file == str(path)
    if isinstance(line, set):
        assert error.line in line, str(error)
        line = error.line
    assert error.line == line, str(error)
    assert str(error).startswith(f"{path}:{line}:" if line else str(path))
    for needle in needles:
        assert needle in str(error), str(error)
    return error


# --- good files ---------------------------------------------------------------------


def test_tiny_scenario_loads_and_passes(tmp_path) -> None:
    scenario = load_scenario(write(tmp_path, TINY))
    assert scenario.id == "tiny" and scenario.rules == ("turn.play",)
    [result] = run_scenario(scenario)
    assert result.passed, result.failure


def test_two_runs_load_and_pass(tmp_path) -> None:
    scenario = load_scenario(write(tmp_path, TWO_RUNS, "two-runs.yaml"))
    assert [run.name for run in scenario.runs] == ["to_seven", "as_played"]
    assert scenario.runs[1].variants == {"refill": "as_many_as_played"}
    results = run_scenario(scenario)
    assert [r.passed for r in results] == [True, True], [r.failure for r in results]


def test_the_rulebook_scenario_loads(tmp_path) -> None:
    copy = tmp_path / ALBERTO.name
    shutil.copy(ALBERTO, copy)
    assert all(r.passed for r in run_scenario(load_scenario(copy)))


def test_a_folder_named_through_a_dotted_path_is_searched(tmp_path, monkeypatch) -> None:
    """Hidden and private parts are judged below the folder given, not in the path to it:
    ``../suite`` or a suite under a hidden folder loads like any other."""
    suite = tmp_path / ".cache" / "suite"
    write(suite, TINY)
    write(suite / ".hidden", TINY)  # below the folder: still left out
    monkeypatch.chdir(suite / ".hidden")
    for given in (suite, Path("..")):
        scenarios, errors = load_all([given])
        assert [s.id for s in scenarios] == ["tiny"] and not errors, given


def test_a_run_that_checks_nothing_is_refused(tmp_path) -> None:
    text = TWO_RUNS.replace("""        expect:
          events: [{event: drew, rule: turn.draw_as_played, count: 1}]
""", "")
    path = write(tmp_path, text, "two-runs.yaml")
    load_error(path, line_of(text, "steps:", 2), "run 'as_played' checks nothing")


# --- schema violations --------------------------------------------------------------


def test_missing_given(tmp_path) -> None:
    start, end = TINY.index("given:"), TINY.index("steps:")
    path = write(tmp_path, TINY[:start] + TINY[end:])
    load_error(path, 1, "'given' is a required property")


def test_missing_title(tmp_path) -> None:
    path = write(tmp_path, TINY.replace("title: A tiny scenario\n", ""))
    load_error(path, 1, "'title' is a required property")


def test_unknown_top_level_key(tmp_path) -> None:
    text = TINY.replace("rules:", "colour: blue\nrules:")
    load_error(write(tmp_path, text), {1, line_of(text, "colour: blue")}, "'colour'")


def test_unknown_key_in_a_step(tmp_path) -> None:
    text = TINY.replace("      to_move: red\n", "      to_move: red\n    colour: blue\n")
    path = write(tmp_path, text)
    load_error(path, {line_of(text, "- do:"), line_of(text, "colour: blue")}, "'colour'")


def test_steps_and_runs_both(tmp_path) -> None:
    text = TINY + "runs:\n  - name: a\n    variants: {}\n    steps: []\n"
    load_error(write(tmp_path, text), {1, line_of(text, "steps:"), line_of(text, "runs:")})


def test_neither_steps_nor_runs(tmp_path) -> None:
    text = TINY[:TINY.index("steps:")]
    load_error(write(tmp_path, text), 1, "schema")


def test_reject_without_do(tmp_path) -> None:
    text = TINY.replace("      to_move: red\n",
                        "      to_move: red\n  - reject: {rule: turn.play}\n")
    load_error(write(tmp_path, text), line_of(text, "- reject:"), "schema", "/steps/1")


def test_bad_setup_player_count(tmp_path) -> None:
    text = ("id: tiny\ntitle: t\nrules: [setup.deal]\ngiven:\n  setup:\n    players: 6\n"
            "steps: []\n")
    load_error(write(tmp_path, text), 6, "schema", "/given/setup/players")


# --- rule IDs -----------------------------------------------------------------------


def test_unknown_rule_id_in_rules(tmp_path) -> None:
    text = TINY.replace("rules: [turn.play]", "rules: [turn.play, turn.nope]")
    load_error(write(tmp_path, text), 3, "unknown rule ID 'turn.nope'")


def test_unknown_rule_id_in_a_block_list(tmp_path) -> None:
    text = TINY.replace("rules: [turn.play]",
                        "rules:\n  - turn.play\n  - turn.draw\n  - oven.nope\n")
    load_error(write(tmp_path, text), line_of(text, "oven.nope"), "unknown rule ID 'oven.nope'")


def test_malformed_rule_id(tmp_path) -> None:
    text = TINY.replace("rules: [turn.play]", "rules:\n  - turn.play\n  - Turn Play\n")
    load_error(write(tmp_path, text), line_of(text, "Turn Play"), "schema", "/rules/1")


def test_unknown_rule_id_in_reject(tmp_path) -> None:
    text = TINY.replace("    expect:\n", "    reject: {rule: turn.nope}\n    expect:\n")
    load_error(write(tmp_path, text), line_of(text, "turn.nope"), "unknown rule ID 'turn.nope'")


def test_unknown_rule_id_in_an_expected_event(tmp_path) -> None:
    text = TINY.replace("{event: played, rule: turn.play,", "{event: played, rule: turn.nope,")
    load_error(write(tmp_path, text), line_of(text, "turn.nope"), "unknown rule ID 'turn.nope'")


def test_unknown_winner_rule(tmp_path) -> None:
    text = TINY.replace("      to_move: red\n",
                        "      to_move: red\n      winner_rule: game_end.x\n")
    load_error(write(tmp_path, text), line_of(text, "game_end.x"), "unknown rule ID 'game_end.x'")


# --- actions ------------------------------------------------------------------------


@pytest.mark.parametrize("do, needle", [
    ("{type: place_order, order: red.salami9}", "unknown order ID 'red.salami9'"),
    ("{type: place_order, order: blue.salami4}", "unknown order ID 'blue.salami4'"),
    ("{type: play, kind: anchovy, count: 2}", "unknown ingredient kind 'anchovy'"),
    ("{type: name_kind, kind: Salami}", "unknown ingredient kind 'Salami'"),
    ("{type: play, kind: salami, count: -2}", "non-negative integer"),
    ("{type: play, kind: salami}", "play needs count"),
    ("{type: play, kind: salami, count: 2, seat: 0}", "play takes no seat"),
    ("{type: bake}", "unknown action type 'bake'"),
    ("{type: draw, source: deck}", "'supply' or 'waiter'"),
    ("{type: complete, cards: {anchovy: 1}}", "unknown ingredient kind 'anchovy'"),
])
def test_bad_action_reports_the_action_parser_message(tmp_path, do, needle) -> None:
    text = TINY.replace("{type: play, kind: salami, count: 2}", do)
    error = load_error(write(tmp_path, text), line_of(text, "- do:"), needle, "/steps/0/do")
    assert "schema" not in str(error)  # the parser's words, not "not valid under any"


def test_bad_action_in_expected_legal_actions(tmp_path) -> None:
    text = TINY.replace("      to_move: red\n",
                        "      to_move: red\n      legal:\n        - {type: place_order, "
                        "order: red.nope}\n")
    load_error(write(tmp_path, text), line_of(text, "red.nope"), "unknown order ID 'red.nope'",
               "/steps/0/expect/legal/0")


def test_bad_action_in_a_run(tmp_path) -> None:
    text = TWO_RUNS.replace("{type: draw, source: supply}\n        expect:\n          events: "
                            "[{event: drew, rule: turn.draw_as_played",
                            "{type: draw, source: oven}\n        expect:\n          events: "
                            "[{event: drew, rule: turn.draw_as_played")
    assert "source: oven" in text
    load_error(write(tmp_path, text, "two-runs.yaml"), line_of(text, "source: oven"),
               "'supply' or 'waiter'", "/runs/1/steps/1/do")


# --- file name, given state, variants -----------------------------------------------


def test_file_not_named_after_the_id(tmp_path) -> None:
    load_error(write(tmp_path, TINY, "small.yaml"), 1, "tiny.yaml", "named after")


def test_given_cards_do_not_add_up(tmp_path) -> None:
    text = TINY.replace("ingredients: {salami: 2}", "ingredients: {salami: 14}")
    load_error(write(tmp_path, text), line_of(text, "state:"), "impossible", "salami")


def test_given_with_two_mamma_mia_cards(tmp_path) -> None:
    text = TINY.replace("supply: [pepper, mamma_mia, mushroom]",
                        "supply: [pepper, mamma_mia, mushroom]\n    mamma_mia: 1")
    load_error(write(tmp_path, text), line_of(text, "given:"), "Mamma Mia!", "setup.components")


def test_given_with_a_hand_of_eight(tmp_path) -> None:
    text = TINY.replace("ingredients: {salami: 2}", "ingredients: {salami: 7}")
    load_error(write(tmp_path, text), line_of(text, "given:"), "turn.draw")


def test_given_with_an_order_twice(tmp_path) -> None:
    text = TINY.replace("orders: [red.pineapple4]", "orders: [red.pineapple4]\n"
                        "        delivered: [red.pineapple4]")
    load_error(write(tmp_path, text), line_of(text, "given:"), "red.pineapple4")


def test_unknown_variant_flag(tmp_path) -> None:
    text = TINY.replace("steps:\n", "variants: {foo: bar}\nsteps:\n")
    load_error(write(tmp_path, text), line_of(text, "variants:"), "unknown variant flag 'foo'")


def test_unknown_variant_value(tmp_path) -> None:
    text = TINY.replace("steps:\n", "variants:\n  refill: to_eight\nsteps:\n")
    load_error(write(tmp_path, text), line_of(text, "variants:"), "to_eight", "refill")


def test_unknown_variant_flag_in_a_run(tmp_path) -> None:
    text = TWO_RUNS.replace("variants: {refill: as_many_as_played}", "variants: {refil: x}")
    load_error(write(tmp_path, text, "two-runs.yaml"), line_of(text, "refil: x"),
               "unknown variant flag 'refil'")


def test_given_under_a_variant_must_add_up(tmp_path) -> None:
    """A given state whose box follows trimming=on is impossible under trimming=off."""
    text = TWO_RUNS.replace("variants: {refill: as_many_as_played}",
                            "variants: {trimming: \"off\"}")
    text = text.replace("    supply:", "    box: {salami: 5, pineapple: 5, mushroom: 5, "
                        "pepper: 5, olive: 5}\n    supply:")
    load_error(write(tmp_path, text, "two-runs.yaml"), line_of(text, "given:"),
               "run 'as_played'", "setup.full_deck")


def test_yaml_problems_come_through_as_yaml_input_errors(tmp_path) -> None:
    text = TINY.replace("title: A tiny scenario\n", "title: A tiny scenario\ntitle: again\n")
    load_error(write(tmp_path, text), 3, "duplicate key 'title'", kind=YamlInputError)
    text = TINY.replace("count: 2}\n    expect", "count: 2.5}\n    expect")
    load_error(write(tmp_path, text), line_of(text, "2.5"), "integers only", kind=YamlInputError)


# --- load_all -----------------------------------------------------------------------


def test_load_all_keeps_going_and_reports_duplicate_ids(tmp_path) -> None:
    bad_rule = write(tmp_path, TINY.replace("id: tiny", "id: a-bad").replace(
        "rules: [turn.play]", "rules: [turn.nope]"), "a-bad.yaml")
    bad_yaml = write(tmp_path, "id: b-yaml\nid: again\n", "b-yaml.yaml")
    good = write(tmp_path, TINY)
    twin = write(tmp_path / "zz", TINY)
    write(tmp_path / "_drafts", "not: [valid\n", "draft.yaml")  # ignored: starts with _
    write(tmp_path / ".hidden", "not: [valid\n", "draft.yaml")  # ignored: hidden
    scenarios, errors = load_all([tmp_path])
    assert [s.file for s in scenarios] == [str(good)]
    assert len(errors) == 3
    messages = [str(e) for e in errors]
    assert messages[0].startswith(f"{bad_rule}:3:") and "turn.nope" in messages[0]
    assert messages[1].startswith(f"{bad_yaml}:2:") and "duplicate key" in messages[1]
    assert str(twin) in messages[2] and "'tiny'" in messages[2]
    assert "also used by" in messages[2] and str(good) in messages[2]


def test_load_all_with_explicit_files(tmp_path) -> None:
    good = write(tmp_path, TINY)
    scenarios, errors = load_all([good, good])
    assert len(scenarios) == 1 and len(errors) == 1 and "also used by" in str(errors[0])


# --- running ------------------------------------------------------------------------


def test_an_illegal_action_fails_the_run_with_a_message(tmp_path) -> None:
    text = TINY.replace("{type: play, kind: salami, count: 2}",
                        "{type: play, kind: olive, count: 1}")
    [result] = run_scenario(load_scenario(write(tmp_path, text)))
    assert not result.passed
    assert result.step == 0 and result.line == line_of(text, "- do:")
    assert "was rejected" in result.failure and "[turn.play]" in result.failure


def test_an_action_of_the_wrong_kind_fails_the_run(tmp_path) -> None:
    text = TINY.replace("{type: play, kind: salami, count: 2}", "{type: draw, source: supply}")
    [result] = run_scenario(load_scenario(write(tmp_path, text)))
    assert not result.passed and "was rejected" in result.failure


def test_a_wrong_expectation_fails_the_run(tmp_path) -> None:
    text = TINY.replace("to_move: red", "to_move: yellow")
    [result] = run_scenario(load_scenario(write(tmp_path, text)))
    assert not result.passed and result.step == 0
    assert "to_move: expected yellow, got red" in result.failure


def test_an_expected_rejection(tmp_path) -> None:
    text = TINY.replace("{type: play, kind: salami, count: 2}\n    expect:\n      events:\n"
                        "        - {event: played, rule: turn.play, kind: salami, count: 2}\n",
                        "{type: play, kind: olive, count: 1}\n    reject: {rule: turn.play}\n"
                        "    expect:\n")
    [result] = run_scenario(load_scenario(write(tmp_path, text)))
    assert result.passed, result.failure
    wrong = text.replace("reject: {rule: turn.play}", "reject: {rule: turn.pass}")
    [result] = run_scenario(load_scenario(write(tmp_path, wrong)))
    assert not result.passed and "expected rule turn.pass" in result.failure
    accepted = TINY.replace("    expect:\n", "    reject: {rule: turn.play}\n    expect:\n", 1)
    [result] = run_scenario(load_scenario(write(tmp_path, accepted)))
    assert not result.passed and "was accepted" in result.failure


# --- the scenario commands ----------------------------------------------------------


def cli(capsys, *args: str) -> tuple[int, str, str]:
    try:
        code = main(list(args))
    except SystemExit as exc:  # argparse
        code = exc.code
    out, err = capsys.readouterr()
    return code, out, err


def test_scenario_check_reports_the_bad_file(tmp_path, capsys) -> None:
    shutil.copy(ALBERTO, tmp_path / ALBERTO.name)
    text = TINY.replace("{type: play, kind: salami, count: 2}",
                        "{type: place_order, order: red.salami9}")
    bad = write(tmp_path, text)
    code, out, err = cli(capsys, "scenario", "check", str(tmp_path))
    assert code == 1
    assert f"{bad}:{line_of(text, '- do:')}:" in err
    assert "red.salami9" in err
    assert "1 scenario files valid, 1 invalid" in out
    assert str(tmp_path / ALBERTO.name) not in err


def test_scenario_check_all_good(tmp_path, capsys) -> None:
    shutil.copy(ALBERTO, tmp_path / ALBERTO.name)
    code, out, err = cli(capsys, "scenario", "check", str(tmp_path))
    assert (code, err) == (0, "") and "1 scenario files valid, 0 invalid" in out


def test_scenario_check_missing_path(tmp_path, capsys) -> None:
    code, _out, err = cli(capsys, "scenario", "check", str(tmp_path / "nope"))
    assert code == 2 and err.startswith("mammamia: error:") and err.count("\n") == 1


def test_scenario_run_json_prints_one_object_per_run(tmp_path, capsys) -> None:
    shutil.copy(ALBERTO, tmp_path / ALBERTO.name)
    write(tmp_path, TWO_RUNS, "two-runs.yaml")
    failing = write(tmp_path, TINY.replace("to_move: red", "to_move: yellow"))
    code, out, err = cli(capsys, "scenario", "run", "--json", str(tmp_path))
    records = [json.loads(line) for line in out.splitlines()]
    assert len(records) == 4
    assert {(r["scenario"], r["run"]) for r in records} == {
        ("alberto-turn", "default"), ("two-runs", "to_seven"), ("two-runs", "as_played"),
        ("tiny", "default")}
    for record in records:
        assert set(record) >= {"scenario", "run", "file", "passed", "step", "line", "failure"}
    by_name = {r["scenario"]: r for r in records}
    assert by_name["alberto-turn"]["passed"] is True
    tiny = by_name["tiny"]
    assert tiny["passed"] is False and tiny["file"] == str(failing)
    assert tiny["step"] == 0 and tiny["line"] == line_of(TINY, "- do:")
    assert "to_move" in tiny["failure"]
    assert code == 1 and err == ""


def test_scenario_run_text(tmp_path, capsys) -> None:
    path = tmp_path / ALBERTO.name
    shutil.copy(ALBERTO, path)
    code, out, _err = cli(capsys, "scenario", "run", "--trace", str(path))
    assert code == 0 and "PASS alberto-turn" in out and "[turn.draw_short]" in out
    assert "1 passed, 0 failed" in out


def test_scenario_export_writes_a_bundle(tmp_path, capsys) -> None:
    source = tmp_path / "in"
    source.mkdir()
    shutil.copy(ALBERTO, source / ALBERTO.name)
    target = tmp_path / "out" / "bundle.json"
    code, out, err = cli(capsys, "scenario", "export", str(source), "-o", str(target))
    assert code == 0 and err == ""
    assert str(target) in out
    bundle = json.loads(target.read_text(encoding="utf-8"))
    assert bundle["format"] == "mammamia-scenario-bundle/1"
    assert bundle["scenario_format"] == "mammamia-scenario/1"
    assert bundle["state_format"] == "mammamia-state/1"
    assert bundle["spec_version"] == specdata.load_yaml("rules.yaml")["spec_version"]
    [scenario] = bundle["scenarios"]
    assert scenario["id"] == "alberto-turn" and scenario["file"] == "alberto-turn.yaml"
    assert scenario["rules"] == list(load_scenario(source / ALBERTO.name).rules)
    assert not list(target.parent.glob(".*"))  # no temporary file left behind


def test_scenario_export_to_stdout(tmp_path, capsys) -> None:
    shutil.copy(ALBERTO, tmp_path / ALBERTO.name)
    code, out, _err = cli(capsys, "scenario", "export", str(tmp_path))
    assert code == 0 and json.loads(out)["scenarios"][0]["id"] == "alberto-turn"


# --- bugs -----------------------------------------------------------------------------


def scenario_error_of(path: Path) -> ScenarioError:
    """The ScenarioError of loading ``path``; anything else fails the test briefly."""
    try:
        load_scenario(path)
    except ScenarioError as exc:
        return exc
    except Exception as exc:  # the point is to show what escaped
        pytest.fail(f"{type(exc).__name__} escaped: {exc}", pytrace=False)
    pytest.fail("loaded without an error", pytrace=False)


SETUP_BAD_COLOURS = """\
id: tiny
title: Three players but two colours
rules: [setup.deal]
given:
  setup:
    players: 3
    colours: [red, yellow]
steps: []
"""


@pytest.mark.parametrize("text", [
    SETUP_BAD_COLOURS,
    SETUP_BAD_COLOURS.replace("    colours: [red, yellow]\n", "    first_player: 4\n"),
])
def test_bad_given_setup_is_a_scenario_error(tmp_path, text) -> None:
    path = write(tmp_path, text)
    error = scenario_error_of(path)
    assert error.file == str(path) and error.line is not None


def test_scenario_check_survives_a_bad_given_setup(tmp_path, capsys) -> None:
    shutil.copy(ALBERTO, tmp_path / ALBERTO.name)
    bad = write(tmp_path, SETUP_BAD_COLOURS)
    code, out, err = cli(capsys, "scenario", "check", str(tmp_path))
    assert code == 1 and str(bad) in err and "1 scenario files valid, 1 invalid" in out


MINIMAL = """\
id: tiny
title: t
rules: [turn.play]
given:
  state: {STATE}
steps: []
"""


@pytest.mark.parametrize("state", [
    "{players: 5}",
    "{players: [red, yellow]}",
    "{players: [{colour: red, hand: 3}, {colour: yellow}]}",
    "{players: [{colour: red, waiter: 3}, {colour: yellow}]}",
    "{players: [{colour: red, hand: {ingredients: {salami: x}}}, {colour: yellow}]}",
    "{players: [{colour: red}, {colour: yellow}], supply: 3}",
    "{players: [{colour: red}, {colour: yellow}], table: [1]}",
    "{players: [{colour: red}, {colour: yellow}], round: x}",
])
def test_malformed_partial_state_is_a_scenario_error(tmp_path, state) -> None:
    path = write(tmp_path, MINIMAL.replace("{STATE}", state))
    assert scenario_error_of(path).line == 5


@pytest.mark.parametrize("old, new", [
    ("ingredients: {olive: 1}", "ingredients: {olvie: 1}"),
    ("ingredients: {salami: 2}", "ingredients: {salami: 2, anchovy: 1}"),
    ("    supply:", "    table: {anchovy: 1}\n    supply:"),
])
def test_unknown_kind_in_the_given_state_is_refused(tmp_path, old, new) -> None:
    text = TINY.replace(old, new)
    assert text != TINY
    message = str(scenario_error_of(write(tmp_path, text)))
    assert "olvie" in message or "anchovy" in message


def test_steps_and_runs_message_names_the_problem(tmp_path) -> None:
    text = TINY + "runs:\n  - name: a\n    variants: {}\n    steps: []\n"
    message = str(scenario_error_of(write(tmp_path, text)))
    assert len(message) < 300, len(message)
    assert "steps" in message and "runs" in message


def test_unknown_key_is_reported_at_its_line(tmp_path) -> None:
    text = TINY.replace("steps:\n", "colour: blue\nsteps:\n")
    assert scenario_error_of(write(tmp_path, text)).line == line_of(text, "colour: blue")


@pytest.mark.parametrize(("expect", "needle"), [
    ("    expect:\n      events: []\n", "should be non-empty"),
    ("    expect:\n      state: {}\n", "should be non-empty"),
    ("    expect: {}\n", "should be non-empty"),
])
def test_an_expectation_that_expects_nothing_is_refused(tmp_path, expect: str,
                                                        needle: str) -> None:
    """``events: []`` would pass whatever the step does (they are looked for among the
    actual events); an empty state projection or expectation likewise. Each is refused,
    so no scenario step can pass on nothing."""
    start = TINY.index("    expect:\n")
    text = TINY[:start] + expect
    path = write(tmp_path, text)
    load_error(path, {line_of(text, "expect:"), line_of(text, "- do:"),
                      line_of(text, "events: []") if "events" in expect else 0,
                      line_of(text, "state: {}") if "state" in expect else 0}, needle)
