"""Property-based invariants of the reference engine, checked with hypothesis.

The state machine :class:`GamePlay` plays random legal games (any player count, any
variant values, drawn at its start) and checks every invariant below after every step.
Plain ``@given`` tests cover whole games by seed, JSON round trips of reachable states,
stalled rounds and the regression-scenario writer. Counting is our own, from
``spec/cards.yaml`` and the rulebook's figures, not the engine's ``check_state``.

Example counts and game lengths come from the hypothesis profile (``tests/conftest.py``).
"""

from __future__ import annotations

import ast
import contextlib
import copy
import json
import random
import subprocess
import sys
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    rule,
    run_state_machine_as_test,
)

from mammamia_ref import (
    Action,
    Complete,
    Decline,
    Draw,
    Event,
    GameConfig,
    GameState,
    IllegalActionError,
    NameKind,
    NoOrder,
    Pass,
    Play,
    Shuffle,
    apply,
    chance_pile,
    is_chance,
    is_over,
    legal_actions,
    make_config,
    new_game,
    to_move,
    winners,
)
from mammamia_ref.formats.jsonform import format_state, parse_state
from mammamia_ref.formats.scenario import (
    complete_state,
    given_state,
    load_scenario,
)
from mammamia_ref.rules.chance import ChanceSource
from mammamia_ref.rules.state import variant_values
from mammamia_ref.sim.play import play_game
from mammamia_ref.sim.policies import POLICIES
from mammamia_ref.sim.regression import write_regression_scenario
from mammamia_ref.sim.scenario_run import run_scenario
from mammamia_ref.tools.strategies import (
    actions,
    configs,
    final_state,
    games,
    is_legal,
    legal_games,
    near_misses,
    play_seeded,
    states,
)

# --- the facts, read from the spec and the rulebook, not from the engine --------------

ROOT = Path(__file__).resolve().parent.parent
CARDS = yaml.safe_load((ROOT / "spec" / "cards.yaml").read_text(encoding="utf-8"))
RULE_IDS = frozenset(r["id"] for r in yaml.safe_load(
    (ROOT / "spec" / "rules.yaml").read_text(encoding="utf-8"))["rules"])
KINDS: tuple[str, ...] = tuple(i["id"] for i in CARDS["ingredients"])
COPIES = {i["id"]: int(i["copies"]) for i in CARDS["ingredients"]}
PERSONAL = {c["id"]: c["personal"] for c in CARDS["colours"]}
MAMMA_MIA = CARDS["mamma_mia_card"]
HAND_LIMIT = 7
ROUNDS = 3
# setup.trim: ingredient cards in play with 5/4/3/2 players (13/12/10/8 of each kind).
IN_PLAY = {5: 65, 4: 60, 3: 50, 2: 40}
PER_KIND = {5: 13, 4: 12, 3: 10, 2: 8}
ALL_INGREDIENTS = 65
ORDERS_PER_COLOUR = 8
BOMBASTICA_TOTAL = int(CARDS["order_types"]["bombastica"]["total"])


def orders_of(colour: str) -> tuple[str, ...]:
    """A colour's eight order IDs: four standard <kind>4, one of each and three specials."""
    standard = tuple(f"{colour}.{kind}4" for kind in KINDS if kind != PERSONAL[colour])
    return (*standard, f"{colour}.one_of_each", f"{colour}.bombastica", f"{colour}.monotoni",
            f"{colour}.minimale")


ALL_ORDERS = {order: colour for colour in PERSONAL for order in orders_of(colour)}


def requirement(order: str, named: str | None) -> dict[str, int]:
    """What a fixed order needs (cards.yaml's recipes); Bombastica has no fixed needs."""
    colour, key = order.split(".")
    need = dict.fromkeys(KINDS, 0)
    if key == "one_of_each":
        return dict.fromkeys(KINDS, 1)
    need[PERSONAL[colour]] += 1
    if key in ("monotoni", "minimale"):
        assert named is not None and named != PERSONAL[colour], (order, named)
        need[named] += 6 if key == "monotoni" else 3
    else:
        need[key.removesuffix("4")] += 4
    return need


def as_map(counts: tuple[int, ...]) -> dict[str, int]:
    return dict(zip(KINDS, counts, strict=True))


# --- our own census of the cards -----------------------------------------------------


def census(state: GameState) -> dict[str, Counter[str]]:
    """Every physical card, by the place it lies in. The Mamma Mia! card lies "aside"
    only before the first shuffle under mamma_mia_shuffle=after_deal (setup.supply)."""
    places: dict[str, Counter[str]] = {
        "supply": Counter(state.supply),
        "oven": Counter(state.oven),
        "table": Counter(as_map(state.table)),
        "used": Counter(as_map(state.used)),
        "box": Counter(as_map(state.box)),
        "reveal": Counter([state.reveal.order] if state.reveal else []),
        "holder": Counter([MAMMA_MIA] if state.mamma_mia is not None else []),
        "aside": Counter([MAMMA_MIA] if _mamma_mia_aside(state) else []),
    }
    for seat, hand in enumerate(state.hands):
        places[f"hand.{seat}"] = Counter(as_map(hand.ingredients)) + Counter(hand.orders)
        places[f"waiter.{seat}"] = Counter(state.waiters[seat])
        places[f"delivered.{seat}"] = Counter(state.delivered[seat])
    return {name: +counter for name, counter in places.items()}  # drop zero counts


def all_cards(state: GameState) -> Counter[str]:
    """Every physical card counted once wherever it lies (a fast census without places)."""
    every: Counter[str] = Counter(state.supply)
    every.update(state.oven)
    for counts in (state.table, state.used, state.box, *(h.ingredients for h in state.hands)):
        every.update(dict(zip(KINDS, counts, strict=True)))
    for seat, hand in enumerate(state.hands):
        every.update(hand.orders)
        every.update(state.waiters[seat])
        every.update(state.delivered[seat])
    if state.reveal:
        every[state.reveal.order] += 1
    every[MAMMA_MIA] += (state.mamma_mia is not None) + _mamma_mia_aside(state)
    return +every


def _mamma_mia_aside(state: GameState) -> bool:
    return (state.phase, state.step) == ("shuffle", "ingredients") and \
        state.flags.mamma_mia_shuffle == "after_deal"


def total_cards(players: int) -> int:
    return ALL_INGREDIENTS + ORDERS_PER_COLOUR * players + 1


def where(places: dict[str, Counter[str]], card: str) -> list[str]:
    return [name for name, counter in places.items() for _ in range(counter[card])]


# How the Mamma Mia! card reaches a player: (event, rule) -> where it comes from.
MAMMA_MIA_MOVES = {
    ("mamma_mia_dealt", "mamma_mia.dealt"): "deal",          # before_deal: dealt, replaced
    ("mamma_mia_drawn", "mamma_mia.draw"): "supply",         # drawn from the supply
    ("mamma_mia_taken", "round_end.stall"): "stall",         # the next player, at a stall
    ("mamma_mia_taken", "round_end.last_ingredient"): "last",  # left to the drawer
}


def follow_mamma_mia(events: tuple[Event, ...] | list[Event], holder: int | None = None,
                     opener: int | None = None) -> tuple[int | None, int | None]:
    """The Mamma Mia! holder and the seat that opened the oven last, after ``events``,
    from the events alone: every way the card reaches a player (MAMMA_MIA_MOVES), the
    holder opening the oven (mamma_mia.holder), the card going back into the supply
    (next_round.supply)."""
    for e in events:
        if e.name.startswith("mamma_mia_") and e.name != "mamma_mia_joined_supply":
            assert (e.name, e.rule) in MAMMA_MIA_MOVES, (e.name, e.rule)
            assert holder is None, f"the Mamma Mia! card was taken twice: {e}"
            holder = e.get("seat")
        elif e.name == "oven_opened":
            assert holder is not None and e.get("seat") == holder, (e, holder)
            opener = holder
        elif e.name == "supply_gathered":
            holder = None
    return holder, opener


def last_opener(events: list[Event]) -> int | None:
    """game_end.seat_order_win counts from the player who held the Mamma Mia! card at the
    last opening: the seat of the last oven_opened, followed from the whole game."""
    return follow_mamma_mia(events)[1]


def own_winners(state: GameState, last_holder: int | None) -> tuple[set[int], str]:
    """game_end.*: most delivered; then most ingredient cards in hand; then shared, or
    the first clockwise from the last Mamma Mia! holder (that holder counting first)."""
    n = state.players
    most = max(len(d) for d in state.delivered)
    leaders = [s for s in range(n) if len(state.delivered[s]) == most]
    if len(leaders) == 1:
        return set(leaders), "game_end.most_delivered"
    best = max(sum(state.hands[s].ingredients) for s in leaders)
    leaders = [s for s in leaders if sum(state.hands[s].ingredients) == best]
    if len(leaders) == 1:
        return set(leaders), "game_end.tie_break"
    if state.flags.final_tie == "shared":
        return set(leaders), "game_end.shared_win"
    assert last_holder is not None
    return {min(leaders, key=lambda s: (s - last_holder) % n)}, "game_end.seat_order_win"


def round_turn_bound(players: int, supply: int) -> int:
    """Most turns a round can last under stall=cut (round_end.stall).

    A turn is quiet when no card moves. A non-quiet turn does at least one of: play
    ingredients (each play takes at least one ingredient card that was in a hand when the
    round began, at most 7 per player, or came from the supply, at most ``supply``);
    place an order (each order placed stays in the oven until the round ends: at most 8
    per player); draw from the supply (it only shrinks during a round: at most
    ``supply`` draws) or from a waiter (waiters only shrink during a round: at most 8 per
    player). So there are at most 7n + S + 8n + S + 8n = 23n + 2S non-quiet turns, and at
    most n - 1 quiet turns before each of them and n after the last (the n-th quiet turn
    in a row ends the round): turns <= n * (23n + 2S + 1).
    """
    return players * (23 * players + 2 * supply + 1)


def quiet_choice(state: GameState) -> Action | None:
    """A decision that moves no card, if there is one: a pass, no order, or a draw that
    takes nothing."""
    legal = legal_actions(state)
    if state.step in ("play", "order"):
        return next((a for a in legal if isinstance(a, Pass | NoOrder)), None)
    for action in legal:
        if isinstance(action, Draw) and not _drawn(apply(state, action)[1]):
            return action
    return None


def _drawn(events: tuple[Event, ...]) -> int:
    return sum(e.get("count", 0) for e in events if e.name == "drew") + \
        sum(1 for e in events if e.name == "mamma_mia_drawn")


def quiet_cycle(state: GameState) -> GameState | None:
    """Play one full cycle of quiet turns (each player passes and draws nothing) from a
    turn's start; None if some player has no quiet way through their turn."""
    turns = 0
    while turns < state.players:
        action = quiet_choice(state)
        if action is None:
            return None
        turns += isinstance(action, Draw)
        state = apply(state, action)[0]
    return state


class Passed:
    """States that a pure check has already passed. Shrinking replays the same game
    prefixes over and over; their states need not be checked again. A state is added
    only once its check has passed, so a failure replays identically."""

    def __init__(self, most: int = 50_000) -> None:
        self.most = most
        self.seen: set[GameState] = set()

    def __contains__(self, state: GameState) -> bool:
        return state in self.seen

    def add(self, state: GameState) -> None:
        if len(self.seen) >= self.most:
            self.seen.clear()
        self.seen.add(state)


LEGALITY_PASSED = Passed()
JSON_PASSED = Passed()

# --- our own model of the special orders ------------------------------------------------


def order_type(order: str) -> str:
    key = order.split(".")[1]
    return "standard" if key.endswith("4") else key


def own_kind_choices(order: str, table: dict[str, int], hand: dict[str, int],
                     variants: Any) -> list[str]:
    """The kinds an owner may name for a revealed Monotoni or Minimale (oven.monotoni,
    oven.monotoni_on_table, oven.minimale, oven.minimale_all_kinds), narrowed under
    oven.complete_mandatory to the kinds the table and hand can make, if any."""
    personal = PERSONAL[ALL_ORDERS[order]]
    present = [k for k in KINDS if table[k] > 0]
    if order_type(order) == "monotoni":
        on_table = variants.flags.monotoni_kind == "on_table"
        kinds = [k for k in KINDS if k != personal and (table[k] > 0 or not on_table)]
    else:
        over = present if variants.flags.minimale_lowest == "all_kinds" else \
            [k for k in present if k != personal]
        lowest = min((table[k] for k in over), default=0)
        kinds = [k for k in over if table[k] == lowest and k != personal]
    if variants.flags.completion == "mandatory":
        makeable = [k for k in kinds if all(table[x] + hand[x] >= n
                                            for x, n in requirement(order, k).items())]
        return makeable or kinds
    return kinds


def lacking(need: dict[str, int], table: dict[str, int]) -> dict[str, int]:
    return {k: max(0, need[k] - table[k]) for k in KINDS}


def ways_to_make_up(hand: dict[str, int], short: int) -> int:
    """How many different hand-card choices (count maps) add up to ``short`` cards."""
    ways = [1] + [0] * short
    for kind in KINDS:
        ways = [sum(ways[total - c] for c in range(min(hand[kind], total) + 1))
                for total in range(short + 1)]
    return ways[short]


class OvenWalk:
    """The table, used pile, hands, revealed order and named kind as a step's events tell
    them, event by event: for checks that need the table at the moment of a decision."""

    def __init__(self, prev: GameState) -> None:
        self.table = dict(as_map(prev.table))
        self.used = dict(as_map(prev.used))
        self.hands = {s: dict(as_map(h.ingredients)) for s, h in enumerate(prev.hands)}
        self.order = prev.reveal.order if prev.reveal else None
        self.named = prev.reveal.kind if prev.reveal else None
        self.from_hand = dict.fromkeys(KINDS, 0)  # completed_from_hand precedes its baked

    def copy(self) -> OvenWalk:
        other = copy.copy(self)
        other.table, other.used, other.from_hand = \
            dict(self.table), dict(self.used), dict(self.from_hand)
        other.hands = {s: dict(h) for s, h in self.hands.items()}
        return other

    def then(self, e: Event) -> None:
        if e.name == "revealed":
            card = e.get("card")
            if card in self.table:
                self.table[card] += 1
            else:
                self.order, self.named = card, None
        elif e.name == "named_kind":
            self.named = e.get("kind")
        elif e.name == "drew" and e.get("source") == "supply":
            for kind in KINDS:
                self.hands[e.get("seat")][kind] += e.get("cards")[kind]
        elif e.name == "completed_from_hand":
            self.from_hand = dict(e.get("cards"))
            for kind in KINDS:
                self.hands[e.get("seat")][kind] -= self.from_hand[kind]
        elif e.name == "baked":
            for kind in KINDS:
                self.table[kind] -= e.get("used")[kind] - self.from_hand[kind]
                self.used[kind] += e.get("used")[kind]
            self.from_hand = dict.fromkeys(KINDS, 0)
        elif e.name == "leftovers_to_oven":
            self.table = dict.fromkeys(KINDS, 0)
        elif e.name == "supply_gathered":
            self.used = dict.fromkeys(KINDS, 0)

    JUDGED = frozenset({"named_kind", "completed_from_hand", "baked", "failed"})

    def through(self, events: tuple[Event, ...]) -> list[tuple[Event, OvenWalk]]:
        """Each event judging an order (JUDGED) with the walk as it stood just before
        it; afterwards this walk stands after the last event."""
        seen = []
        for e in events:
            if e.name in self.JUDGED:
                seen.append((e, self.copy()))
            self.then(e)
        return seen


# --- the state machine ---------------------------------------------------------------


class GamePlay(RuleBasedStateMachine):
    """Random legal games under every player count and variant; the invariants hold
    after every step. Shuffles come from a seeded ChanceSource or, for some games, are
    drawn permutations (which shrink towards the unshuffled pile)."""

    def __init__(self, budget: Any = None) -> None:
        super().__init__()
        self.budget = budget  # the explore profile's time budget (tests/conftest.py)
        self.version = 0
        self.checked: dict[str, int] = {}

    # -- driving ------------------------------------------------------------------------

    @initialize(config=configs(), seed=st.integers(0, 2**32 - 1), drawn=st.booleans())
    def start(self, config: GameConfig, seed: int, drawn: bool) -> None:
        if self.budget is not None:
            self.budget.example("GamePlay")
        self.begin(new_game(config), None if drawn else seed)

    def begin(self, state: GameState, seed: int | None) -> None:
        """Play on from ``state`` (a new game, or a scenario's position), its shuffles from
        ``ChanceSource(seed)`` or, without a seed, drawn."""
        self.origin = state
        self.config = state.config
        self.seed = seed
        self.chance = None if seed is None else ChanceSource(seed)
        self.state = state
        self.prev: GameState | None = None
        self.action: Action | None = None
        self.events: tuple[Event, ...] = ()
        self.history: list[tuple[GameState, Action, tuple[Event, ...]]] = []
        self.initial_total = all_cards(self.state).total()
        # (holder, last opener), followed from the events as each step is taken
        opening = state.mamma_mia if state.phase == "oven" else None
        self.mamma_mia: tuple[int | None, int | None] = (state.mamma_mia, opening)
        self.mamma_mia_at_origin = self.mamma_mia
        self.round_turns = 0
        self.round_supply = len(state.supply)
        self.loop_checked = False

    @property
    def stalled(self) -> bool:
        return self.state.flags.stall == "letter" and \
            self.state.quiet_turns >= self.state.players

    @rule(data=st.data())
    def step(self, data: st.DataObject) -> None:
        """Probe the state with one drawn action (legal or not), then take a legal step."""
        state = self.state
        probe = data.draw(actions(state), label="probe")
        before = format_state(state)
        if is_legal(state, probe):
            apply(state, probe)  # must not raise
        else:
            check_rejected(state, probe)
        assert format_state(state) == before, "a rejected action changed the state"
        if is_over(state) or self.stalled:
            return
        if is_chance(state):
            pile, cards = chance_pile(state)
            action: Action = self.chance.shuffle(state) if self.chance else \
                Shuffle(pile, tuple(data.draw(st.permutations(cards), label="shuffle")))
        else:
            action = data.draw(st.sampled_from(legal_actions(state)), label="action")
        self.take(action)

    def take(self, action: Action) -> None:
        """Apply a legal action; the invariants then see the step and its events."""
        state = self.state
        after, events = apply(state, action)
        self.prev, self.action, self.events, self.state = state, action, events, after
        self.history.append((state, action, events))
        self.mamma_mia = follow_mamma_mia(events, *self.mamma_mia)
        self.version += 1

    def walked(self) -> tuple[list[tuple[Event, OvenWalk]], OvenWalk]:
        """The last step's events, each with the OvenWalk just before it, and the walk
        after them all; walked once per step, shared by the checks of the oven."""
        if getattr(self, "_walked", (None,))[0] != self.version:
            assert self.prev is not None
            walk = OvenWalk(self.prev)
            self._walked = (self.version, walk.through(self.events), walk)
        return self._walked[1], self._walked[2]

    def fresh(self, name: str) -> bool:
        """True once per applied action for the invariant ``name`` (a finished game is
        still probed, but its unchanged state need not be checked again)."""
        if self.checked.get(name) == self.version:
            return False
        self.checked[name] = self.version
        return True

    def teardown(self) -> None:
        """Exact replay of the whole game, the global random generator disturbed between
        steps: same shuffles from the same seed, same states, same events."""
        failure = sys.exc_info()[1]  # hypothesis calls teardown in a finally clause
        try:
            if getattr(self, "history", None):
                replay_and_compare(self.config, self.seed, self.history, disturb=True,
                                   start=self.origin)
        except BaseException as exc:
            failure = exc
            raise
        finally:
            if self.budget is not None and failure is not None:
                self.budget.failed("GamePlay", failure)
        if self.budget is not None and failure is None:
            self.budget.passed("GamePlay")  # may end the run: the share is spent

    def check_every_invariant(self) -> None:
        """What hypothesis does after each step, for a game driven by hand."""
        for check in self.invariants:
            check.function(self)

    # -- card conservation -----------------------------------------------------------------

    @invariant()
    def cards_are_conserved(self) -> None:
        state = self.state
        every = all_cards(state)
        assert every.total() == self.initial_total == total_cards(state.players), census(state)
        for kind in KINDS:
            assert every[kind] == COPIES[kind], (kind, census(state))
        seated = set(state.config.colours)
        for order, colour in ALL_ORDERS.items():
            assert every[order] == (colour in seated), (order, where(census(state), order))
        assert every[MAMMA_MIA] == 1, where(census(state), MAMMA_MIA)
        assert set(every) <= {*KINDS, *ALL_ORDERS, MAMMA_MIA}, every
        assert set(state.supply) <= {*KINDS, MAMMA_MIA}
        assert set(state.oven) <= {*KINDS, *ALL_ORDERS}
        for seat, colour in enumerate(state.config.colours):
            for pile in (state.hands[seat].orders, state.waiters[seat], state.delivered[seat]):
                assert all(ALL_ORDERS[o] == colour for o in pile), (seat, pile)

    # -- deck trimming -----------------------------------------------------------------------

    @invariant()
    def deck_is_trimmed(self) -> None:
        state = self.state
        every, box = all_cards(state), as_map(state.box)
        trimmed = state.flags.trimming == "on"
        in_play = IN_PLAY[state.players] if trimmed else ALL_INGREDIENTS
        per_kind = PER_KIND[state.players] if trimmed else COPIES[KINDS[0]]
        counted = {kind: every[kind] - box[kind] for kind in KINDS}
        assert sum(counted.values()) == in_play, counted
        assert counted == dict.fromkeys(KINDS, per_kind), counted
        assert box == {k: COPIES[k] - per_kind for k in KINDS}, box

    # -- orders ------------------------------------------------------------------------------

    @invariant()
    def orders_move_only_by_the_rules(self) -> None:
        state, prev = self.state, self.prev
        for seat, colour in enumerate(state.config.colours):
            mine = Counter(o for o in (*state.hands[seat].orders, *state.waiters[seat],
                                       *state.delivered[seat], *state.oven,
                                       *([state.reveal.order] if state.reveal else []))
                           if ALL_ORDERS.get(o) == colour)
            assert mine == Counter(orders_of(colour)), (colour, mine)
        if prev is None or not self.fresh("orders"):
            return
        for seat in range(state.players):
            before, after = prev.delivered[seat], state.delivered[seat]
            assert after[:len(before)] == before, "a delivered stack shrank"
        # Waiters change only by shuffles, the first orders, draws and failed orders.
        expected = [list(w) for w in prev.waiters]
        if isinstance(self.action, Shuffle) and self.action.pile.startswith("waiter."):
            expected[state.seat_of(self.action.pile.removeprefix("waiter."))] = \
                list(self.action.order)
        failed: dict[int, list[str]] = {}
        for e in self.events:
            if e.name == "took_first_orders":
                expected = [w[1:] for w in expected]
            elif e.name == "drew" and e.get("source") == "waiter":
                del expected[e.get("seat")][:e.get("count")]
            elif e.name == "failed":
                expected[e.get("seat")].append(e.get("order"))
                failed.setdefault(e.get("seat"), []).append(e.get("order"))
        assert [list(w) for w in state.waiters] == expected, (self.events, state.waiters)
        for seat, orders in failed.items():  # oven.fail: under the waiter, in reveal order
            assert list(state.waiters[seat][-len(orders):]) == orders, (seat, orders)

    # -- hands ---------------------------------------------------------------------------------

    @invariant()
    def hands_are_refilled_by_the_rules(self) -> None:
        state, prev = self.state, self.prev
        assert all(hand.size <= HAND_LIMIT for hand in state.hands), state.hands
        if prev is None or not self.fresh("hands"):
            return
        first = 0  # turn.draw_both: the order a draw from the supply takes first
        for e in (e for e in self.events if e.name == "drew"):
            seat, source, count = e.get("seat"), e.get("source"), e.get("count")
            assert seat == prev.current and prev.step == "draw"
            assert isinstance(self.action, Draw)
            if e.rule == "turn.draw_both":
                assert state.flags.draw_piles == "both" and source == "waiter" and count == 1
                assert self.action.source == "supply" and prev.waiters[seat]
                first = 1
                continue
            assert self.action.source == source
            pile = prev.supply if source == "supply" else prev.waiters[seat]
            available = sum(1 for card in pile if card != MAMMA_MIA)
            size = prev.hands[seat].size + first
            allowance = (HAND_LIMIT - size if state.flags.refill == "to_seven"
                         else prev.played - first)
            assert size + count <= HAND_LIMIT, "drew past seven"
            if state.flags.draw_amount == "fill":
                # Short of the allowance only when the chosen pile ran out.
                assert count == min(allowance, available), (allowance, available, count)
            else:  # turn.draw_fewer: any number up to the allowance, as far as the pile lasts
                assert self.action.count - first <= allowance
                assert count == min(self.action.count - first, available), (self.action,
                                                                              available)
            if source == "supply":
                assert sum(e.get("cards").values()) == count
            if state.flags.refill == "to_seven" and state.flags.draw_amount == \
                    "fill" and size + count < HAND_LIMIT:
                assert count == available, "a hand below seven although the pile had cards"

    # -- the Mamma Mia! card ---------------------------------------------------------------------

    @invariant()
    def mamma_mia_holder_opens_the_oven_and_starts_the_next_round(self) -> None:
        state, prev = self.state, self.prev
        in_supply = state.supply.count(MAMMA_MIA)
        assert in_supply + (state.mamma_mia is not None) + _mamma_mia_aside(state) == 1
        holder, opener = self.mamma_mia  # followed from the events (follow_mamma_mia)
        if state.phase in ("turn", "oven", "over"):
            assert state.mamma_mia == holder, (state.mamma_mia, holder)
        if state.phase == "oven":
            assert state.mamma_mia == opener
        if prev is None or not self.fresh("mamma_mia"):
            return
        drawer = prev.current
        for e in self.events:
            move = MAMMA_MIA_MOVES.get((e.name, e.rule))
            if move == "supply":
                assert e.get("seat") == drawer and isinstance(self.action, Draw)
            elif move == "stall":  # the player whose turn would come next
                assert e.get("seat") == (drawer + 1) % state.players, (e, drawer)
            elif move == "last":  # the drawer of the last ingredient, or the round's starter
                starts = [s.get("seat") for s in self.events if s.name == "turn_begins"]
                assert e.get("seat") == (starts[0] if starts else drawer), (e, starts, drawer)
            elif e.name == "supply_gathered":
                assert state.current == opener, "the next round's starter"
            elif e.name == "turn_begins" and e.rule == "next_round.first_player":
                assert e.get("seat") == opener, (e, opener)

    # -- legality ----------------------------------------------------------------------------------

    @invariant()
    def legal_actions_are_exactly_the_accepted_ones(self) -> None:
        if not self.fresh("legality") or self.state in LEGALITY_PASSED:
            return
        state = self.state
        legal = legal_actions(state)
        before = format_state(state)
        if is_over(state) or is_chance(state):
            assert legal == () and to_move(state) is None
            if is_over(state):
                winners(state)
            else:
                chance_pile(state)
        else:
            assert legal, f"no legal action for seat {state.current} at {state.step}"
            assert len(set(legal)) == len(legal), "a legal action is listed twice"
            assert to_move(state) == state.current
            for action in _sample(legal, 24):
                apply(state, action)  # every listed action is accepted
        for action in near_misses(state):
            if is_legal(state, action, legal):
                apply(state, action)
            else:
                check_rejected(state, action)
        assert format_state(state) == before
        LEGALITY_PASSED.add(state)

    # -- exact replay and the JSON round trip --------------------------------------------------

    @invariant()
    def state_round_trips_and_steps_replay(self) -> None:
        if not self.fresh("replay"):
            return
        state = self.state
        if state not in JSON_PASSED:
            doc = format_state(state)
            assert json.loads(json.dumps(doc)) == doc, "not plain JSON"
            parsed = parse_state(doc)
            assert parsed == state
            assert format_state(parsed) == doc
            JSON_PASSED.add(state)
        if self.prev is not None:
            again, events = apply(self.prev, self.action)
            assert again == state and events == self.events, "the same step gave another result"

    # -- the end ----------------------------------------------------------------------------

    @invariant()
    def game_ends_after_three_resolutions(self) -> None:
        state = self.state
        assert state.resolutions <= ROUNDS and state.round <= ROUNDS
        if is_over(state):
            assert state.resolutions == ROUNDS == state.round
        else:
            assert state.round == state.resolutions + 1, (state.round, state.resolutions)
        if self.prev is None or not self.fresh("end"):
            return
        names = [e.name for e in self.events]
        for e in self.events:
            if e.name == "turn_begins":
                if e.rule in ("setup.first_player", "next_round.first_player"):
                    self.round_turns, self.round_supply = 0, len(state.supply)
                self.round_turns += 1
        if state.flags.stall == "cut":
            bound = round_turn_bound(state.players, self.round_supply)
            assert self.round_turns <= bound, (self.round_turns, bound)
        if is_over(state):
            opened = sum(1 for _, _, events in self.history for e in events
                         if e.name == "round_ended")
            opened += self.origin.resolutions + (self.origin.phase == "oven")
            assert opened == ROUNDS and names.count("game_ended") == 1
            assert names[-2:] == ["game_ended", "winners"]
            opener = follow_mamma_mia([e for _, _, events in self.history for e in events],
                                      *self.mamma_mia_at_origin)[1]
            assert opener == self.mamma_mia[1] == state.mamma_mia, (opener, self.mamma_mia)
            seats, rule = own_winners(state, opener)
            assert (set(self.events[-1].get("seats")), self.events[-1].rule) == (seats, rule)
            assert (set(winners(state)[0]), winners(state)[1]) == (seats, rule)
        if self.stalled and not self.loop_checked:  # stall=letter: a true loop
            self.loop_checked = True
            assert state.phase == "turn" and state.step == "play"
            assert quiet_cycle(state) == state, "a stalled round is not a loop"

    # -- resolution ----------------------------------------------------------------------------

    @invariant()
    def oven_resolves_by_the_rules(self) -> None:
        state, prev = self.state, self.prev
        if prev is None or not self.fresh("oven"):
            return
        table = dict(as_map(prev.table))
        oven = list(prev.oven)
        hands = {s: dict(as_map(h.ingredients)) for s, h in enumerate(prev.hands)}
        delivered = [list(d) for d in prev.delivered]
        named: str | None = prev.reveal.kind if prev.reveal else None
        from_hand: dict[str, int] = dict.fromkeys(KINDS, 0)
        resolving = prev.phase == "oven"
        for e in self.events:
            if e.name == "oven_opened":
                resolving = True
            elif e.name in ("leftovers_to_oven", "leftovers_stay", "game_ended"):
                resolving = False
            if e.name == "revealed":
                assert resolving, "a card revealed while the oven is not being resolved"
                assert oven and oven[0] == e.get("card"), "revealed out of oven order"
                oven.pop(0)
                if e.get("card") in table:  # oven.sort: the only way onto the table
                    table[e.get("card")] += 1
                named = None
            elif e.name == "named_kind":
                named = e.get("kind")
            elif e.name == "drew" and e.get("source") == "supply":
                for kind in KINDS:
                    hands[e.get("seat")][kind] += e.get("cards")[kind]
            elif e.name == "completed_from_hand":
                from_hand = e.get("cards")
                for kind in KINDS:
                    hands[e.get("seat")][kind] -= from_hand[kind]
                    assert hands[e.get("seat")][kind] >= 0
            elif e.name == "baked":
                used, order = e.get("used"), e.get("order")
                taken = {k: used[k] - from_hand[k] for k in KINDS}
                assert all(0 <= taken[k] <= table[k] for k in KINDS), (taken, table)
                if order.endswith(".bombastica"):
                    assert sum(used.values()) >= 15, used
                    assert taken == table, "a Pizza Bombastica leaves the table empty"
                else:
                    assert used == requirement(order, named), (order, named, used)
                for kind in KINDS:
                    table[kind] -= taken[kind]
                delivered[e.get("seat")].append(order)
                from_hand = dict.fromkeys(KINDS, 0)
            elif e.name == "failed":
                from_hand = dict.fromkeys(KINDS, 0)
            elif e.name == "leftovers_to_oven":
                assert not oven
                oven = [k for k in KINDS for _ in range(table[k])]
                table = dict.fromkeys(KINDS, 0)
            elif e.name in ("played", "placed_order"):
                oven += [e.get("kind")] * e.get("count") if e.name == "played" \
                    else [e.get("order")]
        assert as_map(state.table) == table, "the table changed other than by the rules"
        assert [list(d) for d in state.delivered] == delivered, "delivered without baking"
        assert list(state.oven) == oven, "the oven changed other than by the rules"
        if any(e.name == "completed_from_hand" for e in self.events):
            seat = next(e.get("seat") for e in self.events if e.name == "completed_from_hand")
            assert as_map(state.hands[seat].ingredients) == hands[seat]

    # -- plays ---------------------------------------------------------------------------------

    @invariant()
    def plays_take_one_kind_and_the_count_named(self) -> None:
        """turn.play: one kind per play, the count it names, from the hand onto the oven;
        a pass only with no ingredient card in hand."""
        state, prev = self.state, self.prev
        if state.phase == "turn" and state.step == "play" and not is_chance(state):
            hand = as_map(state.hands[state.current].ingredients)
            own = {Play(k, c) for k in KINDS for c in range(1, hand[k] + 1)} or {Pass()}
            assert set(legal_actions(state)) == own, (hand, legal_actions(state))
        if prev is None or not self.fresh("plays"):
            return
        for e in self.events:
            if e.name == "passed":
                assert not any(prev.hands[prev.current].ingredients), "passed holding cards"
            if e.name != "played":
                continue
            seat, kind, count = e.get("seat"), e.get("kind"), e.get("count")
            assert isinstance(self.action, Play) and prev.step == "play" and seat == prev.current
            assert (kind, count) == (self.action.kind, self.action.count) and count >= 1, e
            before = Counter(as_map(prev.hands[seat].ingredients))
            after = Counter(as_map(state.hands[seat].ingredients))
            assert before - after == Counter({kind: count}) and not after - before, \
                (e, before, after)
            assert state.oven == prev.oven + (kind,) * count, "the oven got other cards"
            assert state.played == count, (state.played, count)

    # -- the special orders ------------------------------------------------------------------

    @invariant()
    def named_kinds_follow_the_ruling(self) -> None:
        """oven.monotoni / oven.minimale (and their variants): the kind named is never the
        owner's personal kind, a Minimale's kind has the lowest count by the ruling in
        force, and the owner is offered exactly the kinds the rules allow."""
        state, prev = self.state, self.prev
        variants = state.rules
        if state.step == "name_kind":
            own = own_kind_choices(state.reveal.order, as_map(state.table),
                                   as_map(state.hands[state.current].ingredients), variants)
            offered = [a.kind for a in legal_actions(state) if isinstance(a, NameKind)]
            assert sorted(offered) == sorted(own) and len(own) > 1, (offered, own)
        if prev is None or not self.fresh("named"):
            return
        for e, walk in self.walked()[0]:
            if e.name == "named_kind":
                order, kind = e.get("order"), e.get("kind")
                assert order == walk.order and order_type(order) in ("monotoni", "minimale")
                assert kind != PERSONAL[ALL_ORDERS[order]], "named the personal kind"
                seat = state.seat_of(ALL_ORDERS[order])
                own = own_kind_choices(order, walk.table, walk.hands[seat], variants)
                assert kind in own, (order, kind, own, walk.table)
            elif e.name == "failed" and e.get("why") == "no kind can be named":
                order = e.get("order")
                own = own_kind_choices(order, walk.table, walk.hands[e.get("seat")], variants)
                assert order_type(order) in ("monotoni", "minimale") and not own, (order, own)

    @invariant()
    def completions_take_exactly_what_the_table_lacks(self) -> None:
        """oven.complete_from_hand: exactly the missing cards, never more; a Bombastica
        exactly 15 minus the table (oven.bombastica). The owner is offered exactly those."""
        state, prev = self.state, self.prev
        if state.step == "complete":
            order = state.reveal.order
            table = as_map(state.table)
            hand = as_map(state.hands[state.current].ingredients)
            offered = [dict(as_map(a.cards)) for a in legal_actions(state)
                       if isinstance(a, Complete)]
            if order_type(order) == "bombastica":
                short = BOMBASTICA_TOTAL - sum(table.values())
                assert short > 0 and state.flags.bombastica_hand == "allowed"
                assert all(sum(c.values()) == short and all(c[k] <= hand[k] for k in KINDS)
                           for c in offered), (short, offered)
                assert len(offered) == ways_to_make_up(hand, short) > 0, (short, hand)
            else:
                assert offered == [lacking(requirement(order, state.reveal.kind), table)]
            declines = any(isinstance(a, Decline) for a in legal_actions(state))
            assert declines == (state.flags.completion == "optional")
        if prev is None or not self.fresh("completions"):
            return
        for e, walk in self.walked()[0]:
            if e.name != "completed_from_hand":
                continue
            order, cards = e.get("order"), e.get("cards")
            assert order == walk.order and any(cards.values()), e
            if order_type(order) == "bombastica":
                short = BOMBASTICA_TOTAL - sum(walk.table.values())
                assert sum(cards.values()) == short > 0, (cards, walk.table)
            else:
                assert cards == lacking(requirement(order, walk.named), walk.table), \
                    (order, walk.named, cards, walk.table)

    @invariant()
    def one_of_each_takes_one_of_every_kind(self) -> None:
        """oven.one_of_each: baked with exactly one card of every kind; a table holding
        every kind bakes it from the table alone."""
        if self.prev is None or not self.fresh("one_of_each"):
            return
        for e, walk in self.walked()[0]:
            if e.name not in ("baked", "failed") or order_type(e.get("order")) != "one_of_each":
                continue
            every = all(walk.table[k] >= 1 for k in KINDS)
            if e.name == "baked":
                assert e.get("used") == dict.fromkeys(KINDS, 1), e
                assert every or any(walk.from_hand.values()), (e, walk.table)
            else:
                assert not every, ("failed with every kind on the table", walk.table)

    @invariant()
    def failed_orders_leave_the_table_as_it_was(self) -> None:
        """oven.fail: a failed order moves no ingredient card: the table, the used pile
        and every hand are what the bakes alone make them; and it fails only for a
        reason the rules give."""
        state, prev = self.state, self.prev
        if prev is None or not self.fresh("failed"):
            return
        steps, walk = self.walked()
        failed = False
        for e, before in steps:
            if e.name != "failed":
                continue
            failed = True
            seat, order, why = e.get("seat"), e.get("order"), e.get("why")
            assert order == before.order, (e, before.order)
            table, hand = before.table, before.hands[seat]
            if e.rule == "oven.bombastica_table_only":
                assert state.flags.bombastica_hand == "forbidden"
                assert sum(table.values()) < BOMBASTICA_TOTAL, table
            elif why == "the owner declined":
                assert isinstance(self.action, Decline)
                assert state.flags.completion == "optional"
            elif why == "no kind can be named":
                pass  # named_kinds_follow_the_ruling checks that no kind was allowed
            elif order_type(order) == "bombastica":
                assert sum(table.values()) + sum(hand.values()) < BOMBASTICA_TOTAL, (table, hand)
            else:
                need = requirement(order, before.named)
                assert any(table[k] + hand[k] < need[k] for k in KINDS), (order, table, hand)
        if failed:
            assert as_map(state.table) == walk.table, ("the table moved", walk.table)
            assert as_map(state.used) == walk.used, ("the used pile moved", walk.used)
            assert [as_map(h.ingredients) for h in state.hands] == \
                [walk.hands[s] for s in range(state.players)], "a hand moved"


def _sample(items: tuple[Action, ...], most: int) -> tuple[Action, ...]:
    """All of ``items``, or ``most`` of them spread evenly (first and last included)."""
    if len(items) <= most:
        return items
    step = (len(items) - 1) / (most - 1)
    return tuple(items[round(i * step)] for i in range(most))


def check_rejected(state: GameState, action: Action) -> None:
    """``action`` is refused with a rule of spec/rules.yaml (the caller checks that the
    state is unchanged, comparing its JSON before and after)."""
    try:
        apply(state, action)
    except IllegalActionError as exc:
        assert exc.rule in RULE_IDS, exc.rule
    else:
        raise AssertionError(f"{action} is not a legal action here but was accepted")


def replay_and_compare(config: GameConfig, seed: int | None,
                       history: list[tuple[GameState, Action, tuple[Event, ...]]], *,
                       disturb: bool, start: GameState | None = None) -> None:
    """Replay ``history`` from ``start`` or a new game: the same shuffles from the same
    seed (if the game used a ChanceSource), the same states and the same events at every
    step."""
    chance = ChanceSource(seed) if seed is not None else None
    state = new_game(config) if start is None else start
    for index, (recorded, action, events) in enumerate(history):
        if disturb:
            random.seed(index * 7919 + 1)
            random.random()
        assert state == recorded, f"replay diverged before step {index}"
        if chance is not None and is_chance(state):
            assert chance.shuffle(state) == action, f"another shuffle at step {index}"
        state, again = apply(state, action)
        assert again == events, f"other events at step {index}"


class TestGamePlay:
    """The state machine under the loaded profile; under explore, within its budget."""

    def test_games(self, explore_budget: Any) -> None:
        run_state_machine_as_test(
            lambda: GamePlay(explore_budget),
            settings=settings(max_examples=max(2, settings().max_examples // 4)))


SEAT_ORDER_AFTER_STALL = ROOT / "scenarios" / "game_end" / "seat-order-after-stall.yaml"


def test_seat_order_counts_from_the_stall_taker() -> None:
    """The game of issue 20, kept as an explicit example: its last position (from the
    regression scenario) driven through the state machine, every invariant after every
    step. A stall ends round 3, red (seat 0) takes the Mamma Mia! card and opens the oven,
    brown and purple stay level: under seat_order brown wins, counting from red, although
    purple opened the oven before. The model follows the holder from the events, so it
    does not matter in which order the invariants run."""
    scenario = load_scenario(SEAT_ORDER_AFTER_STALL)
    expected = {"seat_order": ({3}, "game_end.seat_order_win"),
                "shared": ({3, 4}, "game_end.shared_win")}
    for run in scenario.runs:
        machine = GamePlay()
        machine.begin(given_state(scenario, run), seed=None)
        machine.check_every_invariant()
        for step in run.steps:
            if step.action is not None:
                machine.take(step.action)
                machine.check_every_invariant()
        final = machine.state
        assert is_over(final) and machine.mamma_mia == (0, 0)
        assert own_winners(final, machine.mamma_mia[1]) == \
            expected[final.flags.final_tie]
        machine.teardown()


# --- whole games by seed -------------------------------------------------------------------


def _variant_pairs() -> list[tuple[str, str]]:
    return [(flag, value) for flag, values in variant_values().items() for value in values]


@pytest.mark.parametrize(("index", "flag", "value"),
                         [(i, f, v) for i, (f, v) in enumerate(_variant_pairs())],
                         ids=[f"{f}={v}" for f, v in _variant_pairs()])
def test_play_game_under_every_variant(index: int, flag: str, value: str) -> None:
    """play_game (both policies) ends after three resolutions, or stalls under letter.
    Every variant value once, the player count going round 2 to 5."""
    players = 2 + index % 4
    config = make_config(players, first_player=index % players, variants={flag: value})
    policies = [POLICIES["random"], POLICIES["simple"]] * 3
    record = play_game(config, seed=f"{players}-{flag}-{value}", policies=policies[:players])
    final = record.final
    assert final is not None
    if record.stalled:
        assert value == "letter" and quiet_cycle(final) == final
        return
    check_whole_game(config, [a for a, _ in record.steps], [e for _, e in record.steps])


def check_whole_game(config: GameConfig, steps: list[Action],
                     events: list[tuple[Event, ...]]) -> None:
    """A finished game: three round ends, three openings by the holders, one game end as
    the very last events, the winners of our own scoring, and no round over the bound."""
    state = new_game(config)
    turns, supply, stall_cut = 0, 0, config.rules.flags.stall == "cut"
    for action, produced in zip(steps, events, strict=True):
        state, again = apply(state, action)
        assert again == produced
        for e in produced:
            if e.name == "turn_begins":
                if e.rule in ("setup.first_player", "next_round.first_player"):
                    turns, supply = 0, len(state.supply)
                turns += 1
                if stall_cut:
                    assert turns <= round_turn_bound(config.players, supply)
    names = [e.name for produced in events for e in produced]
    assert is_over(state) and state.resolutions == ROUNDS
    assert names.count("round_ended") == names.count("oven_opened") == ROUNDS
    assert names.count("game_ended") == 1 and names[-2:] == ["game_ended", "winners"]
    seats, rule = own_winners(state, last_opener([e for produced in events for e in produced]))
    assert (set(winners(state)[0]), winners(state)[1]) == (seats, rule)


@given(game=games(configs(variants={"stall": "cut"}), max_steps=20_000))
def test_random_games_end_after_three_resolutions(game: list[tuple[GameState, Action]]) -> None:
    """Uniformly random legal play under any variant but stall=letter always ends."""
    config = game[0][0].config
    events = []
    for state, action in game:
        events.append(apply(state, action)[1])
    check_whole_game(config, [a for _, a in game], events)


@settings(max_examples=max(2, settings().max_examples // 2))
@given(config=configs(), seed=st.integers(0, 2**32 - 1))
def test_replay_ignores_the_global_random_generator(config: GameConfig, seed: int) -> None:
    """No hidden global randomness: a game played and replayed with the global generator
    disturbed between steps gives the same shuffles, states and events."""
    game = play_seeded(config, seed, max_steps=400)
    history = [(state, action, apply(state, action)[1]) for state, action in game]
    replay_and_compare(config, seed, history, disturb=True)
    random.seed(seed)
    first = play_game(config, seed, max_steps=400)
    random.seed(seed + 1)
    [random.random() for _ in range(seed % 7)]
    second = play_game(config, seed, max_steps=400)
    assert first.steps == second.steps and first.final == second.final


# --- reachable states ---------------------------------------------------------------------


@given(state=states())
def test_reachable_states_round_trip_through_json(state: GameState) -> None:
    doc = format_state(state)
    assert format_state(parse_state(doc)) == doc
    assert parse_state(doc) == state
    assert parse_state(json.loads(json.dumps(doc))) == state


@given(data=st.data(), state=states())
def test_unlisted_actions_are_rejected(data: st.DataObject, state: GameState) -> None:
    """Any well-formed action the rules do not list is refused, naming a known rule."""
    before = format_state(state)
    for _ in range(5):
        action = data.draw(actions(state))
        if is_legal(state, action):
            apply(state, action)
        else:
            check_rejected(state, action)
        assert format_state(state) == before


@given(action=actions())
def test_actions_are_well_formed(action: Action) -> None:
    from mammamia_ref import format_action, parse_action

    assert parse_action(json.loads(json.dumps(format_action(action)))) == action


@settings(max_examples=max(2, settings().max_examples // 4))
@given(game=legal_games(max_steps=120))
def test_legal_games_are_legal(game: list[tuple[GameState, Action]]) -> None:
    """legal_games() only takes listed actions (or shuffles of the pending pile)."""
    for state, action in game:
        assert is_legal(state, action) and not is_over(state)


# --- stalled rounds ---------------------------------------------------------------------


def stalled_state(stall: str, players: int = 3) -> GameState:
    """Round 1, every hand seven orders and no ingredient, the supply not empty: each
    player must pass and, holding seven cards, draws nothing from either source."""
    colours = ("red", "yellow", "green", "brown", "purple")[:players]
    partial = {"players": [{"colour": c, "hand": {"orders": list(orders_of(c)[:7])}}
                           for c in colours],
               "supply": ["salami", MAMMA_MIA, "olive"]}
    return parse_state(complete_state(partial, {"stall": stall}))


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_stall_letter_is_a_true_loop(players: int) -> None:
    """Under stall=letter nothing ends a stalled round: after one quiet cycle the state is
    exactly what it was before the next, whatever the players choose (every legal path
    through a cycle is tried), so the round goes on for ever."""
    start = stalled_state("letter", players)
    saturated = quiet_cycle(start)
    assert saturated is not None and saturated.quiet_turns == players
    assert replace(saturated, quiet_turns=0) == start
    frontier = [saturated]
    for _ in range(2 * players):  # play and draw decisions of one cycle, every choice
        frontier = [apply(s, a)[0] for s in frontier for a in legal_actions(s)]
    assert len(frontier) == 2 ** players  # a pass, then either source, for each player
    assert all(state == saturated for state in frontier)
    assert quiet_cycle(quiet_cycle(saturated)) == saturated


@pytest.mark.parametrize("players", [2, 5])
def test_stall_cut_ends_the_same_round(players: int) -> None:
    """The same position under stall=cut ends the round after one quiet cycle, the next
    player taking the Mamma Mia! card from the supply and opening the oven."""
    state = stalled_state("cut", players)
    events: list[Event] = []
    for _ in range(2 * players):  # a pass and an empty draw each
        state, produced = apply(state, quiet_choice(state))
        events += produced
    names = [(e.name, e.rule) for e in events]
    assert ("round_ended", "round_end.stall") in names
    taken = next(e for e in events if e.name == "mamma_mia_taken")
    opened = next(e for e in events if e.name == "oven_opened")
    assert taken.get("seat") == opened.get("seat") == 0


@given(game=games(configs(variants={"stall": "letter", "refill": "as_many_as_played"}),
                  max_steps=3000))
def test_games_that_stall_under_letter_loop(game: list[tuple[GameState, Action]]) -> None:
    """Played into a stall (common when a pass draws nothing): a quiet cycle is a loop."""
    last = final_state(game)
    assume(not is_over(last))
    assert last.quiet_turns >= last.players
    assert quiet_cycle(last) == last


# --- regression scenarios ---------------------------------------------------------------


@settings(max_examples=max(2, settings().max_examples // 8))
@given(game=legal_games(max_steps=40), extra=actions())
def test_regression_scenarios_round_trip(tmp_path_factory: pytest.TempPathFactory,
                                         game: list[tuple[GameState, Action]],
                                         extra: Action) -> None:
    """A sequence written by write_regression_scenario (with a final action that may be
    rejected) loads with load_scenario and passes run_scenario against the reference."""
    config = game[0][0].config
    sequence = [a for _, a in game] + [extra]
    path = tmp_path_factory.mktemp("regressions") / "regression-case.yaml"
    write_regression_scenario(config, sequence, path, title="A found sequence",
                              rules=["turn.play"], failure="example", verify=False)
    scenario = load_scenario(path)
    assert [r.passed for r in run_scenario(scenario)] == [True]
    doc = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert doc["given"] == {"setup": {"players": config.players,
                                      "colours": list(config.colours),
                                      "first_player": config.first_player}}
    assert sum("do" in step for step in doc["steps"]) == len(sequence)
    final = doc["steps"][-1]["expect"]["state"]
    state = new_game(config)
    for action in sequence:
        with contextlib.suppress(IllegalActionError):
            state = apply(state, action)[0]
    assert final == format_state(state)


def test_regression_scenario_detects_a_divergence(tmp_path: Path) -> None:
    """The written expectations bite: a file whose recorded events are altered fails."""
    config = make_config(2, variants={"refill": "as_many_as_played"})
    sequence = [a for _, a in play_seeded(config, 3, max_steps=40)]
    path = write_regression_scenario(config, sequence, tmp_path / "regr-bite.yaml",
                                     title="bite", rules=[], failure="example")
    doc: dict[str, Any] = yaml.safe_load(path.read_text(encoding="utf-8"))
    last = next(s for s in reversed(doc["steps"]) if s.get("expect", {}).get("events_exact"))
    first = last["expect"]["events_exact"][0]
    first["rule"] = "turn.clockwise" if first["rule"] != "turn.clockwise" else "turn.play"
    path.write_text(yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")
    assert [r.passed for r in run_scenario(load_scenario(path))] == [False]


@pytest.mark.slow  # runs other programs
def test_strategies_module_is_optional() -> None:
    """Nothing in mammamia_ref imports the strategies or hypothesis (a test extra): the
    package and the regression writer import with hypothesis made unimportable."""
    for path in (ROOT / "mammamia_ref").rglob("*.py"):
        if path.name == "strategies.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module or "", *(a.name for a in node.names)] \
                if isinstance(node, ast.ImportFrom) else []
            assert not any("strategies" in n or n.startswith("hypothesis") for n in names), path
    code = ("import sys; sys.modules['hypothesis'] = None; import mammamia_ref, "
            "mammamia_ref.sim.regression, mammamia_ref.sim.play, mammamia_ref.formats.scenario")
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)


def test_sampled_configs_cover_every_variant_value() -> None:
    """Every (flag, value) and player count is reachable by configs()."""
    seen: set[tuple[str, str]] = set()
    counts: set[int] = set()

    @settings(max_examples=120, database=None, derandomize=True)
    @given(config=configs())
    def collect(config: GameConfig) -> None:
        counts.add(config.players)
        seen.update(config.rules.as_dict().items())

    collect()
    assert counts == {2, 3, 4, 5}
    assert seen == set(_variant_pairs())
