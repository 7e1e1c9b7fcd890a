"""What a run can tell of the machine it runs on: the CPUs it may use, the load, and the
CPU time its finished children used. One place for ``verify`` (how many workers),
``bench --loop`` (what each command cost) and the tests' waits (``tests/patience.py``)."""

from __future__ import annotations

import os
import sys


def usable_cpus() -> int:
    """The CPUs this process may run on (its affinity, not the machine's count)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def load_average() -> list[float] | None:
    """The 1, 5 and 15-minute load averages (None where the platform has none)."""
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except (OSError, AttributeError):
        return None


def children_cpu_seconds() -> float | None:
    """User + system seconds of this process's reaped children, with the children they
    reaped (``getrusage(RUSAGE_CHILDREN)``; None on Windows)."""
    if sys.platform == "win32":
        return None
    import resource

    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime
