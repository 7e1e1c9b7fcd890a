"""Chapter: setup. The components, deck trimming, the deal, the supply and the waiters.

Setup is a sequence of chance nodes, one per shuffle the rules describe: the
ingredient deck (``"ingredients"``), the supply (``"supply"``, unless the Mamma Mia!
card was shuffled in before the deal) and each player's waiter (``"waiter.<colour>"``).
Between them the deal and the first orders follow automatically.
"""

from __future__ import annotations

from mammamia_ref.rules.events import Event, event
from mammamia_ref.rules.state import (
    WAITER_PILE,
    GameConfig,
    GameState,
    Hand,
    Phase,
    Step,
    replace,
    waiter_pile,
)
from mammamia_ref.rules.typed_spec import MammaMiaShuffle, Trimming
from mammamia_ref.rules.vocabulary import (
    COPIES,
    KINDS,
    MAMMA_MIA,
    NO_CARDS,
    ORDERS_OF,
    cards_of,
    counts_of,
    subtract,
    with_kind,
)

Transition = tuple[GameState, tuple[Event, ...]]


def new_game(config: GameConfig) -> GameState:
    """All cards in their starting places, awaiting the shuffle of the ingredient deck.

    ``setup.components``: every card exists once. ``setup.trim``: with fewer than five
    players some cards of each kind go back to the box (not under ``trimming=off``,
    rule ``setup.full_deck``). The deck lies in the supply slot until it is dealt.
    """
    box = (trimmed_per_kind(config.rules.parameters.trimming, config.players,
                            config.rules.flags.trimming),) * len(KINDS)
    deck = cards_of(subtract(COPIES, box))
    if mamma_mia_dealt_with_deck(config.rules.flags.mamma_mia_shuffle):
        deck += (MAMMA_MIA,)  # setup.supply_before_deal
    return GameState(
        config=config, phase=Phase.SHUFFLE, step=Step.INGREDIENTS, current=config.first_player,
        round=1, resolutions=0, supply=deck, oven=(), table=NO_CARDS, used=NO_CARDS, box=box,
        mamma_mia=None, hands=(Hand(),) * config.players,
        waiters=tuple(ORDERS_OF[colour] for colour in config.colours),
        delivered=((),) * config.players,
    )


def trimmed_per_kind(removed: tuple[int, ...], players: int, trimming: str) -> int:
    """``setup.trim``: how many cards of each kind go back to the box for this many
    players (``removed``, the game's trimming by player count; none under
    ``trimming=off``, ``setup.full_deck``)."""
    return removed[players] if trimming == Trimming.ON else 0


def mamma_mia_dealt_with_deck(mamma_mia_shuffle: MammaMiaShuffle) -> bool:
    """``setup.supply_before_deal``: the Mamma Mia! card is shuffled into the deck before
    the deal (``mamma_mia_shuffle=before_deal``); by default (``setup.supply``) it joins
    the undealt cards after it."""
    return mamma_mia_shuffle == MammaMiaShuffle.BEFORE_DEAL


def deal_order(first_player: int, players: int) -> list[int]:
    """``setup.deal``: the seats in the order cards are dealt, from the first player."""
    return [(first_player + i) % players for i in range(players)]


def shuffle_rule(state: GameState, pile: str) -> str:
    """The rule that calls for shuffling this setup pile."""
    if pile == Step.INGREDIENTS:
        before = mamma_mia_dealt_with_deck(state.flags.mamma_mia_shuffle)
        return "setup.supply_before_deal" if before else "setup.deal"
    return "setup.supply" if pile == Step.SUPPLY else "setup.waiter"


def after_shuffle(state: GameState) -> Transition:
    """What follows a setup shuffle: the deal, the next shuffle, or the first turn."""
    pile = state.step
    if pile == Step.INGREDIENTS:
        state, events = deal(state)
        if not mamma_mia_dealt_with_deck(state.flags.mamma_mia_shuffle):
            supply = cards_of(counts_of(state.supply)) + (MAMMA_MIA,)
            state = replace(state, supply=supply, step=Step.SUPPLY)
            return state, (*events, event("mamma_mia_joined_supply", "setup.supply"))
        return replace(state, step=_waiter_pile(state, 0)), events
    if pile == Step.SUPPLY:
        return replace(state, step=_waiter_pile(state, 0)), ()
    seat = state.config.colours.index(pile.removeprefix(WAITER_PILE)) + 1
    if seat < state.players:
        return replace(state, step=_waiter_pile(state, seat)), ()
    return take_first_orders(state)


def deal(state: GameState) -> Transition:
    """``setup.deal``: six ingredient cards each, one at a time round the table from the
    first player. Under ``mamma_mia_shuffle=before_deal`` a dealt Mamma Mia! card is
    laid face up beside its receiver's waiter and replaced (``mamma_mia.dealt``)."""
    deck = list(state.supply)
    hands = [Hand() for _ in range(state.players)]
    holder = state.mamma_mia
    events: list[Event] = []
    order = deal_order(state.config.first_player, state.players)
    for _ in range(state.parameters.starting_ingredients):
        for seat in order:
            card = deck.pop(0)
            if card == MAMMA_MIA:
                holder = seat
                events.append(event("mamma_mia_dealt", "mamma_mia.dealt", seat=seat))
                card = deck.pop(0)
            hands[seat] = Hand(with_kind(hands[seat].ingredients, card, 1))
    events.append(event("dealt", "setup.deal", cards=state.parameters.starting_ingredients,
                        players=state.players))
    return replace(state, supply=tuple(deck), hands=tuple(hands), mamma_mia=holder), tuple(events)


def take_first_orders(state: GameState) -> Transition:
    """``setup.waiter``: each player takes the top order of their waiter into hand;
    then the first player begins (``setup.first_player``)."""
    hands, waiters, taken = [], [], state.parameters.starting_orders
    for hand, waiter in zip(state.hands, state.waiters, strict=True):
        hands.append(replace(hand, orders=tuple(sorted(waiter[:taken]))))
        waiters.append(waiter[taken:])
    state = replace(state, hands=tuple(hands), waiters=tuple(waiters), phase=Phase.TURN,
                    step=Step.PLAY, current=state.config.first_player, played=0, quiet_turns=0)
    return state, (event("took_first_orders", "setup.waiter"),
                   event("turn_begins", "setup.first_player", seat=state.current, round=1))


def _waiter_pile(state: GameState, seat: int) -> str:
    return waiter_pile(state.colour(seat))
