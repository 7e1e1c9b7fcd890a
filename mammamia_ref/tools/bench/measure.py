"""The timing loop of every measure: a meter of work and CPU time, and batches run
until a CPU-time budget is spent.

Rates are work per CPU second of the measuring process: on one core, and not counting
time the process waited for the CPU while other programs ran."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

PLAYER_COUNTS = (2, 3, 4, 5)
ROOT = Path(__file__).resolve().parents[3]


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


def until(budget: float, minimum: int = 1) -> Iterator[int]:
    """Batch numbers 0, 1, ... while less than ``budget`` CPU seconds have passed (and at
    least ``minimum`` batches)."""
    start = time.process_time()
    index = 0
    while index < minimum or time.process_time() - start < budget:
        yield index
        index += 1
