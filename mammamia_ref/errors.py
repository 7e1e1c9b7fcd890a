"""One exception type per kind of failure, all of them ``ValueError`` subclasses.

Every error carries the offending input, and a rule breach carries the rule ID,
so that callers (scenarios, the conformance kit, the CLI) never parse message text;
and a message that quotes input quotes it through :func:`excerpt`, here at the bottom
of the layers so that the rules' own messages use it too.
"""

from __future__ import annotations

import re
from typing import Any

EXCERPT = 32  # characters of a file quoted in a message, at most
WORD_EXCERPT = 12  # characters quoted of a text that is not a plain name
NAME = re.compile(r"[A-Za-z][A-Za-z0-9_.-]*")


def excerpt(text: Any, limit: int = EXCERPT) -> str:
    """What a message may quote of a file's content, the one function every message
    that quotes input uses. A plain name (a letter, then letters, digits, ``_ . -``: what
    a key, flag or value of our formats is) is quoted whole up to ``limit`` characters;
    anything else (a line of ``/etc/shadow`` read as a key, say: a file reached by
    mistake must not be printed through an error message) only up to
    :data:`WORD_EXCERPT`. A cut text is marked as an excerpt; control characters are
    escaped. A value that is not text (a list, say) is quoted by its ``repr``, cut alike.

    >>> excerpt("a" * 50)
    "'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa…' (an excerpt: 32 of 50 characters)"
    >>> excerpt("daemon:*:19000:0:99999:7::")
    "'daemon:*:190…' (an excerpt: 12 of 26 characters)"
    """
    if not isinstance(text, str):
        shown = repr(text)
        limit = min(limit, WORD_EXCERPT)
        return shown if len(shown) <= limit else \
            f"{shown[:limit]}… (an excerpt: {limit} of {len(shown)} characters)"
    if not NAME.fullmatch(text):
        limit = min(limit, WORD_EXCERPT)
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit] + '…'!r} (an excerpt: {limit} of {len(text)} characters)"


class MammamiaError(ValueError):
    """Base class of every error this package raises on purpose."""


class SpecError(MammamiaError):
    """The files in ``spec/`` are missing or contradict each other."""


class VariantError(MammamiaError):
    """A game was asked for with an unknown variant flag or value, or a bad setup.

    ``flag`` names the offending option (a variant flag, or a command-line option such as
    ``--players``) and ``value`` what was given, when the raiser knows them.
    """

    def __init__(self, message: str, *, flag: str | None = None, value: Any = None) -> None:
        super().__init__(message)
        self.flag = flag
        self.value = value


class UsageError(MammamiaError):
    """Command-line options that do not go together, or one that is missing.

    ``options`` names the options at fault, ``value`` what was given (if anything).
    """

    def __init__(self, message: str, *, options: tuple[str, ...] = (), value: Any = None) -> None:
        super().__init__(message)
        self.options = options
        self.value = value


class NoSuchPathError(MammamiaError):
    """A file or folder named on the command line does not exist (``paths``: which)."""

    def __init__(self, paths: list[str], message: str = "") -> None:
        super().__init__(message or f"no such file or folder: {', '.join(paths)}")
        self.paths = tuple(paths)


class MalformedError(MammamiaError):
    """Input is not of our format (JSON shape, unknown card ID, bad type).

    ``where`` is a JSON-pointer-like path to the offending part, ``value`` the input.
    """

    def __init__(self, message: str, *, where: str = "", value: Any = None) -> None:
        super().__init__(f"{where}: {message}" if where else message)
        self.where = where
        self.value = value


class InvalidStateError(MalformedError):
    """A state is well formed but impossible: its cards do not add up, say."""

    def __init__(self, message: str, *, rule: str, where: str = "", value: Any = None) -> None:
        super().__init__(f"{message} [{rule}]", where=where, value=value)
        self.rule = rule


class IllegalActionError(MammamiaError):
    """A well-formed action that the rules forbid here. The state is left unchanged."""

    def __init__(self, message: str, *, rule: str, action: Any = None) -> None:
        super().__init__(f"{message} [{rule}]")
        self.rule = rule
        self.action = action


class InternalError(Exception):
    """A bug: something that cannot happen did. Not a :class:`MammamiaError`.

    Raised instead of a bare ``AssertionError``/``RuntimeError`` so that a caller that
    reports bad user input (exit 2) never mistakes a bug for the user's fault.
    """
