"""Which events of the question vocabulary one step of the game model emits, with
their fields and rules, the same events the reference emits (``mammamia_ref/rules``):
``played``, ``passed``, ``placed_order``, ``drew`` and ``mamma_mia_drawn`` from each
turn step's selectors and facts; ``round_ended``, ``oven_opened`` and
``mamma_mia_taken`` from the turn that ends a round (and from a round's preparation
into a round that ends at once, under ``round_end.last_ingredient``); ``revealed``,
``baked``, ``failed``, ``completed_from_hand`` and ``named_kind`` from each reveal step;
``game_ended`` and ``leftovers_to_oven`` from a round's preparation. Each occurrence is
a z3 count (0 or 1, or a number of cards revealed). :mod:`..language.conditions` sums them into a
condition's terms; ``tests/test_conditions.py`` holds every count to the reference's."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import z3

from mammamia_ref.errors import InternalError
from mammamia_ref.queries.model import num as N
from mammamia_ref.queries.model.alternative import turned_by
from mammamia_ref.queries.model.game_model import NO, SUPPLY, GameModel
from mammamia_ref.queries.model.game_terms import Step
from mammamia_ref.queries.model.oven_rules import (
    NO_KIND,
    T_BOMBASTICA,
    could_bake,
    select_order,
)
from mammamia_ref.queries.model.scoring_model import compare_term
from mammamia_ref.rules.oven import failure_reason, naming_rule
from mammamia_ref.rules.turn import draw_rule
from mammamia_ref.rules.typed_spec import BombasticaHand, Completion, Leftovers, PassOrder, RoundEnd
from mammamia_ref.rules.vocabulary import KINDS, ORDER_TYPE_CODES, ORDERS, ORDERS_OF


def seat_is(who: Any, colour: Any, model: GameModel) -> Any:
    """Whether the seat ``who`` (a term, or a seat the unrolling knows) is ``colour``'s."""
    if colour not in model.colours:
        return N.BoolVal(False)
    same = who == model.colours.index(colour)
    return N.BoolVal(same) if isinstance(same, bool) else same


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


def occurrences(name: str, where: Mapping[str, Any], rule: str | None, step: Step,
                 model: GameModel) -> list[Any]:
    f, v = step.facts, model.v
    if step.what == "turn":
        return _turn_events(name, where, rule, step, model)
    if step.what == "reveal":
        return _reveal_events(name, where, rule, step, model)
    # the transition: the game's end, the leftovers into the oven, or a round that ends
    # as it starts
    if name == "game_ended":   # resolutions: the oven's openings when the game ends
        told = [N.Eq(model.S[step.after].res, int(where["resolutions"]))] \
            if "resolutions" in where else []
        return [_one(f["final"], *told)] if rule in (None, "game_end.three_resolutions") else []
    table = model.S[step.before].table
    if name == "leftovers_to_oven":
        if v.leftovers != Leftovers.OVEN or rule not in (None, "next_round.oven"):
            return []
        test = [_count_is(N.Sum(table), where["cards"])] if "cards" in where else []
        return [_one(z3.Not(f["final"]), *test)]
    last = step.round == model.R   # the round after the last modelled one is not modelled
    if last or v.round_end != RoundEnd.LAST_INGREDIENT:
        return []
    at_once = f["ends_at_once"]
    holder = model.S[step.before].mm
    if name == "round_ended":
        return [_one(at_once, _rule(rule, "round_end.last_ingredient"),
                     *_round_is(where, step.round + 1))]
    if name == "oven_opened":
        return [_one(at_once, _rule(rule, "mamma_mia.holder"),
                     *_seat_where(where, "seat", holder, model),
                     *_oven_cards(where, model.S[step.after], model))]
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
    if model.v.leftovers != Leftovers.OVEN or "owner" in where or rule not in (None, "oven.sort") \
            or (card is not None and card not in KINDS):
        return []
    return [table[KINDS.index(card)] if card is not None else N.Sum(list(table))]


def _seat_where(where: Mapping[str, Any], key: str, who: Any, model: GameModel) -> list[Any]:
    return [seat_is(who, where[key], model)] if key in where else []


def _round_is(where: Mapping[str, Any], r: int) -> list[Any]:
    return [N.BoolVal(int(where["round"]) == r)] if "round" in where else []


def _turn_events(name: str, where: Mapping[str, Any], rule: str | None, step: Step,
                 model: GameModel) -> list[Any]:
    """The events of a turn step: one function an event (:data:`TURN_EVENTS`), given the
    test of the mover's seat (made first, so the model's terms stay in their order)."""
    seat = _seat_where(where, "seat", step.facts["who"], model)
    told = TURN_EVENTS.get(name)
    return told(where, rule, step, model, seat) if told is not None else []


def _played(where: Mapping[str, Any], rule: str | None, step: Step,
            model: GameModel, seat: list[Any]) -> list[Any]:
    a = step.sel
    out = [z3.Not(a.kind == NO), _rule(rule, "turn.play"), *seat]
    if "kind" in where:
        out.append(a.kind == KINDS.index(where["kind"]))
    if "count" in where:
        out.append(a.count == int(where["count"]))
    return [_one(*out)]


def _passed(where: Mapping[str, Any], rule: str | None, step: Step,
            model: GameModel, seat: list[Any]) -> list[Any]:
    return [_one(step.sel.kind == NO, _rule(rule, "turn.pass"),
                 *seat)]


def _placed_order(where: Mapping[str, Any], rule: str | None, step: Step,
                  model: GameModel, seat: list[Any]) -> list[Any]:
    a, who = step.sel, step.facts["who"]
    with_pass = N.And(a.kind == NO, N.BoolVal(model.v.pass_order == PassOrder.ALLOWED))
    by_rule = _either("turn.pass_with_order", with_pass, "turn.place_order", z3.Not(with_pass))
    out = [a.order >= 0, _rule(rule, by_rule), *seat]
    if "order" in where:
        out.append(_order_is(who, a.order, where["order"], model))
    if "order_type" in where:
        placed = select_order(model.colours, who, a.order).type
        out.append(placed == ORDER_TYPE_CODES[where["order_type"]])
    return [_one(*out)]


def _drew(where: Mapping[str, Any], rule: str | None, step: Step,
          model: GameModel, seat: list[Any]) -> list[Any]:
    f, a = step.facts, step.sel
    supply = a.source == SUPPLY
    pop = N.If(a.mm_pop, 1, 0)
    got = N.If(supply, f["moved"] - pop, f["took"])
    short = got < f["wanted"]
    by_rule = _either(draw_rule(model.v, True), short, draw_rule(model.v, False), z3.Not(short))
    out = [_rule(rule, by_rule), *seat]
    if "source" in where:
        out.append(supply if where["source"] == "supply" else z3.Not(supply))
    if "count" in where:
        out.append(got == int(where["count"]))
    if "cards" in where:   # the kinds drawn from the supply (a waiter's draw has none)
        before, after = model.S[step.before].supply, model.S[step.after].supply
        out += [supply, *_kind_counts(where["cards"],
                                      [b - a for b, a in zip(before, after, strict=True)])]
    return [_one(*out)]


def _mamma_mia_drawn(where: Mapping[str, Any], rule: str | None, step: Step,
                     model: GameModel, seat: list[Any]) -> list[Any]:
    f, a = step.facts, step.sel
    # the supply's last card: drawn after the draw's ingredient cards, or alone, and the
    # supply exhausted (``round_end.last_card``)
    lay_last = N.And(f["exhausted"], N.Or(a.mm_last, f["moved"] == 1))
    last = [lay_last == N.BoolVal(bool(where["last_card"]))] if "last_card" in where else []
    if "first_card_of_round" in where:
        last.append(_first_of_round(step, model)
                    == N.BoolVal(bool(where["first_card_of_round"])))
    return [_one(a.mm_pop, _rule(rule, "mamma_mia.draw"),
                 *seat, *last)]


def _round_ended(where: Mapping[str, Any], rule: str | None, step: Step,
                 model: GameModel, seat: list[Any]) -> list[Any]:
    f = step.facts
    cause = f"round_end.{model.v.round_end}"
    by_rule = _either("round_end.stall", f["stall"], cause, z3.Not(f["stall"]))
    return [_one(f["round_end"], _rule(rule, by_rule), *_round_is(where, step.round))]


def _oven_opened(where: Mapping[str, Any], rule: str | None, step: Step,
                 model: GameModel, seat: list[Any]) -> list[Any]:
    holder = model.S[step.after].mm
    return [_one(step.facts["round_end"], _rule(rule, "mamma_mia.holder"),
                 *_seat_where(where, "seat", holder, model),
                 *_oven_cards(where, model.S[step.after], model))]


def _oven_cards(where: Mapping[str, Any], s: Any, model: GameModel) -> list[Any]:
    """``oven_opened``'s ``cards`` (the reference's ``len(state.oven)``) as asked: the
    cards put on the oven this round (``ovl``) and, under ``leftovers=oven``, the last
    round's leftovers, which the model keeps on the table until the opening reveals them
    (``next_round.oven``)."""
    if "cards" not in where:
        return []
    leftovers = N.Sum(list(s.table)) if model.v.leftovers == Leftovers.OVEN else 0
    return [_count_is(s.ovl + leftovers, where["cards"])]


def _mamma_mia_taken(where: Mapping[str, Any], rule: str | None, step: Step,
                     model: GameModel, seat: list[Any]) -> list[Any]:
    f, who = step.facts, step.facts["who"]
    following = (who + 1) % model.n if isinstance(who, int) else \
        N.If(who == model.n - 1, 0, who + 1)
    by_stall = N.And(f["stall"], model.S[step.before].mm == -1)
    out = []
    if model.v.round_end == RoundEnd.LAST_INGREDIENT:
        out.append(_one(f["mm_taken"], _rule(rule, "round_end.last_ingredient"),
                        *_seat_where(where, "seat", who, model)))
    out.append(_one(by_stall, _rule(rule, "round_end.stall"),
                    *_seat_where(where, "seat", following, model)))
    return out


TURN_EVENTS = {"played": _played, "passed": _passed, "placed_order": _placed_order,
               "drew": _drew, "mamma_mia_drawn": _mamma_mia_drawn,
               "round_ended": _round_ended, "oven_opened": _oven_opened,
               "mamma_mia_taken": _mamma_mia_taken}
"""The events a turn step emits, each told by a function of its own."""


def _first_of_round(step: Step, model: GameModel) -> Any:
    """The Mamma Mia! card drawn in ``step`` is the first card drawn from the supply in
    its round: drawn before the draw's ingredient cards (or alone), and no earlier turn of
    the round took a card from the supply. (On an unrolled run only: a free step has no
    round before it.)"""
    a, f = step.sel, step.facts
    earlier = [st for st in model.steps if st.what == "turn" and st.round == step.round
               and st.index < step.index]
    drawn = [N.And(st.sel.source == SUPPLY, st.facts["moved"] > 0) for st in earlier]
    return N.And(N.Or(z3.Not(a.mm_last), f["moved"] == 1), *[z3.Not(d) for d in drawn])


def _reveal_events(name: str, where: Mapping[str, Any], rule: str | None, step: Step,
                   model: GameModel) -> list[Any]:
    f = step.facts
    block = f["block"]
    owner, order, has_order = block.owner, block.order, f["has_order"]
    seat = _seat_where(where, "seat", owner, model)
    which = [_order_is(owner, order, where["order"], model)] if "order" in where else []
    if "order_type" in where:
        which.append(f["type"] == ORDER_TYPE_CODES[where["order_type"]])
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
        used = [t + h for t, h in zip(f["outcome"].from_table, f["from_hand"], strict=True)]
        if "taken" in where:   # the cards it took, from the table and the hand
            which.append(_count_is(N.Sum(used), where["taken"]))
        which += _kind_counts(where.get("used"), used)
        return [_one(f["baked"], _rule(rule, by_rule), *seat, *which, *_turned(where, step, model))]
    if name == "failed":
        rules = _failure_rules(step, model)
        test = [_rule(rule, rules)]
        if "why" in where:
            test.append(_failed_why(str(where["why"]), rules, step, model))
        if "could_bake" in where:   # from the table and the owner's hand it is judged on
            hand = model.hand_of(model.S[step.before], owner)
            could = could_bake(f["table"], hand, select_order(
                model.colours, owner, order, getattr(model, "allowed", None)), model.rules)
            test.append(could if where["could_bake"] else z3.Not(could))
        return [_one(has_order, z3.Not(f["baked"]), *seat, *which, *test,
                     *_turned(where, step, model))]
    if name == "completed_from_hand":
        by = "oven.complete_mandatory" if model.v.completion == Completion.MANDATORY \
            else "oven.complete_from_hand"
        which += _kind_counts(where.get("cards"), f["from_hand"])
        return [_one(f["baked"], N.Sum(f["from_hand"]) > 0, _rule(rule, by), *seat, *which)]
    if name == "named_kind":
        return [_one(*_named_kind(where, rule, step, model), *which)]
    return []


def _turned(where: Mapping[str, Any], step: Step, model: GameModel) -> list[Any]:
    """``turned_by`` of a baked or failed order (:func:`.alternative.turned_by`), its
    deciding event told as this module tells it; only on an unrolled run, whose opening
    the alternative runs again (the unbounded proof asks the event without it)."""
    if "turned_by" not in where:
        return []
    if step not in model.steps:
        raise InternalError("turned_by is told on an unrolled run only")
    deciding = where["turned_by"]   # {event:, where:} (the core grammar)
    name, fields = deciding["event"], deciding.get("where") or {}
    return [turned_by(name, lambda at: _reveal_events(name, fields, None, at, model)[0] > 0,
                      step, model)]


def _count_is(term: Any, want: Any) -> Any:
    """A count a condition gives as a number or as a comparison (``at_least``, ...)."""
    return compare_term(term, want, 0) if isinstance(want, Mapping) else term == int(want)


def _kind_counts(want: Mapping[str, Any] | None, counts: Sequence[Any]) -> list[Any]:
    """A field that counts each kind (``baked``'s ``used``, ...): each kind the condition
    names, its number or comparison."""
    return [_count_is(counts[KINDS.index(k)], w) for k, w in (want or {}).items()]


def _failure_rules(step: Step, model: GameModel) -> dict[str, Any]:
    """The rule that fails a revealed order that does not bake, as a map of rule to
    condition: a kind-naming rule when no kind may be named, ``oven.complete_from_hand``
    when its owner declines, ``oven.bombastica_table_only`` for a Bombastica short under
    ``bombastica_hand=forbidden``, else ``oven.fail``."""
    f, v = step.facts, model.v
    out, typ = f["outcome"], f["type"]
    named_type = z3.Or(typ == ORDER_TYPE_CODES["monotoni"], typ == ORDER_TYPE_CODES["minimale"])
    no_kind = N.And(named_type, z3.Not(N.Or(*out.permitted)))
    declined = N.And(z3.Not(no_kind), out.asked, z3.Not(step.sel.decision.complete))
    forbidden = v.bombastica_hand == BombasticaHand.FORBIDDEN
    table_only = N.And(typ == T_BOMBASTICA, N.BoolVal(forbidden), z3.Not(declined))
    rules: dict[str, Any] = {
        "oven.complete_from_hand": declined, "oven.bombastica_table_only": table_only,
        "oven.fail": N.And(z3.Not(no_kind), z3.Not(declined), z3.Not(table_only))}
    for kind in ("monotoni", "minimale"):
        named = naming_rule(kind, v.monotoni_kind, v.minimale_lowest)
        rules[named] = z3.Or(rules.get(named, N.BoolVal(False)),
                             N.And(no_kind, typ == ORDER_TYPE_CODES[kind]))
    return rules


def _failed_why(want: str, rules: Mapping[str, Any], step: Step, model: GameModel) -> Any:
    """The ``why`` of a failed order: the reference's :func:`~mammamia_ref.rules.oven.
    failure_reason` of the rule that failed it and the order's type."""
    total = model.rules.parameters.bombastica_total
    typ = step.facts["type"]
    return z3.Or(N.BoolVal(False), *[
        N.And(when, typ == code) for rule, when in rules.items()
        for kind, code in ORDER_TYPE_CODES.items() if failure_reason(rule, kind, total) == want])


def _named_kind(where: Mapping[str, Any], rule: str | None, step: Step,
                model: GameModel) -> list[Any]:
    """``oven.monotoni`` / ``oven.minimale`` (or their variants' rules): a revealed
    Monotoni or Minimale for which some kind may be named has the kind its owner names
    (:func:`.oven_rules.resolve_order`: ``named`` is no kind exactly when none may be)."""
    f, v = step.facts, model.v
    named = step.sel.decision.named
    out = [f["has_order"], named != NO_KIND]
    if rule is not None:
        typ = f["type"]   # the rule each type is named under: the reference's naming_rule
        out.append(z3.Or(*[
            N.And(typ == ORDER_TYPE_CODES[kind],
                  N.BoolVal(rule == naming_rule(kind, v.monotoni_kind, v.minimale_lowest)))
            for kind in ("monotoni", "minimale")]))
    if "kind" in where:
        out.append(named == KINDS.index(where["kind"]))
    if "on_table" in where:
        table = f["table"]
        out.append(z3.Or(*[N.And(named == k, table[k] == int(where["on_table"]))
                           for k in range(len(KINDS))]))
    return out


__all__ = ["occurrences", "seat_is"]
