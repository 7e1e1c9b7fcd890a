"""The reference behind the protocol: every message it writes fits the published schema."""

from __future__ import annotations

import io
import json

from mammamia_ref import ChanceSource, format_action, parse_state
from mammamia_ref.formats.jsonform import schema_errors, specdata
from mammamia_ref.kit import PROTOCOL
from mammamia_ref.kit.protocol import serve


def _talk(requests: list[dict]) -> list[dict]:
    out = io.StringIO()
    serve(io.StringIO("".join(json.dumps(r) + "\n" for r in requests)), out)
    return [json.loads(line) for line in out.getvalue().splitlines()]


def _check(doc: dict, definition: str) -> list:
    schema = {"$ref": f"protocol.schema.json#/$defs/{definition}"}
    from mammamia_ref.formats.jsonform import _validator

    return [e.message for e in _validator("protocol.schema.json").evolve(schema=schema)
            .iter_errors(doc)]


def test_a_session_fits_the_schema() -> None:
    answers = _talk([
        {"id": 1, "op": "hello", "protocol": PROTOCOL},
        {"id": 2, "op": "new_game", "players": 2, "colours": ["red", "green"],
         "first_player": 0, "variants": {}},
        {"id": 3, "op": "legal_actions"},
        {"id": 4, "op": "apply", "action": {"type": "pass"}},
        {"id": 5, "op": "state"},
        {"id": 6, "op": "nonsense"},
        {"id": 7, "op": "stop"},
        {"id": 8, "op": "state"},
    ])
    assert [a["id"] for a in answers] == [1, 2, 3, 4, 5, 6, 7]  # nothing after stop
    for answer in answers:
        assert _check(answer, "answer") == [], answer
    assert answers[0]["protocol"] == PROTOCOL and "load_state" in answers[0]["features"]
    assert answers[3]["rejected"]["rule"] == "setup.deal"
    assert answers[5]["ok"] is False and "nonsense" in answers[5]["error"]["message"]


def test_a_whole_game_over_the_protocol() -> None:
    """Apply, state and legal_actions agree with the reference step by step."""
    from mammamia_ref import apply, is_chance, is_over, legal_actions, make_config, new_game

    state = new_game(make_config(3))
    chance = ChanceSource(5)
    requests: list[dict] = [{"id": 0, "op": "new_game", "players": 3,
                             "colours": ["red", "yellow", "green"], "first_player": 0,
                             "variants": {}}]
    expected = []
    while not is_over(state):
        action = chance.shuffle(state) if is_chance(state) else legal_actions(state)[-1]
        state, _ = apply(state, action)
        requests.append({"id": len(requests), "op": "apply", "action": format_action(action)})
        expected.append(state)
    answers = _talk(requests)
    for answer, state in zip(answers[1:], expected, strict=True):
        assert parse_state(answer["state"]) == state


def test_unknown_protocol_is_refused() -> None:
    answer = _talk([{"id": 1, "op": "hello", "protocol": "mammamia-protocol/9"}])[0]
    assert answer["ok"] is False and "mammamia-protocol/9" in answer["error"]["message"]


def test_schema_is_loadable() -> None:
    assert specdata.load_schema("protocol.schema.json")["$defs"]["request"]
    assert schema_errors({"id": 1, "op": "hello", "protocol": PROTOCOL},
                         "protocol.schema.json") == []
