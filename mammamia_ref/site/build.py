"""The rules site, generated from ``spec/`` and ``scenarios/``.

The MkDocs hook ``docs/hooks/generate.py`` calls this module at build time; nothing
here imports MkDocs, so the generator and its checks can be tested on their own.

- :func:`load_corpus` reads the registers and loads and runs every scenario;
- :func:`problems` lists what must fail the build: an unknown rule or dispute ID, a
  scenario that does not load or whose run diverges, a rule that no scenario exercises;
- :func:`generate` returns every page (path under ``docs/`` to Markdown, SVG or CSS);
- :func:`nav` returns the navigation in the order of the registers;
- :func:`broken_links` checks the built HTML for links to missing pages or anchors.

>>> rel("rules/oven.md", "disputes/D4.md", "flag-minimale_lowest")
'../disputes/D4.md#flag-minimale_lowest'
"""

from __future__ import annotations

import ast
import json
import os
import posixpath
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from html import escape
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

import yaml

from mammamia_ref.site import pictures as pic
from mammamia_ref.rules import specdata
from mammamia_ref.rules.actions import Action, Shuffle, describe
from mammamia_ref.errors import IllegalActionError, MammamiaError
from mammamia_ref.rules.events import Event
from mammamia_ref.rules.game import apply, is_over, to_move, winners
from mammamia_ref.formats.narrate import event_text
from mammamia_ref.formats.scenario import RunResult, Scenario, given_state, load_all, run_one
from mammamia_ref.rules.state import GameState
from mammamia_ref.rules.vocabulary import COLOURS, KINDS, ORDERS, ORDERS_OF, PERSONAL, TRIMMING

PACKAGE_DIR = Path(__file__).resolve().parent.parent

# --- the inputs ------------------------------------------------------------------------


@dataclass
class Spec:
    """The three registers (and the queries, when there are any) as loaded documents."""

    rules_doc: dict[str, Any]
    disputes_doc: dict[str, Any]
    cards_doc: dict[str, Any]
    queries_doc: Any = None

    @classmethod
    def live(cls) -> Spec:
        queries = None
        path = specdata.spec_path("queries.yaml")
        if path.exists():
            queries = yaml.safe_load(path.read_text(encoding="utf-8"))
        return cls(specdata.load_yaml("rules.yaml"), specdata.load_yaml("disputes.yaml"),
                   specdata.cards(), queries)

    @property
    def editions(self) -> dict[str, dict[str, Any]]:
        return {e["id"]: e for e in self.rules_doc.get("editions", [])}

    @property
    def chapters(self) -> list[dict[str, Any]]:
        return list(self.rules_doc.get("chapters", []))

    @property
    def rules(self) -> list[dict[str, Any]]:
        return list(self.rules_doc.get("rules", []))

    @property
    def rule_by_id(self) -> dict[str, dict[str, Any]]:
        return {r["id"]: r for r in self.rules}

    @property
    def disputes(self) -> list[dict[str, Any]]:
        return list(self.disputes_doc.get("disputes", []))

    @property
    def dispute_by_id(self) -> dict[str, dict[str, Any]]:
        return {d["id"]: d for d in self.disputes}

    @property
    def flags(self) -> dict[str, dict[str, Any]]:
        return {v["flag"]: v for v in self.disputes_doc.get("variants", [])}

    def is_variant_rule(self, rule_id: str) -> bool:
        """True for a rule that applies only under a non-default flag value."""
        rule = self.rule_by_id.get(rule_id, {})
        flags = self.flags
        return any(flags.get(flag, {}).get("default") != value
                   for flag, value in (rule.get("when") or {}).items())


@dataclass
class Frame:
    """One step of a run as the reference played it, with the position after it."""

    index: int
    action: Action | None
    actor: int | None
    events: tuple[Event, ...]
    rejected: str | None
    state: GameState
    raw: dict[str, Any]


@dataclass
class RunView:
    name: str
    description: str
    variants: dict[str, str]
    result: RunResult | None
    start: GameState | None
    frames: list[Frame] = field(default_factory=list)
    error: str | None = None

    @property
    def passed(self) -> bool:
        return self.error is None and self.result is not None and self.result.passed


@dataclass
class ScenarioView:
    scenario: Scenario
    group: str          # the folder under scenarios/, "" at the top
    page: str           # the page's path under docs/
    runs: list[RunView]

    @property
    def id(self) -> str:
        return self.scenario.id

    @property
    def doc(self) -> dict[str, Any]:
        return self.scenario.doc

    @property
    def passed(self) -> bool:
        return all(run.passed for run in self.runs)


@dataclass
class Corpus:
    spec: Spec
    scenarios: list[ScenarioView]
    load_errors: list[str]
    impact: list[dict[str, Any]] = field(default_factory=list)  # sweeps, docs/impact/

    def scenarios_citing(self, rule_id: str) -> list[ScenarioView]:
        return [s for s in self.scenarios if rule_id in s.scenario.rules]

    def groups(self) -> dict[str, list[ScenarioView]]:
        groups: dict[str, list[ScenarioView]] = {}
        for view in sorted(self.scenarios, key=lambda v: (v.group, v.id)):
            groups.setdefault(view.group, []).append(view)
        return groups


def load_corpus(scenario_paths: Sequence[str | Path], spec: Spec | None = None, *,
                impact: str | Path | None = None) -> Corpus:
    """Load every scenario under ``scenario_paths`` and play each of its runs, and the
    dispute-impact sweeps in the folder ``impact``, if given."""
    from mammamia_ref.sim.impact import load_sweeps

    spec = spec or Spec.live()
    roots = [Path(p).resolve() for p in scenario_paths if Path(p).exists()]
    missing = [str(p) for p in scenario_paths if not Path(p).exists()]
    scenarios, errors = load_all(roots)
    load_errors = [str(e) for e in errors] + [f"{m}: no such scenario folder" for m in missing]
    views = []
    for scenario in scenarios:
        group = _group_of(Path(scenario.file).resolve(), roots)
        page = posixpath.join("scenarios", group, f"{scenario.id}.md") if group else \
            f"scenarios/{scenario.id}.md"
        if scenario.id == "index":
            page = page[:-3] + "-scenario.md"
        views.append(ScenarioView(scenario, group, page, [play_run(scenario, run, r)
                                                           for r, run in
                                                           enumerate(scenario.runs)]))
    return Corpus(spec, views, load_errors, load_sweeps(impact) if impact else [])


def _group_of(file: Path, roots: Sequence[Path]) -> str:
    for root in roots:
        base = root if root.is_dir() else root.parent
        try:
            return file.parent.relative_to(base).as_posix().strip(".")
        except ValueError:
            continue
    return ""


def play_run(scenario: Scenario, run: Any, number: int = 0) -> RunView:
    """Play one run with the reference, keeping the position after every step, and
    judge it with :func:`mammamia_ref.formats.scenario.run_one`."""
    raw_runs = scenario.doc.get("runs")
    raw_run = raw_runs[number] if raw_runs else scenario.doc
    view = RunView(run.name, str(raw_run.get("description", "")), dict(run.variants), None,
                   None)
    try:
        view.result = run_one(scenario, run)
        state = given_state(scenario, run)
    except MammamiaError as exc:
        view.error = str(exc)
        return view
    view.start = state
    raw_steps = raw_run.get("steps", [])
    for step in run.steps:
        events: tuple[Event, ...] = ()
        rejected = None
        actor = None
        if step.action is not None:
            actor = to_move(state)
            try:
                state, events = apply(state, step.action)
            except IllegalActionError as exc:
                rejected = exc.rule
        raw = raw_steps[step.index] if step.index < len(raw_steps) else {}
        view.frames.append(Frame(step.index, step.action, actor, events, rejected, state, raw))
        if not view.result.passed and view.result.step == step.index:
            break
    return view


# --- the checks ------------------------------------------------------------------------


@dataclass(frozen=True)
class Problem:
    """Something that fails the build. ``kind`` is one of ``unknown-rule``,
    ``unknown-dispute``, ``unknown-edition``, ``unknown-flag``, ``scenario-invalid``,
    ``scenario-failed``, ``uncovered-rule``."""

    kind: str
    message: str

    def __str__(self) -> str:
        return f"{self.kind}: {self.message}"


def problems(corpus: Corpus, *, require_coverage: bool = True) -> list[Problem]:
    """Everything that must fail the build (see :class:`Problem`)."""
    spec = corpus.spec
    known = set(spec.rule_by_id)
    disputes = spec.dispute_by_id
    editions = spec.editions
    flags = spec.flags
    chapters = {c["id"] for c in spec.chapters}
    found: list[Problem] = []

    def rule_ref(rule_id: Any, where: str) -> None:
        if rule_id is not None and rule_id not in known:
            found.append(Problem("unknown-rule", f"{where} cites unknown rule ID {rule_id!r}"))

    for rule in spec.rules:
        where = f"rules.yaml: rule {rule['id']}"
        if rule.get("chapter") not in chapters:
            found.append(Problem("unknown-rule", f"{where} is in unknown chapter "
                                                 f"{rule.get('chapter')!r}"))
        for dispute in rule.get("disputes") or []:
            if dispute not in disputes:
                found.append(Problem("unknown-dispute", f"{where} cites unknown dispute "
                                                        f"{dispute!r}"))
        if rule.get("ruling") and rule["ruling"] not in disputes:
            found.append(Problem("unknown-dispute", f"{where} is the ruling of unknown dispute "
                                                    f"{rule['ruling']!r}"))
        for source in rule.get("sources") or []:
            if source.get("edition") not in editions:
                found.append(Problem("unknown-edition", f"{where} cites unknown edition "
                                                        f"{source.get('edition')!r}"))
        for flag in rule.get("when") or {}:
            if flag not in flags:
                found.append(Problem("unknown-flag", f"{where} applies under unknown flag "
                                                     f"{flag!r}"))
    for dispute in spec.disputes:
        where = f"disputes.yaml: dispute {dispute['id']}"
        for rule_id in dispute.get("rules") or []:
            rule_ref(rule_id, where)
        for position in dispute.get("positions") or []:
            if position.get("edition") not in editions:
                found.append(Problem("unknown-edition", f"{where} cites unknown edition "
                                                        f"{position.get('edition')!r}"))
        for flag in dispute.get("flags") or []:
            if flag not in flags:
                found.append(Problem("unknown-flag", f"{where} names unknown flag {flag!r}"))
    for flag, entry in flags.items():
        for value in entry.get("values", []):
            rule_ref(value.get("rule"), f"disputes.yaml: flag {flag}={value.get('value')}")
        if entry.get("dispute") not in disputes:
            found.append(Problem("unknown-dispute", f"disputes.yaml: flag {flag} cites unknown "
                                                    f"dispute {entry.get('dispute')!r}"))
    for node in [*TURN_FLOW, *ROUND_FLOW]:
        for rule_id in [*node.rules, *(node.side[1] if node.side else ())]:
            rule_ref(rule_id, "the quick reference")
    for message in corpus.load_errors:
        found.append(Problem("scenario-invalid", message))
    for view in corpus.scenarios:
        where = f"scenario {view.id} ({view.scenario.file})"
        for rule_id in view.scenario.rules:
            rule_ref(rule_id, where)
        for dispute in view.doc.get("disputes") or []:
            if dispute not in disputes:
                found.append(Problem("unknown-dispute", f"{where} cites unknown dispute "
                                                        f"{dispute!r}"))
        for source in view.doc.get("sources") or []:
            if source.get("edition") not in editions:
                found.append(Problem("unknown-edition", f"{where} cites unknown edition "
                                                        f"{source.get('edition')!r}"))
        for run in view.runs:
            name = where if run.name == "default" else f"{where}, run {run.name}"
            if run.error is not None:
                found.append(Problem("scenario-invalid", f"{name} cannot start: {run.error}"))
                continue
            if run.result is not None and not run.result.passed:
                found.append(Problem("scenario-failed", f"{name} diverges at step "
                                                        f"{run.result.step} (line "
                                                        f"{run.result.line}): "
                                                        f"{run.result.failure}"))
            for frame in run.frames:
                rule_ref(frame.raw.get("reject", {}).get("rule"), f"{name} step {frame.index}")
                for item in frame.raw.get("expect", {}).get("events", []):
                    rule_ref(item.get("rule"), f"{name} step {frame.index}")
                rule_ref(frame.raw.get("expect", {}).get("winner_rule"),
                         f"{name} step {frame.index}")
                for item in frame.events:
                    rule_ref(item.rule, f"{name} step {frame.index} (the reference's events)")
    if require_coverage:
        cited = {rule for view in corpus.scenarios for rule in view.scenario.rules}
        for rule in spec.rules:
            if rule["id"] not in cited:
                found.append(Problem("uncovered-rule", f"rule {rule['id']} has no scenario "
                                                       "that exercises it"))
    return found


# --- links -----------------------------------------------------------------------------


def rel(source: str, target: str, anchor: str | None = None) -> str:
    """The relative link from page ``source`` to page ``target`` (paths under docs/)."""
    path = posixpath.relpath(target, posixpath.dirname(source) or ".")
    return path + (f"#{anchor}" if anchor else "")


def html_link(source: str, target: str, anchor: str | None = None) -> str:
    """The same link in the built site (``use_directory_urls: false``), for raw HTML."""
    path = rel(source, target)
    if path.endswith(".md"):
        path = path[:-3] + ".html"
    return path + (f"#{anchor}" if anchor else "")


def rule_page(spec: Spec, rule_id: str) -> str:
    rule = spec.rule_by_id.get(rule_id)
    chapter = rule["chapter"] if rule else rule_id.split(".", 1)[0]
    return f"rules/{chapter}.md"


def rule_link(spec: Spec, source: str, rule_id: str, text: str | None = None) -> str:
    if rule_id not in spec.rule_by_id:
        return f"`{rule_id}` (unknown rule)"
    return f"[`{text or rule_id}`]({rel(source, rule_page(spec, rule_id), rule_id)})"


def dispute_page(dispute_id: str) -> str:
    return f"disputes/{dispute_id}.md"


def dispute_link(spec: Spec, source: str, dispute_id: str, *, title: bool = True) -> str:
    dispute = spec.dispute_by_id.get(dispute_id)
    if dispute is None:
        return f"{dispute_id} (unknown dispute)"
    text = f"{dispute_id}: {dispute['title']}" if title else dispute_id
    return f"[{md(text)}]({rel(source, dispute_page(dispute_id))})"


def flag_link(spec: Spec, source: str, flag: str, value: str | None = None) -> str:
    entry = spec.flags.get(flag)
    text = f"`{flag}={value}`" if value is not None else f"`{flag}`"
    if entry is None:
        return text
    return f"[{text}]({rel(source, dispute_page(entry['dispute']), f'flag-{flag}')})"


def scenario_link(source: str, view: ScenarioView, *, title: bool = False) -> str:
    text = f"{view.id}: {view.scenario.title}" if title else view.id
    return f"[{md(text)}]({rel(source, view.page)})"


def md(text: Any) -> str:
    """Plain text made safe for Markdown (and for a table cell)."""
    value = " ".join(str(text).split())
    value = value.replace("\\", "\\\\").replace("<", "&lt;").replace(">", "&gt;")
    value = value.replace("*", "\\*").replace("`", "\\`").replace("|", "\\|")
    value = value.replace("[", "\\[").replace("]", "\\]")
    return value


def prose(spec: Spec, source: str, text: Any) -> str:
    """Register prose as Markdown, every rule ID it names linked to its anchor."""
    value = md(text)
    ids = sorted(spec.rule_by_id, key=len, reverse=True)
    if not ids:
        return value
    pattern = re.compile(r"(?<![\w.`/#-])(" + "|".join(re.escape(i) for i in ids) + r")(?![\w])")
    return pattern.sub(lambda m: rule_link(spec, source, m.group(1)), value)


def first_sentence(text: str) -> str:
    words = " ".join(text.split())
    match = re.match(r"(.+?[.!?])(\s|$)", words)
    sentence = match.group(1) if match else words
    if sentence.endswith("Mamma Mia!") and len(sentence) < len(words):
        rest = first_sentence(words[len(sentence):])
        return f"{sentence} {rest}"
    return sentence


# --- the flow of the game (rule IDs checked by problems()) ------------------------------

TURN_FLOW: tuple[pic.FlowNode, ...] = (
    pic.FlowNode("Play one or more ingredient cards of one kind onto the oven and announce "
                 "them; the oven may not be searched",
                 ("turn.play", "turn.hidden_oven"),
                 side=("No ingredient card in hand: pass, playing no card",
                       ("turn.pass", "turn.pass_with_order"))),
    pic.FlowNode("You may put one order card from your hand on the oven",
                 ("turn.place_order",)),
    pic.FlowNode("Draw from one source, the supply or your waiter, until you hold 7 cards",
                 ("turn.draw", "turn.draw_short"),
                 side=("Variants: draw as many as you played, or fewer than allowed",
                       ("turn.draw_as_played", "turn.draw_fewer"))),
    pic.FlowNode("Drew the Mamma Mia! card? Lay it out by your waiter and draw again",
                 ("mamma_mia.draw",)),
    pic.FlowNode("Was the last card of the supply drawn?",
                 ("round_end.last_card", "round_end.last_ingredient", "round_end.stall"),
                 side=("Yes: the round ends and the Mamma Mia! holder opens the oven",
                       ("mamma_mia.holder", "oven.open")),
                 decision=True),
    pic.FlowNode("No: the next player clockwise takes a turn", ("turn.clockwise",)),
)
TURN_LOOPS = (pic.FlowLoop(5, 0, "next turn"),)

ROUND_FLOW: tuple[pic.FlowNode, ...] = (
    pic.FlowNode("Before the first round: trim the deck, deal 6 each, shuffle the Mamma Mia! "
                 "card into the supply, each player takes a waiter and its top order",
                 ("setup.trim", "setup.deal", "setup.supply", "setup.waiter",
                  "setup.first_player"),
                 side=("Variants: the full deck; the Mamma Mia! card shuffled in before the "
                       "deal", ("setup.full_deck", "setup.supply_before_deal",
                                "mamma_mia.dealt"))),
    pic.FlowNode("Turns go clockwise from the starting player (see the turn above)",
                 ("turn.clockwise",)),
    pic.FlowNode("The supply runs out: the round ends", ("round_end.last_card",),
                 side=("Or: the last ingredient card; a stalled round is cut",
                       ("round_end.last_ingredient", "round_end.stall"))),
    pic.FlowNode("The Mamma Mia! holder turns the oven over and reveals one card at a time, "
                 "the first played first", ("mamma_mia.holder", "oven.open")),
    pic.FlowNode("An ingredient joins the table, sorted by kind", ("oven.sort",)),
    pic.FlowNode("An order bakes from the table, or its owner completes it from hand, "
                 "or it fails and goes under its owner's waiter",
                 ("oven.bake", "oven.complete_from_hand", "oven.fail", "oven.leftovers"),
                 side=("The recipes, and the special orders",
                       ("oven.standard", "oven.one_of_each", "oven.bombastica",
                        "oven.monotoni", "oven.minimale", "oven.complete_mandatory"))),
    pic.FlowNode("Was this the third opening?", ("game_end.three_resolutions",),
                 side=("Yes: the most delivered orders wins; a tie goes to the most "
                       "ingredient cards in hand",
                       ("game_end.most_delivered", "game_end.tie_break",
                        "game_end.shared_win")),
                 decision=True),
    pic.FlowNode("No: the leftovers start the new oven; the used cards and the Mamma Mia! card "
                 "make the new supply", ("next_round.oven", "next_round.supply"),
                 side=("Variant: the leftovers wait on the table",
                       ("next_round.leftovers_on_table",))),
    pic.FlowNode("The holder takes the first turn of the next round",
                 ("next_round.first_player",)),
)
ROUND_LOOPS = (pic.FlowLoop(5, 4, "next card"),
               pic.FlowLoop(8, 1, "next round"))

ORDER_TYPE_RULES = {"standard": "oven.standard", "one_of_each": "oven.one_of_each",
                    "bombastica": "oven.bombastica", "monotoni": "oven.monotoni",
                    "minimale": "oven.minimale"}

GROUP_TITLES = {"": "Other scenarios", "rulebook": "Rulebook examples", "setup": "Setup",
                "turn": "The turn", "oven": "The oven", "round": "Rounds",
                "game_end": "End of the game", "queries": "Query witnesses"}


def group_title(group: str) -> str:
    return GROUP_TITLES.get(group, group.replace("_", " ").replace("/", " / ").capitalize())


# --- the pages -------------------------------------------------------------------------


def handwritten_pages(docs_dir: str | Path) -> dict[str, str]:
    """The hand-written Markdown pages in docs/ (hooks/ aside): path to title (its first
    heading), the format documents first."""
    found: dict[str, str] = {}
    root = Path(docs_dir)
    for path in sorted(root.rglob("*.md")):
        relative = path.relative_to(root).as_posix()
        if relative.split("/")[0] in ("hooks",) or relative.startswith((".", "_")):
            continue
        title = next((line[2:].strip() for line in path.read_text(encoding="utf-8")
                      .splitlines() if line.startswith("# ")), path.stem.replace("-", " "))
        found[relative] = title
    first = [p for p in ("scenario-format.md", "state-format.md") if p in found]
    return {p: found[p] for p in [*first, *(p for p in found if p not in first)]}


def generate(corpus: Corpus, handwritten: dict[str, str] | None = None) -> dict[str, str]:
    """Every generated file: its path under docs/ and its content. ``handwritten`` are
    the hand-written pages (see :func:`handwritten_pages`), listed in the porting guide."""
    spec = corpus.spec
    handwritten = handwritten or {}
    pages: dict[str, str] = {
        "index.md": home_page(corpus),
        "assets/mammamia.css": pic.stylesheet(),
        "rules/index.md": rules_index_page(corpus),
        "rules/quick-reference.md": quick_reference_page(corpus),
        "disputes/index.md": disputes_index_page(corpus),
        "cards.md": cards_page(corpus),
        "scenarios/index.md": scenarios_index_page(corpus),
        "queries.md": queries_page(corpus),
        "porting/index.md": porting_page(corpus, handwritten),
        "porting/cli.md": cli_page(),
        "porting/api.md": api_page(),
    }
    for chapter in spec.chapters:
        pages[f"rules/{chapter['id']}.md"] = chapter_page(corpus, chapter)
    for dispute in spec.disputes:
        pages[dispute_page(dispute["id"])] = dispute_page_md(corpus, dispute)
    for group, views in corpus.groups().items():
        if group:
            pages[f"scenarios/{group}/index.md"] = group_page(corpus, group, views)
        for view in views:
            pages[view.page] = scenario_page(corpus, view)
    return pages


def nav(corpus: Corpus, handwritten: dict[str, str] | None = None) -> list[Any]:
    """The navigation, in the order of the registers and the scenario folders; the
    hand-written pages go to the porting guide."""
    spec = corpus.spec
    handwritten = handwritten or {}
    scenario_nav: list[Any] = ["scenarios/index.md"]
    for group, views in corpus.groups().items():
        entries = [{v.id: v.page} for v in views]
        if group:
            scenario_nav.append({group_title(group): [f"scenarios/{group}/index.md", *entries]})
        else:
            scenario_nav += entries
    return [
        {"Home": "index.md"},
        {"Rules": ["rules/index.md", {"Quick reference": "rules/quick-reference.md"},
                   *[{c["title"]: f"rules/{c['id']}.md"} for c in spec.chapters]]},
        {"Disputes": ["disputes/index.md",
                      *[{f"{d['id']}: {d['title']}": dispute_page(d["id"])}
                        for d in spec.disputes]]},
        {"Cards": "cards.md"},
        {"Scenarios": scenario_nav},
        {"Queries": "queries.md"},
        {"Porting guide": ["porting/index.md",
                           *[{_short_title(t): p} for p, t in handwritten.items()],
                           {"Command line": "porting/cli.md"},
                           {"Python API": "porting/api.md"}]},
    ]


def _sprite() -> str:
    return "\n" + pic.icon_sprite() + "\n"


def home_page(corpus: Corpus) -> str:
    spec = corpus.spec
    runs = sum(len(v.runs) for v in corpus.scenarios)
    passing = sum(r.passed for v in corpus.scenarios for r in v.runs)
    cited = {r for v in corpus.scenarios for r in v.scenario.rules}
    covered = len(cited & set(spec.rule_by_id))
    editions = "\n".join(f"- **{md(e['id'])}**: {md(e['title'])} ({md(e.get('language', ''))})"
                         for e in spec.editions.values())
    return f"""# Mamma Mia! — the executable rulebook

The rules of Uwe Rosenberg's card game *Mamma Mia!* as data, as a reference
implementation and as scenarios. Every page of this site is generated from the
project's `spec/` registers and its `scenarios/` when the site is built; every rule has
a stable ID, and every event the reference implementation reports names the rule that
decided it.

| | |
|---|---|
| [Rules](rules/index.md) | {len(spec.rules)} rules in {len(spec.chapters)} chapters, \
and a [quick reference](rules/quick-reference.md) of a turn and a round |
| [Disputes](disputes/index.md) | {len(spec.disputes)} places where the editions \
disagree or are silent, with {len(spec.flags)} variant flags |
| [Cards](cards.md) | the {len(ORDERS)} order cards, the ingredients and the trimming table |
| [Scenarios](scenarios/index.md) | {len(corpus.scenarios)} scenarios, {runs} runs \
({passing} passing), exercising {covered} of {len(spec.rules)} rules |
| [Queries](queries.md) | questions about the rules, answered by a solver |
| [Porting guide](porting/index.md) | the formats, the command line and the Python API |

## How to read a rule reference

A rule ID such as [`oven.minimale`](rules/oven.md#oven.minimale) names its chapter and
the rule. Rules that hold only under a variant flag say so (*applies when*); the
default of every flag is the project's ruling on a [dispute](disputes/index.md).

## The editions

{editions}
"""


def rules_index_page(corpus: Corpus) -> str:
    spec = corpus.spec
    source = "rules/index.md"
    out = ["# The rules", "",
           "Every rule of the register, chapter by chapter, in the order of play. A rule's "
           "anchor is its ID. The [quick reference](quick-reference.md) shows a whole turn "
           "and a whole round on one page.", ""]
    for chapter in spec.chapters:
        out += [f"## [{md(chapter['title'])}]({chapter['id']}.md)", "",
                "| Rule | Title | Applies when | Scenarios |", "|---|---|---|---|"]
        for rule in spec.rules:
            if rule["chapter"] != chapter["id"]:
                continue
            out.append(f"| {rule_link(spec, source, rule['id'])} | {md(rule['title'])} | "
                       f"{_when_text(spec, source, rule) or 'always'} | "
                       f"{len(corpus.scenarios_citing(rule['id']))} |")
        out.append("")
    out += ["## Editions", "", "| ID | Edition | Language | File |", "|---|---|---|---|"]
    for edition in spec.editions.values():
        out.append(f"| {md(edition['id'])} | {md(edition['title'])} | "
                   f"{md(edition.get('language', ''))} | `{md(edition.get('file', ''))}` |")
    return "\n".join(out) + "\n"


def _when_text(spec: Spec, source: str, rule: dict[str, Any]) -> str:
    parts = []
    for flag, value in (rule.get("when") or {}).items():
        default = spec.flags.get(flag, {}).get("default")
        mark = " (default)" if default == value else " (variant)"
        parts.append(flag_link(spec, source, flag, value) + mark)
    return ", ".join(parts)


def _edition_title(spec: Spec, edition_id: str) -> str:
    edition = spec.editions.get(edition_id)
    return f"{edition_id}: {edition['title']}" if edition else f"{edition_id} (unknown edition)"


def chapter_page(corpus: Corpus, chapter: dict[str, Any]) -> str:
    spec = corpus.spec
    source = f"rules/{chapter['id']}.md"
    out = [f"# {md(chapter['title'])}", ""]
    rules = [r for r in spec.rules if r["chapter"] == chapter["id"]]
    out += ["Rules of this chapter: " + ", ".join(rule_link(spec, source, r["id"])
                                                   for r in rules) + ".", ""]
    for rule in rules:
        out += [f"## {md(rule['id'])} — {md(rule['title'])} {{ #{rule['id']} }}", ""]
        when = _when_text(spec, source, rule)
        if when:
            out += [f'<p class="mm-when" markdown>**Applies when** {when}.</p>', ""]
        out += [prose(spec, source, rule["statement"]), ""]
        sources = rule.get("sources") or []
        if sources:
            out += ["| Edition | Section |", "|---|---|"]
            out += [f"| {md(_edition_title(spec, s['edition']))} | {md(s['section'])} |"
                    for s in sources]
            out.append("")
        else:
            out += ["*No edition states this rule.*", ""]
        meta = []
        if rule.get("ruling"):
            meta.append(f"**Ruling of** {dispute_link(spec, source, rule['ruling'])}.")
        disputes = rule.get("disputes") or []
        touching = [d["id"] for d in spec.disputes if rule["id"] in (d.get("rules") or [])]
        all_disputes = list(dict.fromkeys([*disputes, *touching]))
        if all_disputes:
            meta.append("**Disputes:** " + "; ".join(dispute_link(spec, source, d)
                                                      for d in all_disputes) + ".")
        citing = corpus.scenarios_citing(rule["id"])
        if citing:
            meta.append("**Scenarios:** " + ", ".join(scenario_link(source, v) for v in citing)
                        + ".")
        else:
            meta.append("**Scenarios:** none yet.")
        out += ["  \n".join(meta), ""]
    return "\n".join(out)


def quick_reference_page(corpus: Corpus) -> str:
    spec = corpus.spec
    source = "rules/quick-reference.md"

    def link(rule_id: str) -> str:
        return html_link(source, rule_page(spec, rule_id), rule_id)

    out = ["# Quick reference", "",
           "A whole turn and a whole round on one page. Every box names the rules it "
           "follows; click one to read it. Rule IDs in *italics* hold only under a variant "
           "flag.", ""]
    for name, title, flow, loops in (("turn", "A turn", TURN_FLOW, TURN_LOOPS),
                                     ("round", "A round", ROUND_FLOW, ROUND_LOOPS)):
        out += [f"## {title}", "", pic.flow_svg(name, title, flow, loops, link,
                                                 spec.is_variant_rule), ""]
        out += ["| Step | Rules |", "|---|---|"]
        for number, node in enumerate(flow, 1):
            ids = [*node.rules, *(node.side[1] if node.side else ())]
            cells = []
            for rule_id in ids:
                rule = spec.rule_by_id.get(rule_id)
                if rule is None:
                    cells.append(f"`{rule_id}` (unknown rule)")
                    continue
                variant = " *(variant)*" if spec.is_variant_rule(rule_id) else ""
                cells.append(f"{rule_link(spec, source, rule_id)} {md(rule['title'])}{variant}:"
                             f" {md(first_sentence(rule['statement']))}")
            caption = md(node.caption) + (f" / {md(node.side[0])}" if node.side else "")
            out.append(f"| {number}. {caption} | {'<br>'.join(cells)} |")
        out.append("")
    return "\n".join(out)


def disputes_index_page(corpus: Corpus) -> str:
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


def _flag_users(corpus: Corpus, flags: Iterable[str]) -> list[tuple[ScenarioView, list[str]]]:
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


def dispute_page_md(corpus: Corpus, dispute: dict[str, Any]) -> str:
    spec = corpus.spec
    source = dispute_page(dispute["id"])
    out = [f"# {md(dispute['id'])}: {md(dispute['title'])}", "",
           f"**Question.** {prose(spec, source, dispute['question'])}", "",
           "## The editions side by side", ""]
    editions = list(spec.editions)
    for position in dispute.get("positions") or []:
        if position["edition"] not in editions:
            editions.append(position["edition"])
    by_edition: dict[str, list[dict[str, Any]]] = {e: [] for e in editions}
    for position in dispute.get("positions") or []:
        by_edition[position["edition"]].append(position)
    out.append("| | " + " | ".join(md(_edition_title(spec, e)) for e in editions) + " |")
    out.append("|---" * (len(editions) + 1) + "|")
    out.append("| **Position** | " + " | ".join(
        "<br><br>".join(f"*{md(p['section'])}*<br>{prose(spec, source, p['says'])}"
                        for p in by_edition[e]) or "*no position recorded*"
        for e in editions) + " |")
    out += ["", "## Ruling", "", prose(spec, source, dispute["ruling"]), "",
            f"**Why.** {prose(spec, source, dispute['reason'])}", ""]
    flags = dispute.get("flags") or []
    if flags or dispute.get("parameter"):
        out += ["## Variant flags", ""]
    for flag in flags:
        entry = spec.flags.get(flag)
        out += [f"### `{flag}` {{ #flag-{flag} }}", ""]
        if entry is None:
            out += ["*This flag is not declared in the register.*", ""]
            continue
        out += ["| Value | Default | Selects rule | Meaning |", "|---|---|---|---|"]
        for value in entry["values"]:
            default = "**default**" if value["value"] == entry["default"] else ""
            rule = rule_link(spec, source, value["rule"]) if value.get("rule") else "no rule"
            out.append(f"| `{md(value['value'])}` | {default} | {rule} | "
                       f"{prose(spec, source, value.get('summary', ''))} |")
        out.append("")
    if dispute.get("parameter"):
        out += [f"This dispute is settled by the setup parameter `{dispute['parameter']}`, "
                "not by a flag.", ""]
    out += impact_section(corpus, dispute["id"])
    out += ["## Rules", "", "\n".join(
        f"- {rule_link(spec, source, r)} {md(spec.rule_by_id[r]['title'])}"
        if r in spec.rule_by_id else f"- `{r}` (unknown rule)"
        for r in dispute.get("rules") or []) or "None.", ""]
    out += ["## Scenarios", ""]
    listing = [v for v in corpus.scenarios if dispute["id"] in (v.doc.get("disputes") or [])]
    users = _flag_users(corpus, flags)
    lines = []
    for view in listing:
        runs = ", ".join(md(r.name) for r in view.runs)
        lines.append(f"- {scenario_link(source, view, title=True)} (runs: {runs})")
    for view, notes in users:
        if view in listing:
            continue
        lines.append(f"- {scenario_link(source, view, title=True)}: {'; '.join(notes)}")
    out += ["\n".join(lines) if lines else "No scenario illustrates this dispute yet.", ""]
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


def cards_page(corpus: Corpus) -> str:
    spec = corpus.spec
    cards = spec.cards_doc
    source = "cards.md"
    out = ["# The cards", "", _sprite(),
           "The component manifest (`spec/cards.yaml`) drawn as cards: the ingredients, "
           f"the Mamma Mia! card and the orders. {rule_link(spec, source, 'setup.components')} "
           "lists them.", "", "## Ingredients", "", '<div class="mm-card-grid">']
    for entry in cards["ingredients"]:
        out.append(f"<figure>{pic.ingredient_card_svg(entry['id'], entry['name'], entry['copies'])}"
                   f"<figcaption>{escape(entry['id'])}</figcaption></figure>")
    out.append(f"<figure>{pic.mamma_mia_card_svg()}<figcaption>"
               f"{escape(cards.get('mamma_mia_card', 'mamma_mia'))}</figcaption></figure>")
    out += ["</div>", "", "## Orders", "",
            "Every colour has eight orders; the personal ingredient of each colour is on every "
            "order of that colour that needs one. A card links to the rule for its kind of "
            "order.", ""]
    for colour in COLOURS:
        out += [f"### {colour.capitalize()}: personal ingredient {PERSONAL[colour]}", "",
                '<div class="mm-card-grid">']
        for order_id in ORDERS_OF[colour]:
            order = ORDERS[order_id]
            target = ORDER_TYPE_RULES.get(order.type)
            href = html_link(source, rule_page(spec, target), target) if target else None
            out.append(f"<figure>{pic.order_card_svg(order, href)}</figure>")
        out += ["</div>", ""]
    total = sum(int(e["copies"]) for e in cards["ingredients"])
    out += ["## Deck trimming", "",
            f"Applies under {rule_link(spec, source, 'setup.trim')}; the variant "
            f"{rule_link(spec, source, 'setup.full_deck')} uses every card.", "",
            "| Players | Removed of each kind | Ingredient cards in play |", "|---|---|---|"]
    for players, removed in sorted(TRIMMING.items()):
        out.append(f"| {players} | {removed} | {total - removed * len(KINDS)} |")
    out += ["", "## Numbers", "", "| | |", "|---|---|",
            f"| Players | {cards['players']['min']} to {cards['players']['max']} |",
            f"| Starting ingredient cards | {cards['starting_ingredients']} |",
            f"| Starting orders | {cards['starting_orders']} |",
            f"| Hand limit | {cards['hand_limit']} |",
            f"| Rounds | {cards['rounds']} |", ""]
    return "\n".join(out)


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
    out = [*front, f"# {md(view.scenario.title)}", "", _sprite(),
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
            out.append(f"| {md(_edition_title(spec, s.get('edition', '')))} | "
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


# --- queries -------------------------------------------------------------------------


def queries_page(corpus: Corpus) -> str:
    """The queries register (``spec/queries.yaml``), each witness linked to its scenario
    page, or a placeholder while there is no register."""
    from mammamia_ref.queries.catalogue import ROOT
    from mammamia_ref.queries.docs import Links, render_markdown

    doc = corpus.spec.queries_doc
    if not isinstance(doc, dict) or not doc.get("queries"):
        return "# Queries\n\n*No queries yet: `spec/queries.yaml` does not exist.*\n"
    pages = {Path(v.scenario.file).resolve(): v.page for v in corpus.scenarios}

    def witness_page(path: Path) -> str | None:
        page = pages.get(path.resolve())
        return rel("queries.md", page) if page else None

    links = Links(rule=lambda rule_id: rule_link(corpus.spec, "queries.md", rule_id),
                  dispute=lambda d: dispute_link(corpus.spec, "queries.md", d, title=False),
                  witness=witness_page)
    return str(render_markdown(doc["queries"], root=ROOT, links=links))


# --- the porting guide -------------------------------------------------------------------


def _short_title(title: str) -> str:
    return title.split(":", 1)[0].strip() if len(title) > 40 else title


def porting_page(corpus: Corpus, handwritten: dict[str, str] | None = None) -> str:
    pages = "\n".join(f"- [{md(title)}](../{path})" for path, title in
                      (handwritten or {}).items())
    return f"""# Porting guide

Everything a port of the game needs is language-neutral: the registers in `spec/`, the
JSON Schemas in `spec/schemas/`, and the scenarios. A port passes when every run of
every [scenario](../scenarios/index.md) passes against it;
`mammamia scenario export -o scenarios.json` gives all of them as one JSON bundle.

{pages}
- [The command line](cli.md), generated from the `mammamia` argument parser.
- [The Python API](api.md) of the reference implementation, module by module, from
  its docstrings.
"""


def cli_markdown(parser: Any = None) -> str:
    """The help of every command and subcommand of the ``mammamia`` parser."""
    import argparse

    if parser is None:
        from mammamia_ref.cli.app import build_parser

        parser = build_parser()
    saved = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = "80"
    try:
        out: list[str] = []

        def walk(current: argparse.ArgumentParser, name: str, depth: int) -> None:
            out.extend([f"{'#' * min(depth, 4)} `{name}`", "", "```text",
                        current.format_help().rstrip(), "```", ""])
            for action in current._actions:
                if isinstance(action, argparse._SubParsersAction):
                    for sub_name, sub in action.choices.items():
                        walk(sub, f"{name} {sub_name}", depth + 1)

        walk(parser, parser.prog, 2)
    finally:
        if saved is None:
            os.environ.pop("COLUMNS", None)
        else:
            os.environ["COLUMNS"] = saved
    return "\n".join(out)


def cli_page() -> str:
    return ("# Command line\n\nGenerated from the `mammamia` argument parser "
            "(`mammamia_ref.cli.app.build_parser`).\n\n" + cli_markdown())


def _docstring_md(text: str | None) -> str:
    """A docstring (reST-flavoured) as Markdown: doctests become code blocks."""
    if not text:
        return ""
    text = re.sub(r":(?:func|class|mod|meth|data|attr):`~?([^`]+)`", r"`\1`", text)
    text = text.replace("``", "`")
    out: list[str] = []
    in_code = False
    for line in text.splitlines():
        if line.startswith(">>>") and not in_code:
            if out and out[-1] != "":
                out.append("")
            out += ["```pycon", line]
            in_code = True
            continue
        if in_code:
            if line.strip() == "":
                out += ["```", ""]
                in_code = False
            else:
                out.append(line)
            continue
        stripped = line.lstrip()
        if stripped.startswith(("- ", "* ")) and out and out[-1] and \
                not out[-1].lstrip().startswith(("- ", "* ")) and not out[-1].startswith("  "):
            out.append("")
        out.append(_escape_outside_code(line))
    if in_code:
        out.append("```")
    return "\n".join(out)


def _escape_outside_code(line: str) -> str:
    parts = line.split("`")
    for i in range(0, len(parts), 2):
        parts[i] = parts[i].replace("<", "&lt;").replace("*", "\\*")
    return "`".join(parts)


def _signature(node: ast.FunctionDef | ast.AsyncFunctionDef, *, method: bool) -> str:
    args = ast.unparse(node.args)
    if method:
        args = re.sub(r"^self(, )?|^cls(, )?", "", args)
    returns = f" -> {ast.unparse(node.returns)}" if node.returns else ""
    return f"{node.name}({args}){returns}"


def _public(name: str) -> bool:
    return not name.startswith("_")


def module_markdown(path: Path, module: str) -> str:
    """One module's reference, read from its source with ``ast`` (nothing is imported)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    exported: list[str] | None = None
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__all__"
                                                for t in node.targets):
            try:
                exported = [str(x) for x in ast.literal_eval(node.value)]
            except ValueError:
                exported = None
    out = [f"## `{module}` {{ #{module.replace('.', '-')} }}", "",
           _docstring_md(ast.get_docstring(tree)), ""]
    for node in tree.body:
        if not isinstance(node, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        if not _public(node.name) or (exported is not None and node.name not in exported):
            continue
        if isinstance(node, ast.ClassDef):
            bases = ", ".join(ast.unparse(b) for b in node.bases)
            out += [f"### class `{node.name}{f'({bases})' if bases else ''}`", "",
                    _docstring_md(ast.get_docstring(node)), ""]
            for item in node.body:
                if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef) and \
                        _public(item.name) and ast.get_docstring(item):
                    out += [f"- `{_signature(item, method=True)}`: "
                            + " ".join((_docstring_md(ast.get_docstring(item))).split())]
            out.append("")
        else:
            out += [f"### `{_signature(node, method=False)}`", "",
                    _docstring_md(ast.get_docstring(node)), ""]
    return "\n".join(out)


def api_modules(package_dir: Path = PACKAGE_DIR) -> list[tuple[str, Path]]:
    """Every module of the package, sub-packages included: (dotted name, source file)."""
    found = []
    for path in sorted(package_dir.rglob("*.py")):
        relative = path.relative_to(package_dir)
        if path.stem == "__main__" or any(p.startswith((".", "_")) and p != "__init__.py"
                                          for p in relative.parts):
            continue
        parts = [package_dir.name, *relative.with_suffix("").parts]
        if parts[-1] == "__init__":
            parts.pop()
        found.append((".".join(parts), path))
    return sorted(found)


def api_markdown(package_dir: Path = PACKAGE_DIR) -> str:
    return "\n".join(module_markdown(path, name) for name, path in api_modules(package_dir))


def api_page() -> str:
    index = ", ".join(f"[`{n}`](#{n.replace('.', '-')})" for n, _ in api_modules())
    return ("# Python API\n\nThe reference implementation's modules, generated from their "
            "docstrings.\n\n" + index + "\n\n" + api_markdown())


# --- checking the built site --------------------------------------------------------------


class _LinkParser(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.ids: set[str] = set()
        self.links: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if values.get("id"):
            self.ids.add(str(values["id"]))
        if tag == "a" and values.get("name"):
            self.ids.add(str(values["name"]))
        for key in ("href", "src"):
            if tag in ("a", "link", "img", "script") and values.get(key):
                self.links.append(str(values[key]))


def broken_links(site_dir: str | Path) -> list[str]:
    """Every link in the built site (``*.html``) to a missing file or a missing anchor.
    External links (with a scheme) are not followed."""
    site = Path(site_dir)
    parsed: dict[Path, _LinkParser] = {}

    def parse(path: Path) -> _LinkParser:
        if path not in parsed:
            parser = _LinkParser()
            parser.feed(path.read_text(encoding="utf-8", errors="replace"))
            parsed[path] = parser
        return parsed[path]

    broken: list[str] = []
    for page in sorted(site.rglob("*.html")):
        if page.name == "404.html":
            continue
        for link in parse(page).links:
            parts = urlsplit(link)
            if parts.scheme or parts.netloc or link.startswith(("/", "data:")):
                continue
            target = page if not parts.path else (page.parent / unquote(parts.path)).resolve()
            if parts.path.endswith("/") or target.is_dir():
                target = target / "index.html"
            name = page.relative_to(site).as_posix()
            if not target.exists():
                broken.append(f"{name}: link to missing {link}")
                continue
            anchor = unquote(parts.fragment)
            if anchor and target.suffix == ".html" and anchor not in parse(target).ids:
                broken.append(f"{name}: link to missing anchor {link}")
    return broken


def write_pages(pages: dict[str, str], out_dir: str | Path) -> None:
    """Write generated pages to a folder (for looking at them without MkDocs)."""
    for name, content in pages.items():
        path = Path(out_dir) / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(content, encoding="utf-8")


__all__ = ["Corpus", "Problem", "ScenarioView", "Spec", "api_markdown", "broken_links",
           "cli_markdown", "generate", "load_corpus", "nav", "problems",
           "rel"]
