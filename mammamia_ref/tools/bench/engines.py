"""Games, decisions, ``legal_actions`` calls and oven resolutions per second, on the
reference engine and the fast one, under the benchmark policy."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, TypeVar

from mammamia_ref.rules.actions import Shuffle
from mammamia_ref.rules.game import apply, is_chance, legal_actions, new_game
from mammamia_ref.rules.state import GameState, make_config
from mammamia_ref.sim import fast
from mammamia_ref.sim.play import play_game
from mammamia_ref.sim.policies import random_policy
from mammamia_ref.tools.bench.measure import Meter, until

S = TypeVar("S")  # a state of either engine


def reference_games(players: int, budget: float, seed: int = 0, batch: int = 5) -> dict[str, Any]:
    """Complete reference games under the benchmark policy, seeds from ``seed`` on, in
    batches of ``batch`` games."""
    config = make_config(players)
    meter, decisions = Meter(), 0
    for index in until(budget):
        with meter.batch():
            records = [play_game(config, game_seed, [random_policy] * players)
                       for game_seed in range(seed + batch * index, seed + batch * (index + 1))]
            meter.units += batch
        decisions += sum(not isinstance(action, Shuffle)
                         for record in records for action, _ in record.steps)
    meter.extra["decisions_per_s"] = meter.rate(decisions)
    return {**meter.as_json("games"), "decisions": decisions}


def fast_games(players: int, budget: float, seed: int = 0) -> dict[str, Any]:
    """Complete fast-engine games under the benchmark policy (batches of ten)."""
    config = make_config(players)
    meter, decisions = Meter(), 0
    for index in until(budget):
        with meter.batch():
            for game_seed in range(seed + 10 * index, seed + 10 * index + 10):
                decisions += fast.play_random_game(config, game_seed).decisions
            meter.units += 10
    meter.extra["decisions_per_s"] = meter.rate(decisions)
    return {**meter.as_json("games"), "decisions": decisions}


def decision_states(players: int, games: int, seed: int = 0) -> list[tuple[GameState, Any]]:
    """The decision states of seeded reference games, each with the action chosen there."""
    found = []
    config = make_config(players)
    for game_seed in range(seed, seed + games):
        record = play_game(config, game_seed, [random_policy] * players)
        state = new_game(config)
        for action, _ in record.steps:
            if not is_chance(state):
                found.append((state, action))
            state, _ = apply(state, action)
    return found


def legal_actions_rates(states: list[tuple[GameState, Any]], budget: float) -> dict[str, Any]:
    """``legal_actions`` calls per second over the same states on both engines."""
    return {"reference": _call_rate(legal_actions, [s for s, _ in states], budget / 2),
            "fast": _call_rate(fast.legal_actions, [fast.from_state(s) for s, _ in states],
                               budget / 2)}


def _call_rate(call: Callable[[S], object], inputs: list[S], budget: float) -> dict[str, Any]:
    meter = Meter()
    for _ in until(budget):
        with meter.batch():
            for state in inputs:
                call(state)
            meter.units += len(inputs)
    return meter.as_json("calls")


def oven_resolutions(states: list[tuple[GameState, Any]], budget: float) -> dict[str, Any]:
    """Oven resolutions per second: from the decision that ends a round through the
    opening of the oven, the owners' decisions (benchmark policy) and the reveals, to the
    next round's shuffle or the end, on both engines."""
    enders = []
    for state, action in states:
        if state.phase == "turn" and apply(state, action)[0].phase != "turn":
            enders.append((state, action))
    quick = [(fast.from_state(state), fast.action_code(action)) for state, action in enders]
    results = {}
    meter = Meter()
    rng = random.Random(0)
    for _ in until(budget / 2):
        with meter.batch():
            for state, action in enders:
                state, _ = apply(state, action)
                while state.phase == "oven":
                    state, _ = apply(state, random_policy(state, legal_actions(state), rng))
            meter.units += len(enders)
    results["reference"] = meter.as_json("resolutions")
    meter = Meter()
    for _ in until(budget / 2):
        with meter.batch():
            for original, code in quick:
                copy = original.copy()
                fast.apply(copy, code)
                while copy.phase == "oven":
                    fast.apply(copy, fast.benchmark_choice(copy, fast.legal_actions(copy), rng))
            meter.units += len(quick)
    results["fast"] = meter.as_json("resolutions")
    return results
