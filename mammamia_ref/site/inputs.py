"""The site's inputs: the registers of ``spec/`` and every scenario, played once with
the reference so that the pages can show the position after every step.

Nothing here writes Markdown; the page modules read a :class:`Corpus`.
"""

from __future__ import annotations

import posixpath
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from mammamia_ref.errors import IllegalActionError, MammamiaError
from mammamia_ref.formats.scenario import Scenario, given_state, load_all
from mammamia_ref.rules import specdata
from mammamia_ref.rules.actions import Action
from mammamia_ref.rules.events import Event
from mammamia_ref.rules.game import apply, to_move
from mammamia_ref.rules.state import GameState
from mammamia_ref.sim.scenario_run import RunResult, run_one


@dataclass
class Spec:
    """The three registers, the queries (when there are any) and the game flow as loaded
    documents; a test builds one from altered copies to see what the checks make of it."""

    rules_doc: dict[str, Any]
    disputes_doc: dict[str, Any]
    cards_doc: dict[str, Any]
    queries_doc: Any = None
    flow_doc: Any = field(default_factory=lambda: specdata.load_yaml("flow.yaml"))

    @classmethod
    def live(cls) -> Spec:
        queries = None
        path = specdata.spec_path("queries.yaml")
        if path.exists():
            queries = specdata.load_yaml("queries.yaml")
        return cls(specdata.load_yaml("rules.yaml"), specdata.load_yaml("disputes.yaml"),
                   specdata.cards(), queries, specdata.load_yaml("flow.yaml"))

    # The look-ups below are asked for tens of thousands of times a build (every rule
    # link), so each is made once: a Spec is not changed after it is made (a test that
    # alters a register makes a new Spec from altered copies).

    @cached_property
    def editions(self) -> dict[str, dict[str, Any]]:
        return {e["id"]: e for e in self.rules_doc.get("editions", [])}

    @property
    def chapters(self) -> list[dict[str, Any]]:
        return list(self.rules_doc.get("chapters", []))

    @property
    def rules(self) -> list[dict[str, Any]]:
        return list(self.rules_doc.get("rules", []))

    @cached_property
    def rule_by_id(self) -> dict[str, dict[str, Any]]:
        return {r["id"]: r for r in self.rules}

    @property
    def disputes(self) -> list[dict[str, Any]]:
        return list(self.disputes_doc.get("disputes", []))

    @cached_property
    def dispute_by_id(self) -> dict[str, dict[str, Any]]:
        return {d["id"]: d for d in self.disputes}

    @cached_property
    def flags(self) -> dict[str, dict[str, Any]]:
        return {v["flag"]: v for v in self.disputes_doc.get("variants", [])}

    def is_variant_rule(self, rule_id: str) -> bool:
        """True for a rule that applies only under a non-default flag value."""
        rule = self.rule_by_id.get(rule_id, {})
        flags = self.flags
        return any(flags.get(flag, {}).get("default") != value
                   for flag, value in (rule.get("when") or {}).items())

    def edition_title(self, edition_id: str) -> str:
        """An edition as the pages name it; an unknown one says so (the checks report it)."""
        edition = self.editions.get(edition_id)
        return f"{edition_id}: {edition['title']}" if edition else \
            f"{edition_id} (unknown edition)"


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
    """One run of a scenario as the site tells it: its steps as played, or why it could
    not start."""

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
    """A scenario with the page it gets and every run played."""

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
    """Everything the pages are made from: played once, before any page is written, so
    that the checks and the pages see the same runs."""

    spec: Spec
    scenarios: list[ScenarioView]
    load_errors: list[str]
    impact: list[dict[str, Any]] = field(default_factory=list)  # sweeps, docs/impact/
    house: list[dict[str, Any]] = field(default_factory=list)  # sweeps, docs/house-rules/

    def scenarios_citing(self, rule_id: str) -> list[ScenarioView]:
        return [s for s in self.scenarios if rule_id in s.scenario.rules]

    def groups(self) -> dict[str, list[ScenarioView]]:
        groups: dict[str, list[ScenarioView]] = {}
        for view in sorted(self.scenarios, key=lambda v: (v.group, v.id)):
            groups.setdefault(view.group, []).append(view)
        return groups


def load_corpus(scenario_paths: Sequence[str | Path], spec: Spec | None = None, *,
                impact: str | Path | None = None, house: str | Path | None = None) -> Corpus:
    """Load every scenario under ``scenario_paths`` and play each of its runs, the
    dispute-impact sweeps in the folder ``impact`` and the house-rule sweeps in the
    folder ``house``, if given."""
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
    return Corpus(spec, views, load_errors, load_sweeps(impact) if impact else [],
                  load_sweeps(house) if house and Path(house).is_dir() else [])


def _group_of(file: Path, roots: Sequence[Path]) -> str:
    """The scenario's folder under the root it was found in: its group, and its pages'
    folder."""
    for root in roots:
        base = root if root.is_dir() else root.parent
        try:
            return file.parent.relative_to(base).as_posix().strip(".")
        except ValueError:
            continue
    return ""


def play_run(scenario: Scenario, run: Any, number: int = 0) -> RunView:
    """Play one run with the reference, keeping the position after every step, and
    judge it with :func:`mammamia_ref.sim.scenario_run.run_one`."""
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
