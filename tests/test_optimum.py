"""Optima by the solver (``mammamia_ref/queries/answering/optimum.py``): "a game whose measure is
at least k" is a condition the language states, held to the measure on played games;
the game model raises a value the search left, and a bound no game of any length passes
is proved."""

from __future__ import annotations

import functools
from typing import Any

import pytest

pytest.importorskip("z3")

from mammamia_ref.queries.answering.ask import upper_bound
from mammamia_ref.queries.answering.measure_bounds import Proved
from mammamia_ref.queries.answering.optimum import (
    MEASURE_AT_MOST,
    MEASURE_CONDITIONS,
    Raised,
    aim,
    aim_lengths,
    at_least,
    at_most,
    lower_value,
    raise_value,
)
from mammamia_ref.queries.answering.searching import playout
from mammamia_ref.queries.language.judging import meets
from mammamia_ref.queries.language.measures import measure
from mammamia_ref.queries.language.questions import Question
from mammamia_ref.rules.ruleset import make_rules
from mammamia_ref.rules.state import make_config
from mammamia_ref.rules.vocabulary import COLOURS

pytestmark = pytest.mark.z3

FORMS: list[Any] = [
    *MEASURE_CONDITIONS,
    {"most_in_a_round": {"event": "baked"}},
    {"some_seat": "s", "most_in_a_round": {"event": "baked", "where": {"seat": "s"}}},
    {"some_seat": "s", "most_in_a_round": {"event": "placed_order", "where": {"seat": "s"}}},
]


@functools.cache
def _random_games() -> tuple[Any, ...]:
    """60 random reference games: 2 to 5 players, every seating drawn, three policies."""
    games = []
    for seed in range(60):
        players = 2 + seed % 4
        colours = tuple(COLOURS[(seed + i) % len(COLOURS)] for i in range(players))
        config = make_config(players, colours=colours, first_player=seed % players)
        games.append(playout(config, seed, ("random", "simple", "careful")[seed % 3]))
    return tuple(games)


def test_every_measure_the_language_states_is_met_exactly_at_its_value() -> None:
    """For 60 random reference games (2 to 5 players, every seating drawn, three
    policies) and each measure with a condition: the game meets "at least k" for k up
    to its measure and not beyond."""
    checked = 0
    for seed, game in enumerate(_random_games()):
        for form in FORMS:
            value = measure(form, game, "most")
            if value is None:   # no Pizza Bombastica baked: no number is reached
                assert form == "bombastica_cards"
                assert not meets(at_least(form, 1) or {}, game, {}), (seed, form)
                continue
            for k in (value - 1, value, value + 1):
                if k < 1:
                    continue
                cond = at_least(form, k)
                assert cond is not None
                assert meets(cond, game, {}) == (k <= value), (form, seed, k, value)
                checked += 1
    assert checked > 600


FEWEST: list[Any] = [
    *MEASURE_AT_MOST,
    {"turns_until": {"event": "baked"}},
    {"turns_until": {"state": {"count": "delivered", "at_least": 2}}},
    {"some_seat": "s", "own_turns_until": {"event": "placed_order", "where": {"seat": "s"},
                                            "at_least": 2}},
    {"some_seat": "s", "own_turns_until": {"event": "baked", "where": {"seat": "s"}}},
]


def test_every_fewest_measure_the_language_states_is_met_exactly_up_to_its_value() -> None:
    """For 60 random reference games (2 to 5 players, every seating drawn, three
    policies) and each measure with an "at most k" condition (a seat's own first turns
    among them, ``within: {turns: k, seat: s}``): the game meets it for k from its
    measure on and not below."""
    checked = 0
    for seed, game in enumerate(_random_games()):
        for form in FEWEST:
            value = measure(form, game, "fewest")
            if value is None:   # never met (no Bombastica baked, say): no k is met
                assert not meets(at_most(form, 40) or {}, game, {}), (seed, form)
                continue
            for k in (value - 1, value, value + 1):
                cond = at_most(form, k)
                if cond is None:   # a part of no turn at all
                    assert k < 1, (form, k)
                    continue
                assert meets(cond, game, {}) == (k >= value), (form, seed, k, value)
                checked += 1
    assert checked > 600


def test_the_game_model_lowers_a_fewest_value_and_proves_it_the_least() -> None:
    """From a value of 7 found, the game model finds a game in which an order bakes
    after 4 turns of 2 players, the reference replaying it, and proves that the first 3
    turns of no game do (every schedule of them unsatisfiable): 4, the least."""
    form = {"turns_until": {"event": "baked"}}
    question = Question("t", "t.yaml", "t", "fewest", None, form, (2,), {}, None, {})
    lowered = lower_value(question, 2, make_rules({}), 7, budget=120)
    assert lowered.game is not None and lowered.value == 4, lowered.tried
    assert measure(form, lowered.game, "fewest") == 4
    assert (lowered.lower, lowered.lower_evidence) == (4, "exhaustive"), lowered.tried
    # a condition that is not kept once met has no "at most k" (it might hold on a
    # shorter part only)
    assert at_most({"turns_until": {"not": {"event": "baked"}}}, 3) is None


def test_a_fewest_of_the_first_turns_is_settled_by_the_game_model_before_any_search(
        tmp_path: Any) -> None:
    """In how few turns can an order bake (2 players, the known games left out)? The game
    model, asked for 1, 2, 3 turns, proves each impossible in every game's first turns,
    then finds 4: exact, lower bound ``exhaustive``, no search played, a game the
    reference replays."""
    from mammamia_ref.queries.answering.ask import answer_cell
    from mammamia_ref.queries.language.questions import load_question

    path = tmp_path / "q.yaml"
    path.write_text("question: q\nfewest: {turns_until: {event: baked}}\n", encoding="utf-8")
    got = answer_cell(load_question(path), 2, {}, budget=60, known=False)
    assert (got.value, got.lower, got.lower_evidence, got.exact) == (4, 4, "exhaustive", True)
    assert got.reference == "agrees", got.tried
    assert got.tried.startswith("the game model, from the least up: 1: none"), got.tried
    assert "games on the reference" not in got.tried


def test_a_measure_the_language_does_not_count_has_no_condition() -> None:
    for name in ("turns", "longest_round", "delivered"):
        assert at_least(name, 3) is None
    assert at_least({"turns_until": {"event": "baked"}}, 3) is None


def _question(name: Any) -> Question:
    return Question("t", "t.yaml", "t", "most", None, name, (2,), {}, None, {})


def test_the_game_model_raises_a_value_and_proves_where_no_game_goes() -> None:
    """From nothing found, the game model finds hands of growing size, up to the hand
    limit; a hand of eight is proved impossible in every game (the induction)."""
    raised = raise_value(_question("largest_hand"), 2, make_rules({}), 5, budget=120)
    assert raised.game is not None and raised.value == 7, raised.tried
    assert measure("largest_hand", raised.game, "most") == 7
    assert (raised.upper, raised.upper_evidence) == (7, "induction"), raised.tried


def test_the_game_model_aims_at_a_bound_and_stops_there() -> None:
    """Given a proved bound of 2, the game model asks for it outright on one round at a
    time, finds a game the reference replays with 2 orders baked at one opening, and
    asks for nothing beyond it."""
    raised = raise_value(_question("baked_one_opening"), 2, make_rules({}), 0, budget=120,
                         upper=2)
    assert raised.game is not None and raised.value == 2, raised.tried
    assert measure("baked_one_opening", raised.game, "most") == 2
    assert len(raised.tried) == 1, raised.tried   # the aim's game, then nothing asked
    assert raised.tried[0].startswith("the game model, asked for the bound 2 on one round")
    tried = raised.tried[0].split("(", 1)[1].split("; ")
    assert tried[-1].split(":")[1].startswith(" found"), tried
    lengths = [int(t.split()[0]) for t in tried]
    assert lengths == aim_lengths(2, make_rules({}))[:len(lengths)], tried   # shortest first


def test_the_aims_lengths_run_no_check_past_a_deadline(monkeypatch: pytest.MonkeyPatch
                                                        ) -> None:
    """Whether a first round of each length can end is a z3 check a length (18 s of CPU
    for the fifteen at 3 players, the first time in a process: a default budget's cell
    took 22 s for a budget of 10). With a deadline already spent, every check is capped
    at once, and a length a capped check leaves unsettled (here every one: a capped
    check answers "unknown" without solving, so no machine is fast enough to settle it)
    is kept, never dropped, and not remembered."""
    import time

    import z3

    from mammamia_ref.queries.model import num, proofs

    rules = make_rules({})
    settled = aim_lengths(2, rules)
    monkeypatch.setattr(proofs, "_ROUND_ENDS", {})
    caps: list[float | None] = []
    check = num.check

    def capped(constraints: Any, timeout: float | None = None) -> Any:
        caps.append(timeout)
        return (z3.unknown, None) if timeout is not None else check(constraints)

    monkeypatch.setattr(num, "check", capped)
    hurried = aim_lengths(2, rules, deadline=time.process_time())
    assert caps and all(t is not None and t <= 0.011 for t in caps), caps
    assert set(settled) < set(hurried), (settled, hurried)
    assert proofs._ROUND_ENDS == {}


def test_the_aim_takes_a_measure_that_binds_a_seat() -> None:
    """Q23's measure (the most orders one seat bakes in a round) binds a seat variable:
    the aim judges the shape of its condition written out for the seating (it read the
    raw condition and stopped `ask` with a KeyError), and at 2 players finds a seat
    that bakes 2 orders in one round, the bound it is given."""
    form = {"some_seat": "s", "most_in_a_round": {"event": "baked", "where": {"seat": "s"}}}
    out = Raised(0)
    aim(_question(form), 2, make_rules({}), 2, 120.0, out)
    assert out.game is not None and out.value == 2, out.tried
    assert measure(form, out.game, "most") == 2


def test_the_aim_asks_no_round_too_short_for_one_seats_orders() -> None:
    """Seven orders of one seat at one opening need seven of its turns in that round
    (one order placed a turn), so at 3 players the aim starts at a first round of 19
    turns, where the catalogue's game is (z3 finds it there in about 135 s), and goes
    five turns a player beyond; a measure of all seats' orders needs no such length."""
    from mammamia_ref.queries.answering.optimum import seat_turns

    rules = make_rules({})
    seat = {"some_seat": "s", "most_in_a_round": {"event": "baked", "where": {"seat": "s"}}}
    assert seat_turns(seat, 7) == 7
    assert aim_lengths(3, rules, seat_turns(seat, 7)) == list(range(19, 34))
    assert seat_turns("baked_one_opening", 7) == 0
    assert seat_turns({"most_in_a_round": {"event": "baked"}}, 7) == 0
    assert seat_turns({"some_seat": "s", "most_in_a_round": {
        "event": "baked", "where": {"seat": "s"}, "rule": "oven.bombastica"}}, 7) == 0


def test_no_aim_at_a_measure_the_language_cannot_state_as_at_least_k() -> None:
    """A proved bound of a measure the language cannot state as "at least k" is never
    aimed at (nothing is asked, nothing found)."""
    out = Raised(0)
    aim(_question("longest_round"), 2, make_rules({}), 30, 30.0, out)
    assert out.tried == [] and out.game is None


@pytest.mark.parametrize(("players", "cards"), [(2, 40), (5, 65)])
def test_a_bombastica_takes_every_card_in_play_only_where_none_is_kept(
        players: int, cards: int) -> None:
    """The cards in play bound a Bombastica (counting); under
    ``round_end=last_ingredient`` a card always stays off the table at an opening, so
    one fewer is proved (induction), the catalogue's Q22 bound."""
    counted = upper_bound("bombastica_cards", players, make_rules({}))
    kept = upper_bound("bombastica_cards", players, make_rules({"round_end": "last_ingredient"}))
    assert counted is not None and (counted.value, counted.evidence) == (cards, "counting")
    assert kept is not None and (kept.value, kept.evidence) == (cards - 1, "induction")


def test_a_witness_past_its_proved_bound_is_no_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    """Were a proof wrong (a bound of 1 orders at one opening, where the known game bakes
    8), the answer would not be a value, let alone exact: it says the proof or the
    judging is wrong."""
    from mammamia_ref.queries.answering import ask
    from mammamia_ref.queries.language.questions import load_question
    from mammamia_ref.rules import specdata

    monkeypatch.setattr(ask, "upper_bound", lambda *_a: Proved(1, "statement", "wrong"))
    question = load_question(specdata.spec_path("questions") /
                             "Q05-most-pizzas-one-opening.yaml")
    got = ask.answer_cell(question, 2, {}, budget=20)
    assert got.value == 8 and got.upper == 1, got.tried
    assert got.answer == "unknown" and not got.exact
    assert "past the proved bound 1 (statement)" in got.detail


def test_the_turns_until_a_count_is_reached_are_bounded_by_a_potential() -> None:
    """A seat's delivered orders plus its orders in the oven grow only in its own turns,
    by one at most (z3, from any well-formed state, inside steps too): so delivering all
    eight orders takes at least eight of one's own turns (Q21), two take two, and two
    delivered by anyone take two turns of the game, which no random reference game
    beats. A count that an opening raises (the used pile), one a turn raises by more
    than three (the oven), anyone's count in one seat's own turns, or a hand that
    shrinks has no such potential, and no bound is claimed."""
    from mammamia_ref.queries.answering.leads import turns_needed

    rules = make_rules({})
    all_eight = {"some_seat": "s", "own_turns_until": {
        "state": {"count": "delivered", "seat": "s", "at_least": 8}}}
    eight = turns_needed(all_eight, 2, rules)
    assert eight is not None and (eight.value, eight.evidence) == (8, "induction")
    # the answer names the potential the proof found
    assert "red's delivered plus red's orders in the oven" in eight.how, eight.how
    two = {"some_seat": "s", "own_turns_until": {
        "state": {"count": "delivered", "seat": "s", "at_least": 2}}}
    anyone = {"turns_until": {"state": {"count": "delivered", "at_least": 2}}}
    needed = {(n, str(form)): getattr(turns_needed(form, n, rules), "value", None)
              for n in (2, 3) for form in (two, anyone)}
    assert set(needed.values()) == {2}, needed
    checked = 0
    for game in _random_games():
        for form in (two, anyone):
            value = measure(form, game, "fewest")
            if value is not None and (game.config.players, str(form)) in needed:
                assert value >= needed[game.config.players, str(form)], (form, value)
                checked += 1
    assert checked >= 20
    for unbounded in ({"turns_until": {"state": {"count": "used", "at_least": 5}}},
                      {"turns_until": {"state": {"count": "oven", "at_least": 10}}},
                      # anyone's two, counted in one seat's own turns: another seat's
                      # turns may bring them
                      {"some_seat": "s", "own_turns_until": {
                          "state": {"count": "delivered", "at_least": 2}}},
                      {"some_seat": "s", "own_turns_until": {
                          "state": {"count": "hand", "seat": "s", "at_least": 9}}}):
        assert turns_needed(unbounded, 2, rules) is None, unbounded


BOUNDED_FORMS = ({"most_in_a_round": {"event": "passed"}},
         {"most_in_a_round": {"event": "drew"}},
         {"some_seat": "s", "most_in_a_round": {"event": "played", "where": {"seat": "s"}}},
         {"some_seat": "s", "own_turns": True},
         {"some_seat": "s", "own_turns_until": {"event": "baked", "where": {"seat": "s"}}},
         {"turns_until": {"event": "baked"}})


@pytest.mark.parametrize("players", [2, 3])
def test_every_measure_form_has_a_proved_bound_under_the_cut_that_games_keep(
        players: int) -> None:
    """Under the stall cut each form is bounded through the round's ranking bound (a
    count of what only turns emit, a seat's own turns, the turns until a condition): no
    random or careful game passes it, nor the catalogue's longest round (Q24's game, a
    round of 159 turns at 2 players, 119 of them passes). Under the letter a round has
    no most (none is claimed); a count an opening emits has no bound through the turns."""
    from pathlib import Path

    import yaml

    from mammamia_ref.queries.answering.ask import replay_witness

    rules = make_rules({})
    games = [playout(make_config(players), seed, policy)
             for seed in range(6) for policy in ("random", "careful")]
    if players == 2:
        path = Path(__file__).resolve().parent.parent / "scenarios" / "queries" / \
            "q24-longest-round-cut-2p.yaml"
        games.append(replay_witness(yaml.safe_load(path.read_text(encoding="utf-8"))))
    for form in BOUNDED_FORMS:
        proved = upper_bound(form, players, rules)
        assert proved is not None and proved.evidence == "ranking", form
        assert "round_end.stall" in proved.how
        most = max(measure(form, g, "most") or 0 for g in games)
        assert 0 < most <= proved.value, (form, most, proved)
        assert upper_bound(form, players, make_rules({"stall": "letter"})) is None
    if players == 2:   # the long round's passes come within 79 of the bound
        passes = upper_bound(BOUNDED_FORMS[0], 2, rules)
        assert passes is not None and measure(BOUNDED_FORMS[0], games[-1]) == 119 <= passes.value
    assert upper_bound({"most_in_a_round": {"event": "baked"}}, players, rules) is None


@pytest.mark.parametrize("players", [2, 3])
def test_the_orders_placed_in_a_round_are_at_most_the_orders(players: int) -> None:
    """``most_in_a_round: placed_order``: z3 shows that each placing puts an order into
    the oven and no turn takes one out, so a round places each order once at most: 8 a
    seat, under the letter too (no ranking bound needed) and where a pass may place an
    order; random games keep it. An event that puts no order into the oven (``played``)
    gets no such bound (under the letter, none at all)."""
    games = [playout(make_config(players), seed, "random") for seed in range(6)]
    for form, orders in (({"most_in_a_round": {"event": "placed_order"}}, 8 * players),
                         ({"some_seat": "s", "most_in_a_round": {
                             "event": "placed_order", "where": {"seat": "s"}}}, 8)):
        for flags in ({}, {"stall": "letter"}, {"pass_order": "allowed"}):
            proved = upper_bound(form, players, make_rules(flags))
            assert proved is not None, (form, flags)
            assert (proved.value, proved.evidence) == (orders, "counting"), proved
        most = max(measure(form, g, "most") or 0 for g in games)
        assert 0 < most <= orders, (form, most)
    played = {"most_in_a_round": {"event": "played"}}
    assert upper_bound(played, players, make_rules({"stall": "letter"})) is None


def test_the_game_model_aims_at_no_ranking_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    """A ranking bound counts every turn a round could last (198 passes in a round at 2
    players): no first round the aim asks about holds it, so the budget goes to raising
    the value one at a time; a card count's bound (Q05's) is aimed at."""
    from mammamia_ref.queries.answering import ask, optimum

    aimed: list[int] = []

    def recorded(_q: Any, _p: int, _r: Any, upper: int, _b: float, _o: Any) -> None:
        aimed.append(upper)

    monkeypatch.setattr(optimum, "aim", recorded)
    passes = ask.answer_cell(_question({"most_in_a_round": {"event": "passed"}}), 2, {}, 2,
                             known=False)
    assert passes.upper_evidence == "ranking" and not aimed
    most = ask.answer_cell(_question("baked_one_opening"), 2, {}, 2, known=False)
    assert most.upper_evidence == "statement" and aimed == [most.upper]


def test_the_fewest_turns_of_a_whole_game_is_settled_from_the_least_up() -> None:
    """``fewest: turns`` is "at most k" as the game's end within its first k turns, so
    the game model climbs from 1: at 2 players no game's first 5 turns end it (every
    run of each length unsatisfiable, or no first round that short can end) and a game
    of 4, 1 and 1 turns does: 6, exact, a game the reference replays."""
    from mammamia_ref.queries.answering.ask import answer_cell

    question = Question("t", "t.yaml", "t", "fewest", None, "turns", (2,), {}, None, {})
    got = answer_cell(question, 2, {}, budget=60, known=False)
    assert (got.value, got.exact, got.lower, got.lower_evidence) == (6, True, 6, "exhaustive"), \
        got.tried
    assert got.reference == "agrees" and got.scenario is not None
    assert "5: none in the first 5 turns of any game" in got.tried


def test_what_the_climb_spends_is_taken_from_the_cell(monkeypatch: pytest.MonkeyPatch) -> None:
    """A climb that does not settle the cell spends its share of the budget; the search
    and the game model after it have what is left, not the whole again (a 60 s cell
    had taken 87 s of CPU). A clock the fake climb moves stands for the CPU."""
    from mammamia_ref.queries.answering import ask

    clock = [0.0]
    monkeypatch.setattr(ask.time, "process_time", lambda: clock[0])

    def climbed(_q: Any, _p: int, _r: Any, budget: float, _out: Any) -> tuple[bool, str]:
        clock[0] += budget
        return False, "the climb; then "

    given: list[float] = []

    def searched(_q: Any, _p: int, _r: Any, budget: float, _judge: Any,
                 **_kw: Any) -> tuple[None, int, float, int]:
        given.append(budget)
        clock[0] += max(budget, 0.0)
        return None, 0, float("-inf"), 0

    model: list[float] = []
    monkeypatch.setattr(ask, "_climbed", climbed)
    monkeypatch.setattr(ask, "search", searched)
    monkeypatch.setattr(ask, "_by_the_model",
                        lambda _q, _p, _r, budget, _out: model.append(budget))
    question = Question("t", "t.yaml", "t", "fewest", None, "turns", (2,), {}, None, {})
    out = ask.AskAnswer("t", 2, {})
    ask._optimum(question, 2, make_rules({}), 40.0, 40.0, None, lambda _g: None, out,
                 known=False)
    assert given and model
    assert given[0] + model[0] + 40.0 * ask.CLIMB_SHARE <= 40.0 + 1e-9, (given, model)
    assert out.tried.startswith("the climb; then ")


def test_a_seats_own_first_turns_lead_the_game_model_to_short_first_rounds(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """"At most k of s's own turns" is asked of the game model with the game's turns in
    which they lie when no round ends between them ((k + 1) * players - 1), so that it
    tries the short first rounds it otherwise puts off (a seat's order baked after its
    first own turn at 4 and 5 players lies in a first round of 6 and 5 turns); its
    "none" there is no proof: the game model goes on with no bound of turns, and no
    bound is claimed."""
    from mammamia_ref.queries.answering import bounded
    from mammamia_ref.queries.answering.optimum import own_span

    form = {"some_seat": "s", "own_turns_until": {"event": "baked", "where": {"seat": "s"}}}
    assert own_span(at_most(form, 1), 4) == 7 and own_span(at_most(form, 2), 5) == 14
    assert own_span(at_most({"turns_until": {"event": "baked"}}, 3), 4) is None
    asked: list[dict[str, int]] = []

    def none(_c: Any, _p: int, _r: Any, bound: dict[str, int], *_a: Any,
             **_k: Any) -> bounded.Bounded:
        asked.append(dict(bound))
        return bounded.Bounded("none", "none within it")

    monkeypatch.setattr(bounded, "prove_or_find", none)
    question = Question("t", "t.yaml", "t", "fewest", None, form, (4,), {}, None, {})
    lowered = lower_value(question, 4, make_rules({}), 2, budget=30)
    assert asked == [{"turns": 7}, {}]
    assert lowered.lower is None and lowered.value == 2, lowered.tried
    assert lowered.tried[0] == "the game model for 1 within 7 turns: none there"


def test_a_search_game_worse_than_the_climbs_does_not_replace_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Where the climb found a game but did not settle the cell, the search's game
    takes its place only if it is better (it had replaced it whatever its value)."""
    from mammamia_ref.queries.answering import ask

    def climbed(_q: Any, _p: int, _r: Any, _b: float, out: Any) -> tuple[bool, str]:
        out.value = 5
        return False, "the climb; then "

    game = playout(make_config(2), 0, "random")
    monkeypatch.setattr(ask, "_climbed", climbed)
    monkeypatch.setattr(ask, "search", lambda *_a, **_k: (game, 1, -7.0, 0))
    monkeypatch.setattr(ask, "_by_the_model", lambda *_a: None)
    question = Question("t", "t.yaml", "t", "fewest", None, "turns", (2,), {}, None, {})
    out = ask.AskAnswer("t", 2, {})
    ask._optimum(question, 2, make_rules({}), 10.0, 10.0, None, lambda _g: None, out,
                 known=False)
    assert out.value == 5 and out.tried.startswith("the climb; then 1 games on the reference")
    assert "none better" in out.tried
