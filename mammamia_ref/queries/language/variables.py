"""The question language's variables: seats and kinds a condition quantifies over, and
the seatings a question is judged on.

A condition may bind a **seat variable** (``some_seat: s``, ``every_seat: s``,
``two_seats: [a, b]``, two different seats) or a **kind variable** (``some_kind: k``,
``every_kind: k``) over the condition under ``holds:``, and a span may range over rounds
(``within: {round: any}`` or ``every``). Inside, a variable stands where a colour or a
kind may: ``where: {seat: s}``, ``state: {seat: s}``, ``result: {winner: s}``, and
``s.personal`` is the seat's personal kind, ``s.KEY`` the seat's order of that key
(``s.minimale``, ``s.salami4``: the order IDs are ``<colour>.<key>``).

Variables range over finite sets, so :func:`expand` writes a condition out, for one
game's colours and rules, into the core grammar that both routes judge
(:mod:`.judging` on the reference's games, :mod:`.conditions` in z3): ``all`` / ``any``
for the quantifiers, a colour or kind for each variable. No route ever sees a variable.

**Seatings.** The rules let the players choose their colours and who starts, and they
treat the colours alike but for each colour's personal kind; all kinds have the same
number of cards. So two games that differ by a renaming of colours (with their personal
kinds) that fixes every colour and kind a condition names are the same game to it.
:func:`seatings` lists one seating (colours in turn order, seat 0 starting) for each
class: every place of the colours the condition names (or of the owners of the kinds it
names), each absent or at any seat, the other seats filled with other colours. Every
answer covers every seating the rules allow.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator, Mapping
from typing import Any

from mammamia_ref.errors import SpecError
from mammamia_ref.rules import specdata
from mammamia_ref.rules.vocabulary import COLOURS, KINDS, ORDERS, ORDERS_OF, PERSONAL

_VOCABULARY = specdata.load_yaml("question_vocabulary.yaml")
QUANTIFIERS: tuple[str, ...] = tuple(_VOCABULARY["quantifiers"])
"""The vocabulary's quantifiers: over seats (``some_seat``, ...) or kinds (``some_kind``)."""
SEAT_QUANTIFIERS = tuple(q for q in QUANTIFIERS if q.endswith(("_seat", "_seats")))
KIND_QUANTIFIERS = tuple(q for q in QUANTIFIERS if q.endswith("_kind"))
if set(SEAT_QUANTIFIERS) | set(KIND_QUANTIFIERS) != set(QUANTIFIERS):   # pragma: no cover
    raise SpecError("question_vocabulary.yaml: a quantifier is over seats (_seat, _seats) "
                    "or kinds (_kind)")

ORDER_KEYS: tuple[str, ...] = tuple(o.split(".", 1)[1] for o in ORDERS_OF[COLOURS[0]])
"""What ``s.KEY`` may name of a seat's orders: the key of each of a colour's eight."""

VARIABLE = re.compile(r"^[a-z][a-z0-9_]{0,15}$")

RESERVED = frozenset({*COLOURS, *KINDS, "any", "all", "every", "none", "true", "false"})
"""Words a variable may not be named: a colour, a kind or a word of the grammar."""


def substitute(value: Any, seats: Mapping[str, str], kinds: Mapping[str, str]) -> Any:
    """A value with its variables written out: a seat variable as its colour,
    ``s.personal`` as its kind, ``s.KEY`` as the order ID, a kind variable as its kind.
    Any other value is itself."""
    if not isinstance(value, str):
        return value
    if value in seats:
        return seats[value]
    if value in kinds:
        return kinds[value]
    var, _, thing = value.partition(".")
    if thing and var in seats:
        colour = seats[var]
        return PERSONAL[colour] if thing == "personal" else f"{colour}.{thing}"
    return value


# the places of the core grammar where a colour, a kind or an order ID stands
_STATE_VALUES = ("seat", "kind")
_RESULT_VALUES = ("winner",)


def expand(cond: Mapping[str, Any], colours: tuple[str, ...], rounds: int,
           seats: Mapping[str, str] | None = None,
           kinds: Mapping[str, str] | None = None) -> dict[str, Any]:
    """``cond`` for a game seated ``colours`` of ``rounds`` rounds, in the core grammar:
    quantifiers as ``all`` / ``any`` over the seats (or kinds, or rounds), every variable
    replaced (:func:`substitute`)."""
    seats, kinds = dict(seats or {}), dict(kinds or {})

    def sub(value: Any) -> Any:
        return substitute(value, seats, kinds)

    def again(c: Mapping[str, Any], s: Mapping[str, str] = seats,
              k: Mapping[str, str] = kinds) -> dict[str, Any]:
        return expand(c, colours, rounds, s, k)

    if "all" in cond or "any" in cond:
        key = "all" if "all" in cond else "any"
        return {key: [again(c) for c in cond[key]]}
    if "not" in cond:
        return {"not": again(cond["not"])}
    if "some_seat" in cond or "every_seat" in cond:
        key = "some_seat" if "some_seat" in cond else "every_seat"
        var = cond[key]
        parts = [again(cond["holds"], {**seats, var: c}) for c in colours]
        return {"any" if key == "some_seat" else "all": parts}
    if "two_seats" in cond:
        a, b = cond["two_seats"]
        parts = [again(cond["holds"], {**seats, a: x, b: y})
                 for x, y in itertools.permutations(colours, 2)]
        return {"any": parts}
    if "some_kind" in cond or "every_kind" in cond:
        key = "some_kind" if "some_kind" in cond else "every_kind"
        var = cond[key]
        parts = [again(cond["holds"], seats, {**kinds, var: k}) for k in KINDS]
        return {"any" if key == "some_kind" else "all": parts}
    if "within" in cond:
        span = {k: (again(v) if k in ("after", "before") else sub(v) if k == "seat" else v)
                for k, v in cond["within"].items()}
        inner = again(cond["holds"])
        which = span.get("round")
        if which in ("any", "every"):
            parts = [{"within": {**span, "round": r}, "holds": inner}
                     for r in range(1, rounds + 1)]
            return {"any" if which == "any" else "all": parts}
        return {"within": span, "holds": inner}
    if "event" in cond:
        return _event(cond, sub)
    if "state" in cond:
        return {"state": _state(cond["state"], sub)}
    if "position_returns" in cond:
        return {"position_returns": True}
    if "result" in cond:
        return {"result": {k: (sub(v) if k in _RESULT_VALUES else v)
                           for k, v in cond["result"].items()}}
    raise ValueError(f"not a condition: {sorted(cond)}")   # pragma: no cover - checked


RELATIONS: tuple[str, ...] = tuple(_VOCABULARY["relations"])
"""A count compared with another count of the same game: the same condition with the
keys the relation gives replaced (another seat, another kind, other fields)."""


def _event(cond: Mapping[str, Any], sub: Any) -> dict[str, Any]:
    """An event condition with its variables replaced (in ``where:``, in a relation's
    ``where:``, in ``then:``)."""
    out = dict(cond)
    if "where" in cond:
        out["where"] = {k: deciding_event(v, sub) if k == "turned_by" else sub(v)
                        for k, v in cond["where"].items()}
    for rel in RELATIONS:
        if rel in cond:
            other = dict(cond[rel])
            if "where" in other:
                other["where"] = {k: sub(v) for k, v in other["where"].items()}
            out[rel] = other
    if "then" in cond:
        out["then"] = _state(cond["then"], sub)
    return out


def deciding_event(turned_by: Mapping[str, Any], sub: Any = lambda v: v) -> dict[str, Any]:
    """A ``turned_by`` (written ``{event: E, FIELD: VALUE, ...}``) as the core grammar
    has it: an event condition on the deciding event, ``{event: E, where: {...}}`` (each
    value through ``sub``: its variables written out)."""
    return {"event": turned_by["event"],
            "where": {k: sub(v) for k, v in turned_by.items() if k != "event"}}


def _state(state: Mapping[str, Any], sub: Any) -> dict[str, Any]:
    out = {k: (sub(v) if k in _STATE_VALUES else v) for k, v in state.items()}
    for rel in RELATIONS:
        if rel in state:
            out[rel] = {k: (sub(v) if k in _STATE_VALUES else v)
                        for k, v in state[rel].items()}
    return out


# ------------------------------------------------------------------ seatings


def named_colours(cond: Any, owners: bool = True) -> frozenset[str]:
    """The colours a condition (after :func:`expand` or not) names: as a colour, and
    (with ``owners``) as the colour of an order it names, or as the owner of a kind it
    names (each kind is one colour's personal kind)."""
    owner = {kind: colour for colour, kind in PERSONAL.items()}
    found: set[str] = set()

    def walk(value: Any) -> None:
        if isinstance(value, Mapping):
            for v in value.values():
                walk(v)
        elif isinstance(value, list):
            for v in value:
                walk(v)
        elif isinstance(value, str):
            if value in COLOURS:
                found.add(value)
            elif owners and value in KINDS:
                found.add(owner[value])
            elif owners and value in ORDERS:
                found.add(ORDERS[value].colour)

    walk(cond)
    return frozenset(found)


def seatings(players: int, cond: Any) -> list[tuple[str, ...]]:
    """One seating (colours in turn order from the starting player) for every class of
    games that the condition cannot tell apart (see the module's docstring); the
    manifest's first colours, in order, first."""
    named = sorted(named_colours(cond), key=COLOURS.index)
    others = [c for c in COLOURS if c not in named]
    out: list[tuple[str, ...]] = []
    for present in _subsets(named):
        for places in itertools.permutations(range(players), len(present)):
            free = players - len(present)
            if free > len(others):
                continue
            seating = [""] * players
            for colour, seat in zip(present, places, strict=True):
                seating[seat] = colour
            fill = iter(others)
            seating = [c or next(fill) for c in seating]
            out.append(tuple(seating))
    default = tuple(COLOURS[:players])
    out.sort(key=lambda s: (s != default, [COLOURS.index(c) for c in s]))
    return list(dict.fromkeys(out))


def _subsets(items: list[str]) -> Iterator[tuple[str, ...]]:
    for k in range(len(items) + 1):
        yield from itertools.combinations(items, k)


__all__ = ["KIND_QUANTIFIERS", "ORDER_KEYS", "QUANTIFIERS", "RELATIONS", "RESERVED",
           "SEAT_QUANTIFIERS", "VARIABLE", "deciding_event", "expand", "named_colours",
           "seatings", "substitute"]
