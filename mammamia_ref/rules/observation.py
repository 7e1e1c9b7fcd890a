"""Chapter: what a player may know. :func:`observation` keeps, of a state, exactly what
one player at the table knows under the information rules (``information.*`` in
``spec/rules.yaml``), so that a policy, a port's AI or a user interface that decides
from it sees what that player would, and nothing more.

Two states that differ only in hidden cards (the order of the supply and the waiters,
other players' hands, covered orders in the oven under ``oven_memory=announced``, the
used pile under ``used_pile=closed``) give equal observations. The legal actions of the
deciding player are a function of their observation.

The canonical JSON form, format ``mammamia-observation/1``, is validated by
``spec/schemas/observation.schema.json`` and documented in ``docs/observation.md``;
``observation_from_json(obs.to_json()) == obs`` for every observation.

>>> from mammamia_ref import make_config, new_game
>>> seen = observation(new_game(make_config(2)), 0)
>>> seen.to_json()["oven"], seen.hand.size, seen.supply_size
({'top': None, 'stack': []}, 0, 40)
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

import jsonschema

from mammamia_ref.errors import MalformedError, VariantError
from mammamia_ref.rules import specdata
from mammamia_ref.rules.state import (
    GameConfig,
    GameState,
    Hand,
    Phase,
    Reveal,
    Rules,
    make_config,
)
from mammamia_ref.rules.typed_spec import CardCounts, OvenMemory, UsedPile
from mammamia_ref.rules.vocabulary import (
    KIND_INDEX,
    KINDS,
    ORDERS,
    ORDERS_OF,
    Counts,
    format_counts,
    parse_counts,
)

OBSERVATION_FORMAT = "mammamia-observation/1"


@dataclass(frozen=True, slots=True)
class IngredientRun:
    """Ingredient cards of one kind lying one on another in the oven, as announced
    (``turn.play``); successive plays of the same kind form one run."""

    kind: str
    count: int


@dataclass(frozen=True, slots=True)
class OvenOrder:
    """An order card in the oven: whose it is always, which it is only when the observer
    knows (``information.oven_announced``, ``information.oven_seen``)."""

    colour: str
    order: str | None


OvenEntry = IngredientRun | OvenOrder


@dataclass(frozen=True, slots=True)
class SeatView:
    """What the observer knows of one seat's cards apart from their own hand."""

    colour: str
    hand_size: tuple[int, int] | None  # (ingredient cards, orders); None when not counted
    waiter_size: int | None
    delivered: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Observation:
    """One player's view of a state (``player`` None: a spectator's). Immutable; build it
    with :func:`observation` or :func:`observation_from_json`."""

    player: int | None
    config: GameConfig
    phase: str
    step: str
    current: int
    round: int
    resolutions: int
    played: int
    quiet_turns: int
    mamma_mia: int | None
    reveal: Reveal | None
    hand: Hand | None
    seats: tuple[SeatView, ...]
    supply_size: int | None
    oven_top: str | None
    oven: tuple[OvenEntry, ...]
    table: Counts
    used: Counts | None
    used_size: int | None
    box: Counts

    @property
    def rules(self) -> Rules:
        return self.config.rules

    @property
    def players(self) -> int:
        return self.config.players

    @property
    def colour(self) -> str | None:
        """The observer's colour (None for a spectator)."""
        return None if self.player is None else self.config.colours[self.player]

    def oven_ingredients(self) -> Counts:
        """How many cards of each kind lie in the oven, all of them announced."""
        counts = [0] * len(KINDS)
        for entry in self.oven:
            if isinstance(entry, IngredientRun):
                counts[KIND_INDEX[entry.kind]] += entry.count
        return tuple(counts)

    def to_json(self) -> dict[str, Any]:
        """The canonical JSON form (``spec/schemas/observation.schema.json``)."""
        return format_observation(self)


def observation(state: GameState, player: int | None) -> Observation:
    """What ``player`` (a seat, or None for a spectator) knows of ``state``."""
    if player is not None and (type(player) is not int or not 0 <= player < state.players):
        raise MalformedError(f"player must be a seat from 0 to {state.players - 1} or None",
                             where="player", value=player)
    variants = state.rules
    counted = variants.flags.card_counts == CardCounts.PUBLIC      # information.counts
    used_open = variants.flags.used_pile == UsedPile.OPEN        # information.used_open
    remembered = variants.flags.oven_memory == OvenMemory.SEEN     # information.oven_seen
    mine = None if player is None else state.colour(player)
    on_view = state.phase != Phase.OVEN and bool(state.oven)  # information.oven_announced
    oven, size = state.oven, len(state.oven)
    stack: list[OvenEntry] = []
    index = 0
    while index < size:
        card = oven[index]
        if card in KIND_INDEX:
            end = index + 1
            while end < size and oven[end] == card:
                end += 1
            stack.append(IngredientRun(card, end - index))
            index = end
            continue
        colour = ORDERS[card].colour
        known = remembered or colour == mine or (on_view and index == size - 1)
        stack.append(OvenOrder(colour, card if known else None))
        index += 1
    seats = tuple(
        SeatView(colour=state.colour(seat),
                 hand_size=(sum(hand.ingredients), len(hand.orders))
                 if counted or seat == player else None,
                 waiter_size=len(state.waiters[seat]) if counted or seat == player else None,
                 delivered=state.delivered[seat])
        for seat, hand in enumerate(state.hands))
    return Observation(
        player=player, config=state.config, phase=state.phase, step=state.step,
        current=state.current, round=state.round, resolutions=state.resolutions,
        played=state.played, quiet_turns=state.quiet_turns, mamma_mia=state.mamma_mia,
        reveal=state.reveal, hand=None if player is None else state.hands[player], seats=seats,
        supply_size=len(state.supply) if counted else None,
        oven_top=state.oven[-1] if on_view else None, oven=tuple(stack), table=state.table,
        used=state.used if used_open else None,
        used_size=sum(state.used) if counted or used_open else None, box=state.box)


# --- the canonical JSON form ----------------------------------------------------------


def format_observation(seen: Observation) -> dict[str, Any]:
    """The canonical JSON form of an observation."""
    reveal = None if seen.reveal is None else {"order": seen.reveal.order,
                                              "kind": seen.reveal.kind}
    hand = None if seen.hand is None else {"ingredients": format_counts(seen.hand.ingredients),
                                           "orders": list(seen.hand.orders)}
    return {
        "format": OBSERVATION_FORMAT,
        "player": seen.player,
        "first_player": seen.config.first_player,
        "variants": seen.rules.as_dict(),
        **({"parameters": numbers} if (numbers := seen.rules.non_default_parameters()) else {}),
        "phase": str(seen.phase),
        "step": str(seen.step),
        "current": seen.current,
        "round": seen.round,
        "resolutions": seen.resolutions,
        "played": seen.played,
        "quiet_turns": seen.quiet_turns,
        "mamma_mia": seen.mamma_mia,
        "reveal": reveal,
        "hand": hand,
        "players": [
            {"colour": view.colour,
             "hand_size": None if view.hand_size is None else
             {"ingredients": view.hand_size[0], "orders": view.hand_size[1]},
             "waiter_size": view.waiter_size,
             "delivered": list(view.delivered)}
            for view in seen.seats
        ],
        "supply_size": seen.supply_size,
        "oven": {"top": seen.oven_top, "stack": [_format_entry(e) for e in seen.oven]},
        "table": format_counts(seen.table),
        "used": None if seen.used is None else format_counts(seen.used),
        "used_size": seen.used_size,
        "box": format_counts(seen.box),
    }


def _format_entry(entry: OvenEntry) -> dict[str, Any]:
    if isinstance(entry, IngredientRun):
        return {"kind": entry.kind, "count": entry.count}
    return {"colour": entry.colour, "order": entry.order}


@cache
def _validator() -> jsonschema.Draft202012Validator:
    from referencing import Registry, Resource

    registry = Registry()
    for name in ("state.schema.json", "observation.schema.json"):
        resource = Resource.from_contents(specdata.load_schema(name))
        registry = registry.with_resource(name, resource)
    return jsonschema.Draft202012Validator(specdata.load_schema("observation.schema.json"),
                                           registry=registry)


def observation_errors(doc: Any) -> list[tuple[str, str]]:
    """Schema violations of an observation document as (JSON pointer, message), best first."""
    errors = sorted(_validator().iter_errors(doc), key=jsonschema.exceptions.relevance)
    return [("/" + "/".join(str(p) for p in e.absolute_path), e.message) for e in errors]


def observation_from_json(doc: Any) -> Observation:
    """An observation from its canonical JSON form; refuses a document that breaks the
    schema or contradicts itself (seats, colours, variants, runs not merged)."""
    errors = observation_errors(doc)
    if errors:
        where, message = errors[0]
        raise MalformedError(message, where=where, value=doc)
    colours = tuple(p["colour"] for p in doc["players"])
    try:
        config = make_config(len(colours), colours=colours, first_player=doc["first_player"],
                             variants=doc["variants"])
    except VariantError as exc:
        raise MalformedError(str(exc), where="/players", value=doc["players"]) from exc
    if config.rules.as_dict() != doc["variants"]:
        raise MalformedError("variants must name every flag", where="/variants",
                             value=doc["variants"])
    n = len(colours)
    for key in ("player", "current", "mamma_mia"):
        if doc[key] is not None and doc[key] >= n:
            raise MalformedError(f"{doc[key]} is not a seat of {n} players", where=f"/{key}")
    if (doc["player"] is None) != (doc["hand"] is None):
        raise MalformedError("the hand is given exactly when the observer is a player",
                             where="/hand")
    for seat, player in enumerate(doc["players"]):
        own = ORDERS_OF[player["colour"]]
        if any(order not in own for order in player["delivered"]):
            raise MalformedError("a delivered order of another colour",
                                 where=f"/players/{seat}/delivered")
    stack = _oven_stack(doc["oven"]["stack"], colours)
    hand = doc["hand"]
    reveal = doc["reveal"]
    return Observation(
        player=doc["player"], config=config, phase=doc["phase"], step=doc["step"],
        current=doc["current"], round=doc["round"], resolutions=doc["resolutions"],
        played=doc["played"], quiet_turns=doc["quiet_turns"], mamma_mia=doc["mamma_mia"],
        reveal=None if reveal is None else Reveal(reveal["order"], reveal["kind"]),
        hand=None if hand is None else Hand(parse_counts(hand["ingredients"], "/hand"),
                                            tuple(hand["orders"])),
        seats=tuple(SeatView(p["colour"],
                             None if p["hand_size"] is None else
                             (p["hand_size"]["ingredients"], p["hand_size"]["orders"]),
                             p["waiter_size"], tuple(p["delivered"]))
                    for p in doc["players"]),
        supply_size=doc["supply_size"], oven_top=doc["oven"]["top"], oven=stack,
        table=parse_counts(doc["table"], "/table"),
        used=None if doc["used"] is None else parse_counts(doc["used"], "/used"),
        used_size=doc["used_size"], box=parse_counts(doc["box"], "/box"))


def _oven_stack(raw_stack: list[dict[str, Any]], colours: tuple[str, ...]
                ) -> tuple[OvenEntry, ...]:
    """The oven as announced: ingredient runs (adjacent ones of a kind merged) and orders
    of a seat's colour."""
    stack: list[OvenEntry] = []
    for i, raw in enumerate(raw_stack):
        if "kind" in raw:
            if stack and isinstance(stack[-1], IngredientRun) and stack[-1].kind == raw["kind"]:
                raise MalformedError("adjacent runs of one kind must be merged",
                                     where=f"/oven/stack/{i}")
            stack.append(IngredientRun(raw["kind"], raw["count"]))
        else:
            if raw["colour"] not in colours or (raw["order"] is not None and
                                                ORDERS[raw["order"]].colour != raw["colour"]):
                raise MalformedError("an order of no seat, or of another colour",
                                     where=f"/oven/stack/{i}")
            stack.append(OvenOrder(raw["colour"], raw["order"]))
    return tuple(stack)


__all__ = ["OBSERVATION_FORMAT", "IngredientRun", "Observation", "OvenEntry", "OvenOrder",
           "SeatView", "format_observation", "observation", "observation_errors",
           "observation_from_json"]
