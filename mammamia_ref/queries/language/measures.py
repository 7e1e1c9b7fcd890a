"""The measures of ``most:`` / ``fewest:`` (:data:`.questions.MEASURES` and
:data:`.questions.MEASURE_FORMS`): a question's number for one game the reference
played, read off its events and states (:mod:`.judging` judges the conditions a measure
form names)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mammamia_ref.queries.language.judging import (
    Played,
    annotate,
    ended,
    event_count,
    holds,
    needs_parts,
    needs_turning,
    span,
    taken,
    within,
)
from mammamia_ref.rules.events import Event


def baked_by_opening(played: Played) -> list[list[tuple[int, Event]]]:
    """Each oven opening's ``baked`` events, with the step of each, in the game's order."""
    openings: list[list[tuple[int, Event]]] = []
    for i, (_action, events, _state) in enumerate(played.steps):
        for e in events:
            if e.name == "oven_opened":
                openings.append([])
            elif e.name == "baked" and openings:
                openings[-1].append((i, e))
    return openings


def measure(name: Any, played: Played, goal: str = "most") -> int | None:
    """A question's number for one game (:data:`.questions.MEASURES`, or a mapping of
    :data:`.questions.MEASURE_FORMS`); None where the game has none (no Pizza Bombastica
    baked, a condition that never holds), so that it is no candidate. The fewest of a
    number that only grows as a game goes on is a whole game's: None for the beginning
    of one (a known game that stops early, a game a search cut short)."""
    if goal == "fewest" and not _settled(name) and not ended(played):
        return None
    if isinstance(name, Mapping):
        return measure_form(name, played, goal)
    events = [(e, s) for _a, evs, s in played.steps for e in evs]
    if name == "turns":
        return sum(1 for e, _s in events if e.name == "turn_begins")
    if name == "longest_round":
        rounds: dict[int, int] = {}
        for e, s in events:
            if e.name == "turn_begins":
                rounds[s.round] = rounds.get(s.round, 0) + 1
        return max(rounds.values(), default=0)
    if name == "baked":
        return sum(1 for e, _s in events if e.name == "baked")
    if name == "baked_one_opening":
        return max((len(baked) for baked in baked_by_opening(played)), default=0)
    if name == "delivered":
        return sum(len(d) for d in played.steps[-1][2].delivered) if played.steps else 0
    if name == "largest_hand":
        return max((h.size for _a, _e, s in played.steps for h in s.hands), default=0)
    if name == "bombastica_cards":
        from mammamia_ref.rules.vocabulary import ORDERS

        sizes = [taken(e) for e, _s in events
                 if e.name == "baked" and ORDERS[e.get("order")].type == "bombastica"]
        return (max(sizes) if goal == "most" else min(sizes)) if sizes else None
    raise ValueError(f"no measure {name}")   # pragma: no cover - checked when read


def _settled(name: Any) -> bool:
    """Whether a measure's number, once a game has one, never grows: the turns until a
    condition holds, the smallest Bombastica baked so far (a beginning's is a whole
    game's, or more). Every other measure only grows as a game goes on."""
    return name == "bombastica_cards" or (isinstance(name, Mapping) and (
        "turns_until" in name or "own_turns_until" in name))


def measure_form(form: Mapping[str, Any], played: Played, goal: str) -> int | None:
    """``turns_until: C``: the turns of the game when ``C`` first holds (on the game's
    first turns, :func:`within`); ``some_seat: s`` with ``own_turns_until: C``: seat
    ``s``'s own turns then, the best seat's; with ``own_turns: true``: the seat's turns
    in the whole game, the best seat's; ``most_in_a_round: E``: the most events of
    ``E`` in one round (the best seat's with ``some_seat``)."""
    from mammamia_ref.queries.language.variables import expand

    colours, rounds = played.config.colours, played.config.rules.parameters.rounds
    total = sum(1 for _a, evs, _s in played.steps for e in evs if e.name == "turn_begins")
    pick = max if goal == "most" else min
    # a part's fields are the whole game's: they look back, or within an opening
    played = annotate(played, parts=needs_parts(form), turned=needs_turning(form))
    if "turns_until" in form:
        cond = expand(form["turns_until"], colours, rounds)
        return next((k for k in range(1, total + 1) if _holds_by(cond, played, k)), None)
    if "most_in_a_round" in form:
        seats = colours if "some_seat" in form else colours[:1]
        return pick(_most_in_a_round(expand(form["most_in_a_round"], colours, rounds,
                                           {form["some_seat"]: c} if "some_seat" in form
                                           else None), played, rounds) for c in seats)
    var = form["some_seat"]
    found = []
    for colour in colours:
        if form.get("own_turns") is True:
            found.append(_own_turns(played, colour))
            continue
        cond = expand(form["own_turns_until"], colours, rounds, {var: colour})
        k = next((k for k in range(1, total + 1) if _holds_by(cond, played, k)), None)
        if k is not None:
            part = within(played, {"turns": k})
            found.append(_own_turns(part, colour) if part is not None else 0)
    return pick(found) if found else None


def _most_in_a_round(cond: Mapping[str, Any], played: Played, rounds: int) -> int:
    """The most events of ``cond`` in one of the game's rounds (:func:`span`)."""
    parts = (span(played, {"round": r}) for r in range(1, rounds + 1))
    return max((event_count(cond, part) for part in parts if part is not None), default=0)


def _holds_by(cond: Mapping[str, Any], played: Played, turns: int) -> bool:
    part = within(played, {"turns": turns})
    return part is not None and holds(cond, part)


def _own_turns(played: Played | None, colour: str) -> int:
    """The turns ``colour`` began in ``played``."""
    if played is None:
        return 0
    colours = played.config.colours
    return sum(1 for _a, evs, _s in played.steps for e in evs
               if e.name == "turn_begins" and colours[e.get("seat")] == colour)


__all__ = ["baked_by_opening", "measure", "measure_form"]
