"""The fast engine's events (``fast.record_events``) are the reference's, step for step.

Two checks, on whichever fast core this process runs (the compiled one when it is built;
``MAMMAMIA_PURE=1`` for the pure-Python one):

- step by step: the same seeded actions (shuffles and uniform random choices, so every
  decision the rules offer, declines and named kinds included) on both engines; after
  every step the events the fast engine recorded must equal the ones the reference's
  ``apply`` returned, value for value and in order;
- whole games: :func:`mammamia_ref.sim.fast_events.games_with_events` gives, for each seed
  and policy with a fast chooser, exactly the events of the game ``ask``'s search replays
  on the reference (:func:`mammamia_ref.queries.answering.searching.playout`, the same seed and
  policy).

Under the defaults, every other value of every flag alone, mixtures of flags, and a
sample of house rules (the example files and other parameters), at 2 to 5 players. The
default run plays a few hundred games; the ``sweep`` tier (``pytest -m sweep``) thousands.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from mammamia_ref.errors import VariantError
from mammamia_ref.formats.house import load_house
from mammamia_ref.rules.chance import ChanceSource
from mammamia_ref.rules.events import Event
from mammamia_ref.rules.game import apply, is_chance, is_over, legal_actions, new_game
from mammamia_ref.rules.ruleset import Rules, make_rules
from mammamia_ref.rules.state import make_config, variant_defaults, variant_values
from mammamia_ref.sim import fast
from mammamia_ref.sim.fast_events import fast_policies, games_with_events

ROOT = Path(__file__).resolve().parent.parent
PLAYERS = (2, 3, 4, 5)
HOUSE_PARAMETERS: tuple[dict[str, Any], ...] = (
    {"hand_limit": 5}, {"starting_ingredients": 9, "starting_orders": 2}, {"rounds": 4},
    {"standard_count": 2, "monotoni_count": 3, "minimale_count": 2}, {"bombastica_total": 8},
    {"trimming": {2: 4, 3: 2, 4: 1, 5: 0}})


def rulings(mixtures: int) -> list[tuple[str, Rules]]:
    """(a name, the rules): the defaults, each other flag value alone, ``mixtures`` random
    mixtures of every flag, the example house rules and the parameters above."""
    defaults, values = variant_defaults(), variant_values()
    found = [("defaults", make_rules())]
    for flag, options in sorted(values.items()):
        found += [(f"{flag}={value}", make_rules({flag: value}))
                  for value in options if value != defaults[flag]]
    return found + mixed_rulings(mixtures) + house_rulings()


def mixed_rulings(count: int) -> list[tuple[str, Rules]]:
    """``count`` random mixtures of every flag's values (seeded)."""
    rng, values = random.Random("fast-events"), variant_values()
    return [(f"mixture {index}", make_rules({flag: rng.choice(options)
                                             for flag, options in values.items()}))
            for index in range(count)]


def house_rulings() -> list[tuple[str, Rules]]:
    """The example house-rule files and the parameters above."""
    found = [(f"house {path.stem}", load_house(path).rules)
             for path in sorted((ROOT / "examples" / "house-rules").glob("*.yaml"))]
    return found + [(f"parameters {parameters}", make_rules(parameters=parameters))
                    for parameters in HOUSE_PARAMETERS]


def step_events(rules: Rules, players: int, seed: int) -> Iterator[tuple[str, Any, Any]]:
    """One seeded game played on both engines with the same actions: for each step, where
    it is and the two engines' events (the reference's, the fast engine's)."""
    config = make_config(players, variants=rules)
    reference, quick = new_game(config), fast.new_game(config)
    recorded = fast.record_events(quick)
    chance, rng = ChanceSource(seed), random.Random(f"fast-events:{seed}")
    for step in range(20_000):
        if is_over(reference) or (reference.flags.stall == "letter"
                                  and reference.quiet_turns >= players):
            return
        if is_chance(reference):
            action: Any = chance.shuffle(reference)
            fast.apply_shuffle(quick, fast.shuffle_order(quick, action))
        else:
            action = rng.choice(legal_actions(reference))
            fast.apply(quick, fast.action_code(action))
        reference, events = apply(reference, action)
        yield f"step {step}, {action}", events, tuple(recorded)
        recorded.clear()


def check_steps(rules: Rules, players: int, seed: int) -> int:
    """Every step's events equal on both engines; the number of events compared."""
    compared = 0
    for where, expected, got in step_events(rules, players, seed):
        assert got == expected, (rules.describe(), players, seed, where,
                                 _first_difference(expected, got))
        compared += len(expected)
    return compared


def _first_difference(expected: tuple[Event, ...], got: tuple[Event, ...]) -> str:
    for index, (want, have) in enumerate(zip(expected, got, strict=False)):
        if want != have:
            return f"event {index}: the reference's {want}, the fast engine's {have}"
    return f"{len(expected)} events on the reference, {len(got)} on the fast engine"


def check_games(rules: Rules, players: int, seeds: range, policy: str) -> int:
    """games_with_events against the reference's playout of the same seeds and policy;
    the games compared (0 when the policy refuses these rules on both engines)."""
    from mammamia_ref.queries.answering.searching import playout

    config = make_config(players, variants=rules)
    try:
        games = list(games_with_events(config, seeds, policy))
    except VariantError:
        with pytest.raises(VariantError):
            playout(config, seeds[0], policy)
        return 0
    for seed, events in games:
        played = playout(config, seed, policy)
        expected = tuple(e for _a, step, _s in played.steps for e in step)
        assert events == expected, (rules.describe(), players, seed, policy,
                                    _first_difference(expected, events))
    return len(games)


def _fast_rules(rules: Rules) -> bool:
    from mammamia_ref.queries.answering.searching import fast_plays

    return fast_plays(rules)


DEFAULT_TIER = dict(rulings(4))


@pytest.mark.parametrize("name", list(DEFAULT_TIER))
def test_every_step_tells_the_reference_events(name: str) -> None:
    """The default tier: two games at each player count under each ruling (each flag
    value, four mixtures, eight house rules: 240 games)."""
    rules = DEFAULT_TIER[name]
    compared = sum(check_steps(rules, players, 10 * players + seed)
                   for players in PLAYERS for seed in range(2))
    assert compared > 100 * len(PLAYERS)   # whole games were compared, not a few steps


def test_the_search_games_are_the_reference_playouts() -> None:
    """The default tier: each fast policy at 2 to 5 players, under the defaults, two
    mixtures and a house rule, a few seeds (the games ``ask``'s search screens)."""
    played = 0
    for _name, rules in [rulings(0)[0], *mixed_rulings(2), house_rulings()[0]]:
        for players in PLAYERS:
            for policy in fast_policies():
                played += check_games(rules, players, range(3 if policy == "random" else 1),
                                      policy)
    assert played >= 4 * len(PLAYERS) * 3


def test_events_asked_for_by_name_are_the_others_left_out() -> None:
    """``record_events(state, names)``: exactly the events of those names, in order (what
    the search asks for: the events its question reads)."""
    rng = random.Random("fast-events-names")
    vocabulary = sorted({e.name for _s, told in games_with_events(
        make_config(3), range(3), "random") for e in told})
    for index, (_name, rules) in enumerate(rulings(2)[::3]):
        config = make_config(2 + index % 4, variants=rules)
        names = frozenset(rng.sample(vocabulary, 3))
        whole = games_with_events(config, range(index, index + 2), "random")
        part = games_with_events(config, range(index, index + 2), "random", names=names)
        for (seed, every), (same, kept) in zip(whole, part, strict=True):
            assert seed == same and kept == tuple(e for e in every if e.name in names)
    assert len(vocabulary) > 12


def test_every_ruling_of_the_sample_is_played_by_the_fast_engine() -> None:
    """The sample is what it says: the fast engine plays every ruling in it (a refusal
    would make the differential test smaller than it says), and it holds every flag's
    every value."""
    assert [name for name, rules in rulings(12) if not _fast_rules(rules)] == []
    named = {name for name, _rules in rulings(0)}
    for flag, options in variant_values().items():
        assert all(f"{flag}={value}" in named or value == variant_defaults()[flag]
                   for value in options)


@pytest.mark.sweep
@pytest.mark.parametrize("players", PLAYERS)
def test_thousands_of_games_tell_the_reference_events(players: int) -> None:
    """The sweep tier: 30 games at this player count under each ruling, step by step
    (each flag value, twelve mixtures, eight house rules: 1,140 games a player count,
    4,560 in all), and 13 whole games per ruling of the mixtures and house rules against
    the reference's playouts (10 random, 3 careful where the policies play the rules:
    up to 260 a player count)."""
    games = 0
    for index, (_name, rules) in enumerate(rulings(12)):
        for seed in range(30):
            check_steps(rules, players, 1000 * index + seed)
            games += 1
    assert games == 38 * 30
    for index, (_name, rules) in enumerate(mixed_rulings(12) + house_rulings()):
        for policy in fast_policies():
            seeds = range(100 * index, 100 * index + (10 if policy == "random" else 3))
            games += check_games(rules, players, seeds, policy)
    assert games >= 38 * 30 + 20 * 10
