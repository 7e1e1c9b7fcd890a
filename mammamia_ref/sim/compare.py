"""Two or more rulings of one dispute, the same games under each (``mammamia compare``).

Every ruling plays the same seeds, so game ``s`` under one ruling and game ``s`` under
another start from the same shuffles and the same random numbers; a difference is
measured game by game (a paired test), which sees smaller effects than comparing two
independent runs. The order success rates, counted per order placed rather than per
game, are compared as two proportions.

p-values are two-sided, from the normal approximation (runs are thousands of games);
with many metrics and disputes, read a p above 0.001 with care.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from mammamia_ref.errors import VariantError
from mammamia_ref.rules import specdata
from mammamia_ref.rules.ruleset import Rules, did_you_mean, make_rules
from mammamia_ref.sim.simulate import (
    ORDER_TYPE_NAMES,
    ROUND_ENDS,
    Executor,
    GameStats,
    Summary,
    simulate,
)

# Per-game measures compared game by game: name, what it counts, how.
PAIRED: tuple[tuple[str, str, Callable[[GameStats], float]], ...] = (
    ("pizzas_per_player", "pizzas delivered per player",
     lambda g: sum(g.delivered) / len(g.delivered)),
    ("turns_per_game", "turns per game", lambda g: float(sum(g.turns))),
    ("turns_round_1", "turns in round 1", lambda g: float(g.turns[0])),
    ("orders_placed", "orders placed per game", lambda g: float(sum(g.placed))),
    ("stall_cuts", "rounds cut by a stall, per game",
     lambda g: float(g.ends.count(ROUND_ENDS.index("stall_cut")))),
    ("abandoned", "games stalled for ever", lambda g: float(g.abandoned)),
    ("first_seat_wins", "wins of the first player", lambda g: float(g.wins[0])),
    ("shared_win", "games with a shared win", lambda g: float(sum(g.wins) > 1)),
)


@dataclass(frozen=True)
class Ruling:
    """One value of one flag of a dispute (the default is a ruling too)."""

    dispute: str
    flag: str
    value: str
    default: bool

    @property
    def name(self) -> str:
        return f"{self.flag}={self.value}"


def rulings_of(dispute_id: str) -> list[Ruling]:
    """Every ruling of ``dispute_id``, flag by flag, the default of each first; a house
    rule's flag (no dispute) is named by the flag itself (``compare draw_piles``)."""
    found = []
    for entry in specdata.variant_flags():
        own = entry["dispute"] or entry["flag"]
        if own != dispute_id:
            continue
        values = [v["value"] for v in entry["values"]]
        values.sort(key=lambda v: v != entry["default"])
        found += [Ruling(dispute_id, entry["flag"], v, v == entry["default"]) for v in values]
    if not found:
        house = [e["flag"] for e in specdata.variant_flags() if not e["dispute"]]
        near = did_you_mean(dispute_id, [*disputes_with_flags(), *house])
        raise VariantError(f"dispute {dispute_id!r} has no variant flag to compare{near} "
                           f"(disputes with flags: {', '.join(disputes_with_flags())}; house "
                           f"rules' flags: {', '.join(house)})")
    return found


def disputes_with_flags() -> list[str]:
    """The disputes a flag selects the rulings of (a house rule's flag has no dispute)."""
    return sorted({e["dispute"] for e in specdata.variant_flags() if e["dispute"]},
                  key=lambda d: int(d[1:]))


def paired_difference(base: Sequence[float], other: Sequence[float]) -> dict[str, Any]:
    """Mean of ``other - base`` game by game, its 95% interval and two-sided p-value.

    >>> paired_difference([1, 2, 3, 4], [1, 2, 3, 4])["p"]
    1.0
    """
    n = len(base)
    diffs = [b - a for a, b in zip(base, other, strict=True)]
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1) if n > 1 else 0.0
    se = math.sqrt(var / n)
    if se == 0:
        p = 1.0 if mean == 0 else 0.0
        half = 0.0
    else:
        p = math.erfc(abs(mean / se) / math.sqrt(2))
        half = 1.959963984540054 * se
    return {"difference": round(mean, 4), "ci95": [round(mean - half, 4), round(mean + half, 4)],
            "p": _p(p)}


def two_proportions(k1: int, n1: int, k2: int, n2: int) -> dict[str, Any]:
    """``k2/n2 - k1/n1``, its 95% interval and the two-sided p-value of the pooled z-test.

    >>> two_proportions(50, 100, 50, 100)["p"]
    1.0
    """
    if n1 == 0 or n2 == 0:
        return {"difference": None, "ci95": None, "p": None}
    p1, p2 = k1 / n1, k2 / n2
    pooled = (k1 + k2) / (n1 + n2)
    se0 = math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))
    p = 1.0 if se0 == 0 else math.erfc(abs(p2 - p1) / se0 / math.sqrt(2))
    half = 1.959963984540054 * math.sqrt(p1 * (1 - p1) / n1 + p2 * (1 - p2) / n2)
    d = p2 - p1
    return {"difference": round(d, 4), "ci95": [round(d - half, 4), round(d + half, 4)],
            "p": _p(p)}


def _p(value: float) -> float:
    return float(f"{value:.3g}")


def differences(base: Summary, other: Summary) -> dict[str, Any]:
    """How ``other`` differs from ``base``, played on the same seeds."""
    if [g.seed for g in base.games] != [g.seed for g in other.games]:
        raise VariantError("the two runs did not play the same seeds")
    out: dict[str, Any] = {}
    for key, _label, measure in PAIRED:
        out[key] = paired_difference([measure(g) for g in base.games],
                                     [measure(g) for g in other.games])
    for t, name in enumerate(ORDER_TYPE_NAMES):
        out[f"success_{name}"] = two_proportions(
            sum(g.baked[t] for g in base.games), sum(g.placed[t] for g in base.games),
            sum(g.baked[t] for g in other.games), sum(g.placed[t] for g in other.games))
    return out


def measures(summary: Summary) -> dict[str, float]:
    """The compared measures of one run, as means (and order success rates)."""
    games = summary.games
    out = {key: round(sum(m(g) for g in games) / len(games), 4) for key, _l, m in PAIRED}
    for t, name in enumerate(ORDER_TYPE_NAMES):
        placed = sum(g.placed[t] for g in games)
        out[f"success_{name}"] = round(sum(g.baked[t] for g in games) / placed, 4) if placed \
            else float("nan")
    return out


LABELS: dict[str, str] = {key: label for key, label, _m in PAIRED} | {
    f"success_{name}": f"{name.replace('_', ' ')} orders baked (share)"
    for name in ORDER_TYPE_NAMES}


# A sweep records the digests of its first games twice: of the first 100 (the thorough
# replay) and of the first 10 (the one the test suite replays for players slower than
# the benchmark's random one).
QUICK_CHECK_GAMES = 10


def first_games_check(run: Summary, games: int) -> dict[str, Any]:
    """How a test tells that a run's first ``games`` games are still the code's."""
    return {"games": games, "digest": Summary(run.players, run.seed, run.variants,
                                              run.policies, run.games[:games]).digest()}


@dataclass(frozen=True)
class Comparison:
    """The runs of every ruling of one dispute, the default's first for each flag."""

    dispute: str
    rulings: tuple[Ruling, ...]
    runs: tuple[Summary, ...]
    base: Rules | None = None  # the rules the other flags and numbers were at
    def as_json(self, *, check_games: int = 100,
                quick_check_games: int = QUICK_CHECK_GAMES) -> dict[str, Any]:
        baseline = self.runs[0]
        entries = []
        for ruling, run in zip(self.rulings, self.runs, strict=True):
            entry = {"flag": ruling.flag, "value": ruling.value, "default": ruling.default,
                     "games": len(run.games), "digest": run.digest(),
                     "check": first_games_check(run, check_games),
                     "quick_check": first_games_check(run, quick_check_games),
                     "wall_seconds": round(run.wall_seconds, 2),
                     "measures": measures(run), "figures": run.figures(),
                     **_whose(ruling, self.base)}
            if not ruling.default:
                entry["versus_default"] = differences(self._default_of(ruling), run)
            entries.append(entry)
        base = self.base or make_rules()
        return {"dispute": self.dispute, "players": baseline.players, "seed": baseline.seed,
                "policies": list(baseline.policies), "house": base.house,
                "base_rules": None if base.is_default() else base.describe(),
                "rulings": entries}

    def _default_of(self, ruling: Ruling) -> Summary:
        for other, run in zip(self.rulings, self.runs, strict=True):
            if other.flag == ruling.flag and other.default:
                return run
        raise AssertionError(f"no default ruling for {ruling.flag}")


def _whose(ruling: Ruling, base: Rules | None) -> dict[str, bool]:
    """Whether a compared value is the spec's (``spec``) and whether it is the one a house
    rule sets in place of the spec's (``house``)."""
    spec_rules = make_rules()
    if ruling.flag in spec_rules.parameters_dict():
        spec_value = str(spec_rules.parameters_dict()[ruling.flag])
        house_value = str(base.parameters_dict()[ruling.flag]) if base else spec_value
    else:
        spec_value = spec_rules.as_dict()[ruling.flag]
        house_value = base.as_dict()[ruling.flag] if base else spec_value
    own = base is not None and base.house is not None and house_value != spec_value
    return {"spec": ruling.value == spec_value, "house": own and ruling.value == house_value}


def compare(dispute_id: str, players: int, games: int, *, seed: int = 0,
            policies: Sequence[str] = ("random",),
            base: Mapping[str, str] | Rules | None = None,
            executor: Executor | None = None, progress: bool = False) -> Comparison:
    """Run ``games`` games under every ruling of ``dispute_id`` (other flags and the
    parameters at ``base``: a house rule's rules, flag values, or the defaults)."""
    start = base if isinstance(base, Rules) else make_rules(base)
    cells = [(ruling, make_rules({ruling.flag: ruling.value}, base=start))
             for ruling in rulings_of(dispute_id)]
    return _play_cells(dispute_id, cells, players, games, seed, policies, executor, progress,
                       start)


def parameter_rulings(name: str, values: Sequence[int], base: Rules) -> list[tuple[Ruling, Rules]]:
    """A parameter's values as rulings over ``base``: the base's own value (the spec's, or
    the house rule's) is the default one if it is listed, else the first listed."""
    cells = [make_rules(parameters={name: value}, base=base) for value in values]
    own = [cell.parameters == base.parameters for cell in cells]
    if not any(own):
        own[0] = True
    return [(Ruling(f"parameter {name}", name, str(value), is_own), cell)
            for value, cell, is_own in zip(values, cells, own, strict=True)]


def compare_parameter(name: str, values: Sequence[int], players: int, games: int, *,
                      seed: int = 0, policies: Sequence[str] = ("random",),
                      base: Rules | None = None, executor: Executor | None = None,
                      progress: bool = False) -> Comparison:
    """``mammamia compare --param NAME=V1,V2,...``: the same games under each value of a
    parameter, as :func:`compare` plays a dispute's rulings."""
    start = base or make_rules()
    cells = parameter_rulings(name, values, start)
    return _play_cells(name, cells, players, games, seed, policies, executor, progress, start)


def _play_cells(label: str, cells: Sequence[tuple[Ruling, Rules]], players: int, games: int,
                seed: int, policies: Sequence[str], executor: Executor | None,
                progress: bool, base: Rules) -> Comparison:
    """Each cell's games; the progress bar says which value of how many is being played
    and the time left for them all (``value 2 of 3``)."""
    kind = "value" if label == cells[0][0].flag else "ruling"
    runs = []
    for done, (ruling, rules) in enumerate(cells):
        runs.append(simulate(
            players, games, seed=seed, variants=rules, policies=policies, executor=executor,
            progress=progress, label=f"{ruling.name} ({kind} {done + 1} of {len(cells)}) ",
            games_after=games * (len(cells) - done - 1)))
    return Comparison(label, tuple(ruling for ruling, _ in cells), tuple(runs), base)


def contrasts(doc: Mapping[str, Any]) -> Iterator[tuple[str, Mapping[str, Any],
                                                         Mapping[str, Any]]]:
    """Each non-default ruling of a comparison (its JSON form) with its flag's default:
    ``(flag, default entry, other entry)``."""
    defaults = {e["flag"]: e for e in doc["rulings"] if e["default"]}
    for entry in doc["rulings"]:
        if not entry["default"]:
            yield entry["flag"], defaults[entry["flag"]], entry


RATES = frozenset({"abandoned", "first_seat_wins", "shared_win",
                   *(f"success_{name}" for name in ORDER_TYPE_NAMES)})
"""The measures that are shares (of games, of orders placed), shown in percent."""


def decimals(value: float, digits: int = 2) -> int:
    """The decimal places that show ``value`` to ``digits`` significant digits (none for
    a whole number of that many digits or more).

    >>> decimals(0.155), decimals(0.022), decimals(3.2), decimals(45.0), decimals(0.0)
    (2, 3, 1, 0, 0)
    """
    if value == 0 or not math.isfinite(value):
        return 0
    return max(0, digits - 1 - math.floor(math.log10(abs(value))))


def say_p(p: float | None) -> str:
    """A p-value as people read it: ``p < 0.001`` below that, else two significant digits.

    >>> say_p(2.73e-98), say_p(0.00233), say_p(0.506), say_p(1.0)
    ('p < 0.001', 'p = 0.0023', 'p = 0.51', 'p = 1')
    """
    if p is None:
        return ""
    if p < 0.001:
        return "p < 0.001"
    return f"p = {p:.2g}"


def say_difference(key: str, diff: Mapping[str, Any]) -> str:
    """A difference and its 95% interval, to two significant digits of the larger of the
    difference and the interval's half width (shares in percentage points)."""
    scale = 100.0 if key in RATES else 1.0
    mean = diff["difference"] * scale
    low, high = (bound * scale for bound in diff["ci95"])
    places = decimals(max(abs(mean), (high - low) / 2))
    unit = " points" if key in RATES else ""
    return f"{mean:+.{places}f}{unit} ({low:+.{places}f} to {high:+.{places}f})"


def say_measure(key: str, value: float) -> str:
    """A run's measure: three significant digits, a share in percent."""
    if value != value:  # no order of that type placed (NaN)
        return "-"
    if key in RATES:
        return f"{100 * value:.1f}%"
    return f"{value:.{decimals(value, 3)}f}"


def constant(diff: Mapping[str, Any]) -> bool:
    """A row that is the same under both values in every game (or order): nothing to read."""
    return bool(diff["difference"] == 0 and diff["ci95"] == [0, 0])


def _mark(entry: Mapping[str, Any], noun: str) -> str:
    said = " and ".join(m for m in ("the spec's" if entry.get("spec") else "",
                                    "your house rule's" if entry.get("house") else "") if m)
    return f", {said} {noun}" if said else ""


def _short_mark(entry: Mapping[str, Any]) -> str:
    return " (house)" if entry.get("house") else " (spec)" if entry.get("spec") else ""


def format_comparison(doc: Mapping[str, Any]) -> str:
    """A comparison (its JSON form) as a table for people: each value against the one it
    is compared with, the house rule named with its numbers, the spec's and the house
    rule's values marked, figures to two significant digits, rows that never differ
    left out (and named)."""
    is_parameter = bool(doc["rulings"]) and doc["rulings"][0]["flag"] == doc["dispute"]
    noun = "value" if is_parameter else "ruling"
    games = doc["rulings"][0]["games"] if doc["rulings"] else 0
    policies = ", ".join(sorted(set(doc["policies"])))
    lines = [f"{doc['dispute']}: {doc['players']} players, {games:,} games per {noun} on the "
             f"same seeds (from {doc['seed']}), {policies} players"]
    if doc.get("house"):
        lines.append(f"over {doc.get('base_rules') or 'house rule ' + repr(doc['house'])}")
    elif doc.get("base_rules"):
        lines.append(f"over {doc['base_rules']}")
    for flag, default, other in contrasts(doc):
        a_head = f"{default['value'][:10]}{_short_mark(default)}"
        b_head = f"{other['value'][:10]}{_short_mark(other)}"
        lines += ["", f"{flag}: {default['value']}{_mark(default, noun)}, against "
                      f"{other['value']}{_mark(other, noun)}",
                  f"  {'measure':<36} {a_head:>17} {b_head:>17}   "
                  f"{'difference (95% interval)':<34} p"]
        same = []
        for key, diff in other["versus_default"].items():
            if diff["difference"] is None:
                continue
            if constant(diff):
                same.append(LABELS[key])
                continue
            a, b = default["measures"][key], other["measures"][key]
            lines.append(f"  {LABELS[key]:<36} {say_measure(key, a):>17} "
                         f"{say_measure(key, b):>17}   {say_difference(key, diff):<34} "
                         f"{say_p(diff['p'])}")
        if same:
            lines.append(f"  the same in every game, left out: {'; '.join(same)}")
    lines += ["", "difference: the right-hand column less the left-hand one, game by game on "
                  "the same seeds (order shares: two proportions, in percentage points)"]
    return "\n".join(lines)
