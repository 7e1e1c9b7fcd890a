"""The dispute pages: the index of disputes and flags, and one page per dispute with
what its ruling does to play (from the committed sweeps in ``docs/impact/``)."""

from __future__ import annotations

import math
from collections.abc import Iterable
from html import escape
from typing import Any

from mammamia_ref.site import pictures as pic
from mammamia_ref.site.inputs import Corpus, ScenarioView, Spec
from mammamia_ref.site.links import (
    HOUSE_PAGE,
    dispute_link,
    dispute_page,
    flag_link,
    prose,
    rel,
    rule_link,
    scenario_link,
)
from mammamia_ref.site.text import SEARCH_BOOST, first_sentence, html_block, md, search_meta


def disputes_index_page(corpus: Corpus) -> str:
    """The disputes and the variant flags, each flag with its default in bold."""
    spec = corpus.spec
    source = "disputes/index.md"
    out = ["# Disputes", "",
           "Where the editions disagree or say nothing, the register records each edition's "
           "position, the project's ruling and the variant flags that select the "
           "alternatives. The ruling column gives the project's answer in a sentence; the "
           "dispute's page gives the reason, the editions' positions and what each "
           "ruling does to play.", "",
           "| Dispute | Question | Ruling | Flags |", "|---|---|---|---|"]
    for dispute in spec.disputes:
        flags = ", ".join(flag_link(spec, source, f) for f in dispute.get("flags") or [])
        if dispute.get("parameter"):
            flags = (flags + ", " if flags else "") + f"parameter `{dispute['parameter']}`"
        ruling = prose(spec, source, first_sentence(dispute["ruling"]))
        out.append(f"| {dispute_link(spec, source, dispute['id'])} | "
                   f"{md(dispute['question'])} | {ruling} | {flags or 'none'} |")
    out += ["", "## Variant flags", "",
            "| Flag | Values (default in bold) | Dispute |", "|---|---|---|"]
    for flag, entry in spec.flags.items():
        values = ", ".join((f"**{md(v['value'])}**" if v["value"] == entry["default"]
                            else md(v["value"])) for v in entry["values"])
        owner = (f"[house rule]({rel(source, HOUSE_PAGE, f'flag-{flag}')})"
                 if entry.get("dispute") is None
                 else dispute_link(spec, source, entry["dispute"], title=False))
        out.append(f"| {flag_link(spec, source, flag)} | {values} | {owner} |")
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
    """Every edition a row (a column each was unreadable on a phone), so that silence
    shows as much as disagreement; an edition the register does not list gets its row."""
    positions = dispute.get("positions") or []
    editions = list(spec.editions)
    editions += list(dict.fromkeys(p["edition"] for p in positions
                                   if p["edition"] not in editions))
    by_edition: dict[str, list[dict[str, Any]]] = {e: [] for e in editions}
    for position in positions:
        by_edition[position["edition"]].append(position)
    rows = []
    for edition in editions:
        said = by_edition[edition]
        if not said:
            rows.append(f"| {md(spec.edition_title(edition))} | | *no position recorded* |")
        rows += [f"| {md(spec.edition_title(edition))} | {md(p['section'])} | "
                 f"{prose(spec, source, p['says'])} |" for p in said]
    return ["## The editions' positions", "",
            "One row per edition, so that silence shows as much as disagreement.", "",
            '<div class="mm-positions" markdown>', "",
            "| Edition | Section | Position |", "|---|---|---|", *rows, "", "</div>", ""]


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


def _answer_md(spec: Spec, source: str, dispute: dict[str, Any]) -> list[str]:
    """The question and the project's answer, first on the page: what a reader came for."""
    return [f'<div class="mm-question" markdown>**Question.** '
            f"{prose(spec, source, dispute['question'])}</div>", "",
            '!!! success "Ruling"', "",
            f"    {prose(spec, source, dispute['ruling'])}", "",
            f"    **Why.** {prose(spec, source, dispute['reason'])}", ""]


def dispute_page_md(corpus: Corpus, dispute: dict[str, Any]) -> str:
    """One dispute, answering first: the question, the ruling and why; then one
    situation under each ruling, what the rulings do to play, the editions' positions,
    the flags, the rules and the scenarios."""
    spec = corpus.spec
    source = dispute_page(dispute["id"])
    out = [search_meta(boost=SEARCH_BOOST["dispute"])
           + f"# {md(dispute['id'])}: {md(dispute['title'])}", "",
           *_answer_md(spec, source, dispute),
           *side_by_side_section(corpus, dispute),
           *impact_section(corpus, dispute["id"]),
           *_positions_md(spec, source, dispute),
           *_flags_md(spec, source, dispute),
           *_rules_md(spec, source, dispute), *_scenarios_md(corpus, source, dispute)]
    return "\n".join(out)


# --- one situation under each ruling ---------------------------------------------------


def _candidates(corpus: Corpus, dispute: dict[str, Any]) -> list[ScenarioView]:
    """The scenarios to try, those that cite the dispute first, then those that set one
    of its flags, then the rest: the first that parts the rulings is shown."""
    flags = set(dispute.get("flags") or [])
    citing = [v for v in corpus.scenarios if dispute["id"] in (v.doc.get("disputes") or [])]
    setting = [v for v in corpus.scenarios if v not in citing
               and any(flags & set(r.variants) for r in v.runs)]
    rest = [v for v in corpus.scenarios if v not in citing and v not in setting]
    return citing + setting + rest


def side_by_side_section(corpus: Corpus, dispute: dict[str, Any]) -> list[str]:
    """One scenario replayed under every ruling of the dispute, the steps where the
    outcomes part shown side by side (``mammamia scenario run FILE --rulings ID``)."""
    from mammamia_ref.sim.rulings import first_divergence

    out = ["## One situation under each ruling", ""]
    if not dispute.get("flags"):
        return [*out, "This dispute has no variant flag: the code plays the ruling only, so "
                "there is no other ruling to replay a scenario under.", ""]
    views = _candidates(corpus, dispute)
    found = first_divergence([v.scenario for v in views], dispute["id"])
    if found is None:
        return [*out, "No scenario yet plays out differently under this dispute's rulings.",
                ""]
    view = next(v for v in views if v.scenario.id == found.scenario)
    return out + comparison_md(dispute_page(dispute["id"]), view, found, corpus.spec)


def _cell(lines: tuple[str, ...] | None, common: set[str]) -> str:
    """A ruling's outcome of a step: the action, then only the lines that some other
    ruling does not share (a whole opening can be dozens of lines)."""
    if lines is None:
        return "*not played: an earlier action was illegal under this ruling*"
    own = [line for line in lines[1:] if line not in common]
    shared = len(lines) - 1 - len(own)
    return "<br>".join([md(lines[0]), *(md(line) for line in own)]
                       + ([f"*… and {shared} line{'s' if shared > 1 else ''} the same "
                           "under every ruling*"]
                          if shared else []))


def _project_path(file: str) -> str:
    """A scenario file as a path from the project's root (the build may use absolute ones).

    >>> _project_path("/home/me/mammamia/scenarios/oven/x.yaml")
    'scenarios/oven/x.yaml'
    """
    parts = file.replace("\\", "/").split("/")
    return "/".join(parts[parts.index("scenarios"):]) if "scenarios" in parts else file


OUR_RULING = "our ruling"


def ruling_labels(spec: Spec, found: Any) -> list[str]:
    """A column heading per ruling of a comparison, the default (the project's ruling)
    marked: every flag of the dispute at its default."""
    def is_default(variants: dict[str, str]) -> bool:
        return all(spec.flags.get(f, {}).get("default") == v for f, v in variants.items())

    return [f"`{md(t.label)}`" + (f" (**{OUR_RULING}**)" if is_default(t.variants) else "")
            for t in found.traces]


def _labelled(label: str, cell: str) -> str:
    """A cell with its column's heading before it, shown only on a phone, where the
    table's rows are stacked (the stylesheet's ``mm-col``)."""
    return f'<span class="mm-col">{label}: </span>{cell}'


def _final_md(found: Any, labels: list[str]) -> list[str]:
    """The final positions under the rulings, each place that differs in words."""
    from mammamia_ref.site.differences import final_differences

    rows, more = final_differences([t.final for t in found.traces])
    if not rows:
        return []
    out = ["After the last step the position differs:", "",
           '<div class="mm-side" markdown>', "",
           "| Where | " + " | ".join(labels) + " |", "|---" * (len(labels) + 1) + "|"]
    out += [f"| {md(place)} | " + " | ".join(_labelled(label, md(words)) for label, words
                                              in zip(labels, values, strict=True)) + " |"
            for place, values in rows]
    out += ["", "</div>", ""]
    if more:
        out += [f"*… and {more} more difference{'s' if more > 1 else ''} of the same "
                "kind.*", ""]
    return out


def comparison_md(source: str, view: ScenarioView, found: Any,
                  spec: Spec | None = None) -> list[str]:
    """A comparison (:class:`mammamia_ref.sim.rulings.Comparison`) as a table: a column
    per ruling (ours marked), a row per step where the outcomes differ, then the final
    positions in words."""
    labels = ruling_labels(spec, found) if spec is not None else \
        [f"`{md(t.label)}`" for t in found.traces]
    diverging = found.diverging_steps()
    same = len(found.steps) - len(diverging)
    run = f", run *{md(found.run)}*" if len(view.runs) > 1 else ""
    out = [f"{scenario_link(source, view, title=True)}{run}, replayed from its starting "
           f"position under {len(found.traces)} rulings"
           + (f" ({same} of its {len(found.steps)} steps play out the same):"
              if found.steps else ":"), "", *situation_md(view, found.run)]
    if diverging:
        out += ['<div class="mm-side" markdown>', "",
                "| Step | " + " | ".join(labels) + " |", "|---" * (len(labels) + 1) + "|"]
        for i in diverging:
            index, action = found.steps[i]
            texts = [None if t.outcomes[i] is None else t.outcomes[i].text
                     for t in found.traces]
            played = [set(text[1:]) for text in texts if text is not None]
            common = set.intersection(*played) if len(played) == len(texts) else set()
            cells = [_labelled(label, _cell(text, common))
                     for label, text in zip(labels, texts, strict=True)]
            out.append(f"| {index}: {md(action)} | " + " | ".join(cells) + " |")
        out += ["", "</div>", ""]
    final = _final_md(found, labels)
    if final:
        out += final + final_boards_md(spec, found)
    elif any(t.final is None for t in found.traces):
        out += ["Under a ruling whose column reads *not played*, the scenario stops at the "
                "refused action, so its final position is not compared.", ""]
    elif found.final_differences():
        out += ["After the last step the position differs in: "
                + ", ".join(md(k) for k in found.final_differences()) + ".", ""]
    out += ["The same comparison on the command line:", "", "```console",
            f"$ mammamia scenario run {_project_path(view.scenario.file)} "
            f"--rulings {found.disputes[0]}"
            + (f" --run {found.run}" if len(view.runs) > 1 else ""), "```", ""]
    return out


def situation_md(view: ScenarioView, run_name: str) -> list[str]:
    """The starting position drawn as cards, as the scenario's own page draws it; a new
    game (its shuffles are steps) in words."""
    run = next((r for r in view.runs if r.name == run_name), view.runs[0])
    if "setup" in view.scenario.given or run.start is None:
        return ["The situation: a new game, its shuffles given as steps.", ""]
    return ["The situation, before the first step:",
            html_block(pic.board_html(run.start), search=False)]


def final_boards_md(spec: Spec | None, found: Any) -> list[str]:
    """The position after the last step under each ruling, drawn as cards side by side
    (each under its ruling's name), as a scenario's page draws its runs."""
    from mammamia_ref.formats.jsonform import parse_state

    boards = []
    for trace in found.traces:
        if trace.final is None:
            continue
        state = parse_state({k: v for k, v in trace.final.items()
                             if not k.startswith("what ")})
        ours = spec is not None and all(spec.flags.get(f, {}).get("default") == v
                                        for f, v in trace.variants.items())
        mark = f" (<strong>{OUR_RULING}</strong>)" if ours else ""
        boards.append(f'<div class="mm-run"><p><code>{escape(trace.label)}</code>{mark}</p>'
                      f"{pic.board_html(state)}</div>")
    if not boards:
        return []
    return ["The position after the last step, under each ruling:",
            html_block(f'<div class="mm-runs">{"".join(boards)}</div>', search=False)]


def decimals_for(*values: float) -> int:
    """The decimals that give the largest of ``values`` two significant digits.

    >>> decimals_for(0.01234, 0.02012), decimals_for(-2.71), decimals_for(12.3), decimals_for(0)
    (3, 1, 0, 0)
    """
    scale = max(abs(v) for v in values)
    return 0 if scale == 0 else max(0, 1 - math.floor(math.log10(scale)))


def figures(*values: float) -> list[str]:
    """Numbers to two significant digits of the largest, all with the same decimals, so
    that a difference and its interval read together.

    >>> figures(0.01234, 0.00451, 0.02012)
    ['+0.012', '+0.005', '+0.020']
    >>> figures(-1.5, -2.71, -0.3), figures(0.0, 0.0)
    (['-1.5', '-2.7', '-0.3'], ['+0', '+0'])
    """
    decimals = decimals_for(*values)
    return [f"{v:+.{decimals}f}" for v in values]


def _effect(difference: float, low: float, high: float) -> str:
    """A paired difference with its 95% interval, in bold when the interval leaves out
    zero."""
    d, lo, hi = figures(difference, low, high)
    text = f"{d} ({lo} to {hi})"
    return f"**{text}**" if low > 0 or high < 0 else text


def _defaults_line(found: dict[str, Any]) -> str:
    """Which ruling every difference is taken from: ours."""
    from mammamia_ref.sim.compare import contrasts

    ours = dict.fromkeys(f"`{flag}={default['value']}`" for flag, default, _ in contrasts(found))
    return f"Each ruling is compared with **{OUR_RULING}**, {', '.join(ours)}."


def _by_players(sweeps: list[dict[str, Any]], dispute_id: str) -> list[str]:
    """The sweeps of random players at each player count side by side: every measure
    that some count moves, each count's difference with its interval (the rules differ
    most at two and at five players, with the trimming and the hand sizes)."""
    from mammamia_ref.sim.compare import LABELS, contrasts
    from mammamia_ref.sim.skill import skill_of

    by_count: dict[int, tuple[dict[str, Any], dict[str, Any]]] = {}
    for sweep in sweeps:
        doc = next((d for d in sweep["disputes"] if d["dispute"] == dispute_id), None)
        count = int(sweep["players"])
        if doc is not None and skill_of(sweep) == "random" and (
                count not in by_count or sweep["games_per_ruling"]
                > by_count[count][0]["games_per_ruling"]):
            by_count[count] = (sweep, doc)
    if len(by_count) < 2:
        return []
    counts = sorted(by_count)
    rows: dict[tuple[str, str], dict[int, dict[str, Any]]] = {}
    for count in counts:
        for flag, _, other in contrasts(by_count[count][1]):
            for key, diff in other["versus_default"].items():
                if diff["difference"] is not None and list(diff["ci95"]) != [0, 0]:
                    rows.setdefault((f"{flag}={other['value']}", key), {})[count] = diff
    heads = [f"{n} players ({by_count[n][0]['games_per_ruling']:,} games)" for n in counts]
    rulings = list(dict.fromkeys(ruling for ruling, _ in rows))
    several = len(rulings) > 1
    out = ["### By player count", "",
           "Random players at every table size, the same seeds under every ruling: each cell "
           "is the ruling's paired difference from ours with its 95% interval, in bold when "
           "the interval leaves out zero; a blank cell, no difference in any game. "
           + _defaults_line(by_count[counts[-1]][1])
           + ("" if several else f" The other ruling: `{md(rulings[0])}`."), "",
           '<div class="mm-impact mm-stack" markdown>', "",
           "|" + (" Ruling (against ours) | Measure |" if several else
                  " Measure (against ours) |") + " " + " | ".join(heads) + " |",
           "|---|" + ("---|" if several else "") + "---|" * len(counts)]
    for (ruling, key), cells in rows.items():
        shown = [_labelled(head, _effect(cells[n]["difference"], *cells[n]["ci95"]))
                 if n in cells else "" for n, head in zip(counts, heads, strict=True)]
        out.append("|" + (f" `{md(ruling)}` |" if several else "") + f" {md(LABELS[key])} | "
                   + " | ".join(shown) + " |")
    return out + ["", "</div>", "", "Made by " + "; ".join(
        f"`{md(by_count[n][0]['command'])}` ({impact_data_link(by_count[n][0])})"
        for n in counts) + ".", ""]


def impact_data_link(sweep: dict[str, Any], folder: str = "impact") -> str:
    """A link from a dispute page to the recorded sweep its figures come from (the JSON
    file the site ships beside the page: nothing is shipped that no page links)."""
    return f"[{md(sweep['file'])}](../{folder}/{sweep['file']})"


def impact_section(corpus: Corpus, dispute_id: str) -> list[str]:
    """What each ruling does to play, from the committed sweeps: by skill and by player
    count side by side, then each four-player sweep's measures compared with ours, with
    intervals and p-values."""
    four = [s for s in corpus.impact if int(s["players"]) == 4]
    out = _by_skill(four, dispute_id) + _by_players(corpus.impact, dispute_id)
    for sweep in four:
        found = next((d for d in sweep["disputes"] if d["dispute"] == dispute_id), None)
        if found is not None:
            out += _impact_of(sweep, found)
    return (["## What the ruling does to play", ""] + out) if out else []


def _by_skill(sweeps: list[dict[str, Any]], dispute_id: str) -> list[str]:
    """The sweeps of each skill side by side: per ruling one sentence on the score, then
    every measure some skill moves, each skill's difference with its interval."""
    from mammamia_ref.sim.compare import LABELS
    from mammamia_ref.sim.skill import by_skill, planner_edge, verdict

    rows = by_skill(sweeps, dispute_id)
    skills = list(dict.fromkeys(e.skill for r in rows for e in r.effects))
    if len(skills) < 2:
        return []
    heads = {e.skill: f"{e.skill} ({e.table + '; ' if e.table else ''}{e.games:,} games)"
             for r in rows for e in r.effects}
    rulings = list(dict.fromkeys(r.ruling for r in rows))
    out = ["### By skill", "",
           "The same rulings compared among players of each skill (the sweeps below), "
           "side by side: each cell is the ruling's paired difference from the default "
           "with its 95% interval, in bold when the interval leaves out zero. Each "
           "heading says who sat at the tables: the search sweeps seat one search player "
           "among careful ones.", ""]
    out += [f"- {sentence}" for ruling in rulings
            for sentence in (verdict(rows, ruling), planner_edge(rows, ruling)) if sentence]
    out += ["", '<div class="mm-impact mm-stack" markdown>', "",
            "| Ruling (against ours) | Measure | " + " | ".join(heads[s] for s in skills) + " |",
            "|---|---|" + "---|" * len(skills)]
    for row in rows:
        cells = {e.skill: e for e in row.effects}
        shown = []
        for skill in skills:
            e = cells.get(skill)
            shown.append("" if e is None else _labelled(heads[skill], _effect(
                e.difference, *e.ci95)))
        out.append(f"| `{md(row.ruling)}` | {md(LABELS[row.measure])} | "
                   + " | ".join(shown) + " |")
    return out + ["", "</div>", ""]


def _impact_of(sweep: dict[str, Any], found: dict[str, Any]) -> list[str]:
    """One sweep's figures for one dispute: a row per measure and ruling with the paired
    difference from the default, its 95% interval drawn against zero."""
    from mammamia_ref.sim.compare import LABELS, contrasts
    from mammamia_ref.sim.skill import table_of

    base = ", ".join(f"`{k}={v}`" for k, v in sweep.get("base_variants", {}).items())
    out = [f"### {sweep['games_per_ruling']:,} games per ruling, players {table_of(sweep)}"
           + (f", with {base}" if base else ""), "",
           f"{sweep['players']} players, the same seeds (from {sweep['seed']}) under every "
           f"ruling, the other flags at {'the values above and ' if base else ''}their "
           f"defaults. Each row is a ruling's difference from the default (ruling minus "
           f"default), paired over the same games; the bar is its 95% interval, the line "
           f"zero, each measure on its own scale. Made by `{md(sweep['command'])}` "
           f"(mammamia {md(sweep['version'])}, {sweep['wall_seconds']:,.0f} s for the whole "
           f"sweep, data {impact_data_link(sweep)}); the test suite replays the "
           f"first games of every ruling to check that these figures still describe the "
           f"code.", ""]
    pairs = list(contrasts(found))
    rows: dict[str, list[tuple[str, Any, Any, dict[str, Any]]]] = {}
    for flag, default, other in pairs:
        for key, diff in other["versus_default"].items():
            if diff["difference"] is not None:
                rows.setdefault(key, []).append((f"{flag}={other['value']}",
                                                 default["measures"][key],
                                                 other["measures"][key], diff))
    several = len(pairs) > 1
    if not several:
        flag, default, other = pairs[0]
        out += [f"`{flag}`: **{md(default['value'])}** ({OUR_RULING}) against "
                f"**{md(other['value'])}**.", ""]
    else:
        out += [_defaults_line(found), ""]
    unchanged = [LABELS[k] for k, entries in rows.items()
                 if all(d["ci95"] == [0, 0] or d["ci95"] == (0, 0) for *_, d in entries)]
    out += ['<div class="mm-impact" markdown>', "",
            "| Measure |" + (" Ruling |" if several else "")
            + " Ours → ruling | Difference (95% interval) | | p |",
            "|---|" + ("---|" if several else "") + "---|---|---|---|"]
    for key, entries in rows.items():
        if LABELS[key] in unchanged:
            continue
        scale = max(max(abs(d["ci95"][0]), abs(d["ci95"][1]), abs(d["difference"]))
                    for _, _, _, d in entries) or 1.0
        for label, before, after, diff in entries:
            low, high = diff["ci95"]
            # the measure itself to the difference's decimals: what changed shows
            places = decimals_for(diff["difference"], low, high)
            was, now = f"{before:.{places}f}", f"{after:.{places}f}"
            out.append(f"| {md(LABELS[key])} |" + (f" `{md(label)}` |" if several else "")
                       + f" {was} → {now} | {_effect(diff['difference'], low, high)} | "
                       f"{forest_bar(diff['difference'], low, high, scale)} | "
                       f"{diff['p']:.2g} |")
    out += ["", "</div>", "",
            "Differences in bold have a 95% interval that leaves out zero."
            + (f" The same under every ruling in every game: {md(', '.join(unchanged))}."
               if unchanged else ""), ""]
    return out


def forest_bar(difference: float, low: float, high: float, scale: float,
               width: int = 120) -> str:
    """A one-row forest plot: the interval as a bar, the difference as a dot, zero as a
    line; ``scale`` is the largest distance from zero among the rows it is read with."""
    def x(value: float) -> float:
        return round(width / 2 + value / scale * (width / 2 - 4), 1)

    colour = "#c62828" if low > 0 or high < 0 else "#888"
    return (f'<svg class="mm-forest" width="{width}" height="14" viewBox="0 0 {width} 14" '
            f'role="img" aria-label="{difference:+.4f}, 95% interval {low:+.4f} to '
            f'{high:+.4f}"><line x1="{width / 2}" y1="0" x2="{width / 2}" y2="14" '
            f'stroke="currentColor" stroke-opacity="0.5"/><line x1="{x(low)}" y1="7" '
            f'x2="{x(high)}" y2="7" stroke="{colour}" stroke-width="3"/><circle '
            f'cx="{x(difference)}" cy="7" r="3.5" fill="{colour}"/></svg>')
