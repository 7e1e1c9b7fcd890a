"""A designer's condition (the core of :mod:`.variables`, its variables written out)
as a z3 term over one run of the game model (:class:`..model.game_model.GameModel`), so that
``ask`` can prove "none within the bound" or find a game where a search does not.

The events are read off the model's steps (:mod:`..model.events_model`), counted within the
part of the run a span keeps (:mod:`.parts`: rounds, the first turns, a seat's own first
turns, after or before an event); state counts off every state the reference stops at
(:func:`..model.stops.stops`: between turns, inside a turn, inside an opening, before a
round's shuffle), at a round's end and at the game's end; the result off the last state
(:mod:`..model.scoring_model`); ``then:`` off the state right after the event
(:func:`then_term`: the state a step leaves, or one inside it). A field, rule or
construct the model cannot tell raises :class:`Unsupported` with the reason, before
any model is built, and the question is then only searched.

:func:`shape` says what a term over a *part* of a game proves: a condition that, once
met, stays met (:func:`.judging.kept_once_met`) can be judged on the first rounds of
a game; any other only on whole games. Only a position that comes back is judged on
the states between turns alone (a state inside a step comes back only if the step's
start does), so z3's "none" is a proof for every other condition.
``tests/test_conditions.py`` holds every count, span, relation and result of the
encoding to the reference's on replayed runs.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import z3

from mammamia_ref.queries.language.judging import kept_once_met, needs_turning, related
from mammamia_ref.queries.language.parts import (
    EMITTED,
    Part,
    before_the_turn,
    own_turns,
    turns_begin,
)
from mammamia_ref.queries.language.variables import RELATIONS, expand, seatings
from mammamia_ref.queries.model import num as N
from mammamia_ref.queries.model.events_model import occurrences
from mammamia_ref.queries.model.game_model import (
    IN_OVEN,
    UNDER,
    WAITER,
    GameModel,
)
from mammamia_ref.queries.model.game_terms import Step
from mammamia_ref.queries.model.scoring_model import compare_term as _compare
from mammamia_ref.queries.model.scoring_model import result_term, scoring_terms
from mammamia_ref.queries.model.stops import (
    inside,
    opening_pause,
    pauses,
    revealed_cards,
    stops,
)
from mammamia_ref.rules.typed_spec import Leftovers
from mammamia_ref.rules.vocabulary import KINDS


class Unsupported(Exception):
    """A condition the game model cannot express: ``reason`` says which part."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


FIELDS: dict[str, frozenset[str]] = {
    "played": frozenset({"kind", "count", "seat"}),
    "passed": frozenset({"seat"}),
    "placed_order": frozenset({"order", "seat", "order_type"}),
    "drew": frozenset({"seat", "source", "count", "cards"}),
    "mamma_mia_drawn": frozenset({"seat", "last_card", "first_card_of_round"}),
    "mamma_mia_taken": frozenset({"seat"}),
    "round_ended": frozenset({"round"}),
    "oven_opened": frozenset({"seat", "cards"}),
    "revealed": frozenset({"card", "owner"}),
    "baked": frozenset({"order", "seat", "order_type", "taken", "used", "turned_by"}),
    "failed": frozenset({"order", "seat", "order_type", "why", "could_bake", "turned_by"}),
    "completed_from_hand": frozenset({"order", "seat", "order_type", "cards"}),
    "named_kind": frozenset({"order", "kind", "order_type", "on_table"}),
    "leftovers_to_oven": frozenset({"cards"}),
    "game_ended": frozenset({"resolutions"}),
}
"""The events the model tells, with their rules, and the fields of each it can test (the
language's derived fields among them; a condition testing another field is only
searched)."""

INSIDE_TURN = {"played": False, "passed": False, "placed_order": True}
"""The events after which the reference stops inside a turn, before its draw
(:meth:`..model.game_model.GameModel.inside_turn`), and whether the turn's order is on
the oven by then."""

@dataclass(frozen=True)
class Shape:
    """What a term over a run proves of a game.

    ``whole_game``: the condition is judged on whole games only
    (:func:`.judging.kept_once_met` fails);
    ``exact``: z3 sees every state the condition judges, so an unsat run is a proof."""

    whole_game: bool
    exact: bool


def shape(cond: Mapping[str, Any]) -> Shape:
    """The shape of ``cond``; :class:`Unsupported` where the model cannot express it."""
    _check(cond)
    if _turned_needed(cond) > 1:
        raise Unsupported("two orders turned (turned_by) at once: the model runs each "
                          "opening again once, which witnesses one")
    return Shape(not kept_once_met(cond), _exact(cond))


def _turned_needed(cond: Mapping[str, Any]) -> int:
    """How many orders turned (``turned_by``) ``cond`` needs at once in one game: the
    model runs each round's opening again once (:mod:`..model.alternative`), which
    witnesses one. :class:`Unsupported` where it needs none of them (``not:``, a count
    other than "at least one", a span's bound)."""
    if "all" in cond or "any" in cond:
        needs = [_turned_needed(c) for c in cond.get("all") or cond.get("any") or ()]
        return sum(needs) if "all" in cond else max(needs, default=0)
    if not needs_turning(cond):
        return 0
    if "within" in cond and not any(needs_turning(cond["within"].get(k))
                                    for k in ("after", "before")):
        return _turned_needed(cond["holds"])
    if "event" in cond and cond.get("at_least", 1) == 1 and \
            not any(k in cond for k in (*RELATIONS, "at_most", "equals")):
        return 1
    raise Unsupported("turned_by asked other than of at least one order, outside a span's "
                      "bound and not negated: the model runs each opening again once")


def written_out(condition: Mapping[str, Any], players: int, rounds: int
                ) -> tuple[list[tuple[str, ...]], list[dict[str, Any]], Shape]:
    """A question's condition in the core grammar under each seating it tells apart
    (:func:`.variables.seatings`, :func:`.variables.expand`), and its shape over them
    all; :class:`Unsupported` where the model cannot express it."""
    seated = seatings(players, condition)
    cores = [expand(condition, colours, rounds) for colours in seated]
    forms = [shape(each) for each in cores]
    return seated, cores, Shape(forms[0].whole_game, all(f.exact for f in forms))


def _exact(cond: Mapping[str, Any]) -> bool:
    """z3 sees every state the condition judges (every state the reference stops at,
    :func:`..model.stops.stops`), but for a position that comes back, which it compares
    between turns only."""
    return not asks_a_return(cond)


def _check(cond: Mapping[str, Any]) -> None:
    for part in cond.get("all") or cond.get("any") or ():
        _check(part)
    if "not" in cond:
        _check(cond["not"])
    elif "within" in cond:
        for key in ("after", "before"):
            if key in cond["within"]:
                bound = cond["within"][key]
                _check(bound)
                if any(k in bound for k in (*RELATIONS, "at_most", "equals")):
                    raise Unsupported(f"a span {key} an event that names more than its "
                                      "fields, rule and state right after")
        _check(cond["holds"])
    elif "event" in cond:
        name = cond["event"]
        if name not in FIELDS:
            raise Unsupported(f"the game model does not tell the event {name}")
        wheres = [cond.get("where") or {}] + [cond[r].get("where") or {}
                                              for r in RELATIONS if r in cond]
        for where in wheres:
            for key in where:
                if key not in FIELDS[name]:
                    raise Unsupported(f"the game model does not tell {name}'s field {key}")
            if "turned_by" in where:   # the deciding event, an event condition in the core
                _check(where["turned_by"])
    # every state count is told (at a round's end: the state in which the oven opens)


def asks_a_return(cond: Any) -> bool:
    """Whether a condition names a position that comes back (``position_returns``), which
    no game of the search shows: a seeded game stops once a stalled round has gone a full
    cycle under stall=letter (:func:`..answering.searching.playout`), before a state can
    come back, so the game model goes first."""
    if isinstance(cond, Mapping):
        return "position_returns" in cond or any(asks_a_return(v) for v in cond.values())
    return isinstance(cond, list) and any(asks_a_return(v) for v in cond)


def encode(cond: Mapping[str, Any], model: GameModel) -> Any:
    """``cond`` (the core grammar: :func:`.variables.expand` first) as a z3 Boolean over
    ``model``'s run (call :func:`shape` first)."""
    with N.building(model.ctx):
        return _encode(cond, model, Part())


def _encode(cond: Mapping[str, Any], model: GameModel, part: Part) -> Any:
    if "all" in cond:
        return N.And(*[_encode(c, model, part) for c in cond["all"]])
    if "any" in cond:
        return z3.Or(*[_encode(c, model, part) for c in cond["any"]])
    if "not" in cond:
        return z3.Not(_encode(cond["not"], model, part))
    if "within" in cond:
        inner = span_part(cond["within"], model, part)
        if inner is None:
            return N.BoolVal(False)
        held = _encode(cond["holds"], model, inner)
        return held if inner.present is None else N.And(inner.present, held)
    if "result" in cond:
        return _result(cond["result"], model, part)
    if "position_returns" in cond:
        return position_returns(model, part)
    if "event" in cond:
        n = event_count(cond, model, part)
        rel = next((r for r in RELATIONS if r in cond), None)
        if rel is None:
            return _compare(n, cond, 1)
        other = {**cond, **cond[rel], "where": {**(cond.get("where") or {}),
                                                 **(cond[rel].get("where") or {})}}
        return related(n, event_count(other, model, part), rel)
    state = cond["state"]
    options = [N.And(guard, state_term(state, s, model, in_round))
               for s, guard, in_round in states_of(model, part, state.get("at", "any_step"))]
    return z3.Or(*options) if options else N.BoolVal(False)


def position_returns(model: GameModel, part: Part) -> Any:
    """Two states of the part between turns, the later one the same as the earlier
    (every term of :meth:`.game_terms.State.position`): what
    :func:`.judging.position_returns` finds among all the reference's states, told where
    it matters, since a state inside a step comes back only if the step's start does."""
    states = [(s, N.And(guard, part.state_in(index)))
              for s, guard, index in between_turns(model)
              if (part.setup if index is None else part.has(index))]
    pairs = [N.And(g1, g2, *[N.Eq(x, y) for x, y in zip(s1.position(), s2.position(),
                                                        strict=True)])
             for k, (s1, g1) in enumerate(states) for s2, g2 in states[k + 1:]]
    return z3.Or(*pairs) if pairs else N.BoolVal(False)


def states_of(model: GameModel, part: Part, at: str) -> list[tuple[Any, Any, bool]]:
    """The states of the part a state condition ``at`` looks at, each with the condition
    that it is one and whether it lies inside a round (see :func:`state_counts`): at
    ``any_step`` every state the reference stops at (:func:`..model.stops.stops`)."""
    final = final_step(model)
    end = [(model.S[-1], part.state_in(final), False)] \
        if final is not None and part.has(final) else []
    if at == "game_end":
        return end
    if at == "round_end":   # the state in which the oven opens: after the round's last turn
        out = []
        for step in model.steps:
            if not part.has(step.index):
                continue
            if step.what == "turn":
                out.append((model.S[step.after],
                            N.And(step.facts["round_end"], part.state_in(step.index)), True))
            elif step.what == "transition" and step.round < model.rounds:
                out.append((model.S[step.after],
                            N.And(step.facts["ends_at_once"], part.state_in(step.index)), True))
        return out
    inner = [(stop.state, N.And(stop.guard, part.state_in(stop.index, stop.point)),
              stop.in_round)
             for stop in stops(model) if (part.setup if stop.index is None
                                          else part.has(stop.index))]
    return inner + end


def final_step(model: GameModel) -> int | None:
    """The index of the step that ends the game, where the run is a whole game."""
    return model.steps[-1].index if whole_game(model) else None


def span_part(where: Mapping[str, Any], model: GameModel, part: Part) -> Part | None:
    """The steps of a span (its rounds, its first turns) within ``part``: the same part
    :func:`.judging.span` cuts from the reference's game. A round holds the steps that
    leave the game in it: its turns and its opening, and the preparation that starts
    it (the one after the game's last opening ends the game in the last round)."""
    if "seat" in where:   # a seat's own first turns, then the rest of the span
        part = own_turns(str(where["seat"]), int(where["turns"]), model, part)
        where = {k: v for k, v in where.items() if k not in ("seat", "turns")}
    steps = set(range(len(model.steps))) if part.steps is None else set(part.steps)
    setup, events = part.setup, part.events
    if "turns" in where:
        begins = turns_begin(model)
        limit = int(where["turns"])
        if len(begins) > limit:
            cut = begins[limit]
            if model.steps[cut].what == "turn":
                steps = {i for i in steps if i < cut}
            else:   # a round that ends as it starts: its preparation's leftovers only
                steps = {i for i in steps if i <= cut}
                events = before_the_turn(cut, part.events)
    low = where.get("round", where.get("from_round", 1))
    high = where.get("round", where.get("to_round"))
    if any(k in where for k in ("round", "from_round", "to_round")):
        def round_of(st: Step) -> int:
            if st.what == "transition" and st.round < model.rounds:
                return st.round + 1
            return st.round

        steps = {i for i in steps if low <= round_of(model.steps[i])
                 and (high is None or round_of(model.steps[i]) <= high)}
        setup = setup and low <= 1
    if not steps and not setup:
        return None
    kept = Part(frozenset(steps), setup, events, part.states, part.present, part.cards)
    for key in ("after", "before"):
        if key in where:
            kept = _bounded(where[key], key == "after", model, kept)
    return kept


def _bounded(first: Mapping[str, Any], after: bool, model: GameModel, part: Part) -> Part:
    """The part after (or before) the first event of ``part`` that meets ``first``: the
    steps after (before) the one that emits it, and in that step the events the
    reference emits after (before) it (:data:`EMITTED`); the states a step leaves (or
    stops at inside it) once it has happened (before it has). Where it never happens,
    no part after it and the whole part before it (the game's end only where it is in
    the part)."""
    name = first["event"]
    occurs = [N.Val(0) if not part.has(step.index) else
              event_count(first, model, Part(frozenset({step.index}), False, part.events,
                                             part.states, cards=part.cards))
              for step in model.steps]
    seen_upto: list[Any] = []
    so_far: Any = N.BoolVal(False)
    for n in occurs:
        so_far = z3.Or(so_far, n > 0)
        seen_upto.append(so_far)
    seen_before = [N.BoolVal(False), *seen_upto[:-1]]

    def events(step: Step, other: str) -> Any:
        if other == name == "revealed":   # cut card by card (``cards`` below)
            return part.event_in(step, other)
        t = step.index
        order = EMITTED[step.what]
        here = N.And(occurs[t] > 0, z3.Not(seen_before[t]))
        if name in order and other in order and other != name:
            later = order.index(other) > order.index(name)
        else:
            later = False   # the same event, or one the step never emits with it
        mine = z3.Or(seen_before[t], N.And(here, N.BoolVal(later))) if after else \
            N.And(z3.Not(seen_before[t]), z3.Or(z3.Not(here), N.BoolVal(
                name in order and other in order and other != name and not later)))
        return N.And(part.event_in(step, other), mine)

    def states(index: int | None, point: str | None = None) -> Any:
        if index is None:
            happened: Any = N.BoolVal(False)
        elif point is None:
            happened = seen_upto[index]
        else:   # inside the step: where the event comes at or before the point
            order = EMITTED[model.steps[index].what]
            earlier = name in order and order.index(name) <= order.index(point)
            happened = z3.Or(seen_before[index], N.And(occurs[index] > 0, N.BoolVal(earlier)))
        outer = part.states(index, point) if part.states is not None else N.BoolVal(True)
        return N.And(outer, happened if after else z3.Not(happened))

    firsts: dict[int, list[Any]] = {}   # each step's cards: one that meets ``first``

    def cards(step: Step, j: int) -> Any:   # a card before or after the first one
        if step.index not in firsts:
            firsts[step.index] = [
                N.And(m, part.card_in(step, i), *([holds(first["then"])] if "then" in first
                                                  else []))
                for i, (m, holds) in enumerate(each_revealed(first.get("where") or {},
                                                             first.get("rule"), step, model))]
        met = firsts[step.index][:j] if after else firsts[step.index][:j + 1]
        earlier = z3.Or(seen_before[step.index], *met)
        return earlier if after else z3.Not(earlier)

    there = seen_upto[-1] if after and seen_upto else N.BoolVal(not after)
    present = there if part.present is None else N.And(part.present, there)
    return Part(part.steps, part.setup and not after, events, states, present,
                cards if name == "revealed" else part.cards)


def state_term(state: Mapping[str, Any], s: Any, model: GameModel, in_round: bool) -> Any:
    """Whether one state of the run meets a state condition (its ``at`` aside)."""
    if state.get("same_for_every_seat"):
        counts = per_seat(s, state["count"], state.get("kind"), model)
        return N.And(*[c == counts[0] for c in counts[1:]])
    rel = next((r for r in RELATIONS if r in state), None)
    if rel is not None:
        other = {**state, **state[rel]}
        mine = state_counts(s, state, model, in_round=in_round)
        theirs = state_counts(s, other, model, in_round=in_round)
        return z3.Or(*[related(a, b, rel) for a in mine for b in theirs]) \
            if mine and theirs else N.BoolVal(False)
    counts = [_compare(n, state, 0) for n in state_counts(s, state, model, in_round=in_round)]
    if not counts:
        return N.BoolVal(False)
    return N.And(*counts) if state.get("seat") == "all" else z3.Or(*counts)


def _result(result: Mapping[str, Any], model: GameModel, part: Part) -> Any:
    """The game's result at its end (``game_end.*``, :func:`.scoring_terms`)."""
    final = final_step(model)
    if final is None or not part.has(final):
        return N.BoolVal(False)
    wins, rule = scoring_terms(model.S[-1], model)
    return N.And(part.state_in(final), result_term(result, wins, rule, model))


def whole_game(model: GameModel) -> bool:
    """Whether the run is a whole game: its last step ends the game."""
    return bool(model.steps) and model.steps[-1].what == "transition" and \
        model.rounds == model.R and not model.open_last


def between_turns(model: GameModel) -> list[tuple[Any, Any, int | None]]:
    """The states between two turns, which the reference also stops at, each with the
    condition that it is one and the step that leaves it (None for the setup's): the
    setup's, after each turn that does not end its round (the next player's turn
    begins), and after each round's preparation that starts a round (not the game's end,
    not a round that ends at once)."""
    out: list[tuple[Any, Any, int | None]] = [(model.S[0], N.BoolVal(True), None)]
    for step in model.steps:
        if step.what == "turn":
            out.append((model.S[step.after], z3.Not(step.facts["round_end"]), step.index))
        elif step.what == "transition" and step.round < model.rounds:
            out.append((model.S[step.after], z3.Not(step.facts["ends_at_once"]), step.index))
    return out


def per_seat(s: Any, what: str, kind: str | None, model: GameModel) -> list[Any]:
    """A count per seat (see :func:`.judging.per_seat_counts`)."""
    k = KINDS.index(kind) if kind else None
    if what == "delivered":
        return [model.delivered(s, p) for p in range(model.n)]
    if what == "waiter":
        return [model.orders_at(s, p, WAITER, UNDER) for p in range(model.n)]
    if what == "mamma_mia":
        return [N.If(s.mm == p, 1, 0) for p in range(model.n)]
    if what == "ingredients":
        return [s.hand[p][k] if k is not None else N.Sum(s.hand[p]) for p in range(model.n)]
    return [s.hand[p][k] if k is not None else model.hand_size(s, p) for p in range(model.n)]


def state_counts(s: Any, cond: Mapping[str, Any], model: GameModel, *,
                 in_round: bool = True) -> list[Any]:
    """The counts a state condition compares, one per seat for hand, delivered, waiter
    and mamma_mia (see :func:`.judging.state_count`): the Mamma Mia! card is a card of
    the supply while it lies there; the oven holds the orders placed as well as the
    ingredients. Under ``leftovers=oven`` a round's leftovers lie in the oven during the
    next round (``next_round.oven``) where the model keeps them on the table
    (``in_round``: a state between two turns; at the game's end they are on the
    table)."""
    what, kind = cond["count"], cond.get("kind")
    k = KINDS.index(kind) if kind else None

    def pile(counts: Sequence[Any]) -> Any:
        return counts[k] if k is not None else N.Sum(list(counts))

    moved = in_round and model.v.leftovers == Leftovers.OVEN
    if what == "round":
        return [s.rnd]
    if what == "supply":
        return [model.supply_cards(s) if k is None else pile(s.supply)]
    if what == "oven":
        placed = N.Sum([model.orders_at(s, p, IN_OVEN) for p in range(model.n)])
        return [pile(s.oven) + (pile(s.table) if moved else 0) + (placed if k is None else 0)]
    if what == "table":
        return [N.Val(0) if moved else pile(s.table)]
    if what == "used":
        return [pile(s.used)]
    per = per_seat(s, what, kind, model)
    seat = cond.get("seat", "any")
    if seat not in ("any", "all"):
        return [per[model.colours.index(seat)]] if seat in model.colours else []
    return per


# ------------------------------------------------------------------- the events


def event_count(cond: Mapping[str, Any], model: GameModel, part: Part | None = None) -> Any:
    """How many events of ``cond``'s name, rule and fields the run (its ``part``) has;
    with ``then:``, those right after which the state meets it. Cards revealed are
    counted card by card where a ``then:`` or a span cut among a step's cards asks
    (:func:`each_revealed`)."""
    name, where, rule = cond["event"], dict(cond.get("where") or {}), cond.get("rule")
    part = part or Part()
    then = cond.get("then")
    terms = []
    for step in model.steps:
        if not part.has(step.index):
            continue
        if name == "revealed" and (then is not None or part.cards is not None):
            terms += revealed_then(then, where, rule, step, model, part)
            continue
        found = occurrences(name, where, rule, step, model)
        if then is not None and found:
            after = then_term(then, name, step, model)
            found = [N.If(after, t, 0) for t in found]
        if part.events is not None and found:
            inside = part.event_in(step, name)
            found = [N.If(inside, t, 0) for t in found]
        terms += found
    return N.Sum(terms) if terms else N.Val(0)


def each_revealed(where: Mapping[str, Any], rule: str | None, step: Step, model: GameModel
                  ) -> list[tuple[Any, Callable[[Mapping[str, Any]], Any]]]:
    """Every card ``step`` reveals, in the reference's order: whether it is one
    ``where`` and ``rule`` ask for, and whether the state right after it meets a state
    condition: each ingredient card (:func:`..model.stops.revealed_cards`), then the
    order, after which the state is its owner's decision or its judgement
    (:func:`then_term`)."""
    card = where.get("card")
    kinds = (card is None or card in KINDS) and "owner" not in where and \
        rule in (None, "oven.sort")

    def after_card(state: Any) -> Callable[[Mapping[str, Any]], Any]:
        return lambda then: state_term(then, state, model, False)

    def after_order(then: Mapping[str, Any]) -> Any:
        return then_term(then, "revealed", step, model)

    out: list[tuple[Any, Callable[[Mapping[str, Any]], Any]]] = []
    for state, present, kind in revealed_cards(model, step):
        test = N.BoolVal(False) if not kinds else present if card is None else \
            N.And(present, kind == KINDS.index(card))
        out.append((test, after_card(state)))
    if step.what == "reveal":
        asked = rule in (None, "oven.open") and (card is None or card not in KINDS)
        order = occurrences("revealed", where, "oven.open", step, model) if asked else []
        out.append((order[0] > 0 if order else N.BoolVal(False), after_order))
    return out


def revealed_then(then: Mapping[str, Any] | None, where: Mapping[str, Any],
                  rule: str | None, step: Step, model: GameModel,
                  part: Part | None = None) -> list[Any]:
    """The cards of ``step`` revealed as ``where`` and ``rule`` ask (within ``part``,
    card by card) whose state right after meets ``then`` (:func:`each_revealed`)."""
    part = part or Part()
    return [N.If(N.And(m, part.card_in(step, j),
                       N.BoolVal(True) if then is None else holds(then)), 1, 0)
            for j, (m, holds) in enumerate(each_revealed(where, rule, step, model))
            if not z3.is_false(m)]


def then_term(then: Mapping[str, Any], name: str, step: Step, model: GameModel,
              final: Any = None) -> Any:
    """Whether the state right after an event ``name`` of ``step`` meets ``then``
    (:func:`state_after`); right after a kind is named (or an order revealed), the state
    in which its owner decides on completing it (or on its kind), if asked
    (:func:`..model.stops.pauses`), else the state once the order is judged. ``final``
    (a term: a free step's, whose round is not known) says whether a round's
    preparation ends the game instead."""
    if name in ("named_kind", "revealed"):   # revealed: the order (:func:`revealed_then`)
        before, block = model.S[step.before], step.facts["block"]
        named, asked = pauses(model, before, block, step.facts)
        # right after an order revealed, its owner may be asked to name its kind first
        ask = z3.Or(named, asked) if name == "revealed" else asked
        return N.If(ask, state_term(then, opening_pause(model, before, block), model, False),
                    state_term(then, model.S[step.after], model, False))
    state = state_after(name, step, model)
    if final is not None and step.what == "transition":
        return N.If(final, state_term(then, state, model, False),
                    state_term(then, state, model, True))
    last = step.what == "transition" and step.round == model.rounds
    return state_term(then, state, model, in_round=step.what != "reveal" and not last)


def state_after(name: str, step: Step, model: GameModel) -> Any:
    """The state right after an event ``name`` of ``step``: the reference's state after
    the part of an action that emitted it (:func:`mammamia_ref.rules.game.apply_in_parts`),
    which for most events is the state the step leaves; for those
    of :data:`INSIDE_TURN`, the state inside the turn, before its draw; for the
    leftovers moved, the next supply to shuffle (:func:`..model.stops.inside`); for a
    kind named, see :func:`then_term`."""
    f = step.facts
    if name == "leftovers_to_oven":
        return inside(model, "transition", model.S[step.before], model.S[step.after],
                      step.sel, f)[0]
    if name not in INSIDE_TURN:
        return model.S[step.after]
    placed = f["placed"] if INSIDE_TURN[name] else N.BoolVal(False)
    return model.inside_turn(model.S[step.before], step.sel, f["who"], f["after_play"], placed)


__all__ = ["FIELDS", "Shape", "Unsupported", "encode", "event_count", "shape",
           "state_after", "state_counts", "written_out"]
