"""The known games (:mod:`mammamia_ref.queries.answering.known_games`): the package's own games
from a new deal, judged by ``ask`` before it searches."""

from __future__ import annotations

import functools
import json
from pathlib import Path

import pytest

pytest.importorskip("z3")

from mammamia_ref.formats.safeyaml import load_file
from mammamia_ref.formats.scenario import packaged_suite
from mammamia_ref.queries.answering.ask import answer_cell, replay_witness
from mammamia_ref.queries.answering.known_games import _library, known_games
from mammamia_ref.queries.language.measures import measure
from mammamia_ref.queries.language.questions import load_question
from mammamia_ref.rules import specdata
from mammamia_ref.rules.game import new_game
from mammamia_ref.rules.ruleset import make_rules


@pytest.mark.corpus
def test_a_known_game_is_a_whole_game_from_a_new_deal_the_reference_plays() -> None:
    """Every known game starts at a new game of its configuration and each state is the
    reference's after that action; none comes from a scenario that starts at a
    position (a position is not a game)."""
    from mammamia_ref.rules.game import apply

    games = _library()
    assert len(games) > 100
    for game in games:
        state = new_game(game.config)
        for action, events, after in game.steps:
            state, again = apply(state, action)
            assert state == after and tuple(again) == events
    positions = [p.relative_to(packaged_suite()).as_posix()
                 for p in packaged_suite().rglob("*.yaml")
                 if "state" in (load_file(p).data.get("given") or {})]
    assert positions, "the suite has scenarios from a position: the filter is tested"
    named = " ".join(g.found_by for g in games)
    assert not [p for p in positions if p in named]


def test_loading_the_library_is_not_the_first_cells_judging(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The first cell asked in a process loads the library (every scenario replayed,
    seconds of CPU): that load is not counted against the cell's share for judging, or
    a question asked first at the default budget would judge no known game. The load is
    made to take a CPU second, more than the share given."""
    import time

    from mammamia_ref.queries.answering import known_games as known

    loaded = _library()

    @functools.cache
    def slow_library() -> tuple[object, ...]:
        start = time.process_time()
        while time.process_time() - start < 1.0:
            pass
        return loaded

    monkeypatch.setattr(known, "_library", slow_library)
    rules = make_rules()
    best, _score, judged = known.best_known(2, rules, lambda _g: 1.0, budget=0.5)
    assert best is not None and judged == len(list(known_games(2, rules))) > 0, judged


@pytest.mark.parametrize("flags", [{}, {"stall": "letter"}, {"round_end": "last_ingredient"}])
def test_a_cell_judges_only_the_games_of_its_players_and_rules(flags: dict[str, str]) -> None:
    """A game under other flag values or numbers is not a game of the cell."""
    rules = make_rules(flags)
    for n in (2, 3):
        games = list(known_games(n, rules))
        assert games or flags, "the spec's rules have known games at 2 and 3 players"
        for game in games:
            assert game.config.players == n and game.config.rules.flags == rules.flags
            assert game.config.rules.parameters == rules.parameters
    house = make_rules(flags, {"minimale_count": 1})
    assert not [g for g in known_games(2, house) if g.config.rules.parameters
                != house.parameters]


@pytest.mark.z3
def test_a_known_game_settles_an_optimum_and_names_its_file() -> None:
    """Q05 at 2 players: the catalogue's certificate game (8 orders at one opening, the
    card count's proved bound) is a known game, so the value is exact at once; the
    witness written from it replays with that measure. Without the known games the
    route is the search's and the game model's, and says so."""
    question = load_question(specdata.spec_path("questions") /
                             "Q05-most-pizzas-one-opening.yaml")
    got = answer_cell(question, 2, {}, budget=20)
    assert got.answer == "value" and got.value == 8 and got.exact, got.tried
    assert got.found_by.startswith("the known game scenarios/queries/q05-"), got.found_by
    assert got.reference == "agrees" and got.scenario is not None
    assert measure("baked_one_opening", replay_witness(got.scenario)) == 8
    alone = answer_cell(question, 2, {}, budget=2, known=False)
    # (as a word: "unknown" may stand in the game model's log, whose caps a slower
    # machine reaches sooner)
    assert "known game" not in alone.tried and not alone.found_by.startswith("the known game")


@pytest.mark.z3
def test_a_known_game_answers_a_find_question_it_meets() -> None:
    """Q04 at 3 players, a game only a plan builds (red delivers all eight orders): a
    known game meets the condition and is the witness."""
    question = load_question(specdata.spec_path("questions") /
                             "Q04-all-orders-delivered.yaml")
    got = answer_cell(question, 3, {}, budget=20)
    assert got.answer == "found" and got.condition_holds and got.reference == "agrees"
    assert got.found_by.startswith("the known game scenarios/queries/q04-"), got.found_by
    assert "known games" in got.tried


@pytest.mark.z3
def test_ask_without_known_games_leaves_them_out(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """``ask --without-known-games`` answers from the proofs, the search and the game
    model alone; without the flag the same cell is the known game's."""
    from mammamia_ref.cli.app import main

    text = (specdata.spec_path("questions") / "Q05-most-pizzas-one-opening.yaml").read_text()
    path = tmp_path / "q05-two.yaml"
    path.write_text(text.replace("players: [2, 3, 4, 5]", "players: [2]"))
    found_by = []
    for flag in (["--budget", "20"], ["--budget", "3", "--without-known-games"]):
        main(["ask", str(path), "--json", *flag])
        (answer,) = json.loads(capsys.readouterr().out)
        found_by.append(answer["found_by"] or "")
    assert found_by[0].startswith("the known game scenarios/queries/q05-"), found_by
    assert not found_by[1].startswith("the known game"), found_by


def test_a_game_that_stops_before_its_end_is_no_whole_game() -> None:
    """Most known games stop before the game's end (a rulebook example, an edge case):
    such a beginning meets no condition judged on whole games ("a game that never
    ends", true of every beginning) and gives no fewest of a number that only grows
    (the turns of a game: its beginning would be the shortest game), while a most, or
    the turns until something holds, may be read off it."""
    from mammamia_ref.queries.language.judging import meets
    from mammamia_ref.rules.state import Phase

    games = _library()
    beginnings = [g for g in games if g.steps[-1][2].phase != Phase.OVER]
    assert len(beginnings) > 50 and len(beginnings) < len(games)
    never_ends = {"not": {"event": "game_ended"}}
    for game in games:
        ended = game.steps[-1][2].phase == Phase.OVER
        assert not meets(never_ends, game, {})
        turns = sum(1 for _a, events, _s in game.steps for e in events
                    if e.name == "turn_begins")
        assert measure("turns", game, "most") == turns
        assert measure("turns", game, "fewest") == (turns if ended else None)
        until = {"turns_until": {"event": "played"}}
        assert measure(until, game, "fewest") == measure(until, game, "most")
