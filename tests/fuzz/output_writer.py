"""Target: the one output writer, ``formats/output.py``, on every kind of destination.
Each write either succeeds (a regular file then holds exactly the text, with the mode the
umask gives) or is one :class:`OutputError`; either way no temporary file is left, and a
device, a pipe or a symbolic link is never replaced by a file."""

from __future__ import annotations

import json
import os
import stat
import tempfile
from pathlib import Path

from mammamia_ref.formats.output import OutputError, check_destination, write_atomically

EXPECTED: tuple[type[BaseException], ...] = (OutputError,)
FORMAT = "json"  # [destination kind, text]

KINDS = ("new", "existing", "new_in_new_folders", "parent_is_file", "folder", "dev_null",
         "dev_full", "pipe_without_reader", "link_to_file", "dangling_link", "empty_name")


def fuzz_one(data: bytes) -> None:
    kind, text = _decode(data)
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        target = _prepare(kind, root)
        before = _kind_of(target)
        try:
            check_destination(target)
            write_atomically(target, text)
        except OutputError as exc:
            assert "\n" not in str(exc) and str(exc).startswith("cannot write "), str(exc)
            _check_after(root, target, before, written=None)
            raise
        _check_after(root, target, before, written=text)


def _decode(data: bytes) -> tuple[str, str]:
    try:
        doc = json.loads(data)
        if isinstance(doc, list) and len(doc) == 2 and isinstance(doc[0], int) \
                and isinstance(doc[1], str):
            return KINDS[doc[0] % len(KINDS)], doc[1]
    except (ValueError, RecursionError):
        pass
    return KINDS[(data[0] if data else 0) % len(KINDS)], data[1:].decode("utf-8", "replace")


def _prepare(kind: str, root: Path) -> Path:
    regular = root / "report.json"
    if kind == "existing":
        regular.write_text("old\n")
    elif kind == "new_in_new_folders":
        return root / "a" / "b" / "report.json"
    elif kind == "parent_is_file":
        regular.write_text("a file\n")
        return regular / "report.json"
    elif kind == "folder":
        return root
    elif kind in ("dev_null", "dev_full"):
        return device(root, kind[4:])
    elif kind == "pipe_without_reader":
        os.mkfifo(root / "pipe")
        return root / "pipe"
    elif kind == "link_to_file":
        regular.write_text("old\n")
        (root / "link").symlink_to(regular)
        return root / "link"
    elif kind == "dangling_link":
        (root / "link").symlink_to(root / "nowhere")
        return root / "link"
    elif kind == "empty_name":
        return root / ""
    return regular


def device(folder: Path, name: str) -> Path:
    """A node of /dev/null or /dev/full made in ``folder`` when we may (as root), so that
    a writer that renames over it replaces only our copy; else the real one."""
    node = folder / name
    try:
        os.mknod(node, stat.S_IFCHR | 0o666, os.stat(f"/dev/{name}").st_rdev)
    except OSError:
        return Path(f"/dev/{name}")
    return node


def _kind_of(path: Path) -> int | None:
    try:
        return stat.S_IFMT(os.lstat(path).st_mode)
    except OSError:
        return None


def _check_after(root: Path, target: Path, before: int | None, *, written: str | None) -> None:
    leftovers = [p for p in root.rglob(".*") if p.is_file()]
    assert not leftovers, leftovers
    after = _kind_of(target)
    if before is not None and before != stat.S_IFREG:
        assert after == before, (target, before, after)  # never replaced by a file
    if written is not None and after == stat.S_IFREG:
        assert target.read_bytes() == written.encode("utf-8")
        mask = os.umask(0o022)
        os.umask(mask)
        assert stat.S_IMODE(os.stat(target).st_mode) == 0o666 & ~mask


def seeds() -> list[bytes]:
    return [json.dumps([i, f"{{\"kind\": {i}}}\n"]).encode() for i in range(len(KINDS))]
