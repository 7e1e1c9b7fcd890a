"""A guarded connection to an implementation under test.

The implementation is someone else's program: it may never answer, flood its output,
print invalid JSON or invalid UTF-8, answer with the wrong id, exit at once or crash
halfway, never read its input, or leave children behind that hold its pipes. Every
request (its sending included) has a timeout, every line a size limit, and every
failure is raised as :class:`ImplementationError` with a ``kind`` that says which it
was. The implementation runs in its own process group, and the whole group is ended
on every path; the pipes are read by threads that poll with a short timeout, so they
never keep the runner waiting, whoever still holds the other end.

How long a request may take follows the request and the machine, not a fixed wall
clock (:class:`RequestClock`):

- its **allowance** is ``--timeout`` seconds (the base), and for a counting request
  (``perft``) one more base per :data:`NODES_PER_TIMEOUT` nodes the reference visits
  to answer it (the counts of the committed table up to the depth asked:
  :func:`allowance`);
- the wait is judged by the implementation's **CPU time** where it can be read (on
  Linux, ``utime + stime + cutime + cstime`` of ``/proc/PID/stat``: the process
  started, all its threads, and the children it has waited for), so that a busy
  machine, which gives it little CPU, does not time it out while it works. The
  request times out when the implementation has had its allowance **both** in wall
  time and in CPU time (a port using several cores gets no less than the allowance in
  wall time); when it has used **no CPU for the base** seconds (it waits for something
  that will not come: hung, whatever the allowance); or, whatever it used, after
  :data:`WALL_CAP` times the allowance in wall time (a port that would spin for ever
  on a loaded machine). Where CPU time cannot be read (not Linux, no ``/proc``), the
  allowance is wall time, as it was;
- the run's budget (``deadline``) is wall time and caps every wait.

A port started through a wrapper that stays beside it (``cargo run``, ``npx``, a shell
script that does not ``exec``) shows the wrapper's CPU time, not its own: it is then
stopped after the base in wall time, as before. A timeout says what the port used and
names the option to raise.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import queue
import select
import signal
import subprocess
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from typing import Any

from mammamia_ref.errors import InternalError, MammamiaError, UsageError
from mammamia_ref.kit import PROTOCOL
from mammamia_ref.kit.versions import known, named_version, refusal
from mammamia_ref.kit.words import plain

MAX_LINE = 16 * 1024 * 1024
_EOF = object()
# How often the pipe threads look at their stop flag, and how long an exited
# implementation's last lines may take to arrive before the exit counts as a crash.
_POLL_SECONDS = 0.1
_EXIT_GRACE_SECONDS = 0.5
_CHUNK = 65536
# A counting request's allowance grows by one base (``--timeout``) per this many nodes
# the reference visits (the reference counts 4,000 to 50,000 nodes a second), and no
# request is waited for longer than WALL_CAP times its allowance in wall time.
NODES_PER_TIMEOUT = 2_000
WALL_CAP = 10
try:
    _CLOCK_TICKS = float(os.sysconf("SC_CLK_TCK"))
except (AttributeError, ValueError, OSError):  # no sysconf: no /proc to read either
    _CLOCK_TICKS = 100.0


class ImplementationError(MammamiaError):
    """The implementation failed to answer properly. ``kind`` is one of: ``timeout``,
    ``crash``, ``malformed``, ``too_long``, ``wrong_id``, ``error``, ``protocol``."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(f"{kind}: {message}")
        self.kind = kind


class Implementation:
    """One implementation process speaking the porter protocol (:data:`PROTOCOL`).

    ``timeout`` is the base allowance of a request (``--timeout``), ``startup_timeout``
    the hello's (``--startup-timeout``). ``deadline`` (a time of ``wall_clock``, which is
    :func:`time.monotonic`, or None) caps every request's wait, so that a run with a
    budget ends within it whatever the implementation does. ``wall_clock`` and
    ``cpu_clock`` (the CPU seconds a process id has used, None where unknown) are the
    clocks the waits are judged by (the module docstring); tests replace them.
    """

    def __init__(self, command: Sequence[str], *, timeout: float = 10.0,
                 startup_timeout: float = 30.0, max_line: int = MAX_LINE,
                 cwd: str | None = None, deadline: float | None = None,
                 wall_clock: Callable[[], float] = time.monotonic,
                 cpu_clock: Callable[[int], float | None] | None = None) -> None:
        self.command = list(command)
        self.wall_clock = wall_clock
        self.cpu_clock = process_cpu_seconds if cpu_clock is None else cpu_clock
        self.timeout = _seconds("--timeout", timeout)
        self.startup_timeout = _seconds("--startup-timeout", startup_timeout)
        self.max_line = max_line
        self.cwd = cwd
        self.deadline = deadline
        self.info: dict[str, Any] = {}
        self.restarts = 0
        self._process: subprocess.Popen[bytes] | None = None
        self._lines: queue.Queue[Any] = queue.Queue()
        self._stderr: deque[bytes] = deque(maxlen=64)
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []
        self._next_id = 0

    # -- life cycle ------------------------------------------------------------------

    def start(self, deadline: float | None = None) -> dict[str, Any]:
        """Start the process and shake hands; refuses an unknown protocol version. The
        hello waits at most its start-up allowance, and never past ``deadline``."""
        self.close()
        try:
            self._process = subprocess.Popen(
                self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=subprocess.PIPE, cwd=self.cwd, env={**os.environ, "PYTHONUNBUFFERED": "1"},
                process_group=0)  # Ctrl-C is for the runner, which then stops the implementation
        except OSError as exc:
            raise ImplementationError("crash", f"cannot start {self.command[0]!r}: "
                                      f"{exc.strerror}") from exc
        process = self._process
        if process.stdin is None or process.stdout is None or process.stderr is None:
            raise InternalError("the implementation was started without its pipes")
        os.set_blocking(process.stdin.fileno(), False)  # a request is sent within its timeout
        self._lines = queue.Queue()
        self._stderr.clear()
        self._stop = threading.Event()
        self._threads = [
            threading.Thread(target=_pump, args=(process.stdout.fileno(), self._stop,
                                                 LineSplitter(self._lines, self.max_line)),
                             daemon=True),
            threading.Thread(target=_pump, args=(process.stderr.fileno(), self._stop,
                                                 self._keep_stderr), daemon=True)]
        for thread in self._threads:
            thread.start()
        info = self._hello(deadline)
        problem = hello_problem(info)
        if problem is not None:
            self.close()
            raise ImplementationError("protocol", problem)
        self.info = info
        return info

    def _hello(self, deadline: float | None) -> dict[str, Any]:
        """The hello, in the version spoken; a port that refuses it naming an older
        version it speaks is greeted again in that version, whose terms it then runs in
        (:mod:`mammamia_ref.kit.terms`)."""
        base = max(self.timeout, self.startup_timeout)
        try:
            return self._exchange("hello", {"protocol": PROTOCOL}, base=base,
                                  deadline=deadline, option="--startup-timeout")
        except ImplementationError as exc:
            older = named_version(str(exc)) if exc.kind == "error" else None
            if older is None or not self.alive:
                raise
        return self._exchange("hello", {"protocol": older}, base=base, deadline=deadline,
                              option="--startup-timeout")

    def restart(self, deadline: float | None = None) -> dict[str, Any]:
        self.restarts += 1
        return self.start(deadline)

    def close(self) -> None:
        """Ask the implementation to stop, then end its whole process group (children
        that kept its pipes included), stop the pipe threads and close the pipes."""
        process, self._process = self._process, None
        if process is None:
            return
        try:
            if process.poll() is None and process.stdin is not None:
                with contextlib.suppress(OSError, ValueError):
                    os.write(process.stdin.fileno(), b'{"id":-1,"op":"stop"}\n')
                with contextlib.suppress(subprocess.TimeoutExpired):
                    process.wait(timeout=0.5)
        finally:  # a second Ctrl-C during the polite stop must not leave the group running
            self._end(process)

    def __enter__(self) -> Implementation:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def alive(self) -> bool:
        return self._process is not None and self._process.poll() is None

    # -- requests --------------------------------------------------------------------

    def request(self, op: str, *, timeout: float | None = None, work: int = 0,
                deadline: float | None = None, **fields: Any) -> dict[str, Any]:
        """Send one request and wait for its answer; raise ImplementationError on any
        failure (the process is then ended: call :meth:`restart` to go on).

        ``timeout`` replaces ``--timeout`` as this request's base; ``work`` is the number
        of nodes the reference visits to answer it (a counting request), which grows its
        allowance (:func:`allowance`); ``deadline`` (a time of the wall clock) caps the
        wait, as the ``deadline`` of the connection does."""
        return self._exchange(op, fields, base=self.timeout if timeout is None else timeout,
                              work=work, deadline=deadline)

    def _exchange(self, op: str, fields: dict[str, Any], *, base: float, work: int = 0,
                  deadline: float | None = None,
                  option: str = "--timeout") -> dict[str, Any]:
        if not self.alive:
            raise ImplementationError("crash", self._exit_note())
        self._next_id += 1
        request_id = self._next_id
        line = json.dumps({"id": request_id, "op": op, **fields}, separators=(",", ":"))
        caps = [d for d in (self.deadline, deadline) if d is not None]
        clock = RequestClock(allowance(base, work), base, wall=self.wall_clock,
                             cpu=self._cpu_reader(), deadline=min(caps) if caps else None)
        self._send(op, line.encode("utf-8") + b"\n", clock, option)
        answer = self._answer(op, request_id, clock, option)
        if answer.get("ok") is not True:
            error = answer.get("error")
            message = error.get("message") if isinstance(error, dict) else None
            raise ImplementationError("error", f"{op} failed: {plain(message or answer, 300)}")
        return answer

    def _cpu_reader(self) -> Callable[[], float | None]:
        """The CPU time of the process now running, for one request's clock."""
        pid = getattr(self._process, "pid", None)
        if not isinstance(pid, int):
            return lambda: None
        cpu_clock = self.cpu_clock
        return lambda: cpu_clock(pid)

    def _send(self, op: str, data: bytes, clock: RequestClock, option: str) -> None:
        """Write the request without ever blocking past its clock (an implementation
        that does not read its input fills the pipe); a timeout names ``option``."""
        process = self._process
        if process is None or process.stdin is None:
            raise InternalError("a request to an implementation that was not started")
        fd, view = process.stdin.fileno(), memoryview(data)
        poller = select.poll()
        poller.register(fd, select.POLLOUT)
        while view:
            if not poller.poll(clock.slice() * 1000):
                verdict = clock.expired()
                if verdict is not None:
                    self._fail()
                    raise ImplementationError("timeout", clock.message(
                        f"{op} could not be sent", verdict, option,
                        "the implementation does not read its input"))
                continue
            try:
                view = view[os.write(fd, view):]
            except BlockingIOError:
                continue
            except OSError as exc:
                self._fail()
                raise ImplementationError("crash", f"cannot send {op}: "
                                          f"{self._exit_note()}") from exc

    def _answer(self, op: str, request_id: int, clock: RequestClock,
                option: str) -> dict[str, Any]:
        raw = self._next_line(op, clock, option)
        if isinstance(raw, OverflowError):
            self._fail()
            raise ImplementationError("too_long", f"an answer to {op} longer than "
                                      f"{self.max_line} bytes was cut off")
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            self._fail()
            raise ImplementationError("malformed", f"the answer to {op} is not UTF-8") from None
        try:
            answer = json.loads(text)
        except (ValueError, RecursionError):  # RecursionError: nested too deeply
            self._fail()
            raise ImplementationError("malformed", f"the answer to {op} is not JSON: "
                                      f"{text[:200]!r}") from None
        if not isinstance(answer, dict):
            self._fail()
            raise ImplementationError("malformed", f"the answer to {op} is not a JSON object")
        if answer.get("id") != request_id:
            self._fail()
            raise ImplementationError("wrong_id", f"asked {op} with id {request_id}, got an "
                                      f"answer with id {answer.get('id')!r}")
        return answer

    def _next_line(self, op: str, clock: RequestClock, option: str) -> Any:
        """The next answer line, waited for in short slices: an implementation that has
        exited (while a child of it may still hold the pipe) is a crash at once, not
        after the timeout."""
        exited_at: float | None = None
        while True:
            try:  # a line already there is taken even with no time left
                raw = self._lines.get(timeout=clock.slice())
            except queue.Empty:
                verdict = clock.expired()
                if verdict is not None:
                    self._fail()
                    raise ImplementationError("timeout", clock.message(
                        f"no answer to {op}", verdict, option)) from None
                now = time.monotonic()
                if exited_at is None and not self.alive:
                    exited_at = now
                if exited_at is not None and now - exited_at > _EXIT_GRACE_SECONDS:
                    self._fail()
                    raise ImplementationError("crash", f"exited during {op}: "
                                              f"{self._exit_note()}") from None
                continue
            if raw is _EOF:
                self._fail()
                raise ImplementationError("crash", f"exited during {op}: {self._exit_note()}")
            return raw

    def _fail(self) -> None:
        """After a broken exchange nothing more can be trusted: end the process group."""
        if self._process is not None:
            self._end(self._process)

    def _end(self, process: subprocess.Popen[bytes]) -> None:
        """Kill the implementation's process group (its leader may have exited, leaving
        children), reap the leader, stop the pipe threads, close our ends of the pipes."""
        end_group(process)
        others = [t for t in self._threads if t is not threading.current_thread()]
        drain_until = time.monotonic() + _EXIT_GRACE_SECONDS
        for thread in others:  # the group is gone: the pipes end once read to the end
            thread.join(timeout=max(0.0, drain_until - time.monotonic()))
        self._stop.set()  # else something outside the group holds them: stop reading
        for thread in others:
            thread.join(timeout=2 * _POLL_SECONDS + 1.0)
        for stream in (process.stdin, process.stdout, process.stderr):
            if stream:
                with contextlib.suppress(OSError, ValueError):
                    stream.close()

    def _exit_note(self) -> str:
        code = None if self._process is None else self._process.poll()
        tail = b"".join(self._stderr).decode("utf-8", "replace").strip().splitlines()[-3:]
        note = "not running" if code is None else f"exit code {code}"
        return note + (f"; stderr: {' | '.join(tail)}" if tail else "")

    def _keep_stderr(self, chunk: bytes) -> bool:
        self._stderr.append(chunk[-1024:])
        return True


def allowance(base: float, work: int = 0) -> float:
    """The seconds a request may take: ``base`` (``--timeout``), and one more ``base`` per
    :data:`NODES_PER_TIMEOUT` nodes of ``work``, the nodes the reference visits to answer
    it (for a counting request, its table's counts up to the depth asked)."""
    return base * (1 + max(work, 0) / NODES_PER_TIMEOUT)


def more_time(base: float) -> int:
    """The figure a timeout suggests for the option whose value was ``base``: four times
    as much, in whole seconds, at least 1."""
    return max(1, math.ceil(4 * base))


def process_cpu_seconds(pid: int) -> float | None:
    """The CPU seconds process ``pid`` has used (all its threads, and the children it has
    waited for), read from ``/proc/PID/stat``; None where that cannot be read."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            data = stat.read()
    except OSError:
        return None
    fields = data.rpartition(b")")[2].split()  # after the name, which may hold anything
    if len(fields) < 15:
        return None
    try:  # fields 14 to 17: utime, stime, cutime, cstime, in clock ticks
        return sum(int(field) for field in fields[11:15]) / _CLOCK_TICKS
    except ValueError:
        return None


class RequestClock:
    """The clocks one request is judged by (the module docstring): ``allowance`` seconds
    of both wall time and CPU time; no CPU used for ``idle`` seconds; at most
    :data:`WALL_CAP` times the allowance in wall time; and the wall time ``deadline``.

    ``wall`` reads the wall clock; ``cpu`` the implementation's CPU seconds (None: not
    known, and the allowance is wall time). The CPU time is first read at the first
    look, one slice after the request was sent: an answer that comes at once costs no
    reading."""

    def __init__(self, allowance: float, idle: float, *,
                 wall: Callable[[], float] = time.monotonic,
                 cpu: Callable[[], float | None] = lambda: None,
                 deadline: float | None = None) -> None:
        self.allowance, self.idle, self.deadline = allowance, idle, deadline
        self._wall, self._cpu = wall, cpu
        self.started = self.moved = wall()
        self.elapsed = 0.0
        self.first: float | None = None   # the CPU reading at the first look
        self.last = 0.0                   # the highest reading since
        self._looked = False

    @property
    def used(self) -> float | None:
        """The CPU seconds used since the first look (None: not known)."""
        return None if self.first is None else self.last - self.first

    def slice(self) -> float:
        """How long to wait before the next look: a poll slice, less if the allowance or
        the deadline comes sooner."""
        now = self._wall()
        ends = [self.started + self.allowance, *([] if self.deadline is None
                                                 else [self.deadline])]
        return max(0.0, min([_POLL_SECONDS, *(end - now for end in ends if end > now)]))

    def expired(self) -> str | None:
        """Why the wait is over, or None to wait on: ``"deadline"`` (the run's budget),
        ``"spent"`` (the allowance had in wall time and in CPU time, or in wall time where
        CPU time is not known), ``"idle"`` (no CPU used for ``idle`` seconds) or
        ``"capped"`` (:data:`WALL_CAP` times the allowance in wall time)."""
        now = self._wall()
        self.elapsed = now - self.started
        if self.deadline is not None and now >= self.deadline:
            return "deadline"
        reading = self._cpu()
        if not self._looked:
            self._looked, self.first = True, reading
            self.last = 0.0 if reading is None else reading
        if reading is None or self.first is None:
            return "spent" if self.elapsed >= self.allowance else None
        if reading > self.last:
            self.last, self.moved = reading, now
        if self.elapsed >= self.allowance and self.last - self.first >= self.allowance:
            return "spent"
        if now - self.moved >= self.idle:
            return "idle"
        if self.elapsed >= WALL_CAP * self.allowance:
            return "capped"
        return None

    def message(self, what: str, verdict: str, option: str = "--timeout",
                why: str = "") -> str:
        """The timeout in words: ``what`` did not happen within how long, what the
        implementation used meanwhile, and the ``option`` to raise (whose value was the
        base, ``idle``)."""
        used = self.used
        cpu = "" if used is None else f"used {used:.1f} s of CPU"
        if verdict == "deadline":
            return f"{what} within {_figure(self.elapsed)} s: the run's time budget is spent"
        if verdict == "capped":
            within = (f"within {_figure(self.elapsed)} s, {WALL_CAP} times its allowance "
                      f"of {_figure(self.allowance)} s")
        elif verdict == "idle":
            within = f"within {_figure(self.elapsed)} s"
            cpu += f", none in the last {_figure(self.idle)} s"
        else:
            within = f"within {_figure(self.allowance)} s"
        text = f"{what} {within}" + (f" ({cpu})" if cpu else "") + (f": {why}" if why else "")
        return (f"{text}; if the implementation is only slow, give it more time: "
                f"{option} {more_time(self.idle)}")


def _figure(seconds: float) -> str:
    return f"{round(seconds, 1):g}"


# What a hello's answer holds (protocol-N.schema.json, ``answer``), checked at the edge:
# a field of another type is refused in one line before any case.
_HELLO_TEXT = ("name", "language", "version")


def hello_problem(info: dict[str, Any]) -> str | None:
    """Why a hello's answer cannot be run (None if it can): a protocol version the kit
    does not know (one short line: the versions known and where they are described), or
    a field of the wrong type."""
    if known(info.get("protocol")) is None:
        return refusal(info.get("protocol"))
    for key in _HELLO_TEXT:
        if key in info and not isinstance(info[key], str):
            return f"hello: {key} is a text, not {plain(info[key], 40)}"
    features, parameters = info.get("features", []), info.get("parameters", [])
    for key, value in (("features", features), ("parameters", parameters)):
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            return f"hello: {key} is a list of names, not {plain(value, 40)}"
    variants = info.get("variants", {})
    if not isinstance(variants, dict) or not all(
            isinstance(values, list) and all(isinstance(v, str) for v in values)
            for values in variants.values()):
        return ("hello: variants maps each flag to the list of values offered, not "
                f"{plain(variants, 40)}")
    return None


def _seconds(option: str, value: float) -> float:
    """A timeout as the waits need it: finite and not negative (``nan`` would never
    expire, ``inf`` overflows the clock)."""
    if not math.isfinite(value) or value < 0:
        raise UsageError(f"{option} must be a finite number of seconds, 0 or more, not "
                         f"{value!r}", options=(option,), value=value)
    return value


def end_group(process: subprocess.Popen[Any]) -> None:
    """SIGKILL to the process group led by ``process`` (started with ``process_group=0``),
    then reap the leader. The group outlives its leader while any member is left, and
    its id is not reused meanwhile."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)
    if process.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            process.kill()
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(timeout=5)


class LineSplitter:
    """Cuts the implementation's output into lines for ``lines``; a line longer than
    ``max_line`` is an ``OverflowError`` and ends the reading. Each byte is looked at
    once, however the output is chunked."""

    def __init__(self, lines: queue.Queue[Any], max_line: int) -> None:
        self.lines = lines
        self.max_line = max_line
        self.pending = bytearray()

    def __call__(self, chunk: bytes) -> bool:
        searched = len(self.pending)
        self.pending += chunk
        start = 0
        while (end := self.pending.find(b"\n", searched)) >= 0:
            if end - start > self.max_line:
                self.lines.put(OverflowError())
                return False
            line = bytes(self.pending[start:end]).rstrip(b"\r")
            if line.strip():
                self.lines.put(line)
            start = searched = end + 1
        del self.pending[:start]
        if len(self.pending) > self.max_line:
            self.lines.put(OverflowError())
            return False
        return True

    def close(self) -> None:
        if self.pending.strip():
            self.lines.put(bytes(self.pending))
        self.lines.put(_EOF)


def _pump(fd: int, stop: threading.Event, sink: Callable[[bytes], bool]) -> None:
    """Hand what arrives on ``fd`` to ``sink`` until the end of the stream, until ``sink``
    says stop, or until ``stop`` is set (looked at every ``_POLL_SECONDS``)."""
    poller = select.poll()
    poller.register(fd, select.POLLIN)
    try:
        while not stop.is_set():
            if not poller.poll(_POLL_SECONDS * 1000):
                continue
            chunk = os.read(fd, _CHUNK)
            if not chunk or not sink(chunk):
                break
    except (OSError, ValueError):
        pass
    finally:
        close = getattr(sink, "close", None)
        if close is not None:
            close()
