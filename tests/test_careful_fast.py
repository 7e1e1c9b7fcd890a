"""The careful player on the fast engine makes exactly the reference careful player's
choices: every decision of seeded fast-engine games, under rulings the careful player
reads or that change its games, is also put to
:func:`mammamia_ref.sim.policies.choose_careful` on the deciding player's observation of
the same state, and the two actions must be equal.

``MAMMAMIA_CAREFUL_GAMES`` sets the number of games (default 60, shared among the
rulings; the issue's check is 500 or more: ``MAMMAMIA_CAREFUL_GAMES=540``)."""

from __future__ import annotations

import os
import random
from collections import Counter

import pytest

from mammamia_ref.rules.observation import observation
from mammamia_ref.rules.ruleset import Rules, make_rules
from mammamia_ref.rules.state import make_config
from mammamia_ref.sim import careful, fast, simulate
from mammamia_ref.sim.policies import choose_careful, get_fast_chooser

RULINGS: tuple[dict[str, str], ...] = (
    {},
    {"oven_memory": "seen"},
    {"refill": "as_many_as_played"},
    {"refill": "as_many_as_played", "stall": "letter"},
    {"completion": "mandatory"},
    {"draw_amount": "any"},
    {"minimale_lowest": "all_kinds", "monotoni_kind": "on_table"},
    {"bombastica_hand": "forbidden", "pass_order": "allowed"},
    {"card_counts": "hidden", "used_pile": "open", "trimming": "off",
     "round_end": "last_ingredient", "oven_memory": "seen", "completion": "mandatory"},
)
GAMES = int(os.environ.get("MAMMAMIA_CAREFUL_GAMES", "60"))


def compared_game(players: int, seed: int, variants: dict[str, str] | Rules,
                  steps: Counter[str]) -> int:
    """Play game ``seed`` on the fast engine with the fast careful player in every seat,
    asking the reference careful player at every decision; the decisions compared."""
    config = make_config(players, colours=simulate.seat_colours(players, seed),
                         variants=variants)
    state = fast.new_game(config)
    chance = random.Random(f"mammamia-chance:{seed}")
    decisions = 0
    while state.phase != "over" and decisions < simulate.MAX_DECISIONS:
        if state.phase == "shuffle":
            fast.apply_shuffle(state, fast.shuffled(chance, fast.chance_pile(state)[1]))
            continue
        if state.rules.stall_letter and state.phase == "turn" and \
                state.quiet_turns >= players:
            break
        legal = fast.legal_actions(state)
        code = careful.choose_careful_code(state, legal, random.Random(seed))
        seen = observation(state.to_state(), state.current)
        expected = choose_careful(seen, [fast.action_of(c) for c in legal], random.Random(seed))
        assert fast.action_of(code) == expected, (
            f"{players} players, seed {seed}, {variants}, decision {decisions} "
            f"({state.step}): fast {fast.action_of(code)}, reference {expected}")
        steps[str(state.step)] += len(legal) > 1
        fast.apply(state, code)
        decisions += 1
    return decisions


@pytest.mark.parametrize("ruling", range(len(RULINGS)),
                         ids=[",".join(f"{k}={v}" for k, v in r.items()) or "defaults"
                              for r in RULINGS])
def test_the_fast_careful_player_chooses_as_the_reference_one(ruling: int) -> None:
    variants = RULINGS[ruling]
    games = max(2, GAMES // len(RULINGS))
    steps: Counter[str] = Counter()
    decisions = sum(compared_game(2 + seed % 4, seed, variants, steps)
                    for seed in range(ruling * 1000, ruling * 1000 + games))
    assert decisions > 100 * games
    # every kind of decision was met with a real choice to make
    assert {"play", "order", "draw"} <= {step for step, n in steps.items() if n}, steps


# house rules' order counts: the careful player's recipes are the game's, not the spec's
HOUSE_COUNTS: tuple[dict[str, int], ...] = (
    {"monotoni_count": 5}, {"standard_count": 3}, {"minimale_count": 1, "monotoni_count": 9},
    {"standard_count": 6, "bombastica_total": 10, "hand_limit": 9},
)


@pytest.mark.parametrize("parameters", HOUSE_COUNTS,
                         ids=[",".join(f"{k}={v}" for k, v in p.items()) for p in HOUSE_COUNTS])
def test_the_careful_players_agree_under_other_order_counts(parameters: dict[str, int]) -> None:
    rules = make_rules(parameters=parameters)
    steps: Counter[str] = Counter()
    decisions = sum(compared_game(2 + seed % 4, seed, rules, steps) for seed in range(4))
    assert decisions > 400
    assert {"play", "order", "draw"} <= {step for step, n in steps.items() if n}, steps


def test_the_careful_player_judges_orders_by_the_games_counts() -> None:
    """A Monotoni on a table of five cards of one kind: short of one card under the spec's
    count of six, baked as it stands under a house rule's five; a standard order's recipe
    and what it makes worth keeping follow ``standard_count``."""
    monotoni = next(code for code, name in enumerate(careful.CARD_NAMES)
                    if careful.TYPE[code] == careful.MONOTONI)
    kind = next(k for k in range(5) if k != careful.PERSONAL[monotoni])
    table = tuple(5 if k == kind else int(k == careful.PERSONAL[monotoni]) for k in range(5))
    hand = (1, 1, 1, 1, 1)
    spec = careful.Judgement.of(make_rules())
    five = careful.Judgement.of(make_rules(parameters={"monotoni_count": 5}))
    assert careful.hand_shortfall(monotoni, table, hand, spec) == 1
    assert careful.hand_shortfall(monotoni, table, hand, five) == 0
    standard = next(code for code, name in enumerate(careful.CARD_NAMES)
                    if careful.TYPE[code] == careful.STANDARD)
    three = careful.Judgement.of(make_rules(parameters={"standard_count": 3}))
    assert sum(three.wanted[standard]) == sum(spec.wanted[standard]) - 1 == 4
    assert careful.hand_needs((standard,), three) == three.wanted[standard]


def test_the_oven_decisions_are_compared() -> None:
    """The rare decisions (naming a kind, completing from hand) come up in these games."""
    steps: Counter[str] = Counter()
    for seed in range(12):
        compared_game(3 + seed % 3, seed, {"completion": "optional"}, steps)
    assert steps["name_kind"] > 0 and steps["complete"] > 0, steps


def test_simulate_runs_careful_on_the_fast_engine() -> None:
    assert get_fast_chooser("careful") is careful.choose_careful_code
    assert get_fast_chooser("random") is fast.benchmark_choice
    assert get_fast_chooser("simple") is None
    assert simulate._chooser("careful") is careful.choose_careful_code


def test_the_careful_player_draws_no_random_number() -> None:
    """Same choices whatever the generator, which it leaves untouched."""
    rng = random.Random(3)
    before = rng.getstate()
    config = make_config(3)
    state = fast.new_game(config)
    chance = random.Random(1)
    while state.phase != "over":
        if state.phase == "shuffle":
            fast.apply_shuffle(state, fast.shuffled(chance, fast.chance_pile(state)[1]))
            continue
        fast.apply(state, careful.choose_careful_code(state, fast.legal_actions(state), rng))
    assert rng.getstate() == before


def test_the_forecast_kept_between_decisions_is_the_forecast_from_scratch() -> None:
    """The forecast extended from one decision to the next (``careful._Fold``) equals the
    one worked out afresh, for every player at every decision of a few games."""
    for seed, variants in enumerate(({}, {"oven_memory": "seen"}, {"refill": "as_many_as_played"})):
        config = make_config(4, variants=variants)
        flags = careful.Judgement.of(config.rules)
        state = fast.new_game(config)
        chance = random.Random(seed)
        while state.phase != "over":
            if state.phase == "shuffle":
                fast.apply_shuffle(state, fast.shuffled(chance, fast.chance_pile(state)[1]))
                continue
            for seat in range(4):
                afresh = flags.fresh()
                assert careful.observed_forecast(state, seat, flags) == \
                    careful.observed_forecast(state, seat, afresh)
            fast.apply(state, careful.choose_careful_code(state, fast.legal_actions(state)))


def test_the_oven_only_grows_during_a_rounds_turns() -> None:
    """What the kept forecast trusts on a fast state (``careful.forecast``, ``growing``):
    from one decision to the next of a round's turns the oven is the same list, the
    cards it held still first in it; and one that does not grow is judged afresh."""
    checked = 0
    for seed, variants in enumerate(({}, {"leftovers": "table"}, {"oven_memory": "seen"})):
        config = make_config(3 + seed % 2, variants=variants)
        state, chance = fast.new_game(config), random.Random(seed)
        kept: dict[int, tuple[list[int], list[int]]] = {}  # by round: the list, its cards
        while state.phase != "over":
            if state.phase == "shuffle":
                fast.apply_shuffle(state, fast.shuffled(chance, fast.chance_pile(state)[1]))
                continue
            if state.phase == "turn":
                if state.round in kept:
                    oven, cards = kept[state.round]
                    assert state.oven is oven and oven[:len(cards)] == cards
                    checked += 1
                kept[state.round] = (state.oven, list(state.oven))
            fast.apply(state, careful.choose_careful_code(state, fast.legal_actions(state)))
    assert checked > 300
    # the same list changed in place (not grown) in another span of growth (the next
    # round), or with none named (the oven being opened): the kept cards are compared
    # again, and the forecast is the one worked out afresh
    base = careful.Judgement.of(make_config(4).rules)
    table, hand = (1, 0, 2, 0, 0), (2, 0, 1, 4, 1)  # pepper enough for the first only
    first, second = careful.CARD_CODES["red.pepper4"], careful.CARD_CODES["red.olive4"]
    own = careful.COLOUR[first]
    for later in (8, None):
        flags = base.fresh()
        oven = [0, 3, first, 2, 2]
        careful.forecast(oven, table, hand, own, flags, all_known=False, top_known=True,
                         growing=7)
        oven[1:3] = [second, 3]
        afresh = base.fresh()
        again = careful.forecast(oven, table, hand, own, flags, all_known=False,
                                 top_known=later is not None, growing=later)
        assert again == careful.forecast(oven, table, hand, own, afresh, all_known=False,
                                         top_known=later is not None)
        assert again != careful.forecast([0, 3, first, 2, 2], table, hand, own, afresh,
                                         all_known=False, top_known=True)


def test_the_forecast_kept_across_branches_is_the_forecast_from_scratch() -> None:
    """As a search uses it: from one state, several branches played in turn, the kept
    forecast going back to what they share (``_Fold.rollback``), and deals of the
    hidden cards that differ in the orders one player cannot identify."""
    from mammamia_ref.sim import search

    config = make_config(4, variants={"card_counts": "hidden"})
    flags = careful.Judgement.of(config.rules)
    state, chance = fast.new_game(config), random.Random(8)
    checked = 0
    for decision in range(400):
        if state.phase == "over":
            break
        if state.phase == "shuffle":
            fast.apply_shuffle(state, fast.shuffled(chance, fast.chance_pile(state)[1]))
            continue
        legal = fast.legal_actions(state)
        if decision % 13 == 0 and state.phase == "turn":
            seen = observation(state.to_state(), state.current)
            bases = [state] + [search.determinize(seen, random.Random(n)) for n in range(2)]
            for base in bases:
                for action in legal[:3]:
                    branch = base.copy()
                    fast.apply(branch, action)
                    for _ in range(6):
                        if branch.phase != "turn":
                            break
                        afresh = flags.fresh()
                        for seat in range(4):
                            assert careful.observed_forecast(branch, seat, flags) == \
                                careful.observed_forecast(branch, seat, afresh)
                            checked += 1
                        fast.apply(branch, careful.choose_careful_code(
                            branch, fast.legal_actions(branch)))
        fast.apply(state, careful.choose_careful_code(state, legal))
    assert checked > 500


def _plain_choose_play(orders: tuple[int, ...], plays: list[tuple[int, int]],
                       hand: tuple[int, ...], table: tuple[int, ...], free: tuple[int, ...],
                       flags: careful.Judgement) -> tuple[int, int]:
    """``careful.choose_play`` as its docstring states it, every play tried on every order
    in hand with :func:`careful.hand_shortfall` (no shortfall worked out once, no play
    passed over): the oracle for the quicker one. Both choosers share ``choose_play``, so
    comparing them could not catch a change in it."""
    best: tuple[tuple[int, int, int], tuple[int, int]] | None = None
    for play in plays:
        kind, count = play
        if free[kind] < count:
            continue
        after_table = table[:kind] + (table[kind] + count,) + table[kind + 1:]
        after_free = free[:kind] + (free[kind] - count,) + free[kind + 1:]
        for order in orders:
            before = careful.hand_shortfall(order, table, free, flags)
            if before == 0:
                continue
            now = careful.hand_shortfall(order, after_table, after_free, flags)
            if now is None or (before is not None and now >= before):
                continue
            score = (now, -count, order)
            if best is None or score < best[0]:
                best = (score, play)
    if best is not None:
        return best[1]
    need = careful.hand_needs(orders, flags)
    held = [k for k in range(5) if free[k] > 0] or [k for k in range(5) if hand[k] > 0]
    return (max(held, key=lambda k: (free[k] - need[k], free[k], -k)), 1)


@pytest.mark.parametrize("ruling", [0, 1, 6, 7])
def test_choose_play_is_its_plain_statement(ruling: int) -> None:
    """Every play decision of a few games, and each with every hand of its decision's
    ingredients taken as free (so that orders the hand cannot make up come up too)."""
    compared = 0
    for seed in range(3):
        config = make_config(4, variants=RULINGS[ruling])
        flags = careful.Judgement.of(config.rules)
        state, chance = fast.new_game(config), random.Random(seed)
        while state.phase != "over":
            if state.phase == "shuffle":
                fast.apply_shuffle(state, fast.shuffled(chance, fast.chance_pile(state)[1]))
                continue
            legal = fast.legal_actions(state)
            if state.step == "play" and legal[0] != fast.PASS:
                seat = state.current
                orders, hand = state.hand_orders[seat], state.hands[seat]
                plays = [divmod(code - fast.PLAY_BASE, 16) for code in legal]
                table, reserve = careful.observed_forecast(state, seat, flags)
                for free in {careful.free_cards(hand, reserve), hand,
                             tuple(max(0, h - 1) for h in hand)}:
                    assert careful.choose_play(orders, plays, hand, table, free, flags) == \
                        _plain_choose_play(orders, plays, hand, table, free, flags), \
                        (seed, orders, plays, hand, table, free)
                    compared += 1
            fast.apply(state, careful.choose_careful_code(state, legal))
    assert compared > 500


def test_choose_kind_and_spare_are_their_plain_statements() -> None:
    """The kind named: the first of the fewest-missing kinds the hand can make up (by
    name); the cards spared: one at a time from the first most plentiful kind."""
    from mammamia_ref.rules.vocabulary import KINDS, covers, shortfall

    rng = random.Random(5)
    flags = careful.Judgement.of(make_rules())
    specials = [code for code in range(len(careful.CARD_NAMES))
                if flags.named_need[code]]
    for _ in range(3000):
        order = rng.choice(specials)
        table = tuple(rng.randint(0, 7) for _ in KINDS)
        hand = tuple(rng.randint(0, 4) for _ in KINDS)
        kinds = sorted(rng.sample(range(len(KINDS)), rng.randint(1, len(KINDS))))
        named = flags.named_need[order]
        assert careful.choose_kind(order, kinds, table, hand, flags) == min(
            kinds, key=lambda k: (0 if covers(hand, shortfall(named[k], table)) else 1,
                                  sum(shortfall(named[k], table)), KINDS[k]))
        count = rng.randint(0, sum(hand))
        taken = [0] * len(KINDS)
        for _ in range(count):
            taken[max(range(len(KINDS)), key=lambda k: (hand[k] - taken[k], -k))] += 1
        assert careful.spare(hand, count) == tuple(taken)
