"""The search player (``mammamia_ref.sim.search``): its deals of the hidden cards look to
it exactly like the game it is in, it plays legal actions to the end under every
variant, the same seed gives the same game in one process or two, it decides from its
observation only, and it costs a random number only where it searches. (Its strength
is measured in ``docs/simulation.md``, not here: that takes thousands of games.)"""

from __future__ import annotations

import random

import pytest

from mammamia_ref.formats.jsonform import check_state
from mammamia_ref.rules.observation import observation
from mammamia_ref.rules.state import make_config, variant_defaults, variant_values
from mammamia_ref.sim import careful, fast, search, simulate
from mammamia_ref.sim.policies import (
    POLICIES,
    ObservingPolicy,
    UnknownPolicyError,
    get_fast_chooser,
    get_policy,
)

CHEAP = "search:3:2"  # three playouts a decision, two turns on: enough to exercise it
INFORMATION = ({}, {"oven_memory": "seen"}, {"card_counts": "hidden"}, {"used_pile": "open"},
               {"card_counts": "hidden", "used_pile": "open", "oven_memory": "seen"},
               {"mamma_mia_shuffle": "before_deal", "round_end": "last_ingredient"})


def positions(players: int, variants: dict[str, str], seed: int,
              every: int = 9) -> list[fast.FastState]:
    """Decision states of a careful game on the fast engine, one in ``every``."""
    config = make_config(players, colours=simulate.seat_colours(players, seed),
                         variants=variants)
    state, chance, found = fast.new_game(config), random.Random(seed), []
    decisions = 0
    while state.phase != "over":
        if state.phase == "shuffle":
            fast.apply_shuffle(state, fast.shuffled(chance, fast.chance_pile(state)[1]))
            continue
        legal = fast.legal_actions(state)
        if decisions % every == 0:
            found.append(state.copy())
        fast.apply(state, careful.choose_careful_code(state, legal))
        decisions += 1
    return found


# --- the policy's name ----------------------------------------------------------------


def test_search_players_by_name() -> None:
    assert isinstance(POLICIES["search"], ObservingPolicy)
    assert search.parse_search("search") == search.SearchSettings()
    assert search.parse_search("search:40") == search.SearchSettings(40, "cycle")
    assert search.parse_search("search:5:game") == search.SearchSettings(5, "game")
    assert search.parse_search("search:5:12") == search.SearchSettings(5, 12)
    assert search.parse_search("careful") is None
    policy = get_policy(CHEAP)
    assert isinstance(policy, ObservingPolicy) and policy.name == CHEAP
    chooser = get_fast_chooser(CHEAP)
    assert isinstance(chooser, search.SearchChooser)
    assert chooser.settings == search.SearchSettings(3, 2)
    assert simulate.check_policies([CHEAP, "careful"], 2) == (CHEAP, "careful")


@pytest.mark.parametrize("name", ["search:", "search:0", "search:x", "search:3:week",
                                  "search:3:2:1", "search:1000000", "search:٣"])
def test_a_bad_search_budget_is_refused_in_one_line(name: str) -> None:
    with pytest.raises(UnknownPolicyError) as caught:
        get_policy(name)
    assert "search" in str(caught.value) and "\n" not in str(caught.value)


# --- the deals ------------------------------------------------------------------------


@pytest.mark.parametrize("variants", INFORMATION,
                         ids=lambda v: ",".join(f"{k}={x}" for k, x in v.items()) or "defaults")
def test_a_deal_looks_to_the_player_like_the_game_it_is_in(variants: dict[str, str]) -> None:
    """Every deal is a valid state with the deciding player's observation and legal
    actions, and the deals differ where the player cannot see."""
    rng = random.Random(7)
    differing = 0
    states = positions(3 + len(variants) % 3, variants, len(variants))
    for state in states:
        seen = observation(state.to_state(), state.current)
        deals = [search.determinize(seen, rng) for _ in range(2)]
        for deal in deals:
            check_state(deal.to_state())
            assert observation(deal.to_state(), state.current) == seen
            assert fast.legal_actions(deal) == fast.legal_actions(state)
        differing += deals[0].to_json() != deals[1].to_json()
    assert differing > len(states) // 2


# --- playing --------------------------------------------------------------------------


def _one_value_each() -> list[dict[str, str]]:
    defaults = variant_defaults()
    return [{}] + [{flag: value} for flag, values in variant_values().items()
                   for value in values if value != defaults[flag]]


def test_the_search_player_plays_legal_actions_to_the_end_under_every_variant() -> None:
    chooser = get_fast_chooser(CHEAP)
    assert chooser is not None
    offered: list[bool] = []

    def checked(state: fast.FastState, legal: list[int], rng: random.Random) -> int:
        action = chooser(state, legal, rng)
        offered.append(action in legal)
        return action

    for index, variants in enumerate(_one_value_each()):
        config = make_config(2, variants=variants)
        state, chance, rng = fast.new_game(config), random.Random(index), random.Random(index)
        while state.phase != "over":
            if state.phase == "shuffle":
                fast.apply_shuffle(state, fast.shuffled(chance, fast.chance_pile(state)[1]))
                continue
            if state.rules.stall_letter and state.quiet_turns >= 2:
                break  # stall=letter: this round can never end
            legal = list(fast.legal_actions(state))
            seat_chooser = checked if state.current == 0 else careful.choose_careful_code
            fast.apply(state, seat_chooser(state, legal, rng))
        assert state.phase == "over" or variants.get("stall") == "letter", variants
    assert len(offered) > 100 and all(offered)


def test_the_same_seed_gives_the_same_games_in_one_process_or_two() -> None:
    policies = (CHEAP, "careful", "careful")
    once = simulate.play(3, 11, None, policies)
    assert simulate.play(3, 11, None, policies) == once
    one = simulate.simulate(2, 4, seed=3, policies=(CHEAP, "careful"), chunk=2)
    with simulate.Executor(2) as two_processes:
        two = simulate.simulate(2, 4, seed=3, policies=(CHEAP, "careful"), chunk=2,
                                executor=two_processes)
    assert one.digest() == two.digest()


def test_the_reference_policy_and_the_fast_chooser_choose_alike() -> None:
    policy, chooser = get_policy(CHEAP), get_fast_chooser(CHEAP)
    assert chooser is not None
    for number, state in enumerate(positions(4, {}, 5, every=23)):
        legal = fast.legal_actions(state)
        reference = state.to_state()
        actions = [fast.action_of(code) for code in legal]
        assert fast.action_of(chooser(state, legal, random.Random(number))) == \
            policy(reference, actions, random.Random(number))


# --- what it may know -----------------------------------------------------------------


@pytest.mark.parametrize("variants", INFORMATION[:3],
                         ids=lambda v: ",".join(f"{k}={x}" for k, x in v.items()) or "defaults")
def test_hidden_cards_do_not_change_the_choice(variants: dict[str, str]) -> None:
    """Two states that differ only in cards the deciding player cannot see (here, one
    of them a deal of the other) get the same choice from the same seed."""
    chooser = get_fast_chooser(CHEAP)
    assert chooser is not None
    searched = 0
    for number, state in enumerate(positions(4, variants, 21, every=11)):
        legal = fast.legal_actions(state)
        seen = observation(state.to_state(), state.current)
        other = search.determinize(seen, random.Random(number))
        assert other.to_json() != state.to_json() or len(legal) == 1
        rng, again = random.Random(number), random.Random(number)
        assert chooser(other, legal, again) == chooser(state, legal, rng)
        assert rng.getstate() == again.getstate()
        searched += len(legal) > 1
    assert searched > 5


def test_a_decision_with_one_candidate_costs_no_random_number() -> None:
    chooser = get_fast_chooser(CHEAP)
    assert chooser is not None
    checked = 0
    for state in positions(3, {}, 2, every=1):
        legal = fast.legal_actions(state)
        if len(search.candidates(state, legal)) != 1:
            continue
        rng = random.Random(1)
        before = rng.getstate()
        assert chooser(state, legal, rng) == careful.choose_careful_code(state, legal)
        assert rng.getstate() == before
        checked += 1
    assert checked > 20


def test_the_candidates_start_with_the_careful_choice_and_are_legal() -> None:
    """Plays and orders are searched, every other decision is the careful player's."""
    steps = set()
    for state in positions(4, {"draw_amount": "any"}, 4, every=3):
        legal = fast.legal_actions(state)
        found = search.candidates(state, legal)
        assert found[0] == careful.choose_careful_code(state, legal)
        assert len(set(found)) == len(found) and set(found) <= set(legal)
        if len(found) > 1:
            steps.add(str(state.step))
    assert steps == {"play", "order"}


def test_the_scores() -> None:
    state = positions(2, {}, 1, every=1000)[0]
    state.delivered = [(fast.CARD_CODES["red.one_of_each"],), ()]
    assert search.score(state, 0) == 1.0 and search.score(state, 1) == -1.0


def test_the_horizons() -> None:
    """A playout stops at the end of the round or of the game, or opens the oven after a
    cycle of turns."""
    state = positions(3, {}, 6, every=1)[30]
    assert state.phase == "turn"
    round_end = state.copy()
    search.playout(round_end, random.Random(1), "round")
    assert round_end.resolutions == state.resolutions + 1
    game_end = state.copy()
    search.playout(game_end, random.Random(1), "game")
    assert game_end.phase == "over"
    cycle = state.copy()
    search.playout(cycle, random.Random(1), "cycle")
    assert cycle.resolutions == state.resolutions + 1 and cycle.phase in ("shuffle", "over")


@pytest.mark.cluster
def test_a_local_dask_cluster_plays_the_same_games() -> None:
    """Careful and search players on a Dask cluster: the same digest as in this process
    (the search player draws only from each game's own generator)."""
    pytest.importorskip("distributed")
    local = simulate.simulate(2, 4, seed=30, policies=(CHEAP, "careful"))
    careful_local = simulate.simulate(3, 6, seed=30, policies=("careful",))
    with simulate.Executor(2, dask="local") as executor:
        on_dask = simulate.simulate(2, 4, seed=30, policies=(CHEAP, "careful"), chunk=2,
                                    executor=executor)
        careful_dask = simulate.simulate(3, 6, seed=30, policies=("careful",), chunk=2,
                                         executor=executor)
    assert on_dask.digest() == local.digest()
    assert careful_dask.digest() == careful_local.digest()
