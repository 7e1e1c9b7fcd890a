"""Chapter: opening the oven. Cards are revealed in the order they were played;
ingredients are sorted onto the table, and each order is judged as it turns up.

The owner of a revealed order decides only where the rules leave a choice: the kind
of a Monotoni, the kind of a Minimale among tied kinds, and whether (and, for a
Bombastica, with which cards) to complete it from hand. Everything else follows.
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from enum import StrEnum
from functools import cache

from mammamia_ref.errors import IllegalActionError
from mammamia_ref.rules.actions import Action, Complete, Decline, NameKind
from mammamia_ref.rules.events import Event, event
from mammamia_ref.rules.ruleset import order_shapes
from mammamia_ref.rules.state import GameState, Parameters, Reveal, Step, holder, replace, revealed
from mammamia_ref.rules.typed_spec import BombasticaHand, Completion, MinimaleLowest, MonotoniKind
from mammamia_ref.rules.vocabulary import (
    KIND_INDEX,
    KINDS,
    NO_CARDS,
    ORDERS,
    Counts,
    add,
    covers,
    format_counts,
    shortfall,
    subtract,
)

Transition = tuple[GameState, tuple[Event, ...]]

ORDER_TYPE_OF: dict[str, str] = {order_id: order.type for order_id, order in ORDERS.items()}


@cache
def named_needs(parameters: Parameters) -> dict[str, tuple[Counts, ...]]:
    """For a Monotoni or Minimale, its requirement with each kind named (by kind index),
    under a game's counts (``oven.monotoni``, ``oven.minimale``)."""
    shapes = order_shapes(parameters)
    return {order_id: tuple(order.requirement(shapes, kind) if kind != order.personal
                            else NO_CARDS for kind in KINDS)
            if order.type in ("monotoni", "minimale") else ()
            for order_id, order in ORDERS.items()}

TYPE_RULES = {"standard": "oven.standard", "one_of_each": "oven.one_of_each",
              "bombastica": "oven.bombastica", "monotoni": "oven.monotoni",
              "minimale": "oven.minimale"}


def reveal_next(state: GameState) -> Transition:
    """``oven.open``: turn up the next card. An ingredient goes to the table, sorted by
    kind (``oven.sort``); an order is judged at once."""
    card, rest = state.oven[0], state.oven[1:]
    state = replace(state, oven=rest)
    if card in KIND_INDEX:
        table = add(state.table, tuple(int(kind == card) for kind in KINDS))
        return replace(state, table=table), (event("revealed", "oven.sort", card=card),)
    owner = state.seat_of(ORDERS[card].colour)
    state, events = judge(replace(state, reveal=Reveal(card), current=owner))
    return state, (event("revealed", "oven.open", card=card, owner=owner), *events)


def judge(state: GameState) -> Transition:
    """Judge the revealed order by its type, asking its owner where there is a choice."""
    order = ORDERS[revealed(state).order]
    if order.type == "bombastica":
        state, events = pizza_bombastica(state)
        total = state.parameters.bombastica_total
        return state, (event("needs", "oven.bombastica", order=order.id, total=total), *events)
    if order.type in ("monotoni", "minimale"):
        kinds = kind_choices(state)
        if not kinds:
            return fail(state, kind_rule(state))
        if len(kinds) > 1:
            return replace(state, step=Step.NAME_KIND), ()
        return name_kind(state, NameKind(kinds[0]))
    needs = event("needs", TYPE_RULES[order.type], order=order.id,
                  cards=format_counts(order.requirement(order_shapes(state.parameters))))
    state, events = settle(state)
    return state, (needs, *events)


def kind_choices(state: GameState) -> tuple[str, ...]:
    """The kinds the owner may name for the revealed Monotoni or Minimale (see
    :func:`nameable_kinds`)."""
    order = ORDERS[revealed(state).order]
    kinds = nameable_kinds(ORDER_TYPE_OF[order.id], state.table, KIND_INDEX[order.personal],
                           state.hands[state.current].ingredients,
                           named_needs(state.parameters)[order.id],
                           state.flags.monotoni_kind, state.flags.minimale_lowest,
                           state.flags.completion)
    return tuple(KINDS[kind] for kind in kinds)


def nameable_kinds(order_type: str, table: Sequence[int], personal: int, hand: Sequence[int],
                   needs: Sequence[Sequence[int]], monotoni_kind: str, minimale_lowest: str,
                   completion: str) -> tuple[int, ...]:
    """``oven.monotoni`` / ``oven.minimale``: the kind indices the owner may name. Under
    ``oven.complete_mandatory`` an owner who can bake it must: only the kinds that the
    table and hand can make (``needs[kind]`` is the requirement when ``kind`` is named)
    are offered, if there are any."""
    if order_type == "monotoni":
        kinds = monotoni_kinds(table, personal, monotoni_kind)
    else:
        kinds = minimale_kinds(table, personal, minimale_lowest)
    if completion == _MANDATORY and kinds:
        have = tuple(map(operator.add, table, hand))
        makeable = tuple(kind for kind in kinds if covers(have, needs[kind]))
        return makeable or kinds
    return kinds


def ever_nameable(personal: int) -> tuple[int, ...]:
    """``oven.monotoni``, ``oven.minimale``: the kind indices a Monotoni or Minimale may be
    named on some table, every kind but its personal one. :func:`monotoni_kinds` and
    :func:`minimale_kinds` choose among them; a player may judge an order by them without
    asking about every table it might meet.

    >>> ever_nameable(3)
    (0, 1, 2, 4)
    """
    return _EVER_NAMEABLE[personal]


_EVER_NAMEABLE = tuple(tuple(kind for kind in range(len(KINDS)) if kind != personal)
                       for personal in range(len(KINDS)))
# The flag values the fast engine's judging compares with, looked up once (see _BAKE).
_ANY_OTHER, _ALL_KINDS = MonotoniKind.ANY_OTHER, MinimaleLowest.ALL_KINDS
_MANDATORY = Completion.MANDATORY


def monotoni_kinds(table: Sequence[int], personal: int, monotoni_kind: str) -> tuple[int, ...]:
    """``oven.monotoni``: any kind index but the personal one (:func:`ever_nameable`);
    under ``monotoni_kind=on_table`` (``oven.monotoni_on_table``) only kinds on the
    table."""
    return tuple(kind for kind in _EVER_NAMEABLE[personal]
                 if monotoni_kind == _ANY_OTHER or table[kind] > 0)


def minimale_kinds(table: Sequence[int], personal: int, minimale_lowest: str) -> tuple[int, ...]:
    """``oven.minimale``: the kind indices with the lowest non-zero count on the table,
    never the personal kind. The lowest is taken over the eligible kinds; under
    ``minimale_lowest=all_kinds`` (``oven.minimale_all_kinds``) over every kind present,
    so a personal kind alone at the lowest count leaves no choice.

    >>> minimale_kinds((2, 3, 2, 2, 0), 3, MinimaleLowest.ELIGIBLE_KINDS)
    (0, 2)
    """
    eligible = [kind for kind in _EVER_NAMEABLE[personal] if table[kind] > 0]
    candidates = eligible if minimale_lowest != _ALL_KINDS \
        else [kind for kind in range(len(table)) if table[kind] > 0]
    if not candidates:
        return ()
    lowest = min(table[kind] for kind in candidates)
    return tuple(kind for kind in eligible if table[kind] == lowest)


def pizza_monotoni_kinds(table: Counts, personal: str, rule_variant: MonotoniKind
                         ) -> tuple[str, ...]:
    """:func:`monotoni_kinds` by kind name."""
    return tuple(KINDS[k] for k in monotoni_kinds(table, KIND_INDEX[personal], rule_variant))


def pizza_minimale_kinds(table: Counts, personal: str, lowest_over: MinimaleLowest
                         ) -> tuple[str, ...]:
    """:func:`minimale_kinds` by kind name.

    >>> pizza_minimale_kinds((2, 3, 2, 2, 0), "pepper", MinimaleLowest.ELIGIBLE_KINDS)
    ('salami', 'mushroom')
    """
    return tuple(KINDS[k] for k in minimale_kinds(table, KIND_INDEX[personal], lowest_over))


def kind_rule(state: GameState) -> str:
    """The rule the revealed Monotoni's or Minimale's kind is named under."""
    return naming_rule(ORDER_TYPE_OF[revealed(state).order], state.flags.monotoni_kind,
                       state.flags.minimale_lowest)


def naming_rule(order_type: str, monotoni_kind: str, minimale_lowest: str) -> str:
    """``oven.monotoni`` (``oven.monotoni_on_table`` under ``monotoni_kind=on_table``) or
    ``oven.minimale`` (``oven.minimale_all_kinds`` under ``minimale_lowest=all_kinds``):
    the rule a Monotoni's or Minimale's kind is named under (the fast engine's too)."""
    if order_type == "monotoni":
        return "oven.monotoni_on_table" if monotoni_kind == MonotoniKind.ON_TABLE \
            else "oven.monotoni"
    return "oven.minimale_all_kinds" if minimale_lowest == _ALL_KINDS else "oven.minimale"


def name_kind(state: GameState, action: NameKind) -> Transition:
    """The owner names the kind of a Monotoni or Minimale; then it is judged as fixed."""
    rule = kind_rule(state)
    if action.kind not in kind_choices(state):
        raise IllegalActionError(f"{action.kind} cannot be named for {revealed(state).order} here",
                                 rule=rule, action=action)
    state = replace(state, reveal=replace(revealed(state), kind=action.kind))
    order = ORDERS[revealed(state).order]
    settled, events = settle(state)
    return settled, (event("named_kind", rule, order=order.id, kind=action.kind),
                     event("needs", TYPE_RULES[order.type], order=order.id,
                           cards=format_counts(order.requirement(order_shapes(state.parameters),
                                                                 action.kind))),
                     *events)


def requirement(state: GameState) -> Counts:
    return ORDERS[revealed(state).order].requirement(order_shapes(state.parameters),
                                                     revealed(state).kind)


class Outcome(StrEnum):
    """What the chapter makes of a revealed order before its owner says anything."""

    BAKE = "bake"          # the table alone makes it
    FAIL = "fail"          # table and hand cannot make it (or the variant forbids the hand)
    FAIL_TABLE_ONLY = "fail_table_only"  # a Bombastica short under bombastica_hand=forbidden
    ASK = "ask"            # the owner may complete it from hand, or decline
    FORCED = "forced"      # the owner must complete it, and there is one way


# The members looked up once, for the two judging functions the fast engine calls in its
# hot loop: reading an Enum class attribute goes through the metaclass's ``__getattr__``
# hook, several times the cost of the judgement itself (Python 3.11).
_BAKE, _FAIL, _FAIL_TABLE_ONLY, _ASK, _FORCED = (Outcome.BAKE, Outcome.FAIL,
                                                 Outcome.FAIL_TABLE_ONLY, Outcome.ASK,
                                                 Outcome.FORCED)


def fixed_order_outcome(need: Sequence[int], table: Sequence[int], hand: Sequence[int],
                        completion: str) -> Outcome:
    """An order with a fixed requirement: ``oven.bake`` if the table meets it; else the
    owner may complete it from hand (``oven.complete_from_hand``; forced under
    ``completion=mandatory``, ``oven.complete_mandatory``); else ``oven.fail``."""
    if covers(table, need):
        return _BAKE
    if not covers(map(operator.add, table, hand), need):
        return _FAIL
    return _FORCED if completion == _MANDATORY else _ASK


def bombastica_shortfall(table: Sequence[int], total: int) -> int:
    """``oven.bombastica``: how many more ingredients the table needs for a Bombastica of
    ``total`` cards (0 if none)."""
    return max(0, total - sum(table))


def bombastica_outcome(table: Sequence[int], hand: Counts, total: int, bombastica_hand: str,
                       completion: str) -> Outcome:
    """``oven.bombastica``: baked on a table of at least ``total`` (15 unless a house rule
    says otherwise); a shortfall may be made up
    from hand (not under ``bombastica_hand=forbidden``, ``oven.bombastica_table_only``),
    forced under ``completion=mandatory`` when there is a single way."""
    short = bombastica_shortfall(table, total)
    if not short:
        return _BAKE
    if bombastica_hand == BombasticaHand.FORBIDDEN:
        return _FAIL_TABLE_ONLY
    if sum(hand) < short:
        return _FAIL
    if completion == _MANDATORY and len(ways_to_take(hand, short)) == 1:
        return _FORCED
    return _ASK


def settle(state: GameState) -> Transition:
    """An order with a fixed requirement, judged by :func:`fixed_order_outcome`."""
    need = requirement(state)
    outcome = fixed_order_outcome(need, state.table, state.hands[state.current].ingredients,
                                  state.flags.completion)
    if outcome is Outcome.BAKE:
        return bake(state, from_table=need, from_hand=NO_CARDS)
    if outcome is Outcome.FAIL:
        return fail(state, "oven.fail")
    if outcome is Outcome.FORCED:
        missing = shortfall(need, state.table)
        return bake(state, from_table=subtract(need, missing), from_hand=missing,
                    completion_rule="oven.complete_mandatory")
    return replace(state, step=Step.COMPLETE), ()


def pizza_bombastica(state: GameState) -> Transition:
    """``oven.bombastica``, judged by :func:`bombastica_outcome`. It takes the whole
    table, however many."""
    total = state.parameters.bombastica_total
    outcome = bombastica_outcome(state.table, state.hands[state.current].ingredients, total,
                                 state.flags.bombastica_hand, state.flags.completion)
    if outcome is Outcome.BAKE:
        return bake(state, from_table=state.table, from_hand=NO_CARDS)
    if outcome is Outcome.FAIL_TABLE_ONLY:
        return fail(state, "oven.bombastica_table_only")
    if outcome is Outcome.FAIL:
        return fail(state, "oven.fail")
    if outcome is Outcome.FORCED:
        return bake(state, from_table=state.table, from_hand=completions(state)[0],
                    completion_rule="oven.complete_mandatory")
    return replace(state, step=Step.COMPLETE), ()


def completions(state: GameState) -> tuple[Counts, ...]:
    """The hand cards that may complete the revealed order: exactly what is missing, or
    for a Bombastica any choice of hand cards that makes up the shortfall."""
    hand = state.hands[state.current].ingredients
    order = ORDERS[revealed(state).order]
    if order.type != "bombastica":
        missing = shortfall(requirement(state), state.table)
        return (missing,) if covers(hand, missing) else ()
    return tuple(ways_to_take(hand, bombastica_shortfall(state.table,
                                                         state.parameters.bombastica_total)))


def ways_to_take(hand: Counts, total: int) -> list[Counts]:
    """``oven.bombastica``: every way to take ``total`` cards from ``hand``, as count
    maps, the most of the first kind first (the order the owner's choices are listed in).

    >>> ways_to_take((1, 2), 2)
    [(1, 1), (0, 2)]
    """
    if not hand:
        return [()] if total == 0 else []
    if len(hand) == 1:  # the last kind gives what is left, if it holds that many
        return [(total,)] if 0 <= total <= hand[0] else []
    rest = hand[1:]
    # From the most of the first kind down to the fewest that leaves the other kinds no
    # more than they hold (fewer would only fail). The fast engine asks this at every
    # Bombastica decision: the bounds by comparison (``min`` and ``max`` are slow calls
    # in Python 3.11), no comprehension per level.
    most, fewest = hand[0], total - sum(rest)
    ways: list[Counts] = []
    for first in range(most if most < total else total, fewest - 1 if fewest > 0 else -1, -1):
        for way in ways_to_take(rest, total - first):
            ways.append((first, *way))
    return ways


def legal_actions(state: GameState) -> tuple[Action, ...]:
    if state.step == Step.NAME_KIND:
        return tuple(NameKind(kind) for kind in kind_choices(state))
    options = tuple(Complete(cards) for cards in completions(state))
    return (*options, Decline()) if may_decline(state.flags.completion) else options


def complete(state: GameState, action: Complete | Decline) -> Transition:
    """The owner completes the revealed order from hand, or declines and it fails."""
    rule = "oven.complete_from_hand"
    if isinstance(action, Decline):
        if not may_decline(state.flags.completion):
            raise IllegalActionError("an owner who can complete must complete",
                                     rule="oven.complete_mandatory", action=action)
        return fail(state, rule)
    bombastica = ORDERS[revealed(state).order].type == "bombastica"
    if action.cards not in completions(state):
        raise IllegalActionError("these hand cards do not complete the order exactly",
                                 rule="oven.bombastica" if bombastica else rule, action=action)
    if state.flags.completion == _MANDATORY:
        rule = "oven.complete_mandatory"
    if bombastica:
        return bake(state, from_table=state.table, from_hand=action.cards, completion_rule=rule)
    return bake(state, from_table=subtract(requirement(state), action.cards),
                from_hand=action.cards, completion_rule=rule)


def may_decline(completion: Completion) -> bool:
    """``oven.complete_from_hand``: the owner may decline to complete from hand, and the
    order fails; not under ``completion=mandatory`` (``oven.complete_mandatory``)."""
    return completion != _MANDATORY


def bake(state: GameState, *, from_table: Counts, from_hand: Counts,
         completion_rule: str | None = None) -> Transition:
    """``oven.bake``: the order goes to its owner's delivered stack and the ingredients it
    uses, from table and hand, to the used pile. Unused ones stay (``oven.leftovers``)."""
    seat, order = state.current, revealed(state).order
    hand = state.hands[seat]
    state = state.with_hand(seat, replace(hand, ingredients=subtract(hand.ingredients, from_hand)))
    state = state.with_delivered(seat, state.delivered[seat] + (order,))
    state = replace(state, table=subtract(state.table, from_table),
                    used=add(state.used, add(from_table, from_hand)), reveal=None, step=Step.REVEAL,
                    current=holder(state))
    events = []
    if any(from_hand):
        events.append(event("completed_from_hand", completion_rule or "oven.complete_from_hand",
                            seat=seat, order=order, cards=format_counts(from_hand)))
    rule = "oven.bombastica" if ORDERS[order].type == "bombastica" else "oven.bake"
    events.append(event("baked", rule, seat=seat, order=order,
                        used=format_counts(add(from_table, from_hand))))
    return state, tuple(events)


def fail(state: GameState, rule: str) -> Transition:
    """``oven.fail``: the order goes face down under its owner's waiter; the table keeps
    every card. ``rule`` is the rule that failed it (:func:`failure_reason`)."""
    seat, order = state.current, revealed(state).order
    why = failure_reason(rule, ORDER_TYPE_OF[order], state.parameters.bombastica_total)
    state = state.with_waiter(seat, state.waiters[seat] + (order,))
    state = replace(state, reveal=None, step=Step.REVEAL, current=holder(state))
    return state, (event("failed", rule, seat=seat, order=order, why=why),)


def could_bake(state: GameState, order_id: str) -> bool:
    """Whether some decisions the rules offer its owner would bake ``order_id`` on
    ``state``'s table (the state it is judged in): its outcome before the owner says
    anything (:func:`fixed_order_outcome`, :func:`bombastica_outcome`, for a Monotoni or
    Minimale with any kind the kind rule offers) is not a failure. What the question
    language's ``could_bake`` of a failed order says: it failed although its owner
    could have made it bake."""
    order, flags = ORDERS[order_id], state.flags
    hand = state.hands[state.seat_of(order.colour)].ingredients
    if order.type == "bombastica":
        outcome = bombastica_outcome(state.table, hand, state.parameters.bombastica_total,
                                     flags.bombastica_hand, Completion.OPTIONAL)
        return outcome not in (_FAIL, _FAIL_TABLE_ONLY)
    if order.type in ("monotoni", "minimale"):
        needs = named_needs(state.parameters)[order_id]
        kinds = nameable_kinds(order.type, state.table, KIND_INDEX[order.personal], hand,
                               needs, flags.monotoni_kind, flags.minimale_lowest,
                               Completion.OPTIONAL)
        return any(fixed_order_outcome(needs[kind], state.table, hand,
                                       Completion.OPTIONAL) != _FAIL for kind in kinds)
    need = order.requirement(order_shapes(state.parameters))
    return fixed_order_outcome(need, state.table, hand, Completion.OPTIONAL) != _FAIL


def failure_reason(rule: str, order_type: str, total: int) -> str:
    """Why an order failed, in words (the ``failed`` event's ``why``), from the rule that
    failed it and the order's type: a kind-naming rule (no kind can be named),
    ``oven.complete_from_hand`` (its owner declined), ``oven.bombastica_table_only`` or
    ``oven.fail`` (the cards fall short; a Bombastica's ``total`` named). The z3 game
    model tells the field from the same function."""
    if rule == "oven.complete_from_hand":
        return "the owner declined"
    if rule == "oven.bombastica_table_only":
        return f"the table holds fewer than {total}"
    if rule == "oven.fail":
        return f"the table and the hand hold fewer than {total}" \
            if order_type == "bombastica" else "the table and the hand fall short"
    return "no kind can be named"
