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
    """A game was asked for with an unknown variant flag or value, or a bad setup."""


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
    """A state the rules make impossible: a bug in mammamia, not bad input."""
