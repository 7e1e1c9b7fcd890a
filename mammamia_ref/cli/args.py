"""The argument helpers every command shares: the parser that reports a mistake in one
line, and the one place that checks command-line values (``--variant NAME=VALUE``,
counts, player counts, seeds, seconds) before any work starts.

Each checker is an argparse ``type`` (or action): a bad value is refused by the parser
with one line, ``mammamia: error: argument --seed: ...``, and exit code 2.
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NoReturn, TypeAlias

if TYPE_CHECKING:  # the rules load when a command runs, not when the parser is built
    from mammamia_ref.rules.ruleset import Rules

from mammamia_ref.formats.limits import (
    BUDGET_MIN,
    JOBS_MAX,
    RANDOM_GAMES_MAX,
    SEED_MAX,
    SEED_MIN,
    TIMEOUT_MIN,
    seconds,
    seconds_wanted,
    shown,
    whole_number,
)

# What ``add_subparsers`` returns: each command module adds its parsers to it.
Commands: TypeAlias = "argparse._SubParsersAction[Any]"

# A text seed (hashed into the shuffles): a word, so that it cannot be mistaken for a
# malformed number or an option, and stays short.
TEXT_SEED = re.compile(r"[A-Za-z][A-Za-z0-9_.:-]{0,63}")
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
        if not self.example:
            return help_text
        lines = self.example.splitlines()
        return help_text + f"\nexample{'s' if len(lines) > 1 else ''}:\n" + \
            "".join(f"  {line}\n" for line in lines)


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


def add_rules_options(parser: argparse.ArgumentParser, help_text: str) -> None:
    """``--variant NAME=VALUE`` and ``--house FILE``: the rules a command plays under."""
    add_variant_option(parser, help_text + "; laid over --house")
    parser.add_argument("--house", metavar="FILE", type=house_file,
                        help="play under a house rule: a YAML file of flag values and numbers "
                             "of the rules (docs/house-rules.md; examples/house-rules/)")


def game_rules(args: argparse.Namespace) -> Rules:
    """The rules given by ``--house`` and ``--variant`` (the spec's without them); a bad
    house-rule file is one error naming its file, line and parameter."""
    from mammamia_ref.formats.house import house_rules, load_house

    house = load_house(args.house) if getattr(args, "house", None) else None
    return house_rules(house, dict(args.variant))


def parameter_values(text: str) -> tuple[str, tuple[int, ...]]:
    """The argument type of ``--param NAME=V1,V2,...`` (the two or more values compared
    may come from ``--param`` given twice for the same name)."""
    name, sep, values = text.partition("=")
    numbers = tuple(_plain_int(v.strip()) for v in values.split(","))
    if not sep or not name.strip() or any(n is None for n in numbers):
        raise argparse.ArgumentTypeError(f"expected NAME=V1,V2,... (whole numbers), "
                                         f"got {_shown(text)}")
    return name.strip(), tuple(n for n in numbers if n is not None)


def positive_number(text: str) -> int:
    """The argument type of counts such as ``--games`` and ``--jobs``."""
    value = _plain_int(text)
    if value is None or value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive whole number, got {_shown(text)}")
    return value


def job_count(text: str) -> int:
    """The argument type of ``--jobs``: 1 to :data:`JOBS_MAX` worker processes (more
    would fork until the machine's process limit)."""
    value = whole_number(text, 1, JOBS_MAX)
    if value is None:
        raise argparse.ArgumentTypeError(
            f"expected 1 to {JOBS_MAX} worker processes, got {_shown(text)}")
    return value


def random_game_count(text: str) -> int:
    """The argument type of ``--random-games``: 0 to :data:`RANDOM_GAMES_MAX` a
    configuration, refused before any game is planned."""
    value = whole_number(text, 0, RANDOM_GAMES_MAX)
    if value is None:
        raise argparse.ArgumentTypeError(
            f"expected 0 to {RANDOM_GAMES_MAX:,} random games, got {_shown(text)}")
    return value


def request_timeout(text: str) -> float:
    """The argument type of ``conform --timeout`` and ``--startup-timeout``: seconds from
    :data:`TIMEOUT_MIN` (a shorter one times every request out, and every case would
    restart the implementation for nothing) to a day."""
    return _seconds(text, TIMEOUT_MIN)


def ask_budget(text: str) -> float:
    """The argument type of ``ask --budget``: CPU seconds a cell, from
    :data:`BUDGET_MIN` to a day (``nan``, ``inf``, ``1e308`` and ``1e-300`` are refused
    before any question is read)."""
    return _seconds(text, BUDGET_MIN, "CPU seconds")


def house_file(text: str) -> str:
    """The argument type of ``--house FILE``: a path, never empty (``--house "$HOUSE"``
    with ``HOUSE`` unset must not mean "no house rule")."""
    if not text:
        raise argparse.ArgumentTypeError(
            "expected a house-rule file, got an empty path (is the variable that names it "
            "unset?); leave --house out to play the spec's rules")
    return text


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


def run_budget(text: str) -> float:
    """The argument type of ``conform --budget``: seconds from :data:`TIMEOUT_MIN` to a
    day (a budget of 0 would run nothing and report every case as out of budget)."""
    return _seconds(text, TIMEOUT_MIN)


def finite_non_negative_seconds(text: str) -> float:
    """The argument type of timeouts that may be 0: seconds from 0 to a day."""
    return _seconds(text, 0.0)


def _seconds(text: str, low: float, what: str = "seconds") -> float:
    """Every seconds option through the one parser (:func:`seconds`), in the same words."""
    value = seconds(text, low)
    if value is None:
        raise argparse.ArgumentTypeError(f"{seconds_wanted(low, what=what)}, got {_shown(text)}")
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
    """``text`` as a whole number (the one parser, :func:`whole_number`), else None."""
    return whole_number(text, -(10**20), 10**20)


_shown = shown
