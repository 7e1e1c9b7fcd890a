"""Ctrl-C: the long commands stop at once with one line saying what they had finished,
no traceback, exit code 130, and every report file either complete or absent.

The commands run as subprocesses with their work slowed down (a sleep per scenario run
or per protocol request), so that SIGINT surely lands in the middle; each test waits
for visible progress before it interrupts. "At once" is measured in CPU time (what the
command and the workers it waited for used after the signal), never in wall time: the
machines are shared, and a wall-clock bound fails at random there (``tests/patience.py``).
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from mammamia_ref.cli import app as cli
from mammamia_ref.cli import register
from mammamia_ref.formats.output import write_atomically

sys.path.insert(0, str(Path(__file__).resolve().parent))
import patience

ROOT = Path(__file__).resolve().parent.parent
# The CPU seconds a command may use after Ctrl-C: its report, stopping its workers and
# the interpreter's exit take a fraction of one; going on with the work takes more.
CPU_AFTER_SIGNAL = 1.0

# Run the command with every scenario run (and so every verify stage after the games)
# slowed down; each run appends a line to $MAMMAMIA_PROGRESS. SIGINT is given Python's
# usual handler even when the test runner was started with it ignored.
PRELUDE = """
import os, signal, sys, time
signal.signal(signal.SIGINT, signal.default_int_handler)
from mammamia_ref.sim import scenario_run
from mammamia_ref.tools import verify
_run_one = scenario_run.run_one
def run_one(*args):
    time.sleep(0.05)
    with open(os.environ["MAMMAMIA_PROGRESS"], "a") as progress:
        progress.write("run\\n")
    return _run_one(*args)
scenario_run.run_one = verify.run_one = run_one
"""
MAIN = "\nfrom mammamia_ref.cli.app import main\nsys.exit(main(sys.argv[1:]))\n"
QUICK_VERIFY = """
verify.play_checks = lambda games=None: games  # the games are not what is tested here
class NoQueries(verify.QueryChecks):  # nor the queries (whose witnesses call run_one)
    def __enter__(self):
        self.tasks, self.answers = [], iter(())
        return self
    def __exit__(self, *exc):
        pass
verify.QueryChecks = NoQueries
"""
QUERIES_ONLY = """
verify.play_checks = lambda games=None: games
verify.load_all = lambda paths: ([], [])
from mammamia_ref.queries.catalogue import runner
_run_catalogue = runner.run_catalogue
def run_catalogue(*args, **kwargs):  # in a worker: its process id
    with open(os.environ["MAMMAMIA_PROGRESS"], "a") as progress:
        progress.write(f"query {os.getpid()}\\n")
    return _run_catalogue(*args, **kwargs)
runner.run_catalogue = run_catalogue
_collect = verify.QueryChecks.collect
def collect(self, *args):  # the parent reaches the z3 queries stage
    with open(os.environ["MAMMAMIA_PROGRESS"], "a") as progress:
        progress.write("collect\\n")
    return _collect(self, *args)
verify.QueryChecks.collect = collect
"""
# A reference implementation that takes 20 ms per request and notes its process id.
SLOW_IMPLEMENTATION = """
import os, sys, time
from mammamia_ref.kit.protocol import serve
open(sys.argv[1], "w").write(str(os.getpid()))
class Slow:
    def readline(self, size=-1):
        time.sleep(0.02)
        return sys.stdin.buffer.readline(size)
sys.exit(serve(Slow(), sys.stdout))
"""


# As a terminal's user has it, whatever this test run inherited: a run started in the
# background by a shell without job control ignores SIGINT, and Python then leaves it
# ignored in the command too (tests/test_counting.py and test_simulate.py do the same).
CTRL_C_AS_AT_A_TERMINAL = ("import signal; "
                           "signal.signal(signal.SIGINT, signal.default_int_handler)\n")


def start(code: str, *args: str, progress: Path) -> subprocess.Popen[str]:
    code = CTRL_C_AS_AT_A_TERMINAL + code
    return subprocess.Popen([sys.executable, "-u", "-c", code, *args], cwd=ROOT, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env={**os.environ, "MAMMAMIA_PROGRESS": str(progress)})


def wait_for(condition, process: subprocess.Popen[str], what: str,
             idle_seconds: float = 120) -> None:
    """Until ``condition`` holds, with a hang guard of ``idle_seconds`` of an idle machine
    (stretched by the load)."""
    guard = patience.Patience(idle_seconds)
    while not condition():
        assert process.poll() is None, f"the command ended before {what}: " \
            f"{process.stdout.read()}{process.stderr.read()}"
        assert not guard.spent(), f"no {what} within {guard}"
        time.sleep(0.05)


def lines_in(path: Path) -> int:
    return path.read_text().count("\n") if path.exists() else 0


def interrupt(process: subprocess.Popen[str], idle_seconds: float = 30) -> tuple[str, str, float]:
    """Send SIGINT and wait for the command to end (a hang guard of ``idle_seconds`` of an
    idle machine, stretched by the load); its output, and the CPU seconds it used after
    the signal, with the workers it waited for (what they had all used before, read just
    before the signal, taken from what the reaped command used in all)."""
    reaped_before = patience.children_cpu_seconds()
    used_before = patience.tree_cpu_seconds(process.pid)
    assert used_before is not None, "the command ended before the interrupt"
    process.send_signal(signal.SIGINT)
    out, err = patience.communicate(process, idle_seconds)
    return out, err, patience.children_cpu_seconds() - reaped_before - used_before


def interrupted_line(err: str) -> str:
    print(err)  # shown when a test fails
    assert "Traceback" not in err, err
    lines = [line for line in err.splitlines() if line.startswith("mammamia: interrupted")]
    assert len(lines) == 1, err
    return lines[0]


# --- in process -----------------------------------------------------------------------


def test_main_turns_keyboard_interrupt_into_one_line_and_130(monkeypatch, capsys) -> None:
    def interrupted(args) -> int:
        raise KeyboardInterrupt("after 3 of 9 things; 3 passed")

    monkeypatch.setattr(register, "run_variants", interrupted)
    assert cli.main(["variants"]) == 130
    out, err = capsys.readouterr()
    assert err == "mammamia: interrupted after 3 of 9 things; 3 passed\n" and out == ""


def test_an_interrupted_write_leaves_no_file_and_no_temporary(monkeypatch, tmp_path) -> None:
    target = tmp_path / "report.json"

    def replace(*args) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "replace", replace)
    with pytest.raises(KeyboardInterrupt):
        write_atomically(target, "{}\n")
    assert list(tmp_path.iterdir()) == []


# --- the commands ---------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("as_json", [False, True], ids=["text", "json"])
def test_scenario_run_stops_and_counts_the_finished_runs(tmp_path, as_json: bool) -> None:
    progress = tmp_path / "progress"
    args = ["scenario", "run", "scenarios", *(["--json"] if as_json else [])]
    process = start(PRELUDE + MAIN, *args, progress=progress)
    # a line is written as a run starts: six started means five finished
    wait_for(lambda: lines_in(progress) >= 6, process, "five finished scenario runs")
    out, err, cpu = interrupt(process)
    assert process.returncode == 130, err
    found = re.fullmatch(r"mammamia: interrupted after (\d+) of (\d+) scenario runs; "
                         r"(\d+) passed", interrupted_line(err))
    assert found, err
    done, total, passed = map(int, found.groups())
    assert 5 <= done < total and passed == done
    if as_json:  # one complete record per finished run
        assert [json.loads(line)["passed"] for line in out.splitlines()] == [True] * done
    else:
        assert sum(line.startswith("PASS ") for line in out.splitlines()) == done
    assert cpu < CPU_AFTER_SIGNAL, f"{cpu:.2f} CPU seconds after the signal"


@pytest.mark.slow
def test_verify_stops_during_the_scenario_runs(tmp_path) -> None:
    progress = tmp_path / "progress"
    process = start(PRELUDE + QUICK_VERIFY + MAIN, "verify", "--json", progress=progress)
    # a line is written as a run starts: six started means five finished
    wait_for(lambda: lines_in(progress) >= 6, process, "five finished scenario runs")
    out, err, cpu = interrupt(process)
    assert process.returncode == 130, err
    line = interrupted_line(err)
    found = re.fullmatch(r"mammamia: interrupted during the scenario runs; finished: the spec "
                         r"check \(0 problems\), (\d+) of (\d+) scenario runs \((\d+) passed\)",
                         line)
    assert found, line
    done, total, passed = map(int, found.groups())
    started = lines_in(progress)  # every finished run, and perhaps the one interrupted
    assert 5 <= done < total and passed == done and started - 1 <= done <= started
    assert out == "", "no half report"
    assert cpu < CPU_AFTER_SIGNAL, f"{cpu:.2f} CPU seconds after the signal"


@pytest.mark.slow
def test_verify_stops_during_the_z3_queries_at_once(tmp_path) -> None:
    """z3 keeps SIGINT to itself during a check; verify must still stop at once."""
    progress = tmp_path / "progress"
    process = start(PRELUDE + QUERIES_ONLY + MAIN, "verify", "--jobs", "2", progress=progress)

    def told() -> list[str]:
        return progress.read_text().splitlines() if progress.exists() else []

    wait_for(lambda: "collect" in told() and len(told()) >= 3, process,
             "the z3 queries stage and the second query")
    time.sleep(0.5)
    out, err, cpu = interrupt(process)
    assert process.returncode == 130, err
    assert interrupted_line(err).startswith("mammamia: interrupted during the z3 queries"), err
    assert "verify:" not in out
    assert cpu < CPU_AFTER_SIGNAL, f"{cpu:.2f} CPU seconds after the signal"
    workers = {int(line.split()[1]) for line in told() if line.startswith("query ")}
    assert workers, told()
    for pid in workers:
        assert _ends(pid), f"worker {pid} was left running: {_after(pid)}"


def _ends(pid: int, idle_seconds: float = 30) -> bool:
    """Whether process ``pid``, once the command has ended, is gone (or a zombie: ended,
    not yet reaped by init, which adopts it when the command exits), with a hang guard of
    ``idle_seconds`` of an idle machine, stretched by the load. (The command waits for
    its workers and its implementation before it exits: they are gone at once.)"""
    return patience.Patience(idle_seconds).wait(lambda: patience.ended(pid))


def _after(pid: int) -> str:
    """What a process left behind does: whether it still uses CPU."""
    before = patience.cpu_seconds(pid)
    time.sleep(1)
    after = patience.cpu_seconds(pid)
    if before is None or after is None:
        return "it ended at last"
    return f"it used {after - before:.2f} CPU seconds in the last second"


@pytest.mark.slow  # runs other programs
def test_conform_stops_reports_the_finished_cases_and_the_implementation(tmp_path) -> None:
    pid_file, jsonl, junit = tmp_path / "pid", tmp_path / "r.jsonl", tmp_path / "r.xml"
    progress = tmp_path / "progress"
    process = start("import sys" + MAIN, "conform", "--scenarios", "scenarios", "--perft",
                    str(tmp_path), "--random-games", "0", "--jsonl", str(jsonl), "--junit",
                    str(junit), "--", sys.executable, "-c", SLOW_IMPLEMENTATION, str(pid_file),
                    progress=progress)
    seen: list[str] = []

    def passed_three() -> bool:
        seen.append(process.stdout.readline())
        return sum(line.startswith("PASS") for line in seen) >= 3

    wait_for(passed_three, process, "three finished cases")
    out, err, cpu = interrupt(process)
    assert process.returncode == 130, err
    found = re.fullmatch(r"mammamia: interrupted after (\d+) cases; (\d+) passed",
                         interrupted_line(err))
    assert found, err
    done = int(found.group(1))
    assert done >= 3
    assert "interrupted: the figures cover the cases finished before the interrupt" in out
    records = [json.loads(line) for line in jsonl.read_text().splitlines()]
    assert len(records) == done and all(r["status"] == "pass" for r in records)
    assert ET.parse(junit).getroot().get("tests") == str(done)
    assert not list(tmp_path.glob(".r.*")), "no temporary report left behind"
    pid = int(pid_file.read_text())
    assert _ends(pid), f"the implementation was left running: {_after(pid)}"
    assert cpu < CPU_AFTER_SIGNAL, f"{cpu:.2f} CPU seconds after the signal"
