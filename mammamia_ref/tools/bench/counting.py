"""Counting-table (perft) nodes per second, both engines, the counts checked."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from mammamia_ref.errors import InternalError
from mammamia_ref.formats.jsonform import parse_state
from mammamia_ref.formats.perft_table import PerftTable, load_perft_tables
from mammamia_ref.sim import fast
from mammamia_ref.sim.perft import perft
from mammamia_ref.tools.bench.measure import ROOT, Meter, until


def perft_tables() -> list[PerftTable]:
    folder = ROOT / "scenarios" / "perft"
    if not folder.is_dir():
        folder = Path("scenarios/perft")
    return load_perft_tables(folder) if folder.is_dir() else []


def perft_rates(tables: list[PerftTable], budget: float, *, reference_max_nodes: int,
                fast_max_nodes: int) -> dict[str, Any]:
    """Nodes per second counting every table at its deepest listed depth (up to a node
    limit), the counts checked against the table. The fast count takes the last level
    from the number of legal actions, as python-chess's perft does."""
    results = {}
    for name, limit in (("reference", reference_max_nodes), ("fast", fast_max_nodes)):
        jobs: list[tuple[str, Callable[[], int], int, int]] = []
        for table in tables:
            state = parse_state(table.state)
            depths = [d for d, n in sorted(table.counts.items()) if n <= limit]
            if depths:
                depth = depths[-1]
                count = partial(perft, state, depth) if name == "reference" \
                    else partial(fast.perft, fast.from_state(state), depth)
                jobs.append((table.id, count, depth, table.counts[depth]))
        meter = Meter()
        for _ in until(budget / 2):
            with meter.batch():  # a batch is one pass over the tables
                counts = [count() for _, count, _, _ in jobs]
                meter.units += sum(counts)
            for (table_id, _, depth, expected), nodes in zip(jobs, counts, strict=True):
                if nodes != expected:
                    raise InternalError(f"{name} perft {table_id} depth {depth}: {nodes}, "
                                         f"the table says {expected}")
        results[name] = {**meter.as_json("nodes"),
                         "tables": {table_id: depth for table_id, _, depth, _ in jobs}}
    return results
