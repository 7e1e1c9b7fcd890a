"""Chapter: the turn. Play ingredients (or pass), perhaps place an order, then draw.

A turn is three decisions of the player whose turn it is: ``play`` (a ``Play`` or,
without ingredient cards, a ``Pass``), ``order`` (skipped when the hand holds no
order) and ``draw``. The draw ends the turn; the supply running out ends the round.
"""

from __future__ import annotations

from mammamia_ref.errors import IllegalActionError
from mammamia_ref.rules.actions import Action, Draw, NoOrder, Pass, PlaceOrder, Play
from mammamia_ref.rules.events import Event, event
from mammamia_ref.rules.round import (
    quiet_turns_after,
    round_is_over,
    stall,
    stalls,
    supply_exhausted,
    take_last_mamma_mia,
)
from mammamia_ref.rules.state import Flags, GameState, Hand, Phase, Step, replace
from mammamia_ref.rules.typed_spec import DrawAmount, DrawPiles, PassOrder, Refill
from mammamia_ref.rules.vocabulary import (
    KINDS,
    MAMMA_MIA,
    Counts,
    counts_of,
    format_counts,
    with_kind,
)

Transition = tuple[GameState, tuple[Event, ...]]

STEP_RULES: dict[str, str] = {Step.PLAY: "turn.play", Step.ORDER: "turn.place_order",
                              Step.DRAW: "turn.draw"}


def legal_actions(state: GameState) -> tuple[Action, ...]:
    hand = state.hands[state.current]
    if state.step == Step.PLAY:
        if not any(hand.ingredients):
            return (Pass(),)
        return tuple(Play(KINDS[kind], count) for kind, count in play_options(hand.ingredients))
    if state.step == Step.ORDER:
        return (*(PlaceOrder(order) for order in hand.orders), NoOrder())
    if state.flags.draw_amount == DrawAmount.FILL:
        return (Draw("supply"), Draw("waiter"))
    return tuple(Draw(source, count) for source in ("supply", "waiter")
                 for count in range(refill_allowance(state) + 1))


def play(state: GameState, action: Play) -> Transition:
    """``turn.play``: one or more ingredient cards of one kind onto the oven, announced."""
    seat, hand = state.current, state.hands[state.current]
    held = hand.ingredients[KINDS.index(action.kind)]
    if action.count < 1 or action.count > held:
        raise IllegalActionError(f"cannot play {action.count} {action.kind}: the hand holds {held}",
                                 rule="turn.play", action=action)
    hand = replace(hand, ingredients=with_kind(hand.ingredients, action.kind, -action.count))
    state = replace(state.with_hand(seat, hand), oven=state.oven + (action.kind,) * action.count,
                    played=action.count, step=step_after_play(bool(hand.orders)))
    return state, (event("played", "turn.play", seat=seat, kind=action.kind, count=action.count),)


def pass_turn(state: GameState) -> Transition:
    """``turn.pass``: only a player without ingredient cards passes; under the default
    no order follows (``pass_order=allowed`` selects ``turn.pass_with_order``)."""
    hand = state.hands[state.current]
    if any(hand.ingredients):
        raise IllegalActionError("a player holding ingredient cards must play at least one",
                                 rule="turn.pass", action=Pass())
    state = replace(state, played=0,
                    step=step_after_pass(state.flags.pass_order, bool(hand.orders)))
    return state, (event("passed", "turn.pass", seat=state.current),)


def place_order(state: GameState, action: PlaceOrder | NoOrder) -> Transition:
    """``turn.place_order``: at most one order card from hand, face up onto the oven."""
    if isinstance(action, NoOrder):
        return replace(state, step=Step.DRAW), ()
    seat, hand = state.current, state.hands[state.current]
    if action.order not in hand.orders:
        raise IllegalActionError(f"{action.order} is not in the hand", rule="turn.place_order",
                                 action=action)
    orders = list(hand.orders)
    orders.remove(action.order)
    rule = "turn.place_order" if state.played or state.flags.pass_order == PassOrder.FORBIDDEN \
        else "turn.pass_with_order"
    state = replace(state.with_hand(seat, replace(hand, orders=tuple(orders))),
                    oven=state.oven + (action.order,), played=state.played + 1, step=Step.DRAW)
    return state, (event("placed_order", rule, seat=seat, order=action.order),)


def play_options(hand: Counts) -> tuple[tuple[int, int], ...]:
    """``turn.play``: the (kind index, count) plays a hand allows: one to all of the
    cards of one kind, kind by kind; none means the player must pass (``turn.pass``)."""
    return tuple((kind, count) for kind, held in enumerate(hand) for count in range(1, held + 1))


# looked up once: the fast engine calls these often
_ORDER, _DRAW = Step.ORDER, Step.DRAW
_PASS_ALLOWED, _AS_PLAYED, _BOTH = PassOrder.ALLOWED, Refill.AS_MANY_AS_PLAYED, DrawPiles.BOTH


def step_after_play(holds_orders: bool) -> Step:
    """``turn.place_order``: after the play a player holding an order may place one;
    otherwise the draw follows at once."""
    return _ORDER if holds_orders else _DRAW


def step_after_pass(pass_order: PassOrder, holds_orders: bool) -> Step:
    """``turn.pass``: the draw follows; under ``pass_order=allowed``
    (``turn.pass_with_order``) an order may be placed first by a player holding one."""
    return _ORDER if pass_order == _PASS_ALLOWED and holds_orders else _DRAW


def cards_to_draw(refill: str, hand_limit: int, hand_size: int, played: int) -> int:
    """How many cards the draw may take: up to the hand limit, seven (``turn.draw``), or
    as many as were put on the oven this turn (``turn.draw_as_played``)."""
    if refill == _AS_PLAYED:
        return played
    return max(0, hand_limit - hand_size)


def refill_allowance(state: GameState) -> int:
    """:func:`cards_to_draw` for the player whose turn it is."""
    return cards_to_draw(state.flags.refill, state.parameters.hand_limit,
                         state.hands[state.current].size, state.played)


def draw(state: GameState, action: Draw) -> Transition:
    """``turn.draw``: refill from one source only; a short source gives what it has
    (``turn.draw_short``). Ends the turn, and perhaps the round."""
    allowance = refill_allowance(state)
    fewer = state.flags.draw_amount == DrawAmount.ANY
    if fewer and action.count is None:
        raise IllegalActionError("under draw_amount=any the draw names its count",
                                 rule="turn.draw_fewer", action=action)
    if not fewer and action.count is not None:
        raise IllegalActionError("a draw takes every card the refill allows, not a chosen count",
                                 rule="turn.draw", action=action)
    if action.count is not None and action.count > allowance:
        raise IllegalActionError(f"cannot draw {action.count}: the refill allows {allowance}",
                                 rule="turn.draw_fewer", action=action)
    wanted = allowance if action.count is None else action.count
    if action.source == "waiter":
        state, events, moved = _draw_from_waiter(state, wanted)
    else:
        first = orders_before_supply(state.flags.draw_piles, wanted,
                                     len(state.waiters[state.current]))
        before: tuple[Event, ...] = ()
        if first:
            state, before, _ = _draw_from_waiter(state, first, rule="turn.draw_both")
        state, events, moved = _draw_from_supply(state, wanted - first)
        events, moved = before + events, moved + first
    return end_turn(state, quiet=not state.played and not moved, events=events)


def orders_before_supply(draw_piles: str, wanted: int, waiter_size: int) -> int:
    """How many orders a draw from the supply first takes from the top of the waiter:
    none by the rules (``turn.draw``: one pile only), one under the house rule
    ``draw_piles=both`` (``turn.draw_both``) when the waiter holds one and the draw is
    for a card at least (it is one of the cards the refill allows)."""
    return 1 if draw_piles == _BOTH and wanted > 0 and waiter_size > 0 else 0


def draw_rule(flags: Flags, short: bool) -> str:
    """The rule a draw follows: ``turn.draw_fewer`` under ``draw_amount=any`` (the drawer
    names the count), ``turn.draw_short`` when the source gave fewer cards than wanted,
    else ``turn.draw_as_played`` or ``turn.draw`` by the refill. The z3 encoding of
    designers' conditions (``queries/language/conditions.py``) derives a draw's rule from it."""
    if flags.draw_amount == DrawAmount.ANY:
        return "turn.draw_fewer"
    if short:
        return "turn.draw_short"
    return "turn.draw_as_played" if flags.refill == _AS_PLAYED else "turn.draw"


def _draw_from_waiter(state: GameState, wanted: int, *, rule: str | None = None
                      ) -> tuple[GameState, tuple[Event, ...], int]:
    seat, hand, waiter = state.current, state.hands[state.current], state.waiters[state.current]
    taken = waiter[:wanted]
    hand = replace(hand, orders=tuple(sorted(hand.orders + taken)))
    state = state.with_waiter(seat, waiter[len(taken):]).with_hand(seat, hand)
    rule = rule or draw_rule(state.flags, len(taken) < wanted)
    return state, (event("drew", rule, seat=seat, source="waiter", count=len(taken)),), len(taken)


def _draw_from_supply(state: GameState, wanted: int) -> tuple[GameState, tuple[Event, ...], int]:
    """Cards come off the top one by one. The Mamma Mia! card is laid beside the drawer's
    waiter and replaced (``mamma_mia.draw``); the round ends the moment the supply is
    exhausted (``round_end.last_card`` or ``round_end.last_ingredient``)."""
    seat, supply = state.current, list(state.supply)
    ingredients, holder, got, moved = state.hands[seat].ingredients, state.mamma_mia, 0, 0
    events: list[Event] = []
    while got < wanted and supply:
        card = supply.pop(0)
        moved += 1
        if card == MAMMA_MIA:
            holder = seat
            events.append(event("mamma_mia_drawn", "mamma_mia.draw", seat=seat))
        else:
            ingredients = with_kind(ingredients, card, 1)
            got += 1
        if supply_exhausted(state.rules, tuple(supply)):
            break
    drawn = tuple(k for k in state.supply[:moved] if k != MAMMA_MIA)
    hand = Hand(ingredients, state.hands[seat].orders)
    state = replace(state.with_hand(seat, hand), supply=tuple(supply), mamma_mia=holder)
    rule = draw_rule(state.flags, got < wanted)
    events.insert(0, event("drew", rule, seat=seat, source="supply", count=got,
                           cards=format_counts(counts_of(drawn))))
    if supply_exhausted(state.rules, state.supply):
        state, more = take_last_mamma_mia(state, seat)
        events.extend(more)
    return state, tuple(events), moved


def end_turn(state: GameState, *, quiet: bool, events: tuple[Event, ...]) -> Transition:
    """After the draw: the round ends if the supply is exhausted, or (``round_end.stall``)
    after a full cycle of turns that moved no card; otherwise the left neighbour plays
    (``turn.clockwise``)."""
    quiet_turns = quiet_turns_after(quiet, state.quiet_turns, state.players)
    state = replace(state, quiet_turns=quiet_turns)
    if round_is_over(state):
        return replace(state, phase=Phase.ROUND_END, step=Step.SUPPLY), events
    if stalls(state.flags.stall, quiet_turns, state.players):
        return stall(state, events)
    seat = (state.current + 1) % state.players
    state = replace(state, current=seat, step=Step.PLAY, played=0)
    return state, (*events, event("turn_begins", "turn.clockwise", seat=seat, round=state.round))
