"""The fast engine's chapter: the turn (as :mod:`mammamia_ref.rules.turn`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from mammamia_ref.rules.turn import (
    cards_to_draw,
    draw_rule,
    orders_before_supply,
    play_options,
    step_after_play,
)
from mammamia_ref.rules.vocabulary import KINDS, format_counts
from mammamia_ref.sim.fast_round import (
    _EXHAUSTED,
    stall,
    supply_exhausted,
    take_last_mamma_mia,
)
from mammamia_ref.sim.fast_state import (
    _DRAW,
    _PLAY,
    _ROUND_END,
    _SUPPLY_PILE,
    CARD_NAMES,
    DRAW_N_BASE,
    MM,
    N_KINDS,
    NO_ORDER,
    PASS,
    PASS_ORDER_FORBIDDEN,
    PLACE_BASE,
    SUPPLY,
    WAITER,
    FastState,
    play_code,
    tell,
)

_PLAY_CHOICES: Final[dict[tuple[int, ...], tuple[int, ...]]] = {}
_DRAW_ANY: Final = [tuple(DRAW_N_BASE + 64 * source + count for source in (SUPPLY, WAITER)
                   for count in range(allowance + 1)) for allowance in range(64)]


def play_choices(hand: tuple[int, ...]) -> tuple[int, ...]:
    """``turn.play`` / ``turn.pass``: any number of cards of one kind held, kind by kind
    in ``KINDS`` order, one to all; a pass only without ingredient cards. (Cached by
    hand: there are few hands.)"""
    choices = _PLAY_CHOICES.get(hand)
    if choices is None:
        choices = _PLAY_CHOICES[hand] = tuple(
            play_code(kind, count) for kind, count in play_options(hand)) or (PASS,)
    return choices


_ORDER_CHOICES: Final[dict[tuple[int, ...], tuple[int, ...]]] = {}


def order_choices(orders: tuple[int, ...]) -> tuple[int, ...]:
    """``turn.place_order``: any one order in hand (in the hand's sorted order), or none.
    (Cached by hand.)"""
    choices = _ORDER_CHOICES[orders] = (*(PLACE_BASE + order for order in orders), NO_ORDER)
    return choices


# -- the turn ------------------------------------------------------------------------


# ``step_after_play``, looked up: by whether the player still holds orders.
_AFTER_PLAY_WITH_ORDERS: Final = step_after_play(True).value
_AFTER_PLAY_WITHOUT_ORDERS: Final = step_after_play(False).value


def turn_play(state: FastState, kind: int, count: int) -> None:
    """``turn.play``: ``count`` cards of one kind from hand onto the oven."""
    hand = list(state.hands[state.current])
    hand[kind] -= count
    state.hands[state.current] = tuple(hand)
    state.oven.extend([kind] * count)
    state.played = count
    state.step = _AFTER_PLAY_WITH_ORDERS if state.hand_orders[state.current] \
        else _AFTER_PLAY_WITHOUT_ORDERS
    if state.events is not None:
        tell(state, "played", "turn.play", ("seat", state.current), ("kind", KINDS[kind]),
             ("count", count))


def turn_pass(state: FastState) -> None:
    """``turn.pass``: no ingredient card, no play; an order may follow only under
    ``turn.pass_with_order``."""
    state.played = 0
    rules = state.rules
    state.step = rules.after_pass_with_orders if state.hand_orders[state.current] \
        else rules.after_pass_without_orders
    if state.events is not None:
        tell(state, "passed", "turn.pass", ("seat", state.current))


def turn_place_order(state: FastState, order: int) -> None:
    """``turn.place_order`` (``turn.pass_with_order`` after a pass): one order card from
    hand onto the oven."""
    orders = list(state.hand_orders[state.current])
    orders.remove(order)
    state.hand_orders[state.current] = tuple(orders)
    state.oven.append(order)
    if state.events is not None:
        rule = "turn.place_order" \
            if state.played or state.rules.pass_order == PASS_ORDER_FORBIDDEN \
            else "turn.pass_with_order"
        tell(state, "placed_order", rule, ("seat", state.current), ("order", CARD_NAMES[order]))
    state.played += 1
    state.step = _DRAW


def refill_allowance(state: FastState) -> int:
    """``turn.draw``: up to seven cards in hand; ``turn.draw_as_played``: as many as
    were put on the oven this turn."""
    seat, played = state.current, state.played
    size = sum(state.hands[seat]) + len(state.hand_orders[seat])
    try:
        return state.rules.allowance[played][size]
    except IndexError:  # beyond the table (no hand grows that large)
        return cards_to_draw(state.rules.refill, state.rules.hand_limit, size, played)


def turn_draw(state: FastState, source: int, count: int | None) -> None:
    """``turn.draw`` (``turn.draw_fewer`` when a count is chosen): refill from one source;
    a short source gives what it has (``turn.draw_short``). Then the turn ends.

    This runs every turn, so the usual draw from the supply (all the cards at once, the
    Mamma Mia! card not among them) and the end of the turn (the reference's
    ``end_turn``) are written out here: the round ends if the supply is exhausted, or
    after a full cycle of turns that moved no card (``round_end.stall``); else the left
    neighbour plays (``turn.clockwise``)."""
    rules, played, seat = state.rules, state.played, state.current
    if count is None:  # refill_allowance, looked up
        try:
            wanted = rules.allowance[played][sum(state.hands[seat])
                                             + len(state.hand_orders[seat])]
        except IndexError:  # beyond the table (no hand grows that large)
            wanted = refill_allowance(state)
    else:
        wanted = count
    first = 0
    if source != WAITER and rules.draw_both:  # turn.draw_both: the waiter's top order first
        first = _draw_both_orders(state, wanted)
        wanted -= first
    if source == WAITER:
        moved = draw_from_waiter(state, wanted)
        if state.events is not None:
            tell_drew(state, draw_rule(state.config.rules.flags, moved < wanted), "waiter", moved)
    else:
        moved = _draw_supply(state, wanted)
    _end_turn(state, played or moved + first)


def _draw_both_orders(state: FastState, wanted: int) -> int:
    """``turn.draw_both``: the orders drawn from the waiter before the supply (from the
    ``wanted`` cards), drawn and told; how many."""
    first = orders_before_supply(state.rules.draw_piles, wanted,
                                 len(state.waiters[state.current]))
    draw_from_waiter(state, first)
    if first and state.events is not None:
        tell_drew(state, "turn.draw_both", "waiter", first)
    return first


def _draw_supply(state: FastState, wanted: int) -> int:
    """``turn.draw`` from the supply: the usual case (enough cards, the Mamma Mia! card
    not among them) written out, any other by :func:`draw_from_supply`; how many moved."""
    supply, seat = state.supply, state.current
    if len(supply) <= wanted or MM in (taken := supply[:wanted]):
        return draw_from_supply(state, wanted)
    hand = list(state.hands[seat])
    for card in taken:
        hand[card] += 1
    del supply[:wanted]
    state.hands[seat] = tuple(hand)
    if state.events is not None:
        tell_drew(state, draw_rule(state.config.rules.flags, False), "supply", wanted,
                  [taken.count(kind) for kind in range(N_KINDS)])
    if state.rules.round_end_last_ingredient and supply_exhausted(state):
        take_last_mamma_mia(state, seat)
    return wanted


def _end_turn(state: FastState, busy: int) -> None:
    """The end of the turn (the reference's ``end_turn``), ``busy`` if a card was played
    or drawn: the round ends if the supply is exhausted, or after a full cycle of turns
    that moved no card (``round_end.stall``); else the left neighbour plays
    (``turn.clockwise``)."""
    rules, supply = state.rules, state.supply
    state.quiet_turns = quiet_turns = (rules.quiet_after_busy if busy
                                       else rules.quiet_after_quiet)[state.quiet_turns]
    if len(supply) < 2 and _EXHAUSTED[rules.round_end, tuple(supply)]:  # supply_exhausted
        state.phase, state.step = _ROUND_END, _SUPPLY_PILE
    elif rules.stalls[quiet_turns]:
        stall(state)
    else:
        state.current = (state.current + 1) % state.players
        state.step = _PLAY
        state.played = 0
        if state.events is not None:
            tell(state, "turn_begins", "turn.clockwise", ("seat", state.current),
                 ("round", state.round))


def tell_drew(state: FastState, rule: str, source: str, count: int,
              cards: Sequence[int] | None = None) -> None:
    """The reference's ``drew`` event: from the waiter its count, from the supply also
    the ingredient cards drawn."""
    data: tuple[tuple[str, Any], ...] = (("seat", state.current), ("source", source),
                                         ("count", count))
    if cards is not None:
        data += (("cards", format_counts(tuple(cards))),)
    tell(state, "drew", rule, *data)


def draw_from_waiter(state: FastState, wanted: int) -> int:
    """``turn.draw`` from the waiter: its top orders into hand (kept sorted)."""
    seat = state.current
    waiter = state.waiters[seat]
    taken = waiter[:wanted]
    if taken:
        state.waiters[seat] = waiter[len(taken):]
        state.hand_orders[seat] = tuple(sorted(state.hand_orders[seat] + taken))
    return len(taken)


def draw_from_supply(state: FastState, wanted: int) -> int:
    """``turn.draw`` from the supply, card by card from the top (when the draw meets the
    Mamma Mia! card or the supply's end: see :func:`turn_draw` for the usual case): the
    Mamma Mia! card is laid out and replaced (``mamma_mia.draw``); the round ends the
    moment the supply is exhausted (``round_end.last_card`` /
    ``round_end.last_ingredient``)."""
    seat, supply, hand = state.current, state.supply, list(state.hands[state.current])
    last_ingredient = state.rules.round_end_last_ingredient
    got = moved = 0
    drawn_mamma_mia = False
    while got < wanted and supply:  # an empty supply is exhausted under either ruling
        card = supply.pop(0)
        moved += 1
        if card == MM:
            state.mamma_mia = seat
            drawn_mamma_mia = True
        else:
            hand[card] += 1
            got += 1
        if last_ingredient and supply_exhausted(state):
            break
    if state.events is not None:
        before = state.hands[seat]
        tell_drew(state, draw_rule(state.config.rules.flags, got < wanted), "supply", got,
                  [now - then for now, then in zip(hand, before, strict=True)])
        if drawn_mamma_mia:
            tell(state, "mamma_mia_drawn", "mamma_mia.draw", ("seat", seat))
    state.hands[seat] = tuple(hand)
    if supply_exhausted(state):
        take_last_mamma_mia(state, seat)
    return moved


