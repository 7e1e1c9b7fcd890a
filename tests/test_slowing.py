"""The table that makes a round last (``slow:COLOUR``, :mod:`mammamia_ref.sim.slowing`)."""

from __future__ import annotations

import pytest

from mammamia_ref.queries.answering.searching import playout
from mammamia_ref.queries.language.judging import Played
from mammamia_ref.queries.language.measures import measure
from mammamia_ref.rules.actions import Pass, Play
from mammamia_ref.sim.policies import UnknownPolicyError, get_policy
from tests.plan_builder import build
from tests.witness_plans import bombastica_takes_all


def _after_a_bombastica_of_every_card(players: int) -> Played:
    """The plan's first round in which red's Bombastica takes every card, up to the next
    round's supply shuffle: the supply then holds every ingredient card, no hand one."""
    built = build(bombastica_takes_all(0), players)
    assert built.state.phase == "shuffle" and built.state.round == 2
    return Played(built.config, tuple((e.action, e.events, e.state) for e in built.played))


@pytest.mark.parametrize("players", [2, 3])
def test_after_every_card_is_baked_each_supply_card_takes_two_of_the_slow_seats_turns(
        players: int) -> None:
    """Played on by slow:red, the second round lasts about two cycles a supply card
    (40 at 2 players, 50 at 3): red alone plays, one card a turn, and every other seat's
    turn in it is a pass."""
    prefix = _after_a_bombastica_of_every_card(players)
    cards = {2: 40, 3: 50}[players]
    for seed in range(3):
        game = playout(prefix.config, seed, "slow:red", after=prefix)
        assert measure("longest_round", game) >= 2 * players * (cards - 3), seed
        second = [(state.current, action) for (action, _e, _s), (_a, _f, state)
                  in zip(game.steps[1:], game.steps, strict=False)
                  if isinstance(action, Play | Pass) and _s.round == 2]
        plays = [action for seat, action in second if isinstance(action, Play)]
        assert plays and all(action.count == 1 for action in plays)
        assert all(isinstance(action, Pass) for seat, action in second if seat != 0)


def test_a_slow_table_names_a_colour() -> None:
    assert get_policy("slow:green") is not None
    with pytest.raises(UnknownPolicyError, match="a slow table is slow:COLOUR"):
        get_policy("slow:blue")
