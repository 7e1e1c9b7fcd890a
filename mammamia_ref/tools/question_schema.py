"""Writes ``spec/schemas/question.schema.json``, the JSON Schema of question files, from
the spec: the question vocabulary (``spec/question_vocabulary.yaml``: events and their
fields, state counts, measures), the rules (``spec/rules.yaml``), the kinds and seats
(``spec/cards.yaml``) and the flags with their values (``spec/disputes.yaml``, house
flags too). Only the shape of a question file is written here; nothing of the
vocabulary is. ``tests/test_ask.py`` fails when the committed schema differs from what
the spec gives, and

    python -m mammamia_ref.tools.question_schema

writes it again after an event, a field, a measure, a rule or a flag value is added.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from mammamia_ref.formats.question_work import GAMES_MAX, TURNS_MAX
from mammamia_ref.rules import specdata
from mammamia_ref.rules.ruleset import parameter_specs
from mammamia_ref.rules.state import variant_values
from mammamia_ref.rules.vocabulary import COLOURS, KINDS

SCHEMA = "question.schema.json"


def vocabulary() -> dict[str, Any]:
    """``spec/question_vocabulary.yaml``."""
    data: dict[str, Any] = specdata.load_yaml("question_vocabulary.yaml")
    return data


def _field(fragment: dict[str, Any]) -> dict[str, Any]:
    """A field's type, ``enum: colours`` / ``enum: kinds`` spelt out."""
    lists = {"colours": list(COLOURS), "kinds": list(KINDS)}
    enum = fragment.get("enum")
    if isinstance(enum, str):
        return {**fragment, "enum": lists[enum]}
    return dict(fragment)


def _one_or_list(values: list[str]) -> dict[str, Any]:
    return {"oneOf": [{"enum": values}, {"type": "array", "minItems": 1, "uniqueItems": True,
                                          "items": {"enum": values}}]}


_VARIABLE = "^[a-z][a-z0-9_]{0,15}$"
_SEAT_THING = "^[a-z][a-z0-9_]{0,15}[.][a-z0-9_]+$"


def _or_variable(fragment: dict[str, Any], field: str) -> dict[str, Any]:
    """A field that may hold a variable (a seat's colour, a kind, an order) instead."""
    if field in ("seat", "owner", "winner", "kind", "order"):
        pattern = _VARIABLE if field != "order" else _SEAT_THING
        extra = [{"type": "string", "pattern": pattern}]
        if field == "kind":
            extra.append({"type": "string", "pattern": _SEAT_THING})
        return {"anyOf": [fragment, *extra]}
    return fragment


def _defs() -> dict[str, Any]:
    """The schema's ``$defs``: a condition on a game, a count of its state, the result, a
    span, a measure."""
    vocab = vocabulary()
    comparisons = {key: {"anyOf": [{"type": "integer", "minimum": 0},
                                   {"$ref": "#/$defs/rule_number"}], "description": text}
                   for key, text in vocab["comparisons"].items()}
    return {"count": _field(vocab["field_types"]["cards"]),   # a number, or a comparison
            "measure": _measure(vocab), "condition": _condition(vocab, comparisons),
            "state": _state(vocab, comparisons), "result": _result(vocab, comparisons),
            "span": _span(list(comparisons)), "rule_number": _rule_number(vocab)}


def _rule_number(vocab: dict[str, Any]) -> dict[str, Any]:
    """A comparison's number written as a number of the rules (``{number: hand_limit,
    plus: 1}``), read under the rules the question is asked under."""
    from mammamia_ref.queries.language.asked_under import NUMBERS

    return {"type": "object", "description": vocab["rule_number"], "required": ["number"],
            "additionalProperties": False,
            "properties": {"number": {"enum": list(NUMBERS)}, "plus": {"type": "integer"}}}


def _condition(vocab: dict[str, Any], comparisons: dict[str, Any]) -> dict[str, Any]:
    """A condition on a game: all, any, not of conditions, an event (with its rule, its
    fields and the state then), a state, the result, a position that comes back, within a
    span, a quantifier."""
    from mammamia_ref.queries.language.questions import CONDITION_KEYS

    events = vocab["events"]
    relations = list(vocab["relations"])
    quantifiers = vocab["quantifiers"]
    keys = list(CONDITION_KEYS)
    variable = {"type": "string", "pattern": _VARIABLE}
    relation = {"type": "object", "minProperties": 1}
    return {
        "type": "object", "description": "One of " + ", ".join(f"{k}:" for k in keys) + ".",
        "oneOf": [{"required": [key]} for key in keys],
        "properties": {
            "all": {"type": "array", "minItems": 1, "items": {"$ref": "#/$defs/condition"}},
            "any": {"type": "array", "minItems": 1, "items": {"$ref": "#/$defs/condition"}},
            "not": {"$ref": "#/$defs/condition"},
            "event": {"enum": list(events)},
            "rule": {"enum": sorted(r["id"] for r in specdata.rules())},
            "where": {"type": "object"},
            "then": {"$ref": "#/$defs/state"},
            **comparisons,
            **{rel: relation for rel in relations},
            "state": {"$ref": "#/$defs/state"},
            "result": {"$ref": "#/$defs/result"},
            "position_returns": {"const": True, "description": vocab["position_returns"]},
            "within": {"$ref": "#/$defs/span"},
            "holds": {"$ref": "#/$defs/condition"},
            **{q: ({"type": "array", "minItems": 2, "maxItems": 2, "items": variable}
                   if q == "two_seats" else variable) | {"description": text}
               for q, text in quantifiers.items()}},
        "allOf": [{"if": {"required": ["event"]},
                   "then": {"propertyNames": {"enum": ["event", "rule", "where", "then",
                                                       *comparisons, *relations]}},
                   "else": {"propertyNames": {"enum": [k for k in keys if k != "event"]
                                              + ["holds"]}}},
                  *_event_fields(vocab)]}


def _event_fields(vocab: dict[str, Any]) -> list[dict[str, Any]]:
    """For each event, the fields its ``where:`` may name (its own and those derived)."""
    types = {**vocab["field_types"], **vocab["derived_types"]}
    derived = vocab["derived_fields"]
    kinds = {"type": "object", "additionalProperties": False, "minProperties": 1,
             "properties": {kind: {"$ref": "#/$defs/count"} for kind in KINDS}}

    def field(name: str, f: str) -> dict[str, Any]:
        if f == "turned_by":   # the deciding event, with that event's own fields
            return {"oneOf": [{"type": "object", "additionalProperties": False,
                               "required": ["event"], "properties": {
                                   "event": {"const": deciding}, **{
                                       g: field(deciding, g) for g in
                                       sorted({*vocab["events"][deciding],
                                               *derived.get(deciding, [])})}}}
                              for deciding in types[f]["properties"]["event"]["enum"]]}
        return kinds if f in vocab["kind_counts"].get(name, []) else \
            _or_variable(_field(types[f]), f)

    return [{"if": {"properties": {"event": {"const": name}}, "required": ["event"]},
             "then": {"properties": {"where": {
                 "type": "object", "additionalProperties": False,
                 "properties": {f: field(name, f)
                                for f in sorted({*fields, *derived.get(name, [])})}}}}}
            for name, fields in vocab["events"].items()]


def _state(vocab: dict[str, Any], comparisons: dict[str, Any]) -> dict[str, Any]:
    """A count of a game's state, at a moment, of a kind or seat, compared."""
    relation = {"type": "object", "minProperties": 1}
    seat_value = _or_variable({"enum": ["any", "all", *COLOURS]}, "seat")
    return {"type": "object", "additionalProperties": False, "required": ["count"],
            "properties": {"count": {"enum": sorted(vocab["state_counts"])},
                           "at": {"enum": list(vocab["at"])},
                           "kind": _or_variable({"enum": list(KINDS)}, "kind"),
                           "seat": seat_value,
                           "same_for_every_seat": {"const": True},
                           **{rel: relation for rel in vocab["relations"]},
                           **comparisons}}


def _result(vocab: dict[str, Any], comparisons: dict[str, Any]) -> dict[str, Any]:
    """The game's result: its winner, how it was decided, how many won."""
    return {"type": "object", "additionalProperties": False, "minProperties": 1,
            "properties": {"winner": _or_variable({"enum": list(COLOURS)}, "winner"),
                           "decided_by": {"enum": list(vocab["decided_by"])},
                           "winners": {"type": "object", "additionalProperties": False,
                                       "minProperties": 1, "properties": comparisons}}}


def _span(comparisons: list[str]) -> dict[str, Any]:
    """A span of a game: a round (or any, every), rounds from and to, turns (a seat's
    own, with seat), after or before the first event that meets a condition (no
    count: the first occurrence bounds the span)."""
    from mammamia_ref.queries.language.variables import RELATIONS

    counted = [*comparisons, *RELATIONS]
    bound = {"allOf": [{"$ref": "#/$defs/condition"},
                       {"required": ["event"],
                        "not": {"anyOf": [{"required": [k]} for k in counted]}}]}
    return {"type": "object", "additionalProperties": False, "minProperties": 1,
            "properties": {
                "round": {"anyOf": [{"type": "integer", "minimum": 1},
                                    {"enum": ["any", "every"]}]},
                "from_round": {"type": "integer", "minimum": 1},
                "to_round": {"type": "integer", "minimum": 1},
                "turns": {"type": "integer", "minimum": 1},
                "seat": {"anyOf": [{"enum": list(COLOURS)},
                                   {"type": "string", "pattern": _VARIABLE}]},
                "after": bound, "before": bound},
            "dependentRequired": {"seat": ["turns"]}}


def _measure(vocab: dict[str, Any]) -> dict[str, Any]:
    """A number of a game, or a form of one (turns until a condition, for a seat)."""
    measures, forms = vocab["measures"], vocab["measure_forms"]
    return {"oneOf": [
        {"enum": list(measures), "description": "A number of a game: " + "; ".join(
            f"{name}: {text}" for name, text in measures.items()) + "."},
        {"type": "object", "additionalProperties": False,
         "description": "; ".join(f"{k}: {t}" for k, t in forms.items()) + ".",
         "properties": {"some_seat": {"type": "string", "pattern": _VARIABLE},
                        "turns_until": {"$ref": "#/$defs/condition"},
                        "own_turns_until": {"$ref": "#/$defs/condition"},
                        "own_turns": {"const": True},
                        "most_in_a_round": {"$ref": "#/$defs/condition"}}}]}


def build() -> dict[str, Any]:
    """The schema, as the spec gives it (a table: the question format's fields)."""
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "Mamma Mia! question",
        "description": (
            "A designer's question about what the rules make possible, answered by "
            "`mammamia ask` (docs/questions.md): what to find (find:, a condition on a "
            "game's events and states) or what to optimise (most: / fewest:, a measure), "
            "for which player counts, flag values and house rules, within which bound. "
            "Written as YAML restricted to the JSON-compatible subset. The loader "
            "(mammamia_ref/queries/language/questions.py) checks every file against this schema, "
            "and then what a schema cannot say (a contradictory bound or count, a "
            "house rule that exists). Generated from spec/question_vocabulary.yaml, "
            "spec/rules.yaml, spec/cards.yaml and spec/disputes.yaml by `python -m "
            "mammamia_ref.tools.question_schema`; tests/test_ask.py fails when it is stale."),
        "type": "object", "additionalProperties": False, "required": ["question"],
        "oneOf": [{"required": [goal]} for goal in ("find", "most", "fewest")],
        "properties": {
            "question": {"type": "string", "minLength": 1,
                         "pattern": "^[A-Za-z0-9][A-Za-z0-9_.-]*$",
                         "description": "The question's ID."},
            "title": {"type": "string", "minLength": 1},
            "text": {"type": "string", "description": "The question in words."},
            "find": {"$ref": "#/$defs/condition",
                     "description": "A game on which this condition holds."},
            "most": {"$ref": "#/$defs/measure"},
            "fewest": {"$ref": "#/$defs/measure"},
            "players": {"type": "array", "minItems": 1, "uniqueItems": True,
                        "items": {"type": "integer", "minimum": 2, "maximum": 5},
                        "description": "One answer a player count (default [2])."},
            "variants": {"type": "object", "additionalProperties": False,
                         "description": "Flag (spec/disputes.yaml variants:, house flags "
                         "too) to a value or a list of values: one answer a combination.",
                         "properties": {flag: _one_or_list(list(values))
                                        for flag, values in variant_values().items()}},
            "house": {"type": "string", "minLength": 1, "description": (
                "A house-rule file (spec/schemas/house-rule.schema.json), its path relative "
                "to the question file: every cell is answered under its flags and numbers, "
                "and every answer names it.")},
            "bound": _bound(),
            "whatever_the_others_do": {
                "type": "boolean", "description": "A question about what a player can "
                "force: beyond existential models, refused when true."},
            "sketch": _sketch()},
        "$defs": _defs()}


def _sketch() -> dict[str, Any]:
    """A question's sketches: part of a game given for the game model to fill in
    (:mod:`mammamia_ref.queries.language.sketch`)."""
    colour = {"enum": list(COLOURS)}
    keys = {"type": "array", "items": {"type": "string"}}
    return {"type": "array", "minItems": 1, "description": (
        "Leads for the game model, never bounds: a game of this outline is asked for "
        "first, replayed by the reference and judged by the question; none of the "
        "outline says nothing of the question."),
        "items": {"type": "object", "additionalProperties": False,
                  "required": ["players", "rounds"], "properties": {
                      "players": {"type": "integer", "minimum": 2, "maximum": 5},
                      "rounds": {"type": "array", "minItems": 1,
                                 "maxItems": parameter_specs()["rounds"]["max"],
                                 "items": {"type": "integer", "minimum": 0},
                                 "description": "The turns of each round; every round "
                                                "ends."},
                      "seated": {"type": "array", "items": colour, "uniqueItems": True,
                                 "description": "The colours clockwise; the first "
                                                "player is starts:' first, else the first "
                                                "of these."},
                      "starts": {"type": "array", "items": colour,
                                 "description": "The colour that starts each round."},
                      "places": {"type": "object", "propertyNames": colour,
                                 "additionalProperties": {"type": "array", "items": keys},
                                 "description": "A colour's orders, round by round, one "
                                                "on each of its first turns of the round "
                                                "(none on the rest)."},
                      "may_place": {"type": "object", "propertyNames": colour,
                                    "additionalProperties": keys,
                                    "description": "The only orders a colour may place."},
                      "variants": {"type": "object", "additionalProperties": False,
                                   "description": "The cells the sketch is one of (every "
                                                  "one by default).",
                                   "properties": {flag: _one_or_list(list(values))
                                                  for flag, values
                                                  in variant_values().items()}},
                      "holds": {"$ref": "#/$defs/condition", "description": (
                          "What the sketch's rounds must make, asked of the game model "
                          "instead of the question's condition or aim.")},
                      "then": {"type": "string", "minLength": 1, "description": (
                          "The policy that plays on after the sketch's rounds (random "
                          "by default; slow:COLOUR, feed:COLOUR:POLICY, careful, ...).")},
                      "aim": {"type": "integer", "minimum": 0, "description": (
                          "A most:'s or fewest:'s value to ask the sketch for (the "
                          "proved bound by default).")}}}}


def _bound() -> dict[str, Any]:
    """A question's bound: rounds, turns, games."""
    return {"type": "object", "additionalProperties": False, "description": (
        "The part of a game a find: condition is judged on: its first rounds "
        "rounds (the game's, unless given) and its first turns turns, all rounds "
        "together (no limit unless given); games: the most seeded games a search "
        "plays. A most: or fewest: takes games only: a measure is read off whole "
        "games."),
        "properties": {"rounds": {"type": "integer", "minimum": 1,
                                  "maximum": parameter_specs()["rounds"]["max"],
                                  "description": "At most the game's rounds under "
                                                 "the house rule in force."},
                       "turns": {"type": "integer", "minimum": 1,
                                 "maximum": TURNS_MAX},
                       "games": {"type": "integer", "minimum": 1,
                                 "maximum": GAMES_MAX,
                                 "description": "The most seeded games a search "
                                                "plays."}}}


def text() -> str:
    """The schema file's text."""
    return json.dumps(build(), indent=2, ensure_ascii=False) + "\n"


def main(argv: list[str] | None = None) -> int:
    path = specdata.spec_path(f"schemas/{SCHEMA}")
    new = text()
    if path.read_text(encoding="utf-8") == new:
        print(f"{path}: up to date")
        return 0
    path.write_text(new, encoding="utf-8")
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
