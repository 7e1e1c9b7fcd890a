"""Each z3 query's solve time, and the bounded model checker's deepest bound in a budget.

z3 is imported when these run, never at module level: ``mammamia`` builds its parser
from the command modules, and no command should pay for loading z3 it does not use.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

QUICK_QUERIES = ("Q24-longest-round",)  # a quick run answers only these (seconds in all)
BMC_BUDGET, QUICK_BMC_BUDGET = 60.0, 3.0  # wall-clock seconds for the model checker


def query_times(*, include_slow: bool, only: Sequence[str] | None = None,
                progress: Callable[[str], None] | None = None) -> dict[str, Any]:
    """Each catalogue answer's time
    (:func:`mammamia_ref.queries.catalogue.timing.benchmark_queries`): ``solve_seconds``
    is z3's part (and building the witness), ``seconds`` adds the witness's replay in
    the reference. Wall clock: z3 may use threads of its own."""
    try:
        from mammamia_ref.queries.catalogue.timing import benchmark_queries
    except ImportError as exc:  # z3 missing: say so, measure the rest
        return {"available": False, "reason": f"the queries need z3 ({exc})"}
    from mammamia_ref.queries.answering.interrupt import z3_interruptible

    chosen = benchmark_queries(include_slow, only=only)
    every = len(benchmark_queries(True))
    rows: list[dict[str, Any]] = []
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
            "only": list(only) if only is not None else None,
            "not_run": every - len(chosen), "queries": rows,
            "total_seconds": round(sum(row["seconds"] for row in rows), 3),
            "all_as_expected": all(bool(row.get("matches_expected")) for row in rows)}


def _query_row(name: str, answer: Any, seconds: float) -> dict[str, Any]:
    return {"query": name, "method": answer.method, "seconds": round(seconds, 3),
            "solve_seconds": round(answer.seconds, 3), "verdict": answer.verdict,
            "value": answer.value, "expected": answer.expected.get("verdict"),
            "matches_expected": answer.matches_expected, "reference": answer.reference,
            "error": None}


def model_checker_depth(budget: float, max_bound: int = 64) -> dict[str, Any]:
    """The deepest bound the model checker
    (:func:`mammamia_ref.queries.catalogue.timing.bmc_check`) reaches within ``budget`` seconds of
    wall clock, checking bounds 1, 2, ... in turn; the check running when the budget
    runs out is stopped (z3's timeout) and listed as ``unknown``."""
    try:
        from mammamia_ref.queries.catalogue.timing import BMC_PROPERTY, bmc_check
    except ImportError as exc:
        return {"available": False, "reason": f"the model checker needs z3 ({exc})"}
    from mammamia_ref.queries.answering.interrupt import z3_interruptible

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
