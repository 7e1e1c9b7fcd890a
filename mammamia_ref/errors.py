"""One exception type per kind of failure, all of them ``ValueError`` subclasses.

Every error carries the offending input, and a rule breach carries the rule ID,
so that callers (scenarios, the conformance kit, the CLI) never parse message text.
"""

from __future__ import annotations

from typing import Any


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
