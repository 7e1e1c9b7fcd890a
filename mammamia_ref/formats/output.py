"""The one output writer: every report, bundle, divergence file, JSON-lines stream and
the standard output are written through it.

A regular file (or a new one) is written to a temporary name beside it and renamed into
place, so an interrupted run (Ctrl-C, a crash) leaves each file complete or absent, never
half written; it gets the mode the umask gives a new file. Anything else (a device such
as ``/dev/null`` or ``/dev/full``, a named pipe, ``/dev/stdout``, a symbolic link) is
written directly: a rename would replace the device node or the link with a file.

:func:`check_destination` refuses a destination that cannot be written (a folder, a
parent that is a file, a folder without write permission, a pipe nobody reads) before
the work starts; a failure while writing (a full device, say) is one ``OutputError``.
A pipe or device that takes nothing for :data:`WRITE_TIMEOUT` seconds (a named pipe
whose reader never reads) is given up, not waited on for ever.

:func:`open_stream` opens a file written line by line as work finishes (``conform
--jsonl``), through the same checks; :class:`GuardedStream` wraps the standard output so
that a full disk or a device error is one ``OutputError`` too (a closed pipe stays a
``BrokenPipeError``: the reader, ``head`` say, has all it wanted).
"""

from __future__ import annotations

import errno
import io
import os
import select
import stat
import tempfile
from pathlib import Path
from typing import IO, Any

from mammamia_ref.errors import MammamiaError

# Seconds a pipe or device may take nothing before the write is given up.
WRITE_TIMEOUT = 10.0


class OutputError(MammamiaError):
    """An output file cannot be written; the message names it and says why, in one line."""


def check_destination(path: str | Path) -> Path:
    """``path`` as a :class:`Path` if a report can be written there, else ``OutputError``.
    Call it before the work that produces the report, so that a typo costs nothing."""
    target = Path(path)
    if "\0" in str(target):   # os.lstat would raise ValueError
        raise OutputError(f"cannot write {str(target).replace(chr(0), chr(92) + '0')}: the "
                          "path holds a NUL byte, which no file name can")
    try:
        mode = os.lstat(target).st_mode
    except FileNotFoundError:
        _check_new_file(target)
        return target
    except OSError as exc:
        raise _error(target, exc) from None
    if stat.S_ISLNK(mode):
        try:
            mode = os.stat(target).st_mode
        except OSError as exc:
            raise _error(target, exc) from None
    if stat.S_ISDIR(mode):
        raise OutputError(f"cannot write {target}: it is a folder")
    if stat.S_ISSOCK(mode):
        raise OutputError(f"cannot write {target}: it is a socket")
    if stat.S_ISREG(mode) and not os.path.islink(target):
        _check_folder_writable(target.parent if str(target.parent) else Path("."), target)
    elif not os.access(target, os.W_OK):
        raise OutputError(f"cannot write {target}: permission denied")
    return target


def write_atomically(path: str | Path, text: str) -> None:
    """Write ``text`` to ``path``: through a temporary file and a rename if it is a
    regular file or new, directly otherwise. Any failure is one ``OutputError``."""
    target = check_destination(path)
    data = text.encode("utf-8")
    try:
        if _is_regular_or_new(target):
            _replace(target, data)
        else:
            _write_directly(target, data)
    except OSError as exc:
        raise _error(target, exc) from None


write_output = write_atomically


def _is_regular_or_new(target: Path) -> bool:
    try:
        return stat.S_ISREG(os.lstat(target).st_mode)
    except FileNotFoundError:
        return True


def write_by_rename(target: Path, data: bytes) -> None:
    """``data`` as the whole of a regular file: a temporary file beside it renamed into
    place (a symbolic link there is replaced, never followed); OSError as it comes."""
    _replace(target, data)


def _replace(target: Path, data: bytes) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.")
    try:
        os.fchmod(handle, 0o666 & ~_umask())
        with os.fdopen(handle, "wb") as out:
            out.write(data)
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def _write_directly(target: Path, data: bytes) -> None:
    """A device, a pipe or a link: opened as it is (a pipe without a reader is refused
    rather than waited on) and written in full."""
    handle = os.open(target, os.O_WRONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    try:
        _write_all(handle, data)
    finally:
        os.close(handle)


def _write_all(handle: int, data: bytes) -> None:
    """All of ``data`` to a descriptor opened without blocking, waiting at most
    :data:`WRITE_TIMEOUT` seconds each time it takes nothing (a reader that never reads)."""
    view = memoryview(data)
    while view:
        try:
            view = view[os.write(handle, view):]
        except BlockingIOError:
            poller = select.poll()
            poller.register(handle, select.POLLOUT)
            if not poller.poll(WRITE_TIMEOUT * 1000):
                raise OSError(errno.ETIMEDOUT, "stalled") from None


class OutputStream:
    """A file written a piece at a time as work finishes (a JSON-lines report): opened
    when the run starts, so that a destination that cannot be written is refused before
    any work, and each piece written whole; any failure is one ``OutputError``."""

    def __init__(self, path: str | Path) -> None:
        self.target = check_destination(path)
        flags = os.O_WRONLY | os.O_NONBLOCK | os.O_CLOEXEC
        try:
            if _is_regular_or_new(self.target):
                self.target.parent.mkdir(parents=True, exist_ok=True)
                flags |= os.O_CREAT | os.O_TRUNC
            self.handle: int | None = os.open(self.target, flags, 0o666)
        except OSError as exc:
            raise _error(self.target, exc) from None

    def write(self, text: str) -> None:
        if self.handle is None:
            raise OutputError(f"cannot write {self.target}: already closed")
        try:
            _write_all(self.handle, text.encode("utf-8"))
        except OSError as exc:
            self.close()
            raise _error(self.target, exc) from None

    def close(self) -> None:
        if self.handle is not None:
            handle, self.handle = self.handle, None
            os.close(handle)


def open_stream(path: str | Path) -> OutputStream:
    """:class:`OutputStream` on ``path``, refused at once if it cannot be written."""
    return OutputStream(path)


class GuardedStream(io.TextIOBase):
    """A text stream (the standard output) whose write failures are one ``OutputError``
    naming it; a closed pipe stays ``BrokenPipeError``. Other attributes are the
    wrapped stream's."""

    def __init__(self, stream: IO[str], name: str = "the standard output") -> None:
        super().__init__()
        self._stream = stream
        self._label = name

    def write(self, text: str) -> int:
        try:
            return self._stream.write(text)
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise self._failed(exc) from None

    def flush(self) -> None:
        try:
            self._stream.flush()
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise self._failed(exc) from None

    def isatty(self) -> bool:
        return self._stream.isatty()

    def fileno(self) -> int:
        return self._stream.fileno()

    def writable(self) -> bool:
        return True

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)

    def _failed(self, exc: OSError) -> OutputError:
        """The error, and the stream silenced: what it still holds cannot be written,
        and Python's own flush at exit would print a second message."""
        silence(self._stream)
        return _error(Path(self._label), exc)


def silence(stream: IO[str]) -> None:
    """Point ``stream``'s descriptor at ``/dev/null``, so that the bytes it still
    buffers are dropped quietly when Python flushes it at exit."""
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, stream.fileno())
        os.close(null)
    except (OSError, ValueError, io.UnsupportedOperation):
        pass


def _check_new_file(target: Path) -> None:
    """A new file: its nearest existing ancestor must be a folder we may write in (the
    missing folders between are created)."""
    ancestor = target.parent if str(target.parent) else Path(".")
    while True:
        try:
            mode = os.stat(ancestor).st_mode
            break
        except FileNotFoundError:
            if ancestor.parent == ancestor:
                raise OutputError(f"cannot write {target}: no such folder") from None
            ancestor = ancestor.parent
        except NotADirectoryError:
            raise OutputError(f"cannot write {target}: a part of the path is a file, "
                              "not a folder") from None
        except OSError as exc:
            raise _error(target, exc) from None
    if not stat.S_ISDIR(mode):
        raise OutputError(f"cannot write {target}: {ancestor} is not a folder")
    _check_folder_writable(ancestor, target)


def _check_folder_writable(folder: Path, target: Path) -> None:
    if not os.access(folder, os.W_OK | os.X_OK):
        raise OutputError(f"cannot write {target}: the folder {folder} is not writable")


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _error(target: Path, exc: OSError) -> OutputError:
    reason = {errno.ENXIO: "a pipe that nobody reads",
              errno.ENOSPC: "no space left on the device",
              errno.ETIMEDOUT: f"it took nothing for {WRITE_TIMEOUT:g} s (a pipe nobody reads?)",
              errno.EISDIR: "it is a folder",
              errno.ENOTDIR: "a part of the path is a file, not a folder"}.get(
        exc.errno or 0, exc.strerror or type(exc).__name__)
    return OutputError(f"cannot write {target}: {reason}")
