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
)

from mammamia_ref import (
    Action,
    Draw,
    Event,
    GameConfig,
    GameState,
    IllegalActionError,
    NoOrder,
    Pass,
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
from mammamia_ref.formats.regression import write_regression_scenario
from mammamia_ref.formats.scenario import complete_state, load_scenario, run_scenario
from mammamia_ref.rules.chance import ChanceSource
from mammamia_ref.rules.state import variant_values
from mammamia_ref.sim.play import play_game
from mammamia_ref.sim.policies import POLICIES
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
        state.variants["mamma_mia_shuffle"] == "after_deal"


def total_cards(players: int) -> int:
    return ALL_INGREDIENTS + ORDERS_PER_COLOUR * players + 1


def where(places: dict[str, Counter[str]], card: str) -> list[str]:
    return [name for name, counter in places.items() for _ in range(counter[card])]


def own_winners(state: GameState, last_holder: int | None) -> tuple[set[int], str]:
    """game_end.*: most delivered; then most ingredient cards in hand; then shared, or
    the first clockwise from the last Mamma Mia! holder."""
    n = state.players
    most = max(len(d) for d in state.delivered)
    leaders = [s for s in range(n) if len(state.delivered[s]) == most]
    if len(leaders) == 1:
        return set(leaders), "game_end.most_delivered"
    best = max(sum(state.hands[s].ingredients) for s in leaders)
    leaders = [s for s in leaders if sum(state.hands[s].ingredients) == best]
    if len(leaders) == 1:
        return set(leaders), "game_end.tie_break"
    if state.variants["final_tie"] == "shared":
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


# --- the state machine ---------------------------------------------------------------


class GamePlay(RuleBasedStateMachine):
    """Random legal games under every player count and variant; the invariants hold
    after every step. Shuffles come from a seeded ChanceSource or, for some games, are
    drawn permutations (which shrink towards the unshuffled pile)."""

    def __init__(self) -> None:
        super().__init__()
        self.version = 0
        self.checked: dict[str, int] = {}

    # -- driving ------------------------------------------------------------------------

    @initialize(config=configs(), seed=st.integers(0, 2**32 - 1), drawn=st.booleans())
    def start(self, config: GameConfig, seed: int, drawn: bool) -> None:
        self.config = config
        self.seed = seed
        self.chance = None if drawn else ChanceSource(seed)
        self.state = new_game(config)
        self.prev: GameState | None = None
        self.action: Action | None = None
        self.events: tuple[Event, ...] = ()
        self.history: list[tuple[GameState, Action, tuple[Event, ...]]] = []
        self.initial_total = all_cards(self.state).total()
        self.opener: int | None = None
        self.round_turns = 0
        self.round_supply = 0
        self.loop_checked = False

    @property
    def stalled(self) -> bool:
        return self.state.variants["stall"] == "letter" and \
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
        after, events = apply(state, action)
        self.prev, self.action, self.events, self.state = state, action, events, after
        self.history.append((state, action, events))
        self.version += 1

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
        if not getattr(self, "history", None):
            return
        replay_and_compare(self.config, self.seed if self.chance else None, self.history,
                           disturb=True)

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
        trimmed = state.variants["trimming"] == "on"
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
        for e in (e for e in self.events if e.name == "drew"):
            seat, source, count = e.get("seat"), e.get("source"), e.get("count")
            assert seat == prev.current and prev.step == "draw"
            assert isinstance(self.action, Draw) and self.action.source == source
            pile = prev.supply if source == "supply" else prev.waiters[seat]
            available = sum(1 for card in pile if card != MAMMA_MIA)
            size = prev.hands[seat].size
            allowance = HAND_LIMIT - size if state.variants["refill"] == "to_seven" \
                else prev.played
            assert size + count <= HAND_LIMIT, "drew past seven"
            if state.variants["draw_amount"] == "fill":
                # Short of the allowance only when the chosen pile ran out.
                assert count == min(allowance, available), (allowance, available, count)
            else:  # turn.draw_fewer: any number up to the allowance, as far as the pile lasts
                assert self.action.count <= allowance
                assert count == min(self.action.count, available), (self.action, available)
            if source == "supply":
                assert sum(e.get("cards").values()) == count
            if state.variants["refill"] == "to_seven" and state.variants["draw_amount"] == \
                    "fill" and size + count < HAND_LIMIT:
                assert count == available, "a hand below seven although the pile had cards"

    # -- the Mamma Mia! card ---------------------------------------------------------------------

    @invariant()
    def mamma_mia_holder_opens_the_oven_and_starts_the_next_round(self) -> None:
        state, prev = self.state, self.prev
        in_supply = state.supply.count(MAMMA_MIA)
        assert in_supply + (state.mamma_mia is not None) + _mamma_mia_aside(state) == 1
        if prev is None or not self.fresh("mamma_mia"):
            return
        holder = prev.mamma_mia
        for e in self.events:
            if e.name in ("mamma_mia_dealt", "mamma_mia_drawn", "mamma_mia_taken"):
                assert holder is None, "the Mamma Mia! card was taken twice"
                holder = e.get("seat")
            elif e.name == "oven_opened":
                assert holder is not None and e.get("seat") == holder, (e, holder)
                self.opener = holder
            elif e.name == "supply_gathered":
                assert state.current == self.opener, "the next round's starter"
                holder = None
            elif e.name == "turn_begins" and e.rule == "next_round.first_player":
                assert e.get("seat") == self.opener, (e, self.opener)
        if state.phase in ("turn", "oven", "over"):
            assert state.mamma_mia == holder, (state.mamma_mia, holder)
        if state.phase == "oven":
            assert state.mamma_mia == self.opener

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
        if state.variants["stall"] == "cut":
            bound = round_turn_bound(state.players, self.round_supply)
            assert self.round_turns <= bound, (self.round_turns, bound)
        if is_over(state):
            opened = sum(1 for _, _, events in self.history for e in events
                         if e.name == "round_ended")
            assert opened == ROUNDS and names.count("game_ended") == 1
            assert names[-2:] == ["game_ended", "winners"]
            seats, rule = own_winners(state, self.opener)
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
                       disturb: bool) -> None:
    """Replay ``history`` from a new game: the same shuffles from the same seed (if the
    game used a ChanceSource), the same states and the same events at every step."""
    chance = ChanceSource(seed) if seed is not None else None
    state = new_game(config)
    for index, (recorded, action, events) in enumerate(history):
        if disturb:
            random.seed(index * 7919 + 1)
            random.random()
        assert state == recorded, f"replay diverged before step {index}"
        if chance is not None and is_chance(state):
            assert chance.shuffle(state) == action, f"another shuffle at step {index}"
        state, again = apply(state, action)
        assert again == events, f"other events at step {index}"


TestGamePlay = GamePlay.TestCase
TestGamePlay.settings = settings(max_examples=max(2, settings().max_examples // 4))


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
    opener = None
    turns, supply, stall_cut = 0, 0, config.variants["stall"] == "cut"
    for action, produced in zip(steps, events, strict=True):
        state, again = apply(state, action)
        assert again == produced
        for e in produced:
            if e.name == "oven_opened":
                opener = e.get("seat")
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
    seats, rule = own_winners(state, opener)
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
    last = next(s for s in reversed(doc["steps"]) if s.get("expect", {}).get("events"))
    last["expect"]["events"][0]["rule"] = "turn.clockwise" \
        if last["expect"]["events"][0]["rule"] != "turn.clockwise" else "turn.play"
    path.write_text(yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")
    assert [r.passed for r in run_scenario(load_scenario(path))] == [False]


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
            "mammamia_ref.formats.regression, mammamia_ref.sim.play, mammamia_ref.formats.scenario")
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)


def test_sampled_configs_cover_every_variant_value() -> None:
    """Every (flag, value) and player count is reachable by configs()."""
    seen: set[tuple[str, str]] = set()
    counts: set[int] = set()

    @settings(max_examples=120, database=None, derandomize=True)
    @given(config=configs())
    def collect(config: GameConfig) -> None:
        counts.add(config.players)
        seen.update(config.variants.as_dict().items())

    collect()
    assert counts == {2, 3, 4, 5}
    assert seen == set(_variant_pairs())
