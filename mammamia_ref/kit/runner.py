"""Running an implementation through the scenarios, the counting tables and random
games, in lockstep with the reference, reporting the first divergent step."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from mammamia_ref.errors import IllegalActionError, MalformedError
from mammamia_ref.formats.jsonform import format_state, parse_state
from mammamia_ref.formats.output import write_atomically

# The counting tables are read in formats; named here too for the kit's callers.
from mammamia_ref.formats.perft_table import PerftTable as PerftTable
from mammamia_ref.formats.perft_table import load_perft_table as load_perft_table
from mammamia_ref.formats.perft_table import load_perft_tables as load_perft_tables
from mammamia_ref.formats.scenario import (
    Run,
    Scenario,
    given_state,
    needs_observation,
    project_diff,
)
from mammamia_ref.kit.client import Implementation, ImplementationError
from mammamia_ref.rules.actions import Action, format_action
from mammamia_ref.rules.chance import ChanceSource
from mammamia_ref.rules.events import format_event
from mammamia_ref.rules.game import (
    apply,
    decision_rule,
    is_chance,
    is_over,
    legal_actions,
    new_game,
)
from mammamia_ref.rules.observation import observation
from mammamia_ref.rules.state import GameConfig, GameState, make_config, variant_defaults
from mammamia_ref.rules.vocabulary import MAX_PLAYERS, MIN_PLAYERS
from mammamia_ref.sim.perft import action_key, divide


@dataclass
class CaseResult:
    """The outcome of one case: a scenario run, a counting table or a random game."""

    kind: str          # "scenario", "perft" or "random"
    name: str
    status: str        # "pass", "fail", "skip", "error", "xfail", "xpass"
    rules: tuple[str, ...] = ()
    step: int | None = None
    message: str = ""
    seconds: float = 0.0
    file: str | None = None
    written: str | None = None   # a scenario file written to reproduce a divergence

    def as_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "name": self.name, "status": self.status,
                "rules": list(self.rules), "step": self.step, "message": self.message,
                "seconds": round(self.seconds, 4), "file": self.file, "written": self.written}


class Divergence(Exception):
    """The implementation and the reference disagree; ``rules`` are those involved."""

    def __init__(self, step: int | None, message: str, rules: Iterable[str] = ()) -> None:
        super().__init__(message)
        self.step = step
        self.rules = tuple(rules)


def supports(info: dict[str, Any], variants: dict[str, str]) -> str | None:
    """Why the implementation cannot run a game under ``variants`` (None if it can)."""
    offered = info.get("variants") or {}
    defaults = variant_defaults()
    for flag, value in variants.items():
        values = offered.get(flag, [defaults.get(flag)])
        if value not in values:
            return f"does not support the variant {flag}={value}"
    return None


class Lockstep:
    """The reference and the implementation driven through the same actions."""

    def __init__(self, impl: Implementation, state: GameState) -> None:
        self.impl = impl
        self.state = state
        self.events_feature = "events" in (impl.info.get("features") or [])

    def compare_state(self, answer: dict[str, Any], step: int | None, rules: Iterable[str],
                      what: str) -> None:
        expected = format_state(self.state)
        actual = answer.get("state")
        problems = project_diff(actual, expected) if isinstance(actual, dict) else \
            ["/: the answer holds no state"]
        if problems:
            raise Divergence(step, f"{what}: the state differs from the reference:\n"
                             + "\n".join(f"  state{p}" for p in problems[:20]), rules)

    def compare_legal(self, step: int | None) -> None:
        if is_chance(self.state) or is_over(self.state):
            return
        answer = self.impl.request("legal_actions")
        actual_raw = answer.get("actions")
        if not isinstance(actual_raw, list):
            raise Divergence(step, "legal_actions: the answer holds no list of actions")
        actual = {action_key(a) for a in actual_raw if isinstance(a, dict)}
        expected = {action_key(format_action(a)) for a in legal_actions(self.state)}
        if actual != expected:
            lines = [f"  legal but not in the reference: {a}" for a in sorted(actual - expected)]
            lines += [f"  missing (legal in the reference): {a}"
                      for a in sorted(expected - actual)]
            raise Divergence(step, "legal actions differ:\n" + "\n".join(lines[:20]),
                             [decision_rule(self.state)])

    def compare_observations(self, players: Iterable[str | None], step: int | None) -> None:
        """Feature ``observation``: each named seat's view (None: a spectator's) must be
        the reference's, key for key."""
        for colour in players:
            if colour is not None and colour not in self.state.config.colours:
                continue  # the scenario itself fails on a colour no seat has
            seat = None if colour is None else self.state.seat_of(colour)
            answer = self.impl.request("observation", player=seat)
            expected = observation(self.state, seat).to_json()
            actual = answer.get("observation")
            problems = project_diff(actual, expected) if isinstance(actual, dict) else \
                ["/: the answer holds no observation"]
            if problems:
                who = "a spectator" if seat is None else colour
                raise Divergence(step, f"the observation of {who} differs from the "
                                 "reference:\n" + "\n".join(f"  observation{p}"
                                                               for p in problems[:20]),
                                 _information_rules(problems, self.state))

    def step(self, action: Action, index: int | None) -> tuple[str, ...]:
        """Apply ``action`` on both sides; raise Divergence on any disagreement.
        Returns the rules of the reference's events (or of its rejection)."""
        answer = self.impl.request("apply", action=format_action(action))
        try:
            after, events = apply(self.state, action)
        except IllegalActionError as exc:
            rejected = answer.get("rejected")
            if not isinstance(rejected, dict):
                raise Divergence(index, f"{_show(action)} was accepted; the reference rejects "
                                 f"it under {exc.rule}", [exc.rule]) from None
            if rejected.get("rule") != exc.rule:
                raise Divergence(index, f"{_show(action)} was rejected under "
                                 f"{rejected.get('rule')!r}; the reference rejects it under "
                                 f"{exc.rule}", [exc.rule]) from None
            return (exc.rule,)
        rules = tuple(dict.fromkeys(e.rule for e in events))
        if isinstance(answer.get("rejected"), dict):
            theirs = answer["rejected"].get("rule")
            raise Divergence(index, f"{_show(action)} was rejected under {theirs!r}; the "
                             "reference accepts it",
                             [theirs if isinstance(theirs, str) and theirs else "turn.play",
                              *rules])
        self.state = after
        expected = [format_event(e) for e in events]
        if self.events_feature and answer.get("events") != expected:
            actual = answer.get("events")
            actual = actual if isinstance(actual, list) else []
            first = next((i for i in range(max(len(actual), len(expected)))
                          if i >= len(actual) or i >= len(expected) or actual[i] != expected[i]),
                         0)
            culprits = [e["rule"] for e in (expected[first:first + 1] + actual[first:first + 1])
                        if isinstance(e, dict) and isinstance(e.get("rule"), str)]
            raise Divergence(index, f"after {_show(action)} the events differ from event "
                             f"{first} on:\n  expected {json.dumps(expected[first:first + 3])}"
                             f"\n  got      {json.dumps(actual[first:first + 3])}",
                             [*culprits, *rules])
        try:
            self.compare_state(answer, index, rules, f"after {_show(action)}")
        except Divergence as exc:
            exc.rules = tuple(dict.fromkeys((*_touching(expected, str(exc)), *rules)))
            raise
        return rules


# Which parts of the state each event changes, most telling events first: used to
# name the rules behind a state difference when the implementation reports no events.
_TOUCHES = {
    "failed": ("waiter",), "baked": ("delivered", "table", "used", "hand"),
    "completed_from_hand": ("hand", "used"), "named_kind": ("reveal",),
    "drew": ("hand", "supply", "waiter"), "mamma_mia_drawn": ("mamma_mia", "supply"),
    "mamma_mia_taken": ("mamma_mia", "supply"), "mamma_mia_dealt": ("mamma_mia",),
    "placed_order": ("oven", "hand"), "played": ("oven", "hand"), "passed": ("step",),
    "leftovers_to_oven": ("oven", "table"), "leftovers_stay": ("table",),
    "supply_gathered": ("supply", "used"), "round_ended": ("phase",),
    "revealed": ("table", "oven"), "turn_begins": ("current", "step"),
}


def _touching(events: list[dict[str, Any]], diff: str) -> list[str]:
    """The rules of the events that change a part of the state named in ``diff``."""
    rules = []
    for name, parts in _TOUCHES.items():
        if any(f"/{part}" in diff for part in parts):
            rules += [e["rule"] for e in events if e["event"] == name]
    return list(dict.fromkeys(rules))


def _information_rules(problems: list[str], state: GameState) -> list[str]:
    """The information rules behind differences in an observation, by the keys named."""
    v = state.variants
    parts = {
        "/hand": ["information.hands"],
        "/oven": ["information.oven_seen" if v["oven_memory"] == "seen"
                  else "information.oven_announced"],
        "_size": ["information.counts" if v["card_counts"] == "public"
                  else "information.counts_hidden"],
        "/used": ["information.used_open" if v["used_pile"] == "open"
                  else "information.used_closed"],
    }
    rules = [rule for part, named in parts.items() if any(part in p for p in problems)
             for rule in named]
    return list(dict.fromkeys(rules or ["information.face_up"]))


def _show(action: Action) -> str:
    return json.dumps(format_action(action), separators=(",", ":"))


def start_game(impl: Implementation, state: GameState, *, from_setup: bool) -> dict[str, Any]:
    """Put the implementation in ``state``: by ``new_game`` or by ``load_state``."""
    if from_setup:
        config = state.config
        return impl.request("new_game", players=config.players, colours=list(config.colours),
                            first_player=config.first_player, variants=config.variants.as_dict())
    return impl.request("load_state", state=format_state(state))


# --- scenarios ----------------------------------------------------------------------


def run_scenario_case(impl: Implementation, scenario: Scenario, run: Run) -> CaseResult:
    name = scenario.id if run.name == "default" else f"{scenario.id}[{run.name}]"
    result = CaseResult("scenario", name, "pass", scenario.rules, file=scenario.file)
    features = impl.info.get("features") or []
    from_setup = "setup" in scenario.given
    if not from_setup and "load_state" not in features:
        return _skip(result, "needs the load_state feature")
    if needs_observation(run) and "observation" not in features:
        return _skip(result, "needs the observation feature")
    reference = given_state(scenario, run)
    why = supports(impl.info, reference.variants.non_default())
    if why:
        return _skip(result, why)
    lockstep = Lockstep(impl, reference)
    try:
        lockstep.compare_state(start_game(impl, reference, from_setup=from_setup), None,
                               scenario.rules, "the given state")
        lockstep.compare_legal(None)
        for step in run.steps:
            if step.action is not None:
                lockstep.step(step.action, step.index)
            lockstep.compare_legal(step.index)
            lockstep.compare_observations([item["player"] for item in
                                           step.expect.get("observation", [])], step.index)
    except Divergence as exc:
        result.status, result.step, result.message = "fail", exc.step, str(exc)
        result.rules = tuple(dict.fromkeys((*exc.rules, *scenario.rules)))
    return result


def _skip(result: CaseResult, why: str) -> CaseResult:
    result.status, result.message = "skip", why
    return result


# --- counting tables ----------------------------------------------------------------


def impl_perft(impl: Implementation, state: dict[str, Any], depth: int) -> int:
    """Count with the implementation, which must stand at ``state`` when called."""
    if depth == 0 or state.get("phase") in ("shuffle", "over"):
        return 1
    actions = _listed_actions(impl)
    if depth == 1:
        return len(actions)
    return sum(_child_count(impl, state, action, depth, first=i == 0)
               for i, action in enumerate(actions))


def _child_count(impl: Implementation, state: dict[str, Any], action: Any, depth: int,
                 *, first: bool) -> int:
    if not first:  # the previous child moved the implementation on: go back
        impl.request("load_state", state=state)
    answer = impl.request("apply", action=action)
    if not isinstance(answer.get("state"), dict):
        raise Divergence(None, f"a listed legal action was rejected: {action}")
    return impl_perft(impl, answer["state"], depth - 1)


def _listed_actions(impl: Implementation) -> list[Any]:
    actions = impl.request("legal_actions").get("actions")
    if not isinstance(actions, list):
        raise Divergence(None, "legal_actions: the answer holds no list of actions")
    return actions


def impl_divide(impl: Implementation, state: dict[str, Any], depth: int) -> dict[str, int]:
    impl.request("load_state", state=state)
    actions = _listed_actions(impl)
    return {action_key(action): _child_count(impl, state, action, depth, first=i == 0)
            for i, action in enumerate(actions)}


def run_perft_case(impl: Implementation, table: PerftTable, max_nodes: int) -> CaseResult:
    result = CaseResult("perft", table.id, "pass", file=table.file)
    if "load_state" not in (impl.info.get("features") or []):
        return _skip(result, "needs the load_state feature")
    reference = parse_state(table.state)
    why = supports(impl.info, reference.variants.non_default())
    if why:
        return _skip(result, why)
    for depth, nodes in sorted(table.counts.items()):
        if nodes > max_nodes:
            break
        try:
            impl.request("load_state", state=table.state)
            got = impl_perft(impl, table.state, depth)
            theirs = impl_divide(impl, table.state, depth) if got != nodes else {}
        except Divergence as exc:
            result.status, result.step, result.message = "fail", depth, f"perft {depth}: {exc}"
            return result
        if got != nodes:
            ours = divide(reference, depth)
            rows = [f"  {key}: expected {ours.get(key, 0)}, got {theirs.get(key, 0)}"
                    for key in sorted(set(ours) | set(theirs))
                    if ours.get(key, 0) != theirs.get(key, 0)]
            result.status, result.step = "fail", depth
            result.message = (f"perft {depth}: expected {nodes} nodes, got {got}; divide:\n"
                              + "\n".join(rows[:30]))
            return result
    return result


# --- differential random games ------------------------------------------------------


def run_random_game(impl: Implementation, config: GameConfig, seed: int,
                    write_to: Path | None, max_steps: int = 5000) -> CaseResult:
    name = f"random-{config.players}p-seed{seed}"
    variants = config.variants.non_default()
    if variants:
        name += "-" + "-".join(f"{k}={v}" for k, v in sorted(variants.items()))
    result = CaseResult("random", name, "pass")
    why = supports(impl.info, variants)
    if why:
        return _skip(result, why)
    chance = ChanceSource(seed)
    rng = random.Random(f"mammamia-differential:{seed}")
    state = parse_state(format_state(_new(config)))
    lockstep = Lockstep(impl, state)
    index = 0
    try:
        lockstep.compare_state(start_game(impl, state, from_setup=True), None, (), "new_game")
        while not is_over(lockstep.state) and index < max_steps:
            before = lockstep.state
            action: Action
            if is_chance(before):
                action = chance.shuffle(before)
            else:
                lockstep.compare_legal(index)
                action = rng.choice(legal_actions(before))
            try:
                lockstep.step(action, index)
            except Divergence as exc:
                if write_to is not None:
                    result.written = str(write_divergence(write_to, name, index, before, action,
                                                          exc.rules))
                raise
            index += 1
    except Divergence as exc:
        result.status, result.step, result.message = "fail", exc.step, str(exc)
        result.rules = exc.rules
    return result


def _new(config: GameConfig) -> GameState:
    return new_game(config)


def write_divergence(folder: Path, name: str, index: int, before: GameState, action: Action,
                     rules: tuple[str, ...]) -> Path:
    """The smallest scenario that reproduces a divergence: the full state before the
    step, the one action, and what the reference makes of it."""
    scenario_id = f"divergence-{name}-step{index}".lower().replace("=", "-").replace("_", "-")
    step: dict[str, Any] = {"do": format_action(action)}
    try:
        after, events = apply(before, action)
        step["expect"] = {"state": format_state(after),
                          "events": [{"event": e.name, "rule": e.rule} for e in events]}
    except IllegalActionError as exc:
        step["reject"] = {"rule": exc.rule}
    doc = {"id": scenario_id,
           "title": f"Divergence found by a random game ({name}, step {index})",
           "description": "Written by `mammamia conform`: the state just before the first "
                          "divergent step, the action, and what the reference does.",
           "rules": list(rules) or ["turn.play"],
           "given": {"state": format_state(before)},
           "steps": [step]}
    path = folder / f"{scenario_id}.yaml"
    write_atomically(path, yaml.safe_dump(doc, sort_keys=False, allow_unicode=True))
    return path


def random_configs(players: Iterable[int] | None = None) -> list[GameConfig]:
    counts = list(players or range(MIN_PLAYERS, MAX_PLAYERS + 1))
    return [make_config(n) for n in counts]


# --- the whole run ------------------------------------------------------------------


@dataclass
class ConformRun:
    impl: Implementation
    budget: float = 600.0
    results: list[CaseResult] = field(default_factory=list)
    interrupted: bool = False
    on_result: Callable[[CaseResult], None] | None = None

    def __post_init__(self) -> None:
        self.deadline = time.monotonic() + self.budget

    def case(self, name: str, kind: str, body: Callable[[], CaseResult],
             rules: tuple[str, ...] = (), file: str | None = None) -> None:
        """Run one case; a broken implementation is recorded and restarted."""
        started = time.monotonic()
        if started > self.deadline:
            result = CaseResult(kind, name, "error", rules, message="the run's time budget "
                                "is spent", file=file)
        else:
            try:
                if not self.impl.alive:
                    self.impl.restart()
                result = body()
            except ImplementationError as exc:
                result = CaseResult(kind, name, "error", rules, message=str(exc), file=file)
                self.impl.close()
            except MalformedError as exc:
                result = CaseResult(kind, name, "error", rules, message=str(exc), file=file)
        result.seconds = time.monotonic() - started
        self.results.append(result)
        if self.on_result:
            self.on_result(result)
