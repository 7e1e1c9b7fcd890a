"""Chapter: opening the oven. Cards are revealed in the order they were played;
ingredients are sorted onto the table, and each order is judged as it turns up.

The owner of a revealed order decides only where the rules leave a choice: the kind
of a Monotoni, the kind of a Minimale among tied kinds, and whether (and, for a
Bombastica, with which cards) to complete it from hand. Everything else follows.
"""

from __future__ import annotations

from dataclasses import replace

from mammamia_ref.errors import IllegalActionError
from mammamia_ref.rules.actions import Action, Complete, Decline, NameKind
from mammamia_ref.rules.events import Event, event
from mammamia_ref.rules.state import GameState, Reveal
from mammamia_ref.rules.vocabulary import (
    KIND_INDEX,
    KINDS,
    NO_CARDS,
    ORDER_TYPES,
    ORDERS,
    Counts,
    add,
    covers,
    format_counts,
    shortfall,
    subtract,
)

Step = tuple[GameState, tuple[Event, ...]]

TYPE_RULES = {"standard": "oven.standard", "one_of_each": "oven.one_of_each",
              "bombastica": "oven.bombastica", "monotoni": "oven.monotoni",
              "minimale": "oven.minimale"}


def reveal_next(state: GameState) -> Step:
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


def judge(state: GameState) -> Step:
    """Judge the revealed order by its type, asking its owner where there is a choice."""
    order = ORDERS[state.reveal.order]
    if order.type == "bombastica":
        state, events = pizza_bombastica(state)
        total = ORDER_TYPES["bombastica"]["total"]
        return state, (event("needs", "oven.bombastica", order=order.id, total=total), *events)
    if order.type in ("monotoni", "minimale"):
        kinds = kind_choices(state)
        if not kinds:
            return fail(state, kind_rule(state), "no kind can be named")
        if len(kinds) > 1:
            return replace(state, step="name_kind"), ()
        return name_kind(state, NameKind(kinds[0]))
    needs = event("needs", TYPE_RULES[order.type], order=order.id,
                  cards=format_counts(order.requirement()))
    state, events = settle(state)
    return state, (needs, *events)


def kind_choices(state: GameState) -> tuple[str, ...]:
    """The kinds the owner may name for the revealed Monotoni or Minimale. Under
    ``oven.complete_mandatory`` an owner who can bake it must: only the kinds that the
    table and hand can make are offered, if there are any."""
    order = ORDERS[state.reveal.order]
    if order.type == "monotoni":
        kinds = pizza_monotoni_kinds(state.table, order.personal, state.variants["monotoni_kind"])
    else:
        kinds = pizza_minimale_kinds(state.table, order.personal,
                                     state.variants["minimale_lowest"])
    if state.variants["completion"] == "mandatory":
        have = add(state.table, state.hands[state.current].ingredients)
        makeable = tuple(kind for kind in kinds if covers(have, order.requirement(kind)))
        return makeable or kinds
    return kinds


def pizza_monotoni_kinds(table: Counts, personal: str, rule_variant: str) -> tuple[str, ...]:
    """``oven.monotoni``: any kind but the personal one; under ``monotoni_kind=on_table``
    (``oven.monotoni_on_table``) only kinds with a card on the table."""
    return tuple(kind for kind in KINDS if kind != personal
                 and (rule_variant == "any_other" or table[KIND_INDEX[kind]] > 0))


def pizza_minimale_kinds(table: Counts, personal: str, lowest_over: str) -> tuple[str, ...]:
    """``oven.minimale``: the kinds with the lowest non-zero count on the table, never
    the personal kind. The lowest is taken over the eligible kinds; under
    ``minimale_lowest=all_kinds`` (``oven.minimale_all_kinds``) over every kind present,
    so a personal kind alone at the lowest count leaves no choice.

    >>> pizza_minimale_kinds((2, 3, 2, 2, 0), "pepper", "eligible_kinds")
    ('salami', 'mushroom')
    """
    present = [kind for kind in KINDS if table[KIND_INDEX[kind]] > 0]
    candidates = present if lowest_over == "all_kinds" else [k for k in present if k != personal]
    if not candidates:
        return ()
    lowest = min(table[KIND_INDEX[kind]] for kind in candidates)
    return tuple(kind for kind in candidates
                 if table[KIND_INDEX[kind]] == lowest and kind != personal)


def kind_rule(state: GameState) -> str:
    order = ORDERS[state.reveal.order]
    if order.type == "monotoni":
        return "oven.monotoni_on_table" if state.variants["monotoni_kind"] == "on_table" \
            else "oven.monotoni"
    return "oven.minimale_all_kinds" if state.variants["minimale_lowest"] == "all_kinds" \
        else "oven.minimale"


def name_kind(state: GameState, action: NameKind) -> Step:
    """The owner names the kind of a Monotoni or Minimale; then it is judged as fixed."""
    rule = kind_rule(state)
    if action.kind not in kind_choices(state):
        raise IllegalActionError(f"{action.kind} cannot be named for {state.reveal.order} here",
                                 rule=rule, action=action)
    state = replace(state, reveal=replace(state.reveal, kind=action.kind))
    order = ORDERS[state.reveal.order]
    settled, events = settle(state)
    return settled, (event("named_kind", rule, order=order.id, kind=action.kind),
                     event("needs", TYPE_RULES[order.type], order=order.id,
                           cards=format_counts(order.requirement(action.kind))),
                     *events)


def requirement(state: GameState) -> Counts:
    return ORDERS[state.reveal.order].requirement(state.reveal.kind)


def settle(state: GameState) -> Step:
    """An order with a fixed requirement: baked if the table meets it (``oven.bake``);
    else the owner may complete it from hand (``oven.complete_from_hand``; forced under
    ``oven.complete_mandatory``); else it fails (``oven.fail``)."""
    missing = shortfall(requirement(state), state.table)
    if not any(missing):
        return bake(state, from_table=requirement(state), from_hand=NO_CARDS)
    if not covers(state.hands[state.current].ingredients, missing):
        return fail(state, "oven.fail", "the table and the hand fall short")
    if state.variants["completion"] == "mandatory":
        return bake(state, from_table=subtract(requirement(state), missing), from_hand=missing,
                    completion_rule="oven.complete_mandatory")
    return replace(state, step="complete"), ()


def pizza_bombastica(state: GameState) -> Step:
    """``oven.bombastica``: at least 15 ingredients of any kinds. It takes the whole
    table, however many; a shortfall may be made up from hand (not under
    ``bombastica_hand=forbidden``, ``oven.bombastica_table_only``)."""
    short = ORDER_TYPES["bombastica"]["total"] - sum(state.table)
    if short <= 0:
        return bake(state, from_table=state.table, from_hand=NO_CARDS)
    if state.variants["bombastica_hand"] == "forbidden":
        return fail(state, "oven.bombastica_table_only", "the table holds fewer than 15")
    options = completions(state)
    if not options:
        return fail(state, "oven.fail", "the table and the hand hold fewer than 15")
    if state.variants["completion"] == "mandatory" and len(options) == 1:
        return bake(state, from_table=state.table, from_hand=options[0],
                    completion_rule="oven.complete_mandatory")
    return replace(state, step="complete"), ()


def completions(state: GameState) -> tuple[Counts, ...]:
    """The hand cards that may complete the revealed order: exactly what is missing, or
    for a Bombastica any choice of hand cards that makes up the shortfall."""
    hand = state.hands[state.current].ingredients
    order = ORDERS[state.reveal.order]
    if order.type != "bombastica":
        missing = shortfall(requirement(state), state.table)
        return (missing,) if covers(hand, missing) else ()
    short = ORDER_TYPES["bombastica"]["total"] - sum(state.table)
    return tuple(ways_to_take(hand, short))


def ways_to_take(hand: Counts, total: int) -> list[Counts]:
    """Every way to take ``total`` cards from ``hand``, as count maps."""
    if not hand:
        return [()] if total == 0 else []
    ways = []
    for first in range(min(hand[0], total), -1, -1):
        ways.extend((first, *rest) for rest in ways_to_take(hand[1:], total - first))
    return ways


def legal_actions(state: GameState) -> tuple[Action, ...]:
    if state.step == "name_kind":
        return tuple(NameKind(kind) for kind in kind_choices(state))
    options = tuple(Complete(cards) for cards in completions(state))
    return options if state.variants["completion"] == "mandatory" else (*options, Decline())


def complete(state: GameState, action: Complete | Decline) -> Step:
    """The owner completes the revealed order from hand, or declines and it fails."""
    rule = "oven.complete_from_hand"
    if isinstance(action, Decline):
        if state.variants["completion"] == "mandatory":
            raise IllegalActionError("an owner who can complete must complete",
                                     rule="oven.complete_mandatory", action=action)
        return fail(state, rule, "the owner declined")
    bombastica = ORDERS[state.reveal.order].type == "bombastica"
    if action.cards not in completions(state):
        raise IllegalActionError("these hand cards do not complete the order exactly",
                                 rule="oven.bombastica" if bombastica else rule, action=action)
    if state.variants["completion"] == "mandatory":
        rule = "oven.complete_mandatory"
    if bombastica:
        return bake(state, from_table=state.table, from_hand=action.cards, completion_rule=rule)
    return bake(state, from_table=subtract(requirement(state), action.cards),
                from_hand=action.cards, completion_rule=rule)


def bake(state: GameState, *, from_table: Counts, from_hand: Counts,
         completion_rule: str | None = None) -> Step:
    """``oven.bake``: the order goes to its owner's delivered stack and the ingredients it
    uses, from table and hand, to the used pile. Unused ones stay (``oven.leftovers``)."""
    seat, order = state.current, state.reveal.order
    hand = state.hands[seat]
    state = state.with_hand(seat, replace(hand, ingredients=subtract(hand.ingredients, from_hand)))
    state = state.with_delivered(seat, state.delivered[seat] + (order,))
    state = replace(state, table=subtract(state.table, from_table),
                    used=add(state.used, add(from_table, from_hand)), reveal=None, step="reveal",
                    current=state.mamma_mia)
    events = []
    if any(from_hand):
        events.append(event("completed_from_hand", completion_rule or "oven.complete_from_hand",
                            seat=seat, order=order, cards=format_counts(from_hand)))
    rule = "oven.bombastica" if ORDERS[order].type == "bombastica" else "oven.bake"
    events.append(event("baked", rule, seat=seat, order=order,
                        used=format_counts(add(from_table, from_hand))))
    return state, tuple(events)


def fail(state: GameState, rule: str, why: str) -> Step:
    """``oven.fail``: the order goes face down under its owner's waiter; the table keeps
    every card."""
    seat, order = state.current, state.reveal.order
    state = state.with_waiter(seat, state.waiters[seat] + (order,))
    state = replace(state, reveal=None, step="reveal", current=state.mamma_mia)
    return state, (event("failed", rule, seat=seat, order=order, why=why),)
