"""The event register, ``spec/events.yaml``: each event's fields and their types, the
rules that may carry it, the parts of the state it changes and its words. Read once;
the event schema and the docs' event table are written from it
(``python -m mammamia_ref.tools.event_register``), the narration says events in its
words and the kit names rules by what events touch."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any

from mammamia_ref.errors import SpecError
from mammamia_ref.rules.specdata import load_yaml, rule_ids
from mammamia_ref.rules.vocabulary import KINDS

# Each field type as a JSON Schema fragment (the schema written from the register).
TYPES: dict[str, dict[str, Any]] = {
    "seat": {"type": "integer", "minimum": 0, "maximum": 4},
    "seats": {"type": "array", "items": {"type": "integer", "minimum": 0, "maximum": 4}},
    "count": {"type": "integer", "minimum": 0},
    "count_map": {"type": "object", "propertyNames": {"enum": list(KINDS)},
                  "additionalProperties": {"type": "integer", "minimum": 0}},
    "counts": {"type": "array", "items": {"type": "integer", "minimum": 0}},
    "kind": {"enum": list(KINDS)},
    "order": {"type": "string", "minLength": 1},
    "card": {"type": "string", "minLength": 1},
    "source": {"enum": ["supply", "waiter"]},
    "text": {"type": "string"},
}
_PLACE = re.compile(r"\{(\w+)\}")
_PART = re.compile(r"\[([^\[\]]*)\]")
REGISTER = "spec/events.yaml"


@dataclass(frozen=True)
class Field:
    name: str
    type: str
    optional: bool = False
    note: str | None = None


@dataclass(frozen=True)
class EventEntry:
    """One event of the register."""

    name: str
    fields: tuple[Field, ...]
    rules: tuple[str, ...]
    touches: tuple[str, ...]
    words: str
    note: str | None = None
    rules_note: str | None = None

    def field(self, name: str) -> Field | None:
        return next((f for f in self.fields if f.name == name), None)


def _field(event: str, name: str, raw: Any) -> Field:
    spec = raw if isinstance(raw, dict) else {"type": raw}
    if spec.get("type") not in TYPES:
        raise SpecError(f"{REGISTER}: event {event}, field {name}: the type "
                        f"{spec.get('type')!r} is not one of {', '.join(TYPES)}")
    return Field(name, spec["type"], bool(spec.get("optional")), spec.get("note"))


def _entry(name: str, raw: Any) -> EventEntry:
    if not isinstance(raw, dict) or not isinstance(raw.get("fields"), dict) or \
            not isinstance(raw.get("rules"), list) or not isinstance(raw.get("words"), str):
        raise SpecError(f"{REGISTER}: event {name} needs fields (a map), rules (a list) "
                        "and words")
    entry = EventEntry(name, tuple(_field(name, k, v) for k, v in raw["fields"].items()),
                       tuple(raw["rules"]), tuple(raw.get("touches") or ()), raw["words"],
                       raw.get("note"), raw.get("rules_note"))
    unknown = [r for r in entry.rules if r not in rule_ids()]
    said = set(_PLACE.findall(entry.words))
    if unknown or not entry.rules:
        raise SpecError(f"{REGISTER}: event {name}: no rule, or rules not in spec/rules.yaml: "
                        f"{', '.join(unknown)}")
    if said - {f.name for f in entry.fields}:
        raise SpecError(f"{REGISTER}: event {name}: its words name "
                        f"{', '.join(sorted(said - {f.name for f in entry.fields}))}, "
                        "which are not its fields")
    return entry


@cache
def events() -> dict[str, EventEntry]:
    """Every event of the register, by name, in the register's order."""
    raw = load_yaml("events.yaml")
    listed = raw.get("events") if isinstance(raw, dict) else None
    if not isinstance(listed, dict) or not listed:
        raise SpecError(f"{REGISTER} lists no event")
    return {name: _entry(name, entry) for name, entry in listed.items()}


def touches() -> dict[str, tuple[str, ...]]:
    """The parts of the state each event changes (those it changes at all)."""
    return {name: e.touches for name, e in events().items() if e.touches}


def say(name: str, data: dict[str, Any], colour: Callable[[int], str]) -> str:
    """An event in its register words; ``colour`` names a seat. An event the register
    does not know is said by its name and fields."""
    entry = events().get(name)
    if entry is None:
        return f"{name} {data}"

    def value(match: re.Match[str]) -> str:
        return _in_words(entry.field(match[1]), data[match[1]], colour)

    def part(match: re.Match[str]) -> str:
        present = all(data.get(k) is not None and data.get(k) != {}
                      for k in _PLACE.findall(match[1]))
        return _PLACE.sub(value, match[1]) if present else ""

    return _PLACE.sub(value, _PART.sub(part, entry.words))


def _in_words(field: Field | None, value: Any, colour: Callable[[int], str]) -> str:
    kind = field.type if field else ""
    if kind == "seat":
        return "nobody" if value is None else colour(value)
    if kind == "seats":
        return " and ".join(colour(seat) for seat in value)
    if kind == "count_map" and isinstance(value, dict):
        return ", ".join(f"{n} {k}" for k, n in value.items() if n) or "nothing"
    return str(value)


def event_schema() -> dict[str, Any]:
    """``spec/schemas/event.schema.json``: one branch per event of the register."""
    branches = []
    for entry in events().values():
        properties: dict[str, Any] = {"event": {"const": entry.name},
                                      "rule": {"enum": list(entry.rules)}}
        properties |= {f.name: TYPES[f.type] for f in entry.fields}
        branches.append({"type": "object", "required": ["event", "rule", *(
            f.name for f in entry.fields if not f.optional)],
            "properties": properties, "additionalProperties": False})
    return {"$schema": "https://json-schema.org/draft/2020-12/schema",
            "title": "Mamma Mia! event",
            "description": "What a transition did. 'event' names it, 'rule' is the rule ID "
                           "in spec/rules.yaml that decided it; the other keys are its "
                           "details. Written from spec/events.yaml by "
                           "python -m mammamia_ref.tools.event_register; do not edit.",
            "oneOf": branches}


def _keys(entry: EventEntry) -> str:
    keys = ", ".join(f"`{f.name}`" + (f" ({f.note})" if f.note else "")
                     for f in entry.fields) or "none"
    return keys + (f" ({entry.note})" if entry.note else "")


def docs_table() -> str:
    """The event table of docs/state-format.md."""
    rows = [f"| `{e.name}` | {_keys(e)} | "
            f"{e.rules_note or ', '.join(f'`{r}`' for r in e.rules)} |"
            for e in events().values()]
    return "\n".join(["| event | keys | rule |", "|---|---|---|", *rows])
