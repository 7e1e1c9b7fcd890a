"""The plans that built the catalogue's first witnesses of its "most" questions, and the
bounds z3 proves against them (tests/plan_builder.py, tests/witness_plans.py,
mammamia_ref/queries/model/proofs.py).

- A plan's game goes through the reference: an illegal action is refused, a wish the
  supply cannot grant is refused, and the game ``build`` returns replays from a new
  game with its supply shuffles given in advance.
- The bounds are proofs that can fail: one card, order or turn less is not proved, an
  invariant that reachable states break is not inductive.
"""

from __future__ import annotations

from typing import Any

import pytest

z3 = pytest.importorskip("z3")

pytestmark = pytest.mark.z3

from mammamia_ref.errors import IllegalActionError, InternalError  # noqa: E402
from mammamia_ref.queries.model import num as N  # noqa: E402
from mammamia_ref.queries.model.proofs import (  # noqa: E402
    card_kept_at_openings,
    orders_bound,
    prove_invariant,
    round_length_bound,
    take_bound,
)
from mammamia_ref.rules.actions import Play, Shuffle  # noqa: E402
from mammamia_ref.rules.game import apply, new_game  # noqa: E402
from mammamia_ref.rules.state import make_config, variant_defaults  # noqa: E402
from mammamia_ref.rules.vocabulary import KINDS, MAMMA_MIA  # noqa: E402
from tests.plan_builder import Builder, build, deal_deck  # noqa: E402
from tests.witness_plans import bombastica_takes_all  # noqa: E402


def _replayed(built: Builder) -> Any:
    """The built game's actions applied to a new game: the state it ends in."""
    state = new_game(make_config(built.players, first_player=built.first_player,
                                 variants=dict(built.variants)))
    for action in built.actions:
        state, _events = apply(state, action)
    return state


def test_a_plan_cannot_play_an_illegal_action() -> None:
    """Red, dealt six salami, cannot play an olive: the reference refuses it."""
    from tests.witness_plans import _setup

    def plan(b: Builder) -> None:
        _setup(b, [["salami"] * 6, ["pineapple"] * 6], {})
        b.do(Play("olive", 1))

    with pytest.raises(IllegalActionError):
        build(plan, 2)


def test_a_wish_the_supply_cannot_grant_is_refused() -> None:
    def plan(b: Builder) -> None:
        from tests.witness_plans import _setup

        _setup(b, [["salami"] * 6, ["pineapple"] * 6], {})
        b.wish(["salami"] * 3)   # two salami are left in a two-player supply

    with pytest.raises(InternalError, match="lacks"):
        build(plan, 2)


def test_wishes_become_a_supply_given_in_advance() -> None:
    """The most-orders game at three players wishes for the feeder's draws: the game
    ``build`` returns shuffles the supply once, in the order the first pass drew it, and
    replays from a new game to the same end (seven red orders delivered)."""
    from tests.witness_plans import most_orders

    built = build(most_orders, 3, {}, first_player=1)
    supply = [a for a in built.actions if isinstance(a, Shuffle) and a.pile == "supply"]
    assert len(supply) == 1 and supply[0].order[-1] == MAMMA_MIA
    state = _replayed(built)
    assert len(state.delivered[0]) == 7 and state.delivered[1:] == ((), ())


@pytest.mark.parametrize("value", ["after_deal", "before_deal"])
def test_deal_deck_deals_the_hands_asked(value: str) -> None:
    hands = [["salami"] * 6, ["olive"] * 5 + ["pepper"]]
    rest = [k for k in KINDS for _ in range(8)]
    for k in ("salami",) * 6 + ("olive",) * 5 + ("pepper",):
        rest.remove(k)
    to = 1 if value == "before_deal" else None   # the deck holds the card only then
    deck = deal_deck(2, 0, hands, rest, mamma_mia_to=to)
    state = new_game(make_config(2, variants={"mamma_mia_shuffle": value}))
    state, _events = apply(state, Shuffle("ingredients", tuple(deck)))
    assert state.hands[0].ingredients == (6, 0, 0, 0, 0)
    assert state.hands[1].ingredients == (0, 0, 0, 1, 5)
    assert state.mamma_mia == to


def test_the_bombastica_plan_reaches_every_card_and_the_bound_is_tight() -> None:
    built = build(bombastica_takes_all(0), 2)
    (event,) = [e for _i, e in built.events("baked")]
    assert sum(event.get("used").values()) == 40
    v = variant_defaults()
    with N.building():
        assert take_bound(2, v, "red.bombastica", 40).holds
        assert not take_bound(2, v, "red.bombastica", 39).holds


def test_one_card_fewer_under_last_ingredient_needs_the_invariant() -> None:
    """Under round_end.last_ingredient 39 is proved with the invariant that a card stays
    out of the table at every opening; under last_card that invariant is not inductive
    (the plan's game breaks it), and without it 39 is not proved."""
    last = {**variant_defaults(), "round_end": "last_ingredient"}
    with N.building():
        assert take_bound(2, last, "red.bombastica", 39, card_kept_at_openings).holds
        assert not take_bound(2, last, "red.bombastica", 39).holds
        assert not prove_invariant(2, variant_defaults(), card_kept_at_openings).holds


def test_orders_bound_counts_cards_per_kind() -> None:
    """Two players: six orders of one colour fit in 8 cards a kind, seven never do;
    three players (10 a kind): seven fit, eight never do."""
    v = variant_defaults()
    with N.building():
        two, proof = orders_bound(2, v, "red")
        assert (two, proof.holds, proof.cases["7 orders"]) == (6, True, "unsat")
        three, proof = orders_bound(3, v, "yellow")
        assert (three, proof.holds, proof.cases["8 orders"]) == (7, True, "unsat")


def test_the_round_bound_needs_the_stall_rule() -> None:
    with N.building():
        bound, proof = round_length_bound(2, variant_defaults())
        assert proof.holds and bound == 198
        with pytest.raises(InternalError, match="for ever"):
            round_length_bound(2, {**variant_defaults(), "stall": "letter"})


@pytest.mark.parametrize(("players", "delivered"), [(3, 7), (4, 8), (5, 8)])
def test_most_orders_plans_deliver_at_one_opening(players: int, delivered: int) -> None:
    """Red delivers as many orders at the first opening as the card count allows (seven
    at three players, all eight at four and five), replayed from a new game; nobody
    else delivers and no order fails."""
    from tests.witness_plans import most_orders

    built = build(most_orders, players, {}, first_player=1)
    assert [e.get("order") for _i, e in built.events("failed")] == []
    state = _replayed(built)
    assert len(state.delivered[0]) == delivered
    assert all(d == () for d in state.delivered[1:])
    assert len(built.events("oven_opened")) == 1
