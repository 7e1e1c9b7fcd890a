"""How long the conformance kit waits for an implementation (``kit/client.py``).

A request's allowance follows the request (a counting request gets more in proportion to
the nodes of its table) and the wait is judged by the implementation's CPU time, so a
busy machine never errors a port that is working, while a hung port is still stopped
after ``--timeout`` and a spinning one after a multiple of its allowance. The rules are
tested with fake clocks; the subprocess tests use small timeouts and CPU time (not
wall-clock luck) for what they assert.
"""

from __future__ import annotations

import os
import sys
import textwrap
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from mammamia_ref.formats.perft_table import load_perft_table
from mammamia_ref.kit import PROTOCOL
from mammamia_ref.kit.cases import counting_work, run_perft_case
from mammamia_ref.kit.client import (
    NODES_PER_TIMEOUT,
    WALL_CAP,
    Implementation,
    ImplementationError,
    RequestClock,
    allowance,
    more_time,
    process_cpu_seconds,
)
from mammamia_ref.kit.protocol import ReferenceSession
from mammamia_ref.kit.runner import Budgeted

sys.path.insert(0, str(Path(__file__).resolve().parent))
import patience

ROOT = Path(__file__).resolve().parent.parent
REFERENCE = [sys.executable, "-m", "mammamia_ref", "serve"]
DRAW_ANY = ROOT / "scenarios" / "perft" / "draw-any-2p.yaml"


# --- the allowance: a pure function of the base and the request's work ----------------


def test_the_allowance_grows_with_the_nodes_the_reference_counts() -> None:
    assert allowance(10) == allowance(10, 0) == 10
    assert allowance(10, NODES_PER_TIMEOUT) == 20
    assert allowance(10, 3 * NODES_PER_TIMEOUT) == 40
    assert allowance(0.5, 4 * NODES_PER_TIMEOUT) == pytest.approx(2.5)
    assert allowance(10, -5) == 10  # never less than the base
    assert allowance(0, 10**6) == 0  # --timeout 0 stays 0


def test_a_counting_request_is_worth_its_table_up_to_the_depth_asked() -> None:
    table = load_perft_table(DRAW_ANY)
    assert counting_work(table, 1) == 6
    assert counting_work(table, 6) == 6 + 36 + 72 + 408 + 2244 + 12308
    # the count that errored on a loaded machine: 10 s then, now more than eight times it
    assert allowance(10, counting_work(table, 6)) > 80


def test_a_timeout_suggests_four_times_the_option_in_whole_seconds() -> None:
    assert more_time(10) == 40
    assert more_time(2.5) == 10
    assert more_time(0.3) == 2
    assert more_time(0) == 1


class Recorder:
    """A connection that answers from the reference and notes each request's work."""

    def __init__(self) -> None:
        self.session = ReferenceSession()
        self.info = self.session.op_hello({"protocol": PROTOCOL})
        self.works: list[tuple[str, int]] = []

    def request(self, op: str, *, timeout: float | None = None, work: int = 0,
                **fields: Any) -> dict[str, Any]:
        self.works.append((op, work))
        return {"ok": True, **self.session.handle({"op": op, **fields})}


def test_the_runner_sends_each_count_with_the_work_of_its_table() -> None:
    table = load_perft_table(DRAW_ANY)
    port = Recorder()
    result = run_perft_case(port, table, 3_000)
    assert result.status == "pass", result.message
    depths = [d for d, n in sorted(table.counts.items()) if n <= 3_000]
    assert len(depths) == 5
    assert [work for op, work in port.works if op == "perft"] == \
        [counting_work(table, d) for d in depths]
    assert all(work == 0 for op, work in port.works if op != "perft")


def test_the_budget_passes_the_work_on_and_caps_the_wait_in_wall_time() -> None:
    seen: dict[str, Any] = {}

    class Impl:
        def request(self, op: str, **kwargs: Any) -> dict[str, Any]:
            seen.update(op=op, **kwargs)
            return {"ok": True, "nodes": 1}

    deadline = time.monotonic() + 600
    Budgeted(Impl(), deadline).request("perft", depth=3, work=123)  # type: ignore[arg-type]
    assert seen == {"op": "perft", "depth": 3, "work": 123, "timeout": None,
                    "deadline": deadline}


# --- the wait, judged with fake clocks -----------------------------------------------


class Machine:
    """A fake wall clock and a fake CPU reading of the port, in milliseconds (exact)."""

    def __init__(self) -> None:
        self.wall_ms = 0
        self.cpu_ms = 0

    def wall(self) -> float:
        return self.wall_ms / 1000

    def cpu(self) -> float | None:
        return self.cpu_ms / 1000


def wait(clock: RequestClock, machine: Machine, *, share: float | Callable[[float], float],
         needs: float | None = None, longest: float = 10_000.0) -> tuple[str, float]:
    """Let the port run for slices of 0.1 s, getting ``share`` of a CPU (more than 1: it
    uses several; a function: of the wall time), until it has used ``needs`` seconds of
    CPU (then it answers) or the clock says stop. Returns ("answered" or why it stopped,
    the wall time)."""
    used = 0
    while machine.wall_ms < longest * 1000:
        machine.wall_ms += 100
        now = share(machine.wall()) if callable(share) else share
        machine.cpu_ms += round(100 * now)
        used += round(100 * now)
        if needs is not None and used >= needs * 1000:
            return "answered", machine.wall()
        verdict = clock.expired()
        if verdict is not None:
            return verdict, machine.wall()
    raise AssertionError("the clock never stopped the wait")


def clock_on(machine: Machine, allowance: float = 10.0, idle: float | None = None,
             **kwargs: Any) -> RequestClock:
    return RequestClock(allowance, allowance if idle is None else idle, wall=machine.wall,
                        cpu=machine.cpu, **kwargs)


def test_on_a_busy_machine_a_port_that_works_is_waited_for() -> None:
    """The reported failure: 10% of a CPU (load 20 on 2 cores), 6 s of CPU to count, a
    10 s allowance: 60 s of wall time, and the answer is waited for."""
    machine = Machine()
    assert wait(clock_on(machine), machine, share=0.1, needs=6.0) == ("answered", 60.0)


def test_the_same_port_times_out_where_cpu_time_cannot_be_read() -> None:
    """Without a CPU clock the allowance is wall time, as it always was."""
    machine = Machine()
    clock = RequestClock(10.0, 10.0, wall=machine.wall, cpu=lambda: None)
    assert wait(clock, machine, share=0.1, needs=6.0) == ("spent", 10.0)


def test_a_hung_port_is_stopped_after_the_base_whatever_its_allowance() -> None:
    machine = Machine()
    assert wait(clock_on(machine), machine, share=0) == ("idle", 10.0)
    machine = Machine()
    big = clock_on(machine, allowance=allowance(10, 10 * NODES_PER_TIMEOUT), idle=10.0)
    assert wait(big, machine, share=0) == ("idle", 10.0)


def test_a_port_that_worked_then_hung_is_stopped_the_base_after_its_last_work() -> None:
    machine = Machine()
    assert wait(clock_on(machine), machine, share=lambda t: 1.0 if t <= 3.0 else 0.0) == \
        ("idle", 13.0)


def test_a_port_that_spins_on_an_idle_machine_is_stopped_after_its_allowance() -> None:
    machine = Machine()
    verdict, seconds = wait(clock_on(machine), machine, share=1.0)
    assert verdict == "spent" and 10.0 <= seconds <= 10.2  # CPU counted from the first look


def test_a_port_that_spins_on_a_busy_machine_is_stopped_at_the_wall_cap() -> None:
    machine = Machine()
    assert wait(clock_on(machine), machine, share=0.05) == ("capped", 10.0 * WALL_CAP)


def test_a_port_on_several_cores_still_gets_its_allowance_in_wall_time() -> None:
    machine = Machine()
    assert wait(clock_on(machine), machine, share=4.0, needs=30.0) == ("answered", 7.5)
    machine = Machine()
    assert wait(clock_on(machine), machine, share=4.0) == ("spent", 10.0)


def test_a_counting_request_gets_its_larger_allowance() -> None:
    """A port counting 10,000 nodes in 40 s of CPU on a machine of its own: past the
    base, within the allowance of its table."""
    work = 5 * NODES_PER_TIMEOUT
    machine = Machine()
    assert wait(clock_on(machine, allowance(10, work), idle=10), machine, share=1.0,
                needs=40.0) == ("answered", 40.0)
    machine = Machine()
    assert wait(clock_on(machine, allowance(10, 0)), machine, share=1.0,
                needs=40.0)[0] == "spent"


def test_the_run_budget_caps_the_wait_in_wall_time() -> None:
    machine = Machine()
    assert wait(clock_on(machine, deadline=4.0), machine, share=0.1, needs=6.0) == \
        ("deadline", 4.0)


def test_a_timeout_message_says_what_was_used_and_names_the_option() -> None:
    machine = Machine()
    clock = clock_on(machine)
    assert wait(clock, machine, share=1.0)[0] == "spent"
    assert clock.message("no answer to perft", "spent") == (
        "no answer to perft within 10 s (used 10.0 s of CPU); if the implementation is only "
        "slow, give it more time: --timeout 40")
    machine = Machine()
    clock = clock_on(machine)
    assert wait(clock, machine, share=0) == ("idle", 10.0)
    assert clock.message("no answer to hello", "idle", "--startup-timeout") == (
        "no answer to hello within 10 s (used 0.0 s of CPU, none in the last 10 s); if the "
        "implementation is only slow, give it more time: --startup-timeout 40")
    machine = Machine()
    clock = RequestClock(10.0, 10.0, wall=machine.wall, cpu=lambda: None)
    assert wait(clock, machine, share=1.0)[0] == "spent"
    assert clock.message("no answer to perft", "spent").startswith(
        "no answer to perft within 10 s; if the implementation is only slow, give it more "
        "time: --timeout 40")


def test_the_cpu_time_of_a_live_process_is_read() -> None:
    if not Path(f"/proc/{os.getpid()}/stat").exists():
        pytest.skip("no /proc here: the waits fall back to wall time")
    start = time.process_time()
    while time.process_time() - start < 0.05:  # use some CPU
        pass
    mine = sum(os.times()[:4])
    read = process_cpu_seconds(os.getpid())
    assert read is not None and abs(read - mine) < 0.05 and read >= 0.04
    assert process_cpu_seconds(2**31 - 1) is None  # no such process


# --- real processes: a fake port that sleeps or spins, and the reference -------------

FAKE_PORT = textwrap.dedent('''
    import json, sys, time
    PROTOCOL = sys.argv[1]
    for line in sys.stdin:
        request = json.loads(line)
        answer = {"id": request["id"], "ok": True}
        if request["op"] == "hello":
            answer.update(name="fake", language="Python", version="0",
                          protocol=PROTOCOL, variants={}, features=[])
        elif request["op"] == "nap":  # hung: waits without using any CPU
            time.sleep(3600)
        elif request["op"] == "spin":  # slow: uses this much CPU, then answers
            start = time.process_time()
            while time.process_time() - start < request["seconds"]:
                pass
        print(json.dumps(answer), flush=True)
''')


@pytest.fixture
def fake_port(tmp_path: Path) -> list[str]:
    script = tmp_path / "fake_port.py"
    script.write_text(FAKE_PORT, encoding="utf-8")
    return [sys.executable, str(script), PROTOCOL]


@pytest.mark.slow  # drives an implementation as a subprocess
def test_a_port_that_sleeps_times_out_after_the_base_naming_the_option(
        fake_port: list[str]) -> None:
    with Implementation(fake_port, timeout=0.3) as impl:
        impl.start()
        with pytest.raises(ImplementationError) as raised:
            impl.request("nap")
        assert not impl.alive
    message = str(raised.value)
    assert raised.value.kind == "timeout"
    assert message.startswith("timeout: no answer to nap within 0.3 s (used 0.0 s of CPU, "
                              "none in the last 0.3 s)"), message
    assert message.endswith("if the implementation is only slow, give it more time: "
                            "--timeout 2"), message
    # stopped as hung (the message says: no CPU in the last base), not at the wall cap
    with Implementation(fake_port, timeout=0.3) as impl:  # a hung count: after the base too
        impl.start()
        with pytest.raises(ImplementationError) as raised:
            impl.request("nap", work=20 * NODES_PER_TIMEOUT)  # an allowance of 6.3 s
    assert str(raised.value).startswith("timeout: no answer to nap within 0.3 s (used 0.0 s")


@pytest.mark.slow  # drives an implementation as a subprocess
def test_a_busy_request_gets_the_allowance_of_its_work(fake_port: list[str]) -> None:
    """Two and a half bases of CPU: past the base, within the allowance of its work; the
    same request without the work is stopped once it has used its base of CPU. The base
    is 0.2 s on an idle machine, more on a loaded one (where the port's CPU comes in
    thinner slices: no base may pass without any, nor ten allowances of wall time)."""
    base = 0.2 * patience.load_factor()
    work = 4 * NODES_PER_TIMEOUT  # an allowance of five bases
    with Implementation(fake_port, timeout=base) as impl:
        impl.start()
        assert impl.request("spin", seconds=2.5 * base, work=work)["ok"] is True
        with pytest.raises(ImplementationError) as raised:
            impl.request("spin", seconds=2.5 * base)
    assert raised.value.kind == "timeout"
    assert f"--timeout {more_time(base)}" in str(raised.value)
    assert "s of CPU" in str(raised.value)


@pytest.mark.slow  # drives the reference as a subprocess
def test_the_reference_counts_with_a_fifth_of_the_wall_clock() -> None:
    """The reported failure, without loading the machine: the reference counts the
    draw-any-2p table while the runner's wall clock runs five times as fast as real
    time, as when the machine gives it a fifth of a CPU; its real CPU time is read from
    /proc. Through the runner (each count with the allowance of its table), then the
    count that errored (depth 6) with the base alone: its half a second of CPU is within
    a 2 s allowance, however long it took."""
    if not Path(f"/proc/{os.getpid()}/stat").exists():
        pytest.skip("no /proc here: the waits fall back to wall time")
    table = load_perft_table(DRAW_ANY)
    real_start = time.monotonic()

    def fast_wall() -> float:
        return real_start + 5 * (time.monotonic() - real_start)

    base = 2.0 * patience.load_factor()  # no base without CPU, even on a loaded machine
    with Implementation(REFERENCE, timeout=base, cwd=str(ROOT), wall_clock=fast_wall) as impl:
        impl.start()
        result = run_perft_case(impl, table, 3_000)
        assert result.status == "pass", result.message
        impl.request("load_state", state=table.state)
        assert impl.request("perft", depth=6)["nodes"] == table.counts[6]
