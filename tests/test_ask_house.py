"""``mammamia ask`` under house rules: a question names one (``house:``, beside the file)
or ``ask --house FILE`` lays one over every question; the search, the witness and the
z3 bound are all under its numbers, and the answer names them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("z3")

from mammamia_ref.cli.app import main
from mammamia_ref.errors import InternalError
from mammamia_ref.formats.house import load_house
from mammamia_ref.queries.answering.ask import answer_cell
from mammamia_ref.queries.answering.witness import dump_scenario
from mammamia_ref.queries.language.questions import QuestionError, load_question

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
QUESTION = """question: largest-hand
most: largest_hand
players: [2]
bound: {games: 40}
"""


def test_the_largest_hand_is_the_house_rules_limit_proved_and_reached() -> None:
    """Under the hand of eight the best game holds 8 cards and z3 proves 8 the most (by
    induction over the game model under hand_limit=8): exact; the witness is a game
    from a new deal that the reference replays under the same house rule."""
    question = load_question(EXAMPLES / "questions" / "largest-hand.yaml")
    assert question.house is not None and question.house.name == "hand of eight"
    got = answer_cell(question, 2, {}, budget=60)
    assert (got.answer, got.value, got.upper, got.upper_evidence, got.exact) == \
        ("value", 8, 8, "induction", True)
    assert got.reference == "agrees" and got.scenario is not None
    assert got.scenario["parameters"] == {"hand_limit": 8}
    assert "setup" in got.scenario["given"]
    report = got.as_json()
    assert report["parameters"]["hand_limit"] == 8 and report["not_the_spec"] == {
        "hand_limit": 8}
    assert "hand of eight" in report["parameters_from"]
    assert "not the spec's: hand_limit=8" in got.text()


def test_the_same_question_under_the_spec_and_under_ask_house(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]
                                                              ) -> None:
    """Without a house rule the answer is the spec's 7 (exact); ``ask --house`` asks the
    same file under the hand of eight, and the JSON says so."""
    path = tmp_path / "q.yaml"
    path.write_text(QUESTION, encoding="utf-8")
    plain = answer_cell(load_question(path), 2, {}, budget=60)
    assert (plain.value, plain.upper, plain.exact) == (7, 7, True)
    assert plain.as_json()["not_the_spec"] == {}
    house = EXAMPLES / "house-rules" / "hand-of-eight.yaml"
    assert main(["ask", str(path), "--house", str(house), "--json", "--budget", "60"]) == 0
    (answer,) = json.loads(capsys.readouterr().out)
    assert (answer["value"], answer["upper"], answer["exact"]) == (8, 8, True)
    assert answer["house"] == str(house) and answer["not_the_spec"] == {"hand_limit": 8}
    # the bound's proof in words, under each cell's own numbers
    assert "the hand limit, 7, in any state" in plain.bound_how, plain.bound_how
    assert "the hand limit, 8, in any state" in answer["bound_how"], answer["bound_how"]
    assert "bound: no hand holds more than the hand limit, 7" in plain.text()


def test_a_catalogue_question_under_other_numbers_is_answered_under_them(
        tmp_path: Path) -> None:
    """Q09 writes its count as the hand limit plus one: proved "never" under the spec's
    limit and under the house rule's hand of eight (a hand of nine). A file that writes
    the number 8 instead is no longer "never" under that house rule: a game holds eight."""
    question = load_question(ROOT / "spec" / "questions" / "Q09-hand-above-seven.yaml")
    eight = load_house(EXAMPLES / "house-rules" / "hand-of-eight.yaml")
    spec = answer_cell(question, 2, {}, budget=10)
    assert spec.answer == "none in any game" and "below 8" in spec.detail, spec.tried
    under = answer_cell(question.with_house(eight), 2, {}, budget=10)
    assert under.answer == "none in any game" and "below 9" in under.detail, under.tried
    written = tmp_path / "eight.yaml"
    written.write_text("question: eight\nfind:\n  state: {count: hand, at_least: 8}\n",
                       encoding="utf-8")
    got = answer_cell(load_question(written).with_house(eight), 2, {}, budget=60)
    assert got.answer == "found" and got.reference == "agrees", got.tried
    assert got.in_force["non_default"] == {"hand_limit": 8}


def test_a_count_of_the_rules_read_under_the_house_is_checked_there(tmp_path: Path) -> None:
    """A count written as a number of the rules is read under the rules asked: a name
    that is no number of the rules, a count below 0, or a contradiction that only the
    house rule's number makes, is the question's error at its line."""
    path = tmp_path / "q.yaml"
    path.write_text("question: q\nfind:\n  state:\n    count: hand\n"
                    "    at_least: {number: hand_limit}\n    at_most: 7\n", encoding="utf-8")
    assert load_question(path).condition == {"state": {"count": "hand", "at_least": 7,
                                                       "at_most": 7}}
    eight = load_house(EXAMPLES / "house-rules" / "hand-of-eight.yaml")
    with pytest.raises(QuestionError) as caught:
        load_question(path).with_house(eight)
    assert caught.value.line == 6 and "at least 8 and at most 7" in str(caught.value)
    assert "hand of eight" in str(caught.value)
    for number, words in (("{number: hand_size}", "not a number of the rules"),
                          ("{number: hand_limit, plus: -8}", "below 0")):
        path.write_text(f"question: q\nfind:\n  state:\n    count: hand\n"
                        f"    at_least: {number}\n", encoding="utf-8")
        with pytest.raises(QuestionError) as caught:
            load_question(path)
        assert caught.value.line == 5 and words in str(caught.value)


def test_ask_under_a_house_rule_checks_every_file_before_any_cell(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``ask --house`` reads each file's numbers of the rules under the house rule before
    any cell is asked: a good file first and a file that the house rule's number makes
    contradictory second give exit 2 and the second's line, and no answer at all."""
    good = tmp_path / "good.yaml"
    good.write_text("question: good\nfind: {event: baked}\n", encoding="utf-8")
    bad = tmp_path / "bad.yaml"
    bad.write_text("question: bad\nfind:\n  state:\n    count: hand\n"
                   "    at_least: {number: hand_limit}\n    at_most: 7\n", encoding="utf-8")
    eight = str(EXAMPLES / "house-rules" / "hand-of-eight.yaml")
    assert main(["ask", str(good), str(bad), "--house", eight, "--budget", "5"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and f"{bad}:6:" in err and "at least 8 and at most 7" in err, err


@pytest.mark.parametrize(("house", "words"), [
    ("missing.yaml", "missing.yaml (beside the question file)"),
    ("bad.yaml", "hand_limit"),
])
def test_a_bad_house_rule_is_the_questions_error_at_its_line(tmp_path: Path, house: str,
                                                             words: str) -> None:
    (tmp_path / "bad.yaml").write_text("name: x\nparameters: {hand_limit: 0}\n",
                                       encoding="utf-8")
    path = tmp_path / "q.yaml"
    path.write_text(QUESTION + f"house: {house}\n", encoding="utf-8")
    with pytest.raises(QuestionError) as caught:
        load_question(path)
    assert caught.value.line == 5 and words in str(caught.value)


def test_a_witness_is_never_written_without_a_key() -> None:
    """The scenario writer writes a house rule's parameters (top level and per run) and
    refuses a key it cannot write rather than drop it."""
    doc = {"id": "x", "title": "x", "rules": ["setup.deal"], "parameters": {"hand_limit": 8},
           "given": {"setup": {"players": 2}}, "steps": []}
    assert "parameters: {hand_limit: 8}" in dump_scenario(doc)
    with pytest.raises(InternalError, match="cannot write house"):
        dump_scenario({**doc, "house": "x"})


def test_every_example_question_loads_with_its_house_rule() -> None:
    files = sorted((EXAMPLES / "questions").glob("*.yaml"))
    assert len(files) >= 3
    assert all(load_question(f).house is not None for f in files)


@pytest.mark.z3  # answers z3 queries
def test_the_smallest_bombastica_is_proved_at_the_house_rules_total(tmp_path: Path) -> None:
    """A baked Bombastica takes at least the game's total (z3, one reveal step from every
    well-formed state, for every colour in play); one card more is not a bound (a
    Bombastica of exactly the total bakes), so the proof is not vacuous."""
    from mammamia_ref.queries.answering.ask import lower_bound
    from mammamia_ref.queries.model import num as N
    from mammamia_ref.queries.model.proofs import take_bound
    from mammamia_ref.rules.ruleset import make_rules

    short = load_house(EXAMPLES / "house-rules" / "short-bombastica.yaml").rules
    for rules, total in ((short, 12), (make_rules(), 15)):
        proved = lower_bound("bombastica_cards", 2, rules)
        assert proved is not None and (proved.value, proved.evidence) == (total, "statement")
        assert f"at least {total} cards" in proved.how, proved.how
    with N.building():
        assert not take_bound(2, short, "red.bombastica", 13, below=True).holds
    path = tmp_path / "q.yaml"   # the example's question, over fewer games
    path.write_text(f"question: s\nfewest: bombastica_cards\nplayers: [2]\nbound: {{games: 100}}\n"
                    f"house: {EXAMPLES / 'house-rules' / 'short-bombastica.yaml'}\n",
                    encoding="utf-8")
    got = answer_cell(load_question(path), 2, {}, budget=60)
    assert (got.value, got.lower, got.exact, got.reference) == (12, 12, True, "agrees")
