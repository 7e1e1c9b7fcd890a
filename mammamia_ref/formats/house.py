"""A designer's house rule: a YAML file naming the flag values and the numbers of the
rules a game is played under (``docs/house-rules.md``, ``spec/schemas/house-rule.schema.json``).

    name: hand of eight
    purpose: a longer hand, fewer draws from the waiter
    parameters: {hand_limit: 8}
    variants: {refill: to_seven}

The file is untrusted: it is read by the safe loader, and every fault (an unknown key,
flag or parameter, a value out of its range, numbers the deck cannot serve at any player
count) is one :class:`HouseRuleError` naming the file, the line and the parameter,
before any game is played.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mammamia_ref.errors import VariantError
from mammamia_ref.formats.jsonform import schema_errors
from mammamia_ref.formats.limits import excerpt
from mammamia_ref.formats.safeyaml import InputFileError, Loaded, load_file
from mammamia_ref.rules.ruleset import Rules, did_you_mean, make_rules, plain, unserved
from mammamia_ref.rules.vocabulary import MAX_PLAYERS, MIN_PLAYERS

SCHEMA = "house-rule.schema.json"


class HouseRuleError(InputFileError):
    """A house-rule file that cannot be played: ``file``, ``line`` and ``name`` (the
    parameter or flag at fault, when there is one) say where."""

    def __init__(self, message: str, *, file: str, line: int | None = None,
                 name: str | None = None) -> None:
        super().__init__(message, file=file, line=line)
        self.name = name


@dataclass(frozen=True)
class HouseRule:
    """A loaded house rule: its text, and the rules it gives (flags over the defaults)."""

    name: str
    purpose: str
    file: str
    rules: Rules
    players: tuple[int, ...]  # the player counts whose deck serves it


def load_house(path: str | Path) -> HouseRule:
    """Read and check a house-rule file."""
    return parse_house(load_file(path))


def parse_house(loaded: Loaded) -> HouseRule:
    doc, file = loaded.data, loaded.file

    def fail(message: str, pointer: str = "", name: str | None = None) -> HouseRuleError:
        return HouseRuleError(message, file=file, line=loaded.line_of(pointer), name=name)

    fault = shape_fault(doc)
    if fault is not None:
        raise fail(fault[1], fault[0])
    variants: Mapping[str, Any] = doc.get("variants", {})
    parameters: Mapping[str, Any] = doc.get("parameters", {})
    try:
        rules = make_rules(variants, house=doc["name"])
    except VariantError as exc:
        raise fail(str(exc), f"/variants/{exc.flag}", exc.flag) from None
    try:
        rules = make_rules(parameters=parameters, base=rules)
    except VariantError as exc:
        raise fail(str(exc), f"/parameters/{exc.flag}", exc.flag) from None
    errors = schema_errors(doc, SCHEMA)  # what the checks above do not say (none known)
    if errors:
        pointer, message = errors[0]
        raise fail(f"not a house rule: {message} (at {pointer or '/'})", pointer)
    served = tuple(n for n in range(MIN_PLAYERS, MAX_PLAYERS + 1) if unserved(rules, n) is None)
    if not served:
        why = unserved(rules, MIN_PLAYERS) or ""
        named = [p for p in parameters if p in why] or list(parameters)  # the file's at fault
        name = named[0] if named else None
        blame = f" (parameter {name})" if name and name not in why else ""
        raise fail(f"the deck cannot serve this house rule at any player count{blame}: {why}",
                   f"/parameters/{name}" if name else "/parameters", name)
    return HouseRule(doc["name"], doc.get("purpose", ""), file, rules, served)


KEYS = ("name", "purpose", "parameters", "variants")
_LONGEST = {"name": 80, "purpose": 400}  # as the schema has them


def shape_fault(doc: Any) -> tuple[str, str] | None:
    """The first way ``doc`` is not shaped as a house rule, in a designer's words (with the
    JSON pointer to the fault), or None; the numbers and flags themselves are judged by
    :func:`~mammamia_ref.rules.ruleset.make_rules`.

    >>> shape_fault({"name": "x", "parameters": {"hand_limit": 8}}) is None
    True
    >>> shape_fault({"name": True})
    ('/name', 'name must be text, not the yes/no value true (put it in quotes)')
    >>> shape_fault({"name": "x", "colur": "red"})[1]
    "unknown key 'colur' (a house rule has name, purpose, parameters and variants)"
    """
    if not isinstance(doc, Mapping):
        return "", (f"a house rule is a map with the keys {', '.join(KEYS[:-1])} and "
                    f"{KEYS[-1]}; this file holds {plain(doc)}")
    for key in doc:
        if key not in KEYS:
            hint = did_you_mean(key, list(KEYS))
            return f"/{key}", (f"unknown key {excerpt(key)}{hint} (a house "
                               f"rule has {', '.join(KEYS[:-1])} and {KEYS[-1]})")
    if "name" not in doc:
        return "", "a house rule needs a name (name: my house rule), printed with every game"
    return _text_fault(doc) or _map_fault(doc)


def _text_fault(doc: Mapping[str, Any]) -> tuple[str, str] | None:
    """:func:`shape_fault` of the name and the purpose: text, a name not empty, neither
    longer than the schema allows."""
    for key, longest in _LONGEST.items():
        if key in doc:
            value = doc[key]
            if not isinstance(value, str):
                hint = "" if value is None else " (put it in quotes)"
                return f"/{key}", f"{key} must be text, not {plain(value)}{hint}"
            if not value.strip() and key == "name":
                return "/name", "name must not be empty"
            if len(value) > longest:
                return f"/{key}", f"{key} is at most {longest} characters, not {len(value)}"
    return None


def _map_fault(doc: Mapping[str, Any]) -> tuple[str, str] | None:
    """:func:`shape_fault` of the parameters and the variants: each a map."""
    examples = {"parameters": "{hand_limit: 8}", "variants": "{refill: to_seven}"}
    for key, example in examples.items():
        if key in doc and not isinstance(doc[key], Mapping):
            what = "a parameter's name to its number" if key == "parameters" \
                else "a flag's name to its value"
            return f"/{key}", (f"{key} is a map from {what} ({key}: {example}), "
                               f"not {plain(doc[key])}")
    return None


def house_rules(house: HouseRule | None, variants: Mapping[str, str] | None = None) -> Rules:
    """A game's rules: the house rule's (or the spec's), with ``variants`` given on the
    command line laid over its flag values."""
    if house is None:
        return make_rules(variants)
    return make_rules(variants, base=house.rules)
