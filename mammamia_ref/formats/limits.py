"""The one parser of counts, seeds and budgets, and the one place that bounds work
before it starts.

Every whole number a user gives (``--games``, ``--jobs``, ``--random-games``, a seed,
``search:N``) is read by :func:`whole_number`: plain ASCII digits, counted before any
conversion (so Python's digit limit is never reached and a leading run of zeros cannot
hide a large value), then held to its range. Every piece of work whose size is known in
advance (replays of ``--rulings``, the cases of a conformance run, worker processes) is
held to its cap by :func:`bound_work` before the first of it is done, with a message
that says how much was asked for and how to ask for less.
"""

from __future__ import annotations

import math
import re

from mammamia_ref.errors import EXCERPT, NAME, UsageError, excerpt

# Seeds are signed 64-bit whole numbers, so that every port can hold them.
SEED_MIN, SEED_MAX = -(2**63), 2**63 - 1
# Worker processes: beyond this a machine forks until its process limit.
JOBS_MAX = 256
# Random games of a conformance run, per player count and ruling.
RANDOM_GAMES_MAX = 100_000
# Cases of one conformance run (planned before the implementation starts).
CASES_MAX = 1_000_000
# Replays of ``scenario run --rulings``: per scenario, and in all.
RULINGS_MAX = 64
REPLAYS_MAX = 10_000
# The shortest timeout of a request: below it no implementation could ever answer.
TIMEOUT_MIN = 0.01
# Seconds any timeout or budget may be: a day (a larger one is a typo or a way to hang).
SECONDS_MAX = 86_400.0
# ``ask --budget``, CPU seconds a cell: below this no search or z3 check can start.
BUDGET_MIN = 0.01

_DIGITS = re.compile(r"-?[0-9]+")
# A number of seconds: plain decimal, an optional fraction and exponent (no ``nan``,
# ``inf``, ``_``, sign or spaces), at most 40 characters.
_SECONDS = re.compile(r"([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][-+]?[0-9]{1,3})?")
# More significant digits than this is out of every range (2**63 has 19).
_MAX_DIGITS = 20


class TooMuchWorkError(UsageError):
    """Work whose size is known before it starts is beyond its cap."""


def whole_number(text: str, low: int, high: int) -> int | None:
    """``text`` as a whole number from ``low`` to ``high``, else None: ASCII decimal
    digits with an optional leading ``-`` (``int`` would also take ``٣``, ``1_000`` and
    spaces), whatever its length, never converted past 20 significant digits.

    >>> whole_number("00000010000000000", 1, 100_000) is None
    True
    >>> whole_number("-0007", -10, 10)
    -7
    """
    if not isinstance(text, str) or len(text) > 10_000 or not _DIGITS.fullmatch(text):
        return None
    digits = text.lstrip("-").lstrip("0") or "0"
    if len(digits) > _MAX_DIGITS:
        return None
    value = int(digits) * (-1 if text.startswith("-") else 1)
    return value if low <= value <= high else None


def seconds(text: str, low: float, high: float = SECONDS_MAX) -> float | None:
    """``text`` as a number of seconds from ``low`` to ``high``, else None: plain decimal
    (``1.5``, ``2e3``), at most 40 characters, finite; ``nan``, ``inf``, ``1e308``, a
    ``1`` and 400 zeros and ``1e-300`` (below any ``low`` above 0) are refused, never
    rounded to something else.

    >>> [seconds(t, 0.01) for t in ("10", "2.5e1", "nan", "inf", "1e308", "1e-300")]
    [10.0, 25.0, None, None, None, None]
    """
    if not isinstance(text, str) or len(text) > 40 or not _SECONDS.fullmatch(text):
        return None
    value = float(text)
    return value if math.isfinite(value) and low <= value <= high else None


def seconds_wanted(low: float, high: float = SECONDS_MAX, what: str = "seconds") -> str:
    """How every seconds option says what it takes: the same words everywhere."""
    return f"expected {low:g} to {high:,g} {what}"


def shown(text: str) -> str:
    """A value as quoted in a message, cut short so that the message stays one line."""
    return repr(text) if len(text) <= 40 else f"{text[:20]!r}... ({len(text)} characters)"


def pointer_excerpt(pointer: str) -> str:
    """A JSON pointer into a file as a message shows it: each part a short excerpt (a
    pointer names the file's own keys, which may be anything).

    >>> pointer_excerpt("/parameters/hand_limit")
    '/parameters/hand_limit'
    >>> pointer_excerpt("/" + "x:" * 40)
    "/'x:x:x:x:x:x:…' (an excerpt: 12 of 80 characters)"
    """
    if not pointer:
        return "/"
    parts = pointer.split("/")[1:]
    return "".join("/" + (p if not p or (NAME.fullmatch(p) and len(p) <= EXCERPT)
                          or (p.isdigit() and len(p) <= 9) else excerpt(p)) for p in parts)


def bound_work(what: str, count: int, cap: int, hint: str) -> int:
    """``count`` if it is within ``cap``, else a one-line :class:`TooMuchWorkError`
    saying how much was asked for, the cap and ``hint`` (how to ask for less)."""
    if count > cap:
        raise TooMuchWorkError(f"{what}: {count:,} asked for, at most {cap:,}; {hint}")
    return count


def seed_span(seed: int, count: int, option: str = "--seed") -> None:
    """Games numbered ``seed`` to ``seed + count - 1`` must all be seeds every port can
    hold (signed 64-bit)."""
    last = seed + count - 1
    if last > SEED_MAX:
        raise UsageError(f"{option} {seed} with {count:,} games numbers the last game "
                         f"{last}, past {SEED_MAX} (2**63-1, the largest seed every port "
                         f"can hold); start from {SEED_MAX - count + 1} or lower",
                         options=(option,), value=seed)


__all__ = [
    "BUDGET_MIN",
    "CASES_MAX",
    "EXCERPT",
    "JOBS_MAX",
    "RANDOM_GAMES_MAX",
    "REPLAYS_MAX",
    "RULINGS_MAX",
    "SECONDS_MAX",
    "SEED_MAX",
    "SEED_MIN",
    "TIMEOUT_MIN",
    "TooMuchWorkError",
    "bound_work",
    "excerpt",
    "pointer_excerpt",
    "seconds",
    "seconds_wanted",
    "seed_span",
    "shown",
    "whole_number",
]
