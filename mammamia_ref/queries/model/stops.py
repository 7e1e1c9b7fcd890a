"""The states the reference stops at inside one step of the game model, as z3 terms:
before the first orders are taken (the waiters being shuffled), inside an opening where
the owner of the order just revealed decides, between two cards revealed, and before a
round's shuffle (the states inside a turn are
:meth:`.game_model.GameModel.inside_turn`); and :func:`stops`, every state of a run the
reference stops at, which state counts at ``any_step`` are judged on.
``tests/test_conditions.py`` holds each to the reference's."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

import z3

from mammamia_ref.queries.model import num as N
from mammamia_ref.queries.model.game_model import GameModel
from mammamia_ref.queries.model.game_terms import (
    HAND,
    JUDGED,
    WAITER,
    Block,
    State,
    Step,
    _is,
)
from mammamia_ref.queries.model.oven_rules import (
    N_ORDERS,
    NK,
    T_BOMBASTICA,
    T_MINIMALE,
    T_MONOTONI,
    several_ways,
)
from mammamia_ref.rules.typed_spec import Completion, Leftovers


def before_first_orders(s: State) -> State:
    """The setup's state before the first orders are taken (``setup.waiter``): the hands
    dealt, every order in its waiter."""
    nx = s.copy()
    nx.loc = [[N.If(x == HAND, WAITER, x) for x in row] for row in s.loc]
    return nx


def opening_pause(model: GameModel, s: State, block: Block) -> State:
    """The state where the owner of the order a reveal step turns up decides (a kind to
    name, ``oven.monotoni``/``oven.minimale``; whether or how to complete from hand,
    ``oven.complete_from_hand``): the turn's ingredients sorted onto the table, its
    order out of the oven and not yet judged. Naming moves no card, so both decisions
    stop in this state."""
    with N.building(model.ctx):
        nx = s.copy()
        nx.table, nx.oven = model.turned_up(s, block)
        for p in range(model.n):
            for o in range(N_ORDERS):
                this = N.And(block.order == o, _is(block.owner, p))
                nx.loc[p][o] = N.If(this, JUDGED, s.loc[p][o])
        return nx


def pauses(model: GameModel, s: State, block: Block, facts: Mapping[str, Any]
           ) -> tuple[Any, Any]:
    """Whether the opening stops for the owner of ``block``'s order (a reveal step from
    ``s`` with ``facts``) to name a kind (more than one kind may be named) and to decide
    on completing it (asked; under ``completion=mandatory`` only for a Bombastica with
    more than one way to take the cards, since one way is taken without asking)."""
    with N.building(model.ctx):
        out = facts["outcome"]
        named = N.And(facts["has_order"],
                      N.Or(facts["type"] == T_MONOTONI, facts["type"] == T_MINIMALE),
                      N.Sum([N.If(k, 1, 0) for k in out.permitted]) >= 2)
        asked = N.And(facts["has_order"], out.asked)
        if model.v.completion == Completion.MANDATORY:
            short = model.rules.parameters.bombastica_total - N.Sum(list(facts["table"]))
            asked = N.And(asked, facts["type"] == T_BOMBASTICA,
                          several_ways(model.hand_of(s, block.owner), short))
        return named, asked


def inside(model: GameModel, what: str, before: State, after: State, sel: Any,
           facts: Mapping[str, Any]) -> list[State]:
    """The states the reference stops at inside one step of kind ``what`` (from
    ``before`` to ``after``, its selectors and facts), whether or not it stops there: a
    turn's after its play or pass and after its order is placed; a reveal's where the
    owner decides; a round's preparation's with the next supply to shuffle (the Mamma
    Mia! card in it, where the round that starts ends at once too)."""
    with N.building(model.ctx):
        if what == "turn":
            return [model.inside_turn(before, sel, facts["who"], facts["after_play"], placed)
                    for placed in (N.BoolVal(False), facts["placed"])]
        if what == "reveal":
            return [opening_pause(model, before, facts["block"])]
        pending = after.copy()   # before a round that ends as it starts, its starting
        pending.mm = N.If(facts["ends_at_once"], -1, after.mm)   # player takes the card
        return [pending]


def revealed_cards(model: GameModel, step: Step) -> list[tuple[State, Any, Any]]:
    """The ingredient cards one step reveals, one by one (``oven.open``, ``oven.sort``),
    each with the state right after it (the state the part that reveals it leaves:
    :func:`mammamia_ref.rules.game.apply_in_parts`), whether the step has that card and
    its kind: under ``leftovers=oven`` the last round's leftovers first, in the order of
    the kinds (at the first reveal step of a later round, or at the preparation of a
    round that ends as it starts), then a reveal step's turn's cards."""
    with N.building(model.ctx):
        before, after = model.S[step.before], model.S[step.after]
        out: list[tuple[State, Any, Any]] = []
        oven = model.v.leftovers == Leftovers.OVEN
        if oven and step.what == "transition" and step.round < model.R:
            out += _leftovers_one_by_one(model, before.table, after,
                                         step.facts["ends_at_once"])
        elif oven and step.what == "reveal" and step.slot == 0 and step.round > 1:
            out += _leftovers_one_by_one(model, before.table, before, N.BoolVal(True))
        if step.what == "reveal":
            block = step.facts["block"]
            for i in range(1, max(model.in_play) + 1):   # the first i of its cards
                nx = before.copy()
                nx.table, nx.oven = model.turned_up(before, replace(block, count=N.Val(i)))
                out.append((nx, N.Val(i) <= block.count, block.kind))
        return out


def _leftovers_one_by_one(model: GameModel, table: list[Any], base: State, present: Any
                          ) -> list[tuple[State, Any, Any]]:
    """``table``'s cards (the leftovers moved into the oven) revealed in the order of the
    kinds onto an empty table, over ``base``: after each, the cards so far on the table
    and the rest in the oven."""
    out: list[tuple[State, Any, Any]] = []
    below = [N.Sum(list(table[:k])) if k else N.Val(0) for k in range(NK)]
    for t in range(1, sum(model.in_play) + 1):
        shown = [N.If(N.Val(t) <= below[k], 0, N.If(N.Val(t) >= below[k] + table[k], table[k],
                                                    N.Val(t) - below[k])) for k in range(NK)]
        kind: Any = N.Val(-1)
        for k in range(NK):
            kind = N.If(N.And(below[k] < t, N.Val(t) <= below[k] + table[k]), k, kind)
        nx = base.copy()
        nx.table = shown
        nx.oven = [o + table[k] - shown[k] for k, o in enumerate(base.oven)]
        out.append((nx, N.And(present, N.Val(t) <= N.Sum(list(table))), kind))
    return out


@dataclass(frozen=True)
class Stop:
    """A state of a run the reference stops at (:func:`..language.judging.states_at`),
    but the game's end: ``guard`` whether the run stops there, ``in_round`` whether it
    lies inside a round (:func:`..language.conditions.state_counts`), ``index`` the step
    it lies in or ends (None: the setup) and, for a state inside that step, ``point``
    the last of the step's events (:data:`..language.parts.EMITTED`) it comes after."""

    state: Any
    guard: Any
    in_round: bool
    index: int | None
    point: str | None = None


def stops(model: GameModel) -> list[Stop]:
    """Every state of the run the reference stops at, in order (the game's end aside):
    the setup's while the waiters are shuffled (:func:`before_first_orders`)
    and once the first orders are taken; in each turn, after its play or pass, after
    its order is placed (:meth:`.game_model.GameModel.inside_turn`) and after it,
    where the round goes on; in an opening, where an owner decides
    (:func:`opening_pause`); after a round's preparation (the next supply
    to shuffle, the new round begun), or before a round that ends as it starts, the
    Mamma Mia! card in the supply to shuffle. Where two stops of the reference show the
    same counts (a pass and the order not placed after it, the supply to shuffle and the
    turn that begins), one stands for both."""
    with N.building(model.ctx):
        s0 = model.S[0]
        out = [Stop(before_first_orders(s0), N.BoolVal(True), True, None),
               Stop(s0, N.BoolVal(True), True, None)]
        for step in model.steps:
            f, t = step.facts, step.index
            before, after = model.S[step.before], model.S[step.after]
            within = inside(model, step.what, before, after, step.sel, f)
            if step.what == "turn":
                out += [Stop(within[0], N.BoolVal(True), True, t, "passed"),
                        Stop(within[1], f["placed"], True, t, "placed_order"),
                        Stop(after, z3.Not(f["round_end"]), True, t)]
            elif step.what == "reveal":
                named, asked = pauses(model, before, f["block"], f)
                out += [Stop(within[0], named, False, t, "revealed"),
                        Stop(within[0], asked, False, t, "named_kind")]
            elif step.round < model.rounds:
                out += [Stop(after, z3.Not(f["ends_at_once"]), True, t),
                        Stop(within[0], f["ends_at_once"], True, t, "leftovers_to_oven")]
        return out


__all__ = ["Stop", "before_first_orders", "inside", "opening_pause", "pauses", "stops"]
