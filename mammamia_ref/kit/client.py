"""A guarded connection to an implementation under test.

The implementation is someone else's program: it may never answer, flood its output,
print invalid JSON or invalid UTF-8, answer with the wrong id, exit at once or crash
halfway, never read its input, or leave children behind that hold its pipes. Every
request (its sending included) has a timeout, every line a size limit, and every
failure is raised as :class:`ImplementationError` with a ``kind`` that says which it
was. The implementation runs in its own process group, and the whole group is ended
on every path; the pipes are read by threads that poll with a short timeout, so they
never keep the runner waiting, whoever still holds the other end.
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

MAX_LINE = 16 * 1024 * 1024
_EOF = object()
# How often the pipe threads look at their stop flag, and how long an exited
# implementation's last lines may take to arrive before the exit counts as a crash.
_POLL_SECONDS = 0.1
_EXIT_GRACE_SECONDS = 0.5
_CHUNK = 65536


class ImplementationError(MammamiaError):
    """The implementation failed to answer properly. ``kind`` is one of: ``timeout``,
    ``crash``, ``malformed``, ``too_long``, ``wrong_id``, ``error``, ``protocol``."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(f"{kind}: {message}")
        self.kind = kind


class Implementation:
    """One implementation process speaking ``mammamia-protocol/1``.

    ``deadline`` (a :func:`time.monotonic` time, or None) caps every request's wait, so
    that a run with a budget ends within it whatever the implementation does.
    """

    def __init__(self, command: Sequence[str], *, timeout: float = 10.0,
                 startup_timeout: float = 30.0, max_line: int = MAX_LINE,
                 cwd: str | None = None, deadline: float | None = None) -> None:
        self.command = list(command)
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

    def start(self) -> dict[str, Any]:
        """Start the process and shake hands; refuses an unknown protocol version."""
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
        info = self.request("hello", timeout=max(self.timeout, self.startup_timeout),
                            protocol=PROTOCOL)
        if info.get("protocol") != PROTOCOL:
            self.close()
            raise ImplementationError("protocol", f"the implementation speaks "
                                      f"{info.get('protocol')!r}; this runner knows only "
                                      f"{PROTOCOL}")
        self.info = info
        return info

    def restart(self) -> dict[str, Any]:
        self.restarts += 1
        return self.start()

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

    def request(self, op: str, *, timeout: float | None = None, **fields: Any) -> dict[str, Any]:
        """Send one request and wait for its answer; raise ImplementationError on any
        failure (the process is then ended: call :meth:`restart` to go on)."""
        if not self.alive:
            raise ImplementationError("crash", self._exit_note())
        self._next_id += 1
        request_id = self._next_id
        line = json.dumps({"id": request_id, "op": op, **fields}, separators=(",", ":"))
        limit = self.timeout if timeout is None else timeout
        deadline = time.monotonic() + limit
        if self.deadline is not None and self.deadline < deadline:
            deadline, limit = self.deadline, max(0.0, self.deadline - time.monotonic())
        self._send(op, line.encode("utf-8") + b"\n", deadline, limit)
        answer = self._answer(op, request_id, deadline, limit)
        if answer.get("ok") is not True:
            error = answer.get("error")
            message = error.get("message") if isinstance(error, dict) else None
            raise ImplementationError("error", f"{op} failed: {message or answer!r}")
        return answer

    def _send(self, op: str, data: bytes, deadline: float, limit: float) -> None:
        """Write the request without ever blocking past ``deadline`` (an implementation
        that does not read its input fills the pipe)."""
        process = self._process
        if process is None or process.stdin is None:
            raise InternalError("a request to an implementation that was not started")
        fd, view = process.stdin.fileno(), memoryview(data)
        poller = select.poll()
        poller.register(fd, select.POLLOUT)
        while view:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                self._fail()
                raise ImplementationError("timeout", f"{op} could not be sent within "
                                          f"{limit:g} s: the implementation does not read "
                                          "its input")
            if not poller.poll(min(remaining, _POLL_SECONDS) * 1000):
                continue
            try:
                view = view[os.write(fd, view):]
            except BlockingIOError:
                continue
            except OSError as exc:
                self._fail()
                raise ImplementationError("crash", f"cannot send {op}: "
                                          f"{self._exit_note()}") from exc

    def _answer(self, op: str, request_id: int, deadline: float,
                limit: float) -> dict[str, Any]:
        raw = self._next_line(op, deadline, limit)
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

    def _next_line(self, op: str, deadline: float, limit: float) -> Any:
        """The next answer line, waited for in short slices: an implementation that has
        exited (while a child of it may still hold the pipe) is a crash at once, not
        after the timeout."""
        exited_at: float | None = None
        while True:
            remaining = deadline - time.monotonic()
            try:  # a line already there is taken even with no time left
                raw = self._lines.get(timeout=max(0.0, min(remaining, _POLL_SECONDS)))
            except queue.Empty:
                now = time.monotonic()
                if now >= deadline:
                    self._fail()
                    raise ImplementationError("timeout", f"no answer to {op} within "
                                              f"{limit:g} s") from None
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
