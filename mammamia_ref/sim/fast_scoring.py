"""The fast engine's chapter: the end of the game and the winner (as
:mod:`mammamia_ref.rules.scoring`)."""

from __future__ import annotations

from mammamia_ref.errors import IllegalActionError
from mammamia_ref.rules.scoring import winning_seats
from mammamia_ref.sim.fast_state import _OVER, _OVER_STEP, FastState, tell


def end_game(state: FastState) -> None:
    """``game_end.three_resolutions``: the third opening of the oven ends the game."""
    state.phase, state.step = _OVER, _OVER_STEP
    state.reveal = state.reveal_kind = None
    if state.events is not None:
        seats, rule = winners(state)
        tell(state, "game_ended", "game_end.three_resolutions",
             ("resolutions", state.resolutions))
        tell(state, "winners", rule, ("seats", list(seats)),
             ("delivered", [len(stack) for stack in state.delivered]))


def winners(state: FastState) -> tuple[tuple[int, ...], str]:
    """``game_end.most_delivered``, then ``game_end.tie_break`` (most ingredient cards
    in hand), then ``game_end.shared_win`` or ``game_end.seat_order_win``."""
    if state.phase != _OVER:
        raise IllegalActionError("the game has not ended", rule="game_end.three_resolutions")
    start = state.mamma_mia if state.mamma_mia is not None else state.current
    return winning_seats(tuple(len(stack) for stack in state.delivered),
                         tuple(sum(hand) for hand in state.hands), state.rules.final_tie, start)


