"""The rules of one game: a value of every variant flag and every number of the rules.

Every model reads a game's rules from this one immutable value, built once by
:func:`make_rules` from the spec's defaults (``spec/disputes.yaml`` for the flags,
``spec/cards.yaml`` for the parameters), a house rule and the command line. Its fields
are typed (``rules/typed_spec.py``, generated from the spec), so ``mypy --strict`` finds
every reader of a flag; no code outside this module looks a flag or a parameter up by
its name.

>>> rules = make_rules({"refill": "as_many_as_played"}, {"hand_limit": 8})
>>> rules.flags.refill is Refill.AS_MANY_AS_PLAYED, rules.parameters.hand_limit
(True, 8)
>>> rules.non_default(), rules.non_default_parameters()
({'refill': 'as_many_as_played'}, {'hand_limit': 8})
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from functools import cache
from typing import Any

from mammamia_ref.errors import VariantError, excerpt
from mammamia_ref.rules import specdata
from mammamia_ref.rules.typed_spec import (
    FLAG_TYPES,
    PARAMETER_NAMES,
    Flags,
    Parameters,
    Refill,
    Trimming,
)
from mammamia_ref.rules.vocabulary import COPIES, MAX_PLAYERS, MIN_PLAYERS, ORDER_TYPES

ParameterValue = int | dict[str, int]
"""A parameter as the formats give it: a number, or a map by player count ("2" to "5")."""

__all__ = ["Flags", "Parameters", "Refill", "Rules", "Trimming", "default_rules", "make_rules"]


@cache
def parameter_specs() -> dict[str, dict[str, Any]]:
    """Every parameter's entry in ``spec/cards.yaml`` (``parameters:``), by name."""
    return {entry["name"]: entry for entry in specdata.cards()["parameters"]}


def _default_of(entry: dict[str, Any]) -> Any:
    value: Any = specdata.cards()
    for key in entry["at"]:
        value = value[key]
    return value


def _per_players(counts: Mapping[Any, int]) -> tuple[int, ...]:
    return tuple(int(counts.get(str(n), counts.get(n, 0))) if n >= MIN_PLAYERS else 0
                 for n in range(MAX_PLAYERS + 1))


@cache
def default_parameters() -> Parameters:
    """Today's numbers of the rules, from ``spec/cards.yaml``."""
    values: dict[str, Any] = {name: (_per_players(_default_of(entry)) if entry.get("per_players")
                     else int(_default_of(entry)))
              for name, entry in parameter_specs().items()}
    return Parameters(**values)


@cache
def default_flags() -> Flags:
    """Every flag at its default ruling, from ``spec/disputes.yaml``."""
    values: dict[str, Any] = {entry["flag"]: FLAG_TYPES[entry["flag"]](entry["default"])
                              for entry in specdata.variant_flags()}
    return Flags(**values)


@dataclass(frozen=True, slots=True)
class Rules:
    """The rules a game is played under. ``house`` names the house rule they came from
    (``None``: the spec's rules with command-line flags only)."""

    flags: Flags
    parameters: Parameters
    house: str | None = None

    def as_dict(self) -> dict[str, str]:
        """Every flag's value, by flag name (the JSON forms' ``variants``)."""
        return {f.name: str(getattr(self.flags, f.name)) for f in fields(self.flags)}

    def non_default(self) -> dict[str, str]:
        """The flags whose value is not the default ruling."""
        defaults = default_flags()
        return {name: value for name, value in self.as_dict().items()
                if getattr(defaults, name) != value}

    def parameters_dict(self) -> dict[str, ParameterValue]:
        """Every parameter's value (a per-players one as a map from "2" to "5")."""
        return {name: _outward(name, getattr(self.parameters, name)) for name in PARAMETER_NAMES}

    def non_default_parameters(self) -> dict[str, ParameterValue]:
        """The parameters whose value is not the spec's, as :meth:`parameters_dict` gives them."""
        defaults = default_parameters()
        return {name: _outward(name, getattr(self.parameters, name)) for name in PARAMETER_NAMES
                if getattr(self.parameters, name) != getattr(defaults, name)}

    def is_default(self) -> bool:
        return not self.non_default() and not self.non_default_parameters()

    def describe(self) -> str:
        """One line naming what differs from the spec's rules, for reports."""
        parts = [f"{k}={v}" for k, v in self.non_default().items()]
        parts += [f"{k}={_say(v)}" for k, v in self.non_default_parameters().items()]
        head = f"house rule {self.house!r}: " if self.house else ""
        return head + (", ".join(parts) if parts else "the default rulings and parameters")


def _outward(name: str, value: Any) -> ParameterValue:
    if parameter_specs()[name].get("per_players"):
        return {str(n): value[n] for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)}
    return int(value)


def _say(value: ParameterValue) -> str:
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {v}" for k, v in value.items()) + "}"
    return str(value)


def plain(value: Any) -> str:
    """A value as a designer wrote it in a file, in words rather than Python's spelling:
    ``"8"`` is the text "8", ``True`` a yes/no value, ``None`` nothing.

    >>> plain("8"), plain(True), plain(None), plain(8), plain({"2": 4})
    ('the text "8"', 'the yes/no value true', 'nothing (an empty value)', '8', 'a map')
    """
    if value is None:
        return "nothing (an empty value)"
    if isinstance(value, bool):
        return f"the yes/no value {str(value).lower()}"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        cut = excerpt(value)   # a line of another file is never quoted whole
        if cut != repr(value):   # cut (excerpt quotes a text it keeps whole by its repr)
            return f"the text {cut}"
        return f'the text "{value.encode("unicode_escape").decode("ascii")}"'
    if isinstance(value, Mapping):
        return "a map"
    if isinstance(value, list | tuple):
        return "a list"
    return f"a {type(value).__name__}"


def _key(key: Any) -> str:
    """A map's key as written (a player count is often quoted: "2")."""
    return str(key)[:20] if isinstance(key, str | int) else plain(key)


def did_you_mean(word: Any, known: list[str]) -> str:
    """``"; did you mean X?"`` for a near miss among ``known``, else ``""``."""
    from difflib import get_close_matches

    near = get_close_matches(word, known, n=1, cutoff=0.6) if isinstance(word, str) else []
    return f"; did you mean {near[0]}?" if near else ""


def _flag(name: str, value: Any) -> Any:
    kinds = FLAG_TYPES.get(name)
    if kinds is None:
        hint = did_you_mean(name, list(FLAG_TYPES))
        raise VariantError(f"unknown variant flag {excerpt(name)}{hint}"
                           f" (known flags: {', '.join(FLAG_TYPES)})", flag=name, value=value)
    allowed = [member.value for member in kinds]
    if not isinstance(value, str):
        raise VariantError(f"variant {name!r} takes one of {', '.join(allowed)}, not "
                           f"{plain(value)}", flag=name, value=value)
    if value not in allowed:
        raise VariantError(f"unknown value {excerpt(value)} for variant {excerpt(name)}"
                           f"{did_you_mean(value, allowed)} (expected one of "
                           f"{', '.join(allowed)})", flag=name, value=value)
    return kinds(value)


def _number(name: str, value: Any, entry: dict[str, Any], where: str = "") -> int:
    if type(value) is not int or not entry["min"] <= value <= entry["max"]:
        hint = " (write the number without quotes)" if isinstance(value, str) and \
            value.strip().isdigit() else ""
        raise VariantError(f"parameter {name}{where} must be a whole number from {entry['min']} "
                           f"to {entry['max']} ({entry['rule']}), not {plain(value)}{hint}",
                           flag=name, value=value)
    return value


def _parameter(name: str, value: Any, default: Any) -> Any:
    entry = parameter_specs().get(name)
    if entry is None:
        hint = did_you_mean(name, list(PARAMETER_NAMES))
        raise VariantError(f"unknown parameter {excerpt(name)}{hint}"
                           f" (known parameters: {', '.join(PARAMETER_NAMES)})",
                           flag=name, value=value)
    if not entry.get("per_players"):
        return _number(name, value, entry)
    if not isinstance(value, Mapping):
        raise VariantError(f"parameter {name} is a map from player count "
                           f"({MIN_PLAYERS} to {MAX_PLAYERS}) to a number, such as "
                           f'{{"2": 4}}; not {plain(value)}', flag=name, value=value)
    counts = list(default)
    for players, count in value.items():
        seat_count = int(players) if str(players).isdigit() and len(str(players)) < 3 else None
        if seat_count is None or not MIN_PLAYERS <= seat_count <= MAX_PLAYERS:
            raise VariantError(f"parameter {name} is given by player count, {MIN_PLAYERS} to "
                               f"{MAX_PLAYERS}; not {_key(players)}", flag=name, value=players)
        counts[seat_count] = _number(name, count, entry, f" for {seat_count} players")
    return tuple(counts)


def make_rules(variants: Mapping[str, Any] | None = None,
               parameters: Mapping[str, Any] | None = None, *,
               house: str | None = None, base: Rules | None = None) -> Rules:
    """``base`` (the defaults) with the flag values and parameters given; an unknown
    flag, value or parameter, or a number out of its range, is refused
    (``VariantError`` naming it in ``flag``)."""
    start = base or default_rules()
    flags = {f.name: getattr(start.flags, f.name) for f in fields(start.flags)}
    for name, value in (variants or {}).items():
        flags[name] = _flag(name, value)
    numbers = {name: getattr(start.parameters, name) for name in PARAMETER_NAMES}
    for name, value in (parameters or {}).items():
        numbers[name] = _parameter(name, value, numbers.get(name))
    return Rules(Flags(**flags), Parameters(**numbers), house if house else start.house)


@cache
def default_rules() -> Rules:
    """The spec's rules: every default ruling, every number as ``spec/cards.yaml`` has it."""
    return Rules(default_flags(), default_parameters())


def ingredient_cards(rules: Rules, players: int) -> int:
    """The ingredient cards in play at this many players, after the trimming."""
    trimmed = rules.parameters.trimming[players] if rules.flags.trimming is Trimming.ON else 0
    return sum(max(0, copies - trimmed) for copies in COPIES)


def largest_hand(parameters: Parameters) -> int:
    """The most cards a hand can hold: the refill stops at the hand limit
    (``turn.draw``), and a first hand (``setup.deal``, ``setup.waiter``) may start above a
    house rule's lower limit, never to grow."""
    return max(parameters.hand_limit, parameters.starting_ingredients + parameters.starting_orders)


def unserved(rules: Rules, players: int) -> str | None:
    """Why the deck cannot serve this game (more cards dealt than exist), or None.

    ``setup.deal`` deals ``starting_ingredients`` to each player from the trimmed deck
    and at least one card must be left for the supply; ``setup.trim`` cannot remove more
    copies than a kind has; ``setup.waiter`` takes ``starting_orders`` of eight orders."""
    p = rules.parameters
    if p.trimming[players] > min(COPIES):
        return (f"trimming removes {p.trimming[players]} cards of each kind at {players} "
                f"players, but a kind has {min(COPIES)} [setup.trim]")
    cards = ingredient_cards(rules, players)
    if players * p.starting_ingredients >= cards:
        return (f"starting_ingredients={p.starting_ingredients} deals "
                f"{players * p.starting_ingredients} cards to {players} players, but the deck "
                f"holds {cards} ingredient cards and the supply needs one [setup.deal]")
    return None


@cache
def order_shapes(parameters: Parameters) -> dict[str, dict[str, int]]:
    """The order types of ``spec/cards.yaml`` with this game's counts: a parameter whose
    default lies at ``order_types.<type>.<key>`` sets that key."""
    shapes = {kind: dict(shape) for kind, shape in ORDER_TYPES.items()}
    for name, entry in parameter_specs().items():
        at = entry["at"]
        if len(at) == 3 and at[0] == "order_types":
            shapes[at[1]][at[2]] = getattr(parameters, name)
    return shapes
