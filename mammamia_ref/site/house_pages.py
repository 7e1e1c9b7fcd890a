"""The "House rules" page: what a designer's rule does to play, from recorded sweeps.

Each sweep in ``docs/house-rules/`` is a ``mammamia compare --param NAME=V1,V2,...`` (a
number of the rules) or ``mammamia compare FLAG`` (a house rule's flag) run: the same
seeds under each value, by one kind of player. The page shows, for each house rule,
each value's measures and its paired difference from the spec's value with the 95%
interval, by player; and the scenarios tagged ``house-rule`` that show each value.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mammamia_ref.site.dispute_pages import impact_data_link
from mammamia_ref.site.inputs import Corpus, Spec
from mammamia_ref.site.links import HOUSE_PAGE, prose, rule_link
from mammamia_ref.site.scenario_pages import display_path
from mammamia_ref.site.text import md

SHOWN = ("pizzas_per_player", "turns_per_game", "orders_placed", "first_seat_wins",
         "stall_cuts", "success_standard", "success_bombastica", "success_monotoni",
         "success_minimale")
"""The measures a house rule's table shows (``mammamia_ref.sim.compare.LABELS``)."""


def _figure(value: float) -> str:
    """Two decimals, as the dispute pages show figures."""
    return f"{value:.2f}"


def _difference(entry: dict[str, Any], key: str) -> str:
    diff = (entry.get("versus_default") or {}).get(key)
    if not diff or diff.get("difference") is None:
        return ""
    low, high = diff["ci95"]
    mark = " ◆" if diff.get("p") is not None and diff["p"] < 0.001 else ""
    return f"{diff['difference']:+.2f} ({low:+.2f} to {high:+.2f}){mark}"


def _table(comparison: dict[str, Any]) -> list[str]:
    from mammamia_ref.sim.compare import LABELS

    entries = comparison["rulings"]
    head = ["measure"] + [f"{e['flag']}={e['value']}" + (" (the spec's)" if e["default"] else "")
                          for e in entries]
    lines = ["| " + " | ".join(md(h) for h in head) + " |",
             "|" + "---|" * len(head)]
    for key in SHOWN:
        if key not in entries[0]["measures"]:
            continue
        cells = [md(LABELS[key])]
        for e in entries:
            value = e["measures"][key]
            text = "n/a" if value != value else _figure(value)  # NaN: no such order placed
            if not e["default"]:
                text += f"<br><small>{_difference(e, key)}</small>"
            cells.append(text)
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def _scenarios(corpus: Corpus, name: str) -> list[str]:
    views = [v for v in corpus.scenarios if "house-rule" in (v.doc.get("tags") or [])
             and any(name in (run.parameters or {}) or name in run.variants
                     for run in v.scenario.runs)]
    return [f"- [{md(v.scenario.title)}](../{v.page}) (`{md(display_path(v.scenario.file))}`)"
            for v in views]


def _flag_values(spec: Spec, name: str, entry: dict[str, Any]) -> list[str]:
    """A house rule's flag: its heading and its values, the default marked, each with its
    rule and what it does."""
    out = [f"## {md(name)} {{ #flag-{name} }}", "",
           "| Value | Rule | What it does |", "|---|---|---|"]
    for v in entry["values"]:
        value = md(v["value"])
        if v["value"] == entry["default"]:
            value = f"**{value}** (default)"
        out.append(f"| {value} | {rule_link(spec, HOUSE_PAGE, v['rule'])} | "
                   f"{prose(spec, HOUSE_PAGE, v['summary'])} |")
    return [*out, ""]


def _sweep_section(sweep: dict[str, Any], comparison: dict[str, Any]) -> list[str]:
    """One sweep of a house rule: its table, and how it was made."""
    players = sweep.get("players")
    policies = ", ".join(sorted(set(comparison.get("policies") or [])))
    games = comparison["rulings"][0]["games"]
    return [f"### {players} players, {md(policies)} players, {games:,} games a value",
            "", *_table(comparison), "",
            f"<small>Made by `{md(sweep.get('command') or '')}` "
            f"({sweep.get('wall_seconds', 0):,.0f} s, {md(sweep.get('machine') or '')}; "
            f"data {impact_data_link(sweep, 'house-rules')})</small>", ""]


def house_page(corpus: Corpus, sweeps: Sequence[dict[str, Any]]) -> str:
    """The page: each house rule swept, its values side by side by kind of player."""
    by_rule: dict[str, list[tuple[dict[str, Any], dict[str, Any]]]] = {}
    for sweep in sweeps:
        for comparison in sweep.get("disputes") or []:
            by_rule.setdefault(comparison["dispute"], []).append((sweep, comparison))
    out = ["# House rules: what they do to play", "",
           "A house rule is a designer's own rule: other numbers of the rules (the hand "
           "limit, the Bombastica's total, the deal, the rounds) or a flag no edition has. "
           "It is one YAML file given with `--house FILE`; see the "
           "[house rules guide](../house-rules.md) for the format. Each table below plays "
           "the same seeds under every value (a paired comparison): the spec's value is "
           "marked, and under each other value the difference from it with its 95% "
           "interval (◆: p < 0.001).", ""]
    if not by_rule:
        out += ["No house-rule sweep is recorded (docs/house-rules/).", ""]
    spec = corpus.spec
    house_flags = {flag: entry for flag, entry in spec.flags.items()
                   if entry.get("dispute") is None}
    for name in [*house_flags, *(n for n in by_rule if n not in house_flags)]:
        found = by_rule.get(name, [])
        entry = house_flags.get(name)
        if entry is None:
            out += [f"## {md(name)}", ""]
        else:  # a house rule's flag: its values here, as a dispute's page has its flags
            out += _flag_values(spec, name, entry)
            if not found:
                out += ["No sweep of this flag is recorded (docs/house-rules/).", ""]
        for sweep, comparison in found:
            out += _sweep_section(sweep, comparison)
        shown = _scenarios(corpus, name)
        if shown:
            out += ["Scenarios under each value:", "", *shown, ""]
    return "\n".join(out) + "\n"
