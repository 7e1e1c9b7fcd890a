"""Hypothesis strategies for Mamma Mia!: configurations, played games, reachable states
and arbitrary actions, exported so that porters can drive their own implementation with
the same inputs as our invariant tests (``tests/test_invariants.py``).

hypothesis is a test extra: only this module imports it, and nothing in ``mammamia_ref``
imports this module, so the package works without it. See ``docs/strategies.md``.

- :func:`configs`: a :class:`GameConfig` (2 to 5 players, any colours, first player and
  variant values).
- :func:`legal_games`: a played game, every decision and shuffle drawn from hypothesis
  data, so a failure shrinks to a short game with sorted decks.
- :func:`games`: a played game from a drawn seed (cheap to draw, shrinks only the seed).
- :func:`states`: a reachable state (a random legal prefix of a game).
- :func:`actions`: arbitrary well-formed actions, legal or not; given a state, mixed
  with the near misses of :func:`near_misses`.

A played game is a list of ``(state, action)`` pairs, the state being the one the action
is applied to; the game's last state is ``apply(*game[-1])[0]`` (see :func:`final_state`).
"""

from __future__ import annotations

import random
from collections.abc import Collection, Mapping
from functools import cache, lru_cache
from typing import Literal

from hypothesis import strategies as st

from mammamia_ref.errors import UsageError, VariantError
from mammamia_ref.rules.actions import (
    DRAW_SOURCES,
    Action,
    Complete,
    Decline,
    Draw,
    NameKind,
    NoOrder,
    Pass,
    PlaceOrder,
    Play,
    Shuffle,
)
from mammamia_ref.rules.chance import ChanceSource
from mammamia_ref.rules.game import apply, chance_pile, is_chance, is_over, legal_actions, new_game
from mammamia_ref.rules.state import GameConfig, GameState, make_config, variant_values
from mammamia_ref.rules.typed_spec import Stall
from mammamia_ref.rules.vocabulary import (
    COLOURS,
    KINDS,
    MAMMA_MIA,
    MAX_PLAYERS,
    MIN_PLAYERS,
    ORDERS,
    Counts,
)

PlayedGame = list[tuple[GameState, Action]]
ShuffleMode = Literal["drawn", "seeded"]

_ORDER_IDS = tuple(ORDERS)
_CARD_IDS = (*KINDS, MAMMA_MIA, *_ORDER_IDS)
_PILES = ("ingredients", "supply", *(f"waiter.{colour}" for colour in COLOURS))


def configs(*, players: int | st.SearchStrategy[int] | None = None,
            variants: Mapping[str, str | st.SearchStrategy[str]] | None = None,
            colours: bool = True) -> st.SearchStrategy[GameConfig]:
    """A game configuration: 2 to 5 players, a first player, a value for every variant flag.

    ``players`` and entries of ``variants`` pin a value or narrow it with a strategy (for
    example ``variants={"stall": "cut"}``); every other flag takes any of its values from
    ``spec/disputes.yaml``. With ``colours`` the seats get a random choice and order of
    colours (seat 0 need not be red), otherwise the manifest's first ones.
    Shrinks towards 2 players, seat 0 first and each flag's first listed value.
    """
    pinned = dict(variants or {})
    unknown = set(pinned) - set(variant_values())
    if unknown:
        raise VariantError(f"unknown variant flags: {', '.join(sorted(unknown))}",
                           flag=min(unknown), value=pinned[min(unknown)])
    flag_strategies = {
        flag: _as_strategy(pinned[flag]) if flag in pinned else st.sampled_from(values)
        for flag, values in variant_values().items()
    }
    count = _as_strategy(players) if players is not None else st.integers(MIN_PLAYERS,
                                                                          MAX_PLAYERS)

    @st.composite
    def build(draw: st.DrawFn) -> GameConfig:
        n = draw(count)
        chosen = tuple(draw(st.permutations(COLOURS))[:n]) if colours else COLOURS[:n]
        first = draw(st.integers(0, n - 1))
        values = {flag: draw(strategy) for flag, strategy in flag_strategies.items()}
        return make_config(n, colours=chosen, first_player=first, variants=values)

    return build()


def legal_games(config: GameConfig | st.SearchStrategy[GameConfig] | None = None, *,
                max_steps: int = 600, shuffles: ShuffleMode = "drawn"
                ) -> st.SearchStrategy[PlayedGame]:
    """A game played from its start by uniformly drawn legal actions.

    Every decision is ``sampled_from(legal_actions(state))``; every shuffle is a drawn
    permutation of the pile (``shuffles="drawn"``, shrinking towards the pile's order) or
    comes from a ``ChanceSource`` with a drawn seed (``"seeded"``, far fewer draws). The
    game stops when it is over, after ``max_steps`` actions, or when a round stalls under
    ``stall=letter`` (every player in turn moved no card: the engine would let it go on
    for ever, so we stop as :func:`mammamia_ref.sim.play.play_game` does).
    """
    if max_steps < 1:
        raise UsageError("a played game has at least one action: max_steps >= 1",
                         options=("max_steps",), value=max_steps)
    return _played(config, max_steps=max_steps, shuffles=shuffles)


def games(config: GameConfig | st.SearchStrategy[GameConfig] | None = None, *,
          max_steps: int = 2000) -> st.SearchStrategy[PlayedGame]:
    """A whole game from a drawn seed: shuffles from ``ChanceSource(seed)``, decisions
    uniform among the legal actions from a generator seeded likewise. Few draws, so it
    suits long games and many examples; a failure shrinks only the config and seed.
    Stops as :func:`legal_games` does.
    """
    strategy = _config_strategy(config)

    @st.composite
    def build(draw: st.DrawFn) -> PlayedGame:
        chosen = draw(strategy)
        seed = draw(st.integers(0, 2**32 - 1))
        return play_seeded(chosen, seed, max_steps=max_steps)

    return build()


def states(config: GameConfig | st.SearchStrategy[GameConfig] | None = None, *,
           max_steps: int = 400, shuffles: ShuffleMode = "seeded"
           ) -> st.SearchStrategy[GameState]:
    """A reachable state: the state after a random legal prefix (0 to ``max_steps``
    actions, drawn as in :func:`legal_games`) of a game from a random config. Chance
    nodes, decisions in the oven, the end of the game and stalled rounds all occur."""
    strategy = _config_strategy(config)

    @st.composite
    def build(draw: st.DrawFn) -> GameState:
        chosen = draw(strategy)
        length = draw(st.integers(0, max_steps))
        game = draw(_played(st.just(chosen), max_steps=length, shuffles=shuffles))
        return final_state(game) if game else new_game(chosen)

    return build()


def actions(state: GameState | None = None) -> st.SearchStrategy[Action]:
    """Arbitrary well-formed actions (each one formats to valid JSON and parses back),
    legal or not. Without a state they are generic: any kind, order ID, count from 0 to
    9, source, count map or short shuffle. With a state, half of them are drawn from
    :func:`near_misses` of that state, which are mostly but not always illegal: filter
    with :func:`is_legal`."""
    generic = _generic_actions()
    if state is None:
        return generic
    return st.one_of(st.sampled_from(near_misses(state)), generic)


@lru_cache(maxsize=64)
def near_misses(state: GameState) -> tuple[Action, ...]:
    """Actions close to the legal ones in ``state``: every action type, with counts one
    off, orders of the wrong place or colour, a pile with a card short or extra. Most are
    illegal; the legal ones among them are what :func:`is_legal` accepts. Deterministic,
    so a test can try all of them at every step."""
    seat = state.current
    hand = state.hands[seat]
    colour = state.colour(seat)
    own = [o for o in _ORDER_IDS if ORDERS[o].colour == colour]
    foreign = [o for o in _ORDER_IDS if ORDERS[o].colour != colour][:1]
    held = [o for o in own if o in hand.orders][:1]
    waiting = [o for o in own if o in state.waiters[seat]][:1]
    out: list[Action] = [Pass(), NoOrder(), Decline()]
    for index, kind in enumerate(KINDS):
        n = hand.ingredients[index]
        out += [Play(kind, c) for c in sorted({0, 1, n, n + 1})]
        out.append(NameKind(kind))
    out += [PlaceOrder(o) for o in (*held, *waiting, *foreign)]
    for source in DRAW_SOURCES:
        pile = state.supply if source == "supply" else state.waiters[seat]
        most = len(pile)
        out += [Draw(source), *(Draw(source, c) for c in sorted({0, 1, most, most + 1, 8}))]
    out += [Complete(c) for c in _completion_neighbours(state)]
    out += _shuffle_neighbours(state)
    return tuple(dict.fromkeys(out))  # drop repeats, keep order


def is_legal(state: GameState, action: Action,
             legal: Collection[Action] | None = None) -> bool:
    """Whether the rules accept ``action`` here: it is listed by ``legal_actions`` (pass
    them as ``legal`` when testing many actions), or, at a chance node (where nothing is
    listed), it is a shuffle of the pending pile."""
    if is_chance(state):
        if not isinstance(action, Shuffle):
            return False
        pile, cards = chance_pile(state)
        return action.pile == pile and sorted(action.order) == sorted(cards)
    return action in (legal_actions(state) if legal is None else legal)


def final_state(game: PlayedGame) -> GameState:
    """The state a played game ends in (after its last action)."""
    state, action = game[-1]
    return apply(state, action)[0]


def play_seeded(config: GameConfig, seed: int | str, *, max_steps: int = 2000) -> PlayedGame:
    """Play ``config`` with shuffles from ``ChanceSource(seed)`` and uniform legal choices
    from a private generator: the same seed gives the same game on every run."""
    chance = ChanceSource(seed)
    rng = random.Random(f"mammamia-strategies:{seed}")
    game: PlayedGame = []
    state = new_game(config)
    while len(game) < max_steps and not _stopped(state):
        action = chance.shuffle(state) if is_chance(state) else rng.choice(legal_actions(state))
        game.append((state, action))
        state = apply(state, action)[0]
    return game


# --- helpers ------------------------------------------------------------------------


@cache
def _generic_actions() -> st.SearchStrategy[Action]:
    """Built once: hypothesis validates a strategy the first time it is drawn from."""
    counts = st.tuples(*(st.integers(0, 4) for _ in KINDS))
    return st.one_of(
        st.builds(Play, st.sampled_from(KINDS), st.integers(0, 9)),
        st.just(Pass()),
        st.builds(PlaceOrder, st.sampled_from(_ORDER_IDS)),
        st.just(NoOrder()),
        st.builds(Draw, st.sampled_from(DRAW_SOURCES), st.none() | st.integers(0, 9)),
        st.builds(NameKind, st.sampled_from(KINDS)),
        st.builds(Complete, counts),
        st.just(Decline()),
        st.builds(Shuffle, st.sampled_from(_PILES),
                  st.lists(st.sampled_from(_CARD_IDS), max_size=6).map(tuple)),
    )


def _as_strategy(value: object) -> st.SearchStrategy:
    return value if isinstance(value, st.SearchStrategy) else st.just(value)


def _config_strategy(config: GameConfig | st.SearchStrategy[GameConfig] | None
                     ) -> st.SearchStrategy[GameConfig]:
    return configs() if config is None else _as_strategy(config)


def _stopped(state: GameState) -> bool:
    """Over, or stalled for good under ``stall=letter``."""
    return is_over(state) or (state.flags.stall == Stall.LETTER
                              and state.quiet_turns >= state.players)


def _played(config: GameConfig | st.SearchStrategy[GameConfig] | None, *, max_steps: int,
            shuffles: ShuffleMode) -> st.SearchStrategy[PlayedGame]:
    if shuffles not in ("drawn", "seeded"):
        raise UsageError(f"shuffles is 'drawn' or 'seeded', not {shuffles!r}",
                         options=("shuffles",), value=shuffles)
    strategy = _config_strategy(config)

    @st.composite
    def build(draw: st.DrawFn) -> PlayedGame:
        chosen = draw(strategy)
        chance = ChanceSource(draw(st.integers(0, 2**32 - 1))) if shuffles == "seeded" else None
        game: PlayedGame = []
        state = new_game(chosen)
        while len(game) < max_steps and not _stopped(state):
            if is_chance(state):
                if chance is not None:
                    action: Action = chance.shuffle(state)
                else:
                    pile, cards = chance_pile(state)
                    action = Shuffle(pile, tuple(draw(st.permutations(cards))))
            else:
                action = draw(st.sampled_from(legal_actions(state)))
            game.append((state, action))
            state = apply(state, action)[0]
        return game

    return build()


def _completion_neighbours(state: GameState) -> list[Counts]:
    """The legal completions, each with one card more and one fewer, and nothing."""
    out: list[Counts] = [(0,) * len(KINDS)]
    for action in legal_actions(state) if state.phase == "oven" else ():
        if isinstance(action, Complete):
            cards = action.cards
            out.append(cards)
            for i in range(len(KINDS)):
                out.append(cards[:i] + (cards[i] + 1,) + cards[i + 1:])
                if cards[i]:
                    out.append(cards[:i] + (cards[i] - 1,) + cards[i + 1:])
    return out


def _shuffle_neighbours(state: GameState) -> list[Action]:
    """Shuffles of the wrong pile, of a pile with a card short or extra, and (at a chance
    node) the pending pile as it lies, which is legal."""
    if not is_chance(state):
        return [Shuffle("supply", state.supply), Shuffle("ingredients", ())]
    pile, cards = chance_pile(state)
    other = "supply" if pile != "supply" else "ingredients"
    out: list[Action] = [Shuffle(pile, cards), Shuffle(other, cards),
                         Shuffle(pile, (*cards, KINDS[0])), Shuffle(pile, (*cards, MAMMA_MIA))]
    if cards:
        out += [Shuffle(pile, cards[1:]), Shuffle(pile, (*cards[1:], _ORDER_IDS[0]))]
    return out


__all__ = ["PlayedGame", "actions", "configs", "final_state", "games", "is_legal",
           "legal_games", "near_misses", "play_seeded", "states"]
