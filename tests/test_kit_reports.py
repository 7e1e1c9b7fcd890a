"""What the kit says of a divergence (issues 29 and 32): the rules named by the part of
the state that differs, the position first and never cut, a refused state's rule, and
the conformance report (``conform --report``)."""

from __future__ import annotations

import copy
import io
import json
import subprocess
import sys
from collections.abc import Callable
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from mammamia_ref.formats.jsonform import format_state
from mammamia_ref.kit import PROTOCOL
from mammamia_ref.kit.cases import run_random_game
from mammamia_ref.kit.diagnose import MAX_FIELDS, state_report
from mammamia_ref.kit.port_report import load_run
from mammamia_ref.kit.protocol import ReferenceSession, serve
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
    elif how == "an order no colour has in red's waiter":  # the schema's pattern allows it
        red["waiter"].append("red.salami4")
    elif how == "an order no colour has in the oven":
        doc["oven"].append("purple.olive4")
    return doc


@pytest.mark.parametrize("how,rule", [
    ("a second yellow seat", "setup.components"),
    ("a green order in red's waiter", "setup.components"),
    ("a yellow order in red's waiter", "setup.waiter"),
    ("an order twice", "setup.components"),
    ("an extra olive", "setup.components"),
    ("a second Mamma Mia! card", "setup.components"),
    ("a card missing from the box", "setup.components"),
    ("an order no colour has in red's waiter", "setup.components"),
    ("an order no colour has in the oven", "setup.components"),
])
def test_a_state_that_breaks_card_conservation_is_refused_with_its_rule(how: str,
                                                                        rule: str) -> None:
    answer = _refusal(_breaks(how))
    assert answer["ok"] is False
    assert answer["error"]["rule"] == rule and rule in rule_ids()
    assert f"[{rule}]" in answer["error"]["message"]


class _Balanced(HTMLParser):
    """Every element opened is closed, in order (void elements aside)."""

    VOID = frozenset(("meta", "br", "img", "link"))

    def __init__(self) -> None:
        super().__init__()
        self.open: list[str] = []
        self.problems: list[str] = []

    def handle_starttag(self, tag: str, attrs: Any) -> None:
        if tag not in self.VOID:
            self.open.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if not self.open or self.open.pop() != tag:
            self.problems.append(tag)


@pytest.mark.slow
def test_conform_report_in_markdown_html_and_as_data(tmp_path: Path) -> None:
    broken = [sys.executable, str(ROOT / "tests" / "impls" / "broken.py")]
    reports = {}
    for suffix in (".md", ".html", ".json"):
        path = tmp_path / f"report{suffix}"
        result = subprocess.run(
            [sys.executable, "-m", "mammamia_ref", "conform", "-q", "--scenarios",
             str(ROOT / "scenarios" / "oven" / "bombastica-from-hand.yaml"), "--perft",
             str(tmp_path), "--random-games", "1", "--players", "2", "--variant",
             "stall=letter", "--report", str(path), "--", *broken,
             "bombastica_table_only_state_only"],
            capture_output=True, text=True, check=False, cwd=ROOT, timeout=600)
        assert result.returncode == 1, result.stderr
        reports[suffix] = path.read_text(encoding="utf-8")
    text = reports[".md"]
    assert text.startswith("# Conformance of mammamia_ref ")
    assert "| features | load_state, perft, seats |" in text
    assert "| Opening the oven | 1 | 3 | 4 |" in text  # pass, fail, cases
    assert "### FAIL scenario bombastica-from-hand[bombastica_hand=allowed]" in text
    assert "at step 0; rule `oven.bombastica`" in text
    assert "waits for the owner's decision" in text
    page = _Balanced()
    page.feed(reports[".html"])
    assert not page.problems and not page.open
    assert "<h2>Results by chapter</h2>" in reports[".html"]
    assert "at step 0; rule <code>oven.bombastica</code>" in reports[".html"]
    run = load_run(tmp_path / "report.json")
    assert [r["status"] for r in run["results"]].count("fail") == 4
    assert "--variant" in run["arguments"] and "stall=letter" in run["arguments"]


@pytest.mark.slow
def test_the_report_says_what_was_skipped_and_why(tmp_path: Path) -> None:
    path = tmp_path / "report.md"
    result = subprocess.run(
        [sys.executable, "-m", "mammamia_ref", "conform", "-q", "--scenarios",
         str(ROOT / "scenarios" / "oven"), "--perft", str(tmp_path), "--random-games", "1",
         "--players", "2", "--report", str(path), "--", sys.executable,
         str(ROOT / "tests" / "impls" / "broken.py"), "offers_few_rulings"],
        capture_output=True, text=True, check=False, cwd=ROOT, timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr
    skipped = path.read_text(encoding="utf-8").split("## Skipped", 1)[1]
    assert "| your implementation offers bombastica_hand=forbidden only |" in skipped
    assert "| your implementation offers stall=letter only |" in skipped
