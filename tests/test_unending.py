"""A ``most:`` with no most (:mod:`mammamia_ref.queries.answering.unending`): under the
letter of the rules a position comes back within a round (Q07), and a measure of turns
grows each time the actions between are played again, so the answer is "unbounded",
never the best value a search happened to reach; a measure the repetition does not
raise, or one with a proved bound, keeps its value."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
import yaml

from mammamia_ref.formats.safeyaml import Loaded
from mammamia_ref.queries.answering.ask import answer_cell, replay_witness
from mammamia_ref.queries.answering.unending import (
    AGAIN,
    grows,
    played_again,
)
from mammamia_ref.queries.language.judging import Played, actions, comes_back
from mammamia_ref.queries.language.measures import measure
from mammamia_ref.queries.language.questions import Question, check_question, load_question

pytestmark = pytest.mark.z3

LETTER = {"stall": "letter"}


def _question(measure_: object, variants: dict[str, list[str]] | None = None) -> Question:
    return check_question(Loaded({"question": "t-unending", "title": "a trial",
                                  "most": measure_, "players": [2],
                                  "variants": variants or {"stall": ["letter"]}},
                                 {}, "t-unending.yaml"))


def _q07_letter() -> Played:
    """Q07's committed two-player game of the letter: a position of the first round
    comes back."""
    path = Path(__file__).resolve().parent.parent / "scenarios" / "queries" / \
        "q07-round-forever-letter.yaml"
    return replay_witness(yaml.safe_load(path.read_text(encoding="utf-8")))


def test_the_actions_between_a_position_and_its_return_replay_again_and_again() -> None:
    game = _q07_letter()
    back = comes_back(game)
    assert back is not None
    first, again = back
    states = [s for _a, _e, s in game.steps]
    assert first < again and states[first] == states[again]
    loop = again - first
    for times in range(AGAIN + 1):
        longer = played_again(game, first, again, times)
        assert longer is not None and len(longer.steps) == len(game.steps) + times * loop
        # the position comes back after every repetition, the rest of the game as before
        assert longer.steps[again + times * loop][2] == states[again]
        assert longer.steps[-1][2] == game.steps[-1][2]


def test_a_repetition_the_reference_refuses_is_no_game() -> None:
    """played_again's games are the reference's, action by action: the game itself
    plays through; with its first action (a shuffle) twice, the second is refused, and
    that is no game (where the scenario's replay skips a refused step)."""
    from mammamia_ref.queries.answering.known_games import played_through, replayed

    game = _q07_letter()
    acts = actions(game.steps)
    whole = played_through(game.config, acts)
    assert whole is not None and whole.steps == game.steps
    twice = acts[:1] + acts
    assert played_through(game.config, twice) is None
    assert len(replayed(game.config, twice).steps) == len(acts)


def test_a_measure_of_turns_grows_without_end_and_one_of_cards_does_not() -> None:
    game = _q07_letter()
    for name in ("longest_round", "turns", {"most_in_a_round": {"event": "passed"}}):
        endless = grows(_question(name), game)
        assert endless is not None, name
        seen = endless.measured
        assert seen[0] == measure(name, game) and len(seen) == AGAIN + 1
        assert all(a < b for a, b in itertools.pairwise(seen)), (name, seen)
        assert "no most" in endless.said() and str(seen[-1]) in endless.said()
    # no card moves between the two (each move is for good within a round): a count of
    # cards or of bakes is the same however often the quiet turns are played again
    for name in ("baked", "largest_hand", "delivered"):
        assert grows(_question(name), game) is None, name


def test_a_game_without_a_return_shows_no_unending_measure() -> None:
    game = _q07_letter()
    back = comes_back(game)
    assert back is not None
    cut = Played(game.config, game.steps[:back[1]])   # up to just before the return
    assert comes_back(cut) is None and grows(_question("turns"), cut) is None
    assert len(actions(cut.steps)) == back[1]


def test_the_longest_round_under_the_letter_is_answered_unbounded_with_a_game() -> None:
    """From the known games, and from scratch by the game model: a witness the
    reference replays, in which the turns between the return are said."""
    question = _question("longest_round")
    for known in (True, False):
        got = answer_cell(question, 2, LETTER, 20, known=known)
        assert got.answer == "unbounded", (known, got.detail, got.tried)
        assert got.value is None and got.upper is None and not got.exact
        assert got.reference == "agrees" and got.scenario is not None
        assert "no most: the position after action" in got.detail
        assert "a position that comes back" in got.tried
        assert "unbounded" in got.text()
        games = replay_witness(got.scenario)
        assert grows(question, games) is not None


def test_under_the_stall_cut_no_position_comes_back_and_a_value_is_given() -> None:
    """Where a ranking function proves that no position comes back, the cell is not
    "unbounded" and says why (the orders baked in a round: the opening bakes them, no
    turn, so no bound is proved through the turns); the longest round, or the passes
    in a round, have their proved bound there anyway."""
    baked = answer_cell(_question({"most_in_a_round": {"event": "baked"}},
                                  {"stall": ["cut"]}), 2, {"stall": "cut"}, 3, known=False)
    assert baked.answer == "value" and baked.value is not None and baked.upper is None
    assert "not unbounded: no position comes back in any game (ranking)" in baked.tried
    passes = answer_cell(_question({"most_in_a_round": {"event": "passed"}},
                                   {"stall": ["cut"]}), 2, {"stall": "cut"}, 3, known=False)
    assert passes.upper_evidence == "ranking" and "unbounded" not in passes.tried
    longest = answer_cell(_question("longest_round", {"stall": ["cut"]}), 2,
                          {"stall": "cut"}, 3, known=False)
    assert longest.answer == "value" and longest.upper is not None
    assert "unbounded" not in longest.tried


PASSES = {"event": "passed", "at_least": 200}


def test_a_count_the_return_raises_is_met_by_playing_the_actions_between_again() -> None:
    """200 passes under the letter: the quiet turns between Q07's position and its
    return, played again as few more times as meet it (two passes each time)."""
    from mammamia_ref.queries.answering import unending
    from mammamia_ref.queries.language.judging import meets

    game = _q07_letter()
    met = unending.repeated_until(PASSES, {}, game)
    assert met is not None and meets(PASSES, met, {})
    times = int(met.found_by.split(" played ")[1].split()[0])
    first, again = comes_back(game) or (0, 0)
    short = played_again(game, first, again, times - 1)
    assert short is not None and not meets(PASSES, short, {})   # no fewer would do
    assert len(met.steps) == len(game.steps) + times * (again - first)
    # within one round it is met as well; within 30 turns, or past the return's round,
    # no repetition is judged
    assert unending.repeated_until(PASSES, {"rounds": 1}, game) is not None
    assert unending.repeated_until(PASSES, {"turns": 30}, game) is None


def test_a_count_the_return_does_not_raise_stops_at_once(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The quiet turns bake nothing: the first repetition comes no nearer to 30 bakes,
    and no more are played (not 20,000 actions' worth)."""
    from mammamia_ref.queries.answering import unending

    played: list[int] = []
    real = unending.played_again

    def counted(game: Played, first: int, again: int, times: int) -> Played | None:
        played.append(times)
        return real(game, first, again, times)

    monkeypatch.setattr(unending, "played_again", counted)
    assert unending.repeated_until({"event": "baked", "at_least": 30}, {}, _q07_letter()) \
        is None
    assert played == [1]


def test_a_find_the_search_misses_is_found_by_repeating_and_not_under_the_cut(
        tmp_path: Path) -> None:
    path = tmp_path / "passes.yaml"
    path.write_text("question: passes\nfind: {event: passed, at_least: 200}\nplayers: [2]\n"
                    "variants: {stall: [letter, cut]}\nbound: {games: 20}\n",
                    encoding="utf-8")   # a short search: it finds none
    question = load_question(path)
    got = answer_cell(question, 2, LETTER, 16)   # the proof takes about 4 s of it
    assert got.answer == "found" and got.reference == "agrees", got.tried
    assert "more times" in got.found_by and "a position that comes back" in got.tried
    cut = answer_cell(question, 2, {"stall": "cut"}, 5)
    assert cut.answer == "unknown"
    assert "not by repeating: no position comes back in any game (ranking)" in cut.tried
