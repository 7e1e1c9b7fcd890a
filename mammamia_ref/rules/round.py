"""Chapter: the end of a round and the preparation of the next.

A round ends when the supply is exhausted (``round_end.last_card``, or under a
variant ``round_end.last_ingredient``) or, under our default termination ruling, when
a whole cycle of turns moved no card (``round_end.stall``). The Mamma Mia! holder
then opens the oven (``mamma_mia.holder``); afterwards the used ingredients and the
Mamma Mia! card make the next supply, and the holder starts the next round.
"""

from __future__ import annotations

from mammamia_ref.rules.events import Event, event
from mammamia_ref.rules.scoring import end_game
from mammamia_ref.rules.state import GameState, Phase, Rules, Step, holder, replace
from mammamia_ref.rules.typed_spec import Leftovers, RoundEnd, Stall
from mammamia_ref.rules.vocabulary import (
    MAMMA_MIA,
    NO_CARDS,
    Counts,
    add,
    cards_of,
    counts_of,
)

Transition = tuple[GameState, tuple[Event, ...]]


def supply_runs_out(round_end: str, cards: int, ingredients: int) -> bool:
    """Whether a supply of ``cards`` cards, ``ingredients`` of them ingredient cards, ends
    the round: empty (``round_end.last_card``), or holding no ingredient card
    (``round_end.last_ingredient``)."""
    return cards == 0 if round_end == RoundEnd.LAST_CARD else ingredients == 0


def supply_exhausted(variants: Rules, supply: tuple[str, ...]) -> bool:
    """:func:`supply_runs_out` for this supply."""
    return supply_runs_out(variants.flags.round_end, len(supply), sum(counts_of(supply)))


def quiet_turns_after(quiet: bool, quiet_turns: int, players: int) -> int:
    """``round_end.stall``: the count of consecutive turns that moved no card, after a
    turn (``quiet`` if it moved none); a turn that moves a card starts it again. Capped
    at the number of players: a full cycle is all the rule asks about."""
    return min(players, quiet_turns + 1) if quiet else 0


def stalls(stall: Stall, quiet_turns: int, players: int) -> bool:
    """``round_end.stall``: a full cycle of quiet turns ends the round (``stall=cut``);
    under ``stall=letter`` nothing does."""
    return stall == Stall.CUT and quiet_turns >= players


def game_ends(resolutions: int, rounds: int) -> bool:
    """``game_end.three_resolutions``: the third opening of the oven (the game's
    ``rounds``-th) ends the game."""
    return resolutions >= rounds


def leftovers_to_oven(leftovers: Leftovers) -> bool:
    """``next_round.oven``: the table's leftovers go back into the oven for the next
    round; under ``leftovers=table`` (``next_round.leftovers_on_table``) they stay."""
    return leftovers == Leftovers.OVEN


def next_supply(used: Counts, supply_left: Counts) -> Counts:
    """``next_round.supply``: the used pile and what is left of the supply make the next
    supply's ingredients (the Mamma Mia! card joins them)."""
    return add(used, supply_left)


def round_is_over(state: GameState) -> bool:
    return state.phase == Phase.TURN and supply_exhausted(state.rules, state.supply)


def take_last_mamma_mia(state: GameState, seat: int) -> Transition:
    """``round_end.last_ingredient``: a Mamma Mia! card left alone in the supply goes to
    the player who emptied the supply of ingredients (or who starts the round)."""
    if MAMMA_MIA not in state.supply:
        return state, ()
    state = replace(state, supply=tuple(c for c in state.supply if c != MAMMA_MIA), mamma_mia=seat)
    return state, (event("mamma_mia_taken", "round_end.last_ingredient", seat=seat),)


def stall(state: GameState, events: tuple[Event, ...]) -> Transition:
    """``round_end.stall``: every player in succession took a turn that moved no card.
    The round ends; if the Mamma Mia! card is still in the supply, the player whose
    turn it would be takes it. The rest of the supply waits for the next round."""
    following = (state.current + 1) % state.players
    more: tuple[Event, ...] = ()
    if MAMMA_MIA in state.supply:
        supply = tuple(c for c in state.supply if c != MAMMA_MIA)
        state = replace(state, supply=supply, mamma_mia=following)
        more = (event("mamma_mia_taken", "round_end.stall", seat=following),)
    return replace(state, phase=Phase.ROUND_END, step=Step.STALL), (*events, *more)


def open_the_oven(state: GameState) -> Transition:
    """The round has ended: the Mamma Mia! holder opens the oven (``mamma_mia.holder``,
    ``oven.open``) and reveals it from the first card played."""
    cause = "round_end.stall" if state.step == Step.STALL else f"round_end.{state.flags.round_end}"
    seat = holder(state)
    state = replace(state, phase=Phase.OVEN, step=Step.REVEAL, reveal=None, current=seat)
    return state, (event("round_ended", cause, round=state.round),
                   event("oven_opened", "mamma_mia.holder", seat=seat, cards=len(state.oven)))


def after_resolution(state: GameState) -> Transition:
    """The oven is empty. After the third resolution the game ends; otherwise the next
    round is prepared: leftovers (``next_round.oven`` or ``next_round.leftovers_on_table``),
    the new supply (``next_round.supply``) awaiting its shuffle."""
    state = replace(state, resolutions=state.resolutions + 1)
    if game_ends(state.resolutions, state.parameters.rounds):
        return end_game(state)
    events: list[Event] = []
    if leftovers_to_oven(state.flags.leftovers):
        events.append(event("leftovers_to_oven", "next_round.oven", cards=sum(state.table)))
        state = replace(state, oven=cards_of(state.table), table=NO_CARDS)
    else:
        events.append(event("leftovers_stay", "next_round.leftovers_on_table",
                            cards=sum(state.table)))
    seat = holder(state)
    supply = cards_of(next_supply(state.used, counts_of(state.supply))) + (MAMMA_MIA,)
    events.append(event("supply_gathered", "next_round.supply", cards=len(supply)))
    state = replace(state, phase=Phase.SHUFFLE, step=Step.SUPPLY, supply=supply, used=NO_CARDS,
                    mamma_mia=None, current=seat, round=state.round + 1)
    return state, tuple(events)


def start_round(state: GameState) -> Transition:
    """``next_round.first_player``: the last Mamma Mia! holder opens the new round."""
    state = replace(state, phase=Phase.TURN, step=Step.PLAY, played=0, quiet_turns=0)
    events: tuple[Event, ...] = (event("turn_begins", "next_round.first_player",
                                       seat=state.current, round=state.round),)
    if supply_exhausted(state.rules, state.supply):  # only under last_ingredient
        state, more = take_last_mamma_mia(state, state.current)
        return replace(state, phase=Phase.ROUND_END, step=Step.SUPPLY), events + more
    return state, events
