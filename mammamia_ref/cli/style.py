"""Colour on the command line: only on a terminal, and never when ``NO_COLOR`` is set
(https://no-color.org), so piped output and logs stay plain text."""

from __future__ import annotations

import os
import sys
from typing import TextIO

_CODES = {"green": "32", "red": "31", "yellow": "33", "bold": "1", "dim": "2"}


def use_colour(stream: TextIO | None = None) -> bool:
    """Whether to colour what goes to ``stream`` (standard output by default)."""
    stream = sys.stdout if stream is None else stream
    if os.environ.get("NO_COLOR", "") != "":
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


def paint(text: str, colour: str, stream: TextIO | None = None) -> str:
    """``text`` in ``colour`` when :func:`use_colour` says so, else unchanged.

    >>> import io
    >>> paint("ok", "green", stream=io.StringIO())  # not a terminal: plain
    'ok'
    """
    if not use_colour(stream):
        return text
    return f"\033[{_CODES[colour]}m{text}\033[0m"


__all__ = ["paint", "use_colour"]


def number_words(value: object) -> str:
    """A number of the rules in words: one given by player count (the trimming) as "5 at
    2 players, 3 at 3 players, ...", any other as it is."""
    if isinstance(value, dict):
        return ", ".join(f"{value[n]} at {n} players" for n in value)
    return str(value)
