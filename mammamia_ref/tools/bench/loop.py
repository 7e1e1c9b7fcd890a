"""``mammamia bench --loop``: the everyday loop of the project, as whole-process times.

Each measure runs the project's own commands under ``sys.executable`` (so anyone can
rerun them: the rows keep the exact argv and folder) and times the whole process:

- ``startup``: ``mammamia --version`` and ``mammamia --help``, after one untimed warm-up
  run, ``runs`` times each: the median wall time, with the min and max;
- ``verify``: ``mammamia verify``, once;
- ``site``: ``mkdocs build --strict -d <a temporary folder>`` from a source checkout
  (skipped, with the reason, where mkdocs or ``mkdocs.yml`` is absent);
- ``quick``: the quick tier, ``python -m pytest -q -m quick -p no:cacheprovider``;
- ``suite``: the whole suite on one worker and on two (``-n 1``, ``-n 2``: pytest-xdist;
  a later ``-n`` overrides the ``-n auto`` of pyproject's addopts).

The two test measures need a source checkout's ``tests/`` folder and are skipped, with
the reason, elsewhere (an installed copy). Wall seconds are the parent's clock around the
child; CPU seconds are the child's and its own children's user + system time
(``getrusage(RUSAGE_CHILDREN)`` before and after: the suite's workers included). The
machine's load average is read before each command (machines are shared). A command that
exits non-zero, or is stopped at its time limit, is reported as failed, with no time.

The commands run through a :data:`Runner`, :func:`run_command` unless told otherwise (the
tests pass a fake one).
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import platform
import re
import shlex
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mammamia_ref.tools.bench.measure import ROOT
from mammamia_ref.tools.machine import children_cpu_seconds, load_average, usable_cpus

# The measures, in the order they run (cheapest first), with what each is.
MEASURES: dict[str, str] = {
    "startup": "mammamia --version and --help (median of several runs)",
    "verify": "mammamia verify",
    "site": "mkdocs build --strict (a source checkout)",
    "quick": "the quick test tier, pytest -m quick (a source checkout)",
    "suite": "the whole test suite on 1 and on 2 workers, pytest -n 1 / -n 2 (a source "
             "checkout)",
}
STARTUP_RUNS = 7
SUITE_WORKERS = (1, 2)
# Hang guards (wall seconds; generous: the machines are shared and often loaded).
STARTUP_TIMEOUT = 120.0
TIMEOUT = 3 * 3600.0
SUMMARY_WORDS = re.compile(r"\b(\d+ (passed|failed|errors?|skipped|deselected|xfailed|xpassed|"
                           r"warnings?)|no tests ran)\b")


@dataclass(frozen=True)
class Finished:
    """One finished (or stopped) command: its exit code (None: stopped at its time limit),
    wall and CPU seconds (CPU None where the platform cannot say), and its output."""

    returncode: int | None
    wall_seconds: float
    cpu_seconds: float | None
    stdout: str = ""
    stderr: str = ""


# How a command is run: (argv, folder, time limit in seconds) -> Finished.
Runner = Callable[[Sequence[str], Path, float], Finished]


def run_command(argv: Sequence[str], cwd: Path, timeout: float) -> Finished:
    """Run ``argv`` in ``cwd`` with its output captured, in a session of its own so that a
    command stopped at ``timeout`` (or by Ctrl-C here) is stopped with its children."""
    cpu = children_cpu_seconds()
    start = time.perf_counter()
    process = subprocess.Popen(list(argv), cwd=cwd, stdin=subprocess.DEVNULL,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               errors="replace", start_new_session=sys.platform != "win32")
    returncode: int | None
    try:
        stdout, stderr = process.communicate(timeout=timeout)
        returncode = process.returncode
    except subprocess.TimeoutExpired:
        _stop(process)
        stdout, stderr = process.communicate()
        returncode = None
    except BaseException:
        _stop(process)
        process.wait()
        raise
    wall = time.perf_counter() - start
    after = children_cpu_seconds()
    spent = None if cpu is None or after is None else after - cpu
    return Finished(returncode, wall, spent, stdout, stderr)


def _stop(process: subprocess.Popen[str]) -> None:
    with contextlib.suppress(OSError):
        if sys.platform == "win32":
            process.kill()
        else:
            os.killpg(process.pid, signal.SIGKILL)


def display(argv: Sequence[str]) -> str:
    """``argv`` as a reader would type it: ``python`` for this interpreter."""
    words = ["python" if word == sys.executable else word for word in argv]
    return shlex.join(words)


def _row(measure: str, name: str, argv: Sequence[str], cwd: Path) -> dict[str, Any]:
    return {"measure": measure, "name": name, "command": display(argv), "argv": list(argv),
            "cwd": str(cwd), "status": "ok", "returncode": None, "wall_seconds": None,
            "cpu_seconds": None, "load_before": load_average()}


def _skipped(measure: str, name: str, reason: str) -> dict[str, Any]:
    return {"measure": measure, "name": name, "command": None, "argv": None, "cwd": None,
            "status": "skipped", "reason": reason, "returncode": None, "wall_seconds": None,
            "cpu_seconds": None, "load_before": None}


def _failed(row: dict[str, Any], finished: Finished, timeout: float) -> dict[str, Any]:
    """``row`` marked failed, with what the command said last (and no time)."""
    row.update(status="failed", returncode=finished.returncode, wall_seconds=None,
               cpu_seconds=None)
    if finished.returncode is None:
        row["reason"] = f"stopped after {timeout:g} s (its time limit)"
    else:
        row["reason"] = f"exit code {finished.returncode}"
    last = _last_line(finished.stderr) or _last_line(finished.stdout)
    if last:
        row["error"] = last
    return row


def _last_line(text: str) -> str:
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return lines[-1][:200] if lines else ""


def pytest_summary(text: str) -> str | None:
    """pytest's closing line (``2230 passed, 3 skipped``), without its time."""
    for line in reversed(text.splitlines()):
        if SUMMARY_WORDS.search(line):
            line = line.strip().strip("=").strip()
            return re.sub(r"\s+in [0-9.]+s\b.*$", "", line)
    return None


def _timed(measure: str, name: str, argv: Sequence[str], cwd: Path, runner: Runner,
           timeout: float = TIMEOUT, summary: Callable[[str], str | None] | None = None
           ) -> dict[str, Any]:
    """One run of ``argv``: its wall and CPU seconds, or failed."""
    row = _row(measure, name, argv, cwd)
    finished = runner(argv, cwd, timeout)
    if summary is not None:
        row["summary"] = summary(finished.stdout)
    row["returncode"] = finished.returncode
    if finished.returncode != 0:
        return _failed(row, finished, timeout)
    row["wall_seconds"] = round(finished.wall_seconds, 3)
    row["cpu_seconds"] = None if finished.cpu_seconds is None else round(finished.cpu_seconds, 3)
    return row


def startup(argv: Sequence[str], name: str, cwd: Path, runner: Runner,
            runs: int = STARTUP_RUNS) -> dict[str, Any]:
    """``runs`` timed runs of ``argv`` after one untimed warm-up (its ``.pyc`` files and
    the disk cache): median, min and max wall seconds, median CPU seconds."""
    row = _row("startup", name, argv, cwd)
    row.update(runs=runs, warmup_runs=1)
    walls, cpus = [], []
    for index in range(runs + 1):
        finished = runner(argv, cwd, STARTUP_TIMEOUT)
        row["returncode"] = finished.returncode
        if finished.returncode != 0:
            return _failed(row, finished, STARTUP_TIMEOUT)
        if index:  # the first run warms up
            walls.append(finished.wall_seconds)
            if finished.cpu_seconds is not None:
                cpus.append(finished.cpu_seconds)
    row.update(wall_seconds=round(statistics.median(walls), 4),
               min_seconds=round(min(walls), 4), max_seconds=round(max(walls), 4),
               cpu_seconds=round(statistics.median(cpus), 4) if cpus else None,
               all_wall_seconds=[round(wall, 4) for wall in walls])
    return row


@contextlib.contextmanager
def _workdir(root: Path) -> Iterator[Path]:
    """Where the commands run: the source checkout, else an empty temporary folder (so
    that an installed copy's ``verify`` checks the suite it ships, not a ``./scenarios``
    that happens to be here)."""
    if (root / "pyproject.toml").is_file():
        yield root
        return
    with tempfile.TemporaryDirectory(prefix="mammamia-bench-") as folder:
        yield Path(folder)


def _have(module: str) -> bool:
    return importlib.util.find_spec(module) is not None


@dataclass(frozen=True)
class _Loop:
    """What every measure of one loop run needs: where and how commands run."""

    root: Path
    cwd: Path
    runner: Runner
    say: Callable[[str], None]
    runs: int

    @property
    def mammamia(self) -> list[str]:
        return [sys.executable, "-m", "mammamia_ref"]

    @property
    def pytest(self) -> list[str]:
        return [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"]

    @property
    def checkout(self) -> bool:
        return (self.root / "pyproject.toml").is_file()


def _startup_rows(loop: _Loop) -> list[dict[str, Any]]:
    rows = []
    for flag in ("--version", "--help"):
        loop.say(f"loop: mammamia {flag} ({loop.runs} runs after a warm-up)")
        rows.append(startup([*loop.mammamia, flag], f"mammamia {flag}", loop.cwd, loop.runner,
                            loop.runs))
    return rows


def _verify_rows(loop: _Loop) -> list[dict[str, Any]]:
    loop.say("loop: mammamia verify")
    return [_timed("verify", "mammamia verify", [*loop.mammamia, "verify"], loop.cwd,
                   loop.runner, summary=_last_line)]


def _site_rows(loop: _Loop) -> list[dict[str, Any]]:
    name = "mkdocs build --strict"
    if not (loop.root / "mkdocs.yml").is_file():
        return [_skipped("site", name, "no mkdocs.yml here (not a source checkout)")]
    if not _have("mkdocs"):
        return [_skipped("site", name, "mkdocs is not installed (pip install -e '.[docs]')")]
    loop.say("loop: mkdocs build --strict")
    with tempfile.TemporaryDirectory(prefix="mammamia-site-") as site:
        return [_timed("site", name, [sys.executable, "-m", "mkdocs", "build", "--strict",
                                      "-d", site], loop.cwd, loop.runner)]


def _tests_reason(loop: _Loop) -> str | None:
    """Why the test measures cannot run here, or None."""
    if not loop.checkout or not (loop.root / "tests").is_dir():
        return "no tests/ folder here (an installed copy, not a source checkout)"
    if not _have("pytest"):
        return "pytest is not installed (pip install -e '.[test]')"
    return None


def _quick_rows(loop: _Loop) -> list[dict[str, Any]]:
    name = "pytest -m quick"
    if reason := _tests_reason(loop):
        return [_skipped("quick", name, reason)]
    loop.say("loop: the quick tier, pytest -m quick")
    return [_timed("quick", name, [*loop.pytest, "-m", "quick"], loop.cwd, loop.runner,
                   summary=pytest_summary)]


def _suite_rows(loop: _Loop) -> list[dict[str, Any]]:
    rows = []
    for workers in SUITE_WORKERS:
        name = f"pytest -n {workers}"
        reason = _tests_reason(loop) or (None if _have("xdist") else
                                         "pytest-xdist is not installed (pip install -e "
                                         "'.[test]')")
        if reason:
            rows.append(_skipped("suite", name, reason))
            continue
        loop.say(f"loop: the whole suite, pytest -n {workers} (minutes)")
        row = _timed("suite", name, [*loop.pytest, "-n", str(workers)], loop.cwd, loop.runner,
                     summary=pytest_summary)
        rows.append({**row, "workers": workers})
    return rows


_MEASURE_ROWS: dict[str, Callable[[_Loop], list[dict[str, Any]]]] = {
    "startup": _startup_rows, "verify": _verify_rows, "site": _site_rows,
    "quick": _quick_rows, "suite": _suite_rows}
"""How each measure of :data:`MEASURES` is taken."""


def run_loop(measures: Sequence[str] = tuple(MEASURES), runs: int = STARTUP_RUNS,
             runner: Runner | None = None, root: Path = ROOT,
             progress: Callable[[str], None] | None = None) -> dict[str, Any]:
    """The chosen ``measures`` (names of :data:`MEASURES`, run in that table's order), as
    one JSON-ready dict: the machine, and one row per command (``runner``: how commands
    run, :func:`run_command` by default; ``root``: the source checkout, if it is one)."""
    unknown = [name for name in measures if name not in MEASURES]
    if unknown:
        raise ValueError(f"unknown loop measure {', '.join(map(repr, unknown))} "
                         f"(the measures: {', '.join(MEASURES)})")
    chosen = [name for name in MEASURES if name in measures]
    rows: list[dict[str, Any]] = []
    with _workdir(root) as cwd:
        loop = _Loop(root, cwd, runner or run_command, progress or (lambda message: None), runs)
        for name in chosen:
            rows += _MEASURE_ROWS[name](loop)
    return {"loop": True, "measures": chosen, "machine": machine(),
            "checkout": str(root) if loop.checkout else None,
            "timing": "whole-process wall seconds; cpu_seconds: user + system of the command "
                      "and its children; startup: the median of its runs",
            "rows": rows, "measured": sum(row["status"] == "ok" for row in rows),
            # a loop that measured nothing (every measure skipped) is no success either
            "all_ok": any(row["status"] == "ok" for row in rows)
            and all(row["status"] != "failed" for row in rows)}


def machine() -> dict[str, Any]:
    return {"python": platform.python_version(),
            "implementation": platform.python_implementation(),
            "executable": sys.executable, "platform": platform.platform(),
            "cpu_count": os.cpu_count(), "usable_cpus": usable_cpus(),
            "load_average": load_average()}


def _seconds(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"


def _detail(row: dict[str, Any]) -> str:
    """The last column of a loop row: why it was skipped or failed, or what it said."""
    if row["status"] == "skipped":
        return f"skipped: {row['reason']}"
    if row["status"] == "failed":
        if row.get("summary"):
            return f"{row['reason']}: {row['summary']}"
        return str(row["reason"]) + (f": {row['error']}" if row.get("error") else "")
    if row["measure"] == "startup":
        return (f"median of {row['runs']} (min {row['min_seconds']:.3f}, "
                f"max {row['max_seconds']:.3f})")
    return str(row.get("summary") or "")


def format_loop_table(results: dict[str, Any]) -> str:
    """The loop's rows as a plain-text table (what ``mammamia bench --loop`` prints)."""
    rows = []
    for row in results["rows"]:
        load = row["load_before"][0] if row.get("load_before") else None
        rows.append((row["name"], {"ok": "ok", "failed": "FAILED"}.get(row["status"],
                                                                        row["status"]),
                     _seconds(row["wall_seconds"]), _seconds(row["cpu_seconds"]),
                     "-" if load is None else f"{load:.2f}", _detail(row)))
    header = ("loop measure", "status", "wall s", "cpu s", "load", "")
    width = max(len(row[0]) for row in [header, *rows])
    lines = [f"{header[0]:<{width}}  {header[1]:<7}  {header[2]:>9}  {header[3]:>9}  "
             f"{header[4]:>5}",
             "-" * (width + 40)]
    lines += [f"{a:<{width}}  {b:<7}  {c:>9}  {d:>9}  {e:>5}  {f}".rstrip()
              for a, b, c, d, e, f in rows]
    ran = [row for row in results["rows"] if row["command"]]
    if ran:
        folder = ran[0]["cwd"]
        lines += ["", f"the commands (python: {results['machine']['executable']}), "
                      f"run in {folder}:"]
        seen = set()
        for row in ran:
            if row["command"] not in seen:
                seen.add(row["command"])
                lines.append(f"  {row['command']}")
    machine_info = results["machine"]
    lines += ["", f"Python {machine_info['python']} on {machine_info['platform']}, "
                  f"{machine_info['cpu_count']} CPUs ({machine_info['usable_cpus']} usable), "
                  f"load average {machine_info['load_average']}; load: the 1-minute load "
                  f"average before each command; cpu s: the command and its children"]
    if not results["measured"]:
        lines.append("nothing was measured: every measure was skipped")
    elif not results["all_ok"]:
        lines.append("some commands FAILED: their rows give no time")
    return "\n".join(lines)
