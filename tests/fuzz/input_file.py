"""Target: the bounded reader every file named on the command line goes through
(``safeyaml.read_bounded``) and the ``--expected-failures`` reader, on a regular file, a
named pipe fed by a writer, a folder and a missing file. Each read gives at most the
limit of bytes, or one :class:`InputFileError`; nothing hangs and nothing else escapes."""

from __future__ import annotations

import contextlib
import os
import tempfile
import threading
from pathlib import Path

from mammamia_ref.formats.safeyaml import InputFileError, read_bounded
from mammamia_ref.kit.report import load_expected_failures

EXPECTED: tuple[type[BaseException], ...] = (InputFileError,)
FORMAT = "yaml"  # a list of case names is YAML too
LIMIT = 2048


def fuzz_one(data: bytes) -> None:
    kind = data[0] % 4 if data else 0  # "d...": a file, "a...": a pipe, "b": a folder, "c": none
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "input.txt"
        feeder = None
        if kind == 0:
            path.write_bytes(data)
        elif kind == 1:
            os.mkfifo(path)
            feeder = threading.Thread(target=_feed, args=(path, data), daemon=True)
            feeder.start()
        elif kind == 2:
            path.mkdir()
        try:
            raw = read_bounded(path, LIMIT, timeout=5)
            assert len(raw) <= LIMIT and (kind == 1 or raw == data)
            if kind == 0:
                names = load_expected_failures(path)
                assert all(name == name.strip() and name and "#" not in name for name in names)
        except InputFileError as exc:
            assert str(exc).startswith(str(path)) and "\n" not in str(exc), str(exc)
            raise
        finally:
            # unblock a writer whose reader gave up (or read before the writer opened the
            # pipe: its open then waits for a reader), until it has ended
            while feeder is not None and feeder.is_alive():
                with contextlib.suppress(OSError):
                    os.close(os.open(path, os.O_RDONLY | os.O_NONBLOCK))
                feeder.join(timeout=0.01)


def _feed(path: Path, data: bytes) -> None:
    with contextlib.suppress(OSError), open(path, "wb") as out:
        out.write(data)


def seeds() -> list[bytes]:
    return [b"dcase-one\ncase-two  # a comment\n", b"acase-one\n", b"b\n", b"c\n",
            b"d" + b"x" * 3000, b"a" + b"x" * 3000, b"d\xff\xfe\n"]
