"""The game's vocabulary, built from ``spec/cards.yaml``: ingredient kinds, colours,
orders and the count maps that hold ingredient cards.

Conventions used throughout the package:

- a *kind* is an ingredient ID such as ``"salami"``; ``KINDS`` fixes their order;
- ``Counts`` is a tuple of one count per kind, in ``KINDS`` order (a hand's
  ingredients, the table, the used pile, the box);
- a *seat* is a player's index, numbered clockwise from 0;
- an *order ID* is ``"<colour>.<key>"``, e.g. ``green.salami4`` or ``green.minimale``;
- the Mamma Mia! card is ``MAMMA_MIA`` wherever it lies in a pile.

>>> ORDERS["green.salami4"].requirement(ORDER_TYPES)
(4, 0, 0, 1, 0)
>>> format_counts(parse_counts({"pineapple": 2}))
{'salami': 0, 'pineapple': 2, 'mushroom': 0, 'pepper': 0, 'olive': 0}
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from operator import ge
from typing import Any

from mammamia_ref.errors import MalformedError, SpecError, excerpt
from mammamia_ref.rules import specdata

Counts = tuple[int, ...]

_CARDS = specdata.cards()

KINDS: tuple[str, ...] = tuple(entry["id"] for entry in _CARDS["ingredients"])
COPIES: Counts = tuple(int(entry["copies"]) for entry in _CARDS["ingredients"])
KIND_INDEX: dict[str, int] = {kind: i for i, kind in enumerate(KINDS)}
COLOURS: tuple[str, ...] = tuple(entry["id"] for entry in _CARDS["colours"])
PERSONAL: dict[str, str] = {entry["id"]: entry["personal"] for entry in _CARDS["colours"]}
ORDER_TYPES: dict[str, dict[str, int]] = _CARDS["order_types"]
ORDER_TYPE_CODES: dict[str, int] = {name: code for code, name in enumerate(ORDER_TYPES)}
"""A code per order type, in the order of ``spec/cards.yaml``: the engines' and the z3
models' integer for a type."""
MIN_PLAYERS: int = int(_CARDS["players"]["min"])
MAX_PLAYERS: int = int(_CARDS["players"]["max"])
MAMMA_MIA: str = _CARDS["mamma_mia_card"]
NO_CARDS: Counts = (0,) * len(KINDS)

if len(set(KINDS)) != len(KINDS) or set(PERSONAL.values()) - set(KINDS):
    raise SpecError("spec/cards.yaml: kinds must be unique and cover every personal kind")


@dataclass(frozen=True, slots=True)
class Order:
    """One order card. ``other`` is the kind of a standard order's four (else None)."""

    id: str
    colour: str
    type: str
    other: str | None = None

    @property
    def personal(self) -> str:
        return PERSONAL[self.colour]

    def requirement(self, shapes: Mapping[str, Mapping[str, int]], named: str | None = None
                    ) -> Counts:
        """The exact cards the order needs under a game's order shapes (``ORDER_TYPES``
        with the game's counts: ``rules.ruleset.order_shapes``); Monotoni and Minimale
        need the named kind.

        Bombastica has no fixed requirement (see ``oven.bombastica``) and raises.
        """
        shape = shapes[self.type]
        if self.type == "one_of_each":
            return (shape["each"],) * len(KINDS)
        if self.type == "bombastica":
            raise ValueError("a Pizza Bombastica needs a total, not fixed kinds")
        kind = self.other if self.type == "standard" else named
        if kind is None:
            raise ValueError(f"{self.id} needs a named kind")
        need = [0] * len(KINDS)
        need[KIND_INDEX[self.personal]] += shape["personal"]
        need[KIND_INDEX[kind]] += shape["count"]
        return tuple(need)


def _build_orders() -> dict[str, Order]:
    orders: dict[str, Order] = {}
    for colour in COLOURS:
        for kind in KINDS:
            if kind != PERSONAL[colour]:
                order = Order(f"{colour}.{kind}{ORDER_TYPES['standard']['count']}", colour,
                              "standard", kind)
                orders[order.id] = order
        for special in ("one_of_each", "bombastica", "monotoni", "minimale"):
            orders[f"{colour}.{special}"] = Order(f"{colour}.{special}", colour, special)
    return orders


ORDERS: dict[str, Order] = _build_orders()
ORDERS_OF: dict[str, tuple[str, ...]] = {
    colour: tuple(oid for oid, order in ORDERS.items() if order.colour == colour)
    for colour in COLOURS
}


def kind_index(kind: Any, where: str = "") -> int:
    """The index of an ingredient kind; a clear error for anything else."""
    if not isinstance(kind, str) or kind not in KIND_INDEX:
        raise MalformedError(f"unknown ingredient kind {excerpt(kind)}; expected one of "
                             f"{', '.join(KINDS)}", where=where, value=kind)
    return KIND_INDEX[kind]


def parse_counts(data: Any, where: str = "") -> Counts:
    """A count map ``{kind: n}`` (omitted kinds are 0) as ``Counts``."""
    if not isinstance(data, Mapping):
        raise MalformedError("expected a map of ingredient kind to count", where=where, value=data)
    counts = [0] * len(KINDS)
    for kind, count in data.items():
        index = kind_index(kind, f"{where}/{kind}")
        if type(count) is not int or count < 0:
            raise MalformedError("a count must be a non-negative integer",
                                 where=f"{where}/{kind}", value=count)
        counts[index] = count
    return tuple(counts)


def format_counts(counts: Counts) -> dict[str, int]:
    """The canonical count map: every kind, in ``KINDS`` order."""
    return {kind: counts[i] for i, kind in enumerate(KINDS)}


def add(a: Counts, b: Counts) -> Counts:
    return tuple(x + y for x, y in zip(a, b, strict=True))


def subtract(a: Counts, b: Counts) -> Counts:
    return tuple(x - y for x, y in zip(a, b, strict=True))


def shortfall(need: Counts, have: Counts) -> Counts:
    """What ``have`` lacks of ``need``, kind by kind."""
    return tuple(max(0, n - h) for n, h in zip(need, have, strict=True))


def covers(have: Iterable[int], need: Iterable[int]) -> bool:
    """Whether ``have`` holds at least ``need`` of every kind (both in ``KINDS`` order)."""
    return all(map(ge, have, need))


def with_kind(counts: Counts, kind: str, delta: int) -> Counts:
    index = KIND_INDEX[kind]
    return counts[:index] + (counts[index] + delta,) + counts[index + 1:]


def counts_of(cards: Iterable[str]) -> Counts:
    """The ingredient counts of a sequence of cards (orders and the Mamma Mia! card ignored)."""
    counts = [0] * len(KINDS)
    for card in cards:
        if card in KIND_INDEX:
            counts[KIND_INDEX[card]] += 1
    return tuple(counts)


def cards_of(counts: Counts) -> tuple[str, ...]:
    """The ingredient cards of a count map, in canonical (sorted) order."""
    return tuple(kind for kind, count in zip(KINDS, counts, strict=True) for _ in range(count))
