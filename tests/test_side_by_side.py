"""The catalogue's queries as question files, side by side with the catalogue
(``mammamia_ref/tools/side_by_side.py``): every query is a file stated by its condition
(or named as one the language cannot state, with the reason), quick cells give the
catalogue's answer by the generic route, and the comparison calls a contradiction one."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

pytest.importorskip("z3")

from mammamia_ref.queries.catalogue.common import load_catalogue
from mammamia_ref.rules import specdata
from mammamia_ref.tools import side_by_side
from mammamia_ref.tools.side_by_side import NOT_STATED, agreement, main, rows

pytestmark = pytest.mark.z3


def test_every_catalogue_query_is_a_question_file_or_named_with_its_reason() -> None:
    folder = specdata.spec_path("questions")
    for query in load_catalogue():
        qid = query["id"]
        stated = (folder / f"{qid}.yaml").exists()
        assert stated != (qid in NOT_STATED), qid
    assert all(len(why) > 40 for why in NOT_STATED.values())
    # a query the language cannot state, or states narrower, keeps its own module
    from mammamia_ref.tools.side_by_side import NARROWER

    assert not [q["id"] for q in load_catalogue() if q["method"] == "question"
                and (q["id"] in NOT_STATED or q["id"] in NARROWER)]


def _got(answer: str, value: int | None = None, upper: int | None = None,
         lower: int | None = None, exact: bool = False) -> Any:
    return SimpleNamespace(answer=answer, value=value, upper=upper, lower=lower, exact=exact)


def test_the_comparison_never_calls_a_contradiction_agreement() -> None:
    sat, unsat = {"verdict": "sat"}, {"verdict": "unsat"}
    assert agreement(sat, _got("found"), "find") == "agrees"
    assert agreement(sat, _got("none in any game"), "find") == "CONTRADICTS"
    assert agreement(sat, _got("none within the bound"), "find") == "CONTRADICTS"
    assert agreement(sat, _got("unknown"), "find") == "not settled"
    # a most: that has none (Q24's letter): "unbounded" is the game the catalogue found;
    # a value is a game short of it, and a proved bound would deny it
    assert agreement(sat, _got("unbounded"), "most") == "agrees"
    assert agreement(sat, _got("unbounded"), "find") == "CONTRADICTS"
    assert agreement(sat, _got("value", 59), "most") == "not settled"
    assert agreement(sat, _got("value", 59, upper=198), "most") == "CONTRADICTS"
    assert agreement(unsat, _got("found"), "find") == "CONTRADICTS"
    assert agreement(unsat, _got("none in any game"), "find") == "agrees"
    assert agreement(unsat, _got("none within the bound"), "find") == "agrees within the bound"
    value = {"verdict": "value", "value": 10, "upper": 12}
    assert agreement(value, _got("value", 13), "most") == "CONTRADICTS"
    assert agreement(value, _got("value", 10, upper=9), "most") == "CONTRADICTS"
    assert agreement(value, _got("value", 9), "most") == "short"
    assert agreement(value, _got("value", 10), "most") == "agrees"
    assert agreement(value, _got("value", 11), "most") == "beyond the catalogue"
    exact = {"verdict": "value", "value": 6, "upper": 6}
    assert agreement(exact, _got("value", 6, upper=7), "most") == "agrees, not proved exact"
    assert agreement(exact, _got("value", 6, upper=6, exact=True), "most") == "agrees"
    fewest = {"verdict": "value", "value": 8}
    assert agreement(fewest, _got("value", 8, lower=9), "fewest") == "CONTRADICTS"
    assert agreement(fewest, _got("value", 9), "fewest") == "short"


@pytest.mark.parametrize("query", ["Q05", "Q21", "Q24"])
def test_quick_catalogue_cells_get_the_catalogues_answer_by_the_generic_route(
        query: str) -> None:
    """Every two-player cell of these optima (Q24's answered by a module of its own),
    each settled in seconds with the known games: the catalogue's value. (Asked from
    scratch in ``tests/test_by_question.py``.)"""
    found = rows([2], budget=30, only=[query])
    assert found
    for row in found:
        assert row.agreement == "agrees", (row.cell, row.generic, row.how)


def test_each_answer_says_where_it_came_from(capsys: pytest.CaptureFixture[str]) -> None:
    """Q04 at two players: the catalogue's witness, a known game, by default; without the
    known games the search finds its own, and the table and the JSON say which."""
    import json

    known = rows([2], budget=30, only=["Q04"])
    assert [(r.agreement, r.source) for r in known] == [("agrees", "known game")]
    assert main(["--players", "2", "--query", "Q04", "--without-known-games", "--json"]) == 0
    (alone,) = json.loads(capsys.readouterr().out)
    assert alone["agreement"] == "agrees" and alone["source"] in ("search", "game model")
    proved = rows([2], budget=30, only=["Q14"])
    assert {r.source for r in proved} == {"proof"}


def test_a_run_that_compares_nothing_fails(capsys: pytest.CaptureFixture[str],
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """No cell matched, or none stated, is exit 2 with a line saying so, never an empty
    table and 0."""
    with pytest.raises(SystemExit) as stopped:
        main(["--query", "Q99"])
    assert stopped.value.code == 2 and "no catalogue query starts with Q99" in \
        capsys.readouterr().err
    with pytest.raises(SystemExit) as stopped:
        main(["--players", "7"])
    assert stopped.value.code == 2
    monkeypatch.setitem(side_by_side.NOT_STATED, "Q02-minimale-tie-decides", "a trial")
    assert main(["--players", "2", "--query", "Q02"]) == 2   # every cell not stated
    monkeypatch.delitem(side_by_side.NOT_STATED, "Q02-minimale-tie-decides")
    assert main(["--players", "2", "--query", "Q24", "--budget", "1"]) == 0   # 1 cell: Q24


def _stated_cells(qid: str) -> list[dict[str, Any]]:
    """The cells of a stated query whose catalogue answer is a game (a witness)."""
    query = next(q for q in load_catalogue() if q["id"] == qid)
    return [a for a in query["answers"] if a["expected"]["verdict"] != "unsat"
            and not any(key == f"{qid}/{v}" for key in NOT_STATED
                        for v in (a.get("variants") or {}).values())]


@pytest.mark.parametrize("qid", [q["id"] for q in load_catalogue()
                                 if q["id"] not in NOT_STATED and q["method"] != "question"])
def test_each_catalogue_witness_meets_its_question_file(qid: str) -> None:
    """The question file states the catalogue's question: every committed witness of
    the query, replayed by the reference, meets the file's condition (a value: its
    measure is the catalogue's). A query whose file is narrower is named in
    ``NARROWER`` with how, and has a witness that shows it (else the entry is stale),
    and is not answered by its file. (A query answered by its file, ``method:
    question``, is held so by ``tests/test_queries.py``: its answers are these
    judgements.)"""
    from mammamia_ref.queries.catalogue.by_question import certificate_judged
    from mammamia_ref.queries.catalogue.common import answer_rules, certificate, players_of
    from mammamia_ref.queries.language.questions import load_question
    from mammamia_ref.tools.side_by_side import NARROWER

    query = next(q for q in load_catalogue() if q["id"] == qid)
    question = load_question(specdata.spec_path("questions") / f"{qid}.yaml")
    missed = []
    for answer in _stated_cells(qid):
        doc = certificate(query, answer)
        assert doc is not None, f"{qid} {answer['name']}: no committed witness"
        got = certificate_judged(question, players_of(answer), doc, answer_rules(answer))
        expected = answer["expected"]
        if got.verdict != expected["verdict"] or got.value != expected.get("value"):
            missed.append(f"{answer['name']}: {got.verdict} {got.value} ({got.detail})")
    assert bool(missed) == (qid in NARROWER), (qid, missed)
