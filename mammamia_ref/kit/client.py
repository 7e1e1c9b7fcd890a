"""A guarded connection to an implementation under test.

The implementation is someone else's program: it may never answer, flood its output,
print invalid JSON or invalid UTF-8, answer with the wrong id, exit at once or crash
halfway. Every request has a timeout, every line a size limit, and every failure is
raised as :class:`ImplementationError` with a ``kind`` that says which it was. A
crashed or wedged implementation is killed and can be restarted.
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import subprocess
import threading
import time
from collections import deque
from collections.abc import Sequence
from typing import Any

from mammamia_ref.errors import InternalError, MammamiaError
from mammamia_ref.kit import PROTOCOL

MAX_LINE = 16 * 1024 * 1024
_EOF = object()


class ImplementationError(MammamiaError):
    """The implementation failed to answer properly. ``kind`` is one of: ``timeout``,
    ``crash``, ``malformed``, ``too_long``, ``wrong_id``, ``error``, ``protocol``."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(f"{kind}: {message}")
        self.kind = kind


class Implementation:
    """One implementation process speaking ``mammamia-protocol/1``."""

    def __init__(self, command: Sequence[str], *, timeout: float = 10.0,
                 startup_timeout: float = 30.0, max_line: int = MAX_LINE,
                 cwd: str | None = None) -> None:
        self.command = list(command)
        self.timeout = timeout
        self.startup_timeout = startup_timeout
        self.max_line = max_line
        self.cwd = cwd
        self.info: dict[str, Any] = {}
        self.restarts = 0
        self._process: subprocess.Popen[bytes] | None = None
        self._lines: queue.Queue[Any] = queue.Queue()
        self._stderr: deque[bytes] = deque(maxlen=64)
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
        self._lines = queue.Queue()
        self._stderr.clear()
        threading.Thread(target=self._read_stdout, args=(self._process, self._lines),
                         daemon=True).start()
        threading.Thread(target=self._read_stderr, args=(self._process,), daemon=True).start()
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
        process, self._process = self._process, None
        if process is None:
            return
        if process.poll() is None:
            try:
                if process.stdin:
                    process.stdin.write(b'{"id":-1,"op":"stop"}\n')
                    process.stdin.flush()
                process.wait(timeout=0.5)
            except (OSError, subprocess.TimeoutExpired):
                pass
        if process.poll() is None:
            process.kill()
            process.wait()
        for stream in (process.stdin, process.stdout, process.stderr):
            if stream:
                with contextlib.suppress(OSError):
                    stream.close()

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
        failure (the process is then killed: call :meth:`restart` to go on)."""
        if not self.alive:
            raise ImplementationError("crash", self._exit_note())
        self._next_id += 1
        request_id = self._next_id
        line = json.dumps({"id": request_id, "op": op, **fields}, separators=(",", ":"))
        try:
            if self._process is None or self._process.stdin is None:
                raise InternalError("a request to an implementation that was not started")
            self._process.stdin.write(line.encode("utf-8") + b"\n")
            self._process.stdin.flush()
        except OSError as exc:
            self._fail()
            raise ImplementationError("crash", f"cannot send {op}: {self._exit_note()}") from exc
        answer = self._answer(op, request_id, self.timeout if timeout is None else timeout)
        if answer.get("ok") is not True:
            error = answer.get("error")
            message = error.get("message") if isinstance(error, dict) else None
            raise ImplementationError("error", f"{op} failed: {message or answer!r}")
        return answer

    def _answer(self, op: str, request_id: int, timeout: float) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        try:
            raw = self._lines.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            self._fail()
            raise ImplementationError("timeout", f"no answer to {op} within "
                                      f"{timeout:g} s") from None
        if raw is _EOF:
            self._fail()
            raise ImplementationError("crash", f"exited during {op}: {self._exit_note()}")
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

    def _fail(self) -> None:
        """After a broken exchange nothing more can be trusted: end the process."""
        process = self._process
        if process is not None and process.poll() is None:
            process.kill()
            process.wait()

    def _exit_note(self) -> str:
        code = None if self._process is None else self._process.poll()
        tail = b"".join(self._stderr).decode("utf-8", "replace").strip().splitlines()[-3:]
        note = "not running" if code is None else f"exit code {code}"
        return note + (f"; stderr: {' | '.join(tail)}" if tail else "")

    def _read_stdout(self, process: subprocess.Popen[bytes], lines: queue.Queue[Any]) -> None:
        stream = process.stdout
        if stream is None:
            raise InternalError("the implementation was started without a stdout pipe")
        try:
            while True:
                line = stream.readline(self.max_line + 1)
                if not line:
                    break
                if len(line) > self.max_line and not line.endswith(b"\n"):
                    lines.put(OverflowError())
                    return
                if line.strip():
                    lines.put(line.rstrip(b"\r\n"))
        except (OSError, ValueError):
            pass
        lines.put(_EOF)

    def _read_stderr(self, process: subprocess.Popen[bytes]) -> None:
        stream = process.stderr
        if stream is None:
            raise InternalError("the implementation was started without a stderr pipe")
        try:
            while chunk := stream.read1(4096) if hasattr(stream, "read1") else stream.read(4096):
                self._stderr.append(chunk[-1024:])
        except (OSError, ValueError):
            pass
