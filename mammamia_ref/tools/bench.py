"""``mammamia bench``: how fast the engines are, next to python-chess on the same machine.

One run measures, each for a fixed time budget:

- complete games per second for 2 to 5 players under the benchmark policy
  (:func:`mammamia_ref.sim.policies.random_policy`), on the reference engine and on the fast
  one (:mod:`mammamia_ref.sim.fast`), and the decisions per second in those games;
- ``legal_actions`` calls per second and oven resolutions per second, on both engines,
  over states met in seeded games;
- counting-table (perft) nodes per second over the tables in ``scenarios/perft/``;
- the scenario suite (load and run every scenario under ``scenarios/``);
- the conformance protocol's throughput against ``python -m mammamia_ref serve``;
- each z3 query's solve time (every answer of ``spec/queries.yaml``; a quick run only
  the ``rules`` ones) and the bounded model checker's deepest bound within a time budget,
  with the time of every bound (:mod:`mammamia_ref.queries.timing`);
- python-chess (``pip install -e '.[bench]'``): random-play moves per second and perft
  nodes per second from the initial position, so that our figures read as ratios.

Single-process rates are work per CPU second of the measuring process: on one core,
and not counting time the process waited for the CPU while other programs ran. With
``--jobs N`` the game simulation and the counting also run in N processes (seeds and
tables split deterministically: the same games whatever N) and the scaling is reported
against one process, in wall-clock time.

>>> sorted(GOALS)
['decisions_vs_chess_moves', 'fast_games_per_s_4p', 'jobs_efficiency', 'perft_vs_chess']
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import platform
import random
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

from mammamia_ref.formats.jsonform import parse_state
from mammamia_ref.rules.actions import Shuffle
from mammamia_ref.rules.game import apply, is_chance, legal_actions, new_game
from mammamia_ref.rules.state import GameState, make_config
from mammamia_ref.sim import counting, fast
from mammamia_ref.sim.play import play_game
from mammamia_ref.sim.policies import random_policy

PLAYER_COUNTS = (2, 3, 4, 5)
ROOT = Path(__file__).resolve().parents[2]

GOALS: dict[str, str] = {
    "fast_games_per_s_4p": "fast engine: at least 1,200 complete 4-player games per second",
    "decisions_vs_chess_moves": "fast engine decisions per second at least 2x python-chess's "
                                "random-play moves per second",
    "perft_vs_chess": "fast counting-table nodes per second at least python-chess's perft "
                      "nodes per second",
    "jobs_efficiency": "--jobs N: games and counting scale near-linearly (at least 80% of the "
                       "speedup the free cores allow, measured with a plain Python loop)",
}


# -- timing --------------------------------------------------------------------------


class Meter:
    """Accumulates units of work and the CPU and wall time they took; also the best rate
    of a single batch (what ``timeit`` would report: the least disturbed by other
    programs)."""

    def __init__(self) -> None:
        self.units = 0
        self.cpu = 0.0
        self.wall = 0.0
        self.best = 0.0
        self.extra: dict[str, float] = {}

    @contextlib.contextmanager
    def batch(self) -> Iterator[None]:
        units, cpu, wall = self.units, time.process_time(), time.perf_counter()
        yield
        spent = time.process_time() - cpu
        self.cpu += spent
        self.wall += time.perf_counter() - wall
        if spent > 0.001:  # too short a batch says more about the clock than the work
            self.best = max(self.best, (self.units - units) / spent)

    def rate(self, units: float | None = None) -> float:
        return (self.units if units is None else units) / self.cpu if self.cpu > 0 else 0.0

    def as_json(self, unit: str) -> dict[str, Any]:
        return {unit: self.units, "cpu_seconds": round(self.cpu, 4),
                "wall_seconds": round(self.wall, 4), f"{unit}_per_s": round(self.rate(), 1),
                f"best_batch_{unit}_per_s": round(self.best, 1),
                **{k: round(v, 1) for k, v in self.extra.items()}}


def _until(budget: float, minimum: int = 1) -> Iterator[int]:
    """Batch numbers 0, 1, ... while less than ``budget`` CPU seconds have passed (and at
    least ``minimum`` batches)."""
    start = time.process_time()
    index = 0
    while index < minimum or time.process_time() - start < budget:
        yield index
        index += 1


# -- games ---------------------------------------------------------------------------


def reference_games(players: int, budget: float, seed: int = 0, batch: int = 5) -> dict[str, Any]:
    """Complete reference games under the benchmark policy, seeds from ``seed`` on, in
    batches of ``batch`` games."""
    config = make_config(players)
    meter, decisions = Meter(), 0
    for index in _until(budget):
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
    for index in _until(budget):
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
    quick = [fast.from_state(state) for state, _ in states]
    results = {}
    for name, call, inputs in (("reference", legal_actions, [s for s, _ in states]),
                               ("fast", fast.legal_actions, quick)):
        meter = Meter()
        for _ in _until(budget / 2):
            with meter.batch():
                for state in inputs:
                    call(state)
                meter.units += len(inputs)
        results[name] = meter.as_json("calls")
    return results


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
    for _ in _until(budget / 2):
        with meter.batch():
            for state, action in enders:
                state, _ = apply(state, action)
                while state.phase == "oven":
                    state, _ = apply(state, random_policy(state, legal_actions(state), rng))
            meter.units += len(enders)
    results["reference"] = meter.as_json("resolutions")
    meter = Meter()
    for _ in _until(budget / 2):
        with meter.batch():
            for original, code in quick:
                state = original.copy()
                fast.apply(state, code)
                while state.phase == "oven":
                    fast.apply(state, fast.benchmark_choice(state, fast.legal_actions(state),
                                                            rng))
            meter.units += len(quick)
    results["fast"] = meter.as_json("resolutions")
    return results


# -- counting ------------------------------------------------------------------------


def perft_tables() -> list[Any]:
    from mammamia_ref.kit.runner import load_perft_tables

    folder = ROOT / "scenarios" / "perft"
    if not folder.is_dir():
        folder = Path("scenarios/perft")
    return load_perft_tables(folder) if folder.is_dir() else []


def perft_rates(tables: list[Any], budget: float, *, reference_max_nodes: int,
                fast_max_nodes: int) -> dict[str, Any]:
    """Nodes per second counting every table at its deepest listed depth (up to a node
    limit), the counts checked against the table. The fast count takes the last level
    from the number of legal actions, as python-chess's perft does."""
    from mammamia_ref.sim.perft import perft

    results = {}
    for name, limit in (("reference", reference_max_nodes), ("fast", fast_max_nodes)):
        jobs = []
        for table in tables:
            state = parse_state(table.state)
            depths = [d for d, n in sorted(table.counts.items()) if n <= limit]
            if depths:
                start = state if name == "reference" else fast.from_state(state)
                jobs.append((table.id, start, depths[-1], table.counts[depths[-1]]))
        meter = Meter()
        count = perft if name == "reference" else fast.perft
        for _ in _until(budget / 2):
            with meter.batch():  # a batch is one pass over the tables
                counts = [count(start, depth) for _, start, depth, _ in jobs]
                meter.units += sum(counts)
            for (table_id, _, depth, expected), nodes in zip(jobs, counts, strict=True):
                if nodes != expected:
                    raise AssertionError(f"{name} perft {table_id} depth {depth}: {nodes}, "
                                         f"the table says {expected}")
        results[name] = {**meter.as_json("nodes"),
                         "tables": {table_id: depth for table_id, _, depth, _ in jobs}}
    return results


# -- scenarios, conformance ----------------------------------------------------------


def scenario_suite() -> dict[str, Any]:
    """Load and run every scenario under ``scenarios/`` once."""
    from mammamia_ref.formats.scenario import load_all, run_scenario

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
    reference served over ``mammamia-protocol/1``: seeded random games of
    ``legal_actions`` and ``apply`` (the chance nodes' shuffles included)."""
    from mammamia_ref.kit.client import Implementation

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


# -- z3 queries and the model checker ------------------------------------------------

# The z3 package is imported when these run, never at module level: `mammamia` builds
# its parser from this module, and no command should pay for loading z3 it does not use.
QUICK_QUERY_METHODS = ("rules",)  # a quick run answers only these (seconds in all)
BMC_BUDGET, QUICK_BMC_BUDGET = 60.0, 3.0  # wall-clock seconds for the model checker


def query_times(*, include_slow: bool, methods: Sequence[str] | None = None,
                progress: Callable[[str], None] | None = None) -> dict[str, Any]:
    """Each catalogue answer's time (:func:`mammamia_ref.queries.timing.benchmark_queries`):
    ``solve_seconds`` is z3's part (and building the witness), ``seconds`` adds the
    witness's replay in the reference. Wall clock: z3 may use threads of its own."""
    try:
        from mammamia_ref.queries.timing import benchmark_queries
    except ImportError as exc:  # z3 missing: say so, measure the rest
        return {"available": False, "reason": f"the queries need z3 ({exc})"}
    from mammamia_ref.queries.interrupt import z3_interruptible

    chosen = benchmark_queries(include_slow, methods=methods)
    every = len(benchmark_queries(True))
    rows = []
    with z3_interruptible() as stop:
        for name, run in chosen:
            if progress:
                progress(f"z3 query {name}")
            start = time.perf_counter()
            try:
                answer = run()
            except Exception as exc:  # report, do not abort the benchmark
                if stop.is_set():
                    raise KeyboardInterrupt from None
                rows.append({"query": name, "seconds": round(time.perf_counter() - start, 3),
                             "error": f"{type(exc).__name__}: {exc}"})
                continue
            if stop.is_set():  # Ctrl-C: the check was cancelled, its time means nothing
                raise KeyboardInterrupt
            rows.append(_query_row(name, answer, time.perf_counter() - start))
    return {"available": True, "include_slow": include_slow,
            "methods": list(methods) if methods is not None else None,
            "not_run": every - len(chosen), "queries": rows,
            "total_seconds": round(sum(row["seconds"] for row in rows), 3),
            "all_as_expected": all(row.get("matches_expected") for row in rows)}


def _query_row(name: str, answer: Any, seconds: float) -> dict[str, Any]:
    return {"query": name, "method": answer.method, "seconds": round(seconds, 3),
            "solve_seconds": round(answer.seconds, 3), "verdict": answer.verdict,
            "value": answer.value, "expected": answer.expected.get("verdict"),
            "matches_expected": answer.matches_expected, "reference": answer.reference,
            "error": None}


def model_checker_depth(budget: float, max_bound: int = 64) -> dict[str, Any]:
    """The deepest bound the model checker
    (:func:`mammamia_ref.queries.timing.bmc_check`) reaches within ``budget`` seconds of
    wall clock, checking bounds 1, 2, ... in turn; the check running when the budget
    runs out is stopped (z3's timeout) and listed as ``unknown``."""
    try:
        from mammamia_ref.queries.timing import BMC_PROPERTY, bmc_check
    except ImportError as exc:
        return {"available": False, "reason": f"the model checker needs z3 ({exc})"}
    from mammamia_ref.queries.interrupt import z3_interruptible

    rows: list[dict[str, Any]] = []
    deepest, start = 0, time.perf_counter()
    with z3_interruptible() as stop:  # a bound's own z3 context ends at its timeout
        for bound in range(1, max_bound + 1):
            left = budget - (time.perf_counter() - start)
            if left <= 0:
                break
            try:
                result = bmc_check(bound, timeout=left)
            except Exception as exc:
                rows.append({"bound": bound, "error": f"{type(exc).__name__}: {exc}"})
                break
            if stop.is_set():
                raise KeyboardInterrupt
            rows.append({"bound": bound, "verdict": result.verdict, "holds": result.holds,
                         "seconds": round(result.seconds, 3),
                         "build_seconds": round(result.build_seconds, 3),
                         "solve_seconds": round(result.solve_seconds, 3),
                         "assertions": result.assertions})
            if result.verdict == "unknown":
                break
            deepest = bound
            if result.verdict == "sat":  # broken: deeper bounds have nothing more to say
                break
    return {"available": True, "property": BMC_PROPERTY, "budget_seconds": budget,
            "deepest_bound": deepest,
            "holds_to_deepest": all(row.get("holds") for row in rows[:deepest]),
            "seconds": round(time.perf_counter() - start, 3), "bounds": rows}


# -- python-chess --------------------------------------------------------------------


def chess_figures(budget: float, perft_depth: int) -> dict[str, Any]:
    """python-chess on this machine: random-play moves per second (uniform among the legal
    moves until the game is over, seeded) and perft nodes per second from the initial
    position, counted as python-chess's own tests count (the last level from the number
    of legal moves)."""
    try:
        import chess
    except ImportError:
        return {"available": False, "reason": "python-chess is not installed "
                                              "(pip install -e '.[bench]')"}

    def perft(board: Any, depth: int) -> int:
        if depth == 1:
            return board.legal_moves.count()
        nodes = 0
        for move in board.legal_moves:
            board.push(move)
            nodes += perft(board, depth - 1)
            board.pop()
        return nodes

    moves = Meter()
    rng = random.Random(0)
    games = 0
    for _ in _until(budget / 2):
        board = chess.Board()
        with moves.batch():
            while not board.is_game_over():
                board.push(rng.choice(list(board.legal_moves)))
                moves.units += 1
        games += 1
    nodes = Meter()
    for _ in _until(budget / 2):
        with nodes.batch():
            nodes.units += perft(chess.Board(), perft_depth)
    return {"available": True, "version": chess.__version__, "random_games": games,
            "random_moves": moves.units, "random_moves_per_s": round(moves.rate(), 1),
            "perft_depth": perft_depth, "perft_nodes": nodes.units,
            "perft_nodes_per_s": round(nodes.rate(), 1),
            "best_batch_random_moves_per_s": round(moves.best, 1),
            "best_batch_perft_nodes_per_s": round(nodes.best, 1),
            "cpu_seconds": round(moves.cpu + nodes.cpu, 3)}


# -- several processes ---------------------------------------------------------------


def _games_job(task: tuple[int, int, int, dict[str, str] | None]) -> dict[str, Any]:
    players, first_seed, count, variants = task
    config = make_config(players, variants=variants)
    wins, decisions, cpu = [0] * players, 0, time.process_time()
    for seed in range(first_seed, first_seed + count):
        result = fast.play_random_game(config, seed)
        decisions += result.decisions
        for seat in result.winners:
            wins[seat] += 1
    return {"games": count, "decisions": decisions, "wins": wins,
            "cpu_seconds": time.process_time() - cpu}


def _warm(_: int) -> int:
    return os.getpid()


def _spin(loops: int) -> float:
    """A fixed amount of plain Python work (the yardstick of how many cores are free)."""
    start, total = time.process_time(), 0
    for i in range(loops):
        total += i & 7
    return time.process_time() - start


def _pool(jobs: int) -> Any:
    from mammamia_ref.sim.simulate import worker_pool

    pool = worker_pool(jobs)
    pool.map(_warm, range(jobs * 2))  # start (and import) every worker before timing
    return pool


def split_seeds(games: int, jobs: int, seed: int = 0) -> list[tuple[int, int]]:
    """Contiguous seed ranges, one per job: together always ``seed .. seed + games - 1``.

    >>> split_seeds(10, 3)
    [(0, 4), (4, 3), (7, 3)]
    """
    base, extra = divmod(games, jobs)
    ranges, start = [], seed
    for job in range(jobs):
        count = base + (job < extra)
        ranges.append((start, count))
        start += count
    return ranges


def simulate(players: int, games: int, *, jobs: int = 1, seed: int = 0,
             variants: dict[str, str] | None = None, pool: Any = None) -> dict[str, Any]:
    """Play ``games`` fast-engine games under the benchmark policy (seeds ``seed`` on) in
    ``jobs`` processes: wins per seat, decisions, and the wall time taken. The seeds go
    out in eight ranges per process, handed to whichever is free: a process slowed by
    other programs then does less of the work instead of holding up the rest."""
    parallel = jobs > 1 or pool is not None
    tasks = [(players, first, count, variants)
             for first, count in split_seeds(games, 8 * jobs if parallel else 1, seed) if count]
    start = time.perf_counter()
    if not parallel:
        parts = [_games_job(task) for task in tasks]
    elif pool is not None:
        parts = pool.map(_games_job, tasks, chunksize=1)
    else:
        from mammamia_ref.sim.simulate import workers

        with workers(jobs) as own:
            parts = own.map(_games_job, tasks, chunksize=1)
    wall = time.perf_counter() - start
    return {"players": players, "games": games, "jobs": jobs,
            "decisions": sum(p["decisions"] for p in parts),
            "wins": [sum(p["wins"][seat] for p in parts) for seat in range(players)],
            "wall_seconds": round(wall, 4), "games_per_s": round(games / wall, 1),
            "cpu_seconds": round(sum(p["cpu_seconds"] for p in parts), 4)}


def scaling(jobs: int, games: int, tables: list[Any], perft_extra_depth: int,
            repeats: int = 1) -> dict[str, Any]:
    """Wall-clock games per second (4 players) and counting nodes per second with 1 to
    ``jobs`` processes; the same games and tables each time. Counting goes
    ``perft_extra_depth`` levels below each table's deepest listed depth, to give every
    process enough to do (the counts are checked to agree between process counts). Each
    measure is taken ``repeats`` times, the process counts in turn (so that each sees
    the machine in the same moods), and the best kept (as ``timeit`` does: the run least
    disturbed by other programs).

    Other programs may hold some of the cores: a plain Python loop run the same way
    (``machine_speedup``) shows how much parallelism the machine had to give, and
    ``cpu_efficiency`` compares the work done per CPU second by the workers with one
    process's (1.0: running in several processes costs nothing extra)."""
    counted: dict[str, int] = {}
    spin = 10_000_000
    best: dict[int, dict[str, Any]] = {n: {"spin": float("inf"), "perft": float("inf")}
                                       for n in range(1, jobs + 1)}
    pools: dict[int, Any] = {}
    try:
        for n in range(2, jobs + 1):
            pools[n] = _pool(n)
        for _ in range(repeats):  # 1, 2, ... processes in turn: each round sees one machine
            for n, mark in best.items():
                pool = pools.get(n)
                start = time.perf_counter()
                if pool is None:
                    _spin(spin)
                else:
                    pool.map(_spin, [spin] * n, chunksize=1)
                mark["spin"] = min(mark["spin"], time.perf_counter() - start)
                run = simulate(4, games, jobs=n, seed=10_000, pool=pool)
                if "sim" not in mark or run["games_per_s"] > mark["sim"]["games_per_s"]:
                    mark["sim"] = run
                start, nodes = time.perf_counter(), 0
                for table in tables:
                    depth = max(table.counts) + perft_extra_depth
                    count = counting.count(fast.from_state(parse_state(table.state)), depth,
                                           jobs=n, pool=pool)
                    if counted.setdefault(table.id, count) != count:
                        raise AssertionError(f"perft {table.id} depth {depth} differs with "
                                             f"{n} jobs")
                    nodes += count
                mark["perft"] = min(mark["perft"], time.perf_counter() - start)
                mark["nodes"] = nodes
    finally:
        for pool in pools.values():
            pool.close()
            pool.join()
    rows = []
    for n, mark in best.items():
        sim = mark["sim"]
        rows.append({"jobs": n, "games": games, "games_per_s": sim["games_per_s"],
                     "games_per_cpu_s": round(games / sim["cpu_seconds"], 1),
                     "wins": sim["wins"], "perft_nodes": mark["nodes"],
                     "perft_nodes_per_s": round(mark["nodes"] / mark["perft"], 1)
                     if mark["perft"] else 0.0,
                     "spin_rate": n * spin / mark["spin"]})
    one = rows[0]
    for row in rows:
        row["games_speedup"] = round(row["games_per_s"] / one["games_per_s"], 3)
        row["perft_speedup"] = round(row["perft_nodes_per_s"] / one["perft_nodes_per_s"], 3)
        row["machine_speedup"] = round(row.pop("spin_rate") / one["spin_rate"], 3) \
            if row is not one else 1.0
        row["games_efficiency"] = round(row["games_speedup"] / row["jobs"], 3)
        row["perft_efficiency"] = round(row["perft_speedup"] / row["jobs"], 3)
        row["cpu_efficiency"] = round(row["games_per_cpu_s"] / one["games_per_cpu_s"], 3)
    one.pop("spin_rate", None)
    same = all(row["wins"] == one["wins"] for row in rows)
    return {"rows": rows, "same_games": same, "cpu_count": os.cpu_count()}


# -- the whole run -------------------------------------------------------------------


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
                                     methods=QUICK_QUERY_METHODS if quick else None,
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
            "fast_engine_inline_random": fast._INLINE_OK}


def goals(results: dict[str, Any]) -> dict[str, Any]:
    """Each goal with its figure, its target and whether it is met (None: not measured)."""
    fast_games_4p = results["games"]["fast"]["4"]["games_per_s"]
    out = {"fast_games_per_s_4p": {"value": fast_games_4p, "target": 1200,
                                   "met": fast_games_4p >= 1200}}
    chess = results.get("chess", {})
    decisions = results["decisions_per_s"]["fast"]
    if chess.get("available"):
        moves = chess["random_moves_per_s"]
        out["decisions_vs_chess_moves"] = {"value": round(decisions / moves, 2), "target": 2.0,
                                           "met": decisions >= 2 * moves}
    else:
        out["decisions_vs_chess_moves"] = {"value": None, "target": 2.0, "met": None}
    perft = results.get("perft", {})
    if chess.get("available") and "fast" in perft:
        ratio = perft["fast"]["nodes_per_s"] / chess["perft_nodes_per_s"]
        out["perft_vs_chess"] = {"value": round(ratio, 2), "target": 1.0, "met": ratio >= 1.0}
    else:
        out["perft_vs_chess"] = {"value": None, "target": 1.0, "met": None}
    rows = results.get("scaling", {}).get("rows", [])
    if len(rows) > 1:  # the speedup against what the machine had to give at that moment
        worst = min(min(row["games_speedup"], row["perft_speedup"])
                    / min(row["jobs"], max(1.0, row["machine_speedup"])) for row in rows[1:])
        out["jobs_efficiency"] = {"value": round(worst, 3), "target": 0.8,
                                  "met": worst >= 0.8,
                                  "raw": min(min(row["games_efficiency"],
                                                 row["perft_efficiency"]) for row in rows[1:])}
    else:
        out["jobs_efficiency"] = {"value": None, "target": 0.8, "met": None}
    return out


# -- output --------------------------------------------------------------------------


def _num(value: Any, digits: int = 0) -> str:
    if value is None:
        return "-"
    if isinstance(value, str):
        return value
    return f"{value:,.{digits}f}"


def format_table(results: dict[str, Any]) -> str:
    """The figures as a plain-text table (what ``mammamia bench`` prints)."""
    chess = results.get("chess", {})
    games = results["games"]
    rows: list[tuple[str, str, str, str]] = []
    for players in PLAYER_COUNTS:
        ref, quick = games["reference"][str(players)], games["fast"][str(players)]
        rows.append((f"games/s, {players} players", _num(ref["games_per_s"], 1),
                     _num(quick["games_per_s"], 1), ""))
    rows.append(("decisions/s (4 players; chess: random-play moves/s)",
                 _num(results["decisions_per_s"]["reference"]),
                 _num(results["decisions_per_s"]["fast"]),
                 _num(chess.get("random_moves_per_s"))))
    legal = results["legal_actions"]
    rows.append(("legal_actions calls/s", _num(legal["reference"]["calls_per_s"]),
                 _num(legal["fast"]["calls_per_s"]), ""))
    oven = results["oven_resolutions"]
    rows.append(("oven resolutions/s", _num(oven["reference"]["resolutions_per_s"]),
                 _num(oven["fast"]["resolutions_per_s"]), ""))
    perft = results.get("perft", {})
    if "fast" in perft:
        rows.append((f"perft nodes/s (chess: depth {chess.get('perft_depth', '-')})",
                     _num(perft["reference"]["nodes_per_s"]), _num(perft["fast"]["nodes_per_s"]),
                     _num(chess.get("perft_nodes_per_s"))))
    best = results["games"]["fast"]["4"].get("best_batch_games_per_s")
    rows.append(("least disturbed batch: 4-player games/s",
                 _num(games["reference"]["4"].get("best_batch_games_per_s"), 1), _num(best, 1),
                 ""))
    if "fast" in perft:
        rows.append(("least disturbed batch: perft nodes/s",
                     _num(perft["reference"].get("best_batch_nodes_per_s")),
                     _num(perft["fast"].get("best_batch_nodes_per_s")),
                     _num(chess.get("best_batch_perft_nodes_per_s"))))
    width = max(len(row[0]) for row in rows)
    header = ("measure", "reference", "fast", "python-chess")
    lines = [f"{header[0]:<{width}}  {header[1]:>12}  {header[2]:>12}  {header[3]:>12}",
             "-" * (width + 42)]
    lines += [f"{a:<{width}}  {b:>12}  {c:>12}  {d:>12}" for a, b, c, d in rows]
    lines.append("")
    scenarios = results.get("scenarios", {})
    if scenarios.get("available"):
        lines.append(f"scenario suite: {scenarios['scenarios']} scenarios, {scenarios['runs']} "
                     f"runs ({scenarios['passed']} passed): load {scenarios['load_cpu_seconds']} "
                     f"s + run {scenarios['run_cpu_seconds']} s")
    conformance = results.get("conformance", {})
    if conformance.get("available"):
        lines.append(f"conformance protocol: {_num(conformance['ops_per_s'])} operations/s "
                     f"({conformance['ops']} operations, {conformance['games']} games, against "
                     f"`{conformance['command']}`)")
    else:
        lines.append(f"conformance protocol: not available ({conformance.get('reason')})")
    lines += ["", *format_queries(results), ""]
    if not chess.get("available"):
        lines.append(f"python-chess: not available ({chess.get('reason')})")
    else:
        lines.append(f"python-chess {chess['version']}: {chess['random_moves']} moves in "
                     f"{chess['random_games']} random games; {chess['perft_nodes']} perft nodes "
                     f"at depth {chess['perft_depth']}")
    for row in results.get("scaling", {}).get("rows", []):
        lines.append(f"--jobs {row['jobs']}: {_num(row['games_per_s'], 1)} games/s "
                     f"(x{row['games_speedup']}), {_num(row['perft_nodes_per_s'])} perft nodes/s "
                     f"(x{row['perft_speedup']}), wall clock; a plain Python loop: "
                     f"x{row['machine_speedup']}; work per CPU second x{row['cpu_efficiency']}")
    lines.append("")
    for name, goal in results.get("goals", {}).items():
        met = {True: "met", False: "NOT met", None: "not measured"}[goal["met"]]
        lines.append(f"goal {name}: {met} ({_num(goal['value'], 2)} against {goal['target']}): "
                     f"{GOALS[name]}")
    machine = results["machine"]
    lines.append("")
    lines.append(f"Python {machine['python']} on {machine['platform']}, {machine['cpu_count']} "
                 f"CPUs, load average {machine['load_average']}; "
                 + ("quick run: rough figures" if results.get("quick") else "full run"))
    return "\n".join(lines)


def format_queries(results: dict[str, Any]) -> list[str]:
    """The z3 query times and the model checker's bounds as plain-text rows."""
    lines = []
    queries = results.get("queries", {})
    if queries.get("available"):
        scope = "every answer" if queries["include_slow"] else "the answers not marked slow"
        if queries.get("methods"):
            scope += f" of method {', '.join(queries['methods'])}"
        lines.append(f"z3 queries ({scope}; {queries['not_run']} not run): "
                     f"{queries['total_seconds']} s in all")
        width = max((len(row["query"]) for row in queries["queries"]), default=5)
        lines.append(f"  {'query':<{width}}  {'verdict':>8}  {'solve s':>8}  {'total s':>8}")
        for row in queries["queries"]:
            if row.get("error"):
                lines.append(f"  {row['query']:<{width}}  error: {row['error']}")
                continue
            verdict = row["verdict"] + ("" if row["matches_expected"] else " (unexpected)")
            lines.append(f"  {row['query']:<{width}}  {verdict:>8}  "
                         f"{row['solve_seconds']:>8.2f}  {row['seconds']:>8.2f}")
    else:
        lines.append(f"z3 queries: not available ({queries.get('reason')})")
    bmc = results.get("model_checker", {})
    if bmc.get("available"):
        lines.append(f"bounded model checker: deepest bound {bmc['deepest_bound']} within "
                     f"{bmc['budget_seconds']:g} s, checking {bmc['property']}")
        lines.append(f"  {'bound':>5}  {'verdict':>8}  {'build s':>8}  {'solve s':>8}  "
                     f"{'total s':>8}")
        for row in bmc["bounds"]:
            if "error" in row:
                lines.append(f"  {row['bound']:>5}  error: {row['error']}")
                continue
            note = "  (stopped: budget spent)" if row["verdict"] == "unknown" else ""
            lines.append(f"  {row['bound']:>5}  {row['verdict']:>8}  {row['build_seconds']:>8.2f}"
                         f"  {row['solve_seconds']:>8.2f}  {row['seconds']:>8.2f}{note}")
    else:
        lines.append(f"bounded model checker: not available ({bmc.get('reason')})")
    return lines


def _pyplot() -> Any:
    """matplotlib's pyplot on a file-only backend, or None without the bench extra."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return None
    return plt


def _save(plt: Any, figure: Any, axes: Any, path: str | Path) -> Path:
    axes.grid(True, alpha=0.3)
    figure.tight_layout()
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path)
    plt.close(figure)
    return path


def write_bmc_plot(results: dict[str, Any], path: str | Path) -> Path | None:
    """A PNG of the model checker's time against the bound (log scale), the bound the
    budget stopped drawn apart. None without matplotlib or a finished bound."""
    plt = _pyplot()
    bmc = results.get("model_checker", {})
    done = [row for row in bmc.get("bounds", []) if row.get("verdict") in ("sat", "unsat")]
    if plt is None or not done:
        return None
    from matplotlib import ticker

    figure, axes = plt.subplots(figsize=(6, 3.6), dpi=110)
    bounds = [row["bound"] for row in done]
    axes.plot(bounds, [row["seconds"] for row in done], marker="o",
              label="checked (build + solve)")
    axes.plot(bounds, [max(row["solve_seconds"], 1e-3) for row in done], marker=".",
              linestyle=":", label="z3's check alone")
    stopped = [row for row in bmc["bounds"] if row.get("verdict") == "unknown"]
    for row in stopped:
        axes.plot([row["bound"]], [row["seconds"]], marker="x", linestyle="none",
                  color="tab:red", label=f"bound {row['bound']}: stopped when the "
                                         f"{bmc['budget_seconds']:g} s budget ran out")
    axes.set_xlabel("bound (turns unrolled)")
    axes.set_ylabel("seconds (wall clock)")
    axes.set_yscale("log")
    axes.yaxis.set_major_formatter(ticker.FuncFormatter(lambda y, _: f"{y:g}"))
    axes.set_xticks([row["bound"] for row in done + stopped])
    axes.legend(fontsize="small")
    axes.set_title("Bounded model checker (Q09 bounded): time per bound")
    return _save(plt, figure, axes, path)


def write_jobs_plot(results: dict[str, Any], path: str | Path) -> Path | None:
    """A PNG of 4-player games per second against the number of processes, beside linear
    scaling and a plain Python loop run the same way. None without matplotlib or
    without a ``--jobs`` run."""
    plt = _pyplot()
    rows = results.get("scaling", {}).get("rows", [])
    if plt is None or not rows:
        return None
    figure, axes = plt.subplots(figsize=(6, 3.6), dpi=110)
    jobs = [row["jobs"] for row in rows]
    one = rows[0]["games_per_s"]
    cores = results.get("scaling", {}).get("cpu_count") or max(jobs)
    axes.plot(jobs, [row["games_per_s"] for row in rows], marker="o", label="measured")
    axes.plot(jobs, [one * min(n, cores) for n in jobs], linestyle="--",
              label=f"linear up to {cores} cores")
    axes.plot(jobs, [one * row["machine_speedup"] for row in rows], linestyle=":",
              marker="x", label="a plain Python loop, run the same way")
    axes.set_xlabel("processes (--jobs)")
    axes.set_ylabel("4-player games per second")
    axes.set_xticks(jobs)
    axes.legend(fontsize="small")
    axes.set_title("Fast engine: games per second against processes")
    return _save(plt, figure, axes, path)


PLOTS = {"bench-bmc.png": write_bmc_plot, "bench-jobs.png": write_jobs_plot}


def write_plots(results: dict[str, Any], folder: str | Path) -> list[Path]:
    """Every plot the results allow, into ``folder`` under the names of :data:`PLOTS`
    (``docs/img`` holds the ones the performance page shows)."""
    written = [plot(results, Path(folder) / name) for name, plot in PLOTS.items()]
    return [path for path in written if path is not None]


# -- the command ---------------------------------------------------------------------


def add_bench_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add ``bench`` to the ``mammamia`` subcommands (handler: :func:`run_bench_command`)."""
    from mammamia_ref.cli.app import positive_number

    parser = subparsers.add_parser("bench", help="measure the engines' speed, beside "
                                   "python-chess on the same machine")
    parser.add_argument("--json", action="store_true", help="print one JSON document")
    parser.add_argument("--quick", action="store_true",
                        help="small budgets and only the quick z3 queries (method rules): "
                             "rough figures")
    parser.add_argument("--jobs", type=positive_number, default=1, metavar="N",
                        help="also run the simulations and the counting in N processes and "
                             "report the scaling")
    parser.add_argument("--plots", metavar="DIR",
                        help="write the plots into DIR: bench-bmc.png (the model checker's "
                             "time per bound) and, with --jobs, bench-jobs.png (needs "
                             "matplotlib)")
    parser.set_defaults(handler=run_bench_command)
    return parser


def run_bench_command(args: argparse.Namespace) -> int:
    def progress(message: str) -> None:
        print(f"bench: {message}", file=sys.stderr, flush=True)

    if args.plots and _pyplot() is None:
        print("mammamia: error: --plots needs matplotlib (pip install -e '.[bench]')",
              file=sys.stderr)
        return 2
    results = run_benchmarks(quick=args.quick, jobs=args.jobs, progress=progress)
    if args.plots:
        results["plots"] = [str(path) for path in write_plots(results, args.plots)]
        for path in results["plots"]:
            progress(f"wrote {path}")
    if args.json:
        print(json.dumps(results, indent=2))
    else:
        print(format_table(results))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m mammamia_ref.tools.bench``: the same as ``mammamia bench``."""
    parser = argparse.ArgumentParser(prog="mammamia")
    add_bench_parser(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(["bench", *(sys.argv[1:] if argv is None else argv)])
    return args.handler(args)


if __name__ == "__main__":
    sys.exit(main())
