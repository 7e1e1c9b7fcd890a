""""None in any game" (``mammamia_ref/queries/answering/unbounded.py``): the impossibility
questions are proved for games of every length, what a game can reach is never proved
impossible, and every proved condition is checked again on random reference games."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("z3")

from mammamia_ref.queries.answering.bounded import prove_or_find
from mammamia_ref.queries.answering.leads import Lead, lead
from mammamia_ref.queries.answering.searching import playout
from mammamia_ref.queries.answering.unbounded import prove_never
from mammamia_ref.queries.language.judging import meets, state_count
from mammamia_ref.queries.language.questions import EVENTS, load_question
from mammamia_ref.queries.model import num as N
from mammamia_ref.rules.ruleset import make_rules
from mammamia_ref.rules.state import make_config
from mammamia_ref.rules.vocabulary import COLOURS

pytestmark = pytest.mark.z3

SHIPPED = Path(__file__).resolve().parent.parent / "spec" / "questions"

# (question file, flag values) proved never met; the first five are the designer's
# impossibility questions, the others catalogue questions stated in the language
NEVER: list[tuple[str, dict[str, str]]] = [
    ("new-minimale-own-kind", {}),
    ("new-draw-eight", {"refill": "to_seven"}),
    ("new-draw-eight", {"refill": "as_many_as_played"}),
    ("new-order-while-passing", {"pass_order": "forbidden"}),
    ("new-monotoni-own-kind", {"monotoni_kind": "any_other"}),
    ("new-monotoni-own-kind", {"monotoni_kind": "on_table"}),
    ("new-monotoni-absent-kind", {"monotoni_kind": "on_table"}),
    ("new-nine-delivered", {}),
    ("new-order-after-last-ingredient", {"pass_order": "forbidden"}),   # inside a turn
    ("new-mamma-mia-back-in-supply", {}),   # the next supply waiting for its shuffle
    ("new-supply-left-at-opening", {"stall": "letter"}),   # the state at a round's end
    ("new-stall-while-holding", {}),   # with the quiet turns' empty hands (proofs.quiet_hands)
    ("new-supply-left-at-opening", {"stall": "letter", "round_end": "last_ingredient"}),
    ("Q09-hand-above-seven", {}),
    ("Q10-opening-without-holder", {}),
    ("Q14-bombastica-leaves-cards", {}),
    ("Q01-minimale-impossible", {"minimale_lowest": "eligible_kinds"}),
    ("Q11-mamma-mia-last-card", {"round_end": "last_ingredient"}),
    ("Q12-monotoni-absent-kind", {"monotoni_kind": "on_table"}),
    ("Q13-bombastica-short-table", {"bombastica_hand": "forbidden"}),
    ("Q15-completion-declined", {"completion": "mandatory"}),
    ("Q10-opening-without-holder", {"round_end": "last_ingredient"}),
    ("Q07-round-forever", {}),
    # counts of events, each bounded by an invariant found automatically
    ("new-fourth-opening", {}),
    ("new-fourth-opening", {"round_end": "last_ingredient"}),
    ("new-mamma-mia-drawn-four-times", {}),
    ("new-orders-bake-nine-times", {}),
]

# conditions a game reaches (a reference game shows each): never proved impossible
REACHED: list[tuple[dict[str, Any], dict[str, str]]] = [
    ({"event": "named_kind", "where": {"order_type": "minimale"}}, {}),
    ({"event": "named_kind", "where": {"order_type": "monotoni", "on_table": 0}},
     {"monotoni_kind": "any_other"}),
    ({"event": "placed_order", "rule": "turn.pass_with_order"}, {"pass_order": "allowed"}),
    ({"state": {"count": "hand", "at_least": 7}}, {}),
    ({"event": "baked", "rule": "oven.bombastica"}, {}),
    ({"event": "drew", "where": {"count": 7}}, {}),
    # a stall that passes the Mamma Mia! card on from an otherwise empty supply: the
    # induction cannot rule it out (the bounded route and the search take it on)
    ({"event": "round_ended", "rule": "round_end.stall", "then": {"count": "supply",
                                                                  "equals": 0}}, {}),
    # a pass may place an order on an oven with nothing else on it: the state inside
    # the turn, right after the order
    ({"event": "placed_order", "then": {"count": "oven", "at_most": 1}},
     {"pass_order": "allowed"}),
    # under the letter a stalled round's position comes back (Q07's game)
    ({"position_returns": True}, {"stall": "letter"}),
    # a round's preparation: the leftovers moved, the game's end
    ({"event": "leftovers_to_oven", "then": {"count": "supply", "at_least": 2}}, {}),
    ({"event": "game_ended", "where": {"resolutions": 3}}, {}),
    # right after a kind is named, its owner deciding on completing it from hand
    ({"event": "named_kind", "then": {"count": "table", "at_least": 1}}, {}),
    # under the stall cut a stalled round's oven opens with cards left in the supply
    ({"state": {"count": "supply", "at": "round_end", "at_least": 1}}, {}),
    # a waiter holds all eight orders while the waiters are shuffled at the setup
    ({"state": {"count": "waiter", "at_least": 8}}, {}),
    # counts of events a game reaches: no invariant found may bound them lower
    ({"event": "oven_opened", "at_least": 3}, {}),
    ({"event": "mamma_mia_drawn", "at_least": 3}, {}),
    ({"event": "baked", "at_least": 2}, {}),
    ({"event": "passed", "at_least": 5}, {}),
    # proved for red, then reached for yellow, whose proof starts from red's bounds
    ({"any": [{"event": "baked", "where": {"seat": "red"}, "at_least": 9},
              {"event": "baked", "where": {"seat": "yellow"}, "at_least": 2}]}, {}),
]


def _condition(name: str) -> dict[str, Any]:
    question = load_question(SHIPPED / f"{name}.yaml")
    assert question.condition is not None
    return dict(question.condition)


@pytest.mark.parametrize(("name", "flags"), NEVER, ids=[
    f"{n}-{'-'.join(f.values()) or 'defaults'}" for n, f in NEVER])
@pytest.mark.parametrize("players", [2, 3])
def test_an_impossibility_is_proved_for_games_of_every_length(
        name: str, flags: dict[str, str], players: int) -> None:
    never = prove_never(_condition(name), players, make_rules(flags))
    assert never.proved, never.how
    assert never.cases and all(r in ("unsat",) or r.startswith("none")
                               for r in never.cases.values()), never.cases


@pytest.mark.parametrize(("cond", "flags"), REACHED)
def test_what_a_game_reaches_is_never_proved_impossible(
        cond: dict[str, Any], flags: dict[str, str]) -> None:
    never = prove_never(cond, 2, make_rules(flags))
    assert not never.proved, cond
    assert never.how.startswith("not proved")


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_no_position_comes_back_by_a_ranking_function(players: int) -> None:
    """Under the stall cut a position never comes back, at every player count: the
    proof is the ranking function's (the answer's evidence says so, not induction)."""
    never = prove_never({"position_returns": True}, players, make_rules({}))
    assert never.proved and never.evidence == "ranking", never.how
    assert never.how.startswith("proved by a ranking function")
    assert any(case.startswith("ranking") for case in never.cases)
    other = prove_never(_condition("new-nine-delivered"), players, make_rules({}))
    assert other.proved and other.evidence == "induction"


def test_a_game_model_whose_stall_never_ends_a_round_proves_no_never(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A one-line mutant of the game model (the stall cut never ends a round, so a
    stalled round's position can come back): the ranking proof alone would still hold
    from a "well-formed" state (well-formedness says a cycle of quiet turns has ended
    its round), but well-formedness is proved first, is no longer inductive, and no
    "never" is claimed, for this question nor any other."""
    from mammamia_ref.queries.answering import unbounded
    from mammamia_ref.queries.model import game_model

    rules = make_rules({})
    unbounded.well_formed_holds.cache_clear()
    try:
        with monkeypatch.context() as patch:
            patch.setattr(game_model, "round_end_stall", lambda *_args: N.BoolVal(False))
            for cond in ({"position_returns": True}, _condition("new-nine-delivered")):
                never = prove_never(cond, 2, rules)
                assert not never.proved and "well-formedness" in never.how, never.how
    finally:
        unbounded.well_formed_holds.cache_clear()
    assert prove_never({"position_returns": True}, 2, rules).proved   # the model itself


def test_a_model_in_which_a_player_may_pass_holding_ingredients_proves_no_empty_hands(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The quiet turns' empty hands (``proofs.quiet_hands``) rest on turn.pass: in a
    one-line mutant of the game model that lets a player holding ingredients pass, the
    invariant is not inductive, is not used, and "the stall cut never ends a round while
    a hand holds an ingredient" is no longer proved (the model itself proves it)."""
    from mammamia_ref.queries.model import game_model, proofs
    from mammamia_ref.queries.model.turn_rules import turn_pass, turn_play_or_pass

    cond = _condition("new-stall-while-holding")
    rules = make_rules({})
    proofs._holds.cache_clear()
    try:
        with monkeypatch.context() as patch:
            patch.setattr(game_model, "turn_play_or_pass", lambda hand, ingredients, kind,
                          count: N.Or(turn_pass(kind, count),
                                      turn_play_or_pass(hand, ingredients, kind, count)))
            assert not proofs._holds(2, rules, proofs.quiet_hands)
            assert not prove_never(cond, 2, rules).proved
    finally:
        proofs._holds.cache_clear()
    assert proofs._holds(2, rules, proofs.quiet_hands) and prove_never(cond, 2, rules).proved


def test_the_hand_limit_of_a_house_rule_is_what_the_proof_follows() -> None:
    """Eight cards in hand: impossible under the spec's limit of seven, not under a house
    rule's limit of eight."""
    cond = {"state": {"count": "hand", "at_least": 8}}
    assert prove_never(cond, 2, make_rules({})).proved
    assert not prove_never(cond, 2, make_rules({}, parameters={"hand_limit": 8})).proved


def test_a_span_past_the_last_round_is_empty_in_every_game() -> None:
    """A span that starts after the game's last round holds nothing: proved at once from
    the game's number of rounds (a house rule's too), and no random game meets it; the
    last round's own span is not proved so."""
    baked = {"event": "baked"}
    spec = make_rules({})
    for span in ({"round": 4}, {"from_round": 4, "to_round": 5}):
        cond = {"within": span, "holds": baked}
        never = prove_never(cond, 2, spec)
        assert never.proved and "no game has a round 4" in never.how, never.how
        for seed in range(20):
            game = playout(make_config(2, variants=spec), seed, "careful")
            assert not meets(cond, game, {})
    assert not prove_never({"within": {"round": 3}, "holds": baked}, 2, spec).proved
    four = make_rules({}, parameters={"rounds": 4})
    assert not prove_never({"within": {"round": 4}, "holds": baked}, 2, four).proved


GAMES = 300


def _ruling_name(flags: dict[str, str]) -> str:
    return "-".join(f"{k}={v}" for k, v in sorted(flags.items())) or "defaults"


# the proved conditions by ruling: the conditions of one ruling are judged on the same
# games, so each ruling's games are played once for all of them
BY_RULING: dict[str, tuple[dict[str, str], list[str]]] = {}
for _name, _flags in NEVER:
    BY_RULING.setdefault(_ruling_name(_flags), (_flags, []))[1].append(_name)


def test_every_proved_impossibility_is_judged_on_its_rulings_games() -> None:
    """The grouping above leaves out no (condition, ruling) of NEVER and repeats none."""
    judged = [(name, flags) for flags, names in BY_RULING.values() for name in names]
    assert sorted(map(repr, judged)) == sorted(map(repr, NEVER))
    assert len(BY_RULING) < len(NEVER)   # some rulings hold several conditions


@pytest.mark.parametrize("ruling", list(BY_RULING))
def test_a_proved_impossibility_holds_on_random_reference_games(ruling: str) -> None:
    """Each proved condition is met by none of GAMES random games on the reference (2 to
    5 players, every seating drawn, the three policies): together several thousand. The
    conditions proved under one ruling are judged on one playing of its games."""
    flags, names = BY_RULING[ruling]
    conditions = [(name, _condition(name)) for name in names]
    rules = make_rules(flags)
    for seed in range(GAMES):
        players = 2 + seed % 4
        first = seed % players
        colours = tuple(COLOURS[(seed + i) % len(COLOURS)] for i in range(players))
        config = make_config(players, colours=colours, first_player=first, variants=rules)
        game = playout(config, seed, ("random", "simple", "careful")[seed % 3])
        for name, cond in conditions:
            assert not meets(cond, game, {}), (name, ruling, seed)


COUNTED = [{"count": count, **({"kind": kind} if kind else {})}
           for count in ("hand", "ingredients", "delivered", "waiter", "mamma_mia", "round",
                         "supply", "oven", "table", "used")
           for kind in (None, "pineapple")
           if not (kind and count in ("delivered", "waiter", "mamma_mia", "round"))]


@pytest.mark.parametrize("flags", [{}, {"round_end": "last_ingredient",
                                        "completion": "mandatory"}],
                         ids=["defaults", "last_ingredient-mandatory"])
def test_no_count_a_reference_game_reaches_is_proved_out_of_reach(
        flags: dict[str, str]) -> None:
    """Every count of the language (each pile and seat, some kinds) at every state the
    reference stops at (inside a turn, inside an opening where an owner decides, before
    the first orders and a round's shuffle) in 24 random games of 2 players: the most it
    reaches is never proved out of reach (``at_least`` that many), and a proof of one
    more holds on every state of those games."""
    rules = make_rules(flags)
    most = [0] * len(COUNTED)
    for seed in range(24):
        colours = tuple(COLOURS[(seed + i) % len(COLOURS)] for i in range(2))
        config = make_config(2, colours=colours, first_player=seed % 2, variants=rules)
        game = playout(config, seed, ("random", "simple", "careful")[seed % 3])
        for i, cond in enumerate(COUNTED):
            most[i] = max([most[i], *[n for _a, _e, s in game.steps
                                      for n in state_count(s, cond)]])
    proved_beyond = 0
    for cond, m in zip(COUNTED, most, strict=True):
        reached = prove_never({"state": {**cond, "at_least": m}}, 2, rules)
        assert not reached.proved, (cond, m, reached.how)
        proved_beyond += prove_never({"state": {**cond, "at_least": m + 1}}, 2, rules).proved
    assert proved_beyond >= 4   # the hand limit, one Mamma Mia! card, three rounds, ...


OPENING_EVENTS = ("baked", "failed", "completed_from_hand", "named_kind")
"""The events only an opening's reveal emits under the defaults: each gives a lead."""


def test_a_failed_proof_leads_only_where_an_opening_alone_emits_the_events() -> None:
    """A lead (the proof's counterexamples reveal steps alone) for the opening's events,
    alone, under ``all:``, ``any:``, spans and seat variables; none where a turn or a
    round's preparation can emit an event, where the condition judges more than events
    (a ``not:``, a state count, a count at most), or where the model does not follow the
    rules."""
    rules = make_rules({})
    for name in OPENING_EVENTS:
        assert lead({"event": name}, 2, rules) == Lead((name,))
    both = {"some_seat": "s", "holds": {"within": {"round": 2}, "holds": {"all": [
        {"event": "baked", "where": {"seat": "s"}}, {"event": "failed", "where": {"seat": "s"}}]}}}
    assert lead(both, 3, rules) == Lead(("baked", "failed"))
    for name in ("placed_order", "played", "passed", "drew", "mamma_mia_drawn",
                 "mamma_mia_taken", "round_ended", "oven_opened", "leftovers_to_oven",
                 "game_ended", "revealed"):
        assert lead({"event": name}, 2, rules) is None, name
    for cond in ({"not": {"event": "baked"}}, {"event": "baked", "at_most": 2},
                 {"any": [{"event": "baked"}, {"event": "placed_order"}]},
                 {"all": [{"event": "baked"}, {"state": {"count": "hand", "at_least": 3}}]}):
        assert lead(cond, 2, rules) is None, cond
    assert lead({"event": "baked"}, 2, make_rules({"leftovers": "table"})) is None


def test_no_lead_where_well_formedness_is_not_proved(monkeypatch: pytest.MonkeyPatch) -> None:
    """A lead rests on what no well-formed state's turn or round's preparation can emit:
    under the mutant of the test above (well-formedness no longer inductive) it gives no
    lead, as the proof claims no "never"."""
    from mammamia_ref.queries.answering import unbounded
    from mammamia_ref.queries.model import game_model

    rules = make_rules({})
    unbounded.well_formed_holds.cache_clear()
    try:
        with monkeypatch.context() as patch:
            patch.setattr(game_model, "round_end_stall", lambda *_args: N.BoolVal(False))
            assert lead({"event": "baked"}, 2, rules) is None
    finally:
        unbounded.well_formed_holds.cache_clear()
    assert lead({"event": "baked"}, 2, rules) == Lead(("baked",))   # the model itself


def test_the_events_a_lead_names_come_after_the_rounds_opening_in_reference_games() -> None:
    """What a lead rests on, held to the reference: in 60 random games (2 to 5 players,
    every seating drawn, the three policies), every event :func:`lead` gives a lead for
    comes after its round's ``oven_opened``, with no turn begun since; so a game cut
    while its last round is still open holds none of them from that round."""
    rules = make_rules({})
    led = [name for name in EVENTS if lead({"event": name}, 2, rules)]
    assert sorted(led) == sorted(OPENING_EVENTS)
    seen = dict.fromkeys(led, 0)
    for seed in range(60):
        players = 2 + seed % 4
        colours = tuple(COLOURS[(seed + i) % len(COLOURS)] for i in range(players))
        config = make_config(players, colours=colours, first_player=seed % players,
                             variants=rules)
        game = playout(config, seed, ("random", "simple", "careful")[seed % 3])
        opened = False
        for _action, events, _state in game.steps:
            for e in events:
                opened = (opened or e.name == "oven_opened") and e.name != "turn_begins"
                if e.name in seen:
                    assert opened, (e.name, seed)
                    seen[e.name] += 1
    assert all(seen.values()), seen   # each was met, so each was checked


@pytest.mark.parametrize(("cond", "players", "turns", "verdict"), [
    ({"event": "named_kind", "where": {"order_type": "minimale", "on_table": 0}}, 2, 5, "none"),
    ({"event": "failed", "at_least": 2}, 3, 6, "found"),
], ids=["minimale-named-absent-2p", "two-fail-3p"])
def test_a_bounded_answer_is_the_same_with_its_lead(
        cond: dict[str, Any], players: int, turns: int, verdict: str) -> None:
    """The game model's answer within a bound is the same with the lead as without it,
    in fewer runs (the schedules whose last round is open left out); a "none" says so."""
    rules = make_rules({})
    led = lead(cond, players, rules)
    assert led is not None
    without = prove_or_find(cond, players, rules, {"turns": turns}, 120)
    got = prove_or_find(cond, players, rules, {"turns": turns}, 120, led)
    assert (without.verdict, got.verdict) == (verdict, verdict)
    assert got.schedules < without.schedules
    assert ("last round is still open left out" in got.detail) == (verdict == "none")


LEAD_CELLS: list[tuple[dict[str, Any], int, dict[str, str], int]] = [
    ({"event": "baked", "at_least": 2}, 2, {}, 5),
    ({"event": "failed", "where": {"order_type": "monotoni"}}, 2, {}, 6),
    ({"event": "completed_from_hand"}, 2, {"completion": "mandatory"}, 6),
    ({"event": "baked", "where": {"order_type": "bombastica"}}, 2,
     {"bombastica_hand": "forbidden"}, 6),
    ({"all": [{"event": "baked", "where": {"seat": "red"}},
              {"event": "failed", "where": {"seat": "yellow"}}]}, 2, {}, 6),
    ({"any": [{"event": "named_kind", "where": {"on_table": 0}},
              {"event": "completed_from_hand", "at_least": 2}]}, 2, {}, 5),
    ({"within": {"round": 2}, "holds": {"event": "baked"}}, 2, {}, 5),
    ({"some_seat": "s", "holds": {"event": "baked", "where": {"seat": "s"},
                                  "at_least": 3}}, 2, {}, 5),
    ({"event": "baked", "then": {"count": "table", "at_least": 6}}, 2, {}, 6),
    ({"within": {"before": {"event": "mamma_mia_drawn"}},
      "holds": {"event": "baked", "at_least": 2}}, 2, {}, 6),
    ({"event": "failed", "where": {"could_bake": True}}, 2, {}, 5),
    ({"event": "baked", "at_least": 2}, 2, {"round_end": "last_ingredient"}, 6),
    ({"event": "failed", "at_least": 4}, 2, {}, 5),
    ({"all": [{"event": "baked", "at_least": 2}, {"event": "failed", "at_least": 2}]}, 2,
     {}, 4),
]
"""Cells of the lead's kind, "found" and "none" both, over the flags and forms it takes
(about a minute and a half of CPU in all: with ``MAMMAMIA_SLOW=1`` only)."""


@pytest.mark.skipif(os.environ.get("MAMMAMIA_SLOW") != "1", reason="slow: MAMMAMIA_SLOW=1")
@pytest.mark.parametrize(("cond", "players", "flags", "turns"), LEAD_CELLS)
def test_the_lead_changes_no_verdict(cond: dict[str, Any], players: int,
                                     flags: dict[str, str], turns: int) -> None:
    """The game model's verdict within the bound, with the lead and without, is the same
    on every cell of :data:`LEAD_CELLS`."""
    rules = make_rules(flags)
    led = lead(cond, players, rules)
    assert led is not None
    without = prove_or_find(cond, players, rules, {"turns": turns}, 300)
    assert prove_or_find(cond, players, rules, {"turns": turns}, 300, led).verdict == \
        without.verdict != "unknown"


def test_a_lead_leaves_out_every_game_whose_last_round_is_open() -> None:
    """Why a lead needs its proof: two orders placed within 3 turns of two players, which
    only a round still open holds, is found without a lead, has none of its own (a turn
    emits ``placed_order``), and a lead forced on it would answer "none"."""
    rules = make_rules({})
    cond = {"event": "placed_order", "at_least": 2}
    assert prove_or_find(cond, 2, rules, {"turns": 3}, 60).verdict == "found"
    assert lead(cond, 2, rules) is None
    forced = prove_or_find(cond, 2, rules, {"turns": 3}, 60, Lead(("placed_order",)))
    assert forced.verdict == "none"
