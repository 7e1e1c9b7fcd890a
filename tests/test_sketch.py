"""A question's sketch (:mod:`mammamia_ref.queries.language.sketch`): part of a game given
for the game model to fill in; a lead, never a bound."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("z3")

from mammamia_ref.queries.answering.answer import AskAnswer
from mammamia_ref.queries.language.questions import QuestionError, load_question
from mammamia_ref.queries.language.sketch import Sketch
from mammamia_ref.rules.ruleset import default_rules

pytestmark = pytest.mark.z3

RED_BAKES = """\
question: red-bakes
find: {event: baked, where: {seat: red}}
players: [2]
sketch:
  - players: 2
    rounds: [%s]
    starts: [red]
    places: {red: [[minimale]]}
    may_place: {yellow: []}
"""


def _question(tmp_path: Path, text: str) -> object:
    path = tmp_path / "q.yaml"
    path.write_text(text, encoding="utf-8")
    return load_question(path)


def test_places_are_the_colours_turns_counted_from_each_rounds_first() -> None:
    """Q21's sketch at 2 players: red starts every round, so its turns are the even
    ones; its orders go on its first turns of each round, none on its others, and
    yellow (which may place none) places none on any of its turns."""
    q = load_question(Path(__file__).parents[1] / "spec" / "questions"
                      / "Q21-fewest-turns-all-orders.yaml")
    (two,) = q.sketches[2]
    hints = two.model_hints()
    assert hints["schedule"] == (6, 6, 4) and hints["starts"] == (0, 0, 0)
    rounds = (("minimale", "pineapple4", "bombastica"),
              ("mushroom4", "pepper4", "one_of_each"), ("olive4", "monotoni"))
    expected: dict[tuple[int, int], str | None] = {}
    for r, (turns, orders) in enumerate(zip((6, 6, 4), rounds, strict=True), start=1):
        for j in range(turns):
            expected[r, j] = f"red.{orders[j // 2]}" if j % 2 == 0 and j // 2 < len(orders) \
                else None
    assert hints["plan"] == expected
    assert hints["orders"][1] == [] and len(hints["orders"][0]) == 8
    # a later start moves the turns: yellow starting round 2 takes its even turns
    later = Sketch(2, (4, 4), ("red", "yellow"), ("red", "yellow"),
                   {"red": (("minimale",), ("olive4", "none", "pepper4"))})
    assert later.turns_of("red", 2) == [1, 3]
    plan = later.model_hints()["plan"]
    assert plan[(1, 0)] == "red.minimale" and plan[(1, 2)] is None
    assert plan[(2, 1)] == "red.olive4" and plan[(2, 3)] is None


@pytest.mark.parametrize(("sketch", "line", "says"), [
    ("  - players: 6\n    rounds: [4]\n", 6, "6 is not a player count (2 to 5)"),
    ("  - players: 2\n    rounds: []\n", 7, "rounds: a list of the turns of each round"),
    ("  - players: 2\n    rounds: [60, 50]\n", 7, "more than the 100 a sketch may ask"),
    ("  - players: 2\n    rounds: [4]\n    turns: 3\n", 8, "unknown key 'turns'"),
    ("  - players: 2\n    rounds: [4]\n    places: {red: [[minimale]]}\n", 8,
     "places: needs starts:"),
    ("  - players: 2\n    rounds: [4]\n    starts: [red]\n    places: {red: [[minimale, "
     "olive4, pepper4]]}\n", 9, "3 orders for red in round 1, which gives it 2 turns"),
    ("  - players: 2\n    rounds: [4]\n    starts: [red]\n    places: {red: [[salami4]]}\n",
     9, "a list of red's order keys"),
    ("  - players: 2\n    rounds: [4]\n    starts: [green]\n", 8,
     "a list of colours, each one of red, yellow"),
    ("  - players: 2\n    rounds: [4]\n    may_place: {green: []}\n", 8, "'green' is not seated"),
    ("  - players: 2\n    rounds: [4]\n    starts: [red]\n    places: {red: [[minimale]]}\n"
     "    may_place: {red: []}\n", 10, "red's orders are already fixed by places:"),
    ("  - players: 2\n    rounds: [4]\n    variants: {round_end: sometimes}\n", 8,
     "round_end has no value 'sometimes'; its values: last_card, last_ingredient"),
    ("  - players: 2\n    rounds: [4]\n    variants: {hurry: up}\n", 8, "unknown flag 'hurry'"),
    ("  - players: 2\n    rounds: [4]\n    variants: {round_end: []}\n", 8,
     "round_end needs a value"),
    ("  - rounds: [4]\n", 6, "players: missing"),
    ("  - players: 2\n    rounds: [4]\n    aim: 3\n", 8, "aim: is a most:'s or fewest:'s"),
    ("  - players: 2\n    rounds: [6]\n    starts: [red]\n    places: {red: [[olive4, "
     "olive4]]}\n", 9, "red.olive4 twice in round 1"),
    ("  - players: 2\n    rounds: [6]\n    then: slow:blue\n", 8,
     "then: policy 'slow:blue': a slow table is slow:COLOUR"),
    ("  - players: 2\n    rounds: [6]\n    then: hasty\n", 8, "then: unknown policy 'hasty'"),
    ("  - players: 2\n    rounds: [6]\n    holds: {event: bakedd}\n", 8, "unknown event"),
])
def test_a_bad_sketch_is_refused_with_its_line(tmp_path: Path, sketch: str, line: int,
                                                says: str) -> None:
    with pytest.raises(QuestionError) as refused:
        _question(tmp_path, "question: q\nfind: {event: baked}\nplayers: [2]\n"
                  "# a sketch\nsketch:\n" + sketch)
    assert says in refused.value.message and refused.value.line == line, \
        (refused.value.message, refused.value.line)


def test_a_sketch_with_variants_is_one_of_those_cells_only(tmp_path: Path) -> None:
    """Two sketches of five players, one for each round end: a cell gets only its own,
    and a sketch without variants: is one of every cell."""
    from mammamia_ref.queries.language.sketch import sketches_for
    from mammamia_ref.rules.ruleset import make_rules

    q = _question(tmp_path, "question: q\nmost: bombastica_cards\nplayers: [2, 5]\nsketch:\n"
                  "  - {players: 5, rounds: [16], variants: {round_end: last_card}}\n"
                  "  - {players: 5, rounds: [21], variants: {round_end: [last_ingredient]}}\n"
                  "  - {players: 2, rounds: [13]}\n")
    assert [s.rounds for s in sketches_for(q.sketches, 5, default_rules())] == [(16,)]
    last = make_rules({"round_end": "last_ingredient", "stall": "letter"})
    assert [s.rounds for s in sketches_for(q.sketches, 5, last)] == [(21,)]
    assert [s.rounds for s in sketches_for(q.sketches, 2, last)] == [(13,)]   # every cell
    assert "round_end=last_ingredient" in sketches_for(q.sketches, 5, last)[0].text()


def test_a_sketch_leads_the_game_model_to_a_game_the_reference_replays(
        tmp_path: Path) -> None:
    """Red places its Minimale on its first turn of a first round of 6 turns: z3 fills
    in the deal and the plays, and the game, replayed and judged by the question, is
    the answer, found on the sketch."""
    from mammamia_ref.queries.answering.ask import answer_cell

    got = answer_cell(_question(tmp_path, RED_BAKES % 6), 2, {}, 30, known=False)
    assert got.answer == "found" and got.reference == "agrees", got.tried
    assert "sketch" in got.found_by and "starting: red" in got.found_by
    from mammamia_ref.tools.side_by_side import source

    assert source(got) == "game model"   # the side by side says where it came from
    assert "the question's sketches: rounds of 6 turns" in got.tried


def test_no_game_of_the_sketch_says_nothing_of_the_question(tmp_path: Path) -> None:
    """A first round of 4 turns has no such game: the sketch says so, and the answer
    comes from the other routes (a red order bakes in many games), never "none"."""
    from mammamia_ref.queries.answering.ask import answer_cell
    from mammamia_ref.queries.answering.sketched import on_sketch

    question = _question(tmp_path, RED_BAKES % 4)
    (sketch,) = question.sketches[2]
    alone = on_sketch(question.condition, sketch, default_rules(), 30)
    assert alone.verdict == "none" and alone.detail.startswith("no game of the sketch")
    got = answer_cell(question, 2, {}, 30, known=False)
    assert got.answer == "found" and "sketch" not in got.found_by
    assert "rounds of 4 turns; red, yellow clockwise; starting: red; red places minimale; " \
        "yellow may place none: no game of the sketch" in got.tried


def test_a_sketch_past_the_questions_bound_is_not_asked(tmp_path: Path) -> None:
    """A find: judged within its first 4 turns, and a sketch of a first round of 6: the
    sketch's game would be judged past the bound, so the sketch is not asked (it was
    asked, and its game, judged without the bound, stopped the cell with an internal
    error); the other routes answer (z3 finds a game of 4 turns)."""
    from mammamia_ref.queries.answering.ask import answer_cell

    question = _question(tmp_path, (RED_BAKES % 6).replace("players: [2]\n",
                                                           "players: [2]\nbound: {turns: 4}\n"))
    got = answer_cell(question, 2, {}, 4, known=False)
    assert "the sketch goes past the question's bound (turns 4)" in got.tried, got.tried
    assert got.answer in ("found", "none within the bound", "unknown"), got.answer
    assert "sketch" not in got.found_by   # found by z3 within the bound, at 4 turns
    assert got.answer != "found" or got.reference == "agrees"


def test_a_sketch_of_a_measure_the_model_cannot_aim_at_says_so(tmp_path: Path) -> None:
    """The longest round has no "at least k" the game model is asked for: its sketch is
    not asked, and the answer says why (not "no proved bound")."""
    from mammamia_ref.queries.answering.sketched import aimed

    question = _question(tmp_path, "question: q\nmost: longest_round\nsketch:\n"
                         "  - {players: 2, rounds: [6], aim: 20}\n")
    game, said = aimed(question, 2, default_rules(), 198, 5)
    assert game is None and "the measure has no at least k" in said, said


def test_an_optimums_sketch_aims_at_the_value_and_its_game_is_the_value(
        tmp_path: Path) -> None:
    """For a most:, the sketch is asked for a game whose measure reaches the aim: its
    game, replayed, sets the answer's value by the reference's measure."""
    from mammamia_ref.queries.answering.ask import _on_sketches

    question = _question(tmp_path, (RED_BAKES % 6).replace(
        "find: {event: baked, where: {seat: red}}", "most: baked_one_opening"))
    out = AskAnswer(question.id, 2, {})
    said = _on_sketches(question, 2, default_rules(), 1, 30, out)
    assert out.value is not None and out.value >= 1 and out.reference == "agrees", said
    assert "sketch" in out.found_by
    better = AskAnswer(question.id, 2, {}, value=99, found_by="an earlier route")
    _on_sketches(question, 2, default_rules(), 1, 30, better)   # a worse game never stands
    assert (better.value, better.found_by) == (99, "an earlier route")
    none = AskAnswer(question.id, 2, {})
    said = _on_sketches(question, 2, default_rules(), None, 30, none)
    assert "not asked (no proved bound, and no aim:)" in said
    assert none.value is None
