"""Scenarios: the language-neutral statement of what the rules require in one
situation. One YAML file per scenario (the JSON-compatible subset, validated by
``spec/schemas/scenario.schema.json``); the format is documented in
``docs/scenario-format.md``.

This module loads and checks scenario files (every problem reported with file and
line), builds a run's given state and says how an expectation's projection is compared
with a state or events. Running a scenario against the reference is a game played:
:mod:`mammamia_ref.sim.scenario_run`.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema

from mammamia_ref.errors import MalformedError, MammamiaError
from mammamia_ref.formats.jsonform import (
    STATE_FORMAT,
    format_state,
    parse_state,
    schema_errors,
    schema_registry,
    validator_errors,
)
from mammamia_ref.formats.limits import excerpt, pointer_excerpt
from mammamia_ref.formats.safeyaml import Loaded, YamlInputError, load_file
from mammamia_ref.rules import specdata
from mammamia_ref.rules.actions import Action, parse_action
from mammamia_ref.rules.game import new_game
from mammamia_ref.rules.ruleset import Rules, make_rules
from mammamia_ref.rules.setup import trimmed_per_kind
from mammamia_ref.rules.state import GameState, make_config, variant_defaults
from mammamia_ref.rules.vocabulary import COPIES, KINDS, ORDERS, ORDERS_OF, counts_of

SCENARIO_FORMAT = "mammamia-scenario/1"


class ScenarioError(MalformedError):
    """A scenario file that cannot be run as written; ``file`` and ``line`` say where."""

    def __init__(self, message: str, *, file: str, line: int | None = None,
                 rule: str | None = None) -> None:
        super().__init__(message + (f" [{rule}]" if rule else ""),
                         where=f"{file}:{line}" if line else file)
        self.file = file
        self.line = line
        self.rule = rule


@dataclass(frozen=True)
class Step:
    """One step of a run: an action (perhaps expected to be rejected), expectations."""

    index: int
    line: int | None
    action: Action | None
    reject: str | None            # the rule ID the action must be rejected with
    expect: dict[str, Any]
    by: str | None = None         # the colour attempting the action (None: the one to move)


@dataclass(frozen=True)
class Run:
    name: str
    variants: dict[str, str]
    steps: tuple[Step, ...]
    parameters: dict[str, Any] = field(default_factory=dict)  # a house rule's numbers

    @property
    def rules(self) -> Rules:
        """The run's rules: its flag values and parameters over the spec's."""
        return make_rules(self.variants, self.parameters)


@dataclass(frozen=True)
class Scenario:
    id: str
    title: str
    rules: tuple[str, ...]
    file: str
    given: dict[str, Any]
    runs: tuple[Run, ...]
    doc: dict[str, Any] = field(repr=False, default_factory=dict)


# --- loading ------------------------------------------------------------------------


def load_scenario(path: str | Path) -> Scenario:
    """Load and check one scenario file; raise :class:`ScenarioError` or YamlInputError."""
    loaded = load_file(path)
    return parse_scenario(loaded)


Fail = Callable[..., ScenarioError]
"""Makes the error for a message at a JSON pointer of the file (and a rule)."""


def parse_scenario(loaded: Loaded) -> Scenario:
    doc, file = loaded.data, loaded.file

    def fail(message: str, pointer: str = "", rule: str | None = None) -> ScenarioError:
        return ScenarioError(message, file=file, line=loaded.line_of(pointer), rule=rule)

    _check_document(doc, file, fail)
    known = specdata.rule_ids()
    raw_runs = doc.get("runs") or [{"name": "default", "variants": doc.get("variants", {}),
                                    "steps": doc.get("steps", [])}]
    base = "/runs" if "runs" in doc else ""
    reading = _Reading(loaded, fail, known)
    runs = [_parse_run(reading, raw, f"{base}/{r}" if base else "")
            for r, raw in enumerate(raw_runs)]
    names = [run.name for run in runs]
    if len(set(names)) != len(names):
        raise fail("run names must be different", base)
    scenario = Scenario(doc["id"], doc["title"], tuple(doc["rules"]), file, doc["given"],
                        tuple(runs), doc)
    for r, run in enumerate(scenario.runs):  # the given state must add up under every run
        _check_run(scenario, run, f"{base}/{r}" if base else "", fail)
    return scenario


def _check_document(doc: Any, file: str, fail: Fail) -> None:
    """The file as a whole: its schema, its name, the rules it cites."""
    if isinstance(doc, dict) and "steps" in doc and "runs" in doc:
        raise fail("a scenario has either steps (one run) or runs (several), not both", "/runs")
    errors = scenario_schema_errors(doc)
    if errors:
        pointer, message = errors[0]
        at_action = _ACTION_POINTER.match(pointer)
        if at_action:
            try:  # an action's own parser names the rule and the card data it checks
                parse_action(_pointed(doc, at_action[1]), at_action[1])
            except MalformedError as exc:
                raise fail(str(exc), exc.where) from exc
        raise fail(f"schema: {message} (at {pointer_excerpt(pointer)})", pointer)
    if Path(file).stem != doc["id"]:
        raise fail(f"the file must be named after the scenario id: {doc['id']}.yaml", "/id")
    known = specdata.rule_ids()
    for i, rule in enumerate(doc["rules"]):
        if rule not in known:
            raise fail(f"unknown rule ID {excerpt(rule)}", f"/rules/{i}")


@dataclass(frozen=True)
class _Reading:
    """One file being read: the file, how to report a problem in it, the rule IDs."""

    loaded: Loaded
    fail: Fail
    known: frozenset[str]


def _parse_run(reading: _Reading, raw: dict[str, Any], prefix: str) -> Run:
    """One run (``prefix``: its pointer, empty for a scenario's only run): its flag values
    and parameters over the scenario's, and its steps."""
    doc, fail = reading.loaded.data, reading.fail
    variants = {**doc.get("variants", {}), **raw.get("variants", {})}
    parameters = {**doc.get("parameters", {}), **raw.get("parameters", {})}
    try:
        make_config(2, variants=variants)
    except MammamiaError as exc:
        raise fail(str(exc), f"{prefix}/variants") from exc
    try:
        make_rules(variants, parameters)
    except MammamiaError as exc:
        at = f"{prefix}/parameters" if "parameters" in raw else "/parameters"
        name = getattr(exc, "flag", None)
        raise fail(str(exc), f"{at}/{name}" if name in parameters else at) from exc
    steps = tuple(_parse_step(reading, raw_step, s, f"{prefix}/steps/{s}")
                  for s, raw_step in enumerate(raw["steps"]))
    return Run(raw.get("name", "default"), variants, steps, parameters)


def _parse_step(reading: _Reading, raw_step: dict[str, Any], index: int, pointer: str
                ) -> Step:
    fail, known = reading.fail, reading.known
    action = None
    if "do" in raw_step:
        try:
            action = parse_action(raw_step["do"], f"{pointer}/do")
        except MalformedError as exc:
            raise fail(str(exc), exc.where or pointer) from exc
    reject = raw_step.get("reject", {}).get("rule") if "reject" in raw_step else None
    if reject is not None and reject not in known:
        raise fail(f"unknown rule ID {excerpt(reject)}", f"{pointer}/reject/rule")
    _check_expectation(raw_step.get("expect", {}), f"{pointer}/expect", fail, known)
    return Step(index, reading.loaded.line_of(pointer), action, reject,
                raw_step.get("expect", {}), raw_step.get("by"))


def _check_run(scenario: Scenario, run: Run, prefix: str, fail: Fail) -> None:
    """A run whose given state adds up, whose seats exist and that checks something."""
    try:
        colours = given_state(scenario, run).config.colours
    except MammamiaError as exc:
        where = getattr(exc, "where", "")
        raise fail(f"the given state is impossible under run {run.name!r}: {exc}",
                   where if where.startswith("/given") else "/given") from exc
    for step in run.steps:
        if step.by is not None and step.by not in colours:
            raise fail(f"no seat has the colour {step.by}", f"{prefix}/steps/{step.index}/by")
    if not any(step.expect or step.reject for step in run.steps):  # never a pass on nothing
        raise fail(f"run {run.name!r} checks nothing: give some step an expect or a "
                   "reject", f"{prefix}/steps")


_ACTION_SCHEMA = "action.schema.json"
# The action a schema error's pointer lies in (the error may name one of its fields).
_ACTION_POINTER = re.compile(r"^(.*/(?:do|legal/[0-9]+))(?:/|$)")


def scenario_schema_errors(doc: Any) -> list[tuple[str, str]]:
    """``schema_errors(doc, "scenario.schema.json")``, in time linear in the file: the
    actions (``do`` and ``legal``) are left out of the scenario schema and each distinct
    action is checked once against the action schema. A file repeats the same few
    actions thousands of times, and each costs a ``oneOf`` over every kind of action
    (an 800 KB file took 20 s). Steps are checked the same way, each distinct step once
    and in order, stopping at the first bad one (100,000 bad steps took 40 s and
    1.3 GB when every error was collected to pick the first)."""
    errors = validator_errors(_scenario_validator(), doc)
    if errors:
        return errors
    seen_steps: dict[str, list[tuple[str, str]]] = {}
    for pointer, step in _steps(doc):
        key = json.dumps(step, sort_keys=True)
        if key not in seen_steps:
            seen_steps[key] = validator_errors(_step_validator(), step)
        if seen_steps[key]:
            inner, message = seen_steps[key][0]
            return [(pointer + inner.rstrip("/"), message)]
    checked: dict[str, list[tuple[str, str]]] = {}
    for pointer, action in _actions(doc):
        key = json.dumps(action, sort_keys=True)
        if key not in checked:
            checked[key] = schema_errors(action, _ACTION_SCHEMA)
        if checked[key]:
            inner, message = checked[key][0]
            return [(pointer + inner.rstrip("/"), message)]
    return []


@cache
def _scenario_validator() -> jsonschema.Draft202012Validator:
    """A validator of the scenario schema with every reference to the action schema
    replaced by ``{}``, under its own ``$id`` (its ``#/$defs`` must resolve to it, not to
    the registered original). Its steps are left out too: :func:`_step_validator`."""
    schema = _schema_without_actions()
    schema["$defs"]["steps"] = {**schema["$defs"]["steps"], "items": {}}  # see _step_validator
    schema["$id"] = "scenario-steps.schema.json"  # a sibling name: file-name $refs still resolve
    return jsonschema.Draft202012Validator(
        schema, registry=schema_registry())


@cache
def _step_validator() -> jsonschema.Draft202012Validator:
    """A validator of one step (``$defs/step`` of the scenario schema, its actions left
    out as in :func:`_scenario_validator`)."""
    full = _schema_without_actions()
    schema = {"$schema": full["$schema"], "$id": "scenario-step.schema.json",
              "$defs": full["$defs"], "$ref": "#/$defs/step"}
    return jsonschema.Draft202012Validator(schema, registry=schema_registry())


def _schema_without_actions() -> dict[str, Any]:
    """The scenario schema with every reference to the action schema replaced by ``{}``."""

    def without_actions(node: Any) -> Any:
        if isinstance(node, dict):
            if node.get("$ref") == _ACTION_SCHEMA:
                return {}
            return {key: without_actions(value) for key, value in node.items()}
        if isinstance(node, list):
            return [without_actions(item) for item in node]
        return node

    schema: dict[str, Any] = without_actions(specdata.load_schema("scenario.schema.json"))
    return schema


def _steps(doc: dict[str, Any]) -> Iterator[tuple[str, Any]]:
    """Every step of a scenario that passed the rest of the schema, with its pointer."""
    runs = [(f"/runs/{r}", run) for r, run in enumerate(doc["runs"])] if "runs" in doc \
        else [("", doc)]
    for prefix, run in runs:
        for s, step in enumerate(run.get("steps", [])):
            yield f"{prefix}/steps/{s}", step


def _actions(doc: dict[str, Any]) -> Iterator[tuple[str, Any]]:
    """Every action of a scenario that passed the rest of the schema, with its pointer."""
    runs = [(f"/runs/{r}", run) for r, run in enumerate(doc["runs"])] if "runs" in doc \
        else [("", doc)]
    for prefix, run in runs:
        for s, step in enumerate(run.get("steps", [])):
            if "do" in step:
                yield f"{prefix}/steps/{s}/do", step["do"]
            for i, action in enumerate(step.get("expect", {}).get("legal", [])):
                yield f"{prefix}/steps/{s}/expect/legal/{i}", action


def _pointed(doc: Any, pointer: str) -> Any:
    """The value at ``pointer``, or None (keys may hold "/", so a path can lead nowhere)."""
    for part in filter(None, pointer.split("/")):
        if isinstance(doc, list) and part.isdigit() and int(part) < len(doc):
            doc = doc[int(part)]
        elif isinstance(doc, dict):
            doc = doc.get(part)
        else:
            return None
    return doc


def _check_expectation(expect: dict[str, Any], pointer: str, fail: Fail,
                       known: frozenset[str]) -> None:
    for key in ("events", "events_exact"):
        for i, item in enumerate(expect.get(key, [])):
            if item.get("rule") is not None and item["rule"] not in known:
                raise fail(f"unknown rule ID {excerpt(item['rule'])}", f"{pointer}/{key}/{i}/rule")
    for i, raw in enumerate(expect.get("legal", [])):
        try:
            parse_action(raw, f"{pointer}/legal/{i}")
        except MalformedError as exc:
            raise fail(str(exc), exc.where) from exc
    rule = expect.get("winner_rule")
    if rule is not None and rule not in known:
        raise fail(f"unknown rule ID {excerpt(rule)}", f"{pointer}/winner_rule")


# --- the given state ----------------------------------------------------------------


def given_state(scenario: Scenario, run: Run) -> GameState:
    """The starting state of a run: a new game (``given.setup``) or a partial state
    completed by the documented defaults (``given.state``)."""
    given = scenario.given
    if "setup" in given:
        setup = given["setup"]
        config = make_config(setup["players"], colours=tuple(setup["colours"])
                             if "colours" in setup else None,
                             first_player=setup.get("first_player", 0), variants=run.rules)
        return new_game(config)
    return parse_state(complete_state(given["state"], run.variants, run.parameters))


def with_rules_under(scenario: Scenario, rules: Rules) -> Scenario:
    """``scenario`` with a house rule's flags and non-default parameters laid under each
    run's own (``scenario run --house``): a run's own value wins, and a per-players
    parameter it gives (the trimming) wins player count by player count."""
    def merged(run: Run) -> Run:
        numbers: dict[str, Any] = dict(rules.non_default_parameters())
        for name, value in run.parameters.items():
            under = numbers.get(name)
            numbers[name] = {**under, **value} if isinstance(under, dict) and \
                isinstance(value, dict) else value
        return replace(run, variants={**rules.non_default(), **run.variants},
                       parameters=numbers)
    return replace(scenario, runs=tuple(merged(run) for run in scenario.runs))


def complete_state(partial: dict[str, Any], variants: dict[str, str],
                   parameters: dict[str, Any] | None = None) -> dict[str, Any]:
    """Fill a partial state with the documented defaults, making its cards add up:
    orders a seat does not place lie at the bottom of its waiter (in manifest order);
    ingredient cards not placed lie in the used pile; the box holds the trimmed cards."""
    check_partial_state(partial)
    doc: dict[str, Any] = json.loads(json.dumps(partial))  # a private copy
    values = {**variant_defaults(), **doc.get("variants", {}), **variants}
    doc["variants"] = values
    numbers = {**doc.get("parameters", {}), **(parameters or {})}
    rules = make_rules(values, numbers)
    if rules.non_default_parameters():
        doc["parameters"] = rules.non_default_parameters()
    _complete_players(doc)
    _complete_progress(doc)
    _complete_piles(doc, partial, rules)
    doc["format"] = STATE_FORMAT
    return doc


def _complete_players(doc: dict[str, Any]) -> None:
    """Every hand with every kind and its orders sorted; every order not placed at the
    bottom of its colour's waiter."""
    players = doc.get("players", [])
    placed_orders: set[str] = {card for card in doc.get("oven", []) if card in ORDERS}
    if isinstance(doc.get("reveal"), dict):
        placed_orders.add(doc["reveal"].get("order"))
    for player in players:
        player.setdefault("hand", {})
        player["hand"].setdefault("ingredients", {})
        player["hand"]["ingredients"] = {k: player["hand"]["ingredients"].get(k, 0) for k in KINDS}
        player["hand"].setdefault("orders", [])
        player["hand"]["orders"] = sorted(player["hand"]["orders"])
        player.setdefault("waiter", None)
        player.setdefault("delivered", [])
    for player in players:
        placed_orders.update(player["hand"]["orders"], player["delivered"], player["waiter"] or [])
    for player in players:
        if player["waiter"] is None:
            player["waiter"] = []
        rest = [o for o in ORDERS_OF.get(player.get("colour"), ()) if o not in placed_orders]
        player["waiter"] = player["waiter"] + rest


def _complete_progress(doc: dict[str, Any]) -> None:
    """Where the game stands: by default the first player's play in round 1."""
    doc.setdefault("first_player", 0)
    doc.setdefault("phase", "turn")
    doc.setdefault("step", "play" if doc["phase"] == "turn" else "over")
    doc.setdefault("current", doc["first_player"])
    doc.setdefault("round", 1)
    doc.setdefault("resolutions", doc["round"] - 1 if doc["phase"] != "over" else 3)
    doc.setdefault("supply", [])
    doc.setdefault("oven", [])
    doc.setdefault("mamma_mia", None)
    doc.setdefault("played", 0)
    doc.setdefault("quiet_turns", 0)
    doc.setdefault("reveal", None)


def _complete_piles(doc: dict[str, Any], partial: dict[str, Any], rules: Rules) -> None:
    """The table, the used pile and the box with every kind; the box the trimmed cards
    unless given; the used pile every ingredient card placed nowhere else unless given."""
    players = doc.get("players", [])
    n = len(players)
    trimmed = trimmed_per_kind(rules.parameters.trimming, n, rules.flags.trimming) \
        if 0 <= n < len(rules.parameters.trimming) else 0
    for pile in ("table", "used", "box"):
        doc.setdefault(pile, {})
        if isinstance(doc[pile], dict):
            doc[pile] = {k: doc[pile].get(k, 0) for k in KINDS}
    if not any(doc["box"].values()):
        doc["box"] = {k: trimmed for k in KINDS}
    if "used" not in partial:
        placed = [counts_of(doc["supply"]), counts_of(doc["oven"])]
        placed += [tuple(doc[p][k] for k in KINDS) for p in ("table", "box")]
        placed += [tuple(pl["hand"]["ingredients"][k] for k in KINDS) for pl in players]
        doc["used"] = {k: COPIES[i] - sum(c[i] for c in placed) for i, k in enumerate(KINDS)}
        if any(v < 0 for v in doc["used"].values()):
            too_many = [k for k, v in doc["used"].items() if v < 0]
            raise MalformedError(f"more {', '.join(too_many)} cards are placed than exist",
                                 where="/given/state", value=partial)


def _bad(where: str, what: str) -> MalformedError:
    return MalformedError(what, where=f"/given/state{where}")


def _check_counts(value: Any, where: str) -> None:
    if not isinstance(value, dict):
        raise _bad(where, "expected a map of ingredient kind to count")
    for kind, n in value.items():
        if kind not in KINDS:
            raise _bad(f"{where}/{kind}", f"unknown ingredient kind {excerpt(kind)}")
        if type(n) is not int or n < 0:
            raise _bad(f"{where}/{kind}", "a count is a non-negative integer")


def _check_cards(value: Any, where: str) -> None:
    if not isinstance(value, list) or not all(isinstance(c, str) for c in value):
        raise _bad(where, "expected a list of card IDs")


def _check_player(i: int, player: Any) -> None:
    if not isinstance(player, dict) or not isinstance(player.get("colour"), str):
        raise _bad(f"/players/{i}", "a player is a map with a colour")
    hand = player.get("hand", {})
    if not isinstance(hand, dict):
        raise _bad(f"/players/{i}/hand", "a hand is a map of ingredients and orders")
    _check_counts(hand.get("ingredients", {}), f"/players/{i}/hand/ingredients")
    _check_cards(hand.get("orders", []), f"/players/{i}/hand/orders")
    for key in ("waiter", "delivered"):
        _check_cards(player.get(key, []), f"/players/{i}/{key}")


def check_partial_state(partial: Any) -> None:
    """Refuse a partial state whose shape the defaults cannot complete (the completed
    state is then checked in full by :func:`parse_state`)."""
    if not isinstance(partial, dict) or not isinstance(partial.get("players"), list):
        raise _bad("", "a state is a map with a list of players")
    for i, player in enumerate(partial["players"]):
        _check_player(i, player)
    for key in ("table", "used", "box"):
        if key in partial:
            _check_counts(partial[key], f"/{key}")
    for key in ("supply", "oven"):
        _check_cards(partial.get(key, []), f"/{key}")
    for key in ("round", "first_player"):
        if key in partial and type(partial[key]) is not int:
            raise _bad(f"/{key}", "expected an integer")
    if not isinstance(partial.get("variants", {}), dict):
        raise _bad("/variants", "expected a map of variant flags")
    reveal = partial.get("reveal")
    if reveal is not None and not isinstance(reveal, dict):
        raise _bad("/reveal", "expected null or {order, kind}")


# --- comparing with an expectation ---------------------------------------------


def needs_seats(run: Run) -> bool:
    """Whether a run has an action attempted by a named seat (the protocol's ``seats``)."""
    return any(step.by is not None for step in run.steps)


def needs_observation(run: Run) -> bool:
    """Whether a run checks what a player may know (the protocol's optional feature)."""
    return any(step.expect.get("observation") for step in run.steps)


def project_diff(actual: Any, expected: Any, state: GameState | None = None,
                 pointer: str = "") -> list[str]:
    """Compare only what ``expected`` names: maps by their keys, lists whole. In a
    projection, ``players`` may also be a map from colour to player."""
    if isinstance(expected, dict) and isinstance(actual, dict):
        out = []
        for key, value in expected.items():
            if key == "players" and pointer == "" and isinstance(value, dict):
                out += _players_diff(actual["players"], value, state)
            elif key == "result" and pointer == "" and key not in actual:
                out.append("/result: the game has not ended (a state has a result only "
                           "once it is over)")
            elif key not in actual:
                out.append(f"{pointer}/{key}: not part of the state")
            else:
                out += project_diff(actual[key], value, state, f"{pointer}/{key}")
        return out
    if isinstance(expected, list) and isinstance(actual, list):
        if len(expected) != len(actual):
            return [f"{pointer}: expected {json.dumps(expected)}, got {json.dumps(actual)}"]
        out = []
        for i, (a, e) in enumerate(zip(actual, expected, strict=True)):
            out += project_diff(a, e, state, f"{pointer}/{i}")
        return out
    if actual != expected or type(actual) is not type(expected):
        return [f"{pointer}: expected {json.dumps(expected)}, got {json.dumps(actual)}"]
    return []


def _players_diff(players: list[dict[str, Any]], expected: dict[str, Any],
                  state: GameState | None) -> list[str]:
    """A projection's ``players`` given as a map from colour to player."""
    by_colour = {p["colour"]: p for p in players}
    out = []
    for colour, sub in expected.items():
        if colour not in by_colour:
            out.append(f"/players/{colour}: no such player")
        else:
            out += project_diff(by_colour[colour], sub, state, f"/players/{colour}")
    return out


def events_diff(actual: list[dict[str, Any]], expected: list[dict[str, Any]]) -> list[str]:
    """The expected events must occur in this order among the actual ones (other events
    may come between); each is compared on the keys it names."""
    position = 0
    for item in expected:
        while position < len(actual) and project_diff(actual[position], item):
            position += 1
        if position == len(actual):
            return [f"events: expected {json.dumps(item)} (in order); "
                    f"got: {_events_on(actual, item)}"]
        position += 1
    return []


def _events_on(actual: list[dict[str, Any]], expected: dict[str, Any]) -> str:
    """The actual events on the keys the expected one is compared on (the event and its
    rule always), so that a failure shows the value that differs, not just the name.

    >>> _events_on([{"event": "drew", "rule": "turn.draw", "seat": 1, "count": 2}],
    ...            {"event": "drew", "seat": 0})
    '{"event": "drew", "rule": "turn.draw", "seat": 1}'
    >>> _events_on([], {"event": "drew"})
    'no events'
    """
    keys = ["event", "rule", *(k for k in expected if k not in ("event", "rule"))]
    return "; ".join(json.dumps({k: e[k] for k in keys if k in e}) for e in actual) \
        or "no events"


# --- discovery ----------------------------------------------------------------------


def scenario_files(paths: Iterable[str | Path], *, follow_links: bool = False) -> Iterator[Path]:
    """The scenario files under ``paths`` (files as given, folders searched for *.yaml),
    less the symbolic links that lead outside the folder searched (unless
    ``follow_links``): :func:`found_files` reports those."""
    for path, outside in found_files(paths, follow_links=follow_links):
        if outside is None:
            yield path


def found_files(paths: Iterable[str | Path], *, follow_links: bool = False
                ) -> Iterator[tuple[Path, str | None]]:
    """Every file a search of ``paths`` finds, with why it is not read (None: it is).
    A file named on the command line is read as given. In a folder, a symbolic link
    (to a file or a folder) that leads outside the folder is reported and not read, nor
    searched, unless ``follow_links``: a link to a secret must not be quoted through an
    error message."""
    for raw in paths:
        path = Path(raw)
        if not path.is_dir():
            yield path, None
            continue
        # judged below the folder given: a path like ../suite or ~/.cache/suite is
        # searched like any other
        yield from sorted(_walk(path, path.resolve(), follow_links))


def _walk(folder: Path, root: Path, follow_links: bool) -> Iterator[tuple[Path, str | None]]:
    """The scenario files below ``folder`` (see :func:`found_files`). Followed links
    never lead to a folder already searched (or to be): a link back up is a loop."""
    searched = {os.path.realpath(folder)}
    for top, folders, files in os.walk(folder, followlinks=follow_links):
        here = Path(top)
        kept = []
        for name in folders:
            sub = here / name
            if not is_scenario_file((sub / "x.yaml").relative_to(folder)):
                continue
            if sub.is_symlink() and not follow_links:
                if not _inside(sub, root):
                    yield sub, (f"a symbolic link to a folder outside {folder}: not "
                                "searched (--follow-links searches it)")
                continue  # a link inside the folder: its files are found where they are
            if follow_links:
                real = os.path.realpath(sub)
                if real in searched:
                    continue  # a loop, or a folder reached twice: its files are found once
                searched.add(real)
            kept.append(name)
        folders[:] = kept
        yield from _files_in(here, files, folder, root, follow_links)


def _files_in(here: Path, files: list[str], folder: Path, root: Path, follow_links: bool
              ) -> Iterator[tuple[Path, str | None]]:
    """The scenario files among ``files`` of ``here`` (see :func:`_walk`)."""
    for name in files:
        file = here / name
        if not name.endswith(".yaml") or not is_scenario_file(file.relative_to(folder)):
            continue
        if file.is_symlink() and not follow_links and not _inside(file, root):
            yield file, (f"a symbolic link to a file outside {folder}: not read "
                         "(--follow-links reads it)")
            continue
        yield file, None


def _inside(link: Path, root: Path) -> bool:
    """Whether ``link`` resolves to a place inside ``root`` (a dangling link does not)."""
    try:
        return link.resolve(strict=True).is_relative_to(root)
    except (OSError, RuntimeError):
        return False


def is_scenario_file(path: Path) -> bool:
    """Whether ``path``, relative to the folder searched, is a scenario: not hidden, not
    private (``_``), not a counting table."""
    return not any(part.startswith((".", "_")) for part in path.parts) and \
        "perft" not in path.parts


def load_all(paths: Iterable[str | Path], *, follow_links: bool = False
             ) -> tuple[list[Scenario], list[MalformedError]]:
    """Every scenario that loads, and an error for each that does not (a link leading
    outside a folder searched among them, unless ``follow_links``); ids are unique."""
    scenarios: list[Scenario] = []
    errors: list[MalformedError] = []
    seen: dict[str, str] = {}
    for path, outside in found_files(paths, follow_links=follow_links):
        if outside is not None:
            errors.append(ScenarioError(outside, file=str(path)))
            continue
        try:
            scenario = load_scenario(path)
        except (ScenarioError, YamlInputError) as exc:
            errors.append(exc)
            continue
        except MammamiaError as exc:  # nothing else should escape; if it does, name the file
            errors.append(ScenarioError(str(exc), file=str(path)))
            continue
        if scenario.id in seen:
            errors.append(ScenarioError(f"scenario id {scenario.id!r} is also used by "
                                        f"{seen[scenario.id]}", file=str(path)))
            continue
        seen[scenario.id] = str(path)
        scenarios.append(scenario)
    return scenarios, errors


# --- where the suite lives -----------------------------------------------------------

# The suite ships inside the installed package (``mammamia_ref/scenarios``); in a clone
# the same files are the top-level ``scenarios/`` folder.
_PACKAGE = Path(__file__).resolve().parent.parent
_INSTALLED_SUITE = _PACKAGE / "scenarios"
_SOURCE_SUITE = _PACKAGE.parent / "scenarios"


class NoCasesError(MammamiaError):
    """A run that found nothing to check: a verification must never pass on nothing."""


def packaged_suite() -> Path:
    """The scenario folder shipped with this version of the package."""
    return _INSTALLED_SUITE if _INSTALLED_SUITE.is_dir() else _SOURCE_SUITE


def default_suite() -> Path:
    """``./scenarios`` when the current folder has one (a clone, or a porter's own
    suite), else the packaged copy."""
    local = Path("scenarios")
    return local if local.is_dir() else packaged_suite()


def require_cases(found: int, looked: Iterable[str | Path], what: str = "scenarios") -> None:
    """Refuse an empty run in one line that says where it looked."""
    if found == 0:
        places = ", ".join(str(p) for p in looked) or "nowhere"
        raise NoCasesError(f"no {what} found in {places}")


def _starts(scenario: Scenario) -> dict[str, Any]:
    """Each run's complete starting state, so that a runner in another language need
    not fill in the documented defaults of a partial ``given.state`` itself."""
    return {run.name: format_state(given_state(scenario, run)) for run in scenario.runs}


def export_bundle(scenarios: list[Scenario]) -> dict[str, Any]:
    """All scenarios as one JSON document for porters, with the versions it follows."""
    return {
        "format": "mammamia-scenario-bundle/1",
        "scenario_format": SCENARIO_FORMAT,
        "state_format": STATE_FORMAT,
        "spec_version": specdata.load_yaml("rules.yaml")["spec_version"],
        "scenarios": [{**s.doc, "file": Path(s.file).name, "start": _starts(s)}
                      for s in scenarios],
    }


__all__ = ["Run", "Scenario", "ScenarioError", "Step", "events_diff", "export_bundle",
           "given_state", "load_all", "load_scenario", "project_diff"]
