"""The canonical JSON form of a state, with an exact round trip and a loader that
checks a foreign state before anything trusts it.

``format_state(parse_state(doc)) == doc`` for every canonical ``doc``; ``parse_state``
refuses a state that breaks the schema (``spec/schemas/state.schema.json``) or whose
cards do not add up, naming the rule it contradicts.
"""

from __future__ import annotations

import json
from collections import Counter
from functools import cache
from typing import Any

import jsonschema
from referencing import Registry, Resource

from mammamia_ref.errors import InvalidStateError, MalformedError, VariantError
from mammamia_ref.formats.limits import EXCERPT, excerpt
from mammamia_ref.rules import scoring, specdata
from mammamia_ref.rules.ruleset import Rules, largest_hand, make_rules, parameter_specs
from mammamia_ref.rules.setup import trimmed_per_kind
from mammamia_ref.rules.state import (
    OVEN_STEPS,
    TURN_STEPS,
    GameState,
    Hand,
    Reveal,
    make_config,
    variant_defaults,
)
from mammamia_ref.rules.typed_spec import MammaMiaShuffle
from mammamia_ref.rules.vocabulary import (
    COLOURS,
    COPIES,
    KINDS,
    MAMMA_MIA,
    ORDERS,
    ORDERS_OF,
    add,
    counts_of,
    format_counts,
    parse_counts,
)

STATE_FORMAT = "mammamia-state/1"


def format_state(state: GameState, *, result: bool = False) -> dict[str, Any]:
    """The canonical JSON form (plain dicts, lists, strings and integers). With
    ``result``, a finished game also carries its ``result`` (as every state sent over the
    porter protocol does), so that a wrong winner shows in the state alone."""
    doc = _state_doc(state)
    if result and state.phase == "over":
        doc["result"] = format_result(state)
    return doc


def format_result(state: GameState) -> dict[str, Any]:
    """Who won a finished game, the rule that decided it and the figures it was decided
    on: pizzas delivered and ingredient cards left in hand, per colour (a seat-order win
    starts from ``mamma_mia``, already in the state)."""
    seats, rule = scoring.winners(state)
    return {"winners": [state.colour(seat) for seat in seats], "rule": rule,
            "delivered": {state.colour(seat): len(state.delivered[seat])
                          for seat in range(state.players)},
            "ingredients_left": {state.colour(seat): sum(state.hands[seat].ingredients)
                                 for seat in range(state.players)}}


def _state_doc(state: GameState) -> dict[str, Any]:
    reveal = None if state.reveal is None else {"order": state.reveal.order,
                                               "kind": state.reveal.kind}
    return {
        "format": STATE_FORMAT,
        "players": [
            {"colour": state.colour(seat),
             "hand": {"ingredients": format_counts(hand.ingredients), "orders": list(hand.orders)},
             "waiter": list(state.waiters[seat]),
             "delivered": list(state.delivered[seat])}
            for seat, hand in enumerate(state.hands)
        ],
        "first_player": state.config.first_player,
        **rules_fields(state.rules),
        "phase": str(state.phase),
        "step": str(state.step),
        "current": state.current,
        "round": state.round,
        "resolutions": state.resolutions,
        "supply": list(state.supply),
        "oven": list(state.oven),
        "table": format_counts(state.table),
        "used": format_counts(state.used),
        "box": format_counts(state.box),
        "mamma_mia": state.mamma_mia,
        "played": state.played,
        "quiet_turns": state.quiet_turns,
        "reveal": reveal,
    }


SCHEMAS = ("state.schema.json", "action.schema.json", "event.schema.json", "scenario.schema.json")


def protocol_schemas() -> tuple[str, ...]:
    """The porter protocol's schemas, one per version of ``spec/protocol.yaml``."""
    return tuple(v["schema"] for v in specdata.load_yaml("protocol.yaml")["versions"])


@cache
def schema_registry() -> Registry:
    """Our schemas, each registered under its file name: how a ``$ref`` names another."""
    registry: Registry = Registry()
    for name in (*SCHEMAS, *protocol_schemas()):
        registry = registry.with_resource(name, Resource.from_contents(specdata.load_schema(name)))
    return registry


@cache
def _validator(schema_name: str) -> jsonschema.Draft202012Validator:
    """A validator for one of our schemas."""
    return jsonschema.Draft202012Validator(specdata.load_schema(schema_name),
                                           registry=schema_registry())


def schema_errors(doc: Any, schema_name: str) -> list[tuple[str, str]]:
    """Schema violations of ``doc`` as (JSON pointer, message), best first. An unknown
    key is reported at the key itself."""
    tag = doc.get("type") if isinstance(doc, dict) else None
    branch = _branches(schema_name).get(tag) if isinstance(tag, str) else None
    if branch is not None and branch.is_valid(doc):
        return []  # valid under the one form its type names, so under the whole schema
    return validator_errors(_validator(schema_name), doc)


@cache
def _branches(schema_name: str) -> dict[Any, jsonschema.Draft202012Validator]:
    """For a schema whose ``type`` names the form (the action schema: an ``allOf`` of
    ``if`` the type is X ``then`` the form of X), a validator of each form by its type;
    else none. A document whose type has a form is valid under the whole schema exactly
    when it is valid under that form (every other ``if`` fails), and checking one form
    costs an eighth of the whole (scenarios hold thousands of actions); errors still
    come from the whole schema, so that every message is the same."""
    schema = specdata.load_schema(schema_name)
    if set(schema) - {"$schema", "title", "description", "type", "required", "properties",
                      "allOf"} or schema.get("properties", {}).keys() - {"type"}:
        return {}
    branches: dict[Any, jsonschema.Draft202012Validator] = {}
    known = schema.get("properties", {}).get("type", {}).get("enum", ())
    for part in schema.get("allOf", ()):
        tag = part.get("if", {}).get("properties", {}).get("type", {})
        form = part.get("then", {})
        if set(part) != {"if", "then"} or "const" not in tag or tag["const"] in branches \
                or tag["const"] not in known or form.get("type") != "object" \
                or "type" not in form.get("required", ()) \
                or form.get("properties", {}).get("type") != tag \
                or '"$ref": "#' in json.dumps(form):  # a form alone cannot resolve it
            return {}
        branches[tag["const"]] = jsonschema.Draft202012Validator(form,
                                                                 registry=schema_registry())
    return branches


def _quoted_briefly(error: jsonschema.ValidationError) -> str:
    """The validator's message with the value it quotes cut to a marked excerpt: the
    value comes from the file, which may hold anything."""
    quoted = repr(error.instance)
    if len(quoted) > EXCERPT + 2 and quoted in error.message:
        kind = type(error.instance).__name__
        shown = excerpt(str(quoted)) if not isinstance(error.instance, str) else \
            excerpt(error.instance)
        return error.message.replace(quoted, f"a {kind} {shown}")
    return error.message


def validator_errors(validator: jsonschema.Draft202012Validator,
                     doc: Any) -> list[tuple[str, str]]:
    """As :func:`schema_errors`, with a validator of the caller's own."""
    found = []
    for error in sorted(validator.iter_errors(doc), key=jsonschema.exceptions.relevance):
        pointer = "/" + "/".join(str(p) for p in error.absolute_path)
        if error.validator == "additionalProperties" and isinstance(error.instance, dict):
            known = error.schema.get("properties", {})
            extra = sorted(k for k in error.instance if k not in known)
            if extra:
                found.append((f"{pointer.rstrip('/')}/{extra[0]}",
                              f"unknown key {excerpt(extra[0])}"))
                continue
        found.append((pointer, _quoted_briefly(error)))
    return found


def rules_fields(rules: Rules) -> dict[str, Any]:
    """A state's ``variants`` (every flag) and ``parameters`` (only those a house rule
    changes: a state under the spec's numbers reads as it always did)."""
    numbers = rules.non_default_parameters()
    return {"variants": rules.as_dict(), **({"parameters": numbers} if numbers else {})}


_MAX_ROUNDS: int = parameter_specs()["rounds"]["max"]  # the most a house rule may set
_STATE_KEYS = frozenset(("format", "players", "first_player", "variants", "phase", "step",
                         "current", "round", "resolutions", "supply", "oven", "table", "used",
                         "box", "mamma_mia", "played", "quiet_turns", "reveal"))
_PILE_CARDS = frozenset((*KINDS, MAMMA_MIA))
_OVEN_CARDS = frozenset((*KINDS, *ORDERS))


def _int(value: Any, low: int, high: int | None = None) -> bool:
    return type(value) is int and value >= low and (high is None or value <= high)


def _counts_ok(value: Any) -> bool:
    return isinstance(value, dict) and all(k in KINDS and _int(n, 0) for k, n in value.items())


def _orders_ok(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(o, str) and o in ORDERS for o in value)


def state_shape_ok(doc: Any) -> bool:
    """A fast check of exactly what ``state.schema.json`` requires (the schema is slow to
    evaluate; a test keeps the two in agreement). When it fails, the schema explains."""
    if not isinstance(doc, dict) or doc.keys() - {"result", "parameters"} != _STATE_KEYS or \
            not _result_shape_ok(doc.get("result", {})):
        return False
    players = doc["players"]
    if doc["format"] != STATE_FORMAT or not isinstance(players, list) or \
            not 2 <= len(players) <= 5:
        return False
    for player in players:
        if not isinstance(player, dict) or player.keys() != {"colour", "hand", "waiter",
                                                             "delivered"}:
            return False
        hand = player["hand"]
        if player["colour"] not in COLOURS or not isinstance(hand, dict) or \
                hand.keys() != {"ingredients", "orders"} or not _counts_ok(hand["ingredients"]) \
                or not _orders_ok(hand["orders"]) or not _orders_ok(player["waiter"]) or \
                not _orders_ok(player["delivered"]):
            return False
    reveal = doc["reveal"]
    return (_int(doc["first_player"], 0, 4) and isinstance(doc["variants"], dict)
            and all(isinstance(v, str) for v in doc["variants"].values())
            and doc["phase"] in ("shuffle", "turn", "oven", "over") and isinstance(doc["step"], str)
            and isinstance(doc.get("parameters", {}), dict)
            and _int(doc["current"], 0, 4) and _int(doc["round"], 1, _MAX_ROUNDS)
            and _int(doc["resolutions"], 0, _MAX_ROUNDS)
            and isinstance(doc["supply"], list) and all(c in _PILE_CARDS for c in doc["supply"]
                                                        if isinstance(c, str))
            and all(isinstance(c, str) for c in doc["supply"])
            and isinstance(doc["oven"], list) and all(isinstance(c, str) and c in _OVEN_CARDS
                                                      for c in doc["oven"])
            and _counts_ok(doc["table"]) and _counts_ok(doc["used"]) and _counts_ok(doc["box"])
            and (doc["mamma_mia"] is None or _int(doc["mamma_mia"], 0, 4))
            and _int(doc["played"], 0) and _int(doc["quiet_turns"], 0, 5)
            and (reveal is None or (isinstance(reveal, dict) and reveal.keys() == {"order", "kind"}
                                    and isinstance(reveal["order"], str)
                                    and reveal["order"] in ORDERS
                                    and (reveal["kind"] is None or reveal["kind"] in KINDS))))


def _result_shape_ok(result: Any) -> bool:
    """``result`` as the schema has it (``{}`` stands for an absent one); whether it is
    the right result is checked against the state by :func:`parse_state`."""
    if result == {}:
        return True
    return (isinstance(result, dict)
            and result.keys() == {"winners", "rule", "delivered", "ingredients_left"}
            and isinstance(result["winners"], list)
            and all(c in COLOURS for c in result["winners"] if isinstance(c, str))
            and all(isinstance(c, str) for c in result["winners"])
            and isinstance(result["rule"], str)
            and all(isinstance(result[key], dict) and all(
                k in COLOURS and _int(v, 0) for k, v in result[key].items())
                for key in ("delivered", "ingredients_left")))


def _non_integers(doc: Any, pointer: str = "") -> list[tuple[str, str]]:
    """Numbers that are not integers (JSON Schema counts 1.0 as an integer; we do not)."""
    if isinstance(doc, float):
        return [(pointer or "/", f"{excerpt(doc)}: numbers are integers only")]
    items = doc.items() if isinstance(doc, dict) else enumerate(doc) \
        if isinstance(doc, list) else ()
    return [found for key, value in items for found in _non_integers(value, f"{pointer}/{key}")]


def parse_state(doc: Any) -> GameState:
    """A state from its JSON form. Raises :class:`MalformedError` for a shape that breaks
    the schema and :class:`InvalidStateError` (with a rule ID) for an impossible state."""
    if not state_shape_ok(doc):
        errors = schema_errors(doc, "state.schema.json") or _non_integers(doc)
        if not errors:
            _check_order_names(doc)  # the schema's pattern names 45 orders; 40 exist
        where, message = errors[0] if errors else ("/", "not a state")
        raise MalformedError(message, where=where, value=doc)
    colours = tuple(player["colour"] for player in doc["players"])
    twice = next((i for i, colour in enumerate(colours) if colour in colours[:i]), None)
    if twice is not None:  # each colour's cards exist once: a colour is one seat
        raise InvalidStateError(f"two seats play {colours[twice]}: each colour's cards exist "
                                "once", rule="setup.components",
                                where=f"/players/{twice}/colour", value=colours[twice])
    variants = {**variant_defaults(), **doc["variants"]}
    try:
        rules = make_rules(variants)
    except VariantError as exc:
        raise MalformedError(str(exc), where="/variants", value=doc["variants"]) from exc
    try:
        rules = make_rules(parameters=doc.get("parameters", {}), base=rules)
        config = make_config(len(colours), colours=colours, first_player=doc["first_player"],
                             variants=rules)
    except VariantError as exc:
        raise MalformedError(str(exc), where="/parameters", value=doc.get("parameters")) from exc
    reveal = doc["reveal"]
    state = GameState(
        config=config, phase=doc["phase"], step=doc["step"], current=doc["current"],
        round=doc["round"], resolutions=doc["resolutions"], supply=tuple(doc["supply"]),
        oven=tuple(doc["oven"]), table=parse_counts(doc["table"], "/table"),
        used=parse_counts(doc["used"], "/used"), box=parse_counts(doc["box"], "/box"),
        mamma_mia=doc["mamma_mia"],
        hands=tuple(Hand(parse_counts(p["hand"]["ingredients"], f"/players/{i}/hand/ingredients"),
                         tuple(sorted(p["hand"]["orders"])))
                    for i, p in enumerate(doc["players"])),
        waiters=tuple(tuple(p["waiter"]) for p in doc["players"]),
        delivered=tuple(tuple(p["delivered"]) for p in doc["players"]),
        played=doc["played"], quiet_turns=doc["quiet_turns"],
        reveal=None if reveal is None else Reveal(reveal["order"], reveal["kind"]),
    )
    check_state(state)
    if "result" in doc:
        _check_result(state, doc["result"])
    return state


def _check_order_names(doc: dict[str, Any]) -> None:
    """Refuse, under its rule, an order the schema lets through that no colour has (a
    colour has no single-kind order of its own kind: ``red.salami4``). Called on a
    document the state schema accepts."""
    places: list[tuple[str, list[Any]]] = [("/oven", doc["oven"])]
    for seat, player in enumerate(doc["players"]):
        places += [(f"/players/{seat}/hand/orders", player["hand"]["orders"]),
                   (f"/players/{seat}/waiter", player["waiter"]),
                   (f"/players/{seat}/delivered", player["delivered"])]
    if doc["reveal"] is not None:
        places.append(("/reveal/order", [doc["reveal"]["order"]]))
    for where, cards in places:
        for i, card in enumerate(cards):
            if card not in _OVEN_CARDS:
                raise InvalidStateError(
                    f"{card} is not a card of the game: each colour has eight orders, "
                    "none of them a four of its personal kind", rule="setup.components",
                    where=where if where == "/reveal/order" else f"{where}/{i}", value=card)


def _check_result(state: GameState, result: Any) -> None:
    """A state that names a result must be finished and name the right one."""
    if state.phase != "over":
        raise InvalidStateError("only a finished game has a result",
                                rule="game_end.three_resolutions", where="/result", value=result)
    expected = format_result(state)
    for key in ("winners", "rule", "delivered", "ingredients_left"):
        if result[key] != expected[key]:
            raise InvalidStateError(f"the result's {key} should be {expected[key]}",
                                    rule=expected["rule"], where=f"/result/{key}", value=result)


def check_state(state: GameState) -> None:
    """Refuse a state that no game could reach in form: cards that do not add up, a
    phase and step that do not fit, a seat out of range."""
    _check_progress(state)
    _check_ingredients(state)
    _check_orders(state)
    _check_mamma_mia(state)


def _check_progress(state: GameState) -> None:
    n = state.players
    if not 0 <= state.current < n:
        raise InvalidStateError(f"current seat {state.current} is not a seat of {n} players",
                                rule="turn.clockwise", where="/current", value=state.current)
    if state.mamma_mia is not None and not 0 <= state.mamma_mia < n:
        raise InvalidStateError("the Mamma Mia! holder is not a seat", rule="mamma_mia.draw",
                                where="/mamma_mia", value=state.mamma_mia)
    steps = {"turn": TURN_STEPS, "oven": OVEN_STEPS, "over": ("over",)}
    if state.phase == "shuffle":
        piles = ("ingredients", "supply", *(f"waiter.{c}" for c in state.config.colours))
        if state.step not in piles:
            raise InvalidStateError(f"{state.step!r} is not a pile to shuffle", rule="setup.deal",
                                    where="/step", value=state.step)
    elif state.step not in steps[state.phase]:
        raise InvalidStateError(f"{state.step!r} is not a step of phase {state.phase}",
                                rule="turn.play", where="/step", value=state.step)
    _check_reveal(state)
    limit = largest_hand(state.parameters)
    for seat, hand in enumerate(state.hands):
        if hand.size > limit:
            raise InvalidStateError(f"seat {seat} holds {hand.size} cards, more than a hand "
                                    f"can (the hand limit is {state.parameters.hand_limit})",
                                    rule="turn.draw", where=f"/players/{seat}/hand")
    if state.round > state.parameters.rounds or state.resolutions > state.parameters.rounds:
        raise InvalidStateError(f"round {state.round} after {state.resolutions} openings, in a "
                                f"game of {state.parameters.rounds} rounds",
                                rule="game_end.three_resolutions", where="/round")


def _check_reveal(state: GameState) -> None:
    """A revealed order exactly in the oven phase, its owner deciding, named before it is
    completed if it must be."""
    if (state.reveal is not None) != (state.phase == "oven"):
        raise InvalidStateError("a revealed order awaits a decision exactly in the oven phase",
                                rule="oven.open", where="/reveal", value=state.reveal)
    if state.reveal is None:
        return
    order = ORDERS[state.reveal.order]
    if order.colour not in state.config.colours or \
            state.seat_of(order.colour) != state.current:
        raise InvalidStateError("the owner of the revealed order must be the one deciding",
                                rule="oven.complete_from_hand", where="/reveal")
    if state.step == "complete" and order.type in ("monotoni", "minimale") and \
            state.reveal.kind is None:
        raise InvalidStateError("a Monotoni or Minimale is completed only once named",
                                rule=f"oven.{order.type}", where="/reveal/kind")


def _check_ingredients(state: GameState) -> None:
    places = [state.table, state.used, state.box, counts_of(state.supply), counts_of(state.oven),
              *(hand.ingredients for hand in state.hands)]
    total = places[0]
    for counts in places[1:]:
        total = add(total, counts)
    for kind, have, copies in zip(KINDS, total, COPIES, strict=True):
        if have != copies:
            raise InvalidStateError(f"there are {have} {kind} cards in play and box, not {copies}",
                                    rule="setup.components", where="/", value=kind)
    trimmed = trimmed_per_kind(state.parameters.trimming, state.players, state.flags.trimming)
    if state.box != (trimmed,) * len(KINDS):
        raise InvalidStateError(f"the box must hold {trimmed} of each kind",
                                rule="setup.trim" if trimmed else "setup.full_deck", where="/box")


def _check_orders(state: GameState) -> None:
    seen: Counter[str] = Counter()
    for seat in range(state.players):
        seen.update(state.hands[seat].orders)
        seen.update(state.waiters[seat])
        seen.update(state.delivered[seat])
    seen.update(card for card in state.oven if card in ORDERS)
    if state.reveal is not None:
        seen[state.reveal.order] += 1
    expected = Counter(o for colour in state.config.colours for o in ORDERS_OF[colour])
    if seen != expected:
        wrong = sorted((seen - expected) + (expected - seen))
        raise InvalidStateError(f"each seat's eight orders must lie in exactly one place each; "
                                f"wrong: {', '.join(wrong)}", rule="setup.components", where="/")
    for seat, colour in enumerate(state.config.colours):
        for place in (state.hands[seat].orders, state.waiters[seat], state.delivered[seat]):
            if any(ORDERS[o].colour != colour for o in place):
                raise InvalidStateError(f"seat {seat} holds another colour's order",
                                        rule="setup.waiter", where=f"/players/{seat}")


def _check_mamma_mia(state: GameState) -> None:
    count = state.supply.count(MAMMA_MIA) + (state.mamma_mia is not None)
    aside = state.phase == "shuffle" and state.step == "ingredients" and \
        state.flags.mamma_mia_shuffle == MammaMiaShuffle.AFTER_DEAL
    if count != (0 if aside else 1):
        raise InvalidStateError("the Mamma Mia! card must lie in exactly one place",
                                rule="setup.components", where="/mamma_mia")
