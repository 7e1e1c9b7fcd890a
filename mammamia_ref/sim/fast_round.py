"""The fast engine's chapter: the end of a round and the preparation of the next (as
:mod:`mammamia_ref.rules.round`)."""

from __future__ import annotations

from typing import Final

from mammamia_ref.rules.round import (
    game_ends,
    next_supply,
    supply_runs_out,
)
from mammamia_ref.sim.fast_scoring import end_game
from mammamia_ref.sim.fast_state import (
    _OVEN,
    _PLAY,
    _REVEAL,
    _ROUND_END,
    _SHUFFLE,
    _STALL,
    _SUPPLY_PILE,
    _TURN,
    MM,
    N_KINDS,
    FastState,
    _holder,
    cards_of,
    tell,
)

_EXHAUSTED: Final[dict[tuple[str, tuple[int, ...]], bool]] = {
    (round_end, supply): supply_runs_out(round_end, len(supply), sum(c < MM for c in supply))
    for round_end in ("last_card", "last_ingredient")
    for supply in ((), (MM,), *((kind,) for kind in range(N_KINDS)))}
"""``supply_runs_out`` for every supply of at most one card, by ruling. The supply
holds ingredients and at most the Mamma Mia! card, so a supply of two cards or more
holds an ingredient and ends no round: only the last card needs looking up."""


def supply_exhausted(state: FastState) -> bool:
    """``round_end.last_card`` / ``round_end.last_ingredient``: :func:`supply_runs_out`
    (looked up in ``_EXHAUSTED``)."""
    supply = state.supply
    return len(supply) < 2 and _EXHAUSTED[state.rules.round_end, tuple(supply)]


def take_last_mamma_mia(state: FastState, seat: int) -> None:
    """``round_end.last_ingredient``: a Mamma Mia! card left alone in the supply goes to
    the player who emptied it of ingredients (or who starts the round)."""
    if MM in state.supply:
        state.supply.remove(MM)
        state.mamma_mia = seat
        if state.events is not None:
            tell(state, "mamma_mia_taken", "round_end.last_ingredient", ("seat", seat))


def stall(state: FastState) -> None:
    """``round_end.stall``: a whole cycle of quiet turns ends the round; a Mamma Mia!
    card still in the supply goes to the player whose turn would be next."""
    if MM in state.supply:
        state.supply.remove(MM)
        state.mamma_mia = (state.current + 1) % state.players
        if state.events is not None:
            tell(state, "mamma_mia_taken", "round_end.stall", ("seat", state.mamma_mia))
    state.phase, state.step = _ROUND_END, _STALL


def open_the_oven(state: FastState) -> None:
    """``mamma_mia.holder``, ``oven.open``: the Mamma Mia! holder opens the oven (the
    round ended by ``round_end.stall`` or by its ``round_end`` ruling)."""
    if state.events is not None:
        cause = "round_end.stall" if state.step == _STALL else f"round_end.{state.rules.round_end}"
        tell(state, "round_ended", cause, ("round", state.round))
    state.phase, state.step = _OVEN, _REVEAL
    state.reveal = None
    state.current = _holder(state)
    if state.events is not None:
        tell(state, "oven_opened", "mamma_mia.holder", ("seat", state.current),
             ("cards", len(state.oven)))


# -- the next round and the end ------------------------------------------------------


def after_resolution(state: FastState) -> None:
    """The oven is empty: the third resolution ends the game
    (``game_end.three_resolutions``); otherwise leftovers go to the oven
    (``next_round.oven``) or stay (``next_round.leftovers_on_table``), and the used
    pile, the rest of the supply and the Mamma Mia! card make the next supply
    (``next_round.supply``), awaiting its shuffle."""
    state.resolutions += 1
    if game_ends(state.resolutions, state.rules.rounds):
        end_game(state)
        return
    if state.events is not None:
        name, rule = ("leftovers_to_oven", "next_round.oven") if state.rules.leftovers_to_oven \
            else ("leftovers_stay", "next_round.leftovers_on_table")
        tell(state, name, rule, ("cards", sum(state.table)))
    if state.rules.leftovers_to_oven:
        state.oven = cards_of(state.table)
        state.table = [0] * N_KINDS
    left = [0] * N_KINDS
    for card in state.supply:
        if card < MM:
            left[card] += 1
    state.supply = cards_of(next_supply(tuple(state.used), tuple(left))) + [MM]
    if state.events is not None:
        tell(state, "supply_gathered", "next_round.supply", ("cards", len(state.supply)))
    state.used = [0] * N_KINDS
    state.phase, state.step = _SHUFFLE, _SUPPLY_PILE
    state.current = _holder(state)
    state.mamma_mia = None
    state.round += 1


def start_round(state: FastState) -> None:
    """``next_round.first_player``: the last Mamma Mia! holder opens the round. A supply
    with no ingredient (only under ``round_end.last_ingredient``) ends it at once."""
    state.phase, state.step = _TURN, _PLAY
    state.played = state.quiet_turns = 0
    if state.events is not None:
        tell(state, "turn_begins", "next_round.first_player", ("seat", state.current),
             ("round", state.round))
    if supply_exhausted(state):
        take_last_mamma_mia(state, state.current)
        state.phase, state.step = _ROUND_END, _SUPPLY_PILE


