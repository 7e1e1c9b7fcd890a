"""The z3 game model against the engine, one opening at a time (issue 28).

Random reachable openings: seeded games the reference engine plays from a new deal under
the policies, two to five players, under flag values the game model follows. The whole
first round and its opening are unrolled in :class:`.game_model.GameModel` (as many turn
steps as the engine's first round had, a reveal step each, the transition), and every
state the engine shows is pinned on the model's states:

- the state at the start of each turn of the first round (hands, where every order card
  is, the supply, the oven, the Mamma Mia! card, the player to move);
- each order's outcome at the opening, in the order the engine reveals the orders (the
  model reveals turn ``j``'s cards at reveal step ``j``: the reveal order);
- the state once the opening is over and the next round's supply is gathered: the
  leftovers (on the model's table, in the engine's oven under ``leftovers=oven``, the
  same cards; dispute D10), where each failed order went (under its owner's waiter),
  where the cards that completed an order went (the used pile, then the next supply,
  never the owner's hand), the next round's supply and its first player.

The model must then have a run through exactly these states (z3: sat). The model is read,
never edited; a mutation of it (a completion card kept in the owner's hand, a failed
order delivered, the leftovers lost) makes some opening unsatisfiable, and the openings
are chosen so that each of those happens in some of them (the last test checks).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import pytest

z3 = pytest.importorskip("z3")

pytestmark = pytest.mark.z3

from mammamia_ref.queries.answering.searching import playout  # noqa: E402
from mammamia_ref.queries.catalogue.common import answer_flags  # noqa: E402
from mammamia_ref.queries.language.judging import Played  # noqa: E402
from mammamia_ref.queries.model import num as N  # noqa: E402
from mammamia_ref.queries.model.game_model import (  # noqa: E402
    DELIVERED,
    HAND,
    IN_OVEN,
    UNDER,
    WAITER,
    GameModel,
    State,
)
from mammamia_ref.rules.state import GameState, make_config  # noqa: E402
from mammamia_ref.rules.vocabulary import KINDS, MAMMA_MIA, ORDERS_OF  # noqa: E402

# (players, seed, policy, flag values): each a reachable opening; together they cover
# completions from hand, failed orders, leftovers, a Bombastica and every player count.
OPENINGS: list[tuple[int, int, str, dict[str, str]]] = [
    (2, 3, "random", {}),
    (2, 5, "careful", {}),
    (2, 11, "simple", {"completion": "mandatory"}),
    (2, 7, "random", {"round_end": "last_ingredient", "mamma_mia_shuffle": "before_deal"}),
    (2, 9, "random", {"draw_amount": "any", "pass_order": "allowed", "trimming": "off"}),
    (2, 2, "careful", {"minimale_lowest": "all_kinds", "monotoni_kind": "on_table"}),
    (3, 1, "random", {}),
    (3, 4, "careful", {"bombastica_hand": "forbidden"}),
    (4, 2, "simple", {}),
    (4, 6, "careful", {"refill": "as_many_as_played"}),
    (5, 3, "random", {}),
    (5, 8, "careful", {}),
]


@dataclass
class Opening:
    """The engine's first round and opening, as the model's steps see it."""

    game: Played
    starts: list[GameState]                  # the state at the start of each turn
    placed: list[str | None]                 # the order each turn placed, or None
    outcomes: list[tuple[str, bool]]         # (order, baked) in the order revealed
    after: GameState                         # once the next round's supply is gathered
    completed: int                           # cards taken from hand to complete orders
    leftovers: int                           # ingredient cards left after the opening


def first_opening(players: int, seed: int, policy: str, variants: dict[str, str]) -> Opening:
    game = playout(make_config(players, variants=variants), seed, policy)
    starts: list[GameState] = []
    placed: list[str | None] = []
    outcomes: list[tuple[str, bool]] = []
    completed = 0
    for _action, events, state in game.steps:
        for e in events:
            if e.name == "placed_order" and state.round == 1 and not outcomes:
                placed[-1] = e.get("order")
            elif e.name in ("baked", "failed"):
                outcomes.append((e.get("order"), e.name == "baked"))
            elif e.name == "completed_from_hand":
                completed += sum(e.get("cards").values()) if isinstance(
                    e.get("cards"), dict) else sum(e.get("cards"))
            elif e.name == "turn_begins" and state.round == 1:
                starts.append(state)
                placed.append(None)
            elif e.name == "supply_gathered":
                leftovers = sum(state.oven.count(k) for k in KINDS) + sum(state.table)
                return Opening(game, starts, placed, outcomes, state, completed, leftovers)
    raise AssertionError(f"game {players}p seed {seed} {policy}: no first opening")


def ingredient_counts(cards: Sequence[str]) -> list[int]:
    return [sum(1 for c in cards if c == k) for k in KINDS]


def pins(model: GameModel, s: State, state: GameState, failed: set[str], *,
         leftovers_anywhere: bool = False, player: bool = True) -> Iterator[Any]:
    """``s`` (a model state) equal to the engine's ``state``: hands, order cards, the
    supply, the oven, the table, the used pile, the Mamma Mia! card, who is to move.
    With ``leftovers_anywhere`` the table and oven are compared together (the model
    keeps leftovers on the table, the engine may move them to the oven)."""
    n = state.players
    for p in range(n):
        hand = state.hands[p]
        for k in range(len(KINDS)):
            yield s.hand[p][k] == hand.ingredients[k]
        for o, order in enumerate(ORDERS_OF[state.colour(p)]):
            where = (HAND if order in hand.orders else IN_OVEN if order in state.oven
                     else DELIVERED if order in state.delivered[p]
                     else UNDER if order in failed else WAITER)
            yield s.loc[p][o] == where
    supply = ingredient_counts(state.supply)
    oven = ingredient_counts(state.oven)
    for k in range(len(KINDS)):
        yield s.supply[k] == supply[k]
        yield s.used[k] == state.used[k]
        if leftovers_anywhere:
            yield s.table[k] + s.oven[k] == state.table[k] + oven[k]
        else:
            yield s.table[k] == state.table[k]
            yield s.oven[k] == oven[k]
    holder = -1 if state.mamma_mia is None or MAMMA_MIA in state.supply else state.mamma_mia
    yield s.mm == holder
    if player:
        yield s.cur == state.current


def model_of(opening: Opening, variants: dict[str, str]) -> tuple[GameModel, list[Any]]:
    """The model of the opening's first round and opening, and every pin."""
    players = opening.after.players
    turns = len(opening.starts)
    model = GameModel(players, answer_flags({"variants": variants}), schedule=(turns,))
    out: list[Any] = []
    with N.building(model.ctx):
        for j, state in enumerate(opening.starts):   # the state before turn step j
            out += pins(model, model.S[j], state, set())
        reveals = model.of("reveal")
        assert len(reveals) == turns
        revealed = iter(opening.outcomes)
        for j, step in enumerate(reveals):
            order = opening.placed[j]
            out.append(step.facts["has_order"] == (order is not None))
            if order is not None:
                got, baked = next(revealed)
                assert got == order   # the engine reveals the orders in the order placed
                out.append(step.facts["baked"] == baked)
        failed = {o for o, baked in opening.outcomes if not baked}
        out += pins(model, model.S[-1], opening.after, failed, leftovers_anywhere=True)
    return model, out


@pytest.mark.parametrize("case", OPENINGS, ids=lambda c: f"{c[0]}p-seed{c[1]}-{c[2]}-"
                         + ("-".join(f"{k}={v}" for k, v in c[3].items()) or "defaults")
                         if isinstance(c, tuple) else str(c))
def test_the_game_model_has_the_engines_opening(case: tuple[int, int, str, dict[str, str]]
                                                ) -> None:
    players, seed, policy, variants = case
    opening = first_opening(players, seed, policy, variants)
    with N.building():
        model, constraints = model_of(opening, variants)
        result, _zm = N.check([*model.constraints, *constraints])
    assert result == z3.sat, (
        f"the game model has no run through the engine's first round and opening "
        f"({players} players, seed {seed}, {policy}, {variants or 'defaults'}): "
        f"{len(opening.starts)} turns, outcomes {opening.outcomes}")


def test_the_openings_cover_what_an_opening_moves() -> None:
    """Completions from hand, failed and baked orders, leftovers, a Bombastica and every
    player count occur among the openings compared (else a mutation could hide)."""
    seen = [first_opening(*case) for case in OPENINGS]
    assert sum(o.completed for o in seen) > 0
    assert any(not baked for o in seen for _order, baked in o.outcomes)
    assert any(baked for o in seen for _order, baked in o.outcomes)
    assert sum(o.leftovers for o in seen) > 0
    assert any("bombastica" in order for o in seen for order, _b in o.outcomes)
    assert {o.after.players for o in seen} == {2, 3, 4, 5}
