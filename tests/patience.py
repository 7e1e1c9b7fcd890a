"""Waits that hold on a busy machine.

The machines the tests run on are shared and often loaded (a load of 10 to 20 on 2 CPUs),
and there a command takes many times its idle wall time. So a test never bets on a fixed
wall-clock time:

- what a test asserts about cost is measured in CPU time (:func:`cpu_seconds`,
  :func:`children_cpu_seconds`), which a loaded machine hardly changes;
- a wait is guarded against a real hang only, by :class:`Patience`: its seconds are
  seconds of an idle machine, stretched by the load measured as the wait goes
  (:func:`load_factor`). A Patience guard never asserts that something is fast.
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
from collections.abc import Callable, Sequence
from typing import Any

import pytest

from mammamia_ref.kit.client import process_cpu_seconds
from mammamia_ref.tools import machine
from mammamia_ref.tools.machine import usable_cpus

# How often a guarded wait looks at its process or condition.
POLL_SECONDS = 0.1


def load_factor() -> float:
    """How many times slower than on an idle machine a process likely runs now: the
    one-minute load average per usable CPU, at least 1. The average lags a change of load
    (by about a minute), which is why the guards built on it are generous."""
    try:
        load = os.getloadavg()[0]
    except OSError:  # no load average here: assume an idle machine
        return 1.0
    return max(1.0, load / usable_cpus())


class Patience:
    """A hang guard for a polling loop, of ``idle_seconds`` seconds of an idle machine.

    Each :meth:`spent` adds the wall time since the last look divided by the load factor
    at this look, so the guard stretches while the machine is busy (at a load of 20 on 2
    CPUs, a second of patience lasts ten). It tells a real hang from a slow run, and
    nothing more: never use it to assert that something is fast."""

    def __init__(self, idle_seconds: float) -> None:
        self.idle_seconds = idle_seconds
        self.waited = 0.0  # idle-machine seconds counted so far
        self.started = self._last = time.monotonic()
        self.worst = 1.0  # the highest load factor seen, for the message

    def spent(self) -> bool:
        """Count the time since the last look; whether the patience is spent."""
        now, factor = time.monotonic(), load_factor()
        self.waited += (now - self._last) / factor
        self._last, self.worst = now, max(self.worst, factor)
        return self.waited >= self.idle_seconds

    def wait(self, condition: Callable[[], bool], poll: float = POLL_SECONDS) -> bool:
        """Look at ``condition`` until it holds (True) or the patience is spent (False)."""
        while not condition():
            if self.spent():
                return False
            time.sleep(poll)
        return True

    def __str__(self) -> str:
        return (f"{self.idle_seconds:g} s of an idle machine ({time.monotonic() - self.started:.0f}"
                f" s of wall time, the machine up to {self.worst:.1f} times slower)")


def communicate(process: subprocess.Popen[Any], idle_seconds: float,
                input: Any = None) -> tuple[Any, Any]:
    """``process.communicate(input)`` under a :class:`Patience` guard instead of a fixed
    timeout: if the process has not ended when the patience is spent, it (and its process
    group, if it leads one) is killed and the test fails with what it had printed."""
    guard = Patience(idle_seconds)
    while True:
        try:
            return process.communicate(input, timeout=POLL_SECONDS)
        except subprocess.TimeoutExpired:
            input = None  # being sent already: communicate goes on with the rest
        if guard.spent():
            _kill(process)
            try:  # only on the way to a failure: a fixed wait cannot fail a good run here
                out, err = process.communicate(timeout=10)
            except subprocess.TimeoutExpired:  # a grandchild holds the pipes
                out, err = "", ""
            pytest.fail(f"{_name(process.args)} did not end within {guard}; killed.\n"
                        f"stdout: {str(out or '')[-2000:]}\nstderr: {str(err or '')[-2000:]}")


def run(cmd: Sequence[str], idle_seconds: float = 120, *, input: Any = None,
        check: bool = False, **kwargs: Any) -> subprocess.CompletedProcess[Any]:
    """Like ``subprocess.run(cmd, capture_output=True, text=True, ...)``, with the hang
    guard of :func:`communicate` (``idle_seconds`` of an idle machine, stretched by the
    load) instead of a fixed ``timeout``."""
    if "stdout" not in kwargs and "stderr" not in kwargs:
        kwargs.setdefault("capture_output", True)
    if kwargs.pop("capture_output", False):
        kwargs["stdout"] = kwargs["stderr"] = subprocess.PIPE
    kwargs.setdefault("text", True)
    if input is not None:
        kwargs["stdin"] = subprocess.PIPE
    with subprocess.Popen(cmd, **kwargs) as process:
        out, err = communicate(process, idle_seconds, input)
    done = subprocess.CompletedProcess(process.args, process.returncode, out, err)
    if check:
        done.check_returncode()
    return done


# The CPU seconds process ``pid`` has used so far: its own (utime, stime) and that of the
# children it has waited for (cutime, cstime), from ``/proc/PID/stat``; None when it
# cannot be read (the process is gone, or there is no ``/proc``). The kit's own reader,
# with which it judges a port's waits.
cpu_seconds = process_cpu_seconds


def tree_cpu_seconds(pid: int) -> float | None:
    """:func:`cpu_seconds` of process ``pid`` and of each of its live descendants (whose
    CPU time reaches ``pid``'s only when it waits for them); None when ``pid`` is gone."""
    children: dict[int, list[int]] = {}
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            try:
                with open(f"/proc/{entry.name}/stat", "rb") as stat:
                    parent = int(stat.read().rpartition(b")")[2].split()[1])
            except (OSError, IndexError, ValueError):  # gone meanwhile
                continue
            children.setdefault(parent, []).append(int(entry.name))
    total, todo = cpu_seconds(pid), list(children.get(pid, []))
    while todo and total is not None:
        child = todo.pop()
        total += cpu_seconds(child) or 0.0
        todo += children.get(child, [])
    return total


# The CPU seconds of all the children this process has reaped (with the children they
# reaped). The difference across a child's reaping, less tree_cpu_seconds of the child just
# before, is what the child (and the descendants it waited for) used since, as long as the
# test reaps no other child meanwhile.
children_cpu_seconds = machine.children_cpu_seconds


def ended(pid: int) -> bool:
    """Whether process ``pid`` is gone, or a zombie (ended, not yet reaped)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            return stat.read().rpartition(b")")[2].split()[0] == b"Z"
    except OSError:
        return True


def _kill(process: subprocess.Popen[Any]) -> None:
    try:
        if os.getpgid(process.pid) == process.pid:  # it leads its group: the group too
            os.killpg(process.pid, signal.SIGKILL)
        else:
            process.kill()
    except ProcessLookupError:
        pass


def _name(args: Any) -> str:
    words = [str(arg) for arg in args] if isinstance(args, list | tuple) else [str(args)]
    text = " ".join(word if len(word) < 60 else word[:57] + "..." for word in words)
    return text if len(text) < 300 else text[:297] + "..."
