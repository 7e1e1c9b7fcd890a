"""The z3 turn's rules (:mod:`mammamia_ref.queries.model.turn_rules`) against the kernel's, on
states of random reference games.

Random games (explicit seeds: the shuffles from :class:`~mammamia_ref.rules.chance.ChanceSource`,
every decision drawn uniformly from the legal actions) are played under each ruling of
the flags the game model follows for the turn. At every play and every draw of those
games, each per-rule z3 function is evaluated on the concrete values of the state (z3
constants, simplified to a value) and compared with what the kernel
(:mod:`mammamia_ref.rules.turn`, :mod:`mammamia_ref.rules.round`) allows or does there:
the plays and passes allowed, the orders that may be placed, the cards the draw may take
and the counts it may name, what a draw turns up, where the Mamma Mia! card goes, the
quiet turns, the stall and the next player. The rules the z3 turn takes from the kernel
by calling its function (``stalls``, ``game_ends``, ``next_supply``, ``step_after_pass``)
are compared too, through the z3 functions that call them.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import pytest

z3 = pytest.importorskip("z3")

pytestmark = pytest.mark.z3

from mammamia_ref.queries.model import num as N  # noqa: E402
from mammamia_ref.queries.model.turn_rules import (  # noqa: E402
    mamma_mia_draw,
    mamma_mia_holder,
    mamma_mia_taken,
    oven_fail_oldest_first,
    round_end_quiet,
    round_end_stall,
    round_end_supply,
    turn_clockwise,
    turn_draw,
    turn_draw_fewer,
    turn_draw_short,
    turn_place_order,
    turn_play_or_pass,
    waiter_draw,
)
from mammamia_ref.rules.actions import Action, Draw, NoOrder, Pass, PlaceOrder, Play  # noqa: E402
from mammamia_ref.rules.chance import ChanceSource  # noqa: E402
from mammamia_ref.rules.game import apply, is_chance, is_over, legal_actions, new_game  # noqa: E402
from mammamia_ref.rules.round import supply_exhausted  # noqa: E402
from mammamia_ref.rules.state import GameState, Phase, Step, make_config, replace  # noqa: E402
from mammamia_ref.rules.turn import refill_allowance  # noqa: E402
from mammamia_ref.rules.typed_spec import DrawAmount  # noqa: E402
from mammamia_ref.rules.vocabulary import KINDS, MAMMA_MIA, ORDERS_OF, counts_of  # noqa: E402

RULINGS: tuple[dict[str, str], ...] = (
    {}, {"refill": "as_many_as_played"}, {"draw_amount": "any"},
    {"round_end": "last_ingredient"}, {"stall": "letter"}, {"pass_order": "allowed"},
    {"draw_amount": "any", "round_end": "last_ingredient", "pass_order": "allowed"},
    {"refill": "as_many_as_played", "stall": "letter", "round_end": "last_ingredient"},
)
SEEDS = range(3)
PLAYERS = (2, 3)
MAX_STEPS = 600
STRIDE = 6   # every sixth play and draw of the games is checked (about 800 of each)
NO = -1


@dataclass(frozen=True)
class Seen:
    """A state of a random game, with the failed orders under each waiter (in the
    order they failed), which the kernel's state does not tell from the others."""

    state: GameState
    failed: tuple[tuple[str, ...], ...]


def _random_game(players: int, ruling: dict[str, str], seed: int) -> Iterator[Seen]:
    state = new_game(make_config(players, variants=ruling))
    chance, rng = ChanceSource(seed), random.Random(f"turn-rules:{seed}")
    failed: list[list[str]] = [[] for _ in range(players)]
    for _ in range(MAX_STEPS):
        if is_over(state):
            return
        if is_chance(state):
            state, _events = apply(state, chance.shuffle(state))
            continue
        if state.phase == Phase.TURN:
            yield Seen(state, tuple(tuple(f) for f in failed))
        state, events = apply(state, rng.choice(legal_actions(state)))
        for e in events:
            if e.name == "failed":
                failed[e.get("seat")].append(e.get("order"))
        for seat in range(players):   # a failed order drawn again is no longer under
            failed[seat] = [o for o in failed[seat] if o in state.waiters[seat]]


@functools.cache
def _states() -> tuple[Seen, ...]:
    return tuple(seen for players in PLAYERS for ruling in RULINGS for seed in SEEDS
                 for seen in _random_game(players, ruling, seed))


def _at(step: Step) -> list[Seen]:
    return [seen for seen in _states() if seen.state.step == step][::STRIDE]


def value(term: Any) -> Any:
    """The plain value of a term built from constants only."""
    if isinstance(term, bool | int):
        return term
    got = z3.simplify(term)
    if z3.is_true(got):
        return True
    if z3.is_false(got):
        return False
    assert z3.is_int_value(got), f"not a constant: {got}"
    return got.as_long()


def _int(x: int) -> Any:
    return N.Val(x)


def _bool(x: bool) -> Any:
    return N.BoolVal(x)


def _ingredients(cards: Sequence[str]) -> list[int]:
    return list(counts_of(tuple(c for c in cards if c != MAMMA_MIA)))


def _order_index(state: GameState, order: str) -> int:
    return ORDERS_OF[state.colour(state.current)].index(order)


def _in_hand(state: GameState) -> list[bool]:
    held = state.hands[state.current].orders
    return [o in held for o in ORDERS_OF[state.colour(state.current)]]


def test_the_random_games_reach_every_case() -> None:
    """The sample is not empty where it matters: plays, passes, orders, draws from both
    sources, short draws, the Mamma Mia! card drawn and taken, stalls."""
    states = _states()
    assert len(_at(Step.PLAY)) > 500 and len(_at(Step.DRAW)) > 500
    assert {len(s.state.hands) for s in states} == set(PLAYERS)
    assert {tuple(sorted(s.state.config.rules.non_default().items())) for s in states} == \
        {tuple(sorted(r.items())) for r in RULINGS}
    assert any(not any(s.state.hands[s.state.current].ingredients) for s in _at(Step.PLAY))
    assert any(s.failed[s.state.current] for s in _at(Step.DRAW))
    assert any(MAMMA_MIA in s.state.supply for s in states)


def test_play_or_pass() -> None:
    """turn.play, turn.pass: the z3 rule allows exactly the kernel's plays, or its pass."""
    with N.building():
        for seen in _at(Step.PLAY):
            state = seen.state
            hand = state.hands[state.current].ingredients
            kernel = {(NO, 0) if isinstance(a, Pass) else (KINDS.index(a.kind), a.count)
                      for a in legal_actions(state) if isinstance(a, Pass | Play)}
            terms = [_int(x) for x in hand]
            z3_rule = {(kind, count) for kind in range(NO, len(KINDS))
                       for count in range(max(hand) + 2)
                       if value(turn_play_or_pass(terms, _int(sum(hand)), _int(kind),
                                                  _int(count)))}
            assert z3_rule == kernel, (state.hands[state.current], z3_rule, kernel)


def _after_play(state: GameState) -> Iterator[tuple[Action, GameState]]:
    for action in legal_actions(state):
        after, _events = apply(state, action)
        yield action, after


def test_place_order() -> None:
    """turn.place_order, turn.pass_with_order: after each play or pass, the z3 rule
    allows placing exactly the orders the kernel offers (none where it skips the step)."""
    with N.building():
        for seen in _at(Step.PLAY):
            state = seen.state
            in_hand = [_bool(x) for x in _in_hand(state)]
            held = _int(len(state.hands[state.current].orders))
            for action, after in _after_play(state):
                if after.step == Step.ORDER:
                    kernel = {NO if isinstance(a, NoOrder) else _order_index(state, a.order)
                              for a in legal_actions(after)
                              if isinstance(a, NoOrder | PlaceOrder)}
                else:
                    kernel = {NO}
                passed = _bool(isinstance(action, Pass))
                z3_rule = set()
                for order in range(NO, len(in_hand)):
                    legal, placed = turn_place_order(in_hand, held, passed, _int(order),
                                                     state.flags.pass_order)
                    assert value(placed) == (order != NO)
                    if value(legal):
                        z3_rule.add(order)
                assert z3_rule == kernel, (action, state.hands[state.current], z3_rule, kernel)


def test_draw_allowance() -> None:
    """turn.draw, turn.draw_as_played: the cards the draw may take, as the kernel's
    ``cards_to_draw`` says."""
    with N.building():
        for seen in _at(Step.DRAW):
            state = seen.state
            size = state.hands[state.current].size
            got = value(turn_draw(state.flags.refill, state.parameters.hand_limit, _int(size),
                                  _int(state.played)))
            assert got == refill_allowance(state), (size, state.played, state.flags.refill)


def _there(state: GameState, source: str) -> int:
    """The cards a source holds: the supply's, the Mamma Mia! card included, or the
    orders under the waiter."""
    if source == "supply":
        return len(state.supply)
    return len(state.waiters[state.current])


def test_draw_fewer() -> None:
    """turn.draw_fewer: under draw_amount=any the counts the z3 rule allows are the
    kernel's, but for those beyond what the source holds (the same draw as naming what
    it holds)."""
    checked = 0
    with N.building():
        for seen in _at(Step.DRAW):
            state = seen.state
            if state.flags.draw_amount != DrawAmount.ANY:
                continue
            allowance = refill_allowance(state)
            for source in ("supply", "waiter"):
                kernel = {a.count for a in legal_actions(state)
                          if isinstance(a, Draw) and a.source == source}
                assert kernel == set(range(allowance + 1))
                there = _there(state, source)
                z3_rule = {n for n in range(allowance + 3)
                           if value(turn_draw_fewer(_int(n), _int(allowance), _int(there)))}
                assert z3_rule == {n for n in kernel if n <= there}, (source, allowance, there)
                checked += 1
    assert checked > 100


def _wanted(state: GameState, action: Draw) -> int:
    return refill_allowance(state) if action.count is None else action.count


def _draws(state: GameState) -> Iterator[Draw]:
    for action in legal_actions(state):
        assert isinstance(action, Draw)
        yield action


def test_draw_short() -> None:
    """turn.draw_short: a draw gets what it wants or what the source holds: the
    ingredient cards a supply draw turns up, the orders a waiter draw takes."""
    with N.building():
        for seen in _at(Step.DRAW):
            state = seen.state
            seat = state.current
            before = state.hands[seat]
            for action in _draws(state):
                after = apply(state, action)[0].hands[seat]
                wanted = _wanted(state, action)
                if action.source == "supply":
                    there, moved = sum(_ingredients(state.supply)), \
                        sum(after.ingredients) - sum(before.ingredients)
                else:
                    there, moved = len(state.waiters[seat]), len(after.orders) - len(before.orders)
                assert value(turn_draw_short(_int(wanted), _int(there))) == moved, (action, there)


def test_waiter_draw_takes_shuffled_orders_then_failed_ones_oldest_first() -> None:
    """turn.draw, oven.fail: the orders the kernel's waiter draw takes satisfy the z3
    rule; taking a failed order while a shuffled one is left would not."""
    cases = 0
    with N.building():
        for seen in _at(Step.DRAW):
            state = seen.state
            seat, waiter = state.current, state.waiters[state.current]
            orders = ORDERS_OF[state.colour(seat)]
            failed = seen.failed[seat]
            shuffled = [o in waiter and o not in failed for o in orders]
            under = [o in failed for o in orders]
            since = [_int(failed.index(o) if o in failed else 0) for o in orders]
            for action in _draws(state):
                if action.source != "waiter":
                    continue
                after = apply(state, action)[0].hands[seat].orders
                took = [o in after and o not in state.hands[seat].orders for o in orders]
                args = (_int(sum(took)), _int(sum(shuffled)), [_bool(x) for x in took],
                        [_bool(x) for x in shuffled], [_bool(x) for x in under])
                assert value(waiter_draw(*args)), (waiter, failed, took)
                assert all(value(c) for c in oven_fail_oldest_first(args[2], args[4], since))
                cases += bool(failed) and any(took)
    assert cases > 10


def _outcomes(state: GameState, action: Draw
              ) -> Iterator[tuple[int, tuple[str, ...], tuple[Any, ...]]]:
    """The draw played with the Mamma Mia! card at each place in the supply (the others
    in their order): (that place, the supply drawn from, the events)."""
    rest = [c for c in state.supply if c != MAMMA_MIA]
    places = range(len(rest) + 1) if MAMMA_MIA in state.supply else (None,)
    for place in places:
        supply = tuple(rest) if place is None else (*rest[:place], MAMMA_MIA, *rest[place:])
        _after, events = apply(replace(state, supply=supply), action)
        yield (-1 if place is None else place), supply, tuple(events)


def test_mamma_mia_draw_and_the_supply_running_out() -> None:
    """mamma_mia.draw, round_end.last_card, round_end.last_ingredient: with the Mamma
    Mia! card at every place in the supply, the outcomes the z3 rules allow (the card
    drawn or not, after the draw's ingredient cards or before them) are the kernel's,
    and so are the supply run out and the card taken by the drawer."""
    cases = 0
    with N.building():
        for seen in _at(Step.DRAW):
            state = seen.state
            seat, round_end = state.current, state.flags.round_end
            in_supply = MAMMA_MIA in state.supply
            for action in _draws(state):
                if action.source != "supply":
                    continue
                wanted, left = _wanted(state, action), sum(_ingredients(state.supply))
                got = min(wanted, left)
                can_meet = _bool(in_supply and wanted > 0)
                ran_dry = _bool(got < wanted)
                seen_outcomes = set()
                for place, supply, events in _outcomes(state, action):
                    rules = {e.name: e.rule for e in events}
                    popped = "mamma_mia_drawn" in rules
                    last = popped and place >= got
                    seen_outcomes.add((popped, last))
                    if popped and got == 0:   # no ingredient card: before them is after them
                        seen_outcomes.add((popped, not last))
                    left_after = [_int(x) for x in _ingredients(supply[got + popped:])]
                    mm_after = seat if popped else (-1 if in_supply else state.mamma_mia)
                    exhausted = value(round_end_supply(round_end, left_after, _int(mm_after)))
                    ended = rules.get("round_ended", "round_end.stall") != "round_end.stall"
                    assert exhausted == ended, (place, state.supply, action)
                    taken = value(mamma_mia_taken(_bool(exhausted), _bool(in_supply),
                                                  _bool(popped)))
                    assert taken == (rules.get("mamma_mia_taken") == "round_end.last_ingredient")
                    cases += 1
                allowed = {(p, q) for p in (False, True) for q in (False, True)
                           if all(value(c) for c in mamma_mia_draw(
                               round_end, can_meet, ran_dry, _bool(p), _bool(q)))}
                assert allowed == seen_outcomes, (state.supply, action, allowed, seen_outcomes)
    assert cases > 500


def _supplies(supply: tuple[str, ...]) -> Iterator[tuple[str, ...]]:
    """What a supply holds as draws go through it, and with its Mamma Mia! card (if
    it holds it) at the bottom: each tail of both."""
    bottom = tuple(c for c in supply if c != MAMMA_MIA) + \
        ((MAMMA_MIA,) if MAMMA_MIA in supply else ())
    for pile in (supply, bottom):
        for start in range(len(pile) + 1):
            yield pile[start:]


def test_round_end_supply_is_the_kernels() -> None:
    """round_end.last_card, round_end.last_ingredient: the z3 test of a run-out supply
    is the kernel's ``supply_exhausted`` on every supply of the games, and on what it
    holds as draws go through it."""
    with N.building():
        for seen in _states()[::STRIDE]:
            state = seen.state
            for supply in _supplies(state.supply):
                mm = -1 if MAMMA_MIA in supply else 0
                z3_rule = value(round_end_supply(state.flags.round_end,
                                                 [_int(x) for x in _ingredients(supply)],
                                                 _int(mm)))
                assert z3_rule == supply_exhausted(state.rules, supply), supply


def test_quiet_turns_stall_and_next_player() -> None:
    """round_end.stall, turn.clockwise, mamma_mia.draw: after every draw, the z3 rules
    give the kernel's quiet turns, stall, next player and Mamma Mia! holder."""
    stalls = 0
    with N.building():
        for seen in _at(Step.DRAW):
            state = seen.state
            seat, n = state.current, state.players
            for action in _draws(state):
                after, events = apply(state, action)
                rules = {e.name: e.rule for e in events}
                opener = next((e.get("seat") for e in events if e.name == "oven_opened"), None)
                before, now = state.hands[seat], after.hands[seat]
                moved = now.size - before.size + ("mamma_mia_drawn" in rules)
                quiet_turn = state.played == 0 and moved == 0
                quiet = value(round_end_quiet(_bool(quiet_turn), _int(state.quiet_turns), n))
                assert quiet == after.quiet_turns, (state.quiet_turns, quiet_turn)
                ended = "round_ended" in rules
                exhausted = ended and rules["round_ended"] != "round_end.stall"
                stall = value(round_end_stall(state.flags.stall, _bool(exhausted), _int(quiet), n))
                assert stall == (rules.get("round_ended") == "round_end.stall"), (quiet, rules)
                stalls += stall
                following = value(turn_clockwise(_int(seat), n))
                assert following == value(turn_clockwise(seat, n))
                if not ended:
                    assert following == after.current
                in_supply = MAMMA_MIA in state.supply
                holder = value(mamma_mia_holder(
                    _int(seat), _int(following),
                    _int(-1 if state.mamma_mia is None else state.mamma_mia),
                    _bool("mamma_mia_drawn" in rules),
                    _bool(rules.get("mamma_mia_taken") == "round_end.last_ingredient"),
                    _bool(stall), _bool(in_supply)))
                # the round's end opens the oven at once, and the holder opens it
                expected = opener if ended else after.mamma_mia
                assert holder == (-1 if expected is None else expected), rules
    assert stalls > 0
