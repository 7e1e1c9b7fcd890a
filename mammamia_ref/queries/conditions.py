"""A designer's condition (:mod:`.questions`' grammar) as a z3 term over one run of the
game model (:class:`.game_model.GameModel`), so that ``ask`` can prove "none within the
bound" or find a game where a search does not.

Each event of the question vocabulary is read off the model's steps, the same events
the reference emits (``mammamia_ref/rules``): ``played``, ``passed``,
``placed_order``, ``drew`` and ``mamma_mia_drawn`` from each turn step's selectors and
facts; ``round_ended``, ``oven_opened`` and ``mamma_mia_taken`` from the turn that ends
a round (and from a transition into a round that ends at once, under
``round_end.last_ingredient``); ``revealed``, ``baked``, ``failed`` and
``completed_from_hand`` from each reveal step; ``game_ended`` from the last transition.
A field or a rule the model cannot tell apart raises :class:`Unsupported` with the
reason, before any model is built, and the question is then only searched.

:func:`shape` says what a term over a *part* of a game proves: a condition that, once
met, stays met (:func:`.questions.kept_once_met`) can be judged on the first rounds of
a game; any other only on whole games.
State counts at ``any_step`` are judged at the states between two turns (the
reference has more: inside a turn, partway into an opening), so they serve a search
for a game but never a proof that none exists. ``tests/test_conditions.py`` holds
every event count of the encoding to the reference's on replayed runs.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import z3

from mammamia_ref.queries import num as N
from mammamia_ref.queries.game_model import DELIVERED, HAND, IN_OVEN, NO, SUPPLY, GameModel
from mammamia_ref.queries.game_terms import Step
from mammamia_ref.queries.oven_rules import T_BOMBASTICA
from mammamia_ref.queries.questions import kept_once_met
from mammamia_ref.rules.turn import draw_rule
from mammamia_ref.rules.vocabulary import COLOURS, KINDS, ORDERS, ORDERS_OF


class Unsupported(Exception):
    """A condition the game model cannot express: ``reason`` says which part."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


FIELDS: dict[str, frozenset[str]] = {
    "played": frozenset({"kind", "count", "seat"}),
    "passed": frozenset({"seat"}),
    "placed_order": frozenset({"order", "seat"}),
    "drew": frozenset({"seat", "source", "count"}),
    "mamma_mia_drawn": frozenset({"seat"}),
    "mamma_mia_taken": frozenset({"seat"}),
    "round_ended": frozenset({"round"}),
    "oven_opened": frozenset({"seat"}),
    "revealed": frozenset({"card", "owner"}),
    "baked": frozenset({"order", "seat"}),
    "failed": frozenset({"order", "seat"}),
    "completed_from_hand": frozenset({"order", "seat"}),
    "leftovers_to_oven": frozenset({"cards"}),
    "game_ended": frozenset(),
}
"""The events the model tells, and the fields of each it can test (a condition testing
another field is only searched)."""

RULED = frozenset(FIELDS) - {"failed", "completed_from_hand"}
"""The events whose rule the model tells (the others' rule depends on the path through
the oven rules that decided them)."""

@dataclass(frozen=True)
class Shape:
    """What a term over a run proves of a game.

    ``whole_game``: the condition is judged on whole games only
    (:func:`.questions.kept_once_met` fails);
    ``exact``: z3 sees every state the condition judges, so an unsat run is a proof."""

    whole_game: bool
    exact: bool


def shape(cond: Mapping[str, Any]) -> Shape:
    """The shape of ``cond``; :class:`Unsupported` where the model cannot express it."""
    _check(cond)
    return Shape(not kept_once_met(cond), _exact(cond))


def _exact(cond: Mapping[str, Any]) -> bool:
    """No state count at ``any_step``: z3 sees only the states between two turns."""
    if "all" in cond or "any" in cond:
        return all(_exact(c) for c in cond.get("all") or cond.get("any") or ())
    if "not" in cond:
        return _exact(cond["not"])
    return "event" in cond or cond["state"].get("at") == "game_end"


def _check(cond: Mapping[str, Any]) -> None:
    for part in cond.get("all") or cond.get("any") or ():
        _check(part)
    if "not" in cond:
        _check(cond["not"])
    elif "event" in cond:
        name = cond["event"]
        if name not in FIELDS:
            raise Unsupported(f"the game model does not tell the event {name}")
        for key in cond.get("where") or {}:
            if key not in FIELDS[name]:
                raise Unsupported(f"the game model does not tell {name}'s field {key}")
        if "rule" in cond and name not in RULED:
            raise Unsupported(f"the game model does not tell which rule decided {name}")
    elif "state" in cond and cond["state"].get("at") == "round_end":
        raise Unsupported("a state at a round's end is judged partway into the opening, "
                          "which the game model does not step through")


# ------------------------------------------------------------------- the terms


def encode(cond: Mapping[str, Any], model: GameModel) -> Any:
    """``cond`` as a z3 Boolean over ``model``'s run (call :func:`shape` first)."""
    with N.building(model.ctx):
        return _encode(cond, model)


def _encode(cond: Mapping[str, Any], model: GameModel) -> Any:
    if "all" in cond:
        return N.And(*[_encode(c, model) for c in cond["all"]])
    if "any" in cond:
        return z3.Or(*[_encode(c, model) for c in cond["any"]])
    if "not" in cond:
        return z3.Not(_encode(cond["not"], model))
    if "event" in cond:
        return _compare(event_count(cond, model), cond, 1)
    state = cond["state"]
    true = N.BoolVal(True)
    end = [(model.S[-1], true, False)] if whole_game(model) else []
    states = end if state.get("at") == "game_end" else \
        [(s, guard, True) for s, guard in between_turns(model)] + end
    every = state.get("seat") == "all"
    options = []
    for s, guard, in_round in states:
        counts = [_compare(n, state, 0)
                  for n in state_counts(s, state, model, in_round=in_round)]
        if counts:
            options.append(N.And(guard, N.And(*counts) if every else z3.Or(*counts)))
    return z3.Or(*options) if options else N.BoolVal(False)


def _compare(n: Any, cond: Mapping[str, Any], least: int) -> Any:
    """The grammar's ``at_least`` / ``at_most`` / ``equals`` (see :func:`.judging.compare`)."""
    if "equals" in cond:
        return n == int(cond["equals"])
    out = n >= int(cond.get("at_least", least))
    return N.And(out, n <= int(cond["at_most"])) if "at_most" in cond else out


def whole_game(model: GameModel) -> bool:
    """Whether the run is a whole game: its last step ends the game."""
    return bool(model.steps) and model.steps[-1].what == "transition" and \
        model.rounds == model.R and not model.open_last


def between_turns(model: GameModel) -> list[tuple[Any, Any]]:
    """The states between two turns, which the reference also stops at, each with the
    condition that it is one: the setup's, after each turn that does not end its round
    (the next player's turn begins), and after each round's preparation that starts a
    round (not the game's end, not a round that ends at once)."""
    out = [(model.S[0], N.BoolVal(True))]
    for step in model.steps:
        if step.what == "turn":
            out.append((model.S[step.after], z3.Not(step.facts["round_end"])))
        elif step.what == "transition" and step.round < model.rounds:
            out.append((model.S[step.after], z3.Not(step.facts["ends_at_once"])))
    return out


def state_counts(s: Any, cond: Mapping[str, Any], model: GameModel, *,
                 in_round: bool = True) -> list[Any]:
    """The counts a state condition compares, one per seat for hand and delivered (see
    :func:`.judging.state_count`): the Mamma Mia! card is a card of the supply while it lies
    there; the oven holds the orders placed as well as the ingredients. Under
    ``leftovers=oven`` a round's leftovers lie in the oven during the next round
    (``next_round.oven``) where the model keeps them on the table (``in_round``: a state
    between two turns; at the game's end they are on the table)."""
    what, kind = cond["count"], cond.get("kind")
    k = KINDS.index(kind) if kind else None

    def pile(counts: Sequence[Any]) -> Any:
        return counts[k] if k is not None else N.Sum(list(counts))

    moved = in_round and model.v.leftovers == "oven"
    if what == "round":
        return [s.rnd]
    if what == "supply":
        return [pile(s.supply) + (N.If(s.mm == -1, 1, 0) if k is None else 0)]
    if what == "oven":
        placed = N.Sum([N.If(x == IN_OVEN, 1, 0) for row in s.loc for x in row])
        return [pile(s.oven) + (pile(s.table) if moved else 0) + (placed if k is None else 0)]
    if what == "table":
        return [N.Val(0) if moved else pile(s.table)]
    if what == "used":
        return [pile(s.used)]
    if what == "delivered":
        per = [N.Sum([N.If(x == DELIVERED, 1, 0) for x in s.loc[p]]) for p in range(model.n)]
    else:
        per = [s.hand[p][k] if k is not None else
               N.Sum(s.hand[p]) + N.Sum([N.If(x == HAND, 1, 0) for x in s.loc[p]])
               for p in range(model.n)]
    seat = cond.get("seat", "any")
    if seat not in ("any", "all"):
        return [per[model.colours.index(seat)]] if seat in model.colours else []
    return per


# ------------------------------------------------------------------- the events


def event_count(cond: Mapping[str, Any], model: GameModel) -> Any:
    """How many events of ``cond``'s name, rule and fields the run has."""
    name, where, rule = cond["event"], dict(cond.get("where") or {}), cond.get("rule")
    terms = [t for step in model.steps for t in _occurrences(name, where, rule, step, model)]
    return N.Sum(terms) if terms else N.Val(0)


def _seat_is(who: Any, colour: Any, model: GameModel) -> Any:
    if colour not in model.colours:
        return N.BoolVal(False)
    return who == model.colours.index(colour)


def _order_is(seat: Any, index: Any, order: str, model: GameModel) -> Any:
    """The order (seat, index) is ``order``."""
    colour = ORDERS[order].colour
    if colour not in model.colours:
        return N.BoolVal(False)
    return N.And(seat == model.colours.index(colour), index == ORDERS_OF[colour].index(order))


def _one(*conditions: Any) -> Any:
    return N.If(N.And(*conditions), 1, 0)


def _either(rule: str, when: Any, other: str, otherwise: Any) -> dict[str, Any]:
    """The rule of an event that follows ``rule`` when ``when`` holds, else ``other``
    (the two may be one rule)."""
    if rule == other:
        return {rule: N.BoolVal(True)}
    return {rule: when, other: otherwise}


def _rule(want: str | None, rule: Any) -> Any:
    """Whether the event's rule (a string, or a term when it depends on the run: a map
    of rule to condition) is the one a condition names."""
    if want is None:
        return N.BoolVal(True)
    if isinstance(rule, str):
        return N.BoolVal(rule == want)
    return rule.get(want, N.BoolVal(False))


def _occurrences(name: str, where: Mapping[str, Any], rule: str | None, step: Step,
                 model: GameModel) -> list[Any]:
    f, v = step.facts, model.v
    if step.what == "turn":
        return _turn_events(name, where, rule, step, model)
    if step.what == "reveal":
        return _reveal_events(name, where, rule, step, model)
    # the transition: the game's end, the leftovers into the oven, or a round that ends
    # as it starts
    if name == "game_ended":
        return [_one(f["final"])] if rule in (None, "game_end.three_resolutions") else []
    table = model.S[step.before].table
    if name == "leftovers_to_oven":
        if v.leftovers != "oven" or rule not in (None, "next_round.oven"):
            return []
        test = [N.Sum(table) == int(where["cards"])] if "cards" in where else []
        return [_one(z3.Not(f["final"]), *test)]
    last = step.round == model.R   # the round after the last modelled one is not modelled
    if last or v.round_end != "last_ingredient":
        return []
    at_once = f["ends_at_once"]
    holder = model.S[step.before].mm
    if name == "round_ended":
        return [_one(at_once, _rule(rule, "round_end.last_ingredient"),
                     *_round_is(where, step.round + 1))]
    if name == "oven_opened":
        return [_one(at_once, _rule(rule, "mamma_mia.holder"),
                     *_seat_where(where, "seat", holder, model))]
    if name == "mamma_mia_taken":
        return [_one(at_once, _rule(rule, "round_end.last_ingredient"),
                     *_seat_where(where, "seat", holder, model))]
    if name == "revealed":
        return [N.If(at_once, n, 0) for n in _leftovers_revealed(where, rule, table, model)]
    return []


def _leftovers_revealed(where: Mapping[str, Any], rule: str | None, table: Sequence[Any],
                        model: GameModel) -> list[Any]:
    """Under ``leftovers=oven`` an opening after the first reveals the last round's
    leftovers first, card by card (``next_round.oven``, ``oven.sort``): the model's
    table at that moment."""
    card = where.get("card")
    if model.v.leftovers != "oven" or "owner" in where or rule not in (None, "oven.sort") \
            or (card is not None and card not in KINDS):
        return []
    return [table[KINDS.index(card)] if card is not None else N.Sum(list(table))]


def _seat_where(where: Mapping[str, Any], key: str, who: Any, model: GameModel) -> list[Any]:
    return [_seat_is(who, where[key], model)] if key in where else []


def _round_is(where: Mapping[str, Any], r: int) -> list[Any]:
    return [N.BoolVal(int(where["round"]) == r)] if "round" in where else []


def _turn_events(name: str, where: Mapping[str, Any], rule: str | None, step: Step,
                 model: GameModel) -> list[Any]:
    f, a, v = step.facts, step.sel, model.v
    who = f["who"]
    seat = _seat_where(where, "seat", who, model)
    is_pass = a.kind == NO
    if name == "played":
        out = [z3.Not(is_pass), _rule(rule, "turn.play"), *seat]
        if "kind" in where:
            out.append(a.kind == KINDS.index(where["kind"]))
        if "count" in where:
            out.append(a.count == int(where["count"]))
        return [_one(*out)]
    if name == "passed":
        return [_one(is_pass, _rule(rule, "turn.pass"), *seat)]
    if name == "placed_order":
        with_pass = N.And(is_pass, N.BoolVal(v.pass_order == "allowed"))
        by_rule = _either("turn.pass_with_order", with_pass, "turn.place_order",
                          z3.Not(with_pass))
        out = [a.order >= 0, _rule(rule, by_rule), *seat]
        if "order" in where:
            out.append(_order_is(who, a.order, where["order"], model))
        return [_one(*out)]
    if name == "drew":
        supply = a.source == SUPPLY
        pop = N.If(a.mm_pop, 1, 0)
        got = N.If(supply, f["moved"] - pop, f["took"])
        short = got < f["wanted"]
        by_rule = _either(draw_rule(v, True), short, draw_rule(v, False), z3.Not(short))
        out = [_rule(rule, by_rule), *seat]
        if "source" in where:
            out.append(supply if where["source"] == "supply" else z3.Not(supply))
        if "count" in where:
            out.append(got == int(where["count"]))
        return [_one(*out)]
    if name == "mamma_mia_drawn":
        return [_one(a.mm_pop, _rule(rule, "mamma_mia.draw"), *seat)]
    ends = f["round_end"]
    if name == "round_ended":
        cause = f"round_end.{v.round_end}"
        by_rule = _either("round_end.stall", f["stall"], cause, z3.Not(f["stall"]))
        return [_one(ends, _rule(rule, by_rule), *_round_is(where, step.round))]
    if name == "oven_opened":
        holder = model.S[step.after].mm
        return [_one(ends, _rule(rule, "mamma_mia.holder"),
                     *_seat_where(where, "seat", holder, model))]
    if name == "mamma_mia_taken":
        before = model.S[step.before]
        following = (who + 1) % model.n if isinstance(who, int) else \
            N.If(who == model.n - 1, 0, who + 1)
        by_stall = N.And(f["stall"], before.mm == -1)
        out = []
        if v.round_end == "last_ingredient":
            out.append(_one(f["mm_taken"], _rule(rule, "round_end.last_ingredient"),
                            *_seat_where(where, "seat", who, model)))
        out.append(_one(by_stall, _rule(rule, "round_end.stall"),
                        *_seat_where(where, "seat", following, model)))
        return out
    return []


def _reveal_events(name: str, where: Mapping[str, Any], rule: str | None, step: Step,
                   model: GameModel) -> list[Any]:
    f = step.facts
    block = f["block"]
    owner, order, has_order = block.owner, block.order, f["has_order"]
    seat = _seat_where(where, "seat", owner, model)
    which = [_order_is(owner, order, where["order"], model)] if "order" in where else []
    if name == "revealed":
        card = where.get("card")
        orders = card is None or card in ORDERS
        kinds = card is None or card in KINDS
        out = []
        if orders and rule in (None, "oven.open"):
            test = [has_order, *_seat_where(where, "owner", owner, model)]
            if card is not None:
                test.append(_order_is(owner, order, card, model))
            out.append(_one(*test))
        if kinds and "owner" not in where and rule in (None, "oven.sort"):
            k = None if card is None else KINDS.index(card)
            out.append(N.If(block.kind == k if k is not None else block.kind != NO,
                            block.count, 0))
        if step.slot == 0 and step.round > 1:
            out += _leftovers_revealed(where, rule, model.S[step.before].table, model)
        return out
    if name == "baked":
        bomb = f["type"] == T_BOMBASTICA
        by_rule = _either("oven.bombastica", bomb, "oven.bake", z3.Not(bomb))
        return [_one(f["baked"], _rule(rule, by_rule), *seat, *which)]
    if name == "failed":
        return [_one(has_order, z3.Not(f["baked"]), *seat, *which)]
    if name == "completed_from_hand":
        return [_one(f["baked"], N.Sum(f["from_hand"]) > 0, *seat, *which)]
    return []


def where_values(name: str, players: int) -> list[dict[str, Any]]:
    """Every single-field ``where:`` of an event the model tells, with each value the
    field can take in a game of ``players`` (and one beyond it): the cases the
    encoding is held to the reference on."""
    values: dict[str, list[Any]] = {
        "seat": list(COLOURS[:players + 1]), "owner": list(COLOURS[:players + 1]),
        "kind": list(KINDS), "count": [0, 1, 2, 3], "source": ["supply", "waiter"],
        "round": [1, 2, 3], "cards": [0, 1, 2, 3, 5],
        "order": [o for c in COLOURS[:players] for o in ORDERS_OF[c]],
        "card": [*KINDS, *[o for c in COLOURS[:players] for o in ORDERS_OF[c]]]}
    out: list[dict[str, Any]] = [{}]
    for key in sorted(FIELDS[name]):
        out += [{key: value} for value in values[key]]
    return out


__all__ = ["FIELDS", "RULED", "Shape", "Unsupported", "encode", "event_count", "shape",
           "state_counts", "where_values"]
