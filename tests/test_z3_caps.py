"""A z3 check's cap counts the check's CPU time, not wall-clock time (``num.cpu_capped``):
on a loaded machine a budget of CPU seconds must still buy that much solving, or a
cell the solver settles on an idle machine comes back "unknown" on a busy one."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any

import pytest

z3 = pytest.importorskip("z3")

from mammamia_ref.queries.model import num as N  # noqa: E402


def pigeons(holes: int) -> list[Any]:
    """More pigeons than holes, each in a hole, no two sharing one: unsatisfiable, and
    exponentially hard for z3's search (seconds at 12 holes), so a short cap ends it."""
    p = [[N.Bool(f"p{i}_{j}") for j in range(holes)] for i in range(holes + 1)]
    constraints = [N.Or(*row) for row in p]
    for j in range(holes):
        for i in range(holes + 1):
            constraints += [N.Or(z3.Not(p[i][j]), z3.Not(p[k][j]))
                            for k in range(i + 1, holes + 1)]
    return constraints


def test_a_capped_check_ends_unknown_and_leaves_its_context_usable() -> None:
    with N.building():
        result, model = N.check(pigeons(12), timeout=0.2)
        assert result == z3.unknown and model is None
        # the interrupt does not stay on the context: a later check there is answered
        x = N.Int("x")
        later, found = N.check([x > 2, x < 4])
        assert later == z3.sat and found is not None and N.value(found, x) == 3


def test_an_uncapped_check_is_not_interrupted() -> None:
    with N.building():
        result, _model = N.check(pigeons(4), timeout=None)
        assert result == z3.unsat


CHILD = """
import json, os, subprocess, sys, time
cpu = int(sys.argv[1])
os.sched_setaffinity(0, {cpu})
rival = subprocess.Popen([sys.executable, "-c",
                          f"import os; os.sched_setaffinity(0, {{{cpu}}})\\nwhile True: pass"])
try:
    time.sleep(0.2)
    import z3
    from mammamia_ref.queries.model import num as N
    sys.path.insert(0, sys.argv[2])
    from test_z3_caps import pigeons
    with N.building():
        constraints = pigeons(13)
        start = time.thread_time()
        result, _ = N.check(constraints, timeout=float(sys.argv[3]))
        print(json.dumps({"result": str(result), "cpu": time.thread_time() - start}))
finally:
    rival.kill()
"""


@pytest.mark.skipif(not hasattr(os, "sched_setaffinity"), reason="needs CPU affinity (Linux)")
def test_a_cap_buys_its_cpu_seconds_beside_a_process_that_takes_half_the_cpu() -> None:
    """The check and a busy rival share one CPU, so the check gets about half of each
    second: a wall-clock timeout of ``cap`` seconds would stop it after about ``cap / 2``
    seconds of CPU (measured: 0.51 s of a 1 s timeout), the CPU cap only after ``cap``."""
    cap = 0.6
    cpu = min(os.sched_getaffinity(0))
    here = os.path.dirname(os.path.abspath(__file__))
    done = subprocess.run([sys.executable, "-c", CHILD, str(cpu), here, str(cap)],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    got = json.loads(done.stdout.strip().splitlines()[-1])
    assert got["result"] == "unknown"
    assert got["cpu"] >= 0.95 * cap, got
