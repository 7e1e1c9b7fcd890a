"""The question format (``spec/questions/*.yaml``, ``spec/schemas/question.schema.json``):
a designer's question about what the rules make possible, read and checked first.

A question says *what to find* (``find:``, a condition on a game's events and states)
or *what to optimise* (``most:`` / ``fewest:``, a measure of a game), for which player
counts and flag values (``variants:``, each flag a list of values: one answer a cell),
under which house rules (``house:``), within which bound (``bound:``). Every check
names the file and line of what is wrong (:class:`QuestionError`), so a bad file is
refused before z3 or a search spends anything on it.

:func:`~mammamia_ref.formats.house.house_rules` decides a cell's rules (the house rule's,
the cell's flags laid over them) and :func:`rules_in_force` is what every answer reports
of them.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mammamia_ref.errors import MalformedError
from mammamia_ref.formats.house import HouseRule, load_house
from mammamia_ref.formats.jsonform import schema_errors
from mammamia_ref.formats.limits import excerpt, pointer_excerpt
from mammamia_ref.formats.question_work import work_problem
from mammamia_ref.formats.safeyaml import InputFileError, Loaded, load_file
from mammamia_ref.queries.language.asked_under import NumberProblem, in_numbers, rules_in_force
from mammamia_ref.queries.language.sketch import Sketch, check_sketches
from mammamia_ref.queries.language.variables import (
    ORDER_KEYS,
    QUANTIFIERS,
    RELATIONS,
    RESERVED,
    SEAT_QUANTIFIERS,
    VARIABLE,
    deciding_event,
)
from mammamia_ref.rules import specdata
from mammamia_ref.rules.ruleset import default_rules
from mammamia_ref.rules.state import variant_values
from mammamia_ref.rules.vocabulary import COLOURS, KINDS


class QuestionError(MalformedError):
    """A question file that cannot be answered as written: file, line, what is wrong."""

    def __init__(self, message: str, *, file: str, line: int | None = None) -> None:
        super().__init__(message, where=f"{file}:{line}" if line else file)
        self.file, self.line, self.message = file, line, message


# The vocabulary of conditions and measures: spec/question_vocabulary.yaml, read once.
_VOCABULARY: dict[str, Any] = specdata.load_yaml("question_vocabulary.yaml")

EVENTS: dict[str, frozenset[str]] = {name: frozenset(fields)
                                     for name, fields in _VOCABULARY["events"].items()}
"""The events a condition may name and the fields it may test (their ``rule`` too):
the keys the reference gives each event (docs/state-format.md's table), which
``tests/test_ask.py`` checks on the events of played games. A seat field (``seat``,
``owner``) is written as the seat's colour."""

SEAT_FIELDS = frozenset(_VOCABULARY["seat_fields"])
"""The event fields that hold a seat: a condition names it by colour."""

DERIVED: dict[str, frozenset[str]] = {name: frozenset(fields) for name, fields
                                      in _VOCABULARY["derived_fields"].items()}
"""Fields the language works out from the game (the reference's event does not carry
them): the order's type, the named kind's cards on the table, where the Mamma Mia! card
lay, the decision that turned an order (``turned_by``: an event of :data:`DECIDING`)."""

DECIDING = tuple(_VOCABULARY["derived_types"]["turned_by"]["properties"]["event"]["enum"])

PER_SEAT: tuple[str, ...] = tuple(_VOCABULARY["per_seat_counts"])

STATE_KEYS = frozenset(_VOCABULARY["state_counts"])
"""What a state condition may count: cards by place (``kind`` narrows to one kind; a hand
or delivered count is per seat, ``seat: any`` by default, or ``all``)."""

AT: tuple[str, ...] = tuple(_VOCABULARY["at"])

MEASURES: dict[str, str] = dict(_VOCABULARY["measures"])
"""The numbers a ``most:`` or ``fewest:`` may be over."""

COMPARE: tuple[str, ...] = tuple(_VOCABULARY["comparisons"])


MEASURE_FORMS: dict[str, str] = dict(_VOCABULARY["measure_forms"])
"""The measures written as a mapping: the turns until a condition first holds, a seat's
own turns (until a condition holds, or in the whole game)."""


@dataclass(frozen=True)
class Question:
    """A checked question: one answer per (players, flag values) cell."""

    id: str
    file: str
    title: str
    goal: str                              # "find", "most" or "fewest"
    condition: Mapping[str, Any] | None    # for find
    measure: Any                           # for most / fewest: a name or a mapping
    players: tuple[int, ...]
    variants: dict[str, tuple[str, ...]]
    house: HouseRule | None                # read from house: (beside the question file)
    bound: dict[str, int]
    text: str = ""
    sketches: Mapping[int, tuple[Sketch, ...]] = field(default_factory=dict)
    raw: Mapping[str, Any] = field(default_factory=dict, repr=False)
    lines: Mapping[str, int] = field(default_factory=dict, repr=False)  # of each pointer

    def cells(self) -> list[tuple[int, dict[str, str]]]:
        """Every (players, flag values) combination asked about."""
        flags = sorted(self.variants)
        combos = itertools.product(*(self.variants[f] for f in flags))
        return [(n, dict(zip(flags, values, strict=True)))
                for values in list(combos) for n in self.players]

    def with_house(self, house: HouseRule | None) -> Question:
        """The question asked under ``house`` (``ask --house``) instead of its own: a
        count written as a number of the rules is read again under its numbers."""
        if house is None:
            return self
        try:
            return _check_question(Loaded(self.raw, dict(self.lines), self.file), house)
        except QuestionError as exc:
            raise QuestionError(f"{exc.message} (asked under the house rule {house.name!r})",
                                file=exc.file, line=exc.line) from None


# ----------------------------------------------------------------------- reading


def load_question(path: str | Path) -> Question:
    """Read and check one question file (safe YAML, lines kept): every error names the
    file and line."""
    loaded = load_file(path)
    return check_question(loaded)


def _fail(loaded: Loaded, pointer: str, message: str) -> QuestionError:
    return QuestionError(message, file=loaded.file, line=loaded.line_of(pointer))


SCHEMA = "question.schema.json"
"""The question format's schema (``spec/schemas/question.schema.json``): every file is
checked against it; it is written from the same vocabulary by
:mod:`mammamia_ref.tools.question_schema` (``tests/test_ask.py`` fails when stale)."""


def check_question(loaded: Loaded) -> Question:
    """A question file checked against the schema and then for what a schema cannot say
    (a contradictory bound or count, a catalogue query that exists). When the schema
    refuses a file, the checks below name the fault in the format's words where they can
    (``unknown event 'x'; the events: ...``), else the schema's first error is the one
    line; either way the file and the line of the fault."""
    errors = schema_errors(loaded.data, SCHEMA)
    if not errors:
        return _check_question(loaded)
    try:
        _check_question(loaded)
    except QuestionError:
        raise
    except (TypeError, AttributeError, KeyError, ValueError):
        pass   # a shape the checks below do not expect: the schema's error says what
    pointer, message = errors[0]
    raise _fail(loaded, pointer, f"not a question: {message} (at {pointer_excerpt(pointer)})")


def _check_question(loaded: Loaded, asked_under: HouseRule | None = None) -> Question:
    """The question under its own house rule, or ``asked_under`` instead."""
    doc = loaded.data
    if not isinstance(doc, dict):
        raise _fail(loaded, "", "a question is a mapping (question:, find: or most:, ...)")
    known = {"question", "title", "text", "find", "most", "fewest", "players", "variants",
             "house", "bound", "whatever_the_others_do", "sketch"}
    if "restates" in doc:
        raise _fail(loaded, "/restates", "restates: is gone (the catalogue's queries are "
                    "question files stated by their conditions, spec/questions/Q*.yaml): "
                    "state the question by find:, most: or fewest:")
    for key in doc:
        if key not in known:
            raise _fail(loaded, f"/{key}", f"unknown key {excerpt(key)}; a question has "
                        + ", ".join(sorted(known)))
    if doc.get("whatever_the_others_do"):
        raise _fail(loaded, "/whatever_the_others_do", "a question about what a player can "
                    "force whatever the others do is beyond existential models (a game "
                    "that exists, a bound over every game): ask cannot answer it")
    qid = doc.get("question")
    if not isinstance(qid, str) or not qid:
        raise _fail(loaded, "/question", "question: names the question (an ID)")
    goals = [g for g in ("find", "most", "fewest") if g in doc]
    if len(goals) != 1:
        raise _fail(loaded, "", "a question has exactly one of find:, most:, fewest:")
    goal = goals[0]
    house = asked_under or _house(loaded, doc.get("house"))
    try:   # a count written as a number of the rules: the number under the rules asked
        stated = in_numbers(doc[goal], house.rules if house else default_rules(), COMPARE,
                            f"/{goal}")
    except NumberProblem as exc:
        raise _fail(loaded, exc.pointer, str(exc)) from None
    condition, measure = (stated, None) if goal == "find" else (None, stated)
    if goal == "find":
        _check_condition(loaded, stated, "/find")
    elif isinstance(measure, dict):
        _check_measure(loaded, measure, f"/{goal}")
    elif not isinstance(measure, str) or measure not in MEASURES:
        raise _fail(loaded, f"/{goal}", f"{goal}: {excerpt(measure)} is not a number ask can "
                    "measure; the measures: " + ", ".join(MEASURES) + ", or "
                    + ", ".join(f"{k}:" for k in MEASURE_FORMS))
    players = doc.get("players", [2])
    if not isinstance(players, list) or not players or \
            any(type(p) is not int or not 2 <= p <= 5 for p in players):
        raise _fail(loaded, "/players", "players: a list of player counts, each 2 to 5")
    variants = _check_variants(loaded, doc.get("variants") or {})
    bound = _check_bound(loaded, doc.get("bound") or {}, goal)
    problem = work_problem(players, variants, bound, house,   # the work bounded up front
                           rules_known=house is not None)
    if problem is not None:
        raise _fail(loaded, *problem)
    sketches = check_sketches(doc.get("sketch"),
                              lambda pointer, message: _fail(loaded, pointer, message), goal,
                              lambda cond, pointer: _check_condition(loaded, cond, pointer),
                              lambda raw, pointer: _check_variants(loaded, raw, pointer))
    return Question(qid, loaded.file, str(doc.get("title", qid)), goal, condition, measure,
                    tuple(players), variants, house, bound,
                    " ".join(str(doc.get("text", "")).split()), sketches, doc, loaded.lines)


def _house(loaded: Loaded, house: Any) -> HouseRule | None:
    """The house rule a question names, read from its path relative to the question
    file; a file that is missing or bad is the question's error at that line."""
    if house is None:
        return None
    if not isinstance(house, str) or not house:
        raise _fail(loaded, "/house", "house: a path to a house-rule YAML file")
    path = Path(os.path.normpath(Path(loaded.file).parent / house))
    try:
        return load_house(path)
    except InputFileError as exc:   # missing, unreadable, or not a house rule
        shown = house if house.isprintable() else excerpt(house)   # a NUL, say
        raise _fail(loaded, "/house", f"house: {shown} (beside the question file): "
                    f"{exc}") from None


def _check_variants(loaded: Loaded, variants: Any, at: str = "/variants"
                    ) -> dict[str, tuple[str, ...]]:
    """Flag to a value or a list of values (a question's ``variants:``, a sketch's)."""
    if not isinstance(variants, dict):
        raise _fail(loaded, at, "variants: a map of flag to a list of values")
    values = variant_values()
    out = {}
    for flag, chosen in variants.items():
        pointer = f"{at}/{flag}"
        if flag not in values:
            raise _fail(loaded, pointer, f"unknown flag {excerpt(flag)}; see `mammamia variants`")
        chosen = chosen if isinstance(chosen, list) else [chosen]
        if not chosen:
            raise _fail(loaded, pointer, f"{flag} needs a value; its values: "
                        + ", ".join(values[flag]))
        for i, value in enumerate(chosen):
            if value not in values[flag]:
                raise _fail(loaded, f"{pointer}/{i}", f"{flag} has no value {excerpt(value)}; its "
                            "values: " + ", ".join(values[flag]))
        out[flag] = tuple(chosen)
    return out


def _check_bound(loaded: Loaded, bound: Any, goal: str) -> dict[str, int]:
    """A find:'s bound (rounds, turns, games); a most:'s or fewest:'s, games only: a
    measure is read off whole games (a part would be measured past its bound)."""
    if not isinstance(bound, dict):
        raise _fail(loaded, "/bound", "bound: a map of rounds and turns")
    for key, value in bound.items():
        if key not in ("rounds", "turns", "games"):
            raise _fail(loaded, f"/bound/{key}",
                        f"unknown bound {excerpt(key)}; rounds, turns, games")
        if type(value) is not int or value < 1:
            raise _fail(loaded, f"/bound/{key}", f"bound {key}: a whole number above 0")
        if key != "games" and goal != "find":
            raise _fail(loaded, f"/bound/{key}", f"bound {key}: a {goal}: measures whole "
                        "games, so its bound takes games: only (a count within some turns: "
                        "turns_until:, most_in_a_round:, or a find: with within:)")
    if "turns" in bound and bound["turns"] < bound.get("rounds", 1):
        raise _fail(loaded, "/bound/turns", f"contradictory bound: {bound['rounds']} rounds "
                    f"need a turn each, more than {bound['turns']} turns")
    return dict(bound)


@dataclass(frozen=True)
class Scope:
    """The variables bound where a condition stands: seat and kind variables."""

    seats: frozenset[str] = frozenset()
    kinds: frozenset[str] = frozenset()

    def bind(self, loaded: Loaded, pointer: str, key: str, names: Any) -> Scope:
        two = key == "two_seats"
        if two and not (isinstance(names, list) and len(names) == 2 and names[0] != names[1]):
            raise _fail(loaded, f"{pointer}/{key}", "two_seats: a list of two different "
                        "variable names, for example [a, b]")
        for name in (names if two else [names]):
            if not isinstance(name, str) or not VARIABLE.match(name) or name in RESERVED:
                raise _fail(loaded, f"{pointer}/{key}", f"{key}: {excerpt(name)} is not a variable "
                            "name (lower-case letters, digits and _, not a colour, a kind "
                            "or any/all/every)")
            if name in self.seats or name in self.kinds:
                raise _fail(loaded, f"{pointer}/{key}", f"{key}: {excerpt(name)} is bound already")
        if key in SEAT_QUANTIFIERS:
            return Scope(self.seats | set(names if two else [names]), self.kinds)
        return Scope(self.seats, self.kinds | {names})

    def seat(self, value: Any) -> bool:
        return value in COLOURS or value in self.seats

    def kind(self, value: Any) -> bool:
        if value in KINDS or value in self.kinds:
            return True
        var, _, thing = str(value).partition(".")
        return var in self.seats and thing == "personal"

    def order(self, value: Any) -> bool:
        from mammamia_ref.rules.vocabulary import ORDERS

        if value in ORDERS:
            return True
        var, _, thing = str(value).partition(".")
        return var in self.seats and thing in ORDER_KEYS


CONDITION_KEYS = ("all", "any", "not", "event", "state", "result", "position_returns",
                  "within", "some_seat", "every_seat", "two_seats", "some_kind", "every_kind")


def _check_condition(loaded: Loaded, cond: Any, pointer: str, scope: Scope = Scope()) -> None:
    """A condition: all / any (a list), not (one), a quantifier or a span over a
    condition (holds:), an event, a state count or the game's result."""
    if not isinstance(cond, dict) or len(set(cond) & set(CONDITION_KEYS)) != 1:
        raise _fail(loaded, pointer, "a condition is one of " + ", ".join(
            f"{k}:" for k in CONDITION_KEYS))
    for key in ("all", "any"):
        if key in cond:
            if not isinstance(cond[key], list) or not cond[key]:
                raise _fail(loaded, f"{pointer}/{key}", f"{key}: a list of conditions")
            for i, c in enumerate(cond[key]):
                _check_condition(loaded, c, f"{pointer}/{key}/{i}", scope)
            return
    if "not" in cond:
        _check_condition(loaded, cond["not"], f"{pointer}/not", scope)
        return
    for key in QUANTIFIERS:
        if key in cond:
            _only(loaded, cond, pointer, (key, "holds"), f"{key}: binds a variable over "
                  "the condition under holds:")
            inner = scope.bind(loaded, pointer, key, cond[key])
            if "holds" not in cond:
                raise _fail(loaded, pointer, f"{key}: needs holds: (the condition)")
            _check_condition(loaded, cond["holds"], f"{pointer}/holds", inner)
            return
    if "within" in cond:
        _check_span(loaded, cond, pointer, scope)
        return
    if "result" in cond:
        _check_result(loaded, cond["result"], f"{pointer}/result", scope)
        return
    if "position_returns" in cond:   # the schema holds it to true
        _only(loaded, cond, pointer, ("position_returns",), "position_returns: true stands alone")
        return
    if "event" in cond:
        _check_event(loaded, cond, pointer, scope)
        return
    _check_state(loaded, cond["state"], f"{pointer}/state", scope, then=False)


def _only(loaded: Loaded, cond: Mapping[str, Any], pointer: str, keys: Sequence[str],
          what: str) -> None:
    for key in cond:
        if key not in keys:
            raise _fail(loaded, f"{pointer}/{key}", f"{what}; it has " + ", ".join(
                f"{k}:" for k in keys) + f", not {excerpt(key)}")


SPAN_KEYS = tuple(_VOCABULARY["spans"])


def _check_span(loaded: Loaded, cond: Mapping[str, Any], pointer: str, scope: Scope) -> None:
    _only(loaded, cond, pointer, ("within", "holds"), "within: judges the condition under "
          "holds: on a part of the game")
    span, here = cond["within"], f"{pointer}/within"
    if not isinstance(span, dict) or not span:
        raise _fail(loaded, here, "within: a span (" + ", ".join(SPAN_KEYS) + ")")
    for key, value in span.items():
        if key not in SPAN_KEYS:
            raise _fail(loaded, f"{here}/{key}", f"unknown span {excerpt(key)}; the spans: "
                        + ", ".join(SPAN_KEYS))
        if key in ("after", "before"):
            if not isinstance(value, dict) or "event" not in value:
                raise _fail(loaded, f"{here}/{key}", f"{key}: an event condition "
                            "({event: NAME, where: ...}); its first occurrence bounds the span")
            _check_event(loaded, value, f"{here}/{key}", scope)
            if counted := [k for k in value if k in (*COMPARE, *RELATIONS)]:
                raise _fail(loaded, f"{here}/{key}/{counted[0]}", f"{key}: the first event "
                            f"that meets it bounds the span; {counted[0]}: counts no event")
        elif key == "round" and value in ("any", "every"):
            continue
        elif key == "seat":   # with turns: that seat's own first turns
            if "turns" not in span or not scope.seat(value):
                raise _fail(loaded, f"{here}/seat", "seat: a colour or a seat variable, "
                            "beside turns: (that seat's own first turns)")
        elif type(value) is not int or value < 1:
            raise _fail(loaded, f"{here}/{key}", f"{key}: a whole number above 0"
                        + (", or any / every" if key == "round" else ""))
    if "round" in span and ("from_round" in span or "to_round" in span):
        raise _fail(loaded, f"{here}/round", "round: one round, or from_round: / to_round:")
    if "holds" not in cond:
        raise _fail(loaded, pointer, "within: needs holds: (the condition judged there)")
    _check_condition(loaded, cond["holds"], f"{pointer}/holds", scope)


DECIDED_BY = tuple(_VOCABULARY["decided_by"])


def _check_result(loaded: Loaded, result: Any, pointer: str, scope: Scope) -> None:
    keys = tuple(_VOCABULARY["result"])
    if not isinstance(result, dict) or not result:
        raise _fail(loaded, pointer, "result: one or more of " + ", ".join(keys))
    for key, value in result.items():
        if key not in keys:
            raise _fail(loaded, f"{pointer}/{key}", f"result has {', '.join(keys)}, not "
                        f"{excerpt(key)}")
        if key == "winner" and not scope.seat(value):
            raise _fail(loaded, f"{pointer}/winner", f"winner: {excerpt(value)} is neither a seat "
                        "colour nor a seat variable in scope")
        if key == "decided_by" and value not in DECIDED_BY:
            raise _fail(loaded, f"{pointer}/decided_by", "decided_by: one of "
                        + ", ".join(DECIDED_BY))
        if key == "winners":
            if not isinstance(value, dict) or not value:
                raise _fail(loaded, f"{pointer}/winners", "winners: a count ({at_least: 2})")
            _only(loaded, value, f"{pointer}/winners", COMPARE, "winners: a count")
            _check_count(loaded, value, f"{pointer}/winners")


def _check_event(loaded: Loaded, cond: Mapping[str, Any], pointer: str, scope: Scope) -> None:
    name = cond["event"]
    if name not in EVENTS:
        raise _fail(loaded, f"{pointer}/event", f"unknown event {excerpt(name)}; the events: "
                    + ", ".join(EVENTS))
    _only(loaded, cond, pointer, ("event", "rule", "where", "then", *COMPARE, *RELATIONS),
          "an event condition has event:, rule:, where:, then:, a count or a relation")
    rule = cond.get("rule")
    if rule is not None and rule not in {r["id"] for r in specdata.rules()}:
        raise _fail(loaded, f"{pointer}/rule", f"unknown rule {excerpt(rule)}")
    _check_where(loaded, name, cond.get("where"), f"{pointer}/where", scope)
    relations = [r for r in RELATIONS if r in cond]
    if relations and any(k in cond for k in COMPARE):
        raise _fail(loaded, f"{pointer}/{relations[0]}", "a count is compared with a number "
                    "or with another count, not both")
    for rel in relations:
        other = cond[rel]
        if not isinstance(other, dict) or not other or set(other) - {"where", "rule"}:
            raise _fail(loaded, f"{pointer}/{rel}", f"{rel}: the other count, as the keys "
                        "that differ (where:, rule:)")
        _check_where(loaded, name, other.get("where"), f"{pointer}/{rel}/where", scope)
    if "then" in cond:
        _check_state(loaded, cond["then"], f"{pointer}/then", scope, then=True)
    _check_count(loaded, cond, pointer)


def _check_where(loaded: Loaded, name: str, where: Any, pointer: str, scope: Scope) -> None:
    if where is None:
        return
    if not isinstance(where, dict):
        raise _fail(loaded, pointer, "where: a map of field to value")
    fields = EVENTS[name] | DERIVED.get(name, frozenset())
    for fieldname, value in where.items():
        here = f"{pointer}/{fieldname}"
        if fieldname not in fields:
            raise _fail(loaded, here, f"event {name} has no field {excerpt(fieldname)}; its "
                        "fields: " + ", ".join(sorted(fields)))
        if fieldname == "turned_by":   # the deciding event, by its own fields
            if not isinstance(value, dict) or value.get("event") not in DECIDING:
                raise _fail(loaded, here, f"turned_by: {{event: {' or '.join(DECIDING)}, "
                            "and that event's fields}")
            _check_where(loaded, value["event"], deciding_event(value)["where"], here, scope)
        if fieldname == "kind" and not scope.kind(value):
            raise _fail(loaded, here, f"unknown kind {excerpt(value)}")
        if fieldname in SEAT_FIELDS and not scope.seat(value):
            raise _fail(loaded, here, f"unknown seat colour {excerpt(value)}")
        if fieldname == "order" and not scope.order(value):
            raise _fail(loaded, here, f"unknown order {excerpt(value)} (an order ID such as "
                        "red.minimale, or s.minimale for a seat variable s)")


def _check_state(loaded: Loaded, state: Any, pointer: str, scope: Scope, *,
                 then: bool) -> None:
    if not isinstance(state, dict) or state.get("count") not in STATE_KEYS:
        raise _fail(loaded, pointer, "state: {count: one of "
                    + ", ".join(sorted(STATE_KEYS)) + ", at:, kind:, seat:, and a comparison}")
    allowed = ("count", "kind", "seat", *COMPARE, *RELATIONS, "same_for_every_seat",
               *(() if then else ("at",)))
    for key in state:
        if key not in allowed:
            raise _fail(loaded, f"{pointer}/{key}", "a state condition has "
                        + ", ".join(f"{k}:" for k in allowed) + f" not {excerpt(key)}"
                        + (" (then: is the state right after the event)" if key == "at"
                           else ""))
    if state.get("at", "any_step") not in AT:
        raise _fail(loaded, f"{pointer}/at", "at: one of " + ", ".join(AT))
    if "kind" in state and not scope.kind(state["kind"]):
        raise _fail(loaded, f"{pointer}/kind", f"unknown kind {excerpt(state['kind'])}")
    if "seat" in state and state["seat"] not in ("any", "all") and not scope.seat(state["seat"]):
        raise _fail(loaded, f"{pointer}/seat", f"unknown seat {excerpt(state['seat'])}")
    relations = [r for r in RELATIONS if r in state]
    if state.get("same_for_every_seat") not in (None, True):
        raise _fail(loaded, f"{pointer}/same_for_every_seat", "same_for_every_seat: true")
    if "same_for_every_seat" in state:
        relations.append("same_for_every_seat")
        if state["count"] not in PER_SEAT:
            raise _fail(loaded, f"{pointer}/same_for_every_seat", "same_for_every_seat: "
                        "a count per seat (" + ", ".join(PER_SEAT) + ")")
    if len(relations) > 1 or (relations and any(k in state for k in COMPARE)):
        raise _fail(loaded, f"{pointer}/{relations[-1]}", "a count is compared with a "
                    "number or with one other count, not both")
    for rel in relations[:1]:
        if rel == "same_for_every_seat":
            continue
        other = state[rel]
        if not isinstance(other, dict) or not other or set(other) - {"seat", "kind", "count"}:
            raise _fail(loaded, f"{pointer}/{rel}", f"{rel}: the other count, as the keys "
                        "that differ (seat:, kind:, count:)")
        if "seat" in other and not scope.seat(other["seat"]):
            raise _fail(loaded, f"{pointer}/{rel}/seat", f"unknown seat {excerpt(other['seat'])}")
        if "kind" in other and not scope.kind(other["kind"]):
            raise _fail(loaded, f"{pointer}/{rel}/kind", f"unknown kind {excerpt(other['kind'])}")
        if other.get("count", state["count"]) not in STATE_KEYS:
            raise _fail(loaded, f"{pointer}/{rel}/count",
                        f"unknown count {excerpt(other['count'])}")
        if state.get("seat", "any") in ("any", "all") and \
                state["count"] in PER_SEAT and "seat" in other:
            raise _fail(loaded, f"{pointer}/seat", "a count of one seat compared with "
                        "another's names its own seat (seat: a colour or a variable)")
    _check_count(loaded, state, pointer)


def _check_count(loaded: Loaded, cond: Mapping[str, Any], pointer: str) -> None:
    for key in COMPARE:
        if key in cond and (type(cond[key]) is not int or cond[key] < 0):
            raise _fail(loaded, f"{pointer}/{key}", f"{key}: a whole number")
    low, high = cond.get("at_least", 0), cond.get("at_most")
    if "equals" in cond:
        low = max(low, cond["equals"])
        high = cond["equals"] if high is None else min(high, cond["equals"])
    if high is not None and low > high:   # at the second of the two
        raise _fail(loaded, f"{pointer}/{'at_most' if 'at_most' in cond else 'equals'}",
                    f"contradictory count: at least {low} and at most {high}")


def _check_measure(loaded: Loaded, measure: Mapping[str, Any], pointer: str) -> None:
    """``turns_until: C``, or ``some_seat: s`` with ``own_turns_until: C`` or
    ``own_turns: true``, or ``most_in_a_round: EVENT`` (``some_seat: s`` optional)."""
    forms = [k for k in MEASURE_FORMS if k in measure]
    if len(forms) != 1:
        raise _fail(loaded, pointer, "a measure mapping has one of " + ", ".join(
            f"{k}:" for k in MEASURE_FORMS))
    form = forms[0]
    scope = Scope()
    if form == "turns_until":
        _only(loaded, measure, pointer, ("turns_until",), "turns_until: a condition")
    elif form == "most_in_a_round":
        _only(loaded, measure, pointer, ("some_seat", form), "most_in_a_round: an event "
              "condition, some_seat: a seat it may name")
        if "some_seat" in measure:
            scope = scope.bind(loaded, pointer, "some_seat", measure["some_seat"])
        counted = measure[form]
        if not isinstance(counted, Mapping) or "event" not in counted or \
                any(k in counted for k in ("at_least", "at_most", "equals")):
            raise _fail(loaded, f"{pointer}/{form}", "most_in_a_round: an event condition "
                        "without a count (the measure is its count)")
    else:
        _only(loaded, measure, pointer, ("some_seat", form), f"{form}: counts the turns of "
              "the seat some_seat: binds")
        if "some_seat" not in measure:
            raise _fail(loaded, pointer, f"{form}: needs some_seat: (the seat whose turns "
                        "count)")
        scope = scope.bind(loaded, pointer, "some_seat", measure["some_seat"])
    if form == "own_turns":
        if measure[form] is not True:
            raise _fail(loaded, f"{pointer}/own_turns", "own_turns: true")
        return
    _check_condition(loaded, measure[form], f"{pointer}/{form}", scope)


__all__ = ["EVENTS", "MEASURES", "SCHEMA", "Question", "QuestionError", "check_question",
           "load_question", "rules_in_force"]
