"""Target: the command-line value checkers of ``mammamia_ref/cli/args.py`` and the parser
that uses them. Any text (as Linux gives it: UTF-8 with undecodable bytes escaped) is
either refused with one line and exit code 2, or accepted as a value of the documented
type and range that the games can use (a seed of 5,000 digits once passed ``isdigit``
and then broke ``int`` and ``str``)."""

from __future__ import annotations

import argparse
import contextlib
import io
import math

from mammamia_ref.cli.app import build_parser
from mammamia_ref.cli.args import (
    SEED_MAX,
    SEED_MIN,
    finite_non_negative_seconds,
    game_seed,
    integer_seed,
    player_count,
    positive_number,
)
from mammamia_ref.rules.chance import ChanceSource

EXPECTED: tuple[type[BaseException], ...] = ()
FORMAT = "json"  # the seeds are JSON scalars; any bytes are a value

# command lines that are only parsed (never run): VALUE stands for the fuzzed text
COMMAND_LINES = (
    ("play", "--players", "2", "--seed", "VALUE"),
    ("play", "--players", "VALUE", "--seed", "1"),
    ("perft", "--players", "2", "--depth", "1", "--seed", "VALUE"),
    ("simulate", "--players", "2", "--games", "1", "--seed", "VALUE"),
    ("simulate", "--players", "2", "--games", "VALUE"),
    ("play", "--players", "2", "--seed", "1", "--variant", "VALUE", "--variant", "VALUE"),
)


def fuzz_one(data: bytes) -> None:
    text = data.decode("utf-8", "surrogateescape")
    _check_values(text)
    for line in COMMAND_LINES:
        _parse([text if part == "VALUE" else part for part in line])


def _check_values(text: str) -> None:
    for checker, accepted in ((game_seed, _seed_ok), (integer_seed, _integer_seed_ok),
                              (finite_non_negative_seconds, _seconds_ok),
                              (player_count, lambda v: type(v) is int and 2 <= v <= 5),
                              (positive_number, lambda v: type(v) is int and v >= 1)):
        try:
            value = checker(text)
        except argparse.ArgumentTypeError as exc:
            assert "\n" not in str(exc) and len(str(exc)) < 300, str(exc)
            continue
        assert accepted(value), (checker.__name__, text, value)


def _seed_ok(value: int | str) -> bool:
    ChanceSource(value)  # the seed must be usable as it is given
    return _integer_seed_ok(value) if isinstance(value, int) else \
        value.isascii() and 1 <= len(value) <= 64 and value[0].isalpha()


def _integer_seed_ok(value: int | str) -> bool:
    return type(value) is int and SEED_MIN <= value <= SEED_MAX and bool(str(value))


def _seconds_ok(value: float) -> bool:
    return math.isfinite(value) and value >= 0


def _parse(argv: list[str]) -> None:
    """Parsed, or refused with exit code 2 and one line on stderr."""
    errors = io.StringIO()
    with contextlib.redirect_stderr(errors), contextlib.redirect_stdout(io.StringIO()):
        try:
            build_parser().parse_args(argv)
        except SystemExit as exc:
            assert exc.code == 2, exc.code
            lines = errors.getvalue().splitlines()
            assert len(lines) == 1 and lines[0].startswith("mammamia: error:"), lines


def seeds() -> list[bytes]:
    return [b"0", b"-4", b"7", b"9223372036854775807", b"-9223372036854775808", b"1e400",
            b'"abc"', b"2.5", b"5", b'"\\u00b2"', b"1" * 30, "\u00b2".encode(), b"--5",
            b"5" * 5000, b"\xff", b"nan", b"-inf"]
