"""What a player costs: 4-player games per CPU second under the benchmark policy and
under the careful one, played by the simulation's own game loop
(:func:`mammamia_ref.sim.simulate.play`, what ``mammamia simulate`` and ``compare`` run),
and what a search player's decision costs (:func:`search_cost`).

The careful player is timed twice: on the fast engine's state and action codes
(:func:`mammamia_ref.sim.careful.choose_careful_code`, what the simulation runs) and, as
before it had that chooser, on the reference's state and actions built at every
decision (the same games: ``tests/test_careful_fast.py``). Random and careful batches
are interleaved, on the same seeds, so that both see the machine in the same moods."""

from __future__ import annotations

from dataclasses import astuple
from typing import Any

from mammamia_ref.rules.state import make_config
from mammamia_ref.sim import fast, search, simulate
from mammamia_ref.tools.bench.measure import Meter, until

CAREFUL_GOAL = 3.0  # a careful game should cost at most this many random games


def careful_cost(budget: float, seed: int = 0) -> dict[str, Any]:
    """4-player games per CPU second: the benchmark policy and the careful one in every
    seat through the simulation's game loop, the careful one also through the reference
    (``reference``); the benchmark policy also through the fast engine's own loop
    (:func:`mammamia_ref.sim.fast.play_random_game`, the ``fast`` games of the main
    table). ``budget`` CPU seconds in all; ``careful_in_random_games`` is the CPU time of
    a careful game in random games of the same loop."""
    config = make_config(4)
    meters = {name: Meter() for name in ("random", "careful", "careful_reference",
                                         "random_engine_loop")}
    decisions = dict.fromkeys(meters, 0)
    batches = {"random": 10, "careful": 2, "careful_reference": 1, "random_engine_loop": 10}
    for index in until(budget):  # one batch of each in turn, seeds in step
        for name, meter in meters.items():
            if name == "careful_reference" and meter.cpu > budget / 4:
                continue  # slow: a quarter of the budget is enough
            first = seed + index * batches[name]
            with meter.batch():
                for game in range(first, first + batches[name]):
                    if name == "random_engine_loop":
                        decisions[name] += fast.play_random_game(config, game).decisions
                    else:
                        policy = "random" if name == "random" else "careful"
                        decisions[name] += simulate.play(
                            4, game, None, (policy,) * 4,
                            reference=name == "careful_reference").decisions
                meter.units += batches[name]
    results: dict[str, Any] = {}
    for name, meter in meters.items():
        meter.extra["decisions_per_s"] = meter.rate(decisions[name])
        results[name] = {**meter.as_json("games"), "decisions": decisions[name],
                         "cpu_ms_per_game": round(1000 * meter.cpu / max(meter.units, 1), 3)}
    per_game = {name: meter.cpu / max(meter.units, 1) for name, meter in meters.items()}
    results["careful_in_random_games"] = round(per_game["careful"] / per_game["random"], 2)
    results["careful_in_engine_loop_games"] = round(
        per_game["careful"] / per_game["random_engine_loop"], 2)
    results["careful_speedup_over_reference"] = round(
        per_game["careful_reference"] / per_game["careful"], 2)
    return results


SEARCH_POLICY = "search"  # the default budget


def search_cost(budget: float, seed: int = 0) -> dict[str, Any]:
    """CPU time of the search player's decisions (default budget), one search seat
    against three careful ones in 4-player games, the seat moving round the table, for
    about ``budget`` CPU seconds. Its strength takes thousands of games:
    :mod:`mammamia_ref.tools.bench.strength`."""
    before = astuple(search.TALLY)
    meter = Meter()
    for index in until(budget):
        game = seed + index
        policies = ["careful"] * 4
        policies[game % 4] = SEARCH_POLICY
        with meter.batch():
            simulate.play(4, game, None, policies)
            meter.units += 1
    decisions, searched, playouts, seconds = (
        a - b for a, b in zip(astuple(search.TALLY), before, strict=True))
    return {"policy": SEARCH_POLICY, **meter.as_json("games"),
            "decisions": int(decisions), "searched": int(searched),
            "playouts": int(playouts),
            "cpu_ms_per_decision": round(1000 * seconds / max(decisions, 1), 3),
            "cpu_ms_per_searched_decision": round(1000 * seconds / max(searched, 1), 3),
            "cpu_seconds_per_game": round(meter.cpu / max(meter.units, 1), 4)}
