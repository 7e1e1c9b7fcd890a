"""The fast engine (``mammamia_ref.sim.fast``) is the reference engine, step for step.

Random games are played on both engines at once, in every player count and under every
value of every variant flag (one flag changed at a time, then random mixtures of all of
them), the chance nodes shuffled by each engine's own chance source from the same seed.
After every step the fast state, in canonical JSON, must equal the reference's, and the
legal actions must be the same list in the same order; at each chance node both engines
must ask for the same pile, holding the same cards in the same order, and get the same
order back. In some games every legal action of every decision is also tried on both
engines (not only the one chosen), so that each branch near the path is compared too.
The fast counting (perft) must equal the reference's on every table in
``scenarios/perft/``, and ``play_random_game`` must play the reference's game.

``MAMMAMIA_FAST_EQUIVALENCE_SEEDS`` (default 3) sets how many seeds each combination plays.
"""

from __future__ import annotations

import os
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from mammamia_ref.errors import IllegalActionError
from mammamia_ref.formats.jsonform import format_state, parse_state
from mammamia_ref.formats.perft_table import load_perft_tables
from mammamia_ref.rules.actions import Shuffle
from mammamia_ref.rules.chance import ChanceSource
from mammamia_ref.rules.game import (
    apply,
    chance_pile,
    is_chance,
    is_over,
    legal_actions,
    new_game,
    to_move,
    winners,
)
from mammamia_ref.rules.state import GameState, make_config, variant_defaults, variant_values
from mammamia_ref.sim import fast
from mammamia_ref.sim.perft import perft
from mammamia_ref.sim.play import play_game
from mammamia_ref.sim.policies import POLICIES, random_policy

ROOT = Path(__file__).resolve().parent.parent
SEEDS = int(os.environ.get("MAMMAMIA_FAST_EQUIVALENCE_SEEDS", "3"))
PLAYERS = (2, 3, 4, 5)
MAX_STEPS = 3000

# One flag at a time at each of its non-default values, and the defaults.
SINGLE_FLAGS = [{}] + [{flag: value} for flag, values in variant_values().items()
                       for value in values if value != variant_defaults()[flag]]

SEEN: Counter[str] = Counter()  # which decisions and branches the games reached


def _mixed_variants(seed: int) -> dict[str, str]:
    rng = random.Random(f"mixed-variants:{seed}")
    return {flag: rng.choice(values) for flag, values in variant_values().items()}


def assert_same(ref: GameState, quick: fast.FastState, where: str) -> None:
    expected = format_state(ref)
    assert quick.to_json() == expected, f"{where}: the states differ"
    assert format_state(quick.to_state()) == expected, f"{where}: to_state differs"
    assert fast.to_move(quick) == to_move(ref), where
    assert fast.is_chance(quick) == is_chance(ref), where
    assert fast.is_over(quick) == is_over(ref), where


def assert_same_legal(ref: GameState, quick: fast.FastState, where: str) -> list[Any]:
    expected = list(legal_actions(ref))
    codes = list(fast.legal_actions(quick))
    assert [fast.action_of(code) for code in codes] == expected, f"{where}: legal actions"
    assert [fast.action_code(action) for action in expected] == codes, f"{where}: codes"
    return expected


def note_branch(ref: GameState) -> None:
    if ref.phase in ("turn", "oven"):
        SEEN[f"{ref.phase}.{ref.step}"] += 1
        if ref.reveal is not None:
            SEEN[f"oven.{ref.step}.{ref.reveal.order.split('.')[1]}"] += 1


def play_both(players: int, variants: dict[str, str], seed: int, *, policy: Any = random_policy,
              siblings: bool = False, first_player: int = 0) -> int:
    """Play one game on both engines, comparing after every step; returns the steps."""
    config = make_config(players, variants=variants, first_player=first_player)
    ref, quick = new_game(config), fast.new_game(config)
    ref_chance, fast_chance = ChanceSource(seed), fast.FastChance(seed)
    rng = random.Random(f"mammamia-policy:{seed}")
    where = f"{players}p {variants} seed {seed}"
    assert_same(ref, quick, f"{where}, new game")
    for step in range(MAX_STEPS):
        at = f"{where}, step {step}"
        if is_over(ref):
            assert fast.winners(quick) == winners(ref), at
            break
        if config.rules.flags.stall == "letter" and ref.quiet_turns >= players:
            SEEN["stalled"] += 1
            break  # play_game's stop: nothing ends this round (dispute D7)
        if is_chance(ref):
            pile, cards = chance_pile(ref)
            fast_pile, fast_cards = fast.chance_pile(quick)
            assert (fast_pile, [fast.CARD_NAMES[c] for c in fast_cards]) == (pile, list(cards)), \
                f"{at}: the chance pile differs"
            action = ref_chance.shuffle(ref)
            order = fast_chance.shuffle(quick)
            assert [fast.CARD_NAMES[c] for c in order] == list(action.order), \
                f"{at}: the shuffle differs"
            assert fast.shuffle_order(quick, action) == order
            ref, _ = apply(ref, action)
            fast.apply_shuffle(quick, order)
            assert_same(ref, quick, f"{at}, after shuffling {pile}")
            continue
        note_branch(ref)
        legal = assert_same_legal(ref, quick, at)
        if siblings:
            for other in legal:
                child = quick.copy()
                fast.apply(child, fast.action_code(other))
                assert_same(apply(ref, other)[0], child, f"{at}, sibling {other}")
            assert_same(ref, quick, f"{at}: copies were changed, not the original")
        action = policy(ref, legal, rng)
        ref, _ = apply(ref, action)
        fast.apply(quick, fast.action_code(action))
        assert_same(ref, quick, f"{at}, after {action}")
        assert_same_legal(ref, quick, f"{at}, after {action}")
    else:
        pytest.fail(f"{where}: no end within {MAX_STEPS} steps")
    return step


@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("variants", SINGLE_FLAGS,
                         ids=["defaults"] + [f"{k}={v}" for d in SINGLE_FLAGS[1:]
                                             for k, v in d.items()])
def test_every_flag_value_every_player_count(players: int, variants: dict[str, str]) -> None:
    for seed in range(SEEDS):
        play_both(players, variants, seed, first_player=seed % players,
                  siblings=seed == 0)


@pytest.mark.parametrize("seed", range(8 * SEEDS))
def test_mixed_variants(seed: int) -> None:
    players = PLAYERS[seed % len(PLAYERS)]
    play_both(players, _mixed_variants(seed), 1000 + seed, siblings=seed % 4 == 0,
              first_player=seed % players)


@pytest.mark.parametrize("seed", range(2 * SEEDS))
def test_other_policy(seed: int) -> None:
    """The simple policy bakes far more orders: it reaches the oven's choices often."""
    players = PLAYERS[seed % len(PLAYERS)]
    variants = _mixed_variants(500 + seed) if seed % 2 else {}
    play_both(players, variants, 2000 + seed, policy=POLICIES["simple"], siblings=True)


def test_the_games_reached_every_kind_of_decision() -> None:
    """Not a vacuous comparison: the games above met every decision and special order
    (this test runs after them; alone, it plays a few games of its own)."""
    if not SEEN:
        for seed in range(6):
            play_both(2 + seed % 4, _mixed_variants(seed), seed, policy=POLICIES["simple"])
            play_both(2 + seed % 4, {}, seed)
    for key in ("turn.play", "turn.order", "turn.draw", "oven.name_kind", "oven.complete",
                "oven.complete.bombastica", "oven.name_kind.monotoni"):
        assert SEEN[key] > 0, f"no game reached {key}: {dict(SEEN)}"


@pytest.mark.parametrize("players", PLAYERS)
def test_play_random_game_is_the_reference_game(players: int) -> None:
    for seed in range(2 * SEEDS):
        variants = _mixed_variants(seed) if seed % 2 else {}
        config = make_config(players, variants=variants)
        record = play_game(config, seed, [random_policy] * players)
        result = fast.play_random_game(config, seed)
        assert result.state.to_json() == format_state(record.final), f"seed {seed}"
        assert result.stalled == record.stalled
        assert result.turns == record.turns
        shuffles = sum(isinstance(action, Shuffle) for action, _ in record.steps)
        assert (result.decisions, result.shuffles) == (len(record.steps) - shuffles, shuffles)
        assert result.winners == record.winners


def _general_loop(config: Any, seed: int) -> tuple[Any, ...]:
    """A benchmark game on the fast engine's general path (``legal_actions``,
    ``benchmark_choice``, ``apply``), which the tests above hold to the reference."""
    state, chance = fast.new_game(config), fast.FastChance(seed)
    rng = random.Random(f"mammamia-policy:{seed}")
    decisions = turns = shuffles = 0
    while not fast.is_over(state):
        if config.rules.flags.stall == "letter" and state.quiet_turns >= config.players:
            break
        if fast.is_chance(state):
            fast.apply_shuffle(state, chance.shuffle(state))
            shuffles += 1
            continue
        turns += state.step == "play"
        fast.apply(state, fast.benchmark_choice(state, fast.legal_actions(state), rng))
        decisions += 1
    return state.to_json(), decisions, turns, shuffles


@pytest.mark.parametrize("players", PLAYERS)
def test_play_random_game_is_the_general_loop(players: int) -> None:
    """``play_random_game`` makes the turn's decisions in its own loop (the benchmark's
    hot path): on many games, under every flag value and mixtures, it must end where the
    general path ends, after as many decisions, turns and shuffles."""
    for seed in range(20 * SEEDS):
        variants = SINGLE_FLAGS[seed % len(SINGLE_FLAGS)] if seed % 3 else _mixed_variants(seed)
        config = make_config(players, variants=variants, first_player=seed % players)
        result = fast.play_random_game(config, seed)
        expected = _general_loop(config, seed)
        assert (result.state.to_json(), result.decisions, result.turns, result.shuffles) \
            == expected, f"{players}p {variants} seed {seed}"


TABLES = load_perft_tables(ROOT / "scenarios" / "perft")


@pytest.mark.parametrize("table", TABLES, ids=[t.id for t in TABLES])
def test_fast_perft_equals_the_tables_and_the_reference(table: Any) -> None:
    state = parse_state(table.state)
    quick = fast.from_state(state)
    assert quick.to_json() == format_state(state)
    for depth, nodes in sorted(table.counts.items()):
        assert fast.perft(quick, depth) == nodes, f"{table.id} depth {depth}"
        if nodes <= 3000:
            assert perft(state, depth) == nodes
    assert quick.to_json() == format_state(state), "perft changed the state it counted from"


def test_action_codes_round_trip() -> None:
    for code in (fast.PASS, fast.NO_ORDER, fast.DECLINE, fast.DRAW_SUPPLY, fast.DRAW_WAITER,
                 fast.play_code(3, 7), fast.PLACE_BASE + fast.CARD_CODES["red.minimale"],
                 fast.NAME_BASE + 4, fast.DRAW_N_BASE + 64 + 5,
                 fast.COMPLETE_BASE + fast.pack((1, 0, 7, 2, 3))):
        assert fast.action_code(fast.action_of(code)) == code


def test_apply_checked_refuses_an_illegal_action() -> None:
    result = fast.play_random_game(make_config(3), seed=1)
    assert result.state.phase == "over"
    quick = fast.new_game(make_config(3))
    while fast.is_chance(quick):
        fast.apply_shuffle(quick, fast.FastChance(0).shuffle(quick))
    before = quick.to_json()
    with pytest.raises(IllegalActionError) as error:
        fast.apply_checked(quick, fast.DECLINE)
    assert error.value.rule == "turn.play"
    assert quick.to_json() == before
