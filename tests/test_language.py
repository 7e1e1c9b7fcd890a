"""The question language (``mammamia_ref/queries/language/variables.py``, the checks of
``questions.py``, the judging of ``judging.py``): every construct read, refused with its
file and line when misused, written out for a game's seating, and judged on the
reference's games."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from mammamia_ref.queries.answering.searching import playout
from mammamia_ref.queries.language import judging
from mammamia_ref.queries.language.judging import KIND_COUNTS, Played, annotate, meets
from mammamia_ref.queries.language.measures import measure
from mammamia_ref.queries.language.questions import QuestionError, load_question
from mammamia_ref.queries.language.variables import expand, named_colours, seatings
from mammamia_ref.rules.state import make_config
from mammamia_ref.rules.vocabulary import COLOURS, KINDS, PERSONAL

SHIPPED = Path(__file__).resolve().parent.parent / "spec" / "questions"


def _write(tmp_path: Path, doc: dict[str, Any]) -> Path:
    path = tmp_path / "q.yaml"
    path.write_text(yaml.safe_dump({"question": "q", "title": "a question", **doc},
                                   sort_keys=False), encoding="utf-8")
    return path


@pytest.mark.parametrize(("find", "says"), [
    ({"some_seat": "red", "holds": {"event": "baked"}}, "not a variable name"),
    ({"some_seat": "s", "holds": {"event": "baked", "where": {"seat": "t"}}},
     "unknown seat colour 't'"),
    ({"event": "baked", "where": {"seat": "s"}}, "unknown seat colour 's'"),
    ({"two_seats": ["a", "a"], "holds": {"event": "baked"}}, "two different"),
    ({"some_seat": "s", "holds": {"some_seat": "s", "holds": {"event": "baked"}}},
     "bound already"),
    ({"some_seat": "s"}, "needs holds"),
    ({"some_seat": "s", "holds": {"event": "named_kind", "where": {"order": "s.pizza"}}},
     "unknown order 's.pizza'"),
    ({"within": {"rounds": 2}, "holds": {"event": "baked"}}, "unknown span 'rounds'"),
    ({"within": {"round": 0}, "holds": {"event": "baked"}}, "a whole number above 0"),
    ({"within": {"after": {"state": {"count": "hand"}}}, "holds": {"event": "baked"}},
     "an event condition"),
    ({"within": {"round": 1, "from_round": 2}, "holds": {"event": "baked"}},
     "or from_round"),
    # "after the second bake" is not what a bound says: its first event bounds the span
    ({"within": {"after": {"event": "baked", "at_least": 2}}, "holds": {"event": "baked"}},
     "at_least: counts no event"),
    ({"within": {"before": {"event": "baked", "more_than": {"where": {"seat": "red"}}}},
      "holds": {"event": "baked"}}, "more_than: counts no event"),
    ({"within": {"round": 1, "seat": "red"}, "holds": {"event": "baked"}}, "beside turns"),
    ({"within": {"turns": 2, "seat": "s"}, "holds": {"event": "baked"}}, "beside turns"),
    ({"within": {"turns": 2, "seat": "pink"}, "holds": {"event": "baked"}},
     "beside turns"),
    ({"event": "baked", "at_least": 1, "more_than": {"where": {"seat": "red"}}},
     "not both"),
    ({"event": "baked", "more_than": {"seat": "red"}}, "the other count"),
    ({"event": "baked", "then": {"count": "table", "at": "game_end"}}, "right after"),
    ({"state": {"count": "table", "same_for_every_seat": True}}, "a count per seat"),
    ({"state": {"count": "hand", "more_than": {"seat": "red"}}}, "names its own seat"),
    ({"result": {"winner": "s"}}, "neither a seat colour"),
    ({"result": {"decided_by": "game_end.coin"}}, "decided_by: one of"),
    ({"result": {"loser": "red"}}, "not 'loser'"),
    ({"event": "mamma_mia_drawn", "where": {"last": True}}, "no field 'last'"),
    ({"position_returns": False}, "position_returns"),
    ({"position_returns": True, "rule": "turn.pass"}, "stands alone"),
])
def test_a_misused_construct_is_refused_with_its_line(tmp_path: Path, find: Any,
                                                      says: str) -> None:
    path = _write(tmp_path, {"find": find})
    with pytest.raises(QuestionError, match=says) as caught:
        load_question(path)
    assert caught.value.file == str(path) and caught.value.line is not None


@pytest.mark.parametrize(("measure_", "says"), [
    ({"own_turns_until": {"event": "baked"}}, "needs some_seat"),
    ({"some_seat": "s", "turns_until": {"event": "baked"}}, "turns_until: a condition"),
    ({"some_seat": "s", "own_turns": False}, "own_turns: true"),
    ({"turns": 3}, "one of turns_until"),
])
def test_a_misused_measure_is_refused_with_its_line(tmp_path: Path, measure_: Any,
                                                    says: str) -> None:
    with pytest.raises(QuestionError, match=says):
        load_question(_write(tmp_path, {"most": measure_}))


def test_every_shipped_question_reads() -> None:
    files = sorted(SHIPPED.glob("*.yaml"))
    assert len(files) > 20
    for path in files:
        question = load_question(path)
        assert question.title and question.title != question.id, path


def test_variables_are_written_out_for_a_seating() -> None:
    cond = {"some_seat": "s", "holds": {"event": "named_kind",
                                        "where": {"order": "s.minimale", "kind": "s.personal"}}}
    core = expand(cond, ("green", "red"), 3)
    assert core == {"any": [
        {"event": "named_kind", "where": {"order": "green.minimale",
                                          "kind": PERSONAL["green"]}},
        {"event": "named_kind", "where": {"order": "red.minimale", "kind": PERSONAL["red"]}}]}
    pairs = expand({"two_seats": ["a", "b"], "holds": {"result": {"winner": "a"}}},
                   ("red", "yellow", "green"), 3)
    assert len(pairs["any"]) == 6
    rounds = expand({"within": {"round": "every"}, "holds": {"event": "baked"}}, ("red",), 3)
    assert [p["within"]["round"] for p in rounds["all"]] == [1, 2, 3]
    kinds = expand({"some_kind": "k", "holds": {"state": {"count": "table", "kind": "k"}}},
                   ("red",), 3)
    assert len(kinds["any"]) == 5


def test_seatings_tell_apart_what_the_condition_names() -> None:
    """One seating when no colour is named; each named colour (or owner of a named kind)
    absent or at each seat from the starting player on."""
    assert seatings(2, {"event": "baked"}) == [("red", "yellow")]
    green = seatings(2, {"event": "baked", "where": {"seat": "green"}})
    assert len(green) == 3 and ("red", "yellow") in green
    assert {s.index("green") for s in green if "green" in s} == {0, 1}
    assert named_colours({"state": {"count": "table", "kind": PERSONAL["green"]}}) == {"green"}
    five = seatings(5, {"event": "baked", "where": {"seat": "green"}})
    assert len(five) == 5 and all(set(s) == set(COLOURS) for s in five)
    two = seatings(3, {"all": [{"event": "baked", "where": {"seat": "red"}},
                               {"event": "baked", "where": {"order": "green.minimale"}}]})
    assert len(two) == 1 + 3 + 3 + 6


@pytest.fixture(scope="module")
def games() -> list[Played]:
    """Whole reference games at 2 and 3 players, several seatings and policies."""
    out = []
    for seed in range(12):
        players = 2 + seed % 2
        colours = ("green", "red", "brown")[:players] if seed % 3 else None
        config = make_config(players, colours=colours, first_player=seed % players)
        out.append(playout(config, seed, ("random", "simple", "careful")[seed % 3]))
    return out


def test_a_span_of_rounds_partitions_the_games_events(games: list[Played]) -> None:
    """Each event lies in exactly one round's span, the preparation of a round in the
    round it prepares."""
    for game in games:
        whole = annotate(game)
        every = sum(len(events) for _a, events, _s in whole.steps)
        parts = [judging.span(whole, {"round": r}) for r in (1, 2, 3)]
        assert sum(sum(len(e) for _a, e, _s in p.steps) for p in parts if p) == every
        two = parts[1]
        assert two is not None
        assert two.steps[0][1][0].name in ("leftovers_to_oven", "leftovers_stay")
        names = [e.name for _a, events, _s in two.steps for e in events]
        assert names.count("round_ended") == 1


def test_the_constructs_judge_a_game_as_its_events_say(games: list[Played]) -> None:
    for game in games:
        winners = next(e for _a, evs, _s in game.steps for e in evs if e.name == "winners")
        colours = game.config.colours
        won = [colours[s] for s in winners.get("seats")]
        delivered = [len(d) for d in game.steps[-1][2].delivered]
        everything: dict[str, int] = {}
        for _a, evs, _s in game.steps:
            for e in evs:
                everything[e.name] = everything.get(e.name, 0) + 1
        assert meets({"result": {"winner": won[0], "decided_by": winners.rule}}, game, {})
        assert not meets({"result": {"winners": {"equals": len(won) + 1}}}, game, {})
        loser = [c for c in colours if c not in won]
        if loser:
            assert not meets({"result": {"winner": loser[0]}}, game, {})
        most = max(delivered)
        assert meets({"some_seat": "s", "holds": {"state": {
            "count": "delivered", "seat": "s", "at": "game_end", "equals": most}}}, game, {})
        same = len(set(delivered)) == 1
        assert meets({"state": {"count": "delivered", "at": "game_end",
                                "same_for_every_seat": True}}, game, {}) == same
        assert meets({"every_seat": "s", "holds": {"not": {"state": {
            "count": "delivered", "seat": "s", "at": "game_end", "at_least": most + 1}}}},
            game, {})
        baked = everything.get("baked", 0)
        assert meets({"within": {"from_round": 1}, "holds": {"event": "baked",
                                                             "equals": baked}}, game, {})
        before = {"within": {"before": {"event": "baked"}},
                  "holds": {"not": {"event": "baked"}}}
        assert meets(before, game, {})
        after = {"within": {"after": {"event": "baked"}},
                 "holds": {"event": "baked", "equals": max(baked - 1, 0)}}
        assert meets(after, game, {}) == (baked > 0)


def test_the_first_time_measures_count_turns(games: list[Played]) -> None:
    for game in games:
        turns = measure("turns", game)
        until = measure({"turns_until": {"event": "baked"}}, game)
        assert until is None or 1 <= until <= turns
        own = measure({"some_seat": "s", "own_turns": True}, game, "most")
        fewest_own = measure({"some_seat": "s", "own_turns": True}, game, "fewest")
        assert own is not None and fewest_own is not None and fewest_own <= own
        assert own * game.config.players >= turns >= fewest_own
        first = measure({"some_seat": "s", "own_turns_until": {
            "event": "placed_order", "where": {"seat": "s"}}}, game, "fewest")
        # the first order is placed in some seat's own turn, one it has taken by then
        placed = [e for _a, evs, _s in game.steps for e in evs if e.name == "placed_order"]
        assert (first is None) == (not placed)
        assert first is None or 1 <= first <= fewest_own + own


def test_the_derived_fields_follow_the_states_around_the_event(games: list[Played]) -> None:
    """``on_table`` is the named kind's count on the table before the naming part;
    ``last_card`` / ``first_card_of_round`` where the Mamma Mia! card lay."""
    seen = {"named_kind": 0, "mamma_mia_drawn": 0}
    for game in games:
        parts = annotate(game, parts=True)
        before = None
        for _a, events, state in parts.steps:
            for e in events:
                if e.name == "named_kind":
                    seen["named_kind"] += 1
                    assert before is not None
                    assert e.get("on_table") == before.table[KINDS.index(e.get("kind"))]
                    assert e.get("order_type") in ("monotoni", "minimale")
                if e.name == "mamma_mia_drawn":
                    seen["mamma_mia_drawn"] += 1
                    assert isinstance(e.get("last_card"), bool)
                    assert isinstance(e.get("first_card_of_round"), bool)
            before = state if state is not None else before
    assert all(seen.values()), seen


def test_a_kind_count_field_is_judged_kind_by_kind(games: list[Played]) -> None:
    """``used`` (and every field that counts each kind): each kind named must have its
    number or meet its comparison, a kind left out is free; so the event's own counts
    always match, one more of a kind never does."""
    config = games[0].config
    checked = 0
    for game in games:
        for _a, events, _s in game.steps:
            for e in events:
                for key in KIND_COUNTS.get(e.name, ()):
                    counts = e.get(key)
                    if not isinstance(counts, dict):   # a draw from the waiter
                        continue
                    kind = KINDS[checked % len(KINDS)]
                    n = counts[kind]
                    yes = [{kind: n}, counts, {kind: {"at_least": n}},
                           {kind: n, KINDS[0]: {"at_most": counts[KINDS[0]]}}]
                    no = [{kind: n + 1}, {kind: {"at_least": n + 1}},
                          {**counts, kind: {"equals": n + 1}}]
                    for want, held in [(w, True) for w in yes] + [(w, False) for w in no]:
                        cond = {"event": e.name, "where": {key: want}}
                        assert judging.event_matches(e, cond, config) == held, (e, want)
                    checked += 1
    assert checked > 100


def test_the_parts_of_the_actions_keep_every_event_and_every_state(
        games: list[Played]) -> None:
    """:func:`.judging.in_parts` splits each action into its parts: the same events in the
    same order, and every state an action leaves among its parts' states (an action that
    emits no event, a shuffle say, included)."""
    from mammamia_ref.queries.language.judging import in_parts, within

    for game in games:
        for part in (game, within(game, {"turns": 7})):
            assert part is not None
            split = in_parts(part)
            assert [e for _a, ev, _s in split.steps for e in ev] == \
                [e for _a, ev, _s in part.steps for e in ev]
            states = [s for _a, _e, s in split.steps]
            assert all(any(s == t for t in states) for _a, _e, s in part.steps)


def test_a_state_count_is_judged_on_the_states_the_game_stops_at_alone(
        games: list[Played]) -> None:
    """``at: any_step`` looks at the states the reference stops at, whatever else the
    condition asks: a ``then:`` beside it splits each action into its parts (the table
    card by card at an opening), and those parts are not states the game stops at
    (:class:`.judging.PartOf`), so the count's verdict is the same with or without it.
    The states stopped at are each action's last part's, the unsplit game's."""
    from mammamia_ref.queries.language.judging import in_parts, states_at

    for game in games:
        stops = states_at(game, "any_step")
        assert states_at(in_parts(game), "any_step") == stops
        most = max(sum(s.table) for s in stops)
        for k in (most, most + 1):
            table = {"state": {"count": "table", "at_least": k}}
            beside = {"all": [table, {"event": "played", "then": {"count": "round",
                                                                   "at_least": 1}}]}
            assert meets(table, game, {}) == meets(beside, game, {}) == (k == most)


@pytest.mark.parametrize("players", [2, 3, 5])
def test_the_parts_a_playout_keeps_are_the_replays(players: int) -> None:
    """A game is played in parts and judged on the parts its playout kept
    (:func:`.judging.keep_parts`), not on a replay: they must be the replay's, part for
    part, under each policy and a flag that changes the parts (the round's end)."""
    import dataclasses

    from mammamia_ref.queries.language.judging import in_parts
    from mammamia_ref.rules.ruleset import make_rules

    for seed, policy in enumerate(("random", "simple", "careful")):
        for flags in ({}, {"round_end": "last_ingredient"}):
            config = make_config(players, first_player=seed % players,
                                 variants=make_rules(flags))
            game = playout(config, seed, policy)
            kept = in_parts(game)
            assert kept is in_parts(game), "the playout's parts were not kept"
            replayed = in_parts(dataclasses.replace(game))   # another object: replayed
            assert replayed is not kept and replayed.steps == kept.steps, (players, seed)
            assert len(kept.steps) > len(game.steps)


def test_a_position_comes_back_where_a_state_repeats_and_nowhere_else(
        games: list[Played]) -> None:
    """comes_back compares the reference's states: the catalogue's stall=letter
    game comes back to the state after its 14th action after its 18th (every card in
    the same place, the same player to act), the first such pair; no state of a whole
    game (stall cut) comes back, nor in a part of the letter game that stops before."""
    from dataclasses import replace

    from mammamia_ref.queries.answering.ask import replay_witness

    witness = Path(__file__).resolve().parent.parent / "scenarios" / "queries"
    letter = replay_witness(yaml.safe_load(
        (witness / "q07-round-forever-letter.yaml").read_text(encoding="utf-8")))
    assert meets({"position_returns": True}, letter, {})
    states = [s for _a, _e, s in letter.steps]
    first, again = next((i, j) for j, s in enumerate(states) for i in range(j)
                        if states[i] == s)
    assert judging.comes_back(letter) == (first, again) == (13, 17)
    assert judging.comes_back(replace(letter, steps=letter.steps[:again])) is None
    assert states[first].current == states[again].current
    for game in games:
        assert judging.comes_back(game) is None
        assert not meets({"position_returns": True}, game, {})
