"""The fast engine's chapter: opening the oven (as :mod:`mammamia_ref.rules.oven`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from mammamia_ref.errors import InternalError
from mammamia_ref.rules.oven import (
    TYPE_RULES,
    Outcome,
    bombastica_outcome,
    bombastica_shortfall,
    failure_reason,
    fixed_order_outcome,
    nameable_kinds,
    naming_rule,
    ways_to_take,
)
from mammamia_ref.rules.vocabulary import (
    KINDS,
    covers,
    format_counts,
    shortfall,
)
from mammamia_ref.sim.fast_state import (
    _COMPLETE,
    _NAME_KIND,
    _REVEAL,
    BOMBASTICA,
    CARD_NAMES,
    MM,
    NO_KINDS,
    ORDER_COLOUR,
    ORDER_PERSONAL,
    ORDER_TYPE,
    ORDER_TYPE_NAME,
    FastState,
    Rules,
    _revealed,
    tell,
)


def reveal_next(state: FastState) -> None:
    """``oven.open``: turn up the next card; an ingredient is sorted onto the table
    (``oven.sort``), an order is judged at once, its owner deciding where there is a
    choice. (Ingredients in a row are turned up in one go: nothing is decided between
    them.) The order's code is handed down the judgement rather than read back from
    ``state.reveal``."""
    oven, table, events = state.oven, state.table, state.events
    position, last = 0, len(oven) - 1
    card = oven[0]
    while card < MM:
        table[card] += 1
        if position == last:
            if events is not None:
                tell_sorted(state, oven)
            oven.clear()
            return
        position += 1
        card = oven[position]
    if events is not None:
        tell_sorted(state, oven[:position])
    del oven[:position + 1]
    reveal_order(state, card)


def reveal_order(state: FastState, card: int) -> None:
    """``oven.open`` of an order: its owner decides about it; judged at once
    (``oven.standard``, ``oven.one_of_each``, ``oven.bombastica``), or a kind named
    (``oven.monotoni``, ``oven.minimale``), by its owner where there is a choice."""
    events = state.events
    state.reveal = card
    state.reveal_kind = None
    state.current = state.seat_of_colour[ORDER_COLOUR[card]]
    need = state.rules.need[card]
    if events is not None:
        tell(state, "revealed", "oven.open", ("card", CARD_NAMES[card]),
             ("owner", state.current))
    if need is not None:  # oven.standard, oven.one_of_each
        if events is not None:
            tell_needs(state, card, need)
        bake_or_ask(state, card, need)
    elif ORDER_TYPE[card] == BOMBASTICA:
        if events is not None:
            tell(state, "needs", "oven.bombastica", ("order", CARD_NAMES[card]),
                 ("total", state.rules.bombastica_total))
        pizza_bombastica(state, card)
    else:  # oven.monotoni, oven.minimale
        kinds = kind_choices(state, card)
        if not kinds:
            oven_fail(state, card, _naming_rule(state, card))
        elif len(kinds) > 1:
            state.step = _NAME_KIND
        else:
            name_kind(state, card, kinds[0])


def tell_sorted(state: FastState, cards: Sequence[int]) -> None:
    """The reference's ``revealed`` event of each ingredient card sorted onto the table
    (``oven.sort``), in order."""
    for card in cards:
        tell(state, "revealed", "oven.sort", ("card", KINDS[card]))


_KIND_CHOICES: Final[dict[tuple[int, tuple[int, ...], tuple[int, ...], Rules],
                          tuple[int, ...]]] = {}
_KIND_CHOICES_LIMIT: Final = 1 << 14  # remembered answers, at most (then forgotten, all at once)


def kind_choices(state: FastState, order: int) -> tuple[int, ...]:
    """``oven.monotoni`` / ``oven.minimale``: :func:`~mammamia_ref.rules.oven.nameable_kinds`
    for the revealed order, remembered by everything it is given: the same order, table
    and hand recur (the kinds are asked for at the reveal, again for the decision, and in
    other games)."""
    rules, table, hand = state.rules, tuple(state.table), state.hands[state.current]
    key = (order, table, hand, rules)
    kinds = _KIND_CHOICES.get(key)
    if kinds is None:
        if len(_KIND_CHOICES) >= _KIND_CHOICES_LIMIT:
            _KIND_CHOICES.clear()
        kinds = _KIND_CHOICES[key] = nameable_kinds(
            ORDER_TYPE_NAME[order], table, ORDER_PERSONAL[order], hand, rules.need_named[order],
            rules.monotoni_kind, rules.minimale_lowest, rules.completion)
    return kinds


def name_kind(state: FastState, order: int, kind: int) -> None:
    """The owner names the kind of a Monotoni or Minimale; it is then judged as fixed."""
    state.reveal_kind = kind
    need = state.rules.need_named[order][kind]
    if state.events is not None:
        tell(state, "named_kind", _naming_rule(state, order), ("order", CARD_NAMES[order]),
             ("kind", KINDS[kind]))
        tell_needs(state, order, need)
    bake_or_ask(state, order, need)


def _naming_rule(state: FastState, order: int) -> str:
    """:func:`~mammamia_ref.rules.oven.naming_rule` of a Monotoni or Minimale."""
    rules = state.rules
    return naming_rule(ORDER_TYPE_NAME[order], rules.monotoni_kind, rules.minimale_lowest)


def tell_needs(state: FastState, order: int, need: Sequence[int]) -> None:
    """The reference's ``needs`` event of an order with a fixed requirement (a Monotoni
    or Minimale once its kind is named)."""
    tell(state, "needs", TYPE_RULES[ORDER_TYPE_NAME[order]], ("order", CARD_NAMES[order]),
         ("cards", format_counts(tuple(need))))


def requirement(state: FastState, order: int) -> tuple[int, ...]:
    """The requirement of ``order``, the revealed order (with the named kind for a
    Monotoni or Minimale)."""
    need = state.rules.need[order]
    if need is None:
        if state.reveal_kind is None:
            raise InternalError("a Monotoni or Minimale is judged only once its kind is named")
        return state.rules.need_named[order][state.reveal_kind]
    return need


_BAKE: Final = Outcome.BAKE  # looked up once (Enum members)
_FAIL: Final = Outcome.FAIL
_FAIL_TABLE_ONLY: Final = Outcome.FAIL_TABLE_ONLY
_FORCED: Final = Outcome.FORCED


def bake_or_ask(state: FastState, order: int, need: tuple[int, ...]) -> None:
    """An order with a fixed requirement ``need``, judged by
    :func:`~mammamia_ref.rules.oven.fixed_order_outcome`."""
    table = state.table
    outcome = fixed_order_outcome(need, table, state.hands[state.current], state.rules.completion)
    if outcome is _BAKE:
        bake(state, order, need, NO_KINDS)
    elif outcome is _FAIL:
        oven_fail(state, order, "oven.fail")
    elif outcome is _FORCED:
        missing = shortfall(need, tuple(table))
        bake(state, order, [n - m for n, m in zip(need, missing, strict=True)], missing,
             "oven.complete_mandatory")
    else:
        state.step = _COMPLETE


def pizza_bombastica(state: FastState, order: int) -> None:
    """``oven.bombastica``, judged by :func:`~mammamia_ref.rules.oven.bombastica_outcome`:
    it takes the whole table."""
    rules, hand = state.rules, state.hands[state.current]
    outcome = bombastica_outcome(state.table, hand, rules.bombastica_total, rules.bombastica_hand,
                                 rules.completion)
    total = rules.bombastica_total
    if outcome is _BAKE:
        bake(state, order, state.table[:], NO_KINDS)
    elif outcome is _FAIL_TABLE_ONLY:
        oven_fail(state, order, "oven.bombastica_table_only")
    elif outcome is _FAIL:
        oven_fail(state, order, "oven.fail")
    elif outcome is _FORCED:
        bake(state, order, state.table[:],
             hand_choices(hand, bombastica_shortfall(state.table, total))[0],
             "oven.complete_mandatory")
    else:
        state.step = _COMPLETE


_HAND_CHOICES: Final[dict[tuple[tuple[int, ...], int], tuple[tuple[int, ...], ...]]] = {}


def hand_choices(hand: tuple[int, ...], total: int) -> tuple[tuple[int, ...], ...]:
    """:func:`~mammamia_ref.rules.oven.ways_to_take`, cached: there are few hands."""
    key = (hand, total)
    ways = _HAND_CHOICES.get(key)
    if ways is None:
        ways = _HAND_CHOICES[key] = tuple(ways_to_take(hand, total))
    return ways


def completions(state: FastState) -> Sequence[Sequence[int]]:
    """The hand cards that may complete the revealed order: exactly what is missing, or
    for a Bombastica any choice making up the shortfall."""
    hand, order = state.hands[state.current], _revealed(state)
    if ORDER_TYPE[order] == BOMBASTICA:
        return hand_choices(hand, bombastica_shortfall(state.table, state.rules.bombastica_total))
    missing = shortfall(requirement(state, order), tuple(state.table))
    return [missing] if covers(hand, missing) else []


def oven_complete(state: FastState, cards: Sequence[int]) -> None:
    """``oven.complete_from_hand`` (``oven.complete_mandatory``): the owner adds these
    hand cards and the order bakes."""
    order = _revealed(state)
    rule = "oven.complete_mandatory" if state.rules.mandatory else "oven.complete_from_hand"
    if ORDER_TYPE[order] == BOMBASTICA:
        bake(state, order, state.table[:], cards, rule)
    else:
        bake(state, order, [n - c for n, c in zip(requirement(state, order), cards, strict=True)],
             cards, rule)


def bake(state: FastState, order: int, from_table: Sequence[int],
         from_hand: Sequence[int], completion_rule: str = "oven.complete_from_hand") -> None:
    """``oven.bake``: the order to its owner's delivered stack, the ingredients it uses
    (from table and hand) to the used pile; the rest stays (``oven.leftovers``). The
    holder opens the next card. (``completion_rule``: the rule hand cards completed it
    under, if they did.)"""
    seat, holder = state.current, state.mamma_mia
    if holder is None:
        raise InternalError("no Mamma Mia! holder at the oven")
    if state.events is not None:
        tell_baked(state, order, from_table, from_hand, completion_rule)
    table, used = state.table, state.used
    for kind, count in enumerate(from_table):
        if count:
            table[kind] -= count
            used[kind] += count
    if any(from_hand):
        for kind, count in enumerate(from_hand):
            used[kind] += count
        state.hands[seat] = tuple([h - c for h, c in zip(state.hands[seat], from_hand,
                                                         strict=True)])
    state.delivered[seat] += (order,)
    state.reveal = state.reveal_kind = None
    state.step = _REVEAL
    state.current = holder


def tell_baked(state: FastState, order: int, from_table: Sequence[int],
               from_hand: Sequence[int], completion_rule: str) -> None:
    """The reference's events of a bake: ``completed_from_hand`` if hand cards went in,
    then ``baked`` (``oven.bombastica`` for a Bombastica) with the ingredients it used."""
    seat, name = ("seat", state.current), ("order", CARD_NAMES[order])
    if any(from_hand):
        tell(state, "completed_from_hand", completion_rule, seat, name,
             ("cards", format_counts(tuple(from_hand))))
    rule = "oven.bombastica" if ORDER_TYPE[order] == BOMBASTICA else "oven.bake"
    tell(state, "baked", rule, seat, name,
         ("used", format_counts(tuple(t + h for t, h in zip(from_table, from_hand,
                                                             strict=True)))))


def oven_fail(state: FastState, order: int, rule: str) -> None:
    """``oven.fail`` (by ``rule``; why in the reference's words,
    :func:`~mammamia_ref.rules.oven.failure_reason`): the order goes under its owner's
    waiter; the table keeps its cards. The holder opens the next card."""
    holder = state.mamma_mia
    if holder is None:
        raise InternalError("no Mamma Mia! holder at the oven")
    if state.events is not None:
        why = failure_reason(rule, ORDER_TYPE_NAME[order], state.rules.bombastica_total)
        tell(state, "failed", rule, ("seat", state.current), ("order", CARD_NAMES[order]),
             ("why", why))
    state.waiters[state.current] += (order,)
    state.reveal = state.reveal_kind = None
    state.step = _REVEAL
    state.current = holder


