"""The whole run: every measure, as one JSON-ready dict."""

from __future__ import annotations

import contextlib
import os
import platform
from collections.abc import Callable
from typing import Any

from mammamia_ref.sim import compiled, fast
from mammamia_ref.tools.bench.chess import chess_figures
from mammamia_ref.tools.bench.counting import perft_rates, perft_tables
from mammamia_ref.tools.bench.engines import (
    decision_states,
    fast_games,
    legal_actions_rates,
    oven_resolutions,
    reference_games,
)
from mammamia_ref.tools.bench.measure import PLAYER_COUNTS
from mammamia_ref.tools.bench.players import careful_cost, search_cost
from mammamia_ref.tools.bench.queries import (
    BMC_BUDGET,
    QUICK_BMC_BUDGET,
    QUICK_QUERIES,
    model_checker_depth,
    query_times,
)
from mammamia_ref.tools.bench.report import goals
from mammamia_ref.tools.bench.scaling import scaling
from mammamia_ref.tools.bench.suite import conformance_throughput, scenario_suite


def run_benchmarks(quick: bool = False, jobs: int = 1,
                   progress: Callable[[str], None] | None = None) -> dict[str, Any]:
    """Every measure above, as one JSON-ready dict (``quick``: small budgets, for a smoke
    test; the figures are then rough)."""
    say = progress or (lambda message: None)
    budget = 0.25 if quick else 3.0
    results: dict[str, Any] = {"machine": machine_info(), "quick": quick, "jobs": jobs,
                               "timing": "rates are units per CPU second of the measuring "
                                         "process, unless wall_seconds says otherwise"}
    results["games"] = {"reference": {}, "fast": {}}
    for players in PLAYER_COUNTS:
        say(f"games, {players} players")
        results["games"]["reference"][str(players)] = reference_games(
            players, budget, batch=2 if quick else 5)
        results["games"]["fast"][str(players)] = fast_games(players, budget)
    results["decisions_per_s"] = {engine: results["games"][engine]["4"]["decisions_per_s"]
                                  for engine in ("reference", "fast")}
    say("players: random, careful, search")
    results["players"] = careful_cost(budget * 2)
    results["players"]["search"] = search_cost(budget)
    say("legal actions and oven resolutions")
    states = decision_states(4, 2 if quick else 10)
    results["legal_actions"] = legal_actions_rates(states, budget)
    results["oven_resolutions"] = oven_resolutions(states, budget)
    say("counting tables")
    tables = perft_tables()
    if tables:
        results["perft"] = perft_rates(tables, budget * 2,
                                       reference_max_nodes=600 if quick else 20_000,
                                       fast_max_nodes=10_000 if quick else 10**9)
    else:
        results["perft"] = {"available": False, "reason": "no scenarios/perft/ folder here"}
    say("scenario suite")
    results["scenarios"] = scenario_suite()
    say("conformance protocol")
    try:
        results["conformance"] = conformance_throughput(1.0 if quick else budget)
    except Exception as exc:  # a machine that cannot start a subprocess: say so
        results["conformance"] = {"available": False, "reason": f"{type(exc).__name__}: {exc}"}
    say("z3 queries")
    # a quick run answers only the cheapest kind of question; a full run every one
    results["queries"] = query_times(include_slow=not quick,
                                     only=QUICK_QUERIES if quick else None,
                                     progress=say)
    say("bounded model checker")
    results["model_checker"] = model_checker_depth(QUICK_BMC_BUDGET if quick else BMC_BUDGET)
    say("python-chess")
    results["chess"] = chess_figures(budget * 2, 3 if quick else 4)
    if jobs > 1:
        say(f"scaling with {jobs} processes")
        per_second = results["games"]["fast"]["4"]["games_per_s"]
        results["scaling"] = scaling(jobs, max(8 * jobs, int(per_second * (0.5 if quick else 2))),
                                     tables, 0 if quick else 2, repeats=1 if quick else 3)
    results["goals"] = goals(results)
    return results


def machine_info() -> dict[str, Any]:
    load = None
    with contextlib.suppress(OSError, AttributeError):
        load = [round(x, 2) for x in os.getloadavg()]
    return {"python": platform.python_version(),
            "implementation": platform.python_implementation(),
            "platform": platform.platform(),
            "processor": platform.processor() or platform.machine(),
            "cpu_count": os.cpu_count(), "load_average": load,
            "fast_engine_inline_random": fast.INLINE_OK,
            "fast_core": compiled.core_line().removeprefix("fast core: ")}
