"""The argument helpers every command shares: the parser that reports a mistake in one
line, and the types of ``--variant NAME=VALUE``, counts and seeds."""

from __future__ import annotations

import argparse
from typing import Any, NoReturn, TypeAlias

# What ``add_subparsers`` returns: each command module adds its parsers to it.
Commands: TypeAlias = "argparse._SubParsersAction[Any]"


class OneLineParser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        """One line, whichever subcommand the mistake is in."""
        self.exit(2, f"mammamia: error: {message}\n")


def variant_assignment(text: str) -> tuple[str, str]:
    """The argument type of ``--variant NAME=VALUE`` (checked later against the register)."""
    name, sep, value = text.partition("=")
    if not sep:
        raise argparse.ArgumentTypeError(f"expected NAME=VALUE, got {text!r}")
    return name.strip(), value.strip()


def positive_number(text: str) -> int:
    """The argument type of counts such as ``--games`` and ``--jobs``."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive whole number, got {text!r}")
    return value


def game_seed(text: str) -> int | str:
    """A seed as given on the command line: a whole number, or else any text."""
    return int(text) if text.lstrip("-").isdigit() else text
