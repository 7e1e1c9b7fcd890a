"""The `mammamia` command line, run in-process through mammamia_ref.cli.app (and once as
`python -m mammamia_ref`)."""

from __future__ import annotations

import io
import json
import re
import sys
from pathlib import Path

import pytest

from mammamia_ref.cli.app import main
from mammamia_ref.rules import specdata
from mammamia_ref.rules.state import variant_defaults, variant_values
from mammamia_ref.rules.vocabulary import COLOURS

sys.path.insert(0, str(Path(__file__).resolve().parent))
import patience

ROOT = Path(__file__).resolve().parent.parent
RULE_IDS = specdata.rule_ids()
BRACKETED = re.compile(r"\[([a-z_]+\.[a-z_0-9]+)\]")


def cli(capsys, *args: str) -> tuple[int, str, str]:
    try:
        code = main(list(args))
    except SystemExit as exc:  # argparse exits on bad arguments
        code = exc.code
    out, err = capsys.readouterr()
    return code, out, err


def one_line_error(code: int, out: str, err: str) -> str:
    assert code == 2
    assert out == ""
    assert err.endswith("\n") and err.count("\n") == 1, err
    assert "Traceback" not in err
    return err


# --- play ---------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_play_prints_a_log_with_rule_ids_and_the_winner(capsys, players: int) -> None:
    code, out, err = cli(capsys, "play", "--players", str(players), "--seed", "17")
    assert (code, err) == (0, "")
    lines = out.splitlines()
    colours = COLOURS[:players]
    assert lines[0].startswith(f"Mamma Mia! {players} players ({', '.join(colours)}), seed 17")
    assert "rules: the default rulings and parameters" in lines[0]
    cited = BRACKETED.findall(out)
    assert cited and set(cited) <= RULE_IDS, set(cited) - RULE_IDS
    assert {"setup.deal", "setup.waiter", "turn.play", "turn.draw", "oven.open",
            "game_end.three_resolutions"} <= set(cited)
    [winner_line] = [line for line in lines if "winner: " in line]
    assert re.search(r"\[game_end\.[a-z_]+\]$", winner_line)
    named = winner_line.split("winner", 1)[1].lstrip("s").lstrip(": ").split(" with ")[0] \
        .split(" and ")
    assert named and set(named) <= set(colours)
    assert re.search(r" with \d+ pizzas? delivered", winner_line), winner_line
    assert out.count("[game_end.three_resolutions]") == 1


def test_same_seed_same_log(capsys) -> None:
    first = cli(capsys, "play", "--players", "3", "--seed", "abc")
    second = cli(capsys, "play", "--players", "3", "--seed", "abc")
    assert first == second and first[0] == 0
    other = cli(capsys, "play", "--players", "3", "--seed", "abd")
    assert other[1] != first[1]


def test_numeric_seed_is_echoed(capsys) -> None:
    code, out, _ = cli(capsys, "play", "--players", "2", "--seed", "-4", "--json")
    assert code == 0 and json.loads(out)["seed"] == -4


@pytest.mark.parametrize("players", [2, 5])
def test_play_json(capsys, players: int) -> None:
    code, out, err = cli(capsys, "play", "--players", str(players), "--seed", "8", "--json")
    assert (code, err) == (0, "")
    summary = json.loads(out)
    colours = list(COLOURS[:players])
    assert summary["players"] == players
    assert summary["colours"] == colours
    assert summary["rounds"] == 3
    assert isinstance(summary["turns"], int) and summary["turns"] > 0
    assert summary["variants"] == variant_defaults()
    assert set(summary["delivered"]) == set(colours)
    for colour, stack in summary["delivered"].items():
        assert all(order.startswith(colour + ".") for order in stack)
        assert len(set(stack)) == len(stack)
    most = max(len(stack) for stack in summary["delivered"].values())
    assert summary["winners"] and set(summary["winners"]) <= set(colours)
    assert all(len(summary["delivered"][w]) == most for w in summary["winners"])
    assert summary["stalled"] is False
    again = cli(capsys, "play", "--players", str(players), "--seed", "8", "--json")
    assert again == (code, out, err)  # the same seed, the same game


def test_play_log_names_the_json_winners(capsys) -> None:
    _, out, _ = cli(capsys, "play", "--players", "4", "--seed", "8", "--json")
    code, log, err = cli(capsys, "play", "--players", "4", "--seed", "8")
    assert (code, err) == (0, "")
    [winner_line] = [line for line in log.splitlines() if "winner: " in line]
    named = winner_line.split("winner: ", 1)[1].split(" with ")[0].split(" and ")
    assert named == json.loads(out)["winners"]
    summary = json.loads(out)
    most = max(len(stack) for stack in summary["delivered"].values())
    others = ", ".join(f"{colour} {len(stack)}" for colour, stack in summary["delivered"].items()
                       if colour not in summary["winners"])
    assert f"with {most} pizzas delivered ({others})" in winner_line


def test_play_json_says_what_the_log_says(capsys) -> None:
    """Every line of the log is in the JSON document: who acted and what, then each
    event with its rule, in the same order."""
    from mammamia_ref.rules.actions import describe, parse_action

    _, out, _ = cli(capsys, "play", "--players", "3", "--seed", "5", "--json")
    _, log, _ = cli(capsys, "play", "--players", "3", "--seed", "5")
    steps = json.loads(out)["steps"]
    heads = [line for line in log.splitlines()[1:] if not line.startswith("    ")]
    assert heads == [f"{s['by']}: {describe(parse_action(s['action']))}" for s in steps]
    rules = [m for line in log.splitlines() if line.startswith("    ")
             for m in BRACKETED.findall(line)]
    assert rules == [e["rule"] for s in steps for e in s["events"]]


def test_play_variant_is_applied(capsys) -> None:
    code, out, err = cli(capsys, "play", "--players", "3", "--seed", "2",
                         "--variant", "refill=as_many_as_played", "--json")
    assert (code, err) == (0, "")
    summary = json.loads(out)
    assert summary["variants"] == {**variant_defaults(), "refill": "as_many_as_played"}
    assert summary["rounds"] == 3
    default = json.loads(cli(capsys, "play", "--players", "3", "--seed", "2", "--json")[1])
    assert default["variants"]["refill"] == "to_seven"
    assert default["turns"] != summary["turns"] or default["delivered"] != summary["delivered"]


def test_play_log_shows_the_variant(capsys) -> None:
    code, log, err = cli(capsys, "play", "--players", "3", "--seed", "2",
                         "--variant", "refill=as_many_as_played")
    assert (code, err) == (0, "")
    assert "rules: refill=as_many_as_played" in log.splitlines()[0]
    assert "[turn.draw_as_played]" in log
    default = cli(capsys, "play", "--players", "3", "--seed", "2")[1]
    assert "[turn.draw_as_played]" not in default


def test_play_several_variants_and_options(capsys) -> None:
    code, out, err = cli(capsys, "play", "--players", "4", "--seed", "5", "--json",
                         "--variant", "trimming=off", "--variant", " leftovers = table ",
                         "--policy", "random", "--first-player", "2")
    assert (code, err) == (0, "")
    summary = json.loads(out)
    assert summary["variants"]["trimming"] == "off"
    assert summary["variants"]["leftovers"] == "table"


def test_play_first_player(capsys) -> None:
    code, log, err = cli(capsys, "play", "--players", "4", "--seed", "5", "--first-player", "2")
    assert (code, err) == (0, "")
    assert "round 1: green to play  [setup.first_player]" in log


@pytest.mark.parametrize("args, needle", [
    (["--players", "6"], "2 to 5"),
    (["--players", "1"], "2 to 5"),
    (["--players", "0"], "2 to 5"),
    (["--variant", "foo=bar"], "foo"),
    (["--variant", "refill=nope"], "nope"),
    (["--variant", "refill=to_seven", "--variant", "stall=forever"], "forever"),
    (["--first-player", "5"], "first_player"),
])
def test_play_bad_arguments(capsys, args, needle) -> None:
    base = ["play", "--players", "3", "--seed", "1"]
    err = one_line_error(*cli(capsys, *base, *args))
    assert err.startswith("mammamia: error:"), err
    assert needle in err


ARGPARSE_ERRORS = [
    ["play", "--players", "2", "--seed", "1", "--variant", "noequals"],
    ["play", "--players", "x", "--seed", "1"],
    ["play", "--players", "2"],
    ["play", "--players", "2", "--seed", "1", "--policy", "clever"],
]


@pytest.mark.parametrize("args", ARGPARSE_ERRORS, ids=lambda a: " ".join(a[1:]))
def test_argparse_errors_are_one_line(capsys, args) -> None:
    err = one_line_error(*cli(capsys, *args))
    assert re.match(r"mammamia( play)?: error: ", err), err


@pytest.mark.parametrize("args", [[], ["frobnicate"], ["rules", "a", "b"]],
                         ids=["nothing", "unknown-command", "two-ids"])
def test_top_level_errors_are_one_line(capsys, args) -> None:
    err = one_line_error(*cli(capsys, *args))
    assert err.startswith("mammamia: error:") or err.startswith("mammamia rules: error:")


@pytest.mark.parametrize("args", ARGPARSE_ERRORS[:2], ids=["noequals", "players-x"])
def test_subcommand_argument_errors_start_with_mammamia_error(capsys, args) -> None:
    err = one_line_error(*cli(capsys, *args))
    assert err.startswith("mammamia: error:"), err


def test_every_event_of_a_game_can_be_narrated() -> None:
    from mammamia_ref.formats.narrate import event_text
    from mammamia_ref.rules.state import make_config
    from mammamia_ref.sim.play import play_game

    for players in (2, 3, 4, 5):
        config = make_config(players)
        for _, events in play_game(config, seed=players).steps:
            for item in events:
                assert event_text(item, config).endswith(f"[{item.rule}]")


# --- the registers ------------------------------------------------------------------


def test_rules_lists_every_rule(capsys) -> None:
    code, out, err = cli(capsys, "rules")
    assert (code, err) == (0, "")
    listed = [line.split(":", 1)[0] for line in out.splitlines()]
    assert listed == [rule["id"] for rule in specdata.rules()]
    assert set(listed) == RULE_IDS
    assert "oven.minimale: Pizza Minimale  (when minimale_lowest=eligible_kinds)" in out


def test_rules_one_rule(capsys) -> None:
    code, out, err = cli(capsys, "rules", "oven.minimale")
    assert (code, err) == (0, "")
    rule = specdata.rule("oven.minimale")
    lines = out.splitlines()
    assert lines[0].startswith("oven.minimale: " + rule["title"])
    assert " ".join(rule["statement"].split()) in out
    titles = {e["id"]: e["title"] for e in specdata.load_yaml("rules.yaml")["editions"]}
    for source in rule["sources"]:  # each edition named with what it is
        assert f"source: edition {source['edition']} ({titles[source['edition']]}), " \
            f"{source['section']}" in out
    assert "disputes: D4" in out


def test_rules_a_ruling(capsys) -> None:
    code, out, _ = cli(capsys, "rules", "setup.full_deck")
    assert code == 0 and "ruling of dispute D1" in out and "source:" not in out


@pytest.mark.parametrize("args", [["rules", "nope"], ["rules", "oven"], ["disputes", "D99"]])
def test_unknown_register_entry(capsys, args) -> None:
    err = one_line_error(*cli(capsys, *args))
    assert err.startswith("mammamia: error:") and repr(args[1]) in err


def test_disputes(capsys) -> None:
    code, out, err = cli(capsys, "disputes")
    assert (code, err) == (0, "")
    listed = [line.split(":", 1)[0] for line in out.splitlines()]
    assert listed == [d["id"] for d in specdata.disputes()]


def test_one_dispute(capsys) -> None:
    code, out, err = cli(capsys, "disputes", "D4")
    assert (code, err) == (0, "")
    dispute = next(d for d in specdata.disputes() if d["id"] == "D4")
    assert out.startswith(f"D4: {dispute['title']}\n")
    assert "question: " + " ".join(dispute["question"].split()) in out
    assert "ruling: " + " ".join(dispute["ruling"].split()) in out
    assert "why: " in out
    assert "variant flags: minimale_lowest" in out


def test_variants(capsys) -> None:
    code, out, err = cli(capsys, "variants")
    assert (code, err) == (0, "")
    flags, parameters = out.split("\n\n")
    lines = flags.splitlines()
    values = variant_values()
    defaults = variant_defaults()
    assert len(lines) == len(values)
    assert "hand_limit [turn.draw]: 7 (default), 1 to 20" in parameters.splitlines()
    assert "trimming [setup.trim]: 5 at 2 players, 3 at 3 players, 1 at 4 players, 0 at 5 " \
        "players (default), 0 to 12 each" in parameters.splitlines()  # not a Python dict
    for line, (flag, flag_values) in zip(lines, values.items(), strict=True):
        assert re.match(rf"{flag} \[(D\d+|house rule)\]: ", line), line
        for value in flag_values:
            assert value in line
        assert f"{defaults[flag]} (default)" in line
        assert line.count("(default)") == 1


# --- python -m mammamia_ref ---------------------------------------------------------


@pytest.mark.slow  # runs other programs
def test_module_entry_point(capsys) -> None:
    done = patience.run([sys.executable, "-m", "mammamia_ref", "play", "--players", "2",
                         "--seed", "9", "--json"], idle_seconds=60, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    summary = json.loads(done.stdout)
    assert summary["players"] == 2 and summary["rounds"] == 3
    code, out, _ = cli(capsys, "play", "--players", "2", "--seed", "9", "--json")
    assert code == 0 and json.loads(out) == summary  # the same game in-process
    bad = patience.run([sys.executable, "-m", "mammamia_ref", "play", "--players", "6",
                        "--seed", "9"], idle_seconds=60, cwd=ROOT)
    assert bad.returncode == 2
    assert bad.stdout == "" and bad.stderr.count("\n") == 1
    assert bad.stderr.startswith("mammamia: error:") and "Traceback" not in bad.stderr


# --- --version, --json, did you mean (issue 18) -------------------------------------


def test_version_is_the_package_metadata(capsys) -> None:
    from importlib.metadata import version

    code, out, err = cli(capsys, "--version")
    assert (code, err) == (0, "")
    assert out.startswith(f"mammamia {version('mammamia')}\nfast core: ")
    from mammamia_ref.sim.compiled import core_line  # the core in use, on its own line

    assert out.splitlines()[1] == core_line()


def test_rules_disputes_variants_and_query_list_as_json(capsys) -> None:
    code, out, _ = cli(capsys, "rules", "--json")
    assert code == 0 and [r["id"] for r in json.loads(out)] == [r["id"] for r in specdata.rules()]
    code, out, _ = cli(capsys, "rules", "oven.minimale", "--json")
    assert code == 0 and json.loads(out)["statement"] == specdata.rule("oven.minimale")["statement"]
    code, out, _ = cli(capsys, "disputes", "D4", "--json")
    assert code == 0 and json.loads(out)["flags"] == ["minimale_lowest"]
    code, out, _ = cli(capsys, "disputes", "--json")
    assert code == 0 and len(json.loads(out)) == len(specdata.disputes())
    code, out, _ = cli(capsys, "variants", "--json")
    flags = json.loads(out)
    assert code == 0 and {f["flag"]: f["default"] for f in flags} == variant_defaults()
    code, out, _ = cli(capsys, "query", "list", "--json")
    queries = specdata.load_yaml("queries.yaml")["queries"]
    assert code == 0 and [q["id"] for q in json.loads(out)] == [q["id"] for q in queries]


def test_scenario_check_as_json(capsys, tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("id: bad\ntitle: broken\n", encoding="utf-8")
    good = ROOT / "scenarios" / "turn" / "clockwise.yaml"
    code, out, err = cli(capsys, "scenario", "check", str(good), str(bad), "--json")
    report = json.loads(out)
    assert code == 1 and err == ""
    assert [v["scenario"] for v in report["valid"]] == ["clockwise"]
    assert len(report["invalid"]) == 1 and "bad.yaml" in report["invalid"][0]["error"]


@pytest.mark.parametrize(("args", "hint"), [
    (["verfy"], "did you mean verify?"),
    (["scenario", "rnu", "x"], "did you mean run?"),
    (["verify", "--jsn"], "did you mean --json?"),
    (["play", "--players", "2", "--seed", "1", "--polcy", "simple"], "did you mean --policy?"),
    (["rules", "oven.bak"], "did you mean oven.bake?"),
    (["rules", "minimale"], "did you mean oven.minimale?"),
    (["disputes", "d4"], "did you mean D4?"),
    (["disputes", "D44"], "did you mean D4"),
    (["play", "--players", "2", "--seed", "1", "--variant", "refill=to_sevn"],
     "did you mean refill=to_seven?"),
    (["play", "--players", "2", "--seed", "1", "--variant", "refil=to_seven"],
     "did you mean refill?"),
    (["scenario", "run", str(ROOT / "scenarios" / "turn" / "refill-as-played.yaml"),
      "--rulings", "D33"], "did you mean D3"),
])
def test_did_you_mean(capsys, args: list[str], hint: str) -> None:
    err = one_line_error(*cli(capsys, *args))
    assert hint in err, err


def test_no_suggestion_for_a_word_far_from_every_name(capsys) -> None:
    err = one_line_error(*cli(capsys, "rules", "xyzzy"))
    assert "did you mean" not in err and "`mammamia rules` lists them" in err


def test_a_rule_source_note_is_printed(capsys, monkeypatch) -> None:
    rule = {**specdata.rule("oven.bake")}
    rule["sources"] = [{**rule["sources"][0], "note": "prints the bullet\n  twice"}]
    monkeypatch.setattr(specdata, "rules", lambda: [rule])
    code, out, _ = cli(capsys, "rules", "oven.bake")
    assert code == 0 and "    note: prints the bullet twice\n" in out


# --- colour and progress ------------------------------------------------------------


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_colour_only_on_a_terminal_and_never_with_no_color(monkeypatch) -> None:
    from mammamia_ref.cli.style import paint

    monkeypatch.delenv("NO_COLOR", raising=False)
    assert paint("PASS", "green", _Terminal()) == "\033[32mPASS\033[0m"
    assert paint("PASS", "green", io.StringIO()) == "PASS"
    monkeypatch.setenv("NO_COLOR", "1")
    assert paint("PASS", "green", _Terminal()) == "PASS"


def test_scenario_run_piped_has_no_colour(capsys) -> None:
    code, out, _ = cli(capsys, "scenario", "run", str(ROOT / "scenarios/turn/clockwise.yaml"))
    assert code == 0 and out.startswith("PASS clockwise") and "\033" not in out


def test_verify_progress_on_a_terminal(monkeypatch) -> None:
    from mammamia_ref.cli.verify import TerminalProgress

    monkeypatch.setenv("NO_COLOR", "1")
    screen = _Terminal()
    progress = TerminalProgress(screen)
    progress("the spec check", 0, 0)
    progress("the scenario runs", 3, 10)
    progress("finished", 0, 0)
    shown = screen.getvalue()
    assert "... the spec check" in shown and "the scenario runs 3/10" in shown
    assert "done the spec check (" in shown and "done the scenario runs (" in shown
    assert shown.endswith("\n")


def test_verify_tells_its_stages_in_order(monkeypatch) -> None:
    from mammamia_ref.tools import verify as verify_tool

    monkeypatch.setattr(verify_tool, "play_checks", lambda games: games)
    class NoQueries(verify_tool.QueryChecks):  # the stages are what is tested here
        def __enter__(self):
            self.tasks = []
            return self

        def collect(self, records, progress=lambda done, total: None) -> None:
            pass

        def __exit__(self, *exc) -> None:
            pass

    monkeypatch.setattr(verify_tool, "QueryChecks", NoQueries)
    heard: list[tuple[str, int, int]] = []
    folder = str(ROOT / "scenarios" / "turn")
    verify_tool.verify([folder], progress=lambda *told: heard.append(told))
    stages = list(dict.fromkeys(stage for stage, _, _ in heard))
    assert stages == ["the spec check", "the games", "loading the scenarios",
                      "the scenario runs", "the z3 queries", "finished"]
    runs = [(done, total) for stage, done, total in heard if stage == "the scenario runs"]
    assert runs[-1][0] == runs[-1][1] > 0


# ``mammamia verify`` without the games and the z3 catalogue, whose answers are not what
# a test of the output is about (as QUICK_VERIFY in tests/test_interrupt.py).
QUICK_VERIFY = """
import sys
from mammamia_ref.tools import verify
verify.play_checks = lambda games=None: games
class NoQueries(verify.QueryChecks):
    def __enter__(self):
        self.tasks, self.answers = [], iter(())
        return self
    def __exit__(self, *exc):
        pass
verify.QueryChecks = NoQueries
from mammamia_ref.cli.app import main
sys.exit(main(sys.argv[1:]))
"""


@pytest.mark.slow  # runs other programs
def test_verify_piped_is_quiet_on_stderr() -> None:
    done = patience.run([sys.executable, "-c", QUICK_VERIFY, "verify", "--scenarios",
                         "scenarios/turn/clockwise.yaml"], idle_seconds=120, cwd=ROOT)
    assert done.stderr == "" and "verify:" in done.stdout, done.stdout + done.stderr


# --- rulings side by side -----------------------------------------------------------


REFILL = str(ROOT / "scenarios" / "turn" / "refill-as-played.yaml")


def test_rulings_side_by_side_text(capsys) -> None:
    code, out, err = cli(capsys, "scenario", "run", REFILL, "--rulings", "D3")
    assert (code, err) == (0, "")
    assert "  A: refill=to_seven\n  B: refill=as_many_as_played\n" in out
    assert "step 0: same under every ruling: red: play 2 salami" in out
    assert "step 2: DIFFERS (draw from the supply)" in out
    assert "red draws 5 from the supply" in out and "red draws 3 from the supply" in out
    assert "after the last step the rulings differ in: the cards and the position (players" \
        in out


def test_rulings_side_by_side_json_every_combination(capsys) -> None:
    code, out, _ = cli(capsys, "scenario", "run", REFILL, "--rulings", "D3", "D9", "--json")
    [found] = json.loads(out)
    assert code == 0 and found["diverges"]
    assert found["rulings"] == [{"refill": r, "draw_amount": d}
                                for r in variant_values()["refill"]
                                for d in variant_values()["draw_amount"]]
    step2 = found["steps"][2]
    assert step2["diverges"]
    counts = [o and [e.get("count") for e in o["events"] if e["event"] == "drew"]
              for o in step2["outcomes"]]
    assert counts[0] == [5] and counts[2] == [3]
    # draw_amount=any: the scenario's draw (fewer than allowed) is refused: the trace stops
    assert step2["outcomes"][1]["stopped"] and found["steps"][3]["outcomes"][1] is None
    assert step2["outcomes"][1]["rejected"] == "turn.draw_fewer"
    assert not found["steps"][0]["diverges"]


def test_rulings_of_a_dispute_without_flags(capsys) -> None:
    err = one_line_error(*cli(capsys, "scenario", "run", REFILL, "--rulings", "D11"))
    assert "D11 has no variant flags" in err


def test_rulings_that_do_not_part(capsys) -> None:
    clockwise = str(ROOT / "scenarios" / "turn" / "clockwise.yaml")
    code, out, _ = cli(capsys, "scenario", "run", clockwise, "--rulings", "D8")
    assert code == 0 and "DIFFERS" not in out
    assert out.rstrip().endswith("the outcome is the same under every ruling")
    assert "after the last step nothing differs: the same result, cards and what each " \
        "player sees under every ruling" in out


@pytest.mark.corpus
@pytest.mark.xdist_group("corpus")
def test_rulings_replay_matches_the_scenario_runs(scenario_corpus) -> None:
    """Under a run's own variants the replay's events are those the scenario run
    checked: the comparison starts from the same game."""
    from mammamia_ref.rules.events import format_event
    from mammamia_ref.sim.rulings import replay

    scenarios = scenario_corpus.scenarios
    assert not scenario_corpus.errors and len(scenarios) > 50
    for scenario in scenarios:
        for run in scenario.runs:
            checked = scenario_corpus.results[scenario.id, run.name]
            assert checked.passed
            trace = replay(scenario, run, {})
            events = [("rejected", step.events[0].rule)
                      if step.events and step.events[0].name == "rejected"
                      else tuple(format_event(e) for e in step.events)
                      for step in checked.trace]
            assert [o and o.canonical for o in trace.outcomes] == events, (scenario.id, run.name)
            assert not any(o is None or o.stopped for o in trace.outcomes)
