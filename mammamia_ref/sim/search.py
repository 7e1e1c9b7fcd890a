"""The search player: determinized Monte Carlo search on the fast engine.

At a decision worth searching, the player deals the cards it cannot see anew,
consistently with its :class:`~mammamia_ref.rules.observation.Observation`
(:func:`determinize`: the other hands, the supply and its order, the waiters' orders,
the orders lying face down in the oven that it cannot identify, a closed used pile),
tries each candidate action in that deal, and lets careful players
(:func:`mammamia_ref.sim.careful.choose_careful_code`) play on for the horizon: by
default one cycle of turns (every player plays once more, then the oven is opened at
once, :func:`open_now`: what the orders in it would come to), or to the end of the
round or of the game. It scores the outcome for itself (:func:`score`: its pizzas less
the best other player's, plus its share of the win once the game is over). Each deal is
tried with every candidate and the same chance, so candidates are compared on equal
terms; the candidate with the best total over the deals is chosen, the careful player's
own choice winning ties.

What it may know is exactly its observation: the search is handed nothing else (in a
simulation, :class:`SearchChooser` builds the deciding player's observation from the
fast state and passes on only that and the legal actions). Its randomness comes from
the generator it is given, so a seeded game replays. The budget is the number of
playouts per decision (``search:N``, default :data:`DEFAULT_PLAYOUTS`), shared among the
candidates: N // candidates deals (at least one), each tried with every candidate.

Searched decisions (:func:`candidates`): playing cards (the careful player's choice and
one card of each kind held) and placing an order (every order in hand, or none). The
draw, naming a kind and completing from hand are the careful player's: trying them
changed little in the positions measured (``docs/simulation.md``), and leaving them
out leaves the budget to the decisions that matter. A decision with a single candidate
costs no search and no random number.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from mammamia_ref.errors import InternalError, UsageError
from mammamia_ref.formats.limits import whole_number
from mammamia_ref.rules.actions import Action
from mammamia_ref.rules.observation import IngredientRun, Observation, observation
from mammamia_ref.rules.state import GameConfig, Hand, Phase, Step
from mammamia_ref.rules.vocabulary import (
    COPIES,
    KIND_INDEX,
    KINDS,
    ORDERS_OF,
)
from mammamia_ref.sim import fast
from mammamia_ref.sim.careful import choose_careful_code, observed_forecast
from mammamia_ref.sim.careful import judgement as careful_flags

# (``Final``: no effect in Python; compiled, mypyc keeps them in C variables)
N_KINDS: Final = len(KINDS)
DEFAULT_PLAYOUTS: Final = 8
HORIZONS: Final = ("cycle", "round", "game")
MAX_PLAYOUTS: Final = 100_000
MAX_TURNS: Final = 1_000
MAX_PLAYOUT_DECISIONS: Final = 20_000  # a safety net: no round comes near


@dataclass(frozen=True, slots=True)
class SearchSettings:
    """How much the search player thinks: ``playouts`` per decision, each played on for
    the ``horizon``: a ``cycle`` of turns (as many as there are players), a number of
    turns, or to the end of the ``round`` or the ``game``."""

    playouts: int = DEFAULT_PLAYOUTS
    horizon: str | int = "cycle"


def parse_search(name: object) -> SearchSettings | None:
    """The settings a policy name asks for: ``search`` (the defaults), ``search:N`` (N
    playouts per decision) or ``search:N:H`` (and the horizon H: ``cycle``, ``round``,
    ``game`` or a number of turns); None if ``name`` is not a search player's (nor a
    string: typed ``object``, so that the compiled core answers None too rather than
    refusing the argument's type).

    >>> parse_search("search:64")
    SearchSettings(playouts=64, horizon='cycle')
    >>> parse_search("search:8:round")
    SearchSettings(playouts=8, horizon='round')
    >>> parse_search("careful") is None
    True
    """
    if not isinstance(name, str) or not (name == "search" or name.startswith("search:")):
        return None
    parts = name.split(":")
    if len(parts) > 3 or any(not p.isascii() for p in parts):
        raise UsageError(f"policy {name[:40]!r}: a search player is search, search:N or "
                         f"search:N:HORIZON", options=("--policy",), value=name)
    settings = SearchSettings()
    if len(parts) > 1:
        playouts = whole_number(parts[1], 1, MAX_PLAYOUTS) if parts[1].isdigit() else None
        if playouts is None:
            raise UsageError(f"policy {name[:40]!r}: N, the playouts per decision, must be "
                             f"1 to {MAX_PLAYOUTS}", options=("--policy",), value=name)
        settings = SearchSettings(playouts=playouts, horizon=settings.horizon)
    if len(parts) > 2:
        horizon = parts[2]
        if horizon in HORIZONS:
            settings = SearchSettings(settings.playouts, horizon)
        elif horizon.isdigit() and (turns := whole_number(horizon, 0, MAX_TURNS)) is not None:
            settings = SearchSettings(settings.playouts, turns)
        else:
            raise UsageError(f"policy {name[:40]!r}: the horizon is cycle, round, game or a number "
                             f"of turns up to {MAX_TURNS}", options=("--policy",), value=name)
    return settings


# --- dealing the hidden cards --------------------------------------------------------


_TEMPLATES: Final[dict[GameConfig, fast.FastState]] = {}


def _template(config: GameConfig) -> fast.FastState:
    found = _TEMPLATES.get(config)
    if found is None:
        found = _TEMPLATES[config] = fast.new_game(config)
    return found


def determinize(seen: Observation, rng: random.Random) -> fast.FastState:
    """A fast state that the observer could not tell from the real one: every card it
    sees where it sees it, the others dealt at random from those it cannot see.

    Counts the observer is told (``card_counts=public``) are kept: each seat's hand and
    waiter sizes, the supply's size, the used pile's. Under ``card_counts=hidden`` they
    are guessed: each other player holds the orders a hand starts with (or fewer, if
    fewer are unaccounted for) and ingredients up to the hand limit, the supply the rest
    (the used pile is empty during the turns; during an opening the used pile and the
    supply go into the next supply together, so their split does not matter)."""
    player = seen.player
    if player is None or seen.hand is None:
        raise InternalError("a spectator's observation cannot decide")
    state = _template(seen.config).copy()
    _copy_public(seen, state)
    counted = [view.hand_size is not None for view in seen.seats]
    oven, holes, placed = _observed_oven(seen)
    hand_orders, waiters = _deal_orders(seen, player, seen.hand, oven, holes, placed, rng)
    state.oven, state.hand_orders, state.waiters = oven, hand_orders, waiters
    pool = _hidden_ingredients(seen, seen.hand, oven)
    rng.shuffle(pool)
    state.hands, taken = _deal_hands(seen, player, seen.hand, hand_orders, pool)
    used, taken = _deal_used_pile(seen, state.phase, pool, taken)
    state.supply, state.used = _deal_supply(seen, pool[taken:], rng), used
    if not all(counted) and len(pool) < taken:
        raise InternalError("the guessed hands hold more cards than are hidden")
    return state


def _copy_public(seen: Observation, state: fast.FastState) -> None:
    """What every player sees the same: the phase and step, whose turn, the counters,
    the revealed order, the table, the box and the delivered orders."""
    codes = fast.CARD_CODES
    state.phase, state.step = Phase(seen.phase), Step(seen.step)
    state.current, state.round, state.resolutions = seen.current, seen.round, seen.resolutions
    state.played, state.quiet_turns, state.mamma_mia = seen.played, seen.quiet_turns, \
        seen.mamma_mia
    reveal = seen.reveal
    state.reveal = None if reveal is None else codes[reveal.order]
    state.reveal_kind = None if reveal is None or reveal.kind is None else KIND_INDEX[reveal.kind]
    state.table, state.box = list(seen.table), tuple(seen.box)
    state.delivered = [tuple(codes[o] for o in view.delivered) for view in seen.seats]


def _observed_oven(seen: Observation) -> tuple[list[int], dict[str, list[int]], set[str]]:
    """The oven as the observer sees it: every ingredient and every order it identifies,
    a hole (-1) for each order it cannot; the holes' positions by colour; the orders
    placed where it sees them (in the oven, or revealed)."""
    codes = fast.CARD_CODES
    oven: list[int] = []
    holes: dict[str, list[int]] = {colour: [] for colour in seen.config.colours}
    placed: set[str] = set() if seen.reveal is None else {seen.reveal.order}
    for entry in seen.oven:
        if isinstance(entry, IngredientRun):
            oven += [KIND_INDEX[entry.kind]] * entry.count
        elif entry.order is None:
            holes[entry.colour].append(len(oven))
            oven.append(-1)
        else:
            placed.add(entry.order)
            oven.append(codes[entry.order])
    return oven, holes, placed


def _deal_orders(seen: Observation, player: int, hand: Hand, oven: list[int],
                 holes: dict[str, list[int]], placed: set[str],
                 rng: random.Random) -> tuple[list[tuple[int, ...]], list[tuple[int, ...]]]:
    """Each seat's orders in hand and in its waiter, and the oven's holes filled (in
    place): each colour's orders not delivered, not seen in the oven, not in own hand,
    shuffled, then dealt to the hand, the oven's holes and the waiter in that order."""
    codes = fast.CARD_CODES
    hand_orders: list[tuple[int, ...]] = [()] * seen.config.players
    waiters: list[tuple[int, ...]] = [()] * seen.config.players
    for seat, view in enumerate(seen.seats):
        out = placed | set(view.delivered)
        if seat == player:
            out |= set(hand.orders)
        rest = [codes[o] for o in ORDERS_OF[view.colour] if o not in out]
        rng.shuffle(rest)
        slots = holes[view.colour]
        if seat == player:
            hand_orders[seat] = tuple(sorted(codes[o] for o in hand.orders))
            held = 0
        else:
            free = len(rest) - len(slots)
            held = view.hand_size[1] if view.hand_size is not None \
                else min(seen.rules.parameters.starting_orders, free)
            hand_orders[seat] = tuple(sorted(rest[:held]))
        for index, order in zip(slots, rest[held:held + len(slots)], strict=True):
            oven[index] = order
        waiters[seat] = tuple(rest[held + len(slots):])
        if view.waiter_size is not None and len(waiters[seat]) != view.waiter_size:
            raise InternalError(f"seat {seat}: {len(waiters[seat])} orders left for a waiter "
                                f"of {view.waiter_size}")
    return hand_orders, waiters


def _hidden_ingredients(seen: Observation, hand: Hand, oven: Sequence[int]) -> list[int]:
    """The ingredients the observer cannot see, in kind order (not yet shuffled): all
    there are, less the box, its own hand, the table, the oven and an open used pile."""
    seen_cards = list(hand.ingredients)
    for kind in range(N_KINDS):
        seen_cards[kind] += seen.table[kind]
    for card in oven:
        if 0 <= card < N_KINDS:
            seen_cards[card] += 1
    if seen.used is not None:
        seen_cards = [s + u for s, u in zip(seen_cards, seen.used, strict=True)]
    pool: list[int] = []
    for kind in range(N_KINDS):
        hidden = COPIES[kind] - seen.box[kind] - seen_cards[kind]
        if hidden < 0:
            raise InternalError(f"more {KINDS[kind]} seen than there are")
        pool += [kind] * hidden
    return pool


def _deal_hands(seen: Observation, player: int, hand: Hand,
                hand_orders: Sequence[tuple[int, ...]],
                pool: Sequence[int]) -> tuple[list[tuple[int, ...]], int]:
    """Each seat's ingredients in hand (the observer's own as seen, the others' from the
    shuffled ``pool``: the told size, or up to the hand limit) and how many were taken."""
    hands = [tuple(hand.ingredients)] * seen.config.players
    taken = 0
    for seat, view in enumerate(seen.seats):
        if seat == player:
            continue
        size = view.hand_size[0] if view.hand_size is not None \
            else max(0, min(seen.rules.parameters.hand_limit - len(hand_orders[seat]),
                            len(pool) - taken))
        counts = [0] * N_KINDS
        for card in pool[taken:taken + size]:
            counts[card] += 1
        hands[seat] = tuple(counts)
        taken += size
    return hands, taken


def _deal_used_pile(seen: Observation, phase: str, pool: Sequence[int],
                    taken: int) -> tuple[list[int], int]:
    """The used pile's counts by kind (as seen if it is open, dealt to its told size if
    closed, and otherwise empty, except during an opening: see :func:`determinize`) and
    how many of the ``pool`` are taken after it."""
    if seen.used is not None:
        return list(seen.used), taken
    used = [0] * N_KINDS
    if seen.used_size is not None:
        for card in pool[taken:taken + seen.used_size]:
            used[card] += 1
        return used, taken + seen.used_size
    if phase == Phase.OVEN:  # with the supply into the next supply: see above
        for card in pool[taken:]:
            used[card] += 1
        return used, len(pool)
    return used, taken


def _deal_supply(seen: Observation, supply: list[int], rng: random.Random) -> list[int]:
    """The supply: the ingredients left, and the Mamma Mia! card at a random place if no
    one has played it; its size checked against the told one."""
    holds_mamma_mia = seen.mamma_mia is None
    if seen.supply_size is not None and len(supply) + holds_mamma_mia != seen.supply_size:
        raise InternalError(f"{len(supply)} ingredients left for a supply of "
                            f"{seen.supply_size} cards")
    if holds_mamma_mia:
        supply.insert(rng.randrange(len(supply) + 1), fast.MM)
    return supply


# --- the search ----------------------------------------------------------------------


def candidates(state: fast.FastState, legal: Sequence[int]) -> list[int]:
    """The actions worth trying (see the module's docstring), the careful player's choice
    first; that choice alone where there is nothing to search. ``state`` is any deal
    consistent with the observation: nothing here depends on hidden cards."""
    careful = choose_careful_code(state, legal)
    found = [careful]
    step = state.step
    seat = state.current
    if step == Step.PLAY:
        found += [fast.play_code(kind, 1) for kind in range(N_KINDS)
                  if state.hands[seat][kind] > 0]
    elif step == Step.ORDER:
        found += legal
    unique: list[int] = []
    for action in found:
        if action not in unique:
            unique.append(action)
    return unique


def score(state: fast.FastState, seat: int) -> float:
    """How well ``seat`` stands: its delivered orders less the best other player's, plus
    its share of the win once the game is over."""
    delivered = [len(stack) for stack in state.delivered]
    mine = delivered[seat]
    best_other = max(d for s, d in enumerate(delivered) if s != seat)
    value = float(mine - best_other)
    if state.phase == Phase.OVER:
        winners = fast.winners(state)[0]
        if seat in winners:
            value += 1.0 / len(winners)
    return value


def playout(state: fast.FastState, chance: random.Random, horizon: str | int) -> None:
    """Careful players in every seat play ``state`` on, in place: to the end of its
    round (``"round"``) or of the game (``"game"``), or for ``horizon`` more turns
    (``"cycle"``: as many as there are players), after which the oven is opened at once
    (:func:`open_now`); a round that ends sooner ends the playout."""
    stop = state.resolutions + 1 if horizon == "round" else None
    turns = state.players if horizon == "cycle" else horizon if isinstance(horizon, int) \
        else None
    players, stall_letter = state.players, state.rules.stall_letter
    for _ in range(MAX_PLAYOUT_DECISIONS):
        phase = state.phase
        if phase == Phase.OVER or (stop is not None and state.resolutions >= stop):
            return
        if phase == Phase.SHUFFLE:
            if turns is not None:
                return  # the round ended within the horizon
            fast.apply_shuffle(state, fast.shuffled(chance, fast.chance_pile(state)[1]))
            continue
        if stall_letter and phase == Phase.TURN and state.quiet_turns >= players:
            return  # stalled for ever
        if turns is not None and phase == Phase.TURN and state.step == Step.PLAY:
            if turns == 0:
                open_now(state)
                return
            turns -= 1
        fast.apply(state, choose_careful_code(state, fast.legal_actions(state)))


def open_now(state: fast.FastState) -> None:
    """End the round here and open the oven, careful players deciding at the opening:
    what the orders in the oven would come to if it were opened now (a player with no
    Mamma Mia! card yet drawn opens it: the one to play)."""
    if state.mamma_mia is None:
        state.mamma_mia = state.current
    state.phase, state.step = Phase.ROUND_END, Step.SUPPLY
    fast.settle(state)
    while state.phase == Phase.OVEN:
        fast.apply(state, choose_careful_code(state, fast.legal_actions(state)))


def _forecast_everyone(state: fast.FastState) -> None:
    """Work out every player's forecast of this oven once, before the candidates branch
    off it: each branch's careful players then take it up from here
    (:func:`mammamia_ref.sim.careful.forecast` keeps its work by the oven's cards)."""
    if state.phase == Phase.TURN:
        flags = careful_flags(state)
        for seat in range(state.players):
            observed_forecast(state, seat, flags)


def search_code(seen: Observation, legal: Sequence[int], rng: random.Random,
                settings: SearchSettings) -> int:
    """The search player's choice among the action codes ``legal`` (see the module's
    docstring), from the observation ``seen`` only."""
    if len(legal) == 1:
        return legal[0]
    if seen.player is None:
        raise InternalError("a spectator's observation cannot decide")
    # the candidates are worked out on a deal (they depend on nothing hidden) drawn
    # from a generator of its own, so that a decision with one candidate costs no
    # number from rng; that deal is the first one tried
    deal = determinize(seen, random.Random(0))
    tried = candidates(deal, legal)
    if len(tried) == 1:
        return tried[0]
    seat = seen.player
    deals = max(1, settings.playouts // len(tried))
    TALLY.searched += 1
    TALLY.playouts += deals * len(tried)
    totals = [0.0] * len(tried)
    for number in range(deals):
        if number:
            deal = determinize(seen, rng)
        chance = rng.getrandbits(64)
        _forecast_everyone(deal)
        for index, action in enumerate(tried):
            world = deal.copy()
            fast.apply(world, action)
            playout(world, random.Random(chance), settings.horizon)
            totals[index] += score(world, seat)
    best = max(range(len(tried)), key=lambda i: (totals[i], -i))
    return tried[best]


@dataclass
class Tally:
    """What the search players of this process have done: decisions taken, decisions
    searched (more than one candidate), playouts, and the CPU seconds spent deciding.
    For measuring (``python -m mammamia_ref.tools.bench.strength``); it never changes a
    choice."""

    decisions: int = 0
    searched: int = 0
    playouts: int = 0
    cpu_seconds: float = 0.0


TALLY: Final = Tally()


class SearchChooser:
    """The search player as a chooser on the fast engine (what ``mammamia simulate
    --policy search:N`` runs): it builds the deciding player's observation and hands the
    search that and the legal action codes, nothing else."""

    def __init__(self, settings: SearchSettings) -> None:
        self.settings = settings

    def __call__(self, state: fast.FastState, legal: Sequence[int], rng: random.Random) -> int:
        start = time.process_time()
        TALLY.decisions += 1
        if len(legal) == 1:
            chosen = legal[0]
        else:
            seen = observation(state.to_state(), state.current)
            chosen = search_code(seen, legal, rng, self.settings)
        TALLY.cpu_seconds += time.process_time() - start
        return chosen


class SearchPolicy:
    """The search player as a :data:`~mammamia_ref.sim.policies.Chooser` over an
    observation and reference actions (what :class:`~mammamia_ref.sim.policies.
    ObservingPolicy` wraps)."""

    def __init__(self, settings: SearchSettings) -> None:
        self.settings = settings

    def __call__(self, seen: Observation, legal: Sequence[Action], rng: random.Random) -> Action:
        codes = [fast.action_code(action) for action in legal]
        chosen = search_code(seen, codes, rng, self.settings)
        return legal[codes.index(chosen)]


__all__ = ["DEFAULT_PLAYOUTS", "HORIZONS", "TALLY", "SearchChooser", "SearchPolicy",
           "SearchSettings", "Tally", "candidates", "determinize", "open_now", "parse_search",
           "playout", "score", "search_code"]
