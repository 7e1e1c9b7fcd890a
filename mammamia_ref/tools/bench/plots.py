"""The plots of a run: the model checker's time per bound, and the scaling with --jobs.

matplotlib is imported when a plot is drawn, never at module level: it is an optional
extra, slow to load, and only ``--plots`` needs it."""

from __future__ import annotations

from pathlib import Path
from typing import Any


def _pyplot() -> Any:
    """matplotlib's pyplot on a file-only backend, or None without the bench extra."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return None
    return plt


def plotting_available() -> bool:
    """Whether matplotlib is installed (the bench extra), so that ``--plots`` can draw."""
    return _pyplot() is not None


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
