"""The fast engine's chapter: setup (as :mod:`mammamia_ref.rules.setup`)."""

from __future__ import annotations

from mammamia_ref.rules.setup import deal_order, trimmed_per_kind
from mammamia_ref.rules.state import (
    GameConfig,
)
from mammamia_ref.rules.vocabulary import (
    COPIES,
)
from mammamia_ref.sim.fast_state import (
    _INGREDIENTS,
    _PILE_COLOUR,
    _PILE_OF_COLOUR,
    _PLAY,
    _SHUFFLE,
    _SUPPLY_PILE,
    _TURN,
    COLOUR_INDEX,
    MM,
    N_KINDS,
    NO_KINDS,
    WAITER_OF_COLOUR,
    FastState,
    _blank,
    cards_of,
    tell,
)


def new_game(config: GameConfig) -> FastState:
    """``setup.components``, ``setup.trim`` / ``setup.full_deck``: every card in its
    starting place, the deck (with the Mamma Mia! card under ``setup.supply_before_deal``)
    in the supply slot, awaiting its shuffle."""
    state = _blank(config)
    players = state.players
    removed = trimmed_per_kind(state.rules.removed, players, state.rules.trimming)
    state.box = (removed,) * N_KINDS
    state.supply = cards_of([copies - removed for copies in COPIES])
    if state.rules.mm_before_deal:
        state.supply.append(MM)
    state.phase, state.step, state.current = _SHUFFLE, _INGREDIENTS, config.first_player
    state.round, state.resolutions = 1, 0
    state.oven, state.table, state.used = [], [0] * N_KINDS, [0] * N_KINDS
    state.mamma_mia = None
    state.hands = [NO_KINDS] * players
    state.hand_orders = [()] * players
    state.waiters = [WAITER_OF_COLOUR[COLOUR_INDEX[c]] for c in config.colours]
    state.delivered = [()] * players
    state.played = state.quiet_turns = 0
    state.reveal = state.reveal_kind = None
    return state

# -- setup ---------------------------------------------------------------------------


def after_setup_shuffle(state: FastState) -> None:
    """What follows a setup shuffle: the deal (``setup.deal``), the Mamma Mia! card
    joining the rest of the deck (``setup.supply``), each waiter's shuffle
    (``setup.waiter``), the first orders."""
    pile = state.step
    if pile == _INGREDIENTS:
        deal(state)
        if not state.rules.mm_before_deal:
            rest = [0] * N_KINDS
            for card in state.supply:
                rest[card] += 1
            state.supply = cards_of(rest) + [MM]
            state.step = _SUPPLY_PILE
            tell(state, "mamma_mia_joined_supply", "setup.supply")
            return
        state.step = _PILE_OF_COLOUR[state.config.colours[0]]
    elif pile == _SUPPLY_PILE:
        state.step = _PILE_OF_COLOUR[state.config.colours[0]]
    else:  # a waiter: the next seat's, after the last the first orders
        seat = state.seat_of_colour[_PILE_COLOUR[pile]] + 1
        if seat < state.players:
            state.step = _PILE_OF_COLOUR[state.config.colours[seat]]
        else:
            take_first_orders(state)


def deal(state: FastState) -> None:
    """``setup.deal``: six cards each, one at a time round the table from the first
    player; under ``setup.supply_before_deal`` a dealt Mamma Mia! card goes beside its
    receiver's waiter and is replaced (``mamma_mia.dealt``)."""
    deck = state.supply
    players, first = state.players, state.config.first_player
    order = deal_order(first, players)
    hands = [[0] * N_KINDS for _ in range(players)]
    position = 0
    for _ in range(state.rules.starting_ingredients):
        for seat in order:
            card = deck[position]
            position += 1
            if card == MM:
                state.mamma_mia = seat
                tell(state, "mamma_mia_dealt", "mamma_mia.dealt", ("seat", seat))
                card = deck[position]
                position += 1
            hands[seat][card] += 1
    del deck[:position]
    state.hands = [tuple(hand) for hand in hands]
    tell(state, "dealt", "setup.deal", ("cards", state.rules.starting_ingredients),
         ("players", players))


def take_first_orders(state: FastState) -> None:
    """``setup.waiter`` and ``setup.first_player``: each player takes the top order of
    their waiter; the first player begins."""
    taken = state.rules.starting_orders
    for seat in range(state.players):
        waiter = state.waiters[seat]
        state.hand_orders[seat] = tuple(sorted(waiter[:taken]))
        state.waiters[seat] = waiter[taken:]
    state.phase, state.step = _TURN, _PLAY
    state.current = state.config.first_player
    state.played = state.quiet_turns = 0
    if state.events is not None:
        tell(state, "took_first_orders", "setup.waiter")
        tell(state, "turn_begins", "setup.first_player", ("seat", state.current), ("round", 1))


