"""The fast shape check of a state agrees with ``spec/schemas/state.schema.json``."""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from mammamia_ref import ChanceSource, apply, is_chance, make_config, new_game
from mammamia_ref.formats.jsonform import format_state, schema_errors, state_shape_ok


def _a_state() -> dict[str, Any]:
    state = new_game(make_config(3))
    chance = ChanceSource(1)
    while is_chance(state):
        state, _ = apply(state, chance.shuffle(state))
    doc = format_state(state)
    doc["reveal"] = {"order": "red.monotoni", "kind": None}
    return doc


BASE = _a_state()
VALUES = st.one_of(st.none(), st.booleans(), st.integers(-3, 70), st.text(max_size=3),
                   st.sampled_from(["salami", "red.monotoni", "mamma_mia", "turn", "red",
                                    "mammamia-state/1"]),
                   st.lists(st.sampled_from(["salami", "red.bombastica", "mamma_mia", 3]),
                            max_size=3),
                   st.dictionaries(st.sampled_from(["salami", "olive", "x"]),
                                   st.integers(-1, 3), max_size=2))


def _paths(doc: Any, prefix: tuple = ()) -> list[tuple]:
    out = [prefix]
    if isinstance(doc, dict):
        for key, value in doc.items():
            out += _paths(value, (*prefix, key))
    elif isinstance(doc, list):
        for i, value in enumerate(doc[:3]):
            out += _paths(value, (*prefix, i))
    return out


PATHS = [p for p in _paths(BASE) if p]


@given(st.sampled_from(PATHS), VALUES, st.booleans())
def test_shape_check_agrees_with_schema(path: tuple, value: Any, delete: bool) -> None:
    doc = copy.deepcopy(BASE)
    parent = doc
    for key in path[:-1]:
        parent = parent[key]
    if delete and isinstance(parent, dict):
        del parent[path[-1]]
    else:
        parent[path[-1]] = value
    assert state_shape_ok(doc) == (not schema_errors(doc, "state.schema.json")), path


def test_base_state_is_valid() -> None:
    assert state_shape_ok(BASE) and not schema_errors(BASE, "state.schema.json")


def test_the_rules_replace_is_the_standard_one() -> None:
    """``rules.state.replace`` (which skips ``__init__``) gives what
    ``dataclasses.replace`` gives, for every kind of value it is used on, and refuses a
    field the value does not have."""
    import dataclasses

    import pytest

    from mammamia_ref.rules.state import Hand, Reveal, replace

    state = new_game(make_config(3))
    chance = ChanceSource(2)
    while is_chance(state):
        state, _ = apply(state, chance.shuffle(state))
    hand = state.hands[0]
    cases = [(state, {"played": 2, "current": 1}), (state, {}),
             (hand, {"orders": ()}), (Reveal("red.monotoni"), {"kind": "salami"})]
    for value, changes in cases:
        ours, theirs = replace(value, **changes), dataclasses.replace(value, **changes)
        assert ours == theirs and type(ours) is type(theirs)
        assert ours is not value
    assert isinstance(replace(hand), Hand)
    with pytest.raises(TypeError, match="no field"):
        replace(state, no_such_field=1)
