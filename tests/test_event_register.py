"""The event register (spec/events.yaml) against everything that states events: the
reference's events under every ruling, the event schema and the docs table written from
it, the narration, the kit's table of what events touch, and the question vocabulary's
events (read here, not changed)."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import jsonschema
import pytest

from mammamia_ref.formats.event_register import TYPES, events, say, touches
from mammamia_ref.formats.jsonform import format_state
from mammamia_ref.rules import specdata
from mammamia_ref.rules.chance import ChanceSource
from mammamia_ref.rules.events import format_event
from mammamia_ref.rules.game import apply, is_chance, is_over, legal_actions, new_game
from mammamia_ref.rules.ruleset import make_rules
from mammamia_ref.rules.state import make_config, variant_values
from mammamia_ref.rules.vocabulary import COLOURS, KINDS
from mammamia_ref.tools.event_register import DOCS, docs_text, schema_text

STALE = "stale: run python -m mammamia_ref.tools.event_register"


def _played() -> list[dict]:
    """Every event of a few seeded games under every value of every flag, each distinct
    document once (about 1,400 of 20,000: a document met again would only be checked
    again, to the same verdict)."""
    out: dict[str, dict] = {}
    for index, (flag, value) in enumerate((f, v) for f, values in variant_values().items()
                                          for v in values):
        for players, seed in ((2 + index % 4, index),):
            state = new_game(make_config(players, variants=make_rules({flag: value})))
            chance, rng = ChanceSource(seed), random.Random(seed)
            while not is_over(state):
                action = chance.shuffle(state) if is_chance(state) else \
                    rng.choice(legal_actions(state))
                state, done = apply(state, action)
                out.update((json.dumps(d, sort_keys=True), d)
                           for d in map(format_event, done))
    return list(out.values())


@pytest.fixture(scope="module")
def played() -> list[dict]:
    return _played()


def test_every_event_the_reference_emits_is_registered_with_its_rule_and_fields(
        played) -> None:
    schema = jsonschema.Draft202012Validator(specdata.load_schema("event.schema.json"))
    register = events()
    for doc in played:
        entry = register.get(doc["event"])
        assert entry is not None, f"{doc['event']} is not in spec/events.yaml"
        assert doc["rule"] in entry.rules, (doc["event"], doc["rule"])
        fields = set(doc) - {"event", "rule"}
        assert fields <= {f.name for f in entry.fields}, doc
        assert {f.name for f in entry.fields if not f.optional} <= fields, doc
        schema.validate(doc)
    assert len({doc["event"] for doc in played}) >= len(register) - 1  # nearly all met


def test_the_schema_and_the_docs_table_are_written_from_the_register() -> None:
    assert specdata.spec_path("schemas/event.schema.json").read_text(encoding="utf-8") == \
        schema_text(), f"spec/schemas/event.schema.json is {STALE}"
    current = DOCS.read_text(encoding="utf-8")
    assert docs_text(current) == current, f"the event table of docs/state-format.md is {STALE}"


def test_the_schema_refuses_what_the_register_does_not_say() -> None:
    schema = jsonschema.Draft202012Validator(specdata.load_schema("event.schema.json"))
    good = {"event": "played", "rule": "turn.play", "seat": 0, "kind": KINDS[0], "count": 2}
    assert schema.is_valid(good)
    for bad in ({**good, "rule": "turn.draw"}, {**good, "extra": 1},
                {k: v for k, v in good.items() if k != "count"}, {**good, "event": "flew"}):
        assert not schema.is_valid(bad), bad


def test_every_event_has_words_for_every_shape_it_takes(played) -> None:
    colour = dict(enumerate(COLOURS)).__getitem__
    for doc in played:
        data = {k: v for k, v in doc.items() if k not in ("event", "rule")}
        text = say(doc["event"], data, colour)
        assert not re.search(r"\{\w+\}|\[ ", text), text  # no field nor part left unsaid
    assert say("flew", {"seat": 1}, colour) == "flew {'seat': 1}"


def test_what_events_touch_are_parts_of_the_state() -> None:
    state = format_state(new_game(make_config(2)))
    parts = set(state) | set(state["players"][0]) | {"hand", "delivered", "result"}
    for name, touched in touches().items():
        assert set(touched) <= parts, (name, set(touched) - parts)


# A value of each register type, in the form a question names it (a seat by colour).
SAMPLES = {"seat": COLOURS[0], "seats": [COLOURS[0]], "count": 2, "count_map": {KINDS[0]: 1},
           "counts": [1, 2], "kind": KINDS[0], "order": "red.mushroom4", "card": KINDS[0],
           "source": "supply", "text": "why"}


def test_the_question_vocabulary_names_registered_events_and_fields_of_their_type() -> None:
    vocabulary = specdata.load_yaml("question_vocabulary.yaml")
    lists = {"colours": list(COLOURS), "kinds": list(KINDS)}
    assert set(SAMPLES) == set(TYPES)
    for name, fields in vocabulary["events"].items():
        entry = events().get(name)
        assert entry is not None, f"the question vocabulary's event {name} is not registered"
        for field in fields:
            registered = entry.field(field)
            assert registered is not None, f"{name}.{field} is not a field of the register"
            # a field that counts each kind is a map of kinds in the question schema
            counted = field in vocabulary["kind_counts"].get(name, [])
            assert counted == (registered.type == "count_map"), (name, field, registered.type)
            if counted:
                continue
            fragment = dict(vocabulary["field_types"][field])
            if isinstance(fragment.get("enum"), str):
                fragment["enum"] = lists[fragment["enum"]]
            assert jsonschema.Draft202012Validator(fragment).is_valid(
                SAMPLES[registered.type]), (name, field, registered.type, fragment)


def test_a_bad_register_is_one_clear_error(monkeypatch) -> None:
    from mammamia_ref.errors import SpecError
    from mammamia_ref.formats import event_register

    raw = specdata.load_yaml("events.yaml")
    for broken, said in (({"played": {**raw["events"]["played"], "rules": ["turn.flying"]}},
                          "turn.flying"),
                         ({"played": {**raw["events"]["played"], "words": "{nobody}"}},
                          "nobody"),
                         ({"played": {**raw["events"]["played"], "fields": {"seat": "colour"}}},
                          "colour")):
        monkeypatch.setattr(event_register, "load_yaml", lambda _n, b=broken: {"events": b})
        event_register.events.cache_clear()
        with pytest.raises(SpecError, match=said):
            event_register.events()
    event_register.events.cache_clear()


def test_the_docs_say_where_the_table_comes_from() -> None:
    assert "spec/events.yaml" in Path(DOCS).read_text(encoding="utf-8")


def test_the_z3_conditions_and_the_site_name_registered_events_and_fields() -> None:
    """Read, not changed: the events the game model tells (queries/language/conditions.py) and the
    oven's events the scenario pages group (site/scenario_pages.py)."""
    from mammamia_ref.queries.language.conditions import FIELDS
    from mammamia_ref.queries.language.questions import DERIVED
    from mammamia_ref.site.scenario_pages import _OVEN_EVENTS

    register = events()
    for name, fields in FIELDS.items():
        assert name in register, f"queries/language/conditions.py tells {name}, not registered"
        # the fields the question language works out are its own, never a port's
        own = set(fields) - DERIVED.get(name, frozenset())
        assert own <= {f.name for f in register[name].fields}, name
    assert set(_OVEN_EVENTS) <= set(register)
