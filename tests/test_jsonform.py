"""The canonical JSON forms: states (format_state/parse_state), actions
(format_action/parse_action) and events (format_event)."""

from __future__ import annotations

import copy
import json
from typing import Any

import jsonschema
import pytest

from mammamia_ref import (
    Complete,
    Decline,
    Draw,
    InvalidStateError,
    MalformedError,
    NameKind,
    NoOrder,
    Pass,
    PlaceOrder,
    Play,
    Shuffle,
    apply,
    format_action,
    format_event,
    is_chance,
    legal_actions,
    make_config,
    new_game,
    parse_action,
)
from mammamia_ref.formats.jsonform import STATE_FORMAT, format_state, parse_state
from mammamia_ref.rules import specdata
from mammamia_ref.rules.chance import ChanceSource
from mammamia_ref.rules.vocabulary import KINDS, MAMMA_MIA, ORDERS_OF
from mammamia_ref.sim.play import play_game
from mammamia_ref.sim.policies import POLICIES

RULE_IDS = specdata.rule_ids()


def through_json(doc: Any) -> Any:
    return json.loads(json.dumps(doc))


def assert_round_trip(state) -> None:
    doc = format_state(state)
    text = json.dumps(doc)
    again = format_state(parse_state(json.loads(text)))
    assert again == doc
    assert json.dumps(again) == text  # key order is canonical too
    assert parse_state(json.loads(text)) == state


def game_states(config, seed, policy="random"):
    record = play_game(config, seed, [POLICIES[policy]] * config.players)
    state = new_game(config)
    yield state
    for action, _ in record.steps:
        state, _ = apply(state, action)
        yield state


def sampled(states, every: int = 9):
    """Every state that is not an ordinary turn, and every ``every``-th turn state
    (parse_state validates a schema; a whole game of them would be slow)."""
    for i, state in enumerate(states):
        if state.phase != "turn" or i % every == 0:
            yield state


# --- states: round trip -------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_state_round_trip_through_whole_games(players: int) -> None:
    phases = set()
    final = None
    for state in sampled(game_states(make_config(players, first_player=players - 1), players),
                         every=3):
        assert_round_trip(state)
        phases.add((state.phase, state.step.split(".")[0]))
        final = state
    assert final.phase == "over"
    assert {("shuffle", "ingredients"), ("shuffle", "supply"), ("shuffle", "waiter"),
            ("turn", "play"), ("over", "over")} <= phases


@pytest.mark.parametrize("variants", [
    {"mamma_mia_shuffle": "before_deal"},
    {"trimming": "off", "leftovers": "table"},
    {"completion": "mandatory", "bombastica_hand": "forbidden"},
    {"draw_amount": "any", "refill": "as_many_as_played"},
    {"round_end": "last_ingredient", "pass_order": "allowed"},
    {"minimale_lowest": "all_kinds", "monotoni_kind": "on_table", "final_tie": "seat_order"},
], ids=lambda v: ",".join(f"{k}={x}" for k, x in v.items()))
def test_state_round_trip_under_variants(variants) -> None:
    players = 2 + len(variants) % 4
    final = None
    for state in sampled(game_states(make_config(players, variants=variants), 11), every=15):
        assert_round_trip(state)
        assert format_state(state)["variants"] == state.rules.as_dict()
        final = state
    assert final.phase == "over"


def test_round_trip_covers_the_oven_decisions() -> None:
    steps = set()
    for seed in range(1, 30):
        for state in game_states(make_config(3), seed):
            if state.phase == "oven" and state.step not in steps:
                steps.add(state.step)
                assert_round_trip(state)
                assert format_state(state)["reveal"]["order"] == state.reveal.order
        if steps == {"name_kind", "complete"}:
            break
    assert steps == {"name_kind", "complete"}


def test_format_state_is_plain_json() -> None:
    state = new_game(make_config(2))
    doc = format_state(state)
    assert doc["format"] == STATE_FORMAT
    assert through_json(doc) == doc
    assert list(doc["table"]) == list(KINDS)  # every kind, in manifest order


# --- states: refusals ---------------------------------------------------------------


@pytest.fixture(scope="module")
def base_doc() -> dict[str, Any]:
    """A 3-player state at the first turn: hands of 6 ingredients + 1 order, the
    Mamma Mia! card in the supply."""
    chance = ChanceSource(5)
    state = new_game(make_config(3))
    while is_chance(state):
        state, _ = apply(state, chance.shuffle(state))
    doc = format_state(state)
    assert doc["phase"] == "turn" and doc["mamma_mia"] is None
    assert doc["supply"].count(MAMMA_MIA) == 1
    return doc


@pytest.fixture
def doc(base_doc) -> dict[str, Any]:
    return copy.deepcopy(base_doc)


def test_base_doc_parses(doc) -> None:
    assert format_state(parse_state(doc)) == doc


def malformed(doc: Any) -> MalformedError:
    with pytest.raises(MalformedError) as info:
        parse_state(doc)
    assert not isinstance(info.value, InvalidStateError), info.value
    return info.value


def invalid(doc: Any) -> InvalidStateError:
    with pytest.raises(InvalidStateError) as info:
        parse_state(doc)
    assert info.value.rule in RULE_IDS
    assert f"[{info.value.rule}]" in str(info.value)
    return info.value


@pytest.mark.parametrize("thing", [None, [], "state", 3, {}])
def test_not_a_state(thing) -> None:
    assert malformed(thing).where == "/"


@pytest.mark.parametrize("key", ["format", "players", "round", "reveal", "mamma_mia", "supply"])
def test_missing_key(doc, key) -> None:
    del doc[key]
    error = malformed(doc)
    assert error.where == "/"
    assert repr(key) in str(error) and "required" in str(error)


@pytest.mark.parametrize("path, value, where", [
    (("current",), "0", "/current"),
    (("round",), True, "/round"),
    (("supply",), "salami", "/supply"),
    (("players", 0, "hand", "ingredients", "salami"), "3", "/players/0/hand/ingredients/salami"),
    (("players", 1, "waiter"), {}, "/players/1/waiter"),
    (("table",), [], "/table"),
    (("format",), "mammamia-state/2", "/format"),
    (("phase",), "setup", "/phase"),
    (("current",), 7, "/current"),
    (("played",), -1, "/played"),
])
def test_wrong_type_or_value(doc, path, value, where) -> None:
    target = doc
    for part in path[:-1]:
        target = target[part]
    target[path[-1]] = value
    assert malformed(doc).where == where


def test_unknown_colour(doc) -> None:
    doc["players"][0]["colour"] = "blue"
    error = malformed(doc)
    assert error.where == "/players/0/colour" and "blue" in str(error)


def test_unknown_kind(doc) -> None:
    doc["table"]["anchovy"] = 1
    error = malformed(doc)
    assert error.where == "/table/anchovy" and "anchovy" in str(error)
    doc["table"].pop("anchovy")
    doc["supply"][0] = "anchovy"
    assert malformed(doc).where == "/supply/0"


def test_unknown_order_id(doc) -> None:
    doc["players"][0]["hand"]["orders"] = ["red.salami9"]
    error = malformed(doc)
    assert error.where == "/players/0/hand/orders/0" and "red.salami9" in str(error)


def test_unknown_variant(doc) -> None:
    doc["variants"]["foo"] = "bar"
    error = malformed(doc)
    assert error.where == "/variants" and "foo" in str(error)
    doc["variants"] = {"refill": "nope"}
    assert malformed(doc).where == "/variants"


def test_one_salami_too_many(doc) -> None:
    doc["used"]["salami"] += 1
    error = invalid(doc)
    assert error.rule == "setup.components" and error.value == "salami"


def test_one_salami_too_few(doc) -> None:
    doc["supply"].remove("salami")
    assert invalid(doc).rule == "setup.components"


def test_box_must_hold_the_trimmed_cards(doc) -> None:
    doc["box"]["olive"] -= 1
    doc["used"]["olive"] += 1
    assert invalid(doc).rule == "setup.trim"
    doc["variants"]["trimming"] = "off"
    assert invalid(doc).rule == "setup.full_deck"


def test_order_duplicated(doc) -> None:
    waiter = doc["players"][0]["waiter"]
    waiter.append(waiter[0])
    error = invalid(doc)
    assert error.rule == "setup.components" and waiter[0] in str(error)


def test_order_missing(doc) -> None:
    gone = doc["players"][2]["waiter"].pop()
    error = invalid(doc)
    assert error.rule == "setup.components" and gone in str(error)


def test_order_of_another_colour(doc) -> None:
    red, yellow = doc["players"][0]["waiter"], doc["players"][1]["waiter"]
    red[0], yellow[0] = yellow[0], red[0]
    assert invalid(doc).rule == "setup.waiter"


def test_order_of_a_colour_not_in_the_game(doc) -> None:
    doc["oven"].append(ORDERS_OF["purple"][0])
    assert invalid(doc).rule == "setup.components"


def test_two_mamma_mia_cards(doc) -> None:
    doc["mamma_mia"] = 1  # and one still in the supply
    error = invalid(doc)
    assert error.rule == "setup.components" and error.where == "/mamma_mia"


def test_two_mamma_mia_cards_in_the_supply(doc) -> None:
    doc["supply"].append(MAMMA_MIA)
    assert invalid(doc).where == "/mamma_mia"


def test_no_mamma_mia_card(doc) -> None:
    doc["supply"].remove(MAMMA_MIA)
    error = invalid(doc)
    assert error.rule == "setup.components" and error.where == "/mamma_mia"


def test_hand_of_eight_cards(doc) -> None:
    card = next(c for c in doc["supply"] if c != MAMMA_MIA)
    doc["supply"].remove(card)
    doc["players"][1]["hand"]["ingredients"][card] += 1
    error = invalid(doc)
    assert error.rule == "turn.draw" and error.where == "/players/1/hand"
    assert "8" in str(error)


def test_current_seat_out_of_range(doc) -> None:
    doc["current"] = 3  # within the schema's 0..4, but there are 3 seats
    error = invalid(doc)
    assert error.rule == "turn.clockwise" and error.where == "/current"


def test_mamma_mia_holder_out_of_range(doc) -> None:
    doc["supply"].remove(MAMMA_MIA)
    doc["mamma_mia"] = 4
    assert invalid(doc).where == "/mamma_mia"


@pytest.mark.parametrize("phase, step", [
    ("turn", "complete"), ("turn", "over"), ("oven", "play"), ("over", "play"),
    ("shuffle", "waiter.purple"), ("shuffle", "play"),
])
def test_phase_step_mismatch(doc, phase, step) -> None:
    doc["phase"], doc["step"] = phase, step
    error = invalid(doc)
    assert error.where == "/step"


def test_reveal_outside_the_oven_phase(doc) -> None:
    order = doc["players"][0]["waiter"].pop()
    doc["reveal"] = {"order": order, "kind": None}
    error = invalid(doc)
    assert error.rule == "oven.open" and error.where == "/reveal"


def test_oven_phase_without_reveal(doc) -> None:
    doc["phase"], doc["step"] = "oven", "complete"
    assert invalid(doc).rule == "oven.open"


def test_reveal_owned_by_someone_else(doc) -> None:
    order = doc["players"][1]["waiter"].pop()
    doc["phase"], doc["step"], doc["current"] = "oven", "complete", 0
    doc["reveal"] = {"order": order, "kind": None}
    assert invalid(doc).rule == "oven.complete_from_hand"


# --- actions ------------------------------------------------------------------------


ACTIONS = [
    Shuffle("ingredients", ("salami", "olive", MAMMA_MIA)),
    Shuffle("waiter.red", ("red.bombastica", "red.minimale")),
    Shuffle("supply", ()),
    Play("salami", 3),
    Pass(),
    PlaceOrder("green.salami4"),
    NoOrder(),
    Draw("supply"),
    Draw("waiter"),
    Draw("supply", 0),
    Draw("waiter", 2),
    NameKind("mushroom"),
    Complete((1, 0, 2, 0, 0)),
    Complete((0, 0, 0, 0, 0)),
    Decline(),
]


@pytest.fixture(scope="module")
def action_validator():
    from referencing import Registry, Resource

    registry = Registry()
    for name in ("state.schema.json", "action.schema.json"):
        schema = specdata.load_schema(name)
        registry = registry.with_resource(name, Resource.from_contents(schema))
    return jsonschema.Draft202012Validator(specdata.load_schema("action.schema.json"),
                                           registry=registry)


@pytest.mark.parametrize("action", ACTIONS, ids=repr)
def test_action_round_trip(action, action_validator) -> None:
    doc = format_action(action)
    assert through_json(doc) == doc
    assert parse_action(through_json(doc)) == action
    assert format_action(parse_action(doc)) == doc
    action_validator.validate(doc)


def test_every_action_type_is_covered() -> None:
    assert {format_action(a)["type"] for a in ACTIONS} == {
        "shuffle", "play", "pass", "place_order", "no_order", "draw", "name_kind", "complete",
        "decline"}


def test_legal_actions_of_real_games_round_trip() -> None:
    seen = set()
    for variants in ({}, {"draw_amount": "any"}):
        for state in game_states(make_config(3, variants=variants), 4):
            for action in legal_actions(state):
                doc = format_action(action)
                assert parse_action(through_json(doc)) == action
                seen.add(doc["type"])
    assert {"play", "place_order", "no_order", "draw"} <= seen


def test_complete_takes_partial_count_maps() -> None:
    assert parse_action({"type": "complete", "cards": {"olive": 2}}) == Complete((0, 0, 0, 0, 2))


@pytest.mark.parametrize("data, where, needle", [
    (None, "action", "type"),
    ([], "action", "type"),
    ({"kind": "salami"}, "action", "type"),
    ({"type": 3}, "action", "type"),
    ({"type": "eat"}, "action/type", "unknown action type 'eat'"),
    ({"type": "play", "kind": "salami"}, "action", "needs count"),
    ({"type": "place_order"}, "action", "needs order"),
    ({"type": "shuffle", "pile": "supply"}, "action", "needs order"),
    ({"type": "pass", "kind": "salami"}, "action", "takes no kind"),
    ({"type": "play", "kind": "salami", "count": 1, "seat": 0}, "action", "takes no seat"),
    ({"type": "decline", "why": "no"}, "action", "takes no why"),
    ({"type": "play", "kind": "salami", "count": -1}, "action/count", "non-negative integer"),
    ({"type": "play", "kind": "salami", "count": True}, "action/count", "non-negative integer"),
    ({"type": "play", "kind": "salami", "count": 2.0}, "action/count", "non-negative integer"),
    ({"type": "play", "kind": "salami", "count": "2"}, "action/count", "non-negative integer"),
    ({"type": "draw", "source": "supply", "count": -2}, "action/count", "non-negative"),
    ({"type": "draw", "source": "supply", "count": False}, "action/count", "non-negative"),
    ({"type": "draw", "source": "supply", "count": 1.5}, "action/count", "non-negative"),
    ({"type": "draw", "source": "deck"}, "action/source", "supply"),
    ({"type": "complete", "cards": {"salami": -1}}, "action/cards/salami", "non-negative"),
    ({"type": "complete", "cards": {"salami": True}}, "action/cards/salami", "non-negative"),
    ({"type": "complete", "cards": {"salami": 1.0}}, "action/cards/salami", "non-negative"),
    ({"type": "complete", "cards": [1, 0, 0, 0, 0]}, "action/cards", "map"),
    ({"type": "complete", "cards": {"anchovy": 1}}, "action/cards/anchovy", "anchovy"),
    ({"type": "play", "kind": "anchovy", "count": 1}, "action/kind", "unknown ingredient kind"),
    ({"type": "play", "kind": ["salami"], "count": 1}, "action/kind", "unknown ingredient"),
    ({"type": "name_kind", "kind": "Salami"}, "action/kind", "unknown ingredient kind"),
    ({"type": "place_order", "order": "green.salami5"}, "action/order", "unknown order ID"),
    ({"type": "place_order", "order": "blue.salami4"}, "action/order", "unknown order ID"),
    ({"type": "place_order", "order": 7}, "action/order", "unknown order ID"),
    ({"type": "shuffle", "pile": "supply", "order": ["anchovy"]}, "action", "known card IDs"),
    ({"type": "shuffle", "pile": "supply", "order": "salami"}, "action", "known card IDs"),
    ({"type": "shuffle", "pile": 3, "order": []}, "action", "names a pile"),
])
def test_malformed_actions(data, where, needle) -> None:
    with pytest.raises(MalformedError) as info:
        parse_action(data)
    assert info.value.where == where
    assert needle in str(info.value)
    assert info.value.value is not None or data is None


def test_malformed_action_where_prefix() -> None:
    with pytest.raises(MalformedError) as info:
        parse_action({"type": "play", "kind": "x", "count": 1}, "/steps/3/do")
    assert info.value.where == "/steps/3/do/kind"


@pytest.mark.parametrize("doc", [
    {"type": "play", "kind": "salami", "count": 0},
    {"type": "play", "kind": "salami", "count": 1},
    {"type": "play", "kind": "salami", "count": -1},
    {"type": "draw", "source": "waiter", "count": 0},
    {"type": "draw", "source": "waiter", "count": -1},
    {"type": "draw", "source": "waiter", "count": "1"},
    {"type": "complete", "cards": {"salami": -1}},
    {"type": "complete", "cards": {"salami": 0}},
    {"type": "no_order", "order": "red.minimale"},
    {"type": "place_order"},
], ids=json.dumps)
def test_parse_action_agrees_with_the_schema(action_validator, doc) -> None:
    try:
        parse_action(doc)
        parsed = True
    except MalformedError:
        parsed = False
    assert parsed == action_validator.is_valid(doc)


# --- events -------------------------------------------------------------------------


def test_events_format_to_json(action_validator) -> None:
    event_schema = jsonschema.Draft202012Validator(specdata.load_schema("event.schema.json"))
    names = set()
    for players, variants in ((2, {}), (4, {"mamma_mia_shuffle": "before_deal"}),
                              (3, {"completion": "mandatory", "round_end": "last_ingredient"})):
        record = play_game(make_config(players, variants=variants), seed=players,
                           policies=[POLICIES["random"]] * players)
        for _, events in record.steps:
            for item in events:
                doc = format_event(item)
                assert isinstance(doc, dict)
                assert through_json(doc) == doc
                event_schema.validate(doc)
                assert doc["event"] == item.name and doc["rule"] == item.rule
                assert item.rule in RULE_IDS
                names.add(item.name)
    assert {"dealt", "turn_begins", "played", "drew", "revealed", "game_ended",
            "winners"} <= names


# --- bugs -----------------------------------------------------------------------------


@pytest.mark.parametrize("key", ["current", "round", "first_player", "played", "mamma_mia"])
def test_float_integers_are_refused(doc, key) -> None:
    """JSON Schema counts 1.0 as an integer; the state format does not (a float seat would
    break every later step)."""
    doc[key] = 1.0 if key != "first_player" else 0.0
    if key == "mamma_mia":
        doc["supply"].remove(MAMMA_MIA)
    malformed(doc)


_ACTION_VALUES = [None, 0, 3, -1, "salami", "red.monotoni", "mamma_mia", "", [], ["olive"],
                  {}, {"salami": 2}, True]


def test_the_action_fast_path_agrees_with_the_whole_schema() -> None:
    """``schema_errors`` checks an action against the one branch its ``type`` names
    (``jsonform._branches``): for every kind of action, and the same with a field
    changed, added or removed, it accepts exactly what the whole ``oneOf`` accepts and
    reports the whole schema's errors."""
    from mammamia_ref.formats.jsonform import _validator, schema_errors, validator_errors

    full = _validator("action.schema.json")
    samples = [{"type": "shuffle", "pile": "supply", "order": ["olive"]},
               {"type": "play", "kind": "salami", "count": 2}, {"type": "pass"},
               {"type": "place_order", "order": "red.monotoni"}, {"type": "no_order"},
               {"type": "draw", "source": "supply", "count": 2},
               {"type": "name_kind", "kind": "olive"}, {"type": "complete", "cards": {}},
               {"type": "decline"}]
    docs: list[Any] = [*samples, {"type": "no_such_type"}, {}, None, []]
    for sample in samples:
        for key in [*sample, "extra"]:
            docs.append({k: v for k, v in sample.items() if k != key})
            docs += [{**sample, key: value} for value in _ACTION_VALUES]
    accepted = 0
    for doc in docs:
        assert schema_errors(doc, "action.schema.json") == validator_errors(full, doc), doc
        accepted += not validator_errors(full, doc)
    assert accepted >= len(samples)  # the samples are valid actions, and so are some changes
