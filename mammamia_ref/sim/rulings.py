"""Rulings side by side: one scenario replayed under every ruling of some disputes, and
the steps where the outcomes part.

A designer asks "what does each reading do to this situation?". The scenario's actions
are replayed from its given state under every combination of the named disputes' flag
values (the rest of the run's variants kept); each step's outcome (the events, or the
rule that rejects the action) is recorded per ruling, and the steps whose outcomes
differ are the answer. A ruling under which an action the scenario expects to be
accepted is illegal stops there: what follows assumed that action, and is "not reached"
under that ruling. What is compared at the end is the whole position, its ``result``
(the winners and the deciding rule) and what each player sees of it.

The number of rulings is the product of the flags' values: it is bounded
(:data:`~mammamia_ref.formats.limits.RULINGS_MAX`) before any replay starts.
"""

from __future__ import annotations

import itertools
import json
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from mammamia_ref.errors import IllegalActionError, MammamiaError
from mammamia_ref.formats.jsonform import format_state
from mammamia_ref.formats.limits import RULINGS_MAX, bound_work
from mammamia_ref.formats.narrate import event_text, step_lines
from mammamia_ref.formats.scenario import Run, Scenario, given_state
from mammamia_ref.rules import specdata
from mammamia_ref.rules.actions import describe
from mammamia_ref.rules.events import format_event
from mammamia_ref.rules.game import apply, check_seat, to_move
from mammamia_ref.rules.observation import observation
from mammamia_ref.rules.state import GameState, variant_values


class UnknownDisputeError(MammamiaError):
    """``--rulings`` names a dispute the register lacks, or one without variant flags."""


@dataclass(frozen=True)
class Outcome:
    """What one step did under one ruling: its readable lines and its canonical form."""

    text: tuple[str, ...]
    canonical: tuple[Any, ...]
    stopped: bool = False     # the ruling's trace ends here

    @property
    def rejected(self) -> str | None:
        """The rule that refused the action, if it was refused."""
        kind = self.canonical[:1]
        return str(self.canonical[1]) if kind in (("rejected",), ("invalid",)) else None

    def as_json(self) -> dict[str, Any]:
        rejected = self.rejected
        return {"text": list(self.text), "events": [] if rejected else list(self.canonical),
                "rejected": rejected, "stopped": self.stopped}


@dataclass
class RulingTrace:
    """One ruling's replay: the flag values, an outcome per step (None once stopped)."""

    variants: dict[str, str]
    outcomes: list[Outcome | None] = field(default_factory=list)
    final: dict[str, Any] | None = None

    @property
    def label(self) -> str:
        return ", ".join(f"{k}={v}" for k, v in self.variants.items())


@dataclass
class Comparison:
    """A scenario run under every ruling: the steps, each ruling's trace, where they part."""

    scenario: str
    title: str
    file: str
    run: str
    disputes: tuple[str, ...]
    steps: list[tuple[int, str]]             # (step index, the action as written)
    traces: list[RulingTrace]

    def diverging_steps(self) -> list[int]:
        """The positions (in :attr:`steps`) where the outcomes of the rulings still in
        play differ (a ruling whose trace stopped earlier is not reached there)."""
        return [i for i in range(len(self.steps))
                if len({_key(t.outcomes[i]) for t in self.traces
                        if t.outcomes[i] is not None}) > 1]

    def not_reaching_the_end(self) -> list[int]:
        """The positions (in :attr:`traces`) of the rulings whose trace stopped."""
        return [i for i, t in enumerate(self.traces) if t.final is None]

    def final_differences(self) -> list[str]:
        """The parts of the state after the last step (its ``result`` and what each
        player sees included) that differ between the rulings that reach it."""
        finals = [t.final for t in self.traces if t.final is not None]
        keys = sorted({k for f in finals for k in f} - {"variants"})
        return [k for k in keys
                if len({json.dumps(_comparable(k, f.get(k)), sort_keys=True)
                        for f in finals}) > 1]

    def final_details(self, limit: int = 6) -> list[tuple[str, list[str]]]:
        """Where, inside the final state, the rulings differ: (path, each ruling's value
        as short JSON), at most ``limit`` of them; only when every ruling reaches it."""
        finals = [t.final for t in self.traces]
        if any(f is None for f in finals):
            return []
        found: list[tuple[str, list[str]]] = []
        for key in self.final_differences():
            _leaf_differences([_comparable(key, f.get(key)) for f in finals if f], key, found)
        return found[:limit]

    @property
    def diverges(self) -> bool:
        return bool(self.diverging_steps() or self.final_differences())

    def as_json(self) -> dict[str, Any]:
        diverging = set(self.diverging_steps())
        return {
            "scenario": self.scenario, "title": self.title, "file": self.file,
            "run": self.run, "disputes": list(self.disputes),
            "rulings": [t.variants for t in self.traces],
            "diverges": self.diverges,
            "steps": [{"step": index, "action": action, "diverges": i in diverging,
                       "outcomes": [_outcome_json(t.outcomes[i]) for t in self.traces]}
                      for i, (index, action) in enumerate(self.steps)],
            "final_state_differs_in": self.final_differences(),
            "final_results": [None if t.final is None else t.final.get("result")
                              for t in self.traces],
            "not_reaching_the_end": [self.traces[i].variants
                                     for i in self.not_reaching_the_end()],
            "final_state_details": [{"path": p, "values": [json.loads(v) for v in vs]}
                                    for p, vs in self.final_details(limit=50)],
        }


def _outcome_json(outcome: Outcome | None) -> dict[str, Any] | None:
    return None if outcome is None else outcome.as_json()


def _key(outcome: Outcome | None) -> Any:
    if outcome is None:
        return None
    return json.dumps([_without_rules(outcome.canonical), outcome.stopped], sort_keys=True)


def _comparable(key: str, value: Any) -> Any:
    """A part of the final state as compared: the ``result`` whole (its deciding rule is
    part of the answer), every other part without the rule IDs it cites."""
    return value if key == "result" else _without_rules(value)


def _leaf_differences(values: list[Any], path: str,
                      found: list[tuple[str, list[str]]]) -> None:
    """The innermost paths at which ``values`` (one per ruling) differ, appended to found."""
    if len({json.dumps(v, sort_keys=True) for v in values}) == 1:
        return
    if all(isinstance(v, dict) for v in values):
        for key in sorted({k for v in values for k in v}):
            _leaf_differences([v.get(key) for v in values], f"{path}/{key}", found)
        return
    if all(isinstance(v, list) for v in values) and len({len(v) for v in values}) == 1 \
            and values and values[0] and all(isinstance(x, dict) for x in values[0]):
        for i in range(len(values[0])):
            _leaf_differences([v[i] for v in values], f"{path}/{i}", found)
        return
    found.append((path, [json.dumps(v, sort_keys=True, ensure_ascii=False) for v in values]))


def _without_rules(value: Any) -> Any:
    """``value`` without the rule IDs it cites and the variants it records: two rulings
    that do the same thing under different rule IDs have the same outcome.

    >>> _without_rules([{"event": "drew", "rule": "turn.draw", "count": 2}])
    [{'event': 'drew', 'count': 2}]
    """
    if isinstance(value, dict):
        return {k: _without_rules(v) for k, v in value.items() if k not in ("rule", "variants")}
    if isinstance(value, list | tuple):
        return [_without_rules(v) for v in value]
    return value


def dispute_flags(dispute_ids: Sequence[str]) -> dict[str, tuple[str, ...]]:
    """The variant flags of the named disputes and their values, in the order named."""
    disputes = {d["id"]: d for d in specdata.disputes()}
    values = variant_values()
    flags: dict[str, tuple[str, ...]] = {}
    for dispute_id in dispute_ids:
        if dispute_id not in disputes:
            from difflib import get_close_matches

            near = get_close_matches(dispute_id, list(disputes), n=1)
            hint = f"; did you mean {near[0]}?" if near else "; `mammamia disputes` lists them"
            raise UnknownDisputeError(f"no dispute {dispute_id!r}{hint}")
        named = disputes[dispute_id].get("flags") or []
        if not named:
            raise UnknownDisputeError(f"dispute {dispute_id} has no variant flags: its ruling "
                                      "is the only reading the code plays")
        for flag in named:
            flags[flag] = values[flag]
    return flags


def ruling_count(flags: dict[str, tuple[str, ...]]) -> int:
    """How many rulings the flags make (the product of their values' counts), refused
    past :data:`RULINGS_MAX` before any is replayed."""
    count = math.prod(len(values) for values in flags.values())
    return bound_work(f"--rulings over {', '.join(flags)}: the rulings", count, RULINGS_MAX,
                      "name fewer disputes (each multiplies the rulings by its values)")


def rulings(flags: dict[str, tuple[str, ...]]) -> list[dict[str, str]]:
    """Every combination of the flags' values (the first flag varies slowest).

    >>> rulings({"a": ("x", "y"), "b": ("1",)})
    [{'a': 'x', 'b': '1'}, {'a': 'y', 'b': '1'}]
    """
    names = list(flags)
    return [dict(zip(names, combo, strict=True))
            for combo in itertools.product(*(flags[n] for n in names))]


def replay(scenario: Scenario, run: Run, variants: dict[str, str]) -> RulingTrace:
    """The run's actions from its given state, with ``variants`` over the run's own."""
    trace = RulingTrace(variants)
    actions = [step for step in run.steps if step.action is not None]
    merged = Run(run.name, {**run.variants, **variants}, run.steps, run.parameters)
    try:
        state = given_state(scenario, merged)
    except MammamiaError as exc:  # the given state itself is impossible under this ruling
        trace.outcomes = [Outcome((f"no game: {exc}",), ("invalid", str(exc)), True)]
        trace.outcomes += [None] * (len(actions) - 1)
        return trace
    stopped = False
    for step in actions:
        assert step.action is not None
        if stopped:
            trace.outcomes.append(None)
            continue
        actor = to_move(state)
        try:
            if step.by is not None:  # the step names who acts: a wrong seat is refused
                check_seat(state, state.seat_of(step.by))
            after, events = apply(state, step.action)
        except IllegalActionError as exc:
            who = state.config.colours[actor] if actor is not None else "chance"
            stopped = step.reject is None
            text = f"{who}: {describe(step.action)}, refused under this ruling ({exc.rule})" \
                + ("; the rest is not reached" if stopped else "")
            trace.outcomes.append(Outcome((text,), ("rejected", exc.rule), stopped))
            continue
        lines = step_lines(step.action, events, actor, state.config)
        trace.outcomes.append(Outcome((lines[0].strip(), *(event_text(e, state.config)
                                                           for e in events)),
                                      tuple(format_event(e) for e in events)))
        state = after
    trace.final = None if stopped else _final(state)
    return trace


def _final(state: GameState) -> dict[str, Any]:
    """The state after the last step, and what each player sees of it: the information
    flags change only the latter."""
    final = dict(format_state(state, result=True))
    for seat, colour in enumerate(state.config.colours):
        final[f"what {colour} sees"] = observation(state, seat).to_json()
    return final


def compare_rulings(scenario: Scenario, dispute_ids: Sequence[str],
                    run_name: str | None = None) -> Comparison:
    """The scenario's run (the first unless named) under every ruling of the disputes."""
    runs = {run.name: run for run in scenario.runs}
    if run_name is not None and run_name not in runs:
        raise UnknownDisputeError(f"scenario {scenario.id} has no run {run_name!r}; "
                                  f"its runs: {', '.join(runs)}")
    run = runs[run_name] if run_name else scenario.runs[0]
    flags = dispute_flags(dispute_ids)
    ruling_count(flags)
    steps = [(s.index, describe(s.action)) for s in run.steps if s.action is not None]
    traces = [replay(scenario, run, ruling) for ruling in rulings(flags)]
    return Comparison(scenario.id, scenario.title, scenario.file, run.name,
                      tuple(dispute_ids), steps, traces)


def first_divergence(scenarios: Sequence[Scenario], dispute_id: str) -> Comparison | None:
    """The first scenario (and run) whose outcome differs between the dispute's rulings."""
    for scenario in scenarios:
        for run in scenario.runs:
            try:
                found = compare_rulings(scenario, [dispute_id], run.name)
            except MammamiaError:
                continue
            if found.diverges:
                return found
    return None


__all__ = ["Comparison", "Outcome", "RulingTrace", "UnknownDisputeError", "compare_rulings",
           "dispute_flags", "first_divergence", "replay", "ruling_count", "rulings"]
