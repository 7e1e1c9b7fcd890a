"""``mammamia bench --cores both``: the pure-Python fast core and the compiled one
(mypyc, :mod:`mammamia_ref.sim.compiled`) side by side, in the same run.

The two cannot share a process (the compiled modules call each other natively), so each
round runs one child process per core, in turn (the first core alternating from round to
round), each measuring the same four things for the same CPU budget on the same seeds:

- 4-player random games per CPU second (the fast engine's own loop,
  :func:`mammamia_ref.sim.fast.play_random_game`, the main table's ``fast`` games);
- 4-player careful games per CPU second (the careful player in every seat, through the
  simulation's game loop, what sweeps run);
- perft nodes per CPU second over the tables in ``scenarios/perft/`` (the counts checked);
- the search player's decisions per CPU second (its own seat's decisions, default budget,
  one search seat of four);
- ``mammamia ask``'s search, games judged per CPU second, for a ``find:`` and a ``most:``
  question, before (every seeded game on the reference) and after (on the fast engine with
  the reference's events; :mod:`.asksearch`), with the ratio after over before per core.

Each child says which core it ran (:func:`~mammamia_ref.sim.compiled.core_line`); the
figures are the medians over the rounds, and the ratios compiled over pure of those.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import statistics
import subprocess
import sys
from collections.abc import Callable, Sequence
from typing import Any

MEASURES = ("random_games_per_s", "careful_games_per_s", "perft_nodes_per_s",
            "search_decisions_per_s")
LABELS = {"random_games_per_s": "4-player random games/s (fast engine's loop)",
          "careful_games_per_s": "4-player careful games/s (simulation loop)",
          "perft_nodes_per_s": "perft nodes/s (scenarios/perft tables)",
          "search_decisions_per_s": "search player's decisions/s (its own seat)"}
ASK_MEASURES = tuple(f"ask_{question}_{route}_games_per_s" for question in ("find", "most")
                     for route in ("reference", "fast"))
ASK_LABELS = {f"ask_{question}_{route}_games_per_s":
              f"ask search, {question}: games/s, {where}"
              for question in ("find", "most")
              for route, where in (("reference", "before (reference)"),
                                   ("fast", "after (fast engine)"))}
"""``mammamia ask``'s search (:mod:`.asksearch`): before, every seeded game on the
reference; after, on the fast engine with the reference's events."""
ASK_GOALS = {"pure": 5.0, "compiled": 10.0}
"""The search's games per CPU second after over before, at least (issue 46)."""
GOAL_RATIO = 2.0
GOAL_RANDOM_GAMES = 7_000.0
CORES = ("pure", "compiled")


def core_figures(budget: float) -> dict[str, Any]:
    """The four measures in this process, on the core it runs."""
    from mammamia_ref.errors import InternalError
    from mammamia_ref.formats.jsonform import parse_state
    from mammamia_ref.sim import compiled, fast, simulate
    from mammamia_ref.tools.bench.asksearch import ask_search_figures
    from mammamia_ref.tools.bench.counting import perft_tables
    from mammamia_ref.tools.bench.engines import fast_games
    from mammamia_ref.tools.bench.measure import Meter, until
    from mammamia_ref.tools.bench.players import search_cost

    figures: dict[str, Any] = {}
    figures["random_games_per_s"] = fast_games(4, budget)["games_per_s"]
    meter = Meter()
    for index in until(budget):
        with meter.batch():
            for game in range(2 * index, 2 * index + 2):
                simulate.play(4, game, None, ("careful",) * 4)
            meter.units += 2
    figures["careful_games_per_s"] = round(meter.rate(), 1)
    jobs = []
    for table in perft_tables():
        depths = [d for d, n in sorted(table.counts.items()) if n <= 2_000_000]
        if depths:
            jobs.append((fast.from_state(parse_state(table.state)), depths[-1],
                         table.counts[depths[-1]]))
    meter = Meter()
    for _ in until(budget):
        with meter.batch():
            for state, depth, expected in jobs:
                nodes = fast.perft(state, depth)
                if nodes != expected:
                    raise InternalError(f"perft depth {depth}: {nodes}, the table says {expected}")
                meter.units += nodes
    figures["perft_nodes_per_s"] = round(meter.rate(), 1)
    search = search_cost(budget)
    figures["search_decisions_per_s"] = round(1000 / search["cpu_ms_per_decision"], 1) \
        if search["cpu_ms_per_decision"] else None
    figures["search"] = search
    figures.update(ask_search_figures(budget))
    figures["core"] = compiled.core_line()
    figures["loaded"] = compiled.loaded()
    return figures


def _load() -> list[float] | None:
    with contextlib.suppress(OSError, AttributeError):
        return [round(x, 2) for x in os.getloadavg()]
    return None


def _child(core: str, budget: float) -> dict[str, Any]:
    from mammamia_ref.sim.compiled import PURE_ENV

    env = {key: value for key, value in os.environ.items() if key != PURE_ENV}
    if core == "pure":
        env[PURE_ENV] = "1"
    done = subprocess.run([sys.executable, "-m", "mammamia_ref.tools.bench.cores",
                           "--budget", str(budget)], capture_output=True, text=True,
                          env=env, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"the {core} core's measures failed: {done.stderr.strip()[-2000:]}")
    figures: dict[str, Any] = json.loads(done.stdout)
    return figures


def compare_cores(budget: float = 2.0, rounds: int = 3,
                  progress: Callable[[str], None] | None = None) -> dict[str, Any]:
    """Both cores, ``rounds`` times each in turn; medians and ratios. When no current
    compiled build is there, only the pure-Python core is measured, and the reason said."""
    from mammamia_ref.sim import compiled

    say = progress or (lambda message: None)
    status = compiled.status()
    available = status.kind == "compiled"  # (not under MAMMAMIA_PURE, nor a stale build)
    cores = CORES if available else ("pure",)
    runs: dict[str, list[dict[str, Any]]] = {core: [] for core in cores}
    load = {"before": _load()}
    for index in range(rounds):
        order = cores if index % 2 == 0 else tuple(reversed(cores))
        for core in order:
            say(f"fast core side by side: round {index + 1} of {rounds}, {core}")
            runs[core].append(_child(core, budget))
    load["after"] = _load()
    expected = {"pure": "fast core: pure Python", "compiled": "fast core: compiled (mypyc)"}
    for core, found in runs.items():
        for run in found:
            if not run["core"].startswith(expected[core]):
                raise RuntimeError(f"the {core} side ran {run['core']!r}")
    medians = {core: {measure: _median([run.get(measure) for run in found])
                      for measure in (*MEASURES, *ASK_MEASURES)}
               for core, found in runs.items()}
    result: dict[str, Any] = {"rounds": rounds, "budget_cpu_seconds": budget,
                              "load_average": load, "medians": medians,
                              "runs": {core: [{key: run.get(key)
                                               for key in (*MEASURES, *ASK_MEASURES, "core")}
                                              for run in found]
                                       for core, found in runs.items()},
                              "compiled_available": available,
                              "compiled_status": status.label,
                              "ask_search": _ask_ratios(medians)}
    if available:
        ratios = {measure: _ratio(medians["compiled"][measure], medians["pure"][measure])
                  for measure in MEASURES}
        result["ratios"] = ratios
        result["goals"] = {
            "ratio_at_least_2": all(r is not None and r >= GOAL_RATIO for r in ratios.values()),
            "random_games_at_least_7000":
                (medians["compiled"]["random_games_per_s"] or 0) >= GOAL_RANDOM_GAMES}
    return result


def _ask_ratios(medians: dict[str, dict[str, float | None]]) -> dict[str, Any]:
    """The ask search's games per CPU second after over before, by core and question,
    and whether each meets its goal (:data:`ASK_GOALS`)."""
    ratios = {core: {question: _ratio(figures.get(f"ask_{question}_fast_games_per_s"),
                                      figures.get(f"ask_{question}_reference_games_per_s"))
                     for question in ("find", "most")} for core, figures in medians.items()}
    return {"ratios": ratios,
            "goals_met": {core: all(r is not None and r >= ASK_GOALS[core]
                                    for r in found.values())
                          for core, found in ratios.items()}}


def _ratio(compiled: float | None, pure: float | None) -> float | None:
    return round(compiled / pure, 2) if compiled and pure else None


def _median(values: Sequence[float | None]) -> float | None:
    present = [v for v in values if v is not None]
    return round(statistics.median(present), 1) if present else None


def format_cores(result: dict[str, Any]) -> str:
    """The side-by-side table ``mammamia bench --cores both`` prints."""
    def num(value: float | None) -> str:
        return "-" if value is None else f"{value:,.0f}"

    load = result["load_average"]
    lines = [f"fast core side by side: medians of {result['rounds']} rounds, "
             f"{result['budget_cpu_seconds']} CPU s a measure, per CPU second of each process "
             f"(load average {load['before']} before, {load['after']} after)"]
    width = max(map(len, LABELS.values()))
    lines.append(f"{'measure':<{width}}  {'pure Python':>12}  {'compiled':>12}  {'ratio':>6}")
    lines.append("-" * (width + 38))
    medians = result["medians"]
    for measure in MEASURES:
        compiled = medians.get("compiled", {}).get(measure)
        ratio = result.get("ratios", {}).get(measure)
        lines.append(f"{LABELS[measure]:<{width}}  {num(medians['pure'][measure]):>12}  "
                     f"{num(compiled):>12}  "
                     f"{'-' if ratio is None else f'{ratio:.2f}x':>6}")
    if not result["compiled_available"]:
        lines.append(f"compiled core: not measured, {result['compiled_status']} "
                     "(python -m mammamia_ref.tools.compile builds it)")
    else:
        goals = result["goals"]
        lines.append(f"goal, at least {GOAL_RATIO:g}x on every measure: "
                     f"{'met' if goals['ratio_at_least_2'] else 'NOT met'}; "
                     f"{GOAL_RANDOM_GAMES:,.0f} random games/s compiled: "
                     f"{'met' if goals['random_games_at_least_7000'] else 'NOT met'}")
    lines += _format_ask(result)
    return "\n".join(lines)


def _format_ask(result: dict[str, Any]) -> list[str]:
    """The ask search's lines: its games per CPU second on each core, before and after."""
    medians, ask = result["medians"], result.get("ask_search", {})
    if not any(medians[core].get(measure) is not None for core in medians
               for measure in ASK_MEASURES):
        return []
    width = max(map(len, ASK_LABELS.values()))
    lines = [f"{'mammamia ask search':<{width}}  {'pure Python':>12}  {'compiled':>12}"]
    for measure in ASK_MEASURES:
        compiled = medians.get("compiled", {}).get(measure)
        lines.append(f"{ASK_LABELS[measure]:<{width}}  "
                     f"{_num(medians['pure'].get(measure)):>12}  {_num(compiled):>12}")
    for core, found in ask.get("ratios", {}).items():
        shown = ", ".join(f"{question} {'-' if r is None else f'{r:.1f}x'}"
                          for question, r in found.items())
        met = "met" if ask["goals_met"][core] else "NOT met"
        lines.append(f"ask search after/before, {core}: {shown} (goal at least "
                     f"{ASK_GOALS[core]:g}x: {met})")
    return lines


def _num(value: float | None) -> str:
    return "-" if value is None else f"{value:,.0f}"


def main(argv: Sequence[str] | None = None) -> int:
    """A child of :func:`compare_cores`: the four measures on this process's core, as JSON."""
    parser = argparse.ArgumentParser(prog="python -m mammamia_ref.tools.bench.cores")
    parser.add_argument("--budget", type=float, default=2.0)
    args = parser.parse_args(argv)
    print(json.dumps(core_figures(args.budget)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
