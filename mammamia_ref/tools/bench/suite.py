"""The scenario suite's time, and the conformance protocol's throughput."""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path
from typing import Any

from mammamia_ref.formats.scenario import load_all
from mammamia_ref.kit.client import Implementation
from mammamia_ref.sim.scenario_run import run_scenario
from mammamia_ref.tools.bench.measure import PLAYER_COUNTS, ROOT, Meter


def scenario_suite() -> dict[str, Any]:
    """Load and run every scenario under ``scenarios/`` once."""
    folder = ROOT / "scenarios" if (ROOT / "scenarios").is_dir() else Path("scenarios")
    if not folder.is_dir():
        return {"available": False, "reason": "no scenarios/ folder here"}
    load, run = Meter(), Meter()
    with load.batch():
        scenarios, errors = load_all([folder])
    with run.batch():
        results = [result for scenario in scenarios for result in run_scenario(scenario)]
    return {"available": True, "scenarios": len(scenarios), "runs": len(results),
            "passed": sum(result.passed for result in results), "load_errors": len(errors),
            "load_cpu_seconds": round(load.cpu, 3), "run_cpu_seconds": round(run.cpu, 3),
            "cpu_seconds": round(load.cpu + run.cpu, 3),
            "wall_seconds": round(load.wall + run.wall, 3)}


def conformance_throughput(budget: float) -> dict[str, Any]:
    """Protocol operations per second (wall clock: two processes take part) against the
    reference served over the porter protocol: seeded random games of
    ``legal_actions`` and ``apply`` (the chance nodes' shuffles included)."""
    command = [sys.executable, "-m", "mammamia_ref", "serve"]
    ops, games = 0, 0
    rng = random.Random(0)
    with Implementation(command, timeout=30.0) as impl:
        impl.start()
        start = time.perf_counter()
        while time.perf_counter() - start < budget:
            players = PLAYER_COUNTS[games % len(PLAYER_COUNTS)]
            state = impl.request("new_game", players=players)["state"]
            ops += 1
            chance = random.Random(f"mammamia-chance:{games}")
            while state["phase"] != "over" and time.perf_counter() - start < budget:
                if state["phase"] == "shuffle":
                    pile = state["step"]
                    cards = state["supply"] if not pile.startswith("waiter.") else next(
                        p["waiter"] for p in state["players"] if p["colour"] == pile[7:])
                    action = {"type": "shuffle", "pile": pile,
                              "order": chance.sample(cards, len(cards))}
                else:
                    actions = impl.request("legal_actions")["actions"]
                    ops += 1
                    action = rng.choice(actions)
                state = impl.request("apply", action=action)["state"]
                ops += 1
            games += 1
        wall = time.perf_counter() - start
    return {"available": True, "ops": ops, "games": games, "wall_seconds": round(wall, 3),
            "ops_per_s": round(ops / wall, 1) if wall else 0.0,
            "command": "python -m mammamia_ref serve"}
