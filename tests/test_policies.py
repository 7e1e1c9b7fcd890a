"""The policies by name: the registry, the benchmark policy's distribution, that every
policy plays legal actions to the end under every variant, that observing policies see
only the deciding player's observation, and the careful player's decisions."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from mammamia_ref import apply, legal_actions, make_config, new_game, parse_state, to_move
from mammamia_ref.formats.scenario import complete_state
from mammamia_ref.rules.actions import Complete, Draw, NameKind, NoOrder, PlaceOrder, Play
from mammamia_ref.rules.observation import Observation, observation
from mammamia_ref.rules.state import variant_defaults, variant_values
from mammamia_ref.rules.vocabulary import KIND_INDEX, ORDERS
from mammamia_ref.sim.play import play_game
from mammamia_ref.sim.policies import (
    POLICIES,
    ObservingPolicy,
    UnknownPolicyError,
    choose_careful,
    expected_table,
    forecast,
    get_policy,
    random_policy,
)


def state_from(partial: dict, variants: dict[str, str] | None = None):
    return parse_state(complete_state(partial, variants or {}))


def choose(state, policy: str = "careful"):
    return POLICIES[policy](state, legal_actions(state), random.Random(0))


# --- the registry -------------------------------------------------------------------------


# The search player plays whole games in tests/test_search_player.py (on the fast engine,
# at a small budget); here it would make every reference game thousands of playouts long.
PLAYING = sorted(set(POLICIES) - {"search"})


def test_registry_names() -> None:
    assert set(POLICIES) >= {"random", "simple", "careful", "search"}
    assert get_policy("random") is random_policy
    for name in POLICIES:
        assert get_policy(name) is POLICIES[name]
        assert callable(get_policy(name))


@pytest.mark.parametrize("name", ["clever", "", None, 3, "Random"])
def test_an_unknown_policy_is_a_value_error_naming_the_known_ones(name) -> None:
    with pytest.raises(UnknownPolicyError) as caught:
        get_policy(name)
    assert isinstance(caught.value, ValueError)
    assert "careful, random, search, simple" in str(caught.value)


def test_observing_policies_are_marked() -> None:
    assert isinstance(POLICIES["simple"], ObservingPolicy)
    assert isinstance(POLICIES["careful"], ObservingPolicy)
    assert POLICIES["careful"].name == "careful"


# --- every policy plays legal games ---------------------------------------------------------


def _one_value_each() -> list[dict[str, str]]:
    defaults = variant_defaults()
    return [{}] + [{flag: value} for flag, values in variant_values().items()
                   for value in values if value != defaults[flag]]


@pytest.mark.parametrize("name", PLAYING)
def test_every_policy_finishes_games_with_legal_actions(name) -> None:
    """Under each variant value: the game ends after three resolutions (or stalls under
    stall=letter), every choice being one of the legal actions offered."""
    policy = POLICIES[name]
    offered = []

    def checked(state, legal, rng):
        action = policy(state, legal, rng)
        offered.append(action in legal)
        return action

    for i, variants in enumerate(_one_value_each()):
        players = 2 + i % 4
        record = play_game(make_config(players, variants=variants), i, [checked] * players)
        final = record.final
        assert (final.phase == "over" and final.resolutions == 3) or \
            (record.stalled and variants.get("stall") == "letter"), (name, variants)
    assert offered and all(offered)


def test_the_same_seed_gives_the_same_game() -> None:
    for name in PLAYING:
        games = [play_game(make_config(3), 5, [POLICIES[name]] * 3) for _ in range(2)]
        assert [a for a, _ in games[0].steps] == [a for a, _ in games[1].steps]


# --- the benchmark policy -----------------------------------------------------------------


def test_random_policy_draws_from_the_supply_four_times_in_five() -> None:
    rng = random.Random(1)
    legal = [Draw("supply"), Draw("waiter")]
    counts = Counter(random_policy(None, legal, rng).source for _ in range(20_000))
    assert 0.78 < counts["supply"] / 20_000 < 0.82
    any_counts = [Draw(s, c) for s in ("supply", "waiter") for c in range(3)]
    counts = Counter(random_policy(None, any_counts, rng) for _ in range(30_000))
    supply = sum(n for a, n in counts.items() if a.source == "supply")
    assert 0.78 < supply / 30_000 < 0.82
    assert len(counts) == 6


def test_random_policy_is_uniform_elsewhere() -> None:
    rng = random.Random(2)
    legal = [Play("salami", n) for n in range(1, 5)]
    counts = Counter(random_policy(None, legal, rng) for _ in range(20_000))
    assert all(4500 < counts[a] < 5500 for a in legal)


# --- what an observing policy is shown -------------------------------------------------------


def test_an_observing_policy_sees_exactly_the_deciding_players_observation() -> None:
    shown: list[tuple[Observation, int | None]] = []

    def record(seen, legal, rng):
        shown.append(seen)
        return legal[0]

    policy = ObservingPolicy("record", record)
    played = play_game(make_config(3), 3, [policy] * 3)
    state = new_game(played.config)
    decisions = []
    for action, _ in played.steps:
        if to_move(state) is not None:
            decisions.append(observation(state, to_move(state)))
        state = apply(state, action)[0]
    assert shown == decisions
    assert all(seen.player == seen.current for seen in shown)


# --- the careful player ------------------------------------------------------------------------


def _turn(oven, green_hand, *, step="order", played=0, variants=None):
    green = {"colour": "green", "hand": green_hand}
    return state_from({"players": [green, {"colour": "red"}], "oven": oven, "step": step,
                       "played": played, "supply": ["olive", "olive", "mamma_mia"]}, variants)


def test_careful_places_an_order_the_announced_ingredients_and_hand_cover() -> None:
    oven = ["salami", "salami", "salami", "pepper"]
    state = _turn(oven, {"ingredients": {"salami": 1}, "orders": ["green.salami4"]})
    assert choose(state) == PlaceOrder("green.salami4")
    short = _turn(oven, {"ingredients": {"olive": 1}, "orders": ["green.salami4"]})
    assert choose(short) == NoOrder()


def test_careful_counts_what_earlier_orders_will_take() -> None:
    """Its own earlier order will take the salami; another player's order it knows and the
    table covers will too; one it cannot identify is passed over."""
    mine = ["salami"] * 4 + ["pepper", "green.salami4", "pepper"]
    state = state_from({"players": [{"colour": "green",
                                     "hand": {"ingredients": {"salami": 1},
                                              "orders": ["green.olive4"]}},
                                    {"colour": "red"}],
                        "oven": mine, "step": "order", "played": 1,
                        "supply": ["olive", "mamma_mia"]})
    assert expected_table(observation(state, 0))[KIND_INDEX["salami"]] == 0
    theirs = ["salami"] * 4 + ["pepper", "red.pepper4", "olive"]  # red: 1 salami + 4 pepper
    seen = observation(_turn(theirs, {"ingredients": {}, "orders": []}), 0)
    assert expected_table(seen)[KIND_INDEX["salami"]] == 4  # unknown under announced
    seen = observation(_turn(theirs, {"ingredients": {}, "orders": []},
                             variants={"oven_memory": "seen"}), 0)
    assert expected_table(seen)[KIND_INDEX["salami"]] == 4  # three pepper short: passed over
    covered = ["salami"] * 4 + ["pepper"] * 4 + ["red.pepper4", "olive"]
    seen = observation(_turn(covered, {"ingredients": {}, "orders": []},
                             variants={"oven_memory": "seen"}), 0)
    assert expected_table(seen)[KIND_INDEX["salami"]] == 3
    assert expected_table(seen)[KIND_INDEX["pepper"]] == 0


def test_careful_keeps_the_hand_cards_its_orders_in_the_oven_need() -> None:
    """An own order short of one salami in the oven holds a salami back: the player does
    not count it twice, and plays something else."""
    oven = ["salami", "salami", "salami", "pepper", "green.salami4"]
    state = _turn(oven, {"ingredients": {"salami": 1, "olive": 2}, "orders": ["green.olive4"]},
                  step="play")
    table, reserve = forecast(observation(state, 0))
    assert reserve[KIND_INDEX["salami"]] == 1 and table[KIND_INDEX["salami"]] == 0
    action = choose(state)
    assert isinstance(action, Play) and action.kind == "olive"


def test_careful_plays_what_an_order_lacks_then_places_it() -> None:
    oven = ["salami", "salami", "pepper"]
    hand = {"ingredients": {"salami": 2, "olive": 3}, "orders": ["green.salami4"]}
    state = _turn(oven, hand, step="play")
    assert choose(state) == Play("salami", 2)
    state, _ = apply(state, Play("salami", 2))
    assert choose(state) == PlaceOrder("green.salami4")


def test_careful_draws_orders_only_while_it_has_none_to_place() -> None:
    hand = {"ingredients": {"olive": 2}, "orders": ["green.salami4"]}
    state = _turn([], hand, step="draw", played=1)
    assert choose(state).source == "waiter"  # the salami order cannot be made
    hand = {"ingredients": {"salami": 4, "pepper": 1}, "orders": ["green.salami4"]}
    state = _turn([], hand, step="draw", played=1)
    assert choose(state).source == "supply"
    hand = {"ingredients": {"olive": 2}, "orders": ["green.salami4", "green.mushroom4",
                                                   "green.olive4"]}
    state = _turn([], hand, step="draw", played=1)
    assert choose(state).source == "supply"  # three orders are enough to wait with
    state = state_from({"players": [{"colour": "green", "hand": {"ingredients": {"olive": 2}},
                                     "delivered": [o for o in ORDERS if o.startswith("green.")]},
                                    {"colour": "red"}],
                        "step": "draw", "played": 1, "supply": ["olive", "mamma_mia"]})
    assert choose(state).source == "supply"  # nothing left in the waiter


def test_careful_completes_and_names_the_cheapest_kind() -> None:
    state = state_from({"players": [{"colour": "green",
                                     "hand": {"ingredients": {"olive": 2, "pepper": 1}}},
                                    {"colour": "red"}],
                        "phase": "oven", "step": "name_kind", "current": 0,
                        "reveal": {"order": "green.monotoni", "kind": None},
                        "table": {"salami": 3, "olive": 5, "mushroom": 6},
                        "mamma_mia": 1})
    assert choose(state) == NameKind("mushroom")  # six on the table: no hand card needed
    state = state_from({"players": [{"colour": "green",
                                     "hand": {"ingredients": {"olive": 2, "pepper": 1}}},
                                    {"colour": "red"}],
                        "phase": "oven", "step": "complete", "current": 0,
                        "reveal": {"order": "green.olive4", "kind": None},
                        "table": {"olive": 3}, "mamma_mia": 1})
    assert choose(state) == Complete((0, 0, 0, 1, 1))


def test_careful_delivers_more_than_random() -> None:
    delivered = Counter()
    for seed in range(6):
        for name in ("careful", "random"):
            record = play_game(make_config(2 + seed % 4), seed, [POLICIES[name]] * (2 + seed % 4))
            delivered[name] += sum(map(len, record.final.delivered))
    assert delivered["careful"] > 1.5 * delivered["random"]


def test_careful_uses_no_randomness() -> None:
    state = _turn(["salami"], {"ingredients": {"salami": 2, "olive": 1},
                               "orders": ["green.salami4"]}, step="play")
    seen = observation(state, 0)
    legal = legal_actions(state)
    assert len({choose_careful(seen, legal, random.Random(s)) for s in range(20)}) == 1
