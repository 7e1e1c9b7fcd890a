"""The catalogue's queries with no module of their own (``method: question``): each
cell answered by the question file through ``ask``'s route
(:mod:`mammamia_ref.queries.catalogue.by_question`)."""

from __future__ import annotations

import os

import pytest

pytest.importorskip("z3")

from mammamia_ref.queries.catalogue.common import load_catalogue, players_of
from mammamia_ref.queries.catalogue.runner import answer_query

pytestmark = pytest.mark.z3

BY_QUESTION = [q for q in load_catalogue() if q["method"] == "question"]
LONG = {("Q12-monotoni-absent-kind", "any_other"):
        "the seeded search takes about 20 s of CPU (90 s on a loaded machine)",
        ("Q16-round-ends-by-stall", "cut"):
        "the search's share, then z3 finds a first round of 8 turns: about 15 s of CPU",
        ("Q21-fewest-turns-all-orders", "default_2p"):
        "the question's sketch leads z3 to the game: about 20 s of CPU",
        ("Q24-longest-round", "cut_2p"):
        "the sketch's game in 4 s, then the search has the rest of 60 s (no exact value)",
        ("Q17-all-rounds-end-by-stall", "cut"):
        "the search's share, then z3 finds three rounds that end so: about 28 s of CPU",
        **{("Q22-bombastica-most-cards", name): "the directed search finds the Bombastica "
           "that takes every card in play: about 20 s of CPU"
           for name in ("default_2p", "letter_2p", "last_ingredient_2p")}}
"""Cells whose route from scratch runs only with ``MAMMAMIA_SLOW=1``, as the catalogue's
slow answers do (``tools.side_by_side`` answers them too)."""

FROM_SCRATCH = [pytest.param(q["id"], a["name"], marks=[pytest.mark.skipif(
    os.environ.get("MAMMAMIA_SLOW") != "1", reason=f"slow: {LONG[q['id'], a['name']]}; "
    "MAMMAMIA_SLOW=1")] if (q["id"], a["name"]) in LONG else [])
    for q in BY_QUESTION for a in q["answers"] if players_of(a) == 2]


def _cell(qid: str, name: str) -> tuple[dict[str, object], dict[str, object]]:
    query = next(q for q in BY_QUESTION if q["id"] == qid)
    return query, next(a for a in query["answers"] if a["name"] == name)


@pytest.mark.parametrize(("qid", "name"), FROM_SCRATCH)
def test_the_route_from_scratch_gives_the_catalogue_answer(
        qid: str, name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """With the full search asked for, no certificate is used and no known game is
    judged: the unbounded proof proves each impossibility, and the search or the game
    model finds each game, which the reference replays."""
    monkeypatch.setenv("MAMMAMIA_FULL_SEARCH", "1")
    query, answer = _cell(qid, name)
    got = answer_query(query, answer)
    assert got.matches_expected, (got.verdict, got.detail)
    assert "certificate" not in got.detail and "known game" not in got.detail
    if got.verdict in ("sat", "value"):   # a game (an optimum's too) from a new deal
        assert got.reference == "agrees" and got.scenario is not None
        assert "setup" in got.scenario["given"]
    else:   # the proof named as the catalogue names it: induction, or a ranking function
        proof = {"induction": "induction", "ranking": "a ranking function"}[got.evidence]
        assert got.detail.startswith(f"proved by {proof}")


def test_by_default_a_cell_with_a_witness_judges_the_committed_game() -> None:
    """Without the full search, a cell with a committed witness is that game judged by
    the question's condition; the witness is the committed one."""
    from mammamia_ref.queries.catalogue.common import certificate

    sat = [(q, a) for q in BY_QUESTION for a in q["answers"]
           if a["expected"]["verdict"] == "sat"]
    assert sat
    query, answer = sat[0]
    got = answer_query(query, answer)
    assert got.matches_expected and got.detail.startswith("certificate re-checked")
    assert got.scenario == certificate(query, answer)


def test_a_witness_under_other_rules_is_not_a_game_of_the_cell() -> None:
    """A committed witness judged for a cell whose flags it was not played under (or at
    another player count) is no answer: the verdict says so, never "found"."""
    from mammamia_ref.queries.catalogue.by_question import certificate_judged
    from mammamia_ref.queries.catalogue.common import certificate
    from mammamia_ref.queries.language.questions import load_question
    from mammamia_ref.rules import specdata
    from mammamia_ref.rules.ruleset import make_rules

    query, answer = _cell("Q03-bombastica-round-one", "hand_allowed")
    question = load_question(specdata.spec_path("questions") / f"{query['id']}.yaml")
    doc = certificate(query, answer)
    assert doc is not None
    allowed = make_rules({"bombastica_hand": "allowed"})
    assert certificate_judged(question, 2, doc, allowed).verdict == "sat"
    for players, rules in ((2, make_rules({"bombastica_hand": "forbidden"})), (3, allowed)):
        got = certificate_judged(question, players, doc, rules)
        assert got.verdict == "unknown" and "not a game of this cell" in got.detail


def test_a_cell_may_give_its_route_from_scratch_more_budget(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``full_search: budget`` in spec/queries.yaml is the CPU the route from scratch may
    spend in that cell (Q17 at 5 players: 240 s); any other cell has the default 60."""
    from mammamia_ref.queries.answering import ask
    from mammamia_ref.queries.catalogue.by_question import BUDGET, answer_by_question

    given: list[float] = []

    def spy(_question: object, _players: int, _variants: object, budget: float,
            **_kw: object) -> ask.AskAnswer:
        given.append(budget)
        return ask.AskAnswer("q", 2, {})   # unknown: nothing spent

    monkeypatch.setenv("MAMMAMIA_FULL_SEARCH", "1")
    monkeypatch.setattr(ask, "answer_cell", spy)
    for name, seconds in (("cut_5p", 240), ("cut_4p", BUDGET)):
        got = answer_by_question(*_cell("Q17-all-rounds-end-by-stall", name))
        assert got.verdict == "unknown" and f"within {seconds:g} s of CPU" in got.detail
    assert given == [240.0, BUDGET]
