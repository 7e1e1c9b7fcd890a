"""The reference behind the protocol: every message it writes fits the published schema."""

from __future__ import annotations

import io
import json
from pathlib import Path

from mammamia_ref import ChanceSource, format_action, parse_state
from mammamia_ref.formats.jsonform import schema_errors, specdata
from mammamia_ref.kit import PROTOCOL
from mammamia_ref.kit.protocol import serve
from mammamia_ref.kit.versions import current

ROOT = Path(__file__).resolve().parent.parent


def _talk(requests: list[dict]) -> list[dict]:
    out = io.StringIO()
    serve(io.StringIO("".join(json.dumps(r) + "\n" for r in requests)), out)
    return [json.loads(line) for line in out.getvalue().splitlines()]


def _check(doc: dict, definition: str) -> list:
    schema = {"$ref": f"{current().schema}#/$defs/{definition}"}
    from mammamia_ref.formats.jsonform import _validator

    return [e.message for e in _validator(current().schema).evolve(schema=schema)
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
    assert specdata.load_schema(current().schema)["$defs"]["request"]
    assert schema_errors({"id": 1, "op": "hello", "protocol": PROTOCOL},
                         current().schema) == []


# --- what the kit compares, and how it shows a difference -------------------------------


def _finished_game() -> tuple:
    from mammamia_ref.rules.game import apply, is_chance, is_over, legal_actions, new_game
    from mammamia_ref.rules.state import make_config

    state, chance = new_game(make_config(3)), ChanceSource(7)
    while not is_over(state):
        action = chance.shuffle(state) if is_chance(state) else legal_actions(state)[-1]
        state, _ = apply(state, action)
    return state


def test_a_finished_game_carries_its_result_and_a_wrong_one_is_refused() -> None:
    from mammamia_ref.errors import InvalidStateError
    from mammamia_ref.formats.jsonform import format_state
    from mammamia_ref.rules.game import winners

    state = _finished_game()
    doc = format_state(state, result=True)
    seats, rule = winners(state)
    assert doc["result"]["winners"] == [state.colour(s) for s in seats]
    assert doc["result"]["rule"] == rule
    assert sum(doc["result"]["delivered"].values()) == sum(len(d) for d in state.delivered)
    assert not schema_errors(doc, "state.schema.json")
    assert parse_state(doc) == state
    assert "result" not in format_state(state)  # the plain form stays as it was
    named = doc["result"]["winners"]
    other = [c for c in state.config.colours if c not in named] or named[:-1]
    wrong = {**doc, "result": {**doc["result"], "winners": other}}
    try:
        parse_state(wrong)
    except InvalidStateError as exc:
        assert exc.rule == rule and "/result/winners" in exc.where
    else:
        raise AssertionError("a wrong winner was accepted")


def test_states_over_the_protocol_carry_the_result_only_at_the_end() -> None:
    from mammamia_ref.formats.jsonform import format_state

    state = _finished_game()
    [_, answer] = _talk([{"id": 1, "op": "load_state", "state": format_state(state)},
                         {"id": 2, "op": "state"}])
    assert answer["state"]["result"]["winners"]
    [answer] = _talk([{"id": 1, "op": "new_game", "players": 2}])
    assert "result" not in answer["state"]


def test_a_difference_shows_only_the_fields_that_differ_and_a_pile_shortly() -> None:
    from mammamia_ref.kit.compare import differences, pile_diff

    expected = {"round": 2, "supply": ["salami"] * 20 + ["olive", "pepper"],
                "players": [{"colour": "red", "delivered": []}]}
    actual = {"round": 2, "supply": ["salami"] * 20 + ["pepper", "olive"],
              "players": [{"colour": "red", "delivered": ["red.salami4"]}]}
    found = differences(actual, expected)
    assert found[0].startswith("/supply: same cards, other order: at 20:")
    assert found[1].startswith("/players/red/delivered: 0 cards expected, 1 got; extra ")
    assert len(found) == 2 and all(len(line) < 200 for line in found)
    assert pile_diff(["olive"], ["olive", "olive", "salami"]) == \
        "3 cards expected, 1 got; missing olive, salami"


def test_free_text_and_the_order_of_a_pile_about_to_be_shuffled_are_not_compared() -> None:
    from mammamia_ref.kit.compare import comparable_event, comparable_state

    assert comparable_event({"event": "failed", "rule": "oven.fail", "why": "x"}) == \
        {"event": "failed", "rule": "oven.fail"}
    doc = {"phase": "shuffle", "step": "supply", "supply": ["olive", "mamma_mia", "bread"]}
    assert comparable_state(doc)["supply"] == ["bread", "mamma_mia", "olive"]
    turn = {"phase": "turn", "step": "play", "supply": ["olive", "mamma_mia"]}
    assert comparable_state(turn) == turn


def test_the_sweep_covers_every_value_of_every_flag_once() -> None:
    from mammamia_ref.cli.conform import ruling_configurations
    from mammamia_ref.rules.state import variant_defaults, variant_values

    base = {"final_tie": "shared"}
    configurations = ruling_configurations(base, sweep=True)
    assert configurations[0] == base
    for flag, values in variant_values().items():
        seen = {c.get(flag) for c in configurations[1:]}
        assert set(values) - {base.get(flag, variant_defaults()[flag])} <= seen, flag
    assert all(len(set(c.items()) - set(base.items())) == 1 for c in configurations[1:])
    assert ruling_configurations(base, sweep=False) == [base]


def test_the_summary_names_the_references_rule_with_the_ports_label_beside() -> None:
    from mammamia_ref.kit.cases import CaseResult
    from mammamia_ref.kit.report import summary

    failed = CaseResult("scenario", "tie-break", "fail", ("game_end.tie_break",), step=2,
                        message="m", their_rules=("game_end.most_delivered",))
    text = summary([failed, CaseResult("random", "r", "pass")], implementation="x",
                   interrupted=False)
    assert "  game_end.tie_break: 1  (the port said: game_end.most_delivered)" in text
    assert "game_end.most_delivered: 1" not in text


def test_the_progress_bar_counts_cases_and_failures() -> None:
    from mammamia_ref.kit.cases import CaseResult
    from mammamia_ref.kit.report import Progress

    out = io.StringIO()
    bar = Progress(4, out, width=8)
    bar.add(CaseResult("scenario", "a", "pass"))
    bar.add(CaseResult("scenario", "b", "fail"))
    assert out.getvalue().split("\r")[-1].startswith("[####....] 2/4 cases, 1 failed")
    bar.close()
    assert out.getvalue().endswith("\r")


def test_a_stop_for_a_decision_is_said_in_words() -> None:
    from mammamia_ref.formats.scenario import given_state, load_all
    from mammamia_ref.kit.diagnose import pending_in_words
    from mammamia_ref.rules.actions import Draw
    from mammamia_ref.rules.game import apply

    [scenario], _ = load_all([ROOT / "scenarios/oven/monotoni-choices.yaml"])
    state, _ = apply(given_state(scenario, scenario.runs[0]), Draw("supply"))
    assert pending_in_words(state) == \
        "yellow must name a kind for the revealed order (oven.monotoni)"


def test_a_scenarios_own_expectations_are_checked_on_the_ports_answers_alone() -> None:
    from mammamia_ref.formats.scenario import Step, given_state, load_all
    from mammamia_ref.kit.cases import own_expectation_problems
    from mammamia_ref.kit.lockstep import Lockstep

    [scenario], _ = load_all([ROOT / "scenarios/game_end/tie-break.yaml"])
    lockstep = Lockstep(type("Port", (), {"info": {"features": ["events"]}})(),
                        given_state(scenario, scenario.runs[0]))
    lockstep.last_state = {"phase": "over", "current": 0, "players": [{"colour": "red"}],
                           "result": {"winners": ["red"], "rule": "game_end.tie_break"}}
    lockstep.last_events, lockstep.last_legal = [], [{"type": "decline"}]
    step = Step(0, None, None, None, {"winners": ["green"], "winner_rule": "game_end.tie_break",
                                      "to_move": None, "legal": [{"type": "decline"}],
                                      "state": {"phase": "over"}})
    assert own_expectation_problems(lockstep, step) == \
        ["winners: expected ['green'], got ['red']"]
    lockstep.last_state = {"phase": "turn", "current": 0, "players": [{"colour": "red"}]}
    problems = own_expectation_problems(lockstep, step)
    assert "to_move: expected None, got red" in problems
    assert any(p.startswith("result: the state names no result") for p in problems)
    assert any(p.startswith("state/phase") for p in problems)


def test_an_overlong_request_line_is_refused_and_skipped(monkeypatch) -> None:
    """A line over the cap is answered with an error and never held whole; the session
    goes on with the next line."""
    import mammamia_ref.kit.protocol as protocol

    monkeypatch.setattr(protocol, "MAX_LINE", 64)
    long_line = json.dumps({"id": 1, "op": "hello", "protocol": PROTOCOL, "pad": "x" * 500})
    hello = json.dumps({"id": 2, "op": "hello", "protocol": PROTOCOL})
    for stream in (io.StringIO(long_line + "\n" + hello + "\n"),
                   io.TextIOWrapper(io.BytesIO((long_line + "\n" + hello + "\n").encode()))):
        out = io.StringIO()
        serve(stream, out)
        first, second = (json.loads(line) for line in out.getvalue().splitlines())
        assert first["ok"] is False and "longer than 64 bytes" in first["error"]["message"]
        assert _check(first, "answer") == []
        assert second["id"] == 2 and second["ok"] is True
