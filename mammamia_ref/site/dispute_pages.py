"""The dispute pages: the index of disputes and flags, and one page per dispute with
what its ruling does to play (from the committed sweeps in ``docs/impact/``)."""

from __future__ import annotations

import posixpath
from collections.abc import Iterable
from typing import Any

from mammamia_ref.site.inputs import Corpus, ScenarioView, Spec
from mammamia_ref.site.links import (
    dispute_link,
    dispute_page,
    flag_link,
    prose,
    rel,
    rule_link,
    scenario_link,
)
from mammamia_ref.site.text import md


def disputes_index_page(corpus: Corpus) -> str:
    """The disputes and the variant flags, each flag with its default in bold."""
    spec = corpus.spec
    source = "disputes/index.md"
    out = ["# Disputes", "",
           "Where the editions disagree or say nothing, the register records each edition's "
           "position, the project's ruling and the variant flags that select the "
           "alternatives.", "", "| Dispute | Question | Flags |", "|---|---|---|"]
    for dispute in spec.disputes:
        flags = ", ".join(flag_link(spec, source, f) for f in dispute.get("flags") or [])
        if dispute.get("parameter"):
            flags = (flags + ", " if flags else "") + f"parameter `{dispute['parameter']}`"
        out.append(f"| {dispute_link(spec, source, dispute['id'])} | "
                   f"{md(dispute['question'])} | {flags or 'none'} |")
    out += ["", "## Variant flags", "",
            "| Flag | Values (default in bold) | Dispute |", "|---|---|---|"]
    for flag, entry in spec.flags.items():
        values = ", ".join((f"**{md(v['value'])}**" if v["value"] == entry["default"]
                            else md(v["value"])) for v in entry["values"])
        out.append(f"| {flag_link(spec, source, flag)} | {values} | "
                   f"{dispute_link(spec, source, entry['dispute'], title=False)} |")
    return "\n".join(out) + "\n"


def _flag_users(corpus: Corpus,
                flags: Iterable[str]) -> list[tuple[ScenarioView, list[str]]]:
    """The scenarios that set one of ``flags`` in a run, with the settings: they show
    the dispute in play even when they do not cite it."""
    wanted = set(flags)
    found = []
    for view in corpus.scenarios:
        notes = []
        for run in view.runs:
            used = {f: v for f, v in run.variants.items() if f in wanted}
            if used:
                settings = ", ".join(f"`{f}={v}`" for f, v in used.items())
                notes.append(f"{md(run.name)} ({settings})" if len(view.runs) > 1 or
                             run.name != "default" else settings)
        if notes:
            found.append((view, notes))
    return found


def _positions_md(spec: Spec, source: str, dispute: dict[str, Any]) -> list[str]:
    """Every edition a column, so that silence shows as much as disagreement; an edition
    the register does not list still gets its column."""
    positions = dispute.get("positions") or []
    editions = list(spec.editions)
    editions += list(dict.fromkeys(p["edition"] for p in positions
                                   if p["edition"] not in editions))
    by_edition: dict[str, list[dict[str, Any]]] = {e: [] for e in editions}
    for position in positions:
        by_edition[position["edition"]].append(position)
    cells = ["<br><br>".join(f"*{md(p['section'])}*<br>{prose(spec, source, p['says'])}"
                             for p in by_edition[e]) or "*no position recorded*"
             for e in editions]
    return ["## The editions side by side", "",
            "| | " + " | ".join(md(spec.edition_title(e)) for e in editions) + " |",
            "|---" * (len(editions) + 1) + "|",
            "| **Position** | " + " | ".join(cells) + " |"]


def _flag_md(spec: Spec, source: str, flag: str) -> list[str]:
    """A flag's values under the anchor ``flag-NAME`` that every flag link targets."""
    entry = spec.flags.get(flag)
    out = [f"### `{flag}` {{ #flag-{flag} }}", ""]
    if entry is None:
        return [*out, "*This flag is not declared in the register.*", ""]
    out += ["| Value | Default | Selects rule | Meaning |", "|---|---|---|---|"]
    for value in entry["values"]:
        default = "**default**" if value["value"] == entry["default"] else ""
        rule = rule_link(spec, source, value["rule"]) if value.get("rule") else "no rule"
        out.append(f"| `{md(value['value'])}` | {default} | {rule} | "
                   f"{prose(spec, source, value.get('summary', ''))} |")
    return [*out, ""]


def _flags_md(spec: Spec, source: str, dispute: dict[str, Any]) -> list[str]:
    flags = dispute.get("flags") or []
    if not flags and not dispute.get("parameter"):
        return []
    out = ["## Variant flags", ""]
    for flag in flags:
        out += _flag_md(spec, source, flag)
    if dispute.get("parameter"):
        out += [f"This dispute is settled by the setup parameter `{dispute['parameter']}`, "
                "not by a flag.", ""]
    return out


def _rules_md(spec: Spec, source: str, dispute: dict[str, Any]) -> list[str]:
    items = [f"- {rule_link(spec, source, r)} {md(spec.rule_by_id[r]['title'])}"
             if r in spec.rule_by_id else f"- `{r}` (unknown rule)"
             for r in dispute.get("rules") or []]
    return ["## Rules", "", "\n".join(items) or "None.", ""]


def _scenarios_md(corpus: Corpus, source: str, dispute: dict[str, Any]) -> list[str]:
    """The scenarios that cite the dispute, then those that only set one of its flags."""
    listing = [v for v in corpus.scenarios if dispute["id"] in (v.doc.get("disputes") or [])]
    lines = [f"- {scenario_link(source, view, title=True)} (runs: "
             f"{', '.join(md(r.name) for r in view.runs)})" for view in listing]
    lines += [f"- {scenario_link(source, view, title=True)}: {'; '.join(notes)}"
              for view, notes in _flag_users(corpus, dispute.get("flags") or [])
              if view not in listing]
    return ["## Scenarios", "",
            "\n".join(lines) if lines else "No scenario illustrates this dispute yet.", ""]


def dispute_page_md(corpus: Corpus, dispute: dict[str, Any]) -> str:
    """One dispute: the editions side by side, the ruling and why, its flags, what the
    ruling does to play, its rules and scenarios."""
    spec = corpus.spec
    source = dispute_page(dispute["id"])
    out = [f"# {md(dispute['id'])}: {md(dispute['title'])}", "",
           f"**Question.** {prose(spec, source, dispute['question'])}", "",
           *_positions_md(spec, source, dispute),
           "", "## Ruling", "", prose(spec, source, dispute["ruling"]), "",
           f"**Why.** {prose(spec, source, dispute['reason'])}", "",
           *_flags_md(spec, source, dispute), *impact_section(corpus, dispute["id"]),
           *_rules_md(spec, source, dispute), *_scenarios_md(corpus, source, dispute)]
    return "\n".join(out)


def impact_section(corpus: Corpus, dispute_id: str) -> list[str]:
    """What each ruling does to play, from the committed sweeps: the measures compared
    with the default's, with intervals and p-values, and the dispute's plot."""
    out = []
    for sweep in corpus.impact:
        found = next((d for d in sweep["disputes"] if d["dispute"] == dispute_id), None)
        if found is not None:
            out += _impact_of(sweep, found)
    return (["## What the ruling does to play", ""] + out) if out else []


def _impact_of(sweep: dict[str, Any], found: dict[str, Any]) -> list[str]:
    """One sweep's figures for one dispute: a table per contrast with the default."""
    from mammamia_ref.sim.compare import LABELS, contrasts

    dispute_id = found["dispute"]
    source = dispute_page(dispute_id)
    policies = ", ".join(f"`{p}`" for p in sorted(set(sweep["policies"])))
    base = ", ".join(f"`{k}={v}`" for k, v in sweep.get("base_variants", {}).items())
    out = [f"### {sweep['games_per_ruling']:,} games per ruling, policy {policies}"
           + (f", with {base}" if base else ""), "",
           f"{sweep['players']} players, the same seeds (from {sweep['seed']}) under every "
           f"ruling, the other flags at {'the values above and ' if base else ''}their "
           f"defaults. Made by `{md(sweep['command'])}` (mammamia {md(sweep['version'])}, "
           f"{sweep['wall_seconds']:,.0f} s for the whole sweep, file "
           f"`docs/impact/{md(sweep['file'])}`); the test suite replays the first games of "
           f"every ruling to check that these figures still describe the code.", ""]
    for flag, default, other in contrasts(found):
        out += [f"`{flag}`: **{md(default['value'])}** (default) against "
                f"**{md(other['value'])}**.", "",
                f"| Measure | {md(default['value'])} | {md(other['value'])} | "
                "Difference (95% interval) | p |", "|---|---|---|---|---|"]
        for key, diff in other["versus_default"].items():
            if diff["difference"] is None:
                continue
            low, high = diff["ci95"]
            strong = "**" if diff["p"] < 0.001 else ""
            out.append(f"| {md(LABELS[key])} | {default['measures'][key]:.4g} | "
                       f"{other['measures'][key]:.4g} | {strong}{diff['difference']:+.4f}"
                       f"{strong} ({low:+.4f} to {high:+.4f}) | {diff['p']:.3g} |")
        out.append("")
    out += ["Differences in bold have p < 0.001 (paired over the same seeds; order "
            "shares as two proportions).", ""]
    plots = str(sweep.get("plots") or "")
    if plots.startswith("docs/"):
        image = posixpath.join(plots.removeprefix("docs/"), f"{dispute_id}.png")
        out += [f"![{dispute_id}: measures under each ruling, with 95% intervals]"
                f"({rel(source, image)})", ""]
    return out
