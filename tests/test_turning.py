"""The derived field ``turned_by`` of ``baked`` and ``failed`` (Q02 and Q19 of the
catalogue): the reference's half (``mammamia_ref/queries/language/turning.py``, an
opening replayed with a decision taken otherwise) on the catalogue's two-run witnesses,
the z3 half (``mammamia_ref/queries/model/alternative.py``) held to it order by order on
runs of the game model, what the model refuses, and the "never" it proves."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

import pytest

pytest.importorskip("z3")

import z3

from mammamia_ref.formats.scenario import load_scenario, packaged_suite
from mammamia_ref.queries.answering.bounded import prove_or_find
from mammamia_ref.queries.answering.known_games import played_runs
from mammamia_ref.queries.answering.unbounded import prove_never
from mammamia_ref.queries.language.conditions import Unsupported, event_count, shape
from mammamia_ref.queries.language.judging import Played, annotate, event_matches, holds
from mammamia_ref.queries.language.parts import Part
from mammamia_ref.queries.language.questions import QuestionError, load_question
from mammamia_ref.queries.language.turning import turnings
from mammamia_ref.queries.model import num as N
from mammamia_ref.queries.model.decode import decode, replay
from mammamia_ref.queries.model.game_model import GameModel
from mammamia_ref.queries.model.game_terms import UNDER
from mammamia_ref.queries.model.oven_rules import T_MONOTONI
from mammamia_ref.rules.ruleset import make_rules
from mammamia_ref.rules.vocabulary import ORDERS, ORDERS_OF

pytestmark = pytest.mark.z3

SLOW = os.environ.get("MAMMAMIA_SLOW") == "1"   # as every slow test of the suite

COSTS = {"event": "failed", "where": {"turned_by": {"event": "completed_from_hand"}}}
NAMED = {"event": "baked", "where": {"turned_by": {"event": "named_kind"}}}


def _witness_runs(stem: str) -> dict[str, Played]:
    scenario = load_scenario(packaged_suite() / "queries" / f"{stem}.yaml")
    return {result.run: played for result, played in played_runs(scenario) if result.passed}


def _turned(played: Played) -> dict[tuple[int, str], tuple[Any, ...]]:
    return turnings(played.steps, played.config)


def test_the_reference_turns_what_the_catalogues_two_runs_show() -> None:
    """Q19's witnesses: in the run that completes, the owner's later order is turned by
    that completion (declined, it bakes); the run that declines turns nothing. Q02's: in
    both runs the later order is turned by the Minimale's kind."""
    for stem in ("q19-completion-costs-own-order-optional",
                 "q19-completion-costs-own-order-optional-3p"):
        runs = _witness_runs(stem)
        assert set(runs) == {"complete", "decline"}
        turned = _turned(runs["complete"])
        assert len(turned) == 1
        ((opening, later), (deciding,)) = next(iter(turned.items()))
        assert opening == 1 and deciding.name == "completed_from_hand"
        assert ORDERS[later].colour == ORDERS[deciding.get("order")].colour
        assert _turned(runs["decline"]) == {}
    for stem in ("q02-minimale-tie-decides-eligible-kinds",
                 "q02-minimale-tie-decides-all-kinds"):
        runs = _witness_runs(stem)
        assert len(runs) == 2
        for played in runs.values():
            named = [e for events in _turned(played).values() for e in events
                     if e.name == "named_kind"]
            assert named and all(e.get("order_type") == "minimale" for e in named)


def test_the_question_files_judge_the_witness_runs() -> None:
    """The stated questions (spec/questions/) hold on the run that shows the thing and,
    for Q19, not on the run that does not."""
    from mammamia_ref.rules import specdata

    q19 = load_question(specdata.spec_path("questions") / "Q19-completion-costs-own-order.yaml")
    runs = _witness_runs("q19-completion-costs-own-order-optional")
    from mammamia_ref.queries.language.judging import meets

    assert meets(q19.condition or {}, runs["complete"], q19.bound)
    assert not meets(q19.condition or {}, runs["decline"], q19.bound)
    q02 = load_question(specdata.spec_path("questions") / "Q02-minimale-tie-decides.yaml")
    for played in _witness_runs("q02-minimale-tie-decides-eligible-kinds").values():
        assert meets(q02.condition or {}, played, q02.bound)


def _from_position(tmp_path: Any, red: str, yellow: str, oven: str,
                   actions: list[Any]) -> dict[tuple[int, str], tuple[Any, ...]]:
    """The turnings of an opening played from a position (red to draw its last supply
    card, which opens the oven), each decision as ``actions`` take it."""
    from mammamia_ref.formats.scenario import given_state
    from mammamia_ref.rules import game
    from mammamia_ref.rules.actions import Draw

    path = tmp_path / "position.yaml"
    path.write_text(f"""id: position
title: an opening
description: d
rules: [oven.bake]
given:
  state:
    step: draw
    players:
      - {{colour: red, hand: {{ingredients: {red}}}}}
      - {{colour: yellow, hand: {{ingredients: {yellow}}}}}
    oven: {oven}
    mamma_mia: 1
    supply: [pepper]
steps:
  - do: {{type: draw, source: supply}}
    expect: {{to_move: red}}
""", encoding="utf-8")
    scenario = load_scenario(path)
    start = state = given_state(scenario, scenario.runs[0])
    steps = []
    for action in [Draw("supply"), *actions]:
        state, events = game.apply(state, action)
        steps.append((action, events, state))
    return turnings(steps, state.config, start)


def test_a_decision_the_rules_take_otherwise_is_no_decision_taken_alike(tmp_path: Any) -> None:
    """Red completes red.pineapple4 from hand, taking the table's one salami. Declined,
    the salami would have stayed, and red.pepper4, later, bakes with it instead of
    failing: it is turned. In another opening yellow's Minimale, later, is named olive by
    itself (the only kind it may take) and completed by yellow; declined, the salami
    left would have been the only kind it may take: named for yellow by the rules, not as
    the game named it, so no run takes every later decision alike and the Minimale is
    not turned (the z3 model, too, holds each later kind named to the game's)."""
    from mammamia_ref.rules.actions import Complete

    turned = _from_position(tmp_path, "{pineapple: 2}", "{olive: 1}",
                            "[salami, pineapple, pineapple, red.pineapple4, pepper, pepper, "
                            "pepper, pepper, red.pepper4]", [Complete((0, 2, 0, 0, 0))])
    assert list(turned) == [(1, "red.pepper4")]
    (deciding,) = turned[(1, "red.pepper4")]
    assert (deciding.name, deciding.get("order")) == ("completed_from_hand", "red.pineapple4")
    assert _from_position(tmp_path, "{pineapple: 2}", "{olive: 1}",
                          "[salami, pineapple, pineapple, red.pineapple4, olive, olive, "
                          "pineapple, yellow.minimale]",
                          [Complete((0, 2, 0, 0, 0)), Complete((0, 0, 0, 0, 1))]) == {}


def test_an_answers_witness_says_which_decision_turned_the_order() -> None:
    """``ask``'s witness of Q19's question (one game from a new deal) notes, at the
    action that fails the later order, the completion that turned it; the answer says
    the first such note (``turned:``, in the text and the JSON)."""
    from mammamia_ref.queries.answering.ask import answer_cell
    from mammamia_ref.rules import specdata

    q19 = load_question(specdata.spec_path("questions") / "Q19-completion-costs-own-order.yaml")
    got = answer_cell(q19, 2, {"completion": "optional"}, 30, known=False)
    assert got.answer == "found" and got.scenario is not None
    notes = [step["note"] for step in got.scenario["steps"] if "note" in step]
    assert any("had" in note and "declined to complete" in note and
               "(turned_by: completed_from_hand)" in note for note in notes), notes
    assert got.turned == notes[0] and f"turned: {notes[0]}" in got.text()
    assert got.as_json()["turned"] == notes[0]


# ------------------------------------------------------ the model held to the reference

INNER: list[dict[str, Any]] = [
    {"event": "completed_from_hand"}, {"event": "named_kind"},
    {"event": "named_kind", "order_type": "minimale"},
    {"event": "named_kind", "order_type": "monotoni"},
    {"event": "completed_from_hand", "seat": "red"},
    {"event": "completed_from_hand", "order_type": "bombastica"}]

RUNS: list[tuple[int, dict[str, str], tuple[int, ...], dict[str, Any]]] = [
    (2, {}, (6,), COSTS),
    (2, {}, (6,), NAMED),
    (2, {"completion": "mandatory"}, (6,), NAMED),
]
# goals in the core grammar, as variables.expand writes a question's (turned_by's own
# fields under where:)
SLOW_RUNS: list[tuple[int, dict[str, str], tuple[int, ...], dict[str, Any]]] = [
    (2, {"minimale_lowest": "all_kinds"}, (6,),
     {"event": "failed", "where": {"turned_by": {"event": "named_kind",
                                                 "where": {"order_type": "minimale"}}}}),
    (2, {}, (4, 6), {"within": {"round": 2}, "holds": COSTS}),
    (2, {"leftovers": "oven"}, (4, 6),
     {"within": {"round": 2}, "holds": {"event": "failed", "where": {
         "turned_by": {"event": "named_kind"}}}}),
    (2, {"monotoni_kind": "on_table"}, (6,),
     {"event": "failed", "where": {"turned_by": {"event": "named_kind",
                                                 "where": {"order_type": "monotoni"}}}}),
    (2, {}, (6,), {"event": "baked", "where": {"order_type": "bombastica",
                                               "turned_by": {"event": "completed_from_hand"}}}),
    (3, {}, (7,), {"event": "failed", "where": {"turned_by": {"event": "named_kind"}}}),
]


def _compare(players: int, flags: Mapping[str, str], schedule: tuple[int, ...],
             goal: Mapping[str, Any], extra: Any = None) -> tuple[int, int]:
    """A run of the game model meeting ``goal`` (and ``extra(model)``, z3 terms, if
    given), replayed by the reference: for every
    order each opening reveals and each deciding event of :data:`INNER`, whether z3
    finds the order turned (the run's own values fixed, the alternative opening free)
    is whether the reference turns it. Returns (checked, turned)."""
    from mammamia_ref.queries.language.conditions import encode

    rules = make_rules(flags)
    with N.building():
        model = GameModel(players, rules, schedule=schedule)
        more = extra(model) if extra is not None else []
        _r, zm = N.check([*model.constraints, encode(goal, model), *more])
        assert zm is not None, f"no run of {schedule} meets {goal}"
        played = annotate(_played(model, zm), turned=True)
        reference: dict[tuple[int, str], Any] = {}
        opening = 0
        for _a, events, _s in played.steps:
            for e in events:
                opening += e.name == "oven_opened"
                if e.name in ("baked", "failed"):
                    reference[(opening, e.get("order"))] = e
        fixed = [d() == zm[d] for d in zm.decls() if d.arity() == 0 and "_alt" not in d.name()]
        checked = turned = 0
        for step in model.steps:
            if step.what != "reveal" or not N.truth(zm, step.facts["has_order"]):
                continue
            block = step.facts["block"]
            order = ORDERS_OF[model.colours[N.value(zm, block.owner)]][N.value(zm, block.order)]
            e = reference[(step.round, order)]
            for want in INNER:
                fields = {k: v for k, v in want.items() if k != "event"}
                theirs = any(event_matches(d, {"event": want["event"], "where": fields},
                                           played.config) for d in e.get("turned_by"))
                assert theirs == event_matches(e, {"event": e.name, "where": {
                    "turned_by": {"event": want["event"], "where": fields}}}, played.config)
                core = {"event": want["event"], "where": fields}   # as expand writes it
                n = event_count({"event": e.name, "where": {"turned_by": core}}, model,
                                Part(frozenset({step.index}), False))
                ours = N.check([*fixed, n >= 1])[1] is not None
                assert ours == theirs, (f"{order} ({e.name}, round {step.round}) turned by "
                                        f"{want}: the model says {ours}, the reference {theirs}")
                checked += 1
                turned += theirs
    return checked, turned


def _played(model: GameModel, zm: Any) -> Played:
    from mammamia_ref.queries.answering.bounded import played_of

    return played_of(replay(decode(model, zm)))


def test_the_model_turns_each_order_as_the_reference_does() -> None:
    """Order by order, the z3 alternative opening and the reference's replay agree, with
    orders turned among them (the goals ask for some)."""
    results = [_compare(*run) for run in RUNS]
    assert all(checked >= 10 for checked, _t in results)
    assert results[0][1] > 0 and results[1][1] > 0


@pytest.mark.skipif(not SLOW, reason="MAMMAMIA_SLOW=1: more rulings")
@pytest.mark.parametrize("run", SLOW_RUNS, ids=[f"{p}p-{f}-{list(s)}" for p, f, s, _g in SLOW_RUNS])
def test_the_model_turns_each_order_as_the_reference_does_under_more_rulings(
        run: tuple[int, dict[str, str], tuple[int, ...], dict[str, Any]]) -> None:
    checked, turned = _compare(*run)
    assert checked >= 10 and turned > 0


def test_a_kind_named_by_itself_turns_nothing() -> None:
    """Every Monotoni of the run has one kind its owner may name (monotoni_kind=on_table,
    one other kind on the table), and one completed from hand turns a later order: the
    completion turns it, the kind named turns nothing (there was no other kind), in the
    model as in the reference."""
    def one_kind_each(model: GameModel) -> list[Any]:
        return [z3.Implies(N.And(step.facts["has_order"], step.facts["type"] == T_MONOTONI),
                           N.Sum([N.If(p, 1, 0) for p in step.facts["outcome"].permitted]) == 1)
                for step in model.steps if step.what == "reveal"]

    goal = {"event": "failed", "where": {"turned_by": {
        "event": "completed_from_hand", "where": {"order_type": "monotoni"}}}}
    checked, turned = _compare(2, {"monotoni_kind": "on_table"}, (6,), goal, one_kind_each)
    assert checked >= 10 and turned > 0


def test_the_game_model_finds_a_turned_order_the_reference_replays() -> None:
    """prove_or_find's game is one the reference turns an order in (judged on its own
    replay)."""
    got = prove_or_find({"some_seat": "s", "holds": {"event": "failed", "where": {
        "seat": "s", "turned_by": {"event": "completed_from_hand", "seat": "s"}}}},
        2, make_rules({}), {"rounds": 1}, budget=120)
    assert got.verdict == "found", got.detail
    assert got.game is not None and holds(   # the core grammar: turned_by's where
        {"any": [{"event": "failed", "where": {"seat": c, "turned_by": {
            "event": "completed_from_hand", "where": {"seat": c}}}} for c in ("red", "yellow")]},
        annotate(got.game, turned=True))


# ------------------------------------------------------------ refused, and never

@pytest.mark.parametrize("cond", [
    {"not": COSTS},
    {**COSTS, "at_least": 2},
    {**COSTS, "equals": 1},
    {**COSTS, "at_most": 0},
    {"all": [COSTS, NAMED]},
    {"within": {"after": COSTS}, "holds": {"event": "baked"}},
])
def test_the_model_refuses_what_one_alternative_opening_cannot_witness(
        cond: dict[str, Any]) -> None:
    """One alternative run of an opening witnesses one turned order: a condition that
    needs two at once, none, or a count of them is searched only."""
    with pytest.raises(Unsupported, match="turned"):
        shape(cond)


def test_the_model_takes_one_turned_order_at_a_time() -> None:
    for cond in ({"any": [COSTS, NAMED]}, {"within": {"round": 1}, "holds": COSTS},
                 {"all": [COSTS, {"event": "baked", "at_least": 3}]}):
        assert shape(cond).exact


def test_never_where_the_rules_never_let_the_decision_be_taken_otherwise() -> None:
    """Under completion=mandatory an owner who can complete must: no completion is ever
    declined, so none costs a later order, in any game (z3 on one reveal from any
    well-formed state). Under optional it can, and the proof says it is not proved."""
    proved = prove_never(COSTS, 2, make_rules({"completion": "mandatory"}))
    assert proved.proved, proved.how
    assert "no reveal can take completed_from_hand otherwise" in proved.how
    assert not prove_never(COSTS, 2, make_rules({})).proved
    named = prove_never(NAMED, 2, make_rules({"completion": "mandatory"}))
    assert not named.proved   # a tie among kinds is still a free choice


def _turned_in_random_games(flags: Mapping[str, str], seeds: int) -> dict[str, int]:
    """The deciding events that turn an order, counted over seeded reference games (2 to
    4 players, the random and careful policies)."""
    from mammamia_ref.queries.answering.searching import playout
    from mammamia_ref.rules.state import make_config

    counted: dict[str, int] = {}
    for players in (2, 3, 4):
        config = make_config(players, variants=make_rules(flags))
        for seed in range(seeds):
            for policy in ("random", "careful"):
                game = playout(config, seed, policy)
                for events in turnings(game.steps, game.config).values():
                    for e in events:
                        counted[e.name] = counted.get(e.name, 0) + 1
    return counted


@pytest.mark.parametrize("seeds", [
    10, pytest.param(200, marks=pytest.mark.skipif(not SLOW, reason="MAMMAMIA_SLOW=1: "
                                                   "1,200 games"))])
def test_the_never_holds_on_random_reference_games(seeds: int) -> None:
    """The "never" above, on the reference's own games under completion=mandatory: no
    order is turned by a completion (a kind named may still turn one). The same games
    under optional show such orders, so the count can tell."""
    mandatory = _turned_in_random_games({"completion": "mandatory"}, seeds)
    assert "completed_from_hand" not in mandatory
    assert _turned_in_random_games({}, seeds).get("completed_from_hand", 0) > 0


def test_a_bad_turned_by_is_refused_with_its_line(tmp_path: Any) -> None:
    for inner, words in (("{event: baked}", "turned_by: {event: named_kind or "
                          "completed_from_hand, and that event's fields}"),
                         ("7", "turned_by: {event: named_kind"),
                         ("{event: completed_from_hand, kind: olive}",
                          "event completed_from_hand has no field 'kind'"),
                         ("{event: named_kind, kind: s}", "unknown kind")):
        path = tmp_path / "q.yaml"
        path.write_text("question: bad\ntitle: t\nfind:\n  event: failed\n  where:\n"
                        f"    turned_by: {inner}\n", encoding="utf-8")
        with pytest.raises(QuestionError) as refused:
            load_question(path)
        assert refused.value.line == 6 and words in refused.value.message, refused.value


def test_a_run_that_draws_a_failed_order_back_from_its_waiter_replays() -> None:
    """A failed order goes under its owner's waiter; a later draw may turn it up again.
    The decoded waiter shuffle holds it once (it was dealt or drawn before it failed),
    so the reference replays the run (it refused such a shuffle before)."""
    with N.building():
        model = GameModel(2, make_rules({}), schedule=(4, 4))
        back = z3.Or(*[N.And(step.facts["who"] == seat, step.sel.picks[o],
                             model.S[step.before].loc[seat][o] == UNDER)
                       for step in model.steps if step.what == "turn" and step.round == 2
                       for seat in range(2) for o in range(len(ORDERS_OF["red"]))])
        _r, zm = N.check([*model.constraints, back])
        assert zm is not None
        trace = decode(model, zm)
        assert all(len(set(w)) == len(w) == 8 for w in trace.waiters)
        replay(trace)   # raises on a disagreement
