"""The argument helpers every command shares: the parser that reports a mistake in one
line, and the one place that checks command-line values (``--variant NAME=VALUE``,
counts, player counts, seeds, seconds) before any work starts.

Each checker is an argparse ``type`` (or action): a bad value is refused by the parser
with one line, ``mammamia: error: argument --seed: ...``, and exit code 2.
"""

from __future__ import annotations

import argparse
import math
import re
from collections.abc import Sequence
from typing import Any, NoReturn, TypeAlias

# What ``add_subparsers`` returns: each command module adds its parsers to it.
Commands: TypeAlias = "argparse._SubParsersAction[Any]"

# Seeds are signed 64-bit whole numbers, so that every port can hold them.
SEED_MIN, SEED_MAX = -(2**63), 2**63 - 1
# A text seed (hashed into the shuffles): a word, so that it cannot be mistaken for a
# malformed number or an option, and stays short.
TEXT_SEED = re.compile(r"[A-Za-z][A-Za-z0-9_.:-]{0,63}")
_DECIMAL = re.compile(r"-?[0-9]{1,20}")
PLAYERS_MIN, PLAYERS_MAX = 2, 5


class OneLineParser(argparse.ArgumentParser):
    # A command line to copy, shown at the end of ``--help`` as written (an epilog would
    # be rewrapped); set for every command by :func:`mammamia_ref.cli.app.build_parser`.
    example: str | None = None

    def error(self, message: str) -> NoReturn:
        """One line, whichever subcommand the mistake is in."""
        self.exit(2, f"mammamia: error: {message}\n")

    def format_help(self) -> str:
        """The help, then the example."""
        help_text = super().format_help()
        return help_text + (f"\nexample:\n  {self.example}\n" if self.example else "")


def variant_assignment(text: str) -> tuple[str, str]:
    """The argument type of ``--variant NAME=VALUE`` (checked later against the register)."""
    name, sep, value = text.partition("=")
    if not sep:
        raise argparse.ArgumentTypeError(f"expected NAME=VALUE, got {text!r}")
    return name.strip(), value.strip()


class VariantAssignments(argparse.Action):
    """``--variant NAME=VALUE``, repeatable for different flags: the same flag twice is
    refused (it used to keep the last one silently). Use with ``type=variant_assignment``."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: Any, option_string: str | None = None) -> None:
        given: list[tuple[str, str]] = list(getattr(namespace, self.dest, None) or [])
        name, value = values
        for earlier_name, earlier_value in given:
            if earlier_name == name:
                raise argparse.ArgumentError(
                    self, f"{name!r} given twice ({earlier_value!r} and {value!r}): give it once")
        setattr(namespace, self.dest, [*given, (name, value)])


def unique_variants(pairs: Sequence[tuple[str, str]]) -> dict[str, str]:
    """The variant assignments as a map, refusing a flag given twice (for callers that
    collect ``--variant`` with a plain ``append``)."""
    chosen: dict[str, str] = {}
    for name, value in pairs:
        if name in chosen:
            raise argparse.ArgumentTypeError(
                f"--variant {name!r} given twice ({chosen[name]!r} and {value!r}): give it "
                "once")
        chosen[name] = value
    return chosen


def add_variant_option(parser: argparse.ArgumentParser, help_text: str) -> None:
    """The ``--variant NAME=VALUE`` option as every command has it."""
    parser.add_argument("--variant", type=variant_assignment, action=VariantAssignments,
                        default=[], metavar="NAME=VALUE", help=help_text)


def positive_number(text: str) -> int:
    """The argument type of counts such as ``--games`` and ``--jobs``."""
    value = _plain_int(text)
    if value is None or value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive whole number, got {_shown(text)}")
    return value


def non_negative_number(text: str) -> int:
    """The argument type of counts that may be 0, such as ``--random-games``."""
    value = _plain_int(text)
    if value is None or value < 0:
        raise argparse.ArgumentTypeError(f"expected a whole number 0 or more, got {_shown(text)}")
    return value


def player_count(text: str) -> int:
    """The argument type of ``--players``: 2 to 5."""
    value = _plain_int(text)
    if value is None or not PLAYERS_MIN <= value <= PLAYERS_MAX:
        raise argparse.ArgumentTypeError(
            f"expected {PLAYERS_MIN} to {PLAYERS_MAX} players, got {_shown(text)}")
    return value


def finite_non_negative_seconds(text: str) -> float:
    """The argument type of timeouts and budgets: a finite number of seconds, 0 or more
    (``inf``, ``nan`` and negative values are refused)."""
    try:
        value = float(text) if len(text) <= 40 else math.nan
    except ValueError:
        value = math.nan
    if not math.isfinite(value) or value < 0:
        raise argparse.ArgumentTypeError(
            f"expected a finite number of seconds, 0 or more, got {_shown(text)}")
    return value


def integer_seed(text: str) -> int:
    """A seed that must be a number (games are numbered from it): plain decimal digits,
    an optional leading ``-``, within the signed 64-bit range."""
    value = _plain_int(text)
    if value is None or not SEED_MIN <= value <= SEED_MAX:
        raise argparse.ArgumentTypeError(
            f"expected a whole number from {SEED_MIN} to {SEED_MAX}, got {_shown(text)}")
    return value


def game_seed(text: str) -> int | str:
    """A seed as given on the command line: a whole number (as :func:`integer_seed`), or
    else a word (a letter, then up to 63 letters, digits, ``_ . : -``) hashed into the
    shuffles."""
    if TEXT_SEED.fullmatch(text):
        return text
    try:
        return integer_seed(text)
    except argparse.ArgumentTypeError:
        raise argparse.ArgumentTypeError(
            f"expected a whole number from {SEED_MIN} to {SEED_MAX}, or a word (a letter, "
            f"then up to 63 letters, digits, _ . : -), got {_shown(text)}") from None


def _plain_int(text: str) -> int | None:
    """``text`` as a whole number if it is ASCII decimal digits with an optional ``-``
    (``int`` also takes ``٣``, ``1_000`` and spaces), at most 20 digits; else None."""
    return int(text) if _DECIMAL.fullmatch(text) else None


def _shown(text: str) -> str:
    """The value as quoted in a message, cut short so that the message stays one line."""
    return repr(text) if len(text) <= 40 else f"{text[:20]!r}... ({len(text)} characters)"
