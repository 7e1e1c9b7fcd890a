"""Hostile inputs of issue 29 (third round), one test per cause: the standard output and
the JSON-lines stream go through the output writer; counts, seeds and budgets through
one parser; work bounded before it starts; workers end with their parent; links that
lead outside a searched folder are not read; --rulings compares the result.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
import yaml

from mammamia_ref.cli.app import main
from mammamia_ref.formats import output
from mammamia_ref.formats.limits import whole_number
from mammamia_ref.formats.output import OutputError, OutputStream
from mammamia_ref.formats.safeyaml import YamlInputError, load_bytes
from mammamia_ref.formats.scenario import load_all, load_scenario
from mammamia_ref.kit.cases import CaseResult
from mammamia_ref.kit.report import junit_text
from mammamia_ref.sim.scenario_run import run_one

sys.path.insert(0, str(Path(__file__).resolve().parent))
import patience

ROOT = Path(__file__).resolve().parent.parent
MAMMAMIA = [sys.executable, "-m", "mammamia_ref"]
ONE = str(ROOT / "scenarios" / "oven" / "fail-no-cards-removed.yaml")
TIE = str(ROOT / "scenarios" / "game_end" / "unbroken-tie.yaml")


def cli(capsys, *args: str) -> tuple[int, str, str]:
    try:
        code = main(list(args))
    except SystemExit as exc:
        code = exc.code
    out, err = capsys.readouterr()
    return code, out, err


def one_line(code: int, err: str, expected_code: int = 2) -> str:
    lines = err.splitlines()
    assert code == expected_code and len(lines) == 1, (code, err)
    assert "Traceback" not in err
    return lines[0]


# --- item 1: the standard output on a full disk ------------------------------------------


@pytest.mark.parametrize("args", [["scenario", "run", ONE], ["scenario", "run", ONE,
                                                             "--rulings", "D3"],
                                  ["scenario", "export", str(ROOT / "scenarios" / "oven")],
                                  ["simulate", "--players", "2", "--games", "3", "--json"]])
def test_standard_output_on_a_full_disk_is_one_line(args: list[str]) -> None:
    with open("/dev/full", "w") as full:
        done = subprocess.run([*MAMMAMIA, *args], stdout=full, stderr=subprocess.PIPE,
                              text=True, cwd=ROOT)
    assert done.returncode == 2, done.stderr
    assert done.stderr == ("mammamia: error: cannot write the standard output: no space "
                           "left on the device\n")


# --- items 2, 3, 9, 10, 15, 16: one parser of counts, seeds and budgets --------------------


@pytest.mark.parametrize("text,low,high,expected", [
    ("9" * 5000, 1, 100_000, None), ("00000010000000000", 1, 100_000, None),
    ("0000064", 1, 100_000, 64), ("-0", -1, 1, 0), ("1_000", 0, 10**6, None),
    ("\u0663", 0, 9, None), ("99999999999999999999", 1, 256, None)])
def test_whole_numbers_are_read_by_their_digits(text: str, low: int, high: int,
                                                expected: int | None) -> None:
    assert whole_number(text, low, high) == expected


@pytest.mark.parametrize("args,says", [
    (["simulate", "--players", "2", "--games", "1", "--policy", "search:" + "9" * 5000],
     "playouts per decision"),
    (["simulate", "--players", "2", "--games", "1", "--policy", "search:00000010000000000"],
     "playouts per decision"),
    (["simulate", "--players", "2", "--games", "1", "--policy", "search:8:" + "1" * 5000],
     "horizon"),
    (["simulate", "--players", "2", "--games", "3", "--jobs", "99999999999999999999"],
     "--jobs"),
    (["perft", "--players", "2", "--depth", "1", "--jobs", "257"], "--jobs"),
    (["conform", "--random-games", "100000000000000000000", "--", "x"], "--random-games"),
    (["conform", "--timeout", "1e-300", "--", "x"], "--timeout"),
    (["conform", "--startup-timeout", "0", "--", "x"], "--startup-timeout"),
    (["conform", "--budget", "0", "--", "x"], "--budget"),
    (["simulate", "--players", "2", "--games", "3", "--seed", "9223372036854775807"],
     "past 9223372036854775807"),
    (["compare", "D3", "--players", "2", "--games", "2", "--seed", "9223372036854775807"],
     "past 9223372036854775807"),
    (["conform", "--seed", "9223372036854775800", "--random-games", "9", "--", "x"],
     "past 9223372036854775807"),
])
def test_counts_seeds_and_budgets_out_of_range_are_one_line(capsys, args: list[str],
                                                            says: str) -> None:
    code, out, err = cli(capsys, *args)
    assert says in one_line(code, err) and out == ""


def test_the_last_seed_that_fits_is_taken(capsys) -> None:
    code, out, err = cli(capsys, "simulate", "--players", "2", "--games", "1",
                         "--seed", "9223372036854775807")
    assert (code, err) == (0, "") and "9223372036854775807" in out


def test_conform_bounds_its_random_games_before_starting(capsys) -> None:
    """The cases are counted before any is made: a sweep of every ruling times the cap
    is refused at once, not built."""
    code, _, err = cli(capsys, "conform", "--random-games", "100000", "--sweep-variants",
                       "--", "x")
    assert "at most 1,000,000" in one_line(code, err)


# --- items 4, 8: the JSON-lines stream through the output writer ---------------------------


def test_jsonl_that_cannot_be_written_is_refused_before_the_start(capsys,
                                                                   tmp_path: Path) -> None:
    started = tmp_path / "started"
    impl = [sys.executable, "-c", f"open({str(started)!r}, 'w')"]
    (tmp_path / "a-file").write_text("")
    for target in [str(tmp_path / "a-file" / "x.jsonl"), "/sys/x.jsonl"]:
        code, _, err = cli(capsys, "conform", "--scenarios", ONE, "--random-games", "0",
                           "--jsonl", target, "--", *impl)
        assert "cannot write" in one_line(code, err)
    assert not started.exists()


def test_jsonl_on_a_full_device_is_one_line(capsys) -> None:
    """/dev/full takes the opening; the first record fails, in one line, and the
    implementation is stopped."""
    code, _, err = cli(capsys, "conform", "--scenarios", ONE, "--random-games", "0", "-q",
                       "--jsonl", "/dev/full", "--", *MAMMAMIA, "serve")
    assert one_line(code, err) == ("mammamia: error: cannot write /dev/full: no space left "
                                   "on the device")


def test_a_stream_nobody_reads_is_given_up(tmp_path: Path, monkeypatch) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    with pytest.raises(OutputError, match="a pipe that nobody reads"):
        OutputStream(fifo)  # no reader at all: refused at once
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)  # a reader that never reads
    try:
        monkeypatch.setattr(output, "WRITE_TIMEOUT", 0.2)
        stream = OutputStream(fifo)
        with pytest.raises(OutputError, match="took nothing"):
            for _ in range(10_000):  # far more than a pipe holds
                stream.write("x" * 1000 + "\n")
    finally:
        os.close(reader)


def test_a_full_device_fails_the_stream_in_one_error() -> None:
    stream = OutputStream("/dev/full")
    with pytest.raises(OutputError, match="no space left"):
        stream.write("{}\n")


# --- items 5, 17: witnesses ---------------------------------------------------------------


def test_witnesses_are_written_under_the_current_folder(capsys, tmp_path: Path,
                                                       monkeypatch) -> None:
    from mammamia_ref.cli.query import witness_root

    monkeypatch.chdir(tmp_path)
    assert witness_root(".") == Path(".")
    (tmp_path / "file").write_text("")
    with pytest.raises(OutputError, match="not a folder"):
        witness_root(str(tmp_path / "file"))


# --- item 6: Ctrl-C while the command line is importing ------------------------------------


def test_ctrl_c_while_importing_is_one_line(monkeypatch, capsys) -> None:
    import builtins

    from mammamia_ref import cli as package

    real_import = builtins.__import__

    def interrupted(name, *args, **kwargs):
        if name == "mammamia_ref.cli.app":
            raise KeyboardInterrupt
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", interrupted)
    assert package.main(["variants"]) == 130
    assert capsys.readouterr().err == "mammamia: interrupted while starting\n"


# --- item 7: JUnit with control characters ------------------------------------------------


def test_junit_with_control_characters_parses() -> None:
    result = CaseResult("scenario", "a\x00b", "fail", ("oven.bake",),
                        message="got \x00\x1b\ud800 \x7f\nsecond line")
    text = junit_text([result], implementation="port\x01")
    root = ET.fromstring(text.split("?>", 1)[1])
    assert root.find("testcase").get("name") == "a\\x00b"
    assert "\\x1b" in root.find("testcase/failure").text


def test_the_default_profile_is_derandomized() -> None:
    from hypothesis import settings

    if os.environ.get("MAMMAMIA_HYPOTHESIS") in ("thorough", "explore"):
        pytest.skip("an on-demand random search")
    assert settings.default.derandomize and settings.default.database is None


# --- item 11: a file of many bad steps ----------------------------------------------------


def test_a_file_of_too_many_values_is_refused_before_it_is_built() -> None:
    text = "steps: [" + ",".join(["{x: 1}"] * 100_000) + "]\n"
    with pytest.raises(YamlInputError, match="more than 150,000 values"):
        load_bytes(text.encode(), "many.yaml")


def test_each_distinct_step_is_checked_once(tmp_path: Path, monkeypatch) -> None:
    """Counted, not timed: 20,000 copies of one bad step cost one check of the step
    schema's alternatives, not 20,000 (the whole file's errors were once collected)."""
    import jsonschema

    doc = yaml.safe_load(Path(ONE).read_text())
    doc["id"] = "many-bad"
    doc["steps"] = [{"x": 1}] * 20_000
    path = tmp_path / "many-bad.yaml"
    path.write_text(json.dumps(doc))
    calls = [0]
    validators = jsonschema.Draft202012Validator.VALIDATORS
    for keyword in ("anyOf", "oneOf"):
        real = validators[keyword]

        def counted(*args, real=real):
            calls[0] += 1
            return real(*args)

        monkeypatch.setitem(validators, keyword, counted)
    _, errors = load_all([path])
    assert len(errors) == 1 and "/steps/0" in str(errors[0])
    assert calls[0] < 200, calls[0]


# --- item 12: --rulings bounded before any replay -----------------------------------------


def test_rulings_over_every_dispute_are_refused_before_replaying(capsys) -> None:
    from mammamia_ref.rules import specdata

    disputes = [d["id"] for d in specdata.disputes() if d.get("flags")]
    code, out, err = cli(capsys, "scenario", "run", ONE, "--rulings", *disputes)
    assert "at most 64" in one_line(code, err) and out == ""


# --- item 13: SIGTERM to the parent alone ------------------------------------------------


def _children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.append(int(entry.name))
    return found


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize("signal_sent", [signal.SIGTERM, signal.SIGKILL])
def test_workers_end_with_their_parent(signal_sent: int) -> None:
    parent = subprocess.Popen([*MAMMAMIA, "simulate", "--players", "5", "--games", "100000",
                               "--jobs", "2", "--policy", "careful"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                              cwd=ROOT)
    try:
        assert patience.Patience(60).wait(lambda: len(_children(parent.pid)) >= 2)
        workers = _children(parent.pid)
        os.kill(parent.pid, signal_sent)
        parent.wait()
        assert patience.Patience(30).wait(lambda: all(patience.ended(w) for w in workers))
    finally:
        if parent.poll() is None:
            parent.kill()
            parent.wait()
    if signal_sent == signal.SIGTERM:
        assert parent.returncode == 143
        assert parent.stderr is not None and "Traceback" not in parent.stderr.read()


# --- item 14: a restart respects the budget -----------------------------------------------


def test_a_restart_does_not_outlast_the_budget() -> None:
    """The restart is given the run's deadline (its hello waits no longer), and a
    restart once the budget is spent is not tried."""
    import time

    from mammamia_ref.kit.client import ImplementationError
    from mammamia_ref.kit.runner import Budgeted, BudgetSpent

    class Slow:
        deadline_seen: float | None = None

        def restart(self, deadline: float | None = None) -> None:
            Slow.deadline_seen = deadline
            raise ImplementationError("timeout", "no hello")

    with pytest.raises(BudgetSpent):
        Budgeted(Slow(), time.monotonic() - 1).restart()  # type: ignore[arg-type]
    assert Slow.deadline_seen is None
    deadline = time.monotonic() + 3600
    with pytest.raises(ImplementationError):  # its own timeout, well within the budget
        Budgeted(Slow(), deadline).restart()  # type: ignore[arg-type]
    assert Slow.deadline_seen == deadline


def test_the_first_start_does_not_outlast_the_budget(capsys, monkeypatch) -> None:
    """The budget covers the run from its start: a port that never answers hello is
    given up when the budget is spent, not after the (longer) start-up allowance. What
    is asserted is the deadline the first start is given (no wall-clock bet)."""
    import time

    from mammamia_ref.kit.client import Implementation

    given: list[tuple[float, float | None]] = []   # (when the start began, its deadline)
    real_start = Implementation.start

    def start(self: Implementation, deadline: float | None = None) -> dict:
        given.append((time.monotonic(), deadline))
        return real_start(self, deadline)

    monkeypatch.setattr(Implementation, "start", start)
    code, out, err = cli(capsys, "conform", "--scenarios", ONE, "--random-games", "0",
                         "--budget", "2", "--startup-timeout", "120", "--",
                         sys.executable, "-c", "import time; time.sleep(300)")
    assert "the run's time budget is spent" in one_line(code, err) and out == ""
    ((called_at, deadline),) = given
    assert deadline is not None and deadline <= called_at + 2   # the budget, not the 120 s



# --- item 18: links that lead outside the searched folder ---------------------------------


def test_a_link_outside_the_folder_is_reported_not_read(capsys, tmp_path: Path) -> None:
    secret = tmp_path / "secret"
    secret.write_text("root:$6$" + "s" * 90 + ":19000:0:99999:7:::\n")
    folder = tmp_path / "suite"
    (folder / "sub").mkdir(parents=True)
    (folder / "sub" / "shadow.yaml").symlink_to(secret)
    (folder / "etc").symlink_to(tmp_path)
    code, _, err = cli(capsys, "scenario", "check", str(folder))
    assert code == 1 and "ssss" not in err and "$6$" not in err
    assert "a symbolic link to a file outside" in err and "--follow-links" in err
    assert "a symbolic link to a folder outside" in err
    code, _, err = cli(capsys, "scenario", "check", str(folder), "--follow-links")
    assert code == 1 and "(an excerpt: 12 of" in err and "s" * 40 not in err


def test_folder_links_in_a_loop_are_searched_once(capsys, tmp_path: Path) -> None:
    """Under --follow-links a link back to a folder already searched is not searched
    again: one such link found every file 40 times (the system's limit of links in a
    path), two of them made the search exponential."""
    from mammamia_ref.formats.scenario import found_files

    folder = tmp_path / "suite"
    folder.mkdir()
    (folder / "fail-no-cards-removed.yaml").write_text(Path(ONE).read_text())
    (folder / "up").symlink_to(tmp_path)
    found = list(found_files([folder], follow_links=True))
    assert [path.name for path, _ in found] == ["fail-no-cards-removed.yaml"], found
    (folder / "again").symlink_to(tmp_path)
    done = patience.run([*MAMMAMIA, "scenario", "check", str(folder), "--follow-links"],
                        idle_seconds=60, cwd=ROOT)   # a hang guard, stretched by the load
    assert done.returncode == 0 and "1 scenario files valid" in done.stdout, done


def test_messages_quote_only_an_excerpt_of_a_file(tmp_path: Path) -> None:
    path = tmp_path / "long.yaml"
    path.write_text(f'id: long\n"{"k" * 300}": 1\n')
    with pytest.raises(Exception) as caught:
        load_scenario(path)
    assert "k" * 40 not in str(caught.value) and "an excerpt" in str(caught.value)


# --- items 21, 22: --rulings exit code, and the result ------------------------------------


def test_rulings_exit_1_when_a_file_does_not_load(capsys, tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("id: [\n")
    code, _, err = cli(capsys, "scenario", "run", str(bad), "--rulings", "D3")
    assert code == 1 and "not valid YAML" in err


def test_rulings_compare_the_result(capsys) -> None:
    code, out, _ = cli(capsys, "scenario", "run", TIE, "--rulings", "D8")
    assert code == 0
    last = out.rstrip().splitlines()[-1]
    assert last.startswith("after the last step the rulings differ in: the result")
    assert "game_end.shared_win" in last and "game_end.seat_order_win" in last
    code, out, _ = cli(capsys, "scenario", "run", TIE, "--rulings", "D8", "--json")
    [found] = json.loads(out)
    assert "result" in found["final_state_differs_in"]
    assert [r["winners"] for r in found["final_results"]] == [["red", "green"], ["green"]]


def test_a_scenario_may_check_the_result(tmp_path: Path) -> None:
    doc = yaml.safe_load(Path(TIE).read_text())
    run = doc["runs"][0]
    run["steps"][0]["expect"]["state"] = {"result": {"winners": ["red", "green"],
                                                     "rule": "game_end.shared_win"}}
    path = tmp_path / "unbroken-tie.yaml"
    path.write_text(json.dumps(doc))
    scenario = load_scenario(path)
    assert run_one(scenario, scenario.runs[0]).passed
    run["steps"][0]["expect"]["state"]["result"]["winners"] = ["red"]
    path.write_text(json.dumps(doc))
    scenario = load_scenario(path)
    failed = run_one(scenario, scenario.runs[0])
    assert not failed.passed and "state/result/winners" in (failed.failure or "")


# --- issue 30, item 3: --rulings at a glance ----------------------------------------------


def test_a_refused_ruling_says_so_once_and_is_then_not_reached(capsys) -> None:
    refill = str(ROOT / "scenarios" / "turn" / "refill-as-played.yaml")
    code, out, _ = cli(capsys, "scenario", "run", refill, "--rulings", "D3", "D9")
    assert code == 0
    assert out.count("refused under this ruling (turn.draw_fewer)") == 2  # B and D, once
    assert "B: not reached" in out and "not played" not in out
    for line in out.splitlines():  # a step where the rulings in play agree is not DIFFERS
        if line.startswith("step 3"):
            assert "DIFFERS" not in line and "(B, D: not reached)" in line
    assert "B, D do not reach the end" in out.rstrip().splitlines()[-1]
