"""Running an implementation through the scenarios, the counting tables and random
games, in lockstep with the reference, reporting the first divergent step."""

from __future__ import annotations

import difflib
import json
import random
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

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
    Step,
    events_diff,
    given_state,
    needs_observation,
    needs_seats,
    project_diff,
    run_one,
)
from mammamia_ref.kit.client import Implementation, ImplementationError
from mammamia_ref.rules import scoring
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
from mammamia_ref.rules.events import format_event
from mammamia_ref.rules.game import (
    apply,
    chance_pile,
    check_seat,
    decision_rule,
    is_chance,
    is_over,
    legal_actions,
    new_game,
    to_move,
)
from mammamia_ref.rules.observation import observation
from mammamia_ref.rules.ruleset import ParameterValue, Rules, parameter_specs
from mammamia_ref.rules.specdata import variant_flags
from mammamia_ref.rules.state import GameConfig, GameState, make_config, variant_defaults
from mammamia_ref.rules.vocabulary import KINDS, MAX_PLAYERS, MIN_PLAYERS, ORDERS
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
    their_rules: tuple[str, ...] = ()   # the port's own labels for the step, beside ours
    replay: str | None = None    # how to replay a random game: its seed and variants

    def as_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "name": self.name, "status": self.status,
                "rules": list(self.rules), "their_rules": list(self.their_rules),
                "step": self.step, "message": self.message,
                "seconds": round(self.seconds, 4), "file": self.file, "written": self.written,
                "replay": self.replay}


class Divergence(Exception):
    """The implementation and the reference disagree (or the port breaks a scenario's
    own expectation); ``rules`` are the reference's, ``theirs`` the port's labels."""

    def __init__(self, step: int | None, message: str, rules: Iterable[str] = (),
                 theirs: Iterable[Any] = (), problems: Iterable[str] = ()) -> None:
        super().__init__(message)
        self.step = step
        self.rules = tuple(rules)
        self.theirs = tuple(r for r in theirs if isinstance(r, str) and r)
        self.problems = list(problems)   # a state difference: one line per field


class BudgetSpent(Exception):
    """The run's time budget ran out, possibly in the middle of a case."""


class Connection(Protocol):
    """What the cases need of an implementation: its hello and its requests (``work``:
    the nodes the reference visits to answer a counting request, which grows the time
    the implementation is allowed, :func:`mammamia_ref.kit.client.allowance`)."""

    info: dict[str, Any]

    def request(self, op: str, *, timeout: float | None = None, work: int = 0,
                **fields: Any) -> dict[str, Any]: ...


class Budgeted:
    """The implementation seen through the run's budget: no request starts after the
    deadline and none waits past it (in wall time, whatever the request's allowance), so
    a long counting run stops in time too."""

    def __init__(self, impl: Implementation, deadline: float) -> None:
        self.impl = impl
        self.deadline = deadline

    @property
    def info(self) -> dict[str, Any]:
        return self.impl.info

    def restart(self) -> None:
        """A new process for the next case: its start-up, too, ends by the deadline (a
        start-up allowance longer than what is left of the budget does not stretch it)."""
        if self.deadline - time.monotonic() <= 0:
            raise BudgetSpent
        try:
            self.impl.restart(self.deadline)
        except ImplementationError as exc:
            if exc.kind == "timeout" and time.monotonic() >= self.deadline:
                raise BudgetSpent from exc
            raise

    def request(self, op: str, *, timeout: float | None = None, work: int = 0,
                **fields: Any) -> dict[str, Any]:
        if self.deadline - time.monotonic() <= 0:
            raise BudgetSpent
        try:
            return self.impl.request(op, timeout=timeout, work=work, deadline=self.deadline,
                                     **fields)
        except ImplementationError as exc:
            if exc.kind == "timeout" and time.monotonic() >= self.deadline:
                raise BudgetSpent from exc
            raise


# --- what is compared (docs/porting.md, "What must match") ---------------------------

# Free text is never compared: a failed order's ``why`` and a rejection's ``message``.
FREE_TEXT = frozenset(("why", "message"))

# What the kit compares of a port's answers (docs/porting.md, section 5), as data: its
# fingerprint is part of each protocol version (spec/protocol.yaml), so that a change
# here without a new version fails tests/test_protocol_versions.py.
COMPARED: dict[str, Any] = {
    "hello": ["protocol", "variants (the values offered, the default included)",
              "parameters (the names taken; a non-default value of another is skipped)",
              "features"],
    "state": "every key of the canonical state, result included once the game is over, "
             "parameters included when a number of the rules is not the spec's",
    "new_game": "parameters: the numbers of the rules that differ from the spec's, if any",
    "chance": "the pile about to be shuffled, as a multiset",
    "events": "feature events: in order, every field but the free text",
    "free_text": sorted(FREE_TEXT),
    "rejected": ["rule"],
    "actions": "a set of canonical actions",
    "observation": "feature observation: key for key",
    "nodes": "feature perft: the count",
    "seats": "feature seats: apply with player, refused unless that seat decides",
    "probes": "random games: a refused action, another seat's attempt, two views",
}


def comparable_event(item: Any) -> Any:
    """An event as compared: every field but the free text."""
    if not isinstance(item, dict):
        return item
    return {k: v for k, v in item.items() if k not in FREE_TEXT}


def comparable_state(doc: Any) -> Any:
    """A state as compared: at a chance node the pile about to be shuffled is compared
    as a multiset (the shuffle that follows hands over its whole new order)."""
    if not isinstance(doc, dict) or doc.get("phase") != "shuffle":
        return doc
    doc = json.loads(json.dumps(doc))
    step = doc.get("step")
    if isinstance(step, str) and step.startswith("waiter."):
        for player in doc.get("players") or []:
            if isinstance(player, dict) and player.get("colour") == step.removeprefix("waiter.") \
                    and isinstance(player.get("waiter"), list):
                player["waiter"] = sorted(player["waiter"], key=str)
    elif isinstance(doc.get("supply"), list):
        doc["supply"] = sorted(doc["supply"], key=str)
    return doc


def differences(actual: Any, expected: Any, pointer: str = "") -> list[str]:
    """Only the fields that differ, each on one line; a pile as a short diff."""
    if isinstance(expected, dict) and isinstance(actual, dict):
        out = []
        for key in expected:
            if key not in actual:
                out.append(f"{pointer}/{key}: missing (expected {_short(expected[key])})")
            else:
                out += differences(actual[key], expected[key], f"{pointer}/{key}")
        out += [f"{pointer}/{key}: not expected (got {_short(actual[key])})"
                for key in actual if key not in expected]
        return out
    if isinstance(expected, list) and isinstance(actual, list):
        if actual == expected:
            return []
        if all(isinstance(x, dict) for x in expected + actual) and len(actual) == len(expected):
            out = []
            for i, (a, e) in enumerate(zip(actual, expected, strict=True)):
                label = e.get("colour", i) if isinstance(e, dict) else i
                out += differences(a, e, f"{pointer}/{label}")
            return out
        noun = "colours" if pointer.endswith("/winners") else "cards"
        return [f"{pointer}: {pile_diff(actual, expected, noun)}"]
    if actual != expected or type(actual) is not type(expected):
        return [f"{pointer}: expected {_short(expected)}, got {_short(actual)}"]
    return []


def pile_diff(actual: list[Any], expected: list[Any], noun: str = "cards") -> str:
    """A pile difference in a few words: what is missing or extra, else where the order
    parts (positions from the first card listed)."""
    if Counter(map(_hashable, actual)) != Counter(map(_hashable, expected)):
        missing = Counter(map(_hashable, expected)) - Counter(map(_hashable, actual))
        extra = Counter(map(_hashable, actual)) - Counter(map(_hashable, expected))
        parts = [f"{len(expected)} {noun} expected, {len(actual)} got"]
        if missing:
            parts.append("missing " + _tally(missing))
        if extra:
            parts.append("extra " + _tally(extra))
        return "; ".join(parts)
    matcher = difflib.SequenceMatcher(None, [_hashable(x) for x in expected],
                                      [_hashable(x) for x in actual], autojunk=False)
    changes = [f"at {i1}: expected {_short(expected[i1:i2])}, got {_short(actual[j1:j2])}"
               for tag, i1, i2, j1, j2 in matcher.get_opcodes() if tag != "equal"]
    return f"same {noun}, other order: " + "; ".join(changes[:3]) + \
        (f"; {len(changes) - 3} more" if len(changes) > 3 else "")


def _hashable(item: Any) -> str:
    return item if isinstance(item, str) else json.dumps(item, sort_keys=True)


def _tally(counts: Counter[str]) -> str:
    return ", ".join(f"{n} {card}" if n > 1 else card for card, n in sorted(counts.items()))


def _short(value: Any, limit: int = 120) -> str:
    text = json.dumps(value, separators=(",", ":"))
    return text if len(text) <= limit else text[:limit - 1] + "…"


def pending_rule(state: GameState) -> str:
    """The rule of the decision the reference waits for: a Bombastica's completion is
    judged by ``oven.bombastica`` (its rule of refusal too), any other by the decision's
    own rule."""
    if state.phase == "oven" and state.step == "complete" and state.reveal is not None \
            and ORDERS[state.reveal.order].type == "bombastica":
        return "oven.bombastica"
    return decision_rule(state)


def pending_in_words(state: GameState) -> str:
    """What the reference waits for after a step, said in words."""
    if is_over(state):
        return "the game is over"
    if is_chance(state):
        return f"the {chance_pile(state)[0]} pile must be shuffled (the runner sends the order)"
    colour = state.colour(state.current)
    what = {"play": "play ingredients (or pass)", "order": "place an order (or not)",
            "draw": "draw", "name_kind": "name a kind for the revealed order",
            "complete": "complete the revealed order from hand (or decline)"}
    return f"{colour} must {what.get(state.step, state.step)} ({pending_rule(state)})"


def supports(info: dict[str, Any], variants: dict[str, str],
             parameters: dict[str, ParameterValue] | None = None) -> str | None:
    """Why the implementation cannot run a game under ``variants`` and the non-default
    ``parameters`` (None if it can): ``hello``'s ``variants`` lists the values the port
    offers, the default included; a flag it leaves out offers its default alone; a
    parameter it does not list in ``parameters`` it takes at the spec's value alone
    (docs/porting.md, section 1)."""
    offered = info.get("variants") or {}
    defaults = variant_defaults()
    for flag, value in sorted(variants.items()):
        values = offered.get(flag)
        values = [defaults.get(flag)] if not isinstance(values, list) else values
        if value not in values:
            return f"needs {flag}={value}: {offers_in_words(flag, values)}"
    taken = info.get("parameters")
    taken = taken if isinstance(taken, list) else []
    for name, number in sorted((parameters or {}).items()):
        if name not in taken:
            return (f"needs {name}={_number_in_words(number)}: your implementation takes no "
                    f"parameter {name}")
    return None


def _number_in_words(value: ParameterValue) -> str:
    """A parameter's value as a skip line and a case name show it: ``8``, or by player
    count ``2:4,3:3,4:1,5:0`` (no ": ", which parts a skip line's why from its need)."""
    if isinstance(value, dict):
        return ",".join(f"{k}:{v}" for k, v in value.items())
    return str(value)


def supports_rules(info: dict[str, Any], rules: Rules) -> str | None:
    """:func:`supports` for a game's rules: its flags and its non-default parameters."""
    return supports(info, rules.as_dict(), rules.non_default_parameters())


def offers_in_words(flag: str, values: list[Any]) -> str:
    """What the port offers of one flag, the line a summary groups skips by."""
    shown = ", ".join(f"{flag}={v}" for v in values if isinstance(v, str))
    return f"your implementation offers {shown} only" if shown else \
        f"your implementation offers no value of {flag}"


def rules_in_force(rules: Iterable[str], variants: dict[str, str]) -> tuple[str, ...]:
    """``rules`` without those of a ruling not chosen: a non-default value's rule (in
    ``spec/disputes.yaml``) is in force only under that value."""
    chosen = {**variant_defaults(), **variants}
    idle = {value["rule"] for flag in variant_flags() for value in flag["values"]
            if value["value"] != flag["default"] and chosen.get(flag["flag"]) != value["value"]
            and value.get("rule")}
    return tuple(rule for rule in rules if rule not in idle)


class Lockstep:
    """The reference and the implementation driven through the same actions."""

    def __init__(self, impl: Connection, state: GameState) -> None:
        self.impl = impl
        self.state = state
        self.events_feature = "events" in (impl.info.get("features") or [])
        self.last_state: dict[str, Any] | None = None    # the port's, as last answered
        self.last_events: list[Any] | None = None
        self.last_legal: list[Any] | None = None
        self.last_observations: dict[str | None, dict[str, Any]] = {}

    def compare_state(self, answer: dict[str, Any], step: int | None, rules: Iterable[str],
                      what: str, *, fresh: bool = False) -> None:
        """The port's state against the reference's (``fresh``: a new game's, whose
        differences are named by the setup rules)."""
        expected = comparable_state(format_state(self.state, result=True))
        actual = answer.get("state")
        self.last_state = actual if isinstance(actual, dict) else None
        if not isinstance(actual, dict):
            raise Divergence(step, f"{what}: the state differs from the reference in 1 "
                             "field:\n  state/: the answer holds no state", rules)
        problems = differences(comparable_state(actual), expected)
        if problems:
            report = state_report(self.state, actual, expected, problems)
            raise Divergence(step, f"{what}: the state differs from the reference in "
                             f"{len(problems)} field{'s' if len(problems) > 1 else ''}:\n"
                             + "\n".join(f"  {line}" for line in report),
                             ranked_rules(self.state, actual, problems, rules, fresh=fresh),
                             problems=problems)

    def compare_legal(self, step: int | None) -> None:
        self.last_legal = None
        if is_chance(self.state) or is_over(self.state):
            return
        answer = self.impl.request("legal_actions")
        actual_raw = answer.get("actions")
        if not isinstance(actual_raw, list):
            raise Divergence(step, "legal_actions: the answer holds no list of actions")
        self.last_legal = actual_raw
        actual = {action_key(a) for a in actual_raw if isinstance(a, dict)}
        expected = {action_key(format_action(a)) for a in legal_actions(self.state)}
        if actual != expected:
            lines = [f"  legal but not in the reference: {a}" for a in sorted(actual - expected)]
            lines += [f"  missing (legal in the reference): {a}"
                      for a in sorted(expected - actual)]
            raise Divergence(step, f"legal actions differ where {pending_in_words(self.state)}:"
                             "\n" + "\n".join(lines[:20]), [decision_rule(self.state)])

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
            if isinstance(actual, dict):
                self.last_observations[colour] = actual
            problems = differences(actual, expected) if isinstance(actual, dict) else \
                ["/: the answer holds no observation"]
            if problems:
                who = "a spectator" if seat is None else colour
                raise Divergence(step, f"the observation of {who} differs from the "
                                 "reference:\n" + "\n".join(f"  observation{p}"
                                                               for p in problems[:12]),
                                 _information_rules(problems, self.state))

    def step(self, action: Action, index: int | None, by: str | None = None) -> tuple[str, ...]:
        """Apply ``action`` on both sides (attempted by the colour ``by``, if named);
        raise Divergence on any disagreement. Returns the rules of the reference's events
        (or of its rejection)."""
        seat = None if by is None else self.state.seat_of(by)
        answer = self.impl.request("apply", action=format_action(action),
                                   **({} if seat is None else {"player": seat}))
        self.last_events = None
        try:
            if seat is not None:
                check_seat(self.state, seat)
            after, events = apply(self.state, action)
        except IllegalActionError as exc:
            rejected = answer.get("rejected")
            if not isinstance(rejected, dict):
                raise Divergence(index, f"{_show(action)} was accepted; the reference rejects "
                                 f"it under {exc.rule}", [exc.rule]) from None
            if rejected.get("rule") != exc.rule:
                raise Divergence(index, f"{_show(action)} was rejected under "
                                 f"{rejected.get('rule')!r}; the reference rejects it under "
                                 f"{exc.rule}", [exc.rule], [rejected.get("rule")]) from None
            return (exc.rule,)
        rules = tuple(dict.fromkeys(e.rule for e in events))
        if isinstance(answer.get("rejected"), dict):
            theirs = answer["rejected"].get("rule")
            raise Divergence(index, f"{_show(action)} was rejected under {theirs!r}; the "
                             "reference accepts it", rules or [decision_rule(self.state)],
                             [theirs])
        before, self.state = self.state, after
        expected = [format_event(e) for e in events]
        if isinstance(answer.get("events"), list):
            self.last_events = answer["events"]
        if self.events_feature:
            self._compare_events(action, index, before, expected, answer.get("events"), rules)
        try:
            self.compare_state(answer, index, rules, f"after {_show(action)}")
        except Divergence as exc:
            exc.rules = ranked_rules(after, self.last_state or {}, exc.problems, rules,
                                     expected)
            raise
        return rules

    def _compare_events(self, action: Action, index: int | None, before: GameState,
                        expected: list[dict[str, Any]], raw: Any,
                        rules: tuple[str, ...]) -> None:
        """Events match field for field, free text aside; the first difference is shown,
        and where the reference's list ends, what it then waits for."""
        actual = raw if isinstance(raw, list) else []
        ours = [comparable_event(e) for e in expected]
        theirs = [comparable_event(e) for e in actual]
        if ours == theirs:
            return
        first = next(i for i in range(max(len(ours), len(theirs)))
                     if i >= len(ours) or i >= len(theirs) or ours[i] != theirs[i])
        if first >= len(ours):
            what = (f"the reference's events end here: it stops, and "
                    f"{pending_in_words(self.state)}; the port goes on with "
                    f"{_short(theirs[first:first + 3])}")
        elif first >= len(theirs):
            what = (f"the port's events end here; the reference goes on with "
                    f"{_short(ours[first:first + 3])}")
        else:
            fields = differences(theirs[first], ours[first])
            what = (f"event {first} ({ours[first].get('event')}): "
                    + "; ".join(f"{f.lstrip('/')}" for f in fields[:6]))
        our_rule = [e["rule"] for e in expected[first:first + 1]] or [pending_rule(self.state)]
        their_rule = [e.get("rule") for e in actual[first:first + 1] if isinstance(e, dict)]
        raise Divergence(index, f"after {_show(action)} the events differ from event "
                         f"{first} on: {what}", [*our_rule, *rules], their_rule)


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


# A state's position: where the game stands, what is pending. A report leads with these
# and never cuts them; a divergence of the position is named by the pending decision.
POSITION = ("phase", "step", "current", "reveal")
# The piles gathered anew at a round's end: not compared across different rounds.
ROUND_PILES = ("supply", "oven", "table", "used")
# The rules behind a part of the state that no event of the step explains (a new game's
# state, a finished game's result).
_PART_RULES = {"box": ("setup.trim",), "waiter": ("setup.waiter",),
               "mamma_mia": ("mamma_mia.dealt",), "supply": ("setup.supply",),
               "hand": ("setup.deal",)}
MAX_FIELDS = 12


def _part(problem: str) -> str:
    """The top-level part of the state a difference is in (``/players/red/waiter/..``
    is ``waiter``)."""
    steps = problem.split(":", 1)[0].strip("/").split("/")
    if steps[0] == "players" and len(steps) > 2:
        return steps[2]
    return steps[0]


def _rank(problem: str) -> int:
    part = _part(problem)
    return POSITION.index(part) if part in POSITION else \
        len(POSITION) if part == "result" else len(POSITION) + 1


def _position(doc: dict[str, Any]) -> tuple[Any, ...]:
    return tuple(doc.get(key) for key in POSITION)


def went_on(state: GameState, actual: dict[str, Any]) -> bool:
    """Whether the port went on past the decision (or shuffle) the reference waits for:
    its position differs, and it is not itself waiting at an oven decision (there it
    stopped short, and the reference's own steps name the rule)."""
    if is_over(state) or _position(actual) == _position(format_state(state)):
        return False
    return not (actual.get("phase") == "oven" and state.phase != "oven")


def stop_in_words(state: GameState, actual: dict[str, Any]) -> str:
    """The reference's stop and the port's going on, said in words."""
    where = ", ".join(f"{key} {_short(actual.get(key))}" for key in POSITION[:3])
    if is_chance(state):
        return f"the reference stops here: {pending_in_words(state)}; the port went on " \
            f"({where})"
    who = "the owner's" if state.phase == "oven" else f"{state.colour(state.current)}'s"
    return (f"the reference stops here and waits for {who} decision: "
            f"{pending_in_words(state)}; the port went on without it ({where})")


def state_report(state: GameState, actual: dict[str, Any], expected: dict[str, Any],
                 problems: list[str]) -> list[str]:
    """A state difference as reported: the position first and never cut, the stop in
    words where the port went on past the reference's decision, no pile diffed across
    a round's end that the port skipped, then at most :data:`MAX_FIELDS` other fields."""
    ranked = sorted(problems, key=_rank)
    lines = [stop_in_words(state, actual)] if went_on(state, actual) else []
    lines += [f"state{p}" for p in ranked if _part(p) in POSITION]
    rest = [p for p in ranked if _part(p) not in POSITION]
    ours, theirs = expected.get("round"), actual.get("round")
    if ours != theirs and type(theirs) is int and type(ours) is int:
        skipped = [p for p in rest if _part(p) in ROUND_PILES]
        rest = [p for p in rest if _part(p) not in ROUND_PILES]
        how = f"the port skipped the end of round {theirs}" if theirs < ours else \
            f"the port ended round {ours}, which the reference has not ended"
        lines.append(f"the port is in round {theirs}, the reference in round {ours}: {how}; "
                     f"the piles of different rounds are not compared "
                     f"({len(skipped)} field{'s' if len(skipped) != 1 else ''}: "
                     f"{', '.join(dict.fromkeys(_part(p) for p in skipped)) or 'none'})")
    lines += [f"state{p}" for p in rest[:MAX_FIELDS]]
    if len(rest) > MAX_FIELDS:
        lines.append(f"and {len(rest) - MAX_FIELDS} more field"
                     f"{'s' if len(rest) - MAX_FIELDS > 1 else ''}")
    return lines


def ranked_rules(state: GameState, actual: dict[str, Any], problems: list[str],
                 rules: Iterable[str], events: Sequence[dict[str, Any]] = (), *,
                 fresh: bool = False) -> tuple[str, ...]:
    """The rules named for a state difference, by the part of the state that differs:
    the reference's pending decision first where the port went on past it, the deciding
    rule of a result, then for each differing part (in report order) the rules of the
    step's events that change it (in a ``fresh`` game, the rule that sets it up), then
    the step's rules."""
    named = [pending_rule(state)] if went_on(state, actual) else []
    for problem in sorted(problems, key=_rank):
        part = _part(problem)
        if part == "result" and is_over(state):
            named += [scoring.winners(state)[1], "game_end.three_resolutions"]
        if part == "parameters":  # the rules the differing numbers are numbers of
            ours = state.rules.non_default_parameters()
            named += [entry["rule"] for name, entry in parameter_specs().items()
                      if name in ours or name in problem]
        touching = [e["rule"] for e in events
                    if part in _TOUCHES.get(e.get("event", ""), ())]
        named += touching or list(_PART_RULES.get(part, ()) if fresh else ())
    return tuple(dict.fromkeys((*named, *rules)))


def _information_rules(problems: list[str], state: GameState) -> list[str]:
    """The information rules behind differences in an observation, by the keys named."""
    v = state.flags
    parts = {
        "/hand": ["information.hands"],
        "/oven": ["information.oven_seen" if v.oven_memory == "seen"
                  else "information.oven_announced"],
        "_size": ["information.counts" if v.card_counts == "public"
                  else "information.counts_hidden"],
        "/used": ["information.used_open" if v.used_pile == "open"
                  else "information.used_closed"],
    }
    rules = [rule for part, named in parts.items() if any(part in p for p in problems)
             for rule in named]
    return list(dict.fromkeys(rules or ["information.face_up"]))


def _show(action: Action) -> str:
    return json.dumps(format_action(action), separators=(",", ":"))


def start_game(impl: Connection, state: GameState, *, from_setup: bool) -> dict[str, Any]:
    """Put the implementation in ``state``: by ``new_game`` or by ``load_state``."""
    if from_setup:
        config = state.config
        numbers = config.rules.non_default_parameters()  # sent only when there are any
        extra: dict[str, Any] = {"parameters": numbers} if numbers else {}
        return impl.request("new_game", players=config.players, colours=list(config.colours),
                            first_player=config.first_player, variants=config.rules.as_dict(),
                            **extra)
    return impl.request("load_state", state=format_state(state))


# --- scenarios ----------------------------------------------------------------------


def run_scenario_case(impl: Connection, scenario: Scenario, run: Run) -> CaseResult:
    """One scenario run: first the reference against the scenario's own expectations (a
    failure there is a defect of the suite), then the port in lockstep with the
    reference, and at every step the port against the scenario's own expectations."""
    name = scenario.id if run.name == "default" else f"{scenario.id}[{run.name}]"
    result = CaseResult("scenario", name, "pass", rules_in_force(scenario.rules, run.variants),
                        file=scenario.file)
    features = impl.info.get("features") or []
    from_setup = "setup" in scenario.given
    if not from_setup and "load_state" not in features:
        return _skip(result, "needs the load_state feature")
    if needs_observation(run) and "observation" not in features:
        return _skip(result, "needs the observation feature")
    if needs_seats(run) and "seats" not in features:
        return _skip(result, "needs the seats feature")
    reference = given_state(scenario, run)
    result.rules = rules_in_force(scenario.rules, reference.rules.as_dict())
    why = supports_rules(impl.info, reference.rules)
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
    return result


def own_expectation_problems(lockstep: Lockstep, step: Step) -> list[str]:
    """The step's ``expect`` checked against the port's own answers alone (its state,
    events, legal actions and observations), as a runner without a reference would."""
    expect, state = step.expect, lockstep.last_state or {}
    problems: list[str] = []
    if "state" in expect:
        problems += [f"state{p}" for p in project_diff(state, expect["state"])]
    accepted = step.action is not None and step.reject is None
    if lockstep.events_feature and accepted:
        events = [e for e in lockstep.last_events or [] if isinstance(e, dict)]
        if "events" in expect:
            problems += events_diff(events, expect["events"])
        if "events_exact" in expect and (len(events) != len(expect["events_exact"]) or any(
                project_diff(a, w) for a, w in zip(events, expect["events_exact"],
                                                   strict=False))):
            problems.append(f"events_exact: expected {_short(expect['events_exact'])}, got "
                            f"{_short(events)}")
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
        outcome = state.get("result")
        if not isinstance(outcome, dict):
            problems.append("result: the state names no result (the game has not ended?)")
        else:
            if "winners" in expect and sorted(outcome.get("winners") or []) != \
                    sorted(expect["winners"]):
                problems.append(f"winners: expected {expect['winners']}, got "
                                f"{outcome.get('winners')}")
            if "winner_rule" in expect and outcome.get("rule") != expect["winner_rule"]:
                problems.append(f"winner_rule: expected {expect['winner_rule']}, got "
                                f"{outcome.get('rule')}")
    for item in expect.get("observation", []):
        seen = lockstep.last_observations.get(item["player"])
        problems += [f"observation[{item['player'] or 'spectator'}]{p}"
                     for p in project_diff(seen or {}, item["view"])]
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


def impl_perft(impl: Connection, state: dict[str, Any], depth: int) -> int:
    """Count with the implementation, which must stand at ``state`` when called."""
    return impl_counts(impl, state, depth)[depth]


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
    if "load_state" not in (impl.info.get("features") or []):
        return _skip(result, "needs the load_state feature")
    reference = parse_state(table.state)
    why = supports_rules(impl.info, reference.rules)
    if why:
        return _skip(result, why)
    depths = []
    for depth, nodes in sorted(table.counts.items()):
        if nodes > max_nodes:
            break
        depths.append(depth)
    if not depths:
        return result
    try:
        impl.request("load_state", state=table.state)
        if "perft" in (impl.info.get("features") or []) and not walk:
            got = {depth: _own_count(impl, depth, counting_work(table, depth))
                   for depth in depths}
        else:
            got = impl_counts(impl, table.state, depths[-1])
        wrong = next((d for d in depths if got[d] != table.counts[d]), None)
        theirs = impl_divide(impl, table.state, wrong) if wrong is not None else {}
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
               **{k: _number_in_words(v) for k, v in
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
        features = info.get("features") or []
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
        candidates = [a for a in shapes if a not in legal]
        self.rng.shuffle(candidates)
        for candidate in candidates:
            try:
                apply(state, candidate)
            except IllegalActionError:
                return candidate
        return None


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
        self.port = Budgeted(self.impl, self.deadline)

    def case(self, name: str, kind: str, body: Callable[[], CaseResult],
             rules: tuple[str, ...] = (), file: str | None = None) -> None:
        """Run one case; a broken implementation is recorded and restarted. The budget
        holds inside a case too: a case it cuts short is an error."""
        started = time.monotonic()
        spent = CaseResult(kind, name, "error", rules, message="the run's time budget is "
                           "spent", file=file)
        if started >= self.deadline:
            result = spent
        else:
            try:
                if not self.impl.alive:
                    self.port.restart()
                result = body()
            except BudgetSpent:
                result = spent
                self.impl.close()  # it may be in the middle of an answer
            except ImplementationError as exc:
                result = CaseResult(kind, name, "error", rules, message=str(exc), file=file)
                self.impl.close()
            except MalformedError as exc:
                result = CaseResult(kind, name, "error", rules, message=str(exc), file=file)
        result.seconds = time.monotonic() - started
        self.results.append(result)
        if self.on_result:
            self.on_result(result)
