"""z3's Spacer on the game model's relation (``mammamia_ref/tools/horn_trial.py``): the
clauses are connected (a count the setup reaches is found reachable) and what the
unbounded proof proves, Spacer proves too where it is quick."""

from __future__ import annotations

import pytest

pytest.importorskip("z3")

from mammamia_ref.queries.answering.unbounded import prove_never
from mammamia_ref.rules.ruleset import make_rules
from mammamia_ref.tools.horn_trial import horn_trial, main

pytestmark = pytest.mark.z3


@pytest.mark.parametrize(("count", "at_least", "verdict"), [
    ("hand", 7, "sat"),        # the deal: six ingredient cards and one order
    ("waiter", 9, "unsat"),
    ("round", 4, "unsat"),
])
def test_spacer_answers_as_the_game_and_the_proof_do(count: str, at_least: int,
                                                     verdict: str) -> None:
    rules = make_rules({})
    assert horn_trial(count, at_least, 2, rules, 60).verdict == verdict
    proved = prove_never({"state": {"count": count, "at_least": at_least}}, 2, rules).proved
    assert proved == (verdict == "unsat")


def test_the_command_prints_its_answer(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--count", "waiter", "--at-least", "9", "--seconds", "60"]) == 0
    assert capsys.readouterr().out.startswith("waiter >= 9, 2 players: unsat in ")
