"""The cases a port is run through: a scenario run, a counting table, a differential
random game (with its probes); each gives one :class:`CaseResult`."""

from __future__ import annotations

import json
import random
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from mammamia_ref.errors import IllegalActionError, MalformedError
from mammamia_ref.formats.jsonform import format_state, parse_state
from mammamia_ref.formats.output import write_atomically
from mammamia_ref.formats.perft_table import PerftTable
from mammamia_ref.formats.scenario import (
    Run,
    Scenario,
    Step,
    events_diff,
    given_state,
    needs_observation,
    needs_seats,
    project_diff,
)
from mammamia_ref.kit.compare import short
from mammamia_ref.kit.diagnose import rules_in_force
from mammamia_ref.kit.lockstep import Connection, Divergence, Lockstep, second_play, start_game
from mammamia_ref.kit.terms import OutOfTerms, Terms, number_in_words, supports_rules, terms_of
from mammamia_ref.rules.actions import (
    Action,
    Decline,
    Draw,
    NameKind,
    NoOrder,
    Pass,
    PlaceOrder,
    Play,
    format_action,
    parse_action,
)
from mammamia_ref.rules.chance import ChanceSource
from mammamia_ref.rules.game import (
    apply,
    is_chance,
    is_over,
    legal_actions,
    new_game,
    to_move,
)
from mammamia_ref.rules.specdata import rule_ids
from mammamia_ref.rules.state import GameConfig, GameState, make_config
from mammamia_ref.rules.vocabulary import KINDS, MAX_PLAYERS, MIN_PLAYERS, ORDERS
from mammamia_ref.sim.perft import action_key, divide
from mammamia_ref.sim.scenario_run import run_one


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
    their_rules: tuple[str, ...] = ()   # the port's own labels for the step, beside ours
    replay: str | None = None    # how to replay a random game: its seed and variants
    chapter: str | None = None   # a scenario's own chapter (of the first rule it cites)

    def as_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "name": self.name, "status": self.status,
                "rules": list(self.rules), "their_rules": list(self.their_rules),
                "step": self.step, "message": self.message,
                "seconds": round(self.seconds, 4), "file": self.file, "written": self.written,
                "replay": self.replay, "chapter": self.chapter}


# --- scenarios ----------------------------------------------------------------------


def run_scenario_case(impl: Connection, scenario: Scenario, run: Run) -> CaseResult:
    """One scenario run: first the reference against the scenario's own expectations (a
    failure there is a defect of the suite), then the port in lockstep with the
    reference, and at every step the port against the scenario's own expectations."""
    name = scenario.id if run.name == "default" else f"{scenario.id}[{run.name}]"
    result = CaseResult("scenario", name, "pass", rules_in_force(scenario.rules, run.variants),
                        file=scenario.file, chapter=own_chapter(scenario.rules))
    terms = terms_of(impl.info)
    from_setup = "setup" in scenario.given
    why = scenario_needs(terms, run, from_setup)
    if why:
        return _skip(result, why)
    reference = given_state(scenario, run)
    result.rules = rules_in_force(scenario.rules, reference.rules.as_dict())
    why = terms.supports(reference.rules.as_dict(), reference.rules.non_default_parameters())
    if why:
        return _skip(result, why)
    own = run_one(scenario, run)
    if not own.passed:
        result.status, result.step = "error", own.step
        result.message = (f"defect of the suite: the reference fails this scenario's own "
                          f"expectations at step {own.step} ({scenario.file}:{own.line}):\n"
                          + "\n".join(f"  {line}" for line in (own.failure or "").splitlines()))
        return result
    lockstep = Lockstep(impl, reference)
    try:
        lockstep.compare_state(start_game(impl, reference, from_setup=from_setup), None,
                               scenario.rules, "the given state", fresh=from_setup)
        lockstep.compare_legal(None)
        for step in run.steps:
            if step.action is not None:
                lockstep.step(step.action, step.index, step.by)
            lockstep.compare_legal(step.index)
            lockstep.compare_observations([item["player"] for item in
                                           step.expect.get("observation", [])], step.index)
            problems = own_expectation_problems(lockstep, step)
            if problems:
                raise Divergence(step.index, "the port breaks the scenario's own "
                                 "expectations:\n" + "\n".join(f"  {p}" for p in problems[:12]),
                                 scenario.rules)
    except Divergence as exc:
        result.status, result.step, result.message = "fail", exc.step, str(exc)
        result.rules = rules_in_force(dict.fromkeys((*exc.rules, *scenario.rules)),
                                      reference.rules.as_dict())
        result.their_rules = exc.theirs
    except OutOfTerms as exc:
        return _skip(result, str(exc))
    return result


def own_chapter(rules: Iterable[str]) -> str | None:
    """A scenario's own chapter: that of the first rule it cites (a report counts its
    cases there whether they pass or fail, whatever rule a divergence names)."""
    known = rule_ids()
    return next((rule.split(".", 1)[0] for rule in rules if rule in known), None)


def scenario_needs(terms: Terms, run: Run, from_setup: bool) -> str | None:
    """Why a port cannot take a scenario run (None if it can): a feature its hello does
    not list, or a change of a later protocol version than it speaks."""
    needs = [("load_state", not from_setup), ("observation", needs_observation(run)),
             ("seats", needs_seats(run))]
    for feature, needed in needs:
        if needed and feature not in terms.features:
            return terms.lacks(feature) or f"needs the {feature} feature"
    winners = any("winners" in step.expect or "winner_rule" in step.expect
                  for step in run.steps)
    if needs_result(run) or (winners and "events" not in terms.features):
        return terms.lacks("result")
    return None


def needs_result(run: Run) -> bool:
    """Whether a run checks a finished game's ``result`` in a state (its winners and the
    deciding rule alone are read off the ``winners`` event from a port before /2)."""
    return any("result" in (step.expect.get("state") or {}) for step in run.steps)


def outcome_of_events(events: list[Any] | None, state: dict[str, Any]) -> dict[str, Any] | None:
    """A finished game's winners and deciding rule as a port before protocol /2 tells
    them: in its ``winners`` event (seats, named by the colours of its state), which the
    kit compares with the reference's field by field like every event."""
    told = [e for e in events or [] if isinstance(e, dict) and e.get("event") == "winners"]
    players = state.get("players")
    if not told or not isinstance(players, list) or not isinstance(told[-1].get("seats"), list):
        return None
    colours = [p.get("colour") if isinstance(p, dict) else None for p in players]
    seats = [s for s in told[-1]["seats"] if type(s) is int and 0 <= s < len(colours)]
    return {"winners": [colours[s] for s in seats], "rule": told[-1].get("rule")}


def own_expectation_problems(lockstep: Lockstep, step: Step) -> list[str]:
    """The step's ``expect`` checked against the port's own answers alone (its state,
    events, legal actions and observations), as a runner without a reference would."""
    expect, state = step.expect, lockstep.last_state or {}
    problems: list[str] = []
    if "state" in expect:
        problems += [f"state{p}" for p in project_diff(state, expect["state"])]
    accepted = step.action is not None and step.reject is None
    if lockstep.events_feature and accepted:
        problems += _own_event_problems(lockstep, expect)
    if "legal" in expect and lockstep.last_legal is not None:
        theirs = {_canonical_key(a) for a in lockstep.last_legal}
        listed = {_canonical_key(a) for a in expect["legal"]}
        problems += [f"legal: {a} is not expected" for a in sorted(theirs - listed)]
        problems += [f"legal: {a} is expected but not listed" for a in sorted(listed - theirs)]
    if "to_move" in expect:
        mover = _mover(state)
        if mover != expect["to_move"]:
            problems.append(f"to_move: expected {expect['to_move']}, got {mover}")
    if "winners" in expect or "winner_rule" in expect:
        problems += _own_result_problems(lockstep, expect, state)
    for item in expect.get("observation", []):
        seen = lockstep.last_observations.get(item["player"])
        problems += [f"observation[{item['player'] or 'spectator'}]{p}"
                     for p in project_diff(seen or {}, item["view"])]
    return problems


def _own_event_problems(lockstep: Lockstep, expect: dict[str, Any]) -> list[str]:
    """The port's events of an accepted action against ``events`` (those listed, in
    order) and ``events_exact`` (exactly those)."""
    problems: list[str] = []
    events = [e for e in lockstep.last_events or [] if isinstance(e, dict)]
    if "events" in expect:
        problems += events_diff(events, expect["events"])
    if "events_exact" in expect and (len(events) != len(expect["events_exact"]) or any(
            project_diff(a, w) for a, w in zip(events, expect["events_exact"],
                                               strict=False))):
        problems.append(f"events_exact: expected {short(expect['events_exact'])}, got "
                        f"{short(events)}")
    return problems


def _own_result_problems(lockstep: Lockstep, expect: dict[str, Any],
                         state: dict[str, Any]) -> list[str]:
    """The port's result (from its state, or from its ``winners`` event if it does not
    speak ``result``) against ``winners`` and ``winner_rule``."""
    outcome = state.get("result") if lockstep.terms.speaks("result") else \
        outcome_of_events(lockstep.last_events, state)
    if not isinstance(outcome, dict):
        return ["result: the state names no result (the game has not ended?)"]
    problems = []
    if "winners" in expect and sorted(outcome.get("winners") or []) != \
            sorted(expect["winners"]):
        problems.append(f"winners: expected {expect['winners']}, got "
                        f"{outcome.get('winners')}")
    if "winner_rule" in expect and outcome.get("rule") != expect["winner_rule"]:
        problems.append(f"winner_rule: expected {expect['winner_rule']}, got "
                        f"{outcome.get('rule')}")
    return problems


def _canonical_key(raw: Any) -> str:
    """An action as compared: in its canonical form (a scenario may leave out zero
    counts), or as it was sent if it does not parse."""
    try:
        return action_key(format_action(parse_action(raw)))
    except MalformedError:
        return json.dumps(raw, sort_keys=True)


def _mover(state: dict[str, Any]) -> str | None:
    """Who is to move, read from a state's JSON: the current seat while a turn or an
    oven decision is pending, nobody at a chance node or at the end."""
    players, current = state.get("players"), state.get("current")
    if state.get("phase") not in ("turn", "oven") or not isinstance(players, list) or \
            type(current) is not int or not 0 <= current < len(players):
        return None
    player = players[current]
    return player.get("colour") if isinstance(player, dict) else None


def _skip(result: CaseResult, why: str) -> CaseResult:
    result.status, result.message = "skip", why
    return result


# --- counting tables ----------------------------------------------------------------


def impl_counts(impl: Connection, state: dict[str, Any], depth: int) -> dict[int, int]:
    """The implementation's node counts at every depth 0..``depth`` in one walk (the
    implementation must stand at ``state``): one traversal instead of one per depth."""
    counts = dict.fromkeys(range(depth + 1), 0)
    _walk(impl, state, depth, 0, counts)
    return counts


def _walk(impl: Connection, state: dict[str, Any], depth: int, level: int,
          counts: dict[int, int]) -> None:
    if state.get("phase") in ("shuffle", "over"):  # a leaf at every depth from here on
        for deeper in range(level, depth + 1):
            counts[deeper] += 1
        return
    counts[level] += 1
    if level == depth:
        return
    actions = _listed_actions(impl)
    if level + 1 == depth:
        counts[depth] += len(actions)
        return
    for i, action in enumerate(actions):
        if i:  # the previous child moved the implementation on: go back
            impl.request("load_state", state=state)
        _walk(impl, _child(impl, action), depth, level + 1, counts)


def counting_work(table: PerftTable, depth: int) -> int:
    """The nodes the reference visits to count ``depth`` from the table's state, as far
    as the table tells: its counts at every depth up to ``depth``. A counting request is
    allowed time in proportion (:func:`mammamia_ref.kit.client.allowance`)."""
    return sum(nodes for listed, nodes in table.counts.items() if listed <= depth)


def _own_count(impl: Connection, depth: int, work: int = 0) -> int:
    nodes = impl.request("perft", depth=depth, work=work).get("nodes")
    if type(nodes) is not int:
        raise Divergence(depth, f"perft: the answer holds no count of nodes: {nodes!r}")
    return nodes


def _child(impl: Connection, action: Any) -> dict[str, Any]:
    answer = impl.request("apply", action=action)
    if not isinstance(answer.get("state"), dict):
        raise Divergence(None, f"a listed legal action was rejected: {action}")
    child: dict[str, Any] = answer["state"]
    return child


def _child_count(impl: Connection, state: dict[str, Any], action: Any, depth: int,
                 *, first: bool) -> int:
    if not first:  # the previous child moved the implementation on: go back
        impl.request("load_state", state=state)
    return impl_counts(impl, _child(impl, action), depth - 1)[depth - 1]


def _listed_actions(impl: Connection) -> list[Any]:
    actions = impl.request("legal_actions").get("actions")
    if not isinstance(actions, list):
        raise Divergence(None, "legal_actions: the answer holds no list of actions")
    return actions


def impl_divide(impl: Connection, state: dict[str, Any], depth: int) -> dict[str, int]:
    impl.request("load_state", state=state)
    actions = _listed_actions(impl)
    return {action_key(action): _child_count(impl, state, action, depth, first=i == 0)
            for i, action in enumerate(actions)}


def run_perft_case(impl: Connection, table: PerftTable, max_nodes: int, *,
                   walk: bool = False) -> CaseResult:
    """Every listed depth up to ``max_nodes`` nodes: counted by the implementation itself
    (feature ``perft``) unless ``walk``, else in one walk to the deepest; at the first
    depth that differs, the counts per first action (divide), always by walking."""
    result = CaseResult("perft", table.id, "pass", file=table.file)
    terms = terms_of(impl.info)
    if "load_state" not in terms.features:
        return _skip(result, "needs the load_state feature")
    reference = parse_state(table.state)
    why = terms.supports(reference.rules.as_dict(), reference.rules.non_default_parameters())
    if why:
        return _skip(result, why)
    start = terms.state(table.state)
    depths = []
    for depth, nodes in sorted(table.counts.items()):
        if nodes > max_nodes:
            break
        depths.append(depth)
    if not depths:
        return result
    try:
        impl.request("load_state", state=start)
        if "perft" in (impl.info.get("features") or []) and not walk:
            got = {depth: _own_count(impl, depth, counting_work(table, depth))
                   for depth in depths}
        else:
            got = impl_counts(impl, start, depths[-1])
        wrong = next((d for d in depths if got[d] != table.counts[d]), None)
        theirs = impl_divide(impl, start, wrong) if wrong is not None else {}
    except Divergence as exc:
        result.status, result.step, result.message = "fail", depths[-1], \
            f"perft {depths[-1]}: {exc}"
        return result
    if wrong is not None:
        ours = divide(reference, wrong)
        rows = [f"  {key}: expected {ours.get(key, 0)}, got {theirs.get(key, 0)}"
                for key in sorted(set(ours) | set(theirs))
                if ours.get(key, 0) != theirs.get(key, 0)]
        result.status, result.step = "fail", wrong
        result.message = (f"perft {wrong}: expected {table.counts[wrong]} nodes, got "
                          f"{got[wrong]}; divide:\n" + "\n".join(rows[:30]))
    return result


# --- differential random games ------------------------------------------------------


def replay_options(config: GameConfig, seed: int, house: str | None = None) -> str:
    """The ``conform`` options that play exactly this random game again (``house``: the
    house-rule file the game's rules came from, whose flags --variant then repeats)."""
    variants = config.rules.non_default()
    return " ".join([f"--players {config.players} --seed {seed} --random-games 1",
                     *([f"--house {house}"] if house else []),
                     *(f"--variant {k}={v}" for k, v in sorted(variants.items()))])


def run_random_game(impl: Connection, config: GameConfig, seed: int,
                    write_to: Path | None, max_steps: int = 5000, *,
                    house: str | None = None) -> CaseResult:
    name = f"random-{config.players}p-seed{seed}"
    changed = {**config.rules.non_default(),
               **{k: number_in_words(v) for k, v in
                  config.rules.non_default_parameters().items()}}
    if changed:
        name += "-" + "-".join(f"{k}={v}" for k, v in sorted(changed.items()))
    result = CaseResult("random", name, "pass", replay=replay_options(config, seed, house))
    why = supports_rules(impl.info, config.rules)
    if why:
        return _skip(result, why)
    chance = ChanceSource(seed)
    rng = random.Random(f"mammamia-differential:{seed}")
    probes = Probes(impl.info, random.Random(f"mammamia-probe:{seed}"))
    state = parse_state(format_state(_new(config)))
    lockstep = Lockstep(impl, state)
    index = 0
    try:
        lockstep.compare_state(start_game(impl, state, from_setup=True), None, (), "new_game",
                               fresh=True)
        while not is_over(lockstep.state) and index < max_steps:
            before = lockstep.state
            action: Action
            if is_chance(before):
                action = chance.shuffle(before)
            else:
                lockstep.compare_legal(index)
                action = rng.choice(legal_actions(before))
            try:
                probes.run(lockstep, action, index)
                lockstep.step(action, index)
            except Divergence as exc:
                if write_to is not None:
                    result.written = str(write_divergence(write_to, name, index, before, action,
                                                          exc.rules))
                raise
            index += 1
    except Divergence as exc:
        result.status, result.step, result.message = "fail", exc.step, str(exc)
        result.rules = rules_in_force(exc.rules, config.rules.as_dict())
        result.their_rules = exc.theirs
    return result


class Probes:
    """What a random game checks besides the moves it plays, on a stream of random numbers
    of its own (the game played stays the same): at some decisions, an action the rules
    refuse (the port must refuse it under the same rule), the same legal action attempted
    by a seat not to move (feature ``seats``), and the views of the seat to move and of a
    spectator (feature ``observation``)."""

    EVERY = 5

    def __init__(self, info: dict[str, Any], rng: random.Random) -> None:
        self.terms = terms_of(info)
        features = self.terms.features
        self.seats, self.observations = "seats" in features, "observation" in features
        self.rng = rng

    def run(self, lockstep: Lockstep, action: Action, index: int) -> None:
        """Probe before ``action`` is played at step ``index``; the state is unchanged."""
        state = lockstep.state
        if is_chance(state) or self.rng.randrange(self.EVERY):
            return
        refused = self.refused_action(state)
        if refused is not None:
            lockstep.step(refused, index)
        mover = to_move(state)
        if self.seats and mover is not None and state.players > 1:
            other = self.rng.choice([s for s in range(state.players) if s != mover])
            lockstep.step(action, index, by=state.config.colours[other])
        if self.observations and mover is not None:
            lockstep.compare_observations([state.config.colours[mover], None], index)

    def refused_action(self, state: GameState) -> Action | None:
        """An action of the usual shapes that the reference refuses here, if any."""
        legal = set(legal_actions(state))
        hand = state.hands[to_move(state) or 0]
        shapes: list[Action] = [Pass(), NoOrder(), Decline(), Draw("supply"), Draw("waiter"),
                                *(Play(kind, count) for kind in KINDS for count in (1, 2)),
                                *(NameKind(kind) for kind in KINDS),
                                *(PlaceOrder(order) for order in sorted(hand.orders)),
                                PlaceOrder(self.rng.choice(sorted(ORDERS)))]
        candidates = [a for a in shapes if a not in legal and not self.out_of_terms(state, a)]
        self.rng.shuffle(candidates)
        for candidate in candidates:
            try:
                apply(state, candidate)
            except IllegalActionError:
                return candidate
        return None


    def out_of_terms(self, state: GameState, action: Action) -> bool:
        """A refusal the port's version states otherwise (a second play in a turn,
        before protocol /2): not probed."""
        return second_play(state, action) and not self.terms.speaks("second_play")


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
