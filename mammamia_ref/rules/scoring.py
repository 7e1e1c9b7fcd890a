"""Chapter: the end of the game and the winner."""

from __future__ import annotations

from mammamia_ref.rules.events import Event, event
from mammamia_ref.rules.state import GameState, Phase, Step, replace
from mammamia_ref.rules.typed_spec import FinalTie


def end_game(state: GameState) -> tuple[GameState, tuple[Event, ...]]:
    """``game_end.three_resolutions``: the third opening of the oven ends the game."""
    state = replace(state, phase=Phase.OVER, step=Step.OVER, reveal=None)
    seats, rule = winners(state)
    return state, (event("game_ended", "game_end.three_resolutions", resolutions=state.resolutions),
                   event("winners", rule, seats=list(seats),
                         delivered=[len(stack) for stack in state.delivered]))


def winners(state: GameState) -> tuple[tuple[int, ...], str]:
    """The winning seats and the rule that decided them (see :func:`winning_seats`)."""
    start = state.mamma_mia if state.mamma_mia is not None else state.current
    return winning_seats(tuple(len(stack) for stack in state.delivered),
                         tuple(sum(hand.ingredients) for hand in state.hands),
                         state.flags.final_tie, start)


def winning_seats(delivered: tuple[int, ...], hand_cards: tuple[int, ...], final_tie: str,
                  start: int) -> tuple[tuple[int, ...], str]:
    """The winning seats, from each seat's delivered orders and ingredient cards in
    hand, and the rule that decided them.

    ``game_end.most_delivered``; among tied players ``game_end.tie_break`` (most
    ingredient cards left in hand); a tie that survives is shared
    (``game_end.shared_win``) or, under ``final_tie=seat_order``, goes to the tied
    player first in turn order from ``start``, the last Mamma Mia! holder
    (``game_end.seat_order_win``).

    >>> winning_seats((3, 3, 1), (2, 2, 5), "seat_order", 1)
    ((1,), 'game_end.seat_order_win')
    """
    players = len(delivered)
    most = max(delivered)
    leaders = [seat for seat in range(players) if delivered[seat] == most]
    if len(leaders) == 1:
        return tuple(leaders), "game_end.most_delivered"
    best = max(hand_cards[seat] for seat in leaders)
    leaders = [seat for seat in leaders if hand_cards[seat] == best]
    if len(leaders) == 1:
        return tuple(leaders), "game_end.tie_break"
    if final_tie == FinalTie.SHARED:
        return tuple(leaders), "game_end.shared_win"
    first = min(leaders, key=lambda seat: (seat - start) % players)
    return (first,), "game_end.seat_order_win"
