"""How near a game comes to meeting a ``find:`` condition: 0 where it meets it, more the
further it is (cards, orders or events off; a result, or anything else not counted, 0
or 1). A condition with nothing counted directs nothing (:func:`directs`).

The search climbs on it (:func:`..answering.searching.climb`), as it climbs on a
measure's value: a condition few games meet (every player level on orders and cards at
the game's end, at four players about one seeded game in a thousand comes within one
card of it) is found by playing on from the games that come nearest. It decides
nothing: a game is an answer only where :func:`.judging.meets` holds of it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mammamia_ref.queries.language.judging import (
    Played,
    compared_event,
    event_count,
    holds,
    judged,
    per_seat_counts,
    relation_of,
    span,
    state_count,
    states_at,
)
from mammamia_ref.rules.state import GameState


def nearness(cond: Mapping[str, Any], game: Played, bound: Mapping[str, int]) -> int | None:
    """How far ``game`` is from meeting ``cond`` within ``bound``, judged as
    :func:`.judging.meets` judges it (:func:`.judging.judged`): 0 where it meets it;
    None where the game has no part to judge or a state count has no state to look at."""
    found = judged(cond, game, bound)
    return None if found is None else short(*found)


def directs(cond: Mapping[str, Any]) -> bool:
    """Whether :func:`short` directs a search on ``cond`` (the core grammar): some part
    of it is counted (an event, a state count, an event that must not happen); what is
    not counted (a result, a position that comes back, any other ``not:``) is 0 where it
    holds and 1 where it does not, which alone would direct nothing."""
    if "all" in cond or "any" in cond:
        return any(directs(c) for c in cond.get("all", cond.get("any")))
    if "within" in cond:
        return directs(cond["holds"])
    if "not" in cond:
        return _counted_not(cond["not"])
    return "event" in cond or "state" in cond


def _counted_not(inner: Mapping[str, Any]) -> bool:
    """A ``not:`` of events counted at least ``k`` times: as near as the events too many."""
    return "event" in inner and not (relation_of(inner) or "at_most" in inner
                                     or "equals" in inner)


def short(cond: Mapping[str, Any], played: Played) -> int | None:
    """:func:`nearness` of a condition of the core grammar: ``all:`` the sum of its
    parts', ``any:`` the least, a span its condition's on the part it judges (1 where
    the game has no such part); an event the events missing (or too many, or the
    difference from the count it is compared with), a ``not:`` of events the events too
    many, a state count the cards (or orders) off in the nearest state it looks at (None
    where none has the count); anything else 0 where it holds, else 1."""
    if "all" in cond or "any" in cond:   # a part with no number is never met
        parts = [short(c, played) for c in cond.get("all", cond.get("any"))]
        known = [p for p in parts if p is not None]
        if "all" in cond:
            return sum(known) if len(known) == len(parts) else None
        return min(known) if known else None
    if "within" in cond:   # as near as the part the span judges on comes
        part = span(played, cond["within"])
        return 1 if part is None else short(cond["holds"], part)
    if "not" in cond and _counted_not(cond["not"]):
        inner = cond["not"]
        return max(0, event_count(inner, played) - int(inner.get("at_least", 1)) + 1)
    if "event" in cond:
        n, rel = event_count(cond, played), relation_of(cond)
        if rel is not None:
            return _apart(n, event_count(compared_event(cond, rel), played), rel)
        return _off(n, cond, 1)
    if "state" in cond:
        state = cond["state"]
        far = [f for s in states_at(played, state.get("at", "any_step"))
               if (f := _state_short(state, s)) is not None]
        return min(far) if far else None
    return 0 if holds(cond, played) else 1


def _off(n: int, cond: Mapping[str, Any], least: int) -> int:
    """How far ``n`` is from a condition's ``at_least`` (``least`` unless given),
    ``at_most`` or ``equals`` (:func:`.judging.compare`)."""
    low = int(cond.get("equals", cond.get("at_least", least)))
    high = cond.get("equals", cond.get("at_most"))
    return max(0, low - n) + (max(0, n - int(high)) if high is not None else 0)


def _apart(n: int, other: int, relation: str) -> int:
    """How far ``n`` is from being ``more_than`` / ``fewer_than`` / ``same_as``
    ``other`` (:func:`.judging.related`)."""
    if relation == "more_than":
        return max(0, other - n + 1)
    if relation == "fewer_than":
        return max(0, n - other + 1)
    return abs(n - other)


def _state_short(state: Mapping[str, Any], s: GameState) -> int | None:
    """How far one state is from a state condition (its ``at`` aside): the spread of the
    seats' counts for ``same_for_every_seat``; for a relation the nearest pair of counts
    compared; else each count's distance to its ``at_least`` / ``at_most`` / ``equals``
    (every seat's summed for ``seat: all``, the nearest seat's otherwise). None where
    no count is there (a colour not seated)."""
    if state.get("same_for_every_seat"):
        counts = per_seat_counts(s, state["count"], state.get("kind"))
        return max(counts) - min(counts)
    rel = relation_of(state)
    if rel is not None:
        pairs = [_apart(a, b, rel) for a in state_count(s, state)
                 for b in state_count(s, {**state, **state[rel]})]
        return min(pairs) if pairs else None
    off = [_off(n, state, 0) for n in state_count(s, state)]
    if not off:
        return None
    return sum(off) if state.get("seat") == "all" else min(off)


__all__ = ["directs", "nearness", "short"]
