"""The one safe writer of witness files: the scenario files ``ask --write-witnesses``
writes into a folder of the user's (``./scenarios/ask/``).

Everything that can refuse is checked before the work, by :func:`plan_witnesses`:

- every file name the work may write is known from the questions (one a cell): each is a
  plain name of at most :data:`NAME_MAX` bytes, and no two answers share one (two
  question ids that differ only in case or punctuation, ``A.b`` and ``a-b``, would
  otherwise write one file, the second over the first);
- the folder (under the current one) is its own, no part of it a symbolic link; it is
  resolved to its real path once, and a temporary entry is made in it (or
  in its nearest existing ancestor) and removed: ``access()`` says yes to root for
  ``/proc`` and ``/sys``, where nothing can be created;
- a file already there under one of the names must be a regular file: a symbolic link
  (to a file outside the folder, say) is refused, never written through.

:func:`write_witness` then writes each file by a temporary file in the real folder and a
rename, which replaces a link put there since the check instead of following it, and
refuses to write if the folder no longer resolves to the real path checked.
"""

from __future__ import annotations

import os
import re
import stat
import tempfile
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from mammamia_ref.errors import excerpt
from mammamia_ref.formats.output import OutputError, write_by_rename

NAME_MAX = 255
"""Bytes of a file name, at most (Linux's NAME_MAX)."""
SUFFIX = ".yaml"


def witness_id(question_id: str, players: int, variants: Mapping[str, str],
               several: bool) -> str:
    """A question's witness scenario id (and file stem) for one cell: the question id in
    lower case with every run of other characters made one ``-``, the player count, and,
    when the question has ``several`` cells a player count, the cell's flag values.

    >>> witness_id("Q.b", 2, {"stall": "cut"}, several=True)
    'ask-q-b-2p-stall-cut'
    """
    def slug(text: str) -> str:
        return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")

    name = f"ask-{slug(question_id)}-{players}p"
    if several:
        name += "".join(f"-{slug(flag)}-{slug(value)}" for flag, value in sorted(variants.items()))
    return name


@dataclass(frozen=True)
class WitnessPlan:
    """A folder checked for the witness files of a run: its real path, and the file
    name of each answer."""

    folder: Path
    real: Path
    names: frozenset[str]


def plan_witnesses(folder: Path, answers: Iterable[tuple[str, str]]) -> WitnessPlan:
    """Check, before the work, that every answer's witness (``answers``: (file stem,
    what the answer is, for a message)) can be written into ``folder`` as a file of its
    own; else one :class:`OutputError`."""
    owners: dict[str, str] = {}
    for stem, what in answers:
        name = stem + SUFFIX
        if "/" in name or "\0" in name or stem in ("", ".", ".."):
            raise OutputError(f"cannot write the witness of {what} into {folder}: its file "
                              f"name {excerpt(name)} is not a plain file name")
        if len(os.fsencode(name)) > NAME_MAX:
            raise OutputError(f"cannot write the witness of {what} into {folder}: its file "
                              f"name {excerpt(name)} is {len(os.fsencode(name))} bytes, more "
                              f"than a file name may have ({NAME_MAX}); give a shorter id")
        earlier = owners.setdefault(name, what)
        if earlier != what:
            raise OutputError(f"{earlier} and {what} would both write {folder / name}: give "
                              "them ids that differ in letters or digits")
    real = _real_folder(folder)
    for name in owners:
        _check_entry(real / name, folder / name)
    return WitnessPlan(folder, real, frozenset(owners))


def write_witness(plan: WitnessPlan, stem: str, text: str) -> bool:
    """Write one planned witness file (by a temporary file and a rename in the real
    folder, so a link is replaced, never followed) unless it already holds ``text``;
    returns whether it changed."""
    name = stem + SUFFIX
    if name not in plan.names:
        raise OutputError(f"cannot write {plan.folder / name}: not a witness planned "
                          "before the work")
    if Path(os.path.realpath(plan.folder)) != plan.real:
        raise OutputError(f"cannot write {plan.folder / name}: the folder was moved or "
                          f"replaced since it was checked (it was {plan.real})")
    target = plan.real / name
    _check_entry(target, plan.folder / name)
    data = text.encode("utf-8")
    try:
        if stat.S_ISREG(os.lstat(target).st_mode) and target.read_bytes() == data:
            return False
    except OSError:
        pass   # absent (or unreadable): written
    try:
        write_by_rename(target, data)
    except OSError as exc:
        raise OutputError(f"cannot write {plan.folder / name}: "
                          f"{exc.strerror or type(exc).__name__}") from None
    return True


def _real_folder(folder: Path) -> Path:
    """The real path of ``folder``, after proving that an entry can be made there (in
    the folder, or in its nearest existing ancestor when it is still to be made)."""
    if "\0" in str(folder):
        raise OutputError(f"cannot write into {excerpt(str(folder))}: the path holds a NUL "
                          "byte")
    real = Path(os.path.realpath(folder))
    if not folder.is_absolute() and real != Path(os.path.realpath(".")) / folder:
        raise OutputError(f"cannot write into {folder}: a part of it is a symbolic link "
                          f"(it leads to {excerpt(str(real), 80)}); witnesses are written "
                          "only into the folder itself")
    ancestor = real
    while not ancestor.exists():
        if ancestor.parent == ancestor:
            raise OutputError(f"cannot write into {folder}: no such folder")
        ancestor = ancestor.parent
    if not ancestor.is_dir():
        raise OutputError(f"cannot write into {folder}: {ancestor} is not a folder")
    try:
        probe = tempfile.mkdtemp(dir=ancestor, prefix=".mammamia-probe-")
        os.rmdir(probe)
    except OSError as exc:
        raise OutputError(f"cannot write into {folder}: nothing can be made in {ancestor} "
                          f"({exc.strerror or type(exc).__name__})") from None
    return real


def _check_entry(target: Path, shown: Path) -> None:
    """A witness file already there must be a regular file (a link is not followed)."""
    try:
        mode = os.lstat(target).st_mode
    except FileNotFoundError:
        return
    except OSError as exc:
        raise OutputError(f"cannot write {shown}: {exc.strerror or type(exc).__name__}"
                          ) from None
    if stat.S_ISLNK(mode):
        raise OutputError(f"cannot write {shown}: it is a symbolic link, and a witness is "
                          "never written through a link: remove it")
    if not stat.S_ISREG(mode):
        raise OutputError(f"cannot write {shown}: it is not a regular file")


__all__ = ["NAME_MAX", "WitnessPlan", "plan_witnesses", "witness_id", "write_witness"]
