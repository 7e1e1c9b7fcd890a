"""Games and counting in 1 to N processes: the speedup, against what the machine had
to give (a plain Python loop run the same way). The games are
:func:`mammamia_ref.sim.simulate.tally`'s, the counting :mod:`mammamia_ref.sim.counting`'s."""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from typing import Any

from mammamia_ref.errors import InternalError
from mammamia_ref.formats.jsonform import parse_state
from mammamia_ref.formats.perft_table import PerftTable
from mammamia_ref.sim import counting, fast
from mammamia_ref.sim.simulate import tally, worker_pool


def _warm(_: int) -> int:
    return os.getpid()


def _spin(loops: int) -> float:
    """A fixed amount of plain Python work (the yardstick of how many cores are free)."""
    start, total = time.process_time(), 0
    for i in range(loops):
        total += i & 7
    return time.process_time() - start


def _pool(jobs: int) -> Any:
    pool = worker_pool(jobs)
    pool.map(_warm, range(jobs * 2))  # start (and import) every worker before timing
    return pool


_SPIN = 10_000_000
"""The plain Python loop's length: what the machine has to give in parallel."""


@dataclass(frozen=True)
class _Work:
    """What each process count is given: the same games and tables every time, and the
    counts found so far (by table), which every process count must agree with."""

    games: int
    tables: list[PerftTable]
    perft_extra_depth: int
    counted: dict[str, int]


def _measure(mark: dict[str, Any], n: int, pool: Any, work: _Work) -> None:
    """One round with ``n`` processes: the plain loop, the games and the counting, each
    kept in ``mark`` if the best so far."""
    start = time.perf_counter()
    if pool is None:
        _spin(_SPIN)
    else:
        pool.map(_spin, [_SPIN] * n, chunksize=1)
    mark["spin"] = min(mark["spin"], time.perf_counter() - start)
    run = tally(4, work.games, jobs=n, seed=10_000, pool=pool)
    if "sim" not in mark or run["games_per_s"] > mark["sim"]["games_per_s"]:
        mark["sim"] = run
    start, nodes = time.perf_counter(), 0
    for table in work.tables:
        depth = max(table.counts) + work.perft_extra_depth
        count = counting.count(fast.from_state(parse_state(table.state)), depth,
                               jobs=n, pool=pool)
        if work.counted.setdefault(table.id, count) != count:
            raise InternalError(f"perft {table.id} depth {depth} differs with "
                                f"{n} jobs")
        nodes += count
    mark["perft"] = min(mark["perft"], time.perf_counter() - start)
    mark["nodes"] = nodes


def _rows(best: dict[int, dict[str, Any]], games: int) -> list[dict[str, Any]]:
    """One row per process count, with its speedups over one process."""
    rows = []
    for n, mark in best.items():
        sim = mark["sim"]
        rows.append({"jobs": n, "games": games, "games_per_s": sim["games_per_s"],
                     "games_per_cpu_s": round(games / sim["cpu_seconds"], 1),
                     "wins": sim["wins"], "perft_nodes": mark["nodes"],
                     "perft_nodes_per_s": round(mark["nodes"] / mark["perft"], 1)
                     if mark["perft"] else 0.0,
                     "spin_rate": n * _SPIN / mark["spin"]})
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
    return rows


def scaling(jobs: int, games: int, tables: list[PerftTable], perft_extra_depth: int,
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
    work = _Work(games, tables, perft_extra_depth, {})
    best: dict[int, dict[str, Any]] = {n: {"spin": float("inf"), "perft": float("inf")}
                                       for n in range(1, jobs + 1)}
    pools: dict[int, Any] = {}
    try:
        for n in range(2, jobs + 1):
            pools[n] = _pool(n)
        for _ in range(repeats):  # 1, 2, ... processes in turn: each round sees one machine
            for n, mark in best.items():
                _measure(mark, n, pools.get(n), work)
    finally:
        for pool in pools.values():
            pool.close()
            pool.join()
    rows = _rows(best, games)
    one = rows[0]
    same = all(row["wins"] == one["wins"] for row in rows)
    return {"rows": rows, "same_games": same, "cpu_count": os.cpu_count()}
