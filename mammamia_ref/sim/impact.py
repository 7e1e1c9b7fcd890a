"""The dispute-impact sweep: every dispute's rulings compared on the same games, kept as
one JSON document (``docs/impact/``) and one plot per dispute (``docs/img/impact/``)
that the rules site shows on each dispute's page.

The document records how it was made (command, seeds, policies, games, time, package
version) and, for every ruling, the digest of its first games, so that a test can replay
those games and tell when the figures no longer describe the code.
"""

from __future__ import annotations

import json
import os
import platform
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from mammamia_ref.rules.ruleset import Rules, make_rules
from mammamia_ref.sim.compare import LABELS, compare, compare_parameter, disputes_with_flags
from mammamia_ref.sim.simulate import Executor

FORMAT = "mammamia-impact/1"


def sweep(disputes: Sequence[str], players: int, games: int, *, seed: int = 0,
          policies: Sequence[str] = ("random",), base: Mapping[str, str] | Rules | None = None,
          executor: Executor | None = None, progress: bool = False, command: str = "",
          plots: str | None = None,
          on_dispute: Callable[[dict[str, Any]], None] | None = None,
          param: tuple[str, Sequence[int]] | None = None) -> dict[str, Any]:
    """Compare the rulings of each of ``disputes`` (all with flags when empty), or with
    ``param`` (a parameter's name and values) the values of one number of the rules,
    over ``base`` (a house rule's rules, flag values, or the defaults). ``plots`` is
    where the caller writes the plots (``DIR/D4.png`` ...), recorded so that the rules
    site can show them."""
    from mammamia_ref import __version__

    rules = base if isinstance(base, Rules) else make_rules(base)
    chosen = [param[0]] if param else (list(disputes) or disputes_with_flags())
    start = time.perf_counter()
    comparisons = []
    for done, dispute in enumerate(chosen):
        try:
            if param:
                found = compare_parameter(param[0], param[1], players, games, seed=seed,
                                          policies=policies, base=rules, executor=executor,
                                          progress=progress)
            else:
                found = compare(dispute, players, games, seed=seed, policies=policies,
                                base=rules, executor=executor, progress=progress)
            doc = found.as_json()
            if on_dispute is not None:
                on_dispute(doc)
        except KeyboardInterrupt:
            finished = ", ".join(chosen[:done]) or "none"
            raise KeyboardInterrupt(f"during {dispute}, after {done} of {len(chosen)} "
                                    f"disputes (finished: {finished}); no sweep file "
                                    "written") from None
        comparisons.append(doc)
    return {"format": FORMAT, "command": command, "version": __version__,
            "players": players, "games_per_ruling": games, "seed": seed,
            "base_variants": rules.non_default(),
            "base_parameters": rules.non_default_parameters(), "house": rules.house,
            "plots": plots,
            "policies": list(comparisons[0]["policies"]) if comparisons else list(policies),
            "jobs": executor.jobs if executor else 1,
            "machine": f"{platform.machine()}, {os.cpu_count()} cores, Python "
                       f"{platform.python_version()}",
            "wall_seconds": round(time.perf_counter() - start, 1),
            "disputes": comparisons}


# The measures a dispute's plot shows, one panel each.
PLOTTED = ("pizzas_per_player", "turns_per_game", "first_seat_wins", "stall_cuts",
           "success_standard", "success_one_of_each", "success_bombastica",
           "success_monotoni", "success_minimale")


def plot_comparison(doc: Mapping[str, Any], path: str | Path) -> Path:
    """One figure for a dispute: each plotted measure under each ruling, with 95%
    intervals (needs matplotlib, in the ``bench`` extra)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rulings = doc["rulings"]
    names = [f"{r['flag']}=\n{r['value']}" if len(doc["rulings"]) > 2 else r["value"]
             for r in rulings]
    fig, axes = plt.subplots(3, 3, figsize=(11, 8.5))
    for ax, key in zip(axes.flat, PLOTTED, strict=True):
        values, lows, highs = [], [], []
        for r in rulings:
            value, (low, high) = _value_ci(r["figures"], key)
            values.append(value)
            lows.append(value - low)
            highs.append(high - value)
        colours = ["#2b6cb0" if r["default"] else "#dd6b20" for r in rulings]
        ax.bar(range(len(rulings)), values, yerr=[lows, highs], color=colours, capsize=4)
        ax.set_xticks(range(len(rulings)), names, fontsize=7)
        ax.set_title(LABELS[key], fontsize=9)
        ax.tick_params(axis="y", labelsize=7)
    fig.suptitle(f"{doc['dispute']}: {rulings[0]['games']:,} games per ruling, "
                 f"{doc['players']} players (blue: default ruling; bars: 95% intervals)",
                 fontsize=10)
    fig.tight_layout()
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(target, dpi=80)
    plt.close(fig)
    return target


def _value_ci(figures: Mapping[str, Any], key: str) -> tuple[float, tuple[float, float]]:
    """A plotted measure of one run, from its figures, with its interval."""
    if key.startswith("success_"):
        entry = figures["order_success"][key.removeprefix("success_")]
    elif key == "pizzas_per_player":
        entry = figures["pizzas_delivered_per_player"]
    elif key == "turns_per_game":
        entry = figures["turns_per_game"]
    elif key == "first_seat_wins":
        entry = figures["win_rate_by_seat"][0]
    else:
        entry = figures["stall_cuts_per_game"]
    value = entry.get("rate", entry.get("mean"))
    if value is None:
        return 0.0, (0.0, 0.0)
    low, high = entry["ci95"]
    return float(value), (float(low), float(high))


def load_sweep(path: str | Path) -> dict[str, Any]:
    """One sweep document (its ``file`` added: where it was read from)."""
    target = Path(path)
    doc = json.loads(target.read_text(encoding="utf-8"))
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise ValueError(f"{target}: not a {FORMAT} document")
    return {**doc, "file": target.name}


def load_sweeps(folder: str | Path) -> list[dict[str, Any]]:
    """Every sweep document in ``folder`` (``docs/impact/``), by file name."""
    return [load_sweep(p) for p in sorted(Path(folder).glob("*.json"))]
