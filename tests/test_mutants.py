"""Tests that kill mutants of the rules modules (mutation testing, docs/mutation.md).

The broad ones are cheap differential games: the reference and the independent fast
engine play the same seeded game under every value of every variant flag and must agree
after every step. They stand in for the much longer tests/test_fast_equivalence.py
inside the mutation run, where each surviving mutant runs every test that reaches it.
"""

from __future__ import annotations

import importlib
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from mammamia_ref.errors import IllegalActionError
from mammamia_ref.formats.jsonform import format_state
from mammamia_ref.formats.safeyaml import load_file
from mammamia_ref.formats.scenario import given_state
from mammamia_ref.rules.chance import ChanceSource
from mammamia_ref.rules.events import Event
from mammamia_ref.rules.game import (
    apply,
    chance_pile,
    is_chance,
    is_over,
    legal_actions,
    new_game,
    winners,
)
from mammamia_ref.rules.state import make_config, variant_defaults, variant_values
from mammamia_ref.sim import fast
from mammamia_ref.sim.policies import POLICIES, Policy, random_policy

ROOT = Path(__file__).resolve().parent.parent

# Every non-default value of every flag, one at a time, and the defaults.
ONE_FLAG = [{}] + [{flag: value} for flag, values in variant_values().items()
                   for value in values if value != variant_defaults()[flag]]


def _mixed(seed: int) -> dict[str, str]:
    rng = random.Random(f"mutants-mixed:{seed}")
    return {flag: rng.choice(values) for flag, values in variant_values().items()}


def play_both(players: int, variants: dict[str, str], seed: int,
              policy: Policy = random_policy) -> None:
    """One game on both engines; state JSON and legal actions must agree at every step."""
    config = make_config(players, variants=variants, first_player=seed % players)
    ref, quick = new_game(config), fast.new_game(config)
    chance, rng = ChanceSource(seed), random.Random(seed)
    where = f"{players}p {variants} seed {seed}"
    for step in range(3000):
        assert quick.to_json() == format_state(ref), f"{where}, step {step}"
        if is_over(ref):
            assert fast.winners(quick) == winners(ref), where
            return
        if variants.get("stall") == "letter" and ref.quiet_turns >= players:
            return  # this round would never end (dispute D7)
        if is_chance(ref):
            assert chance_pile(ref)[0] == fast.chance_pile(quick)[0], where
            action = chance.shuffle(ref)
            fast.apply_shuffle(quick, fast.shuffle_order(quick, action))
        else:
            legal = list(legal_actions(ref))
            assert [fast.action_of(c) for c in fast.legal_actions(quick)] == legal, where
            action = policy(ref, legal, rng)
            fast.apply(quick, fast.action_code(action))
        ref, _ = apply(ref, action)
    pytest.fail(f"{where}: no end")


@pytest.mark.parametrize("index", range(len(ONE_FLAG)))
def test_reference_equals_fast_engine_under_each_flag(index: int) -> None:
    variants = ONE_FLAG[index]
    play_both(2 + index % 4, variants, index)
    play_both(2 + (index + 2) % 4, variants, 100 + index, POLICIES["simple"])


@pytest.mark.parametrize("seed", range(8))
def test_reference_equals_fast_engine_under_mixed_flags(seed: int) -> None:
    play_both(2 + seed % 4, _mixed(seed), 200 + seed, POLICIES["simple"] if seed % 2 else
              random_policy)


# --- the texts people read: rejection messages and the reasons orders fail -------------

MESSAGES = {
    "a player holding ingredient cards must play at least one [turn.pass]",
    "an owner who can complete must complete [oven.complete_mandatory]",
    "these hand cards do not complete the order exactly [oven.bombastica]",
    "these hand cards do not complete the order exactly [oven.complete_from_hand]",
    "under draw_amount=any the draw names its count [turn.draw_fewer]",
    "a draw takes every card the refill allows, not a chosen count [turn.draw]",
    "Pass is not the decision here (the game is over) [game_end.three_resolutions]",
    "Pass is not the decision here (the ingredients pile must be shuffled) [setup.deal]",
    "PlaceOrder is not the decision here (seat 0 must decide: draw) [turn.pass]",
    "pineapple cannot be named for yellow.monotoni here [oven.monotoni]",
    "cannot play 4 mushroom: the hand holds 3 [turn.play]",
    "red.monotoni is not in the hand [turn.place_order]",
    "cannot draw 5: the refill allows 4 [turn.draw_fewer]",
    "the pile to shuffle is ingredients, not supply [setup.deal]",
    "the order given for supply is not a shuffle of its cards [setup.supply]",
}

FAIL_REASONS = {
    ("oven.bombastica_table_only", "the table holds fewer than 15"),
    ("oven.complete_from_hand", "the owner declined"),
    ("oven.fail", "the table and the hand fall short"),
    ("oven.fail", "the table and the hand hold fewer than 15"),
    ("oven.minimale", "no kind can be named"),
    ("oven.minimale_all_kinds", "no kind can be named"),
    ("oven.monotoni_on_table", "no kind can be named"),
}


# Each event's keys and the types of their values, and the rules that may decide it. A
# "drew" event lists the cards only when they came from the supply.
_SEAT_ORDER = (("seat", int), ("order", str))
EVENTS: dict[str, tuple[set[tuple[tuple[str, type], ...]], set[str]]] = {
    "dealt": ({(("cards", int), ("players", int))}, {"setup.deal"}),
    "mamma_mia_dealt": ({(("seat", int),)}, {"mamma_mia.dealt"}),
    "mamma_mia_joined_supply": ({()}, {"setup.supply"}),
    "took_first_orders": ({()}, {"setup.waiter"}),
    "turn_begins": ({(("seat", int), ("round", int))},
                    {"setup.first_player", "turn.clockwise", "next_round.first_player"}),
    "played": ({(("seat", int), ("kind", str), ("count", int))}, {"turn.play"}),
    "passed": ({(("seat", int),)}, {"turn.pass"}),
    "placed_order": ({_SEAT_ORDER}, {"turn.place_order", "turn.pass_with_order"}),
    "drew": ({(("seat", int), ("source", str), ("count", int)),
              (("seat", int), ("source", str), ("count", int), ("cards", dict))},
             {"turn.draw", "turn.draw_short", "turn.draw_as_played", "turn.draw_fewer",
              "turn.draw_both"}),
    "mamma_mia_drawn": ({(("seat", int),)}, {"mamma_mia.draw"}),
    "mamma_mia_taken": ({(("seat", int),)}, {"round_end.last_ingredient", "round_end.stall"}),
    "round_ended": ({(("round", int),)},
                    {"round_end.last_card", "round_end.last_ingredient", "round_end.stall"}),
    "oven_opened": ({(("seat", int), ("cards", int))}, {"mamma_mia.holder"}),
    "revealed": ({(("card", str),), (("card", str), ("owner", int))}, {"oven.sort", "oven.open"}),
    "needs": ({(("order", str), ("cards", dict)), (("order", str), ("total", int))},
              {"oven.standard", "oven.one_of_each", "oven.bombastica", "oven.monotoni",
               "oven.minimale"}),
    "named_kind": ({(("order", str), ("kind", str))},
                   {"oven.monotoni", "oven.monotoni_on_table", "oven.minimale",
                    "oven.minimale_all_kinds"}),
    "completed_from_hand": ({(*_SEAT_ORDER, ("cards", dict))},
                            {"oven.complete_from_hand", "oven.complete_mandatory"}),
    "baked": ({(*_SEAT_ORDER, ("used", dict))}, {"oven.bake", "oven.bombastica"}),
    "failed": ({(*_SEAT_ORDER, ("why", str))},
               {"oven.fail", "oven.complete_from_hand", "oven.bombastica_table_only",
                "oven.monotoni_on_table", "oven.minimale", "oven.minimale_all_kinds"}),
    "leftovers_to_oven": ({(("cards", int),)}, {"next_round.oven"}),
    "leftovers_stay": ({(("cards", int),)}, {"next_round.leftovers_on_table"}),
    "supply_gathered": ({(("cards", int),)}, {"next_round.supply"}),
    "game_ended": ({(("resolutions", int),)}, {"game_end.three_resolutions"}),
    "winners": ({(("seats", list), ("delivered", list))},
                {"game_end.most_delivered", "game_end.tie_break", "game_end.shared_win",
                 "game_end.seat_order_win"}),
}


def reads_the_corpus(test: Any) -> Any:
    """The replay reads the corpus that tests/conftest.py loads once per worker."""
    return pytest.mark.corpus(pytest.mark.xdist_group("corpus")(test))


@dataclass
class Replay:
    messages: set[str] = field(default_factory=set)
    reasons: set[tuple[str, str]] = field(default_factory=set)
    events: list[Event] = field(default_factory=list)


@pytest.fixture(scope="module")
def replay(scenario_corpus) -> Replay:
    """Every step of every scenario replayed; each rejection must carry the very action it
    refused. (A fixture, not a cache: the mutation run forks its workers from a process
    that already ran these tests once, unmutated.)"""
    assert not scenario_corpus.errors
    seen = Replay()
    for scenario in scenario_corpus.scenarios:
        for run in scenario.runs:
            state = given_state(scenario, run)
            for step in (s for s in run.steps if s.action is not None):
                try:
                    state, events = apply(state, step.action)
                except IllegalActionError as error:
                    assert error.action == step.action, f"{scenario.id}: {error}"
                    seen.messages.add(str(error))
                    continue
                seen.events.extend(events)
                seen.reasons.update((e.rule, e.get("why")) for e in events if e.name == "failed")
    return seen


@reads_the_corpus
def test_rejections_say_what_is_wrong(replay: Replay) -> None:
    assert not MESSAGES - replay.messages


@reads_the_corpus
def test_failed_orders_say_why(replay: Replay) -> None:
    assert not FAIL_REASONS - replay.reasons


@reads_the_corpus
def test_every_event_has_its_keys_and_rule(replay: Replay) -> None:
    pairs = set()
    for item in replay.events:
        assert item.name in EVENTS, item
        shapes, rules = EVENTS[item.name]
        shape = tuple((key, type(value)) for key, value in item.data)
        assert shape in shapes, item
        assert item.rule in rules, item
        pairs.add((item.name, item.rule))
    # and the scenarios show every event under every rule that may decide it
    assert pairs == {(name, rule) for name, (_, rules) in EVENTS.items() for rule in rules}


def test_questions_out_of_turn_are_refused_with_a_reason() -> None:
    state = new_game(make_config(3))
    with pytest.raises(IllegalActionError) as error:
        winners(state)
    assert str(error.value) == "the game has not ended [game_end.three_resolutions]"
    chance = ChanceSource(0)
    while is_chance(state):
        state, _ = apply(state, chance.shuffle(state))
    with pytest.raises(IllegalActionError) as error:
        chance_pile(state)
    assert str(error.value) == "no pile is waiting to be shuffled [turn.play]"


RULES_MODULES = ("setup", "turn", "oven", "round", "scoring", "game")


def test_recorded_equivalent_mutants_are_well_formed() -> None:
    """tests/mutation/equivalent.yaml names real functions of the rules modules, once each."""
    entries = load_file(ROOT / "tests" / "mutation" / "equivalent.yaml").data["equivalents"]
    names = [entry["mutant"] for entry in entries]
    assert len(names) == len(set(names))
    for entry in entries:
        assert set(entry) == {"mutant", "module", "function", "reason"}, entry
        assert entry["module"] in RULES_MODULES, entry
        module = importlib.import_module(f"mammamia_ref.rules.{entry['module']}")
        assert callable(getattr(module, entry["function"])), entry
        prefix = f"rules.{entry['module']}.x_{entry['function']}__mutmut_"
        assert entry["mutant"].startswith(prefix) and entry["mutant"][len(prefix):].isdigit()
        assert entry["reason"].strip(), entry
