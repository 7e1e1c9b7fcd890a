"""What a player may know: ``observation(state, player)``, its JSON form and schema, the
information rules one by one, and the property that matters to every policy: states
that differ only in hidden cards look the same, have the same legal actions, and get
the same decision from a policy that sees only its observation."""

from __future__ import annotations

import itertools
import json
import random
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mammamia_ref import apply, legal_actions, make_config, new_game, to_move
from mammamia_ref.errors import MalformedError, MammamiaError
from mammamia_ref.formats.jsonform import check_state, format_state, parse_state
from mammamia_ref.formats.scenario import complete_state, load_all
from mammamia_ref.kit.cases import run_scenario_case
from mammamia_ref.kit.client import Implementation
from mammamia_ref.kit.protocol import serve
from mammamia_ref.rules.observation import (
    OBSERVATION_FORMAT,
    IngredientRun,
    OvenOrder,
    observation,
    observation_errors,
    observation_from_json,
)
from mammamia_ref.rules.state import GameState, Hand, variant_defaults
from mammamia_ref.rules.vocabulary import KIND_INDEX, KINDS, MAMMA_MIA, ORDERS, cards_of, counts_of
from mammamia_ref.sim.play import play_game
from mammamia_ref.sim.policies import POLICIES, get_policy
from mammamia_ref.tools.strategies import configs, play_seeded

ROOT = Path(__file__).resolve().parent.parent
INFO_FLAGS = ({}, {"oven_memory": "seen"}, {"card_counts": "hidden"}, {"used_pile": "open"},
              {"oven_memory": "seen", "card_counts": "hidden", "used_pile": "open"})


def states_of(players: int, variants: dict[str, str], seed: int, policy: str = "simple"
              ) -> list[GameState]:
    record = play_game(make_config(players, variants=variants), seed,
                       [POLICIES[policy]] * players)
    state, states = new_game(record.config), []
    for action, _ in record.steps:
        state = apply(state, action)[0]
        states.append(state)
    return states


def state_from(partial: dict, variants: dict[str, str] | None = None) -> GameState:
    return parse_state(complete_state(partial, variants or {}))


# --- hidden information: a state re-dealt behind the observer's back -------------------


def redeal_hidden(state: GameState, player: int | None, rng: random.Random) -> GameState:
    """A state that ``player`` cannot tell from ``state``: the supply and every waiter
    reshuffled, the ingredient cards nobody shows (other hands, the supply, a closed used
    pile) dealt anew into the same places and sizes, and each other seat's hidden orders
    (hand, waiter, covered in the oven under oven_memory=announced) shuffled among their
    places."""
    variants = state.rules
    others = [s for s in range(state.players) if s != player]
    used_hidden = variants.flags.used_pile == "closed"
    pool = list(cards_of(counts_of(state.supply)))
    for seat in others:
        pool += cards_of(state.hands[seat].ingredients)
    if used_hidden:
        pool += cards_of(state.used)
    rng.shuffle(pool)

    def take(n: int) -> tuple[str, ...]:
        taken = tuple(pool[:n])
        del pool[:n]
        return taken

    supply_kinds = list(take(sum(counts_of(state.supply))))
    supply = [card if card == MAMMA_MIA else supply_kinds.pop() for card in state.supply]
    rng.shuffle(supply)
    hands = list(state.hands)
    for seat in others:
        size = sum(hands[seat].ingredients)
        hands[seat] = replace(hands[seat], ingredients=counts_of(take(size)))
    used = counts_of(take(sum(state.used))) if used_hidden else state.used
    waiters = [list(w) for w in state.waiters]
    oven = list(state.oven)
    top = len(oven) - 1 if state.phase != "oven" else None
    for seat in others:
        colour = state.colour(seat)
        covered = [i for i, card in enumerate(oven) if card in ORDERS and
                   ORDERS[card].colour == colour and i != top
                   and variants.flags.oven_memory == "announced"]
        orders = list(hands[seat].orders) + waiters[seat] + [oven[i] for i in covered]
        rng.shuffle(orders)
        n_hand = len(hands[seat].orders)
        hands[seat] = replace(hands[seat], orders=tuple(sorted(orders[:n_hand])))
        waiters[seat] = orders[n_hand:n_hand + len(waiters[seat])]
        for i, card in zip(covered, orders[n_hand + len(waiters[seat]):], strict=True):
            oven[i] = card
    if player is not None:
        rng.shuffle(waiters[player])  # face down even to its owner
    redealt = replace(state, supply=tuple(supply), hands=tuple(hands), used=used,
                      waiters=tuple(tuple(w) for w in waiters), oven=tuple(oven))
    check_state(redealt)
    return redealt


@st.composite
def positions(draw: st.DrawFn) -> tuple[GameState, int | None, int]:
    """A reachable state (from uniformly random or policy play), an observer and a seed."""
    config = draw(configs())
    seed = draw(st.integers(0, 10_000))
    if draw(st.booleans()):
        game = [s for s, _ in play_seeded(config, seed, max_steps=400)]
    else:
        record = play_game(config, seed, [POLICIES[draw(st.sampled_from(["simple", "careful"]))]]
                           * config.players)
        game, state = [], new_game(config)
        for action, _ in record.steps[:400]:
            state = apply(state, action)[0]
            game.append(state)
    state = game[draw(st.integers(0, len(game) - 1))]
    mover = to_move(state)
    player = draw(st.sampled_from([None, *range(state.players)] if mover is None else
                                  [mover, mover, None, *range(state.players)]))
    return state, player, draw(st.integers(0, 2**32 - 1))


@given(positions())
def test_hidden_cards_do_not_change_the_observation(position) -> None:
    state, player, seed = position
    other = redeal_hidden(state, player, random.Random(seed))
    assert observation(other, player) == observation(state, player)
    assert observation(other, player).to_json() == observation(state, player).to_json()


@given(positions())
@settings(max_examples=40)
def test_same_observation_same_legal_actions_same_choice(position) -> None:
    state, _, seed = position
    seat = to_move(state)
    if seat is None:
        return
    other = redeal_hidden(state, seat, random.Random(seed))
    legal = legal_actions(state)
    assert legal_actions(other) == legal
    for name in ("simple", "careful", "random", "search:3:2"):
        policy = get_policy(name)  # the search player: a small budget, at this fixed seed
        assert policy(other, legal, random.Random(seed)) == \
            policy(state, legal, random.Random(seed)), name


def test_the_redeal_has_teeth() -> None:
    """A policy that peeks at the supply is caught by the same comparison: the redeal
    really moves hidden cards."""

    def peeking(state, legal, rng):
        return legal[KINDS.index(state.supply[0]) % len(legal)] \
            if state.supply and state.supply[0] in KINDS else legal[0]

    caught = 0
    for seed, state in enumerate(states_of(3, {}, 4)):
        if to_move(state) is None or len(legal_actions(state)) < 2:
            continue
        other = redeal_hidden(state, to_move(state), random.Random(seed))
        assert observation(other, to_move(state)) == observation(state, to_move(state))
        caught += peeking(other, legal_actions(other), None) != \
            peeking(state, legal_actions(state), None)
    assert caught > 5


def test_what_others_do_in_the_open_changes_the_observation() -> None:
    """The converse, for public and own cards: every step of a game that moves a card
    where the observer can see it changes what the observer knows."""
    states = states_of(2, {}, 11)
    for before, after in itertools.pairwise(states):
        if before.oven != after.oven or before.delivered != after.delivered or \
                before.hands[0] != after.hands[0] or before.table != after.table:
            assert observation(before, 0) != observation(after, 0)


# --- the JSON form -----------------------------------------------------------------------


@pytest.mark.parametrize("variants", INFO_FLAGS, ids=lambda v: ",".join(v.values()) or "default")
def test_round_trip_and_schema_along_games(variants) -> None:
    players = 2 + len(variants) % 4
    for state in states_of(players, variants, len(variants))[::12]:
        for player in (None, *range(players)):
            seen = observation(state, player)
            doc = seen.to_json()
            assert observation_errors(doc) == []
            assert doc["format"] == OBSERVATION_FORMAT
            text = json.loads(json.dumps(doc))
            assert observation_from_json(text) == seen
            assert observation_from_json(text).to_json() == doc


def _a_doc() -> dict:
    state = state_from({"players": [{"colour": "green", "hand": {"orders": ["green.salami4"],
                                                                   "ingredients": {"salami": 2}}},
                                    {"colour": "red"}],
                        "oven": ["salami", "red.olive4", "olive", "olive"],
                        "supply": ["pepper", "mamma_mia"]})
    return observation(state, 0).to_json()


@pytest.mark.parametrize("change, where", [
    (lambda d: d.pop("oven"), "/"),
    (lambda d: d.update(player=7), "/player"),
    (lambda d: d.update(player=None), "/hand"),
    (lambda d: d.update(current=3), "/current"),
    (lambda d: d["oven"]["stack"].append({"kind": "olive", "count": 1}), "/oven/stack/3"),
    (lambda d: d["oven"]["stack"].append({"colour": "red", "order": "green.olive4"}),
     "/oven/stack/3"),
    (lambda d: d["oven"]["stack"].append({"colour": "yellow", "order": None}), "/oven/stack/3"),
    (lambda d: d["variants"].pop("used_pile"), "/variants"),
    (lambda d: d["variants"].update(used_pile="ajar"), "/players"),
    (lambda d: d["players"][1]["delivered"].append("green.olive4"), "/players/1/delivered"),
    (lambda d: d["table"].pop("olive"), "/table"),
    (lambda d: d.update(extra=1), "/"),
])
def test_a_bad_document_is_refused_with_where(change, where) -> None:
    doc = _a_doc()
    assert observation_from_json(doc).to_json() == doc
    change(doc)
    with pytest.raises(MalformedError) as caught:
        observation_from_json(doc)
    assert caught.value.where == where
    assert isinstance(caught.value, ValueError)


@pytest.mark.parametrize("player", [2, -1, "green", 1.0])
def test_observation_refuses_a_seat_that_is_not_one(player) -> None:
    with pytest.raises(MammamiaError):
        observation(new_game(make_config(2)), player)


# --- the rules one by one ----------------------------------------------------------------


def _oven_state(variants: dict[str, str] | None = None, phase: str = "turn") -> GameState:
    partial = {"players": [{"colour": "green", "hand": {"ingredients": {"pepper": 2},
                                                        "orders": ["green.olive4"]}},
                           {"colour": "red", "hand": {"ingredients": {"olive": 1}}},
                           {"colour": "yellow"}],
               "oven": ["salami", "salami", "green.salami4", "salami", "red.olive4", "olive",
                        "yellow.one_of_each"],
               "supply": ["pepper", "pepper", "mamma_mia"]}
    return state_from(partial, variants)


def test_oven_announced_hides_covered_orders_of_others() -> None:
    """information.oven_announced: runs as announced, own orders, the top card; others'
    covered orders only by colour."""
    seen = observation(_oven_state(), 1)
    assert seen.oven == (IngredientRun("salami", 2), OvenOrder("green", None),
                         IngredientRun("salami", 1), OvenOrder("red", "red.olive4"),
                         IngredientRun("olive", 1), OvenOrder("yellow", "yellow.one_of_each"))
    assert seen.oven_top == "yellow.one_of_each"
    assert seen.oven_ingredients() == (3, 0, 0, 0, 1)
    spectator = observation(_oven_state(), None)
    assert [e.order for e in spectator.oven if isinstance(e, OvenOrder)] == \
        [None, None, "yellow.one_of_each"]


def test_oven_seen_shows_every_order() -> None:
    """information.oven_seen."""
    seen = observation(_oven_state({"oven_memory": "seen"}), None)
    assert [e.order for e in seen.oven if isinstance(e, OvenOrder)] == \
        ["green.salami4", "red.olive4", "yellow.one_of_each"]


def test_nothing_is_on_top_while_the_oven_is_opened() -> None:
    """During the opening the stack is face down in the holder's hand."""
    for state in states_of(3, {}, 5):
        seen = observation(state, 0)
        if state.phase == "oven":
            assert seen.oven_top is None
        elif state.oven:
            assert seen.oven_top == state.oven[-1]


def test_counts_public_and_hidden() -> None:
    """information.counts and information.counts_hidden; the own hand and waiter are
    always known (information.face_down)."""
    public = observation(_oven_state(), 0)
    assert public.supply_size == 3
    assert [v.hand_size for v in public.seats] == [(2, 1), (1, 0), (0, 0)]
    assert [v.waiter_size for v in public.seats] == [6, 7, 7]
    hidden = observation(_oven_state({"card_counts": "hidden"}), 0)
    assert hidden.supply_size is None and hidden.used_size is None
    assert [v.hand_size for v in hidden.seats] == [(2, 1), None, None]
    assert [v.waiter_size for v in hidden.seats] == [6, None, None]


def test_used_pile_closed_and_open() -> None:
    """information.used_closed and information.used_open."""
    state = _oven_state()
    assert observation(state, 0).used is None
    assert observation(state, 0).used_size == sum(state.used) > 0
    opened = observation(_oven_state({"used_pile": "open"}), 2)
    assert opened.used == state.used
    both = observation(_oven_state({"used_pile": "open", "card_counts": "hidden"}), 2)
    assert both.used_size == sum(state.used)


def test_hands_are_private_and_face_up_cards_public() -> None:
    """information.hands and information.face_up."""
    state = _oven_state()
    assert observation(state, 0).hand == state.hands[0]
    assert observation(state, 1).hand == Hand(state.hands[1].ingredients, ())
    assert observation(state, None).hand is None
    for player in (None, 0, 1, 2):
        seen = observation(state, player)
        assert seen.table == state.table and seen.box == state.box
        assert seen.mamma_mia == state.mamma_mia and seen.reveal == state.reveal
        assert [v.delivered for v in seen.seats] == list(state.delivered)
        assert seen.rules == state.rules


def test_own_waiter_can_be_worked_out() -> None:
    """information.face_down: the owner can tell which orders its waiter holds from its
    observation alone (its eight orders less those it sees or placed)."""
    for variants in ({}, {"card_counts": "hidden"}):
        for state in states_of(3, variants, 8, policy="careful")[::5]:
            for seat in range(state.players):
                seen = observation(state, seat)
                colour = state.colour(seat)
                elsewhere = set(seen.hand.orders) | set(seen.seats[seat].delivered)
                elsewhere |= {e.order for e in seen.oven if isinstance(e, OvenOrder)
                              and e.colour == colour}
                if seen.reveal is not None:
                    elsewhere.add(seen.reveal.order)
                mine = {o for o in ORDERS if ORDERS[o].colour == colour}
                assert mine - elsewhere == set(state.waiters[seat])
                assert seen.seats[seat].waiter_size == len(state.waiters[seat])


def test_the_kinds_are_in_manifest_order() -> None:
    seen = observation(_oven_state(), 0).to_json()
    assert list(seen["table"]) == list(KINDS) == list(seen["hand"]["ingredients"])
    assert KIND_INDEX["salami"] == 0


# --- scenarios and the conformance kit ---------------------------------------------------


def test_information_scenarios_pass_and_cover_every_flag_value() -> None:
    from mammamia_ref.sim.scenario_run import run_scenario

    scenarios, errors = load_all([ROOT / "scenarios" / "information"])
    assert not errors
    shown: dict[str, set[str]] = {}
    for scenario in scenarios:
        for result in run_scenario(scenario):
            assert result.passed, (result.name, result.failure)
        for run in scenario.runs:
            for flag, value in {**variant_defaults(), **run.variants}.items():
                shown.setdefault(flag, set()).add(value)
    shown = {flag: values for flag, values in shown.items() if len(values) > 1}
    assert shown == {"oven_memory": {"announced", "seen"}, "card_counts": {"public", "hidden"},
                     "used_pile": {"closed", "open"}}


def test_a_wrong_observation_expectation_fails_with_its_pointer(tmp_path: Path) -> None:
    from mammamia_ref.formats.scenario import load_scenario
    from mammamia_ref.sim.scenario_run import run_scenario

    source = (ROOT / "scenarios" / "information" / "covered-order.yaml").read_text("utf-8")
    broken = source.replace("stack: [{kind: salami, count: 3}, {colour: green, order: null},\n"
                            "                          {kind: mushroom, count: 2}]",
                            "stack: [{kind: salami, count: 3}, {colour: green, order: "
                            "green.salami4},\n                          {kind: mushroom, "
                            "count: 2}]", 1)
    assert broken != source
    path = tmp_path / "covered-order.yaml"
    path.write_text(broken, "utf-8")
    results = run_scenario(load_scenario(path))
    assert not results[0].passed and results[1].passed
    assert "observation[red]/oven/stack/1/order: expected \"green.salami4\", got null" in \
        results[0].failure


def test_an_unknown_colour_in_an_observation_expectation_is_a_failure(tmp_path: Path) -> None:
    from mammamia_ref.formats.scenario import load_scenario
    from mammamia_ref.sim.scenario_run import run_scenario

    path = tmp_path / "purple-eyes.yaml"
    path.write_text("id: purple-eyes\ntitle: t\nrules: [information.hands]\n"
                    "given: {setup: {players: 2}}\n"
                    "steps: [{expect: {observation: [{player: purple, view: {}}]}}]\n", "utf-8")
    [result] = run_scenario(load_scenario(path))
    assert not result.passed and "no seat has the colour purple" in result.failure


BROKEN_SERVER = """
import dataclasses
import sys
from mammamia_ref.rules import observation as module
from mammamia_ref.kit import protocol
original = module.observation
def leaky(state, player):
    seen = original(state, player)
    # remembers every covered order: ignores oven_memory=announced
    orders = iter([card for card in state.oven if "." in card])
    remembered = tuple(module.OvenOrder(e.colour, next(orders))
                       if isinstance(e, module.OvenOrder) else e for e in seen.oven)
    return dataclasses.replace(seen, oven=remembered)
protocol.observation = leaky
sys.exit(protocol.serve())
"""


@pytest.mark.slow  # drives an implementation as a subprocess
def test_conformance_catches_a_leaky_observation_and_names_the_rule(tmp_path: Path) -> None:
    script = tmp_path / "leaky.py"
    script.write_text(BROKEN_SERVER, "utf-8")
    scenarios, _ = load_all([ROOT / "scenarios" / "information" / "covered-order.yaml"])
    [scenario] = scenarios
    with Implementation([sys.executable, str(script)], cwd=str(ROOT)) as impl:
        impl.start()
        announced, seen = (run_scenario_case(impl, scenario, run) for run in scenario.runs)
    assert seen.status == "pass"
    assert announced.status == "fail" and announced.step == 3
    assert announced.rules[0] == "information.oven_announced"
    assert "the observation of red differs" in announced.message


@pytest.mark.slow  # drives an implementation as a subprocess
def test_conformance_skips_observation_scenarios_without_the_feature() -> None:
    scenarios, _ = load_all([ROOT / "scenarios" / "information" / "used-pile.yaml"])
    with Implementation([sys.executable, "-m", "mammamia_ref", "serve"], cwd=str(ROOT)) as impl:
        impl.start()
        assert "observation" in impl.info["features"]
        impl.info["features"] = ["load_state", "events"]
        result = run_scenario_case(impl, scenarios[0], scenarios[0].runs[0])
    assert result.status == "skip" and "observation" in result.message


def test_the_protocol_answers_observations() -> None:
    import io

    from mammamia_ref.formats.jsonform import _validator
    from mammamia_ref.kit import PROTOCOL
    from mammamia_ref.kit.versions import current

    state = _oven_state()
    requests = [{"id": 1, "op": "hello", "protocol": PROTOCOL},
                {"id": 2, "op": "load_state", "state": format_state(state)},
                {"id": 3, "op": "observation", "player": 1},
                {"id": 4, "op": "observation", "player": None},
                {"id": 5, "op": "observation", "player": 9},
                {"id": 6, "op": "observation", "player": "red"}]
    out = io.StringIO()
    serve(io.StringIO("".join(json.dumps(r) + "\n" for r in requests)), out)
    answers = [json.loads(line) for line in out.getvalue().splitlines()]
    assert "observation" in answers[0]["features"]
    assert answers[2]["observation"] == observation(state, 1).to_json()
    assert answers[3]["observation"]["hand"] is None
    assert answers[4]["ok"] is False and answers[5]["ok"] is False
    checker = _validator(current().schema)
    for request, answer in zip(requests, answers, strict=True):
        errors = list(checker.evolve(schema={"$ref": f"{current().schema}#/$defs/request"})
                      .iter_errors(request))
        assert bool(errors) == (request["id"] >= 5), request
        assert not list(checker.evolve(schema={"$ref": f"{current().schema}#/$defs/answer"})
                        .iter_errors(answer))
