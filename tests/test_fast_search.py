"""``mammamia ask``'s search on the fast engine: which questions it takes there, the game
it keeps (the reference's replay, judged again), and its refusal of a fast game the
reference judges otherwise. The events themselves are held to the reference's by
``tests/test_fast_events.py``."""

from __future__ import annotations

from typing import Any

import pytest

from mammamia_ref.errors import InternalError
from mammamia_ref.queries.answering import searching
from mammamia_ref.queries.language.judging import Played, meets
from mammamia_ref.queries.language.measures import measure
from mammamia_ref.queries.language.questions import Question
from mammamia_ref.rules.ruleset import make_rules
from mammamia_ref.rules.state import make_config


def question(goal: str, condition: dict[str, Any] | None = None, measured: str | None = None,
             bound: dict[str, int] | None = None) -> Question:
    return Question(id="test", file="", title="test", goal=goal, condition=condition,
                    measure=measured, players=(2,), variants={}, house=None,
                    bound=bound or {})


def find_judge(asked: Question) -> Any:
    condition = asked.condition or {}
    return lambda game: float("inf") if meets(condition, game, asked.bound) else None


def test_only_a_judgement_on_events_goes_to_the_fast_engine() -> None:
    on_events = searching.judged_on_events
    assert on_events(question("find", {"event": "baked", "rule": "oven.bombastica"}))
    assert on_events(question("find", {"all": [{"not": {"event": "baked"}},
                                               {"any": [{"event": "game_ended"}]}]}))
    assert not on_events(question("find", {"state": {"count": "hand", "at_least": 8}}))
    assert not on_events(question("find", {"all": [{"event": "baked"},
                                                   {"not": {"state": {"count": "round",
                                                                      "equals": 1}}}]}))
    assert on_events(question("most", measured="baked_one_opening"))
    for name in ("longest_round", "largest_hand", "delivered"):   # read states
        assert not on_events(question("most", measured=name))


def test_the_fast_engine_tells_only_the_events_a_judgement_reads() -> None:
    named = searching.judged_events
    assert named(question("find", {"all": [{"not": {"event": "baked"}},
                                           {"any": [{"event": "game_ended"},
                                                    {"event": "passed"}]}]})) \
        == {"baked", "game_ended", "passed", "turn_begins"}
    assert named(question("most", measured="baked_one_opening")) \
        == {"baked", "oven_opened", "turn_begins", "game_ended"}   # a whole game's mark
    assert set(searching.MEASURE_EVENTS) == searching.EVENT_MEASURES


def test_a_find_on_the_fast_engine_keeps_the_references_game() -> None:
    """The first seeded game that meets the condition, as the reference plays it: the
    same seed and policy as the fast engine's, judged again."""
    asked = question("find", {"event": "failed", "at_least": 3}, bound={"rounds": 1})
    judge = find_judge(asked)
    game, judged, _score, screened = searching.search(asked, 2, make_rules(), 20.0, judge)
    assert game is not None and judge(game) is not None
    assert "on the fast engine" in game.found_by and "replayed by the reference" in game.found_by
    assert screened >= 1 and judged == screened + 1   # every game judged, the replay included
    replayed = searching.playout(make_config(2), game.seed, game.policy)
    assert replayed.steps == game.steps


def test_a_whole_game_condition_is_found_on_the_fast_engine() -> None:
    """A condition judged on whole games (a tie the tie-break leaves: a game's result)
    is met by a game the fast engine told, which carries ``game_ended`` so that it
    counts as a whole game (:func:`..language.judging.ended`); the reference's replay
    is kept."""
    asked = question("find", {"any": [{"result": {"decided_by": "game_end.shared_win"}},
                                      {"result": {"decided_by": "game_end.seat_order_win"}}]})
    judge = find_judge(asked)
    game, _judged, _score, screened = searching.search(asked, 2, make_rules(), 30.0, judge)
    assert game is not None and judge(game) is not None and screened >= 1
    assert "on the fast engine" in game.found_by


def test_a_measure_on_the_fast_engine_is_the_references(monkeypatch: pytest.MonkeyPatch
                                                        ) -> None:
    asked = question("most", measured="baked_one_opening")

    def judge(game: Played) -> float | None:
        got = measure("baked_one_opening", game)
        return None if got is None else float(got)

    game, played, score, screened = searching.search(asked, 2, make_rules(), 1.0, judge,
                                                     directed=True)
    assert game is not None and measure("baked_one_opening", game) == score
    assert screened > played   # most games were judged on the fast engine only


def test_a_fast_game_the_reference_judges_otherwise_is_an_error(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The fast engine's judgement is never reported: the reference replays the
    candidate, and a different verdict stops the search (here the fast engine's events
    are made to tell a stall the reference's game does not have)."""
    from mammamia_ref.rules.events import event
    from mammamia_ref.sim import fast_events

    original = fast_events.games_with_events
    stall = event("round_ended", "round_end.stall", round=1)

    def told(*args: Any, **kwargs: Any) -> Any:
        return ((seed, (*events, stall)) for seed, events in original(*args, **kwargs))

    monkeypatch.setattr(fast_events, "games_with_events", told)
    asked = question("find", {"event": "round_ended", "rule": "round_end.stall"})
    with pytest.raises(InternalError, match="the fast engine's game"):
        searching.search(asked, 2, make_rules(), 20.0, find_judge(asked))


def test_the_reference_route_is_kept_for_what_the_fast_engine_does_not_judge() -> None:
    """A state condition is searched on the reference, as before."""
    asked = question("find", {"state": {"count": "round", "at": "game_end", "equals": 3}})
    game, played, _score, screened = searching.search(asked, 2, make_rules(), 5.0,
                                                      find_judge(asked))
    assert game is not None and screened == 0 and played == 1 and game.found_by == ""


def test_the_bench_measures_both_routes() -> None:
    from mammamia_ref.tools.bench.asksearch import FIND, search_rate

    before, after = search_rate(FIND, False, 0.3), search_rate(FIND, True, 0.3)
    assert before["on_fast_engine"] == 0 and before["games"] > 0
    assert after["on_fast_engine"] == after["games"] > before["games"]
