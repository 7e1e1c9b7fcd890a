"""The actions: one per decision the rules describe, with paired parse/format
functions for their canonical JSON form.

Actions carry no seat: an action is always taken by whoever must decide
(:func:`mammamia_ref.rules.game.to_move`), or by chance at a shuffle.

>>> parse_action({"type": "play", "kind": "salami", "count": 3})
Play(kind='salami', count=3)
>>> format_action(Draw("waiter"))
{'type': 'draw', 'source': 'waiter'}
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from mammamia_ref.errors import MalformedError, excerpt
from mammamia_ref.rules.vocabulary import (
    KINDS,
    MAMMA_MIA,
    ORDERS,
    Counts,
    format_counts,
    kind_index,
    parse_counts,
)


@dataclass(frozen=True, slots=True)
class Shuffle:
    """Chance: the named pile now lies in ``order`` (top first)."""

    pile: str
    order: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Play:
    """Put ``count`` ingredient cards of ``kind`` on the oven (``turn.play``)."""

    kind: str
    count: int


@dataclass(frozen=True, slots=True)
class Pass:
    """Play no ingredient (only without ingredient cards: ``turn.pass``)."""


@dataclass(frozen=True, slots=True)
class PlaceOrder:
    """Put this order card from hand on the oven (``turn.place_order``)."""

    order: str


@dataclass(frozen=True, slots=True)
class NoOrder:
    """Place no order this turn."""


@dataclass(frozen=True, slots=True)
class Draw:
    """Refill from ``"supply"`` or ``"waiter"``; ``count`` only under ``draw_amount=any``."""

    source: str
    count: int | None = None


@dataclass(frozen=True, slots=True)
class NameKind:
    """Name the kind of a revealed Monotoni or Minimale."""

    kind: str


@dataclass(frozen=True, slots=True)
class Complete:
    """Complete the revealed order with these ingredient cards from hand."""

    cards: Counts


@dataclass(frozen=True, slots=True)
class Decline:
    """Do not complete the revealed order: it fails."""


Action = Shuffle | Play | Pass | PlaceOrder | NoOrder | Draw | NameKind | Complete | Decline

DRAW_SOURCES = ("supply", "waiter")


def format_action(action: Action) -> dict[str, Any]:
    """The canonical JSON form of an action."""
    match action:
        case Shuffle(pile, order):
            return {"type": "shuffle", "pile": pile, "order": list(order)}
        case Play(kind, count):
            return {"type": "play", "kind": kind, "count": count}
        case Pass():
            return {"type": "pass"}
        case PlaceOrder(order):
            return {"type": "place_order", "order": order}
        case NoOrder():
            return {"type": "no_order"}
        case Draw(source, None):
            return {"type": "draw", "source": source}
        case Draw(source, count):
            return {"type": "draw", "source": source, "count": count}
        case NameKind(kind):
            return {"type": "name_kind", "kind": kind}
        case Complete(cards):
            return {"type": "complete", "cards": format_counts(cards)}
        case Decline():
            return {"type": "decline"}
    raise TypeError(f"not an action: {action!r}")


_FIELDS: dict[str, tuple[set[str], set[str]]] = {  # type: (required keys, optional keys)
    "shuffle": ({"pile", "order"}, set()),
    "play": ({"kind", "count"}, set()),
    "pass": (set(), set()),
    "place_order": ({"order"}, set()),
    "no_order": (set(), set()),
    "draw": ({"source"}, {"count"}),
    "name_kind": ({"kind"}, set()),
    "complete": ({"cards"}, set()),
    "decline": (set(), set()),
}


def parse_action(data: Any, where: str = "action") -> Action:
    """An action from its JSON form, with a clear error for anything malformed."""
    match _action_type(data, where):
        case "shuffle":
            return _shuffle(data, where)
        case "play":
            kind_index(data["kind"], f"{where}/kind")
            return Play(data["kind"], _count(data["count"], f"{where}/count"))
        case "pass":
            return Pass()
        case "place_order":
            return PlaceOrder(_order_id(data["order"], f"{where}/order"))
        case "no_order":
            return NoOrder()
        case "draw":
            return _draw(data, where)
        case "name_kind":
            kind_index(data["kind"], f"{where}/kind")
            return NameKind(data["kind"])
        case "complete":
            return Complete(parse_counts(data["cards"], f"{where}/cards"))
        case _:
            return Decline()


def _action_type(data: Any, where: str) -> str:
    """The type of an action whose keys are those its type takes."""
    if not isinstance(data, Mapping) or not isinstance(data.get("type"), str):
        raise MalformedError("an action is a map with a string 'type'", where=where, value=data)
    kind_of: str = data["type"]
    if kind_of not in _FIELDS:
        raise MalformedError(f"unknown action type {excerpt(kind_of)}; expected one of "
                             f"{', '.join(_FIELDS)}", where=f"{where}/type", value=kind_of)
    required, optional = _FIELDS[kind_of]
    keys = set(data) - {"type"}
    if missing := required - keys:
        raise MalformedError(f"{kind_of} needs {', '.join(sorted(missing))}", where=where,
                             value=data)
    if extra := keys - required - optional:
        raise MalformedError(f"{kind_of} takes no {', '.join(sorted(extra))}", where=where,
                             value=data)
    return kind_of


def _shuffle(data: Mapping[str, Any], where: str) -> Shuffle:
    order = data["order"]
    if not isinstance(data["pile"], str) or not isinstance(order, list) or not all(
            isinstance(card, str) and (card in ORDERS or card in KINDS or card == MAMMA_MIA)
            for card in order):
        raise MalformedError("a shuffle names a pile and lists known card IDs",
                             where=where, value=data)
    return Shuffle(data["pile"], tuple(order))


def _draw(data: Mapping[str, Any], where: str) -> Draw:
    if data["source"] not in DRAW_SOURCES:
        raise MalformedError("the draw source is 'supply' or 'waiter'",
                             where=f"{where}/source", value=data["source"])
    count = _count(data["count"], f"{where}/count") if "count" in data else None
    return Draw(data["source"], count)


def check_action(action: Action) -> None:
    """Refuse an action built in code with fields our format does not allow (an unknown
    kind or source, a negative count): the same checks as :func:`parse_action`."""
    try:
        doc = format_action(action)
    except (TypeError, IndexError) as exc:
        raise MalformedError(f"not a well-formed action: {action!r}", value=action) from exc
    parse_action(doc)


def _count(value: Any, where: str) -> int:
    if type(value) is not int or value < 0:
        raise MalformedError("expected a non-negative integer", where=where, value=value)
    return value


def _order_id(value: Any, where: str) -> str:
    if not isinstance(value, str) or value not in ORDERS:
        raise MalformedError(f"unknown order ID {excerpt(value)}", where=where, value=value)
    return value


def describe(action: Action) -> str:
    """A short human reading of an action, for logs and traces."""
    match action:
        case Shuffle(pile, order):
            return f"shuffle {pile} ({len(order)} cards)"
        case Play(kind, count):
            return f"play {count} {kind}"
        case Pass():
            return "pass"
        case PlaceOrder(order):
            return f"place order {order}"
        case NoOrder():
            return "no order"
        case Draw(source, None):
            return f"draw from the {source}"
        case Draw(source, count):
            return f"draw {count} from the {source}"
        case NameKind(kind):
            return f"name {kind}"
        case Complete(cards):
            given = ", ".join(f"{n} {k}" for k, n in format_counts(cards).items() if n)
            return f"complete from hand with {given or 'nothing'}"
        case Decline():
            return "decline"
    return repr(action)
