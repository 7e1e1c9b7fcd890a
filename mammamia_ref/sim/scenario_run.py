"""Running a scenario against the reference: each run plays its steps from the given
state and stops at the first step where what happens differs from what the scenario
expects. The scenario itself (its file, its checks, its given state) is read in
:mod:`mammamia_ref.formats.scenario`; how a state or an event is compared with an
expectation's projection is the format's (``project_diff``, ``events_diff`` there).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from mammamia_ref.errors import IllegalActionError, MalformedError
from mammamia_ref.formats.jsonform import format_state
from mammamia_ref.formats.scenario import (
    Run,
    Scenario,
    Step,
    events_diff,
    given_state,
    project_diff,
)
from mammamia_ref.rules.actions import Action, format_action, parse_action
from mammamia_ref.rules.events import Event, format_event
from mammamia_ref.rules.game import apply, check_seat, is_over, legal_actions, to_move, winners
from mammamia_ref.rules.observation import observation
from mammamia_ref.rules.state import GameState

__all__ = ["RunResult", "StepTrace", "check_expectation", "run_one", "run_scenario"]


@dataclass
class StepTrace:
    index: int
    action: Action
    actor: int | None
    events: tuple[Event, ...]


@dataclass
class RunResult:
    scenario: str
    run: str
    file: str
    passed: bool
    failure: str | None = None      # the first divergence, readable
    step: int | None = None         # the index of the step where it diverged
    line: int | None = None
    trace: list[StepTrace] = field(default_factory=list)
    config: Any = None

    @property
    def name(self) -> str:
        return self.scenario if self.run == "default" else f"{self.scenario}[{self.run}]"


def run_scenario(scenario: Scenario) -> list[RunResult]:
    return [run_one(scenario, run) for run in scenario.runs]


def run_one(scenario: Scenario, run: Run) -> RunResult:
    """One run replayed. A starting state its rules refuse (a house rule laid under the
    run by ``scenario run --house`` whose hand limit its hands exceed, say) is this
    run's failure, naming the file; the other runs go on."""
    try:
        state = given_state(scenario, run)
    except MalformedError as exc:
        return RunResult(scenario.id, run.name, scenario.file, False,
                         failure=f"the starting state is refused under the run's rules: {exc}",
                         step=0)
    result = RunResult(scenario.id, run.name, scenario.file, True, config=state.config)
    for step in run.steps:
        events: tuple[Event, ...] = ()
        if step.action is not None:
            actor = to_move(state)
            try:
                if step.by is not None:
                    check_seat(state, state.seat_of(step.by))
                after, events = apply(state, step.action)
            except IllegalActionError as exc:
                refused = _refused(result, state, step, step.action, actor, exc)
                if refused is not None:
                    return refused
                continue
            if step.reject is not None:
                return _diverged(result, step, f"the action {format_action(step.action)} was "
                                 f"accepted; expected a rejection under {step.reject}")
            result.trace.append(StepTrace(step.index, step.action, actor, events))
            state = after
        problems = check_expectation(state, events, step.expect)
        if problems:
            return _diverged(result, step, "\n".join(problems))
    return result


def _refused(result: RunResult, state: GameState, step: Step, action: Action,
             actor: int | None, exc: IllegalActionError) -> RunResult | None:
    """A step's action refused by the rules: the run's divergence unless the step
    expects that rejection, under that rule; then the rejection is traced and the
    step's expectation checked on the unchanged state (None: the run goes on)."""
    if step.reject is None:
        return _diverged(result, step, f"the action {format_action(action)} was "
                         f"rejected: {exc}")
    if exc.rule != step.reject:
        return _diverged(result, step, f"rejected under rule {exc.rule}, "
                         f"expected rule {step.reject}")
    result.trace.append(StepTrace(step.index, action, actor, (Event("rejected", exc.rule),)))
    problems = check_expectation(state, (), step.expect)
    return _diverged(result, step, "\n".join(problems)) if problems else None


def _diverged(result: RunResult, step: Step, message: str) -> RunResult:
    result.passed = False
    result.failure = message
    result.step = step.index
    result.line = step.line
    return result


def check_expectation(state: GameState, events: tuple[Event, ...],
                      expect: dict[str, Any]) -> list[str]:
    """Every way ``state`` and ``events`` differ from ``expect`` (empty when they agree)."""
    problems: list[str] = []
    if "state" in expect:
        # with the result once the game is over, as every state the protocol sends
        problems += [f"state{p}" for p in project_diff(format_state(state, result=True),
                                                      expect["state"], state)]
    if "events" in expect:
        problems += events_diff([format_event(e) for e in events], expect["events"])
    if "events_exact" in expect:
        problems += _exact_events_diff([format_event(e) for e in events], expect["events_exact"])
    if "legal" in expect:
        problems += _legal_diff(state, expect["legal"])
    for item in expect.get("observation", []):
        problems += observation_diff(state, item)
    if "to_move" in expect:
        seat = to_move(state)
        actual_mover = None if seat is None else state.colour(seat)
        if actual_mover != expect["to_move"]:
            problems.append(f"to_move: expected {expect['to_move']}, got {actual_mover}")
    if "winners" in expect or "winner_rule" in expect:
        problems += _winners_diff(state, expect)
    return problems


def _exact_events_diff(actual: list[dict[str, Any]], wanted: list[dict[str, Any]]
                       ) -> list[str]:
    """``events_exact``: every event, in order, each compared on the keys it names."""
    if len(actual) != len(wanted) or any(project_diff(a, w) for a, w in
                                         zip(actual, wanted, strict=False)):
        got = "; ".join(json.dumps(e) for e in actual) or "no events"
        return [f"events_exact: expected {json.dumps(wanted)}; got: {got}"]
    return []


def _legal_diff(state: GameState, expected: list[Any]) -> list[str]:
    """``legal``: the legal actions, all of them and no other."""
    legal = {_key(format_action(a)) for a in legal_actions(state)}
    listed = {_key(format_action(parse_action(a))) for a in expected}
    return [f"legal: {extra} is legal but not expected" for extra in sorted(legal - listed)] \
        + [f"legal: {missing} is expected but not legal" for missing in sorted(listed - legal)]


def _winners_diff(state: GameState, expect: dict[str, Any]) -> list[str]:
    """``winners`` and ``winner_rule``: who won the game over, and by which rule."""
    if not is_over(state):
        return ["winners: the game has not ended"]
    problems = []
    seats, rule = winners(state)
    won = [state.colour(s) for s in seats]
    if "winners" in expect and sorted(won) != sorted(expect["winners"]):
        problems.append(f"winners: expected {expect['winners']}, got {won}")
    if "winner_rule" in expect and rule != expect["winner_rule"]:
        problems.append(f"winner_rule: expected {expect['winner_rule']}, got {rule}")
    return problems


def observation_diff(state: GameState, item: dict[str, Any]) -> list[str]:
    """How the observation of ``item["player"]`` (a colour, or null for a spectator)
    differs from the projection ``item["view"]``, compared like a state projection."""
    colour = item["player"]
    name = f"observation[{colour or 'spectator'}]"
    if colour is not None and colour not in state.config.colours:
        return [f"{name}: no seat has the colour {colour}"]
    seat = None if colour is None else state.seat_of(colour)
    return [f"{name}{p}" for p in project_diff(observation(state, seat).to_json(),
                                               item["view"], state)]


def _key(action: dict[str, Any]) -> str:
    return json.dumps(action, sort_keys=True)
