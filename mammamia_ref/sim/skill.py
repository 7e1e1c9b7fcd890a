"""Dispute impact by skill: the same comparison made with random, careful and search
players, read side by side.

A designer asks whether a ruling rewards skill or luck. The committed sweeps
(``docs/impact/``) each compare every ruling with the default among players of one kind;
this module lines them up by skill and says whether a ruling's effect on the score grows
or shrinks as the players get better.

The verdict is about the score (pizzas delivered per player). The effects at two skill
levels come from different games, so they are compared as independent estimates: the
change in the effect's size over its standard error, significant beyond 1.96.

>>> a = {"difference": -0.10, "ci95": [-0.14, -0.06]}
>>> b = {"difference": -0.70, "ci95": [-0.80, -0.60]}
>>> trend([("random", a), ("careful", b)])
'more'
>>> trend([("random", b), ("careful", a)])
'less'
>>> trend([("random", a), ("careful", a)])
'same'
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from mammamia_ref.sim.compare import contrasts

# The players, from least to most skilled (the policy names of sim.policies).
SKILLS = ("random", "careful", "search")
HEADLINE = "pizzas_per_player"
FIRST_SEAT = "first_seat_wins"
Z_95 = 1.959964


def skill_of(sweep: Mapping[str, Any]) -> str | None:
    """The skill a sweep measures, with no flags fixed beyond the defaults (a sweep on a
    changed base answers another question): every seat the same known policy, or one
    search player in seat 0 (which plays first) among careful ones. A search player in
    every seat would cost a sweep as many times more as there are seats; one planning
    player is what the search sweeps seat, :func:`table_of` says so wherever they are
    shown, and :func:`planner_edge` reads seat 0's wins as the planner's."""
    names = [str(p).split(":")[0] for p in sweep["policies"]]
    if sweep.get("base_variants"):
        return None
    if len(set(names)) == 1:
        return names[0] if names[0] in SKILLS else None
    if names[0] == "search" and set(names[1:]) == {"careful"}:
        return "search"
    return None


def table_of(sweep: Mapping[str, Any]) -> str:
    """Who sat at the sweep's tables, in a few words: "4 careful", "1 search:8, 3 careful".

    >>> table_of({"policies": ["search:8", "careful", "careful", "careful"]})
    '1 search:8, 3 careful'
    """
    seats = [str(p) for p in sweep["policies"]]
    return ", ".join(f"{seats.count(p)} {p}" for p in dict.fromkeys(seats))


@dataclass(frozen=True)
class Effect:
    """One ruling's paired difference from the default among players of one skill."""

    skill: str
    games: int
    difference: float
    ci95: tuple[float, float]
    table: str = ""  # who sat at the tables (table_of) when not all one policy
    baseline: float = 0.0  # the measure under the default ruling

    @property
    def clear(self) -> bool:
        """The 95% interval leaves out zero."""
        return self.ci95[0] > 0 or self.ci95[1] < 0


@dataclass(frozen=True)
class SkillRow:
    """One ruling and one measure, with its effect at each skill that was swept."""

    ruling: str
    measure: str
    effects: tuple[Effect, ...]


def by_skill(sweeps: Sequence[Mapping[str, Any]], dispute_id: str) -> list[SkillRow]:
    """Every (ruling, measure) of ``dispute_id`` with its effect at each swept skill,
    skills in order; a measure no skill moves at all is left out."""
    found: dict[str, tuple[int, Mapping[str, Any], str]] = {}
    for sweep in sweeps:
        skill = skill_of(sweep)
        doc = next((d for d in sweep["disputes"] if d["dispute"] == dispute_id), None)
        if skill is None or doc is None:
            continue
        if skill not in found or sweep["games_per_ruling"] > found[skill][0]:
            mixed = len(set(sweep["policies"])) > 1
            found[skill] = (sweep["games_per_ruling"], doc, table_of(sweep) if mixed else "")
    cells: dict[tuple[str, str], list[Effect]] = {}
    for skill in (s for s in SKILLS if s in found):
        games, doc, table = found[skill]
        for flag, default, other in contrasts(doc):
            for key, diff in other["versus_default"].items():
                if diff["difference"] is None:
                    continue
                low, high = diff["ci95"]
                cells.setdefault((f"{flag}={other['value']}", key), []).append(
                    Effect(skill, games, float(diff["difference"]), (float(low), float(high)),
                           table, float(default["measures"][key])))
    return [SkillRow(ruling, key, tuple(effects)) for (ruling, key), effects in cells.items()
            if any(e.difference != 0 or e.ci95 != (0.0, 0.0) for e in effects)]


def trend(effects: Sequence[tuple[str, Mapping[str, Any]]]) -> str:
    """``more``, ``less`` or ``same``: does the size of the effect grow from the least
    to the most skilled players measured? ``effects`` are (skill, difference entry)."""
    (_, low_skill), (_, high_skill) = effects[0], effects[-1]
    size = abs(float(high_skill["difference"])) - abs(float(low_skill["difference"]))
    error = math.hypot(_standard_error(low_skill["ci95"]), _standard_error(high_skill["ci95"]))
    if error == 0:
        return "same" if size == 0 else ("more" if size > 0 else "less")
    z = size / error
    return "more" if z > Z_95 else "less" if z < -Z_95 else "same"


def _standard_error(ci95: Sequence[float]) -> float:
    """The standard error a normal 95% interval stands for."""
    low, high = ci95
    return (float(high) - float(low)) / (2 * Z_95)


def verdict(rows: Sequence[SkillRow], ruling: str) -> str | None:
    """One sentence: does ``ruling`` matter more or less to the score as skill grows?
    None when fewer than two skills were swept."""
    mine = [r for r in rows if r.ruling == ruling]
    if max((len(r.effects) for r in mine), default=0) < 2:
        return None
    row = next((r for r in mine if r.measure == HEADLINE), None)
    if row is None:
        return (f"`{ruling}` leaves the score unchanged in every game, with every kind of "
                "player measured.")
    figures = ", ".join(f"{e.difference:+.3f} with " + (f"{e.skill} players" if not e.table
                                                        else f"tables of {e.table}")
                        for e in row.effects)
    first, last = row.effects[0], row.effects[-1]
    if not any(e.clear for e in row.effects):
        return (f"`{ruling}` changes the score by {figures}: no clear effect at any skill "
                "level measured.")
    way = trend([(e.skill, {"difference": e.difference, "ci95": e.ci95})
                 for e in (first, last)])
    said = {"more": f"it matters more as skill grows ({last.skill} against {first.skill})",
            "less": f"it matters less as skill grows ({last.skill} against {first.skill})",
            "same": f"it matters about as much to {last.skill} as to {first.skill} "
                    "players (no significant change)"}[way]
    if first.clear and last.clear and (first.difference > 0) != (last.difference > 0):
        said += ", and in the opposite direction"
    return f"`{ruling}` changes pizzas per player by {figures}: {said}."


def planner_edge(rows: Sequence[SkillRow], ruling: str) -> str | None:
    """One sentence: does ``ruling`` reward planning? None without a search sweep and a
    careful one.

    The search sweeps seat the search player in seat 0, which plays first, among careful
    players, so its wins are the first seat's; the careful sweeps give the first seat's
    wins among equals. What the ruling does to the first, less what it does to the
    second, is what it does to the planner's edge (independent estimates, as in
    :func:`trend`)."""
    row = next((r for r in rows if r.ruling == ruling and r.measure == FIRST_SEAT), None)
    cells = {e.skill: e for e in row.effects} if row is not None else {}
    if "search" not in cells or "careful" not in cells:
        return None
    planner, equal = cells["search"], cells["careful"]
    change = planner.difference - equal.difference
    error = math.hypot(_standard_error(planner.ci95), _standard_error(equal.ci95))
    z = change / error if error else (0.0 if change == 0 else math.copysign(math.inf, change))
    said = ("rewards planning" if z > Z_95 else "costs the planner" if z < -Z_95
            else "leaves the planner's edge about where it was")
    return (f"`{ruling}` {said}: one search player among careful ones (seat 0, first to "
            f"play) wins {planner.baseline:.1%} of the games under the default and "
            f"{planner.baseline + planner.difference:.1%} under it, while the first of four "
            f"careful players goes from {equal.baseline:.1%} to "
            f"{equal.baseline + equal.difference:.1%} ({change:+.3f} of the wins, 95% "
            f"interval {change - Z_95 * error:+.3f} to {change + Z_95 * error:+.3f}).")
