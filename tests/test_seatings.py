"""Every seating the rules allow: the two "none" answers an independent check found false
(``ask`` once played only games red started, the colours seated in order) are found now,
each a game from a new deal that the reference replays; and an answer says where its
condition first held, whether its witness was written, and only what of the rules is not
the spec's."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

pytest.importorskip("z3")

from mammamia_ref.queries.answering.ask import answer_cell
from mammamia_ref.queries.language.questions import load_question
from mammamia_ref.rules.vocabulary import COLOURS

pytestmark = pytest.mark.z3


def _question(tmp_path: Path, find: dict[str, Any], bound: dict[str, int]) -> Any:
    path = tmp_path / "q.yaml"
    path.write_text(yaml.safe_dump({"question": "q", "title": "a question", "find": find,
                                    "players": [2], "bound": bound}), encoding="utf-8")
    return load_question(path)


@pytest.mark.parametrize(("find", "named"), [
    # a round cut by the stall within four turns in which red's order bakes: only with
    # yellow first
    ({"all": [{"event": "round_ended", "rule": "round_end.stall"},
              {"event": "baked", "where": {"seat": "red"}}]}, "red"),
    # green bakes within four turns: green is seated only in a seating of its own
    ({"event": "baked", "where": {"seat": "green"}}, "green"),
], ids=["stall-round-red-bakes", "green-bakes-early"])
def test_a_once_false_none_is_found_under_another_seating(tmp_path: Path,
                                                          find: dict[str, Any],
                                                          named: str) -> None:
    question = _question(tmp_path, find, {"rounds": 1, "turns": 4})
    got = answer_cell(question, 2, {}, budget=60)
    assert got.answer == "found", got.tried
    assert got.reference == "agrees" and got.scenario is not None
    setup = got.scenario["given"]["setup"]
    seated = setup.get("colours", list(COLOURS[:2]))
    # not the one seating the old search and model played: red first, then yellow
    assert named in seated and (seated, setup["first_player"]) != (["red", "yellow"], 0)


def test_an_answer_says_where_its_condition_first_held(tmp_path: Path) -> None:
    question = _question(tmp_path, {"event": "baked", "where": {"seat": "green"}},
                         {"rounds": 1, "turns": 4})
    got = answer_cell(question, 2, {}, budget=60)
    text = got.text()
    assert "first held in turn " in got.first_held and "green to play" in got.first_held
    setup = (got.scenario or {})["given"]["setup"]
    colours = setup["colours"]
    starts = setup["first_player"]
    assert got.seated == (*colours[starts:], *colours[:starts]) and "green" in got.seated
    assert f"seated: {', '.join(got.seated)} clockwise, {got.seated[0]} starting\n" in text
    assert got.not_seated == () and got.as_json()["seated"] == list(got.seated)
    assert "not written: --write-witnesses keeps it as scenarios/ask/" in text
    assert "rules: the spec's" in text and "flags:" not in text
    assert "witness: scenarios/ask/" in got.text(written=True)
    assert got.as_json()["flags"]["stall"] == "cut"   # every value in the JSON


def test_a_colour_the_question_names_and_the_witness_does_not_seat_is_said(
        tmp_path: Path) -> None:
    """A bake before yellow's second turn, asked at two players: a game that seats red
    and green has it (yellow takes no turn, so its first turn's span is the whole game),
    and the answer says yellow is not seated, so that no one reads it as a game with
    yellow at the table."""
    question = _question(tmp_path, {"within": {"turns": 1, "seat": "yellow"},
                                    "holds": {"event": "baked"}}, {})
    got = answer_cell(question, 2, {}, budget=30)
    assert got.answer == "found", got.tried
    assert "yellow" not in got.seated and got.not_seated == ("yellow",)
    assert "(yellow, named by the question, not seated: no turn)" in got.text()
    assert got.as_json()["not_seated"] == ["yellow"]
