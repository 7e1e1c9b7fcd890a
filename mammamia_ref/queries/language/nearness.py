"""How near a game comes to meeting a ``find:`` condition: 0 where it meets it, more the
further it is (cards, orders or events short), None where the condition gives no such
number (a ``not:``, a relation, a result, a position that comes back).

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
    annotate,
    core,
    event_count,
    needs_parts,
    needs_turning,
    per_seat_counts,
    relation_of,
    span,
    state_count,
    states_at,
    within,
)
from mammamia_ref.queries.language.questions import kept_once_met
from mammamia_ref.rules.state import GameState


def nearness(cond: Mapping[str, Any], game: Played, bound: Mapping[str, int]) -> int | None:
    """How far ``game`` is from meeting ``cond`` within ``bound`` (the part
    :func:`.judging.meets` judges, the condition written out for the game's seating):
    0 where it meets it; None where the condition has no such number or the game has no
    part to judge."""
    part = within(game, bound, not kept_once_met(cond))
    if part is None:
        return None
    return short(core(cond, game), annotate(part, parts=needs_parts(cond),
                                            turned=needs_turning(cond)))


def directs(cond: Mapping[str, Any]) -> bool:
    """Whether :func:`short` gives ``cond`` (the core grammar) a number: ``all:`` and
    ``any:`` and spans (``within:``) of such conditions, an event counted at least (no
    relation), a state count compared with a number or the same for every seat."""
    if "all" in cond or "any" in cond:
        return all(directs(c) for c in cond.get("all", cond.get("any")))
    if "within" in cond:
        return directs(cond["holds"])
    if "event" in cond:
        return not (relation_of(cond) or "at_most" in cond or "equals" in cond)
    if "state" in cond:
        return bool(cond["state"].get("same_for_every_seat")) or not relation_of(cond["state"])
    return False


def short(cond: Mapping[str, Any], played: Played) -> int | None:
    """:func:`nearness` of a condition of the core grammar: ``all:`` the sum of its
    parts', ``any:`` the least, a span its condition's on the part it judges (none where
    the game has no such part), an event the events missing, a state count the cards
    (or orders) missing in the nearest state it looks at; None where it does not
    :func:`directs` the search, or no state it looks at has the count."""
    if not directs(cond):
        return None
    if "all" in cond or "any" in cond:
        parts = [short(c, played) for c in cond.get("all", cond.get("any"))]
        known = [p for p in parts if p is not None]
        if len(known) < len(parts):
            return None
        return sum(known) if "all" in cond else min(known)
    if "within" in cond:   # as near as the part the span judges on comes
        part = span(played, cond["within"])
        return None if part is None else short(cond["holds"], part)
    if "event" in cond:
        return max(0, int(cond.get("at_least", 1)) - event_count(cond, played))
    state = cond["state"]
    far = [f for s in states_at(played, state.get("at", "any_step"))
           if (f := _state_short(state, s)) is not None]
    return min(far) if far else None


def _state_short(state: Mapping[str, Any], s: GameState) -> int | None:
    """How far one state is from a state condition (its ``at`` aside): the spread of the
    seats' counts for ``same_for_every_seat``, else each count's distance to its
    ``at_least`` / ``at_most`` / ``equals`` (every seat's summed for ``seat: all``, the
    nearest seat's otherwise)."""
    if state.get("same_for_every_seat"):
        counts = per_seat_counts(s, state["count"], state.get("kind"))
        return max(counts) - min(counts)
    low = int(state.get("equals", state.get("at_least", 0)))
    high = state.get("equals", state.get("at_most"))
    off = [max(0, low - n) + (max(0, n - int(high)) if high is not None else 0)
           for n in state_count(s, state)]
    if not off:   # a colour not seated: never near
        return None
    return sum(off) if state.get("seat") == "all" else min(off)


__all__ = ["directs", "nearness", "short"]
