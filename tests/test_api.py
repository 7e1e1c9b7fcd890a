"""The small fixed API of mammamia_ref: new_game, to_move, is_chance, chance_pile,
legal_actions, apply, is_over, winners, make_config; its errors; determinism."""

from __future__ import annotations

import ast
import copy
import json
import random
import re
from pathlib import Path

import pytest

import mammamia_ref
from mammamia_ref import (
    Complete,
    Decline,
    Draw,
    GameConfig,
    IllegalActionError,
    InvalidStateError,
    MalformedError,
    MammamiaError,
    NameKind,
    NoOrder,
    Pass,
    PlaceOrder,
    Play,
    Shuffle,
    SpecError,
    VariantError,
    apply,
    chance_pile,
    format_action,
    format_event,
    is_chance,
    is_over,
    legal_actions,
    make_config,
    make_variants,
    new_game,
    to_move,
    winners,
)
from mammamia_ref.formats.jsonform import format_state
from mammamia_ref.rules import specdata
from mammamia_ref.rules.chance import ChanceSource
from mammamia_ref.rules.ruleset import default_rules
from mammamia_ref.rules.state import variant_defaults, variant_values
from mammamia_ref.rules.vocabulary import COLOURS, COPIES, KINDS, MAMMA_MIA, ORDERS_OF
from mammamia_ref.sim.play import play_game
from mammamia_ref.sim.policies import POLICIES
from mammamia_ref.tools.verify import spec_problems

RULE_IDS = specdata.rule_ids()
FILE_NAME = re.compile(r"\.(py|yaml|yml|json|md|cfg|toml|txt|html)$")  # "setup.py" is no rule
PACKAGE = Path(mammamia_ref.__file__).parent


# --- helpers ------------------------------------------------------------------------


def states_of(config: GameConfig, seed: int, policy: str = "random") -> list:
    """Every state a seeded game passes through, the final one included."""
    record = play_game(config, seed, [POLICIES[policy]] * config.players)
    state = new_game(config)
    states = [state]
    for action, _ in record.steps:
        state, _ = apply(state, action)
        states.append(state)
    assert state == record.final
    return states


def decision_key(state) -> str:
    if state.phase == "shuffle":
        if state.step.startswith("waiter."):
            return "shuffle:waiter"
        return f"shuffle:{state.step}:{'setup' if state.resolutions == 0 else 'next_round'}"
    return f"{state.phase}:{state.step}"


EXPECTED_KEYS = {
    "shuffle:ingredients:setup", "shuffle:supply:setup", "shuffle:waiter",
    "shuffle:supply:next_round", "turn:play", "turn:order", "turn:draw",
    "oven:name_kind", "oven:complete", "over:over",
}


@pytest.fixture(scope="module")
def sample_states() -> dict[str, object]:
    """One state for every kind of decision (and the end), from a few random games."""
    found: dict[str, object] = {}
    for seed in range(1, 40):
        for state in states_of(make_config(3), seed):
            found.setdefault(decision_key(state), state)
        if set(found) >= EXPECTED_KEYS:
            break
    assert set(found) >= EXPECTED_KEYS, sorted(EXPECTED_KEYS - set(found))
    return found


ONE_OF_EACH_ACTION = {
    "shuffle": Shuffle("ingredients", ("salami",)),
    "play": Play("salami", 1),
    "pass": Pass(),
    "place_order": PlaceOrder("red.pineapple4"),
    "no_order": NoOrder(),
    "draw": Draw("supply"),
    "name_kind": NameKind("salami"),
    "complete": Complete((0, 0, 0, 0, 0)),
    "decline": Decline(),
}

RIGHT_KINDS = {  # the action types that are the decision at each kind of state
    "shuffle:ingredients:setup": {"shuffle"},
    "shuffle:supply:setup": {"shuffle"},
    "shuffle:waiter": {"shuffle"},
    "shuffle:supply:next_round": {"shuffle"},
    "turn:play": {"play", "pass"},
    "turn:order": {"place_order", "no_order"},
    "turn:draw": {"draw"},
    "oven:name_kind": {"name_kind"},
    "oven:complete": {"complete", "decline"},
    "over:over": set(),
}

EXPECTED_RULE = {  # the rule a wrong kind of action is rejected under (default variants)
    "shuffle:ingredients:setup": {"setup.deal"},
    "shuffle:supply:setup": {"setup.supply"},
    "shuffle:waiter": {"setup.waiter"},
    "shuffle:supply:next_round": {"next_round.supply"},
    "turn:play": {"turn.play"},
    "turn:order": {"turn.place_order"},
    "turn:draw": {"turn.draw"},
    "oven:name_kind": {"oven.monotoni", "oven.minimale"},
    "oven:complete": {"oven.complete_from_hand"},
    "over:over": {"game_end.three_resolutions"},
}


def rejected(state, action) -> IllegalActionError:
    """Apply an action that must be rejected; check the state is left as it was."""
    before_json = copy.deepcopy(format_state(state))
    before = copy.deepcopy(state)
    with pytest.raises(IllegalActionError) as info:
        apply(state, action)
    assert state == before
    assert format_state(state) == before_json
    error = info.value
    assert error.rule in RULE_IDS, error.rule
    assert error.action == action
    assert f"[{error.rule}]" in str(error)
    return error


# --- new_game and the decision functions --------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_new_game_starts_at_the_ingredient_shuffle(players: int) -> None:
    config = make_config(players)
    state = new_game(config)
    assert state.players == players
    assert state.config.colours == COLOURS[:players]
    assert state.phase == "shuffle" and state.step == "ingredients"
    assert is_chance(state) and not is_over(state)
    assert to_move(state) is None
    assert legal_actions(state) == ()
    pile, cards = chance_pile(state)
    assert pile == "ingredients"
    trimmed = default_rules().parameters.trimming[players]
    assert len(cards) == sum(COPIES) - trimmed * len(KINDS)
    assert MAMMA_MIA not in cards  # default: shuffled into the supply after the deal
    assert state.box == (trimmed,) * len(KINDS)
    assert all(hand.size == 0 for hand in state.hands)
    assert [sorted(w) for w in state.waiters] == [sorted(ORDERS_OF[c]) for c in COLOURS[:players]]
    assert state.mamma_mia is None
    with pytest.raises(IllegalActionError) as info:
        winners(state)
    assert info.value.rule in RULE_IDS


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_variants_change_the_first_pile(players: int) -> None:
    full = new_game(make_config(players, variants={"trimming": "off"}))
    assert len(chance_pile(full)[1]) == sum(COPIES)
    assert full.box == (0,) * len(KINDS)
    before = new_game(make_config(players, variants={"mamma_mia_shuffle": "before_deal"}))
    assert chance_pile(before)[1].count(MAMMA_MIA) == 1


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_setup_then_turns_then_the_end(players: int) -> None:
    config = make_config(players, first_player=players - 1)
    chance = ChanceSource(players)
    state = new_game(config)
    piles = []
    while is_chance(state):
        assert to_move(state) is None and legal_actions(state) == ()
        pile, _ = chance_pile(state)
        piles.append(pile)
        state, _ = apply(state, chance.shuffle(state))
    assert piles == ["ingredients", "supply", *(f"waiter.{c}" for c in config.colours)]
    assert state.phase == "turn" and to_move(state) == players - 1
    assert all(hand.size == 7 for hand in state.hands)
    assert legal_actions(state)
    with pytest.raises(IllegalActionError) as info:
        chance_pile(state)
    assert info.value.rule in RULE_IDS

    record = play_game(config, seed=players)
    final = record.final
    assert is_over(final) and not is_chance(final)
    assert to_move(final) is None
    assert legal_actions(final) == ()
    with pytest.raises(IllegalActionError):
        chance_pile(final)
    seats, rule = winners(final)
    assert rule in RULE_IDS and rule.startswith("game_end.")
    assert seats and all(0 <= s < players for s in seats)


def test_to_move_names_the_decider_in_every_decision(sample_states) -> None:
    for key, state in sample_states.items():
        if key.startswith("shuffle") or key == "over:over":
            assert to_move(state) is None
            assert legal_actions(state) == ()
        else:
            assert to_move(state) == state.current
            assert legal_actions(state), key
        if key.startswith("shuffle"):
            pile, cards = chance_pile(state)
            assert pile == state.step
            assert len(cards) > 0


def test_legal_actions_are_all_accepted(sample_states) -> None:
    for key, state in sample_states.items():
        for action in legal_actions(state):
            after, events = apply(state, action)
            assert after != state or events
            assert all(event.rule in RULE_IDS for event in events)
        assert key  # every kind of state was visited


# --- rejections ---------------------------------------------------------------------


@pytest.mark.parametrize("key", sorted(EXPECTED_KEYS))
def test_wrong_kind_of_action_is_rejected_and_state_unchanged(sample_states, key) -> None:
    state = sample_states[key]
    wrong = [a for name, a in ONE_OF_EACH_ACTION.items() if name not in RIGHT_KINDS[key]]
    assert wrong
    for action in wrong:
        error = rejected(state, action)
        expected = EXPECTED_RULE[key]
        if key == "turn:draw" and isinstance(action, PlaceOrder):
            # an order after the order step: a second order, or an order after a pass
            expected = expected | {"turn.place_order", "turn.pass", "turn.pass_with_order"}
        if isinstance(action, Play) and state.phase == "turn" and state.played > 0:
            expected = {"turn.play"}  # a second play in one turn breaks the play rule
        assert error.rule in expected, (key, action, error.rule)


def test_every_action_is_rejected_once_the_game_is_over(sample_states) -> None:
    state = sample_states["over:over"]
    for action in ONE_OF_EACH_ACTION.values():
        assert rejected(state, action).rule == "game_end.three_resolutions"


def test_illegal_shuffles_are_rejected() -> None:
    state = new_game(make_config(3))
    pile, cards = chance_pile(state)
    rule = "setup.deal"
    not_permutations = [
        cards[1:],                                  # a card missing
        cards + ("salami",),                        # a card too many
        ("olive",) + cards[1:] if cards[0] != "olive" else ("salami",) + cards[1:],  # swapped kind
        cards + (MAMMA_MIA,),                       # the Mamma Mia! card is not in this pile
        (),
    ]
    for order in not_permutations:
        assert rejected(state, Shuffle(pile, order)).rule == rule
    for wrong_pile in ("supply", "waiter.red", "waiter.purple", "deck"):
        assert rejected(state, Shuffle(wrong_pile, cards)).rule == rule
    # any permutation is accepted, the identity included
    apply(state, Shuffle(pile, cards))
    apply(state, Shuffle(pile, tuple(reversed(cards))))


def test_illegal_shuffle_of_a_waiter() -> None:
    chance = ChanceSource(3)
    state = new_game(make_config(3))
    while not state.step.startswith("waiter."):
        state, _ = apply(state, chance.shuffle(state))
    pile, cards = chance_pile(state)
    assert pile == "waiter.red"
    assert rejected(state, Shuffle("waiter.yellow", ORDERS_OF["yellow"])).rule == "setup.waiter"
    assert rejected(state, Shuffle(pile, ORDERS_OF["yellow"])).rule == "setup.waiter"
    assert rejected(state, Shuffle(pile, cards[:-1])).rule == "setup.waiter"
    assert rejected(state, Shuffle(pile, cards + cards[:1])).rule == "setup.waiter"


def test_illegal_actions_of_the_right_kind(sample_states) -> None:
    play = sample_states["turn:play"]
    hand = play.hands[play.current]
    absent = [k for k, n in zip(KINDS, hand.ingredients, strict=True) if n == 0]
    present = [(k, n) for k, n in zip(KINDS, hand.ingredients, strict=True) if n > 0]
    if present:
        kind, held = present[0]
        assert rejected(play, Play(kind, held + 1)).rule == "turn.play"
        assert rejected(play, Play(kind, 0)).rule == "turn.play"
        assert rejected(play, Pass()).rule == "turn.pass"
    if absent:
        assert rejected(play, Play(absent[0], 1)).rule == "turn.play"
    order = sample_states["turn:order"]
    colour = order.colour(order.current)
    foreign = next(o for o in ORDERS_OF[colour] if o not in order.hands[order.current].orders)
    assert rejected(order, PlaceOrder(foreign)).rule == "turn.place_order"
    draw = sample_states["turn:draw"]
    assert rejected(draw, Draw("supply", 1)).rule == "turn.draw"  # no count under fill


def test_errors_are_value_errors_carrying_their_details() -> None:
    for cls in (MammamiaError, SpecError, VariantError, MalformedError, InvalidStateError,
                IllegalActionError):
        assert issubclass(cls, ValueError)
        assert issubclass(cls, MammamiaError)
    assert issubclass(InvalidStateError, MalformedError)
    error = IllegalActionError("no", rule="turn.play", action=Pass())
    assert (error.rule, error.action) == ("turn.play", Pass())
    assert str(error) == "no [turn.play]"
    malformed = MalformedError("bad", where="/x", value=3)
    assert (malformed.where, malformed.value, str(malformed)) == ("/x", 3, "/x: bad")
    invalid = InvalidStateError("bad", rule="setup.components", where="/")
    assert invalid.rule == "setup.components" and invalid.where == "/"


# --- make_config --------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_make_config_accepts_every_player_count(players: int) -> None:
    config = make_config(players)
    assert config.players == players
    assert config.first_player == 0
    assert config.rules.as_dict() == variant_defaults()


@pytest.mark.parametrize("kwargs, needle", [
    ({"players": 1}, "2 to 5"),
    ({"players": 6}, "2 to 5"),
    ({"players": 0}, "2 to 5"),
    ({"players": True}, "2 to 5"),
    ({"players": "3"}, "2 to 5"),
    ({"players": 3, "variants": {"foo": "bar"}}, "foo"),
    ({"players": 3, "variants": {"refill": "nope"}}, "nope"),
    ({"players": 3, "variants": {"trimming": True}}, "trimming"),
    ({"players": 3, "colours": ("red", "red", "green")}, "different colours"),
    ({"players": 3, "colours": ("red", "blue", "green")}, "different colours"),
    ({"players": 3, "colours": ("red", "green")}, "different colours"),
    ({"players": 2, "colours": (["red"], "green")}, "different colours"),
    ({"players": 3, "first_player": 3}, "first_player"),
    ({"players": 3, "first_player": -1}, "first_player"),
    ({"players": 3, "first_player": True}, "first_player"),
])
def test_make_config_refuses(kwargs, needle) -> None:
    kwargs = dict(kwargs)  # the parameters are shared by every run of the test
    players = kwargs.pop("players")
    with pytest.raises(VariantError) as info:
        make_config(players, **kwargs)
    assert isinstance(info.value, ValueError)
    assert needle in str(info.value)


def test_make_config_with_colours_and_variants() -> None:
    config = make_config(2, colours=("purple", "green"), first_player=1,
                         variants={"refill": "as_many_as_played"})
    assert config.colours == ("purple", "green") and config.first_player == 1
    assert config.rules.flags.refill == "as_many_as_played"
    assert config.rules.non_default() == {"refill": "as_many_as_played"}
    assert make_config(2, variants=make_variants({"stall": "letter"})).rules.flags.stall == "letter"
    for flag, values in variant_values().items():
        for value in values:
            assert make_config(4, variants={flag: value}).rules.as_dict()[flag] == value


# --- determinism --------------------------------------------------------------------


def _trace(record) -> list:
    return [(format_action(a), [format_event(e) for e in events]) for a, events in record.steps]


@pytest.mark.parametrize("players", [2, 5])
def test_same_seed_same_game(players: int) -> None:
    config = make_config(players)
    random.seed(1)
    first = play_game(config, seed=42, policies=[POLICIES["random"]] * players)
    random.seed(2)  # the global generator plays no part
    second = play_game(config, seed=42, policies=[POLICIES["random"]] * players)
    assert _trace(first) == _trace(second)
    assert format_state(first.final) == format_state(second.final)
    assert first.turns == second.turns
    json.dumps(_trace(first))  # a trace is JSON


def test_different_seeds_differ() -> None:
    config = make_config(3)
    traces = {json.dumps(_trace(play_game(config, seed=s))) for s in (1, 2, 3, "abc")}
    assert len(traces) == 4


# --- rule IDs in the code -----------------------------------------------------------


def test_spec_problems_is_empty() -> None:
    assert spec_problems() == []


def test_every_rule_id_literal_in_the_package_is_registered() -> None:
    """An independent check (ast, not verify's regex): every string constant in the
    package that looks like '<chapter>.<name>' is a rule of the register."""
    chapters = {c["id"] for c in specdata.load_yaml("rules.yaml")["chapters"]}
    shape = re.compile(r"^({})\.[a-z_0-9]+$".format("|".join(map(re.escape, chapters))))
    found: set[str] = set()
    unknown = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) \
                    and shape.match(node.value) and not FILE_NAME.search(node.value):
                found.add(node.value)
                if node.value not in RULE_IDS:
                    unknown.append(f"{path.name}:{node.lineno}: {node.value}")
    assert not unknown
    assert len(found) > 30  # the scan does see the rule IDs


def test_every_event_of_many_games_names_a_registered_rule() -> None:
    seen = set()
    for i, (flag, values) in enumerate(variant_values().items()):
        players = 2 + i % 4
        record = play_game(make_config(players, variants={flag: values[-1]}), seed=i)
        for _, events in record.steps:
            seen.update(event.rule for event in events)
    assert seen <= RULE_IDS, seen - RULE_IDS


# --- bugs -----------------------------------------------------------------------------


def test_apply_rejects_play_of_an_unknown_kind(sample_states) -> None:
    state = sample_states["turn:play"]
    with pytest.raises(MammamiaError):
        apply(state, Play("anchovy", 1))


def test_apply_rejects_draw_from_an_unknown_source(sample_states) -> None:
    state = sample_states["turn:draw"]
    with pytest.raises(MammamiaError):
        apply(state, Draw("nowhere"))
