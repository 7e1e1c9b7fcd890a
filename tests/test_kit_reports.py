"""What the kit says of a divergence (issues 29 and 32): the rules named by the part of
the state that differs, the position first and never cut, a refused state's rule, and
the conformance report (``conform --report``)."""

from __future__ import annotations

import copy
import io
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from mammamia_ref.formats.jsonform import format_state
from mammamia_ref.kit import PROTOCOL
from mammamia_ref.kit.protocol import ReferenceSession, serve
from mammamia_ref.kit.runner import MAX_FIELDS, run_random_game, state_report
from mammamia_ref.rules.game import new_game
from mammamia_ref.rules.specdata import rule_ids
from mammamia_ref.rules.state import make_config

ROOT = Path(__file__).resolve().parent.parent


class Altered:
    """The reference behind the protocol, its answers' states changed by ``alter``."""

    def __init__(self, alter: Callable[[str, dict[str, Any]], None],
                 features: tuple[str, ...] = ("load_state", "seats")) -> None:
        self.session = ReferenceSession()
        self.info = {**self.session.op_hello({"protocol": PROTOCOL}), "features": list(features)}
        self.alter = alter

    def request(self, op: str, *, timeout: float | None = None, work: int = 0,
                **fields: Any) -> dict[str, Any]:
        answer = copy.deepcopy(self.session.handle({"op": op, **fields}))
        if isinstance(answer.get("state"), dict):
            self.alter(op, answer["state"])
        return answer


def test_a_wrong_trimming_is_named_by_setup_trim_first() -> None:
    def untrimmed(op: str, state: dict[str, Any]) -> None:
        if op == "new_game":
            state["box"] = dict.fromkeys(state["box"], 0)

    result = run_random_game(Altered(untrimmed), make_config(3), 0, None)
    assert result.status == "fail" and result.step is None
    assert result.rules[0] == "setup.trim", result.rules


def test_a_missing_result_is_named_by_the_game_end_rules_first() -> None:
    def no_result(op: str, state: dict[str, Any]) -> None:
        state.pop("result", None)

    result = run_random_game(Altered(no_result), make_config(2), 3, None)
    assert result.status == "fail" and "state/result: missing" in result.message
    assert result.rules[0].startswith("game_end."), result.rules
    game_end = [i for i, rule in enumerate(result.rules) if rule.startswith("game_end.")]
    others = [i for i, rule in enumerate(result.rules) if not rule.startswith("game_end.")]
    assert not others or max(game_end) < min(others), result.rules


def test_the_position_leads_a_state_report_and_is_never_cut() -> None:
    state = new_game(make_config(2))
    expected = format_state(state)
    problems = [f"/supply/{i}: expected a, got b" for i in range(3 * MAX_FIELDS)] + \
        ["/reveal: expected null, got {}", "/step: expected \"ingredients\", got \"x\""]
    report = state_report(state, {**expected, "step": "x"}, expected, problems)
    assert report[0].startswith("the reference stops here: the ingredients pile must be "
                                "shuffled")
    assert report[1] == "state/step: expected \"ingredients\", got \"x\""
    assert report[2] == "state/reveal: expected null, got {}"
    assert report[-1] == f"and {2 * MAX_FIELDS} more fields"
    assert len(report) == 3 + MAX_FIELDS + 1


def _refusal(state: dict[str, Any]) -> dict[str, Any]:
    out = io.StringIO()
    requests = [{"id": 1, "op": "load_state", "state": state}]
    serve(io.StringIO("".join(json.dumps(r) + "\n" for r in requests)), out)
    [answer] = [json.loads(line) for line in out.getvalue().splitlines()]
    return answer


def _breaks(how: str) -> dict[str, Any]:
    doc = format_state(new_game(make_config(2)))  # red and yellow
    red, yellow = doc["players"]
    if how == "a second yellow seat":
        red["colour"] = "yellow"
    elif how == "a green order in red's waiter":
        red["waiter"][0] = "green.salami4"
    elif how == "a yellow order in red's waiter":
        red["waiter"][0], yellow["waiter"][0] = yellow["waiter"][0], red["waiter"][0]
    elif how == "an order twice":
        red["delivered"].append(red["waiter"][0])
    elif how == "an extra olive":
        doc["supply"].append("olive")
    elif how == "a second Mamma Mia! card":
        doc["supply"].append("mamma_mia")
    elif how == "a card missing from the box":
        doc["box"]["salami"] -= 1
    return doc


@pytest.mark.parametrize("how,rule", [
    ("a second yellow seat", "setup.components"),
    ("a green order in red's waiter", "setup.components"),
    ("a yellow order in red's waiter", "setup.waiter"),
    ("an order twice", "setup.components"),
    ("an extra olive", "setup.components"),
    ("a second Mamma Mia! card", "setup.components"),
    ("a card missing from the box", "setup.components"),
])
def test_a_state_that_breaks_card_conservation_is_refused_with_its_rule(how: str,
                                                                        rule: str) -> None:
    answer = _refusal(_breaks(how))
    assert answer["ok"] is False
    assert answer["error"]["rule"] == rule and rule in rule_ids()
    assert f"[{rule}]" in answer["error"]["message"]
