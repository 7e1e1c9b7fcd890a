"""The scenario pages: the index, one page per folder, and one story per scenario that
tells each run step by step as the reference plays it, the position drawn as cards."""

from __future__ import annotations

import json
from collections.abc import Sequence
from html import escape
from pathlib import Path
from typing import Any

from mammamia_ref.formats.narrate import event_text
from mammamia_ref.rules.actions import Shuffle, describe
from mammamia_ref.rules.events import Event
from mammamia_ref.rules.game import is_over, winners
from mammamia_ref.rules.state import GameState
from mammamia_ref.rules.vocabulary import COLOURS
from mammamia_ref.site import pictures as pic
from mammamia_ref.site.inputs import Corpus, Frame, RunView, ScenarioView
from mammamia_ref.site.links import dispute_link, flag_link, prose, rule_link, scenario_link
from mammamia_ref.site.text import md, raw_block

GROUP_TITLES = {"": "Other scenarios", "rulebook": "Rulebook examples", "setup": "Setup",
                "turn": "The turn", "oven": "The oven", "round": "Rounds",
                "game_end": "End of the game", "queries": "Query witnesses"}


def group_title(group: str) -> str:
    return GROUP_TITLES.get(group, group.replace("_", " ").replace("/", " / ").capitalize())


def scenarios_index_page(corpus: Corpus) -> str:
    source = "scenarios/index.md"
    out = ["# Scenarios", "",
           "Each scenario states what the rules require in one situation: a starting "
           "position, the actions taken and what must follow. Each page tells it step by "
           "step as the reference implementation plays it. The format is described in "
           "[the scenario format](../scenario-format.md).", ""]
    if corpus.load_errors:
        out += ["!!! failure \"Scenario files that do not load\"", ""]
        out += [f"    - {md(e)}" for e in corpus.load_errors]
        out.append("")
    for group, views in corpus.groups().items():
        heading = f"[{md(group_title(group))}]({group}/index.md)" if group else \
            md(group_title(group))
        out += [f"## {heading}", "", *_scenario_table(source, views), ""]
    if not corpus.scenarios:
        out += ["No scenarios yet.", ""]
    return "\n".join(out)


def _scenario_table(source: str, views: Sequence[ScenarioView]) -> list[str]:
    rows = ["| Scenario | Title | Runs | Verdict |", "|---|---|---|---|"]
    for view in views:
        verdict = "passes" if view.passed else "**diverges**"
        rows.append(f"| {scenario_link(source, view)} | {md(view.scenario.title)} | "
                    f"{len(view.runs)} | {verdict} |")
    return rows


def group_page(corpus: Corpus, group: str, views: Sequence[ScenarioView]) -> str:
    source = f"scenarios/{group}/index.md"
    return "\n".join([f"# {md(group_title(group))}", "",
                      f"The scenarios in `scenarios/{group}/`.", "",
                      *_scenario_table(source, views), ""])


def _action_text(frame: Frame, state_before: GameState | None) -> str:
    action = frame.action
    if action is None:
        return "*(no action: checks only)*"
    if isinstance(action, Shuffle):
        return f"chance: {md(describe(action))}"
    who = state_before.colour(frame.actor) if state_before is not None and \
        frame.actor is not None else None
    return (pic.colour_chip(who) + " " if who else "") + md(describe(action))


def _checks_text(raw: dict[str, Any]) -> str:
    expect = raw.get("expect") or {}
    parts = []
    if "to_move" in expect:
        parts.append(f"to move: {expect['to_move'] or 'nobody'}")
    if "legal" in expect:
        count = len(expect["legal"])
        parts.append(f"{count} legal action{'s' if count != 1 else ''}")
    if "events" in expect:
        count = len(expect["events"])
        parts.append(f"{count} event{'s' if count != 1 else ''}")
    if "state" in expect:
        parts.append("state: " + ", ".join(expect["state"]))
    if "winners" in expect:
        parts.append("winners: " + ", ".join(expect["winners"]))
    if raw.get("reject"):
        parts.append(f"rejected under {raw['reject'].get('rule')}")
    return "checks " + "; ".join(parts) if parts else ""


def event_sentence(item: Event, config: Any) -> str:
    """The narration of one event (``narrate.event_text`` without its rule ID)."""
    try:
        text = event_text(item, config)
    except (KeyError, IndexError, TypeError):
        data = dict(item.data)
        if item.name == "needs" and "total" in data:
            return f"{data.get('order')} needs at least {data['total']} ingredient cards"
        details = ", ".join(f"{k}: {json.dumps(v)}" for k, v in data.items())
        return f"{item.name.replace('_', ' ')} ({details})" if details else item.name
    return text.rsplit("  [", 1)[0]


_OVEN_EVENTS = {"oven_opened", "revealed", "named_kind", "completed_from_hand", "baked",
                "failed", "leftovers_to_oven", "leftovers_stay"}


def _run_md(corpus: Corpus, view: ScenarioView, run: RunView) -> list[str]:
    spec = corpus.spec
    source = view.page
    out: list[str] = []
    if run.description:
        out += [prose(spec, source, run.description), ""]
    changed = {f: v for f, v in run.variants.items()
               if spec.flags.get(f, {}).get("default") != v}
    if run.variants:
        settings = ", ".join(flag_link(spec, source, f, v) +
                             ("" if f in changed else " (default)")
                             for f, v in run.variants.items())
        out += [f"**Variants:** {settings}", ""]
    if run.error is not None:
        return [*out, f'<p class="mm-verdict-fail">The run cannot start: {escape(run.error)}</p>',
                ""]
    items = []
    before = run.start
    for frame in run.frames:
        failed_here = run.result is not None and not run.result.passed and \
            run.result.step == frame.index
        css = "mm-diverged" if failed_here else ("mm-rejected" if frame.rejected else "")
        lines = [f'<div class="mm-step {css}" markdown="block">',
                 f'<span class="mm-step-n">{frame.index + 1}.</span> '
                 f"{_action_text(frame, before)}", ""]
        if frame.raw.get("note"):
            lines += [f'<span class="mm-note">{md(frame.raw["note"])}</span>', ""]
        events = []
        if frame.rejected:
            events.append(f"- **rejected** under {rule_link(spec, source, frame.rejected)}; "
                          "the position is unchanged")
        config = frame.state.config
        for item in frame.events:
            events.append(f"- {md(event_sentence(item, config))} — "
                          f"{rule_link(spec, source, item.rule)}")
        if events:
            lines += ['<div class="mm-events" markdown="block">', "", *events, "", "</div>", ""]
        if any(e.name in _OVEN_EVENTS for e in frame.events):
            lines += [pic.board_html(frame.state, compact=True), ""]
        checks = _checks_text(frame.raw)
        if checks:
            lines += [f'<span class="mm-checks">{md(checks)}</span>', ""]
        if failed_here and run.result is not None:
            failure = "<br>".join(md(x) for x in (run.result.failure or "").splitlines())
            lines += [f'<p class="mm-verdict-fail">Diverges here: {failure}</p>', ""]
        lines.append("</div>")
        items += lines
        before = frame.state
    if items:
        out += ['<div class="mm-steps" markdown="block">', "", *items, "</div>", ""]
    final = run.frames[-1].state if run.frames else run.start
    if final is not None and run.frames:
        out += ["**After the last step**", "", pic.board_html(final), ""]
        if is_over(final):
            seats, rule = winners(final)
            names = " and ".join(final.colour(s) for s in seats)
            out += [f"Winner: **{md(names)}** ({rule_link(spec, source, rule)}).", ""]
    if run.result is not None and run.result.passed:
        out += ['<p class="mm-verdict-pass">The reference passes this run.</p>', ""]
    elif run.result is not None:
        out += [f'<p class="mm-verdict-fail">The reference diverges at step '
                f"{(run.result.step or 0) + 1} (line {run.result.line}).</p>", ""]
    return out


def scenario_page(corpus: Corpus, view: ScenarioView) -> str:
    spec = corpus.spec
    source = view.page
    doc = view.doc
    front = ["---", "hide:", "  - toc", "---", ""] if len(view.runs) > 1 else []
    out = [*front, f"# {md(view.scenario.title)}", "", raw_block(pic.icon_sprite()),
           f"Scenario `{view.id}`, file `{md(_display_path(view.scenario.file))}`.", ""]
    if doc.get("description"):
        out += [prose(spec, source, doc["description"]), ""]
    meta = ["**Rules:** " + ", ".join(rule_link(spec, source, r) for r in view.scenario.rules)
            + "."]
    if doc.get("disputes"):
        meta.append("**Disputes:** " + "; ".join(dispute_link(spec, source, d)
                                                  for d in doc["disputes"]) + ".")
    if doc.get("tags"):
        meta.append("**Tags:** " + ", ".join(f"`{md(t)}`" for t in doc["tags"]) + ".")
    out += ["  \n".join(meta), ""]
    if doc.get("sources"):
        out += ["## Source", "", "| Edition | Section | Note |", "|---|---|---|"]
        for s in doc["sources"]:
            out.append(f"| {md(spec.edition_title(s.get('edition', '')))} | "
                       f"{md(s.get('section', ''))} | {md(s.get('note', ''))} |")
        out.append("")
    out += ["## Starting position", ""]
    given = view.scenario.given
    if "setup" in given:
        setup = given["setup"]
        colours = setup.get("colours") or list(COLOURS[:setup["players"]])
        out += [f"A new game for {setup['players']} players ("
                + ", ".join(pic.colour_chip(c) for c in colours)
                + f"), seat {setup.get('first_player', 0)} starting. The shuffles are given "
                "as steps.", ""]
    start = next((r.start for r in view.runs if r.start is not None), None)
    if start is not None and "setup" not in given:
        out += [pic.board_html(start), ""]
    if len(view.runs) == 1:
        run = view.runs[0]
        out += ["## The story" if run.name == "default" else f"## Run {md(run.name)}", ""]
        out += _run_md(corpus, view, run)
    else:
        out += ["## The runs side by side", "",
                "The same starting position played under each ruling.", "",
                '<div class="mm-runs" markdown>', ""]
        for run in view.runs:
            out += ['<div class="mm-run" markdown>', "", f"### Run {md(run.name)}", "",
                    *_run_md(corpus, view, run), "</div>", ""]
        out += ["</div>", ""]
    return "\n".join(out)


def _display_path(file: str) -> str:
    path = Path(file)
    parts = path.parts
    if "scenarios" in parts:
        index = len(parts) - 1 - parts[::-1].index("scenarios")
        return Path(*parts[index:]).as_posix()
    return path.name
