"""One step of the game model from an *arbitrary* well-formed state: the transition
relation that the induction proofs (:mod:`.proofs`, :mod:`..answering.unbounded`) quantify over,
and the state after the setup (their base case). The unrolled runs are
:class:`.game_model.GameModel`'s."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import z3

from mammamia_ref.queries.model import num as N
from mammamia_ref.queries.model.flags import FlagValues
from mammamia_ref.queries.model.game_model import (
    IN_OVEN,
    NO,
    OVEN,
    TURN,
    Block,
    GameModel,
    Selectors,
    State,
)
from mammamia_ref.queries.model.oven_rules import N_ORDERS, NK
from mammamia_ref.rules.vocabulary import COLOURS


def stub(players: int, variants: FlagValues, name: str = "free",
         colours: Sequence[str] | None = None) -> GameModel:
    """A model with no unrolling: its rules and helpers, for one-step statements (the
    seats coloured ``colours``, the manifest's first by default)."""
    model = GameModel.__new__(GameModel)
    model.ctx = N.current()
    model.n = players
    model._rules_of(variants)
    model.schedule, model.R, model.first, model.open_last, model.end_last = (), 0, 0, False, False
    model.colours, model.p, model.allowed = tuple(colours or COLOURS[:players]), name, None
    model.fixed_starts, model.plan = None, {}
    model.constraints, model.S, model.steps, model.starts = [], [], [], []
    return model


def setup_state(players: int, variants: FlagValues,
                name: str = "init") -> tuple[GameModel, State, list[Any]]:
    """The state after the setup, the solver choosing the shuffles (base case of
    induction proofs)."""
    model = stub(players, variants, name)
    s = State.fresh(f"{name}_s", players)
    return model, s, model.domain(s) + model.setup(s)


def free_step(players: int, variants: FlagValues, what: str, name: str = "free",
              contract: Any = None, who: int | None = None,
              colours: Sequence[str] | None = None
              ) -> tuple[GameModel, State, State, dict[str, Any], list[Any]]:
    """One step of kind ``what`` ("turn", "reveal" or "transition") from an arbitrary
    well-formed state (and, for a reveal, an arbitrary turn's cards): the transition
    relation that induction proofs quantify over (a turn of seat ``who``, if given).
    Returns the model (for its helpers),
    the states before and after, the step's facts and the constraints."""
    model = stub(players, variants, name, colours)
    s = State.fresh(f"{name}_before", players)
    a = Selectors.fresh(f"{name}_a")
    constraints = model.domain(s) + model.well_formed(s)
    if what == "turn":
        active = s.ph == TURN
        new, facts, legal = model.turn(s, a, who)
    elif what == "reveal":
        i = N.Int
        block = Block(N.BoolVal(True), i(f"{name}_bk"), i(f"{name}_bc"), i(f"{name}_bo"),
                      i(f"{name}_bw"))
        constraints.append(N.And(block.kind >= NO, block.kind < NK, block.count >= 0,
                                 (block.kind == NO) == (block.count == 0), block.order >= NO,
                                 block.order < N_ORDERS, block.owner >= 0,
                                 block.owner < players))
        # an order revealed is one its owner placed: it lies in the oven; so do the
        # ingredient cards revealed
        for p in range(players):
            for o in range(N_ORDERS):
                constraints.append(z3.Implies(N.And(block.owner == p, block.order == o),
                                              s.loc[p][o] == IN_OVEN))
        constraints += [z3.Implies(block.kind == k, block.count <= s.oven[k]) for k in range(NK)]
        active = s.ph == OVEN
        new, facts, legal = model.reveal(s, a, block, contract)
    else:
        # the oven is empty: every card in it has been revealed
        constraints += [x == 0 for x in s.oven]
        constraints += [x != IN_OVEN for row in s.loc for x in row]
        active = s.ph == OVEN
        new, facts, legal = model.transition(s)
    facts["selectors"] = a
    facts["who"] = s.cur if who is None else who
    if what == "reveal":
        facts["block"] = block
    after = State.fresh(f"{name}_after", players)
    constraints += [active, legal]
    constraints += [x == y for x, y in zip(after.fields(), new.fields(), strict=True)]
    constraints += model.domain(after)
    return model, s, after, facts, constraints


__all__ = ["free_step", "setup_state", "stub"]
