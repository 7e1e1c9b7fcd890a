"""The scenario pages: the index, one page per folder, and one story per scenario that
tells each run step by step as the reference plays it, the position drawn as cards."""

from __future__ import annotations

import json
import re
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
from mammamia_ref.site.inputs import Corpus, Frame, RunView, ScenarioView, Spec
from mammamia_ref.site.links import (
    dispute_link,
    flag_link,
    prose,
    rule_link,
    rule_link_html,
    scenario_link,
)
from mammamia_ref.site.text import html_block, md, search_meta

GROUP_TITLES = {"": "Other scenarios", "rulebook": "Rulebook examples", "setup": "Setup",
                "turn": "The turn", "oven": "The oven", "round": "Rounds",
                "game_end": "End of the game", "queries": "Query witnesses"}


def group_title(group: str) -> str:
    """A folder's title; a folder without one gets its name in words."""
    return GROUP_TITLES.get(group, group.replace("_", " ").replace("/", " / ").capitalize())


def scenarios_index_page(corpus: Corpus) -> str:
    """Every scenario by folder with its verdict; files that do not load are listed first."""
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


def _text(value: Any) -> str:
    """Plain text as HTML, its whitespace collapsed as :func:`md` does for Markdown."""
    return escape(" ".join(str(value).split()), quote=False)


def _action_html(frame: Frame, state_before: GameState | None) -> str:
    """The action in words, with the colour of the player who took it."""
    action = frame.action
    if action is None:
        return "<em>(no action: checks only)</em>"
    if isinstance(action, Shuffle):
        return f"chance: {_text(describe(action))}"
    who = state_before.colour(frame.actor) if state_before is not None and \
        frame.actor is not None else None
    return (pic.colour_chip(who) + " " if who else "") + _text(describe(action))


def _checks_text(raw: dict[str, Any]) -> str:
    """What the scenario checks at a step, in short, so the reader sees what is tested."""
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


def _variants_md(spec: Spec, source: str, run: RunView) -> list[str]:
    """The flags a run sets, each marked when it is the default anyway."""
    if not run.variants:
        return []
    changed = {f: v for f, v in run.variants.items()
               if spec.flags.get(f, {}).get("default") != v}
    settings = ", ".join(flag_link(spec, source, f, v) + ("" if f in changed else " (default)")
                         for f, v in run.variants.items())
    return [f"**Variants:** {settings}", ""]


def _events_html(spec: Spec, source: str, frame: Frame) -> str:
    """What the step did, event by event, each with the rule that decided it."""
    events = []
    if frame.rejected:
        events.append(f"<li><strong>rejected</strong> under "
                      f"{rule_link_html(spec, source, frame.rejected)}; "
                      "the position is unchanged</li>")
    config = frame.state.config
    for item in frame.events:
        events.append(f"<li>{_text(event_sentence(item, config))} — "
                      f"{rule_link_html(spec, source, item.rule)}</li>")
    return f'<div class="mm-events"><ul>{"".join(events)}</ul></div>' if events else ""


def _diverged_at(run: RunView, frame: Frame) -> bool:
    return run.result is not None and not run.result.passed and run.result.step == frame.index


def _step_html(spec: Spec, source: str, run: RunView, frame: Frame,
               before: GameState | None) -> str:
    """One step: the action, the scenario's note, the events, the oven after an opening
    (where a reader loses track), what the scenario checks, and the divergence if here.
    HTML, not Markdown: a story has up to thousands of steps, and Markdown inside HTML
    is what made a long one slow to build."""
    failed_here = _diverged_at(run, frame)
    css = " mm-diverged" if failed_here else (" mm-rejected" if frame.rejected else "")
    parts = [f'<div class="mm-step{css}"><p><span class="mm-step-n">{frame.index + 1}.</span> '
             f"{_action_html(frame, before)}</p>"]
    if frame.raw.get("note"):
        parts.append(f'<p><span class="mm-note">{_text(frame.raw["note"])}</span></p>')
    parts.append(_events_html(spec, source, frame))
    if any(e.name in _OVEN_EVENTS for e in frame.events):
        parts.append(pic.board_html(frame.state, compact=True))
    checks = _checks_text(frame.raw)
    if checks:
        parts.append(f'<p><span class="mm-checks">{_text(checks)}</span></p>')
    if failed_here and run.result is not None:
        failure = "<br>".join(_text(x) for x in (run.result.failure or "").splitlines())
        parts.append(f'<p class="mm-verdict-fail">Diverges here: {failure}</p>')
    return "".join([*parts, "</div>"])


def _ending_md(spec: Spec, source: str, run: RunView) -> list[str]:
    """The position after the last step, the winner if the game is over, the verdict."""
    out: list[str] = []
    final = run.frames[-1].state if run.frames else run.start
    if final is not None and run.frames:
        out += ["**After the last step**", html_block(pic.board_html(final), search=False)]
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


def is_witness(view: ScenarioView) -> bool:
    """A query's witness (tagged ``query``, written by ``mammamia query run``): a game of
    up to hundreds of turns. Its steps stay out of the search index, which keeps its
    title, description and rules (the queries page says the rest)."""
    return "query" in (view.doc.get("tags") or [])


def witness_query(view: ScenarioView) -> str | None:
    """The query a witness answers: its tag that names a query (``Q05-...``)."""
    return next((t for t in view.doc.get("tags") or []
                 if re.fullmatch(r"Q[0-9]+-[a-z0-9-]+", str(t))), None)


def _run_md(corpus: Corpus, view: ScenarioView, run: RunView) -> list[str]:
    """One run told as a story: its description and variants, every step, the end."""
    spec = corpus.spec
    source = view.page
    out = [prose(spec, source, run.description), ""] if run.description else []
    out += _variants_md(spec, source, run)
    if run.error is not None:
        return [*out, f'<p class="mm-verdict-fail">The run cannot start: {escape(run.error)}</p>',
                ""]
    items: list[str] = []
    before = run.start
    for frame in run.frames:
        items.append(_step_html(spec, source, run, frame, before))
        before = frame.state
    if items:
        out += [html_block(f'<div class="mm-steps">{"".join(items)}</div>',
                           search=not is_witness(view))]
    return out + _ending_md(spec, source, run)


def _header_md(spec: Spec, view: ScenarioView) -> list[str]:
    """Title, file, description, and the rules, disputes and tags the scenario cites."""
    source = view.page
    doc = view.doc
    front = ["---", "hide:", "  - toc", "---", ""] if len(view.runs) > 1 else []
    out = [*front, f"# {md(view.scenario.title)}", "",
           f"Scenario `{view.id}`, file `{md(display_path(view.scenario.file))}`.", ""]
    if doc.get("description"):
        out += [prose(spec, source, doc["description"]), ""]
    meta = ["**Rules:** " + ", ".join(rule_link(spec, source, r) for r in view.scenario.rules)
            + "."]
    if doc.get("disputes"):
        meta.append("**Disputes:** " + "; ".join(dispute_link(spec, source, d)
                                                  for d in doc["disputes"]) + ".")
    if doc.get("tags"):
        meta.append("**Tags:** " + ", ".join(f"`{md(t)}`" for t in doc["tags"]) + ".")
    return [*out, "  \n".join(meta), ""]


def _sources_md(spec: Spec, doc: dict[str, Any]) -> list[str]:
    if not doc.get("sources"):
        return []
    rows = [f"| {md(spec.edition_title(s.get('edition', '')))} | "
            f"{md(s.get('section', ''))} | {md(s.get('note', ''))} |" for s in doc["sources"]]
    return ["## Source", "", "| Edition | Section | Note |", "|---|---|---|", *rows, ""]


def _start_md(view: ScenarioView) -> list[str]:
    """The starting position: a new game in words (its shuffles are steps), or a given
    position drawn as cards."""
    out = ["## Starting position", ""]
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
        out += [html_block(pic.board_html(start), search=False)]
    return out


def _runs_md(corpus: Corpus, view: ScenarioView) -> list[str]:
    """One run as the story; several side by side, to compare the rulings."""
    if len(view.runs) == 1:
        run = view.runs[0]
        return ["## The story" if run.name == "default" else f"## Run {md(run.name)}", "",
                *_run_md(corpus, view, run)]
    out = ["## The runs side by side", "",
           "The same starting position played under each ruling.", "",
           '<div class="mm-runs" markdown>', ""]
    for run in view.runs:
        out += ['<div class="mm-run" markdown>', "", f"### Run {md(run.name)}", "",
                *_run_md(corpus, view, run), "</div>", ""]
    return [*out, "</div>", ""]


def scenario_page(corpus: Corpus, view: ScenarioView) -> str:
    """A scenario's page: what it is about, where the rulebooks say it, the starting
    position, and each run as the reference plays it."""
    spec = corpus.spec
    # a witness is found through its query (the queries page lists them): dozens share a
    # title, and would crowd out the rules they illustrate
    head = search_meta(exclude=True) if is_witness(view) else ""
    return head + "\n".join([*_header_md(spec, view), *_sources_md(spec, view.doc),
                             *_start_md(view), *_runs_md(corpus, view)])


def display_path(file: str) -> str:
    """The scenario file from its ``scenarios/`` folder on, not the builder's full path."""
    path = Path(file)
    parts = path.parts
    if "scenarios" in parts:
        index = len(parts) - 1 - parts[::-1].index("scenarios")
        return Path(*parts[index:]).as_posix()
    return path.name
