"""The z3 half of the derived field ``turned_by`` (:mod:`..language.turning`, the
reference's half): an opening of the game model run again, the same cards turned up in
the same order, with decisions of its own, so that one run can say what a decision
taken otherwise would have done.

Each round's opening gets one such alternative chain (built once a model and round,
then shared): it witnesses one turned order at a time, so the question language
refuses a condition that needs two at once (:func:`..language.conditions.shape`).
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import z3

from mammamia_ref.queries.model import num as N
from mammamia_ref.queries.model.game_model import GameModel
from mammamia_ref.queries.model.game_terms import Selectors, Step
from mammamia_ref.queries.model.oven_rules import Decision


@dataclass(frozen=True)
class Alternative:
    """A round's opening again: each reveal's decisions and whether its order bakes, and
    the rules' constraints on those decisions (``legal``)."""

    reveals: tuple[Step, ...]          # the run's reveal steps of the round, in order
    decisions: tuple[Decision, ...]
    baked: tuple[Any, ...]
    legal: Any


_KEPT: weakref.WeakKeyDictionary[GameModel, dict[int, Alternative]] = \
    weakref.WeakKeyDictionary()
"""Each model's alternative chains, by round, while the model lives."""


def alternative(model: GameModel, round_: int) -> Alternative:
    """The alternative chain of ``round_``'s opening (one a model and round)."""
    kept = _KEPT.setdefault(model, {})
    if round_ not in kept:
        reveals = tuple(s for s in model.steps if s.what == "reveal" and s.round == round_)
        state = model.S[reveals[0].before]
        decisions, baked, legal = [], [], []
        for step in reveals:
            sel = Selectors.fresh(f"{model.p}_alt{step.index}")
            state, facts, ok = model.reveal(state, sel, step.facts["block"])
            decisions.append(sel.decision)
            baked.append(facts["baked"])
            legal.append(ok)
        kept[round_] = Alternative(reveals, tuple(decisions), tuple(baked), N.And(*legal))
    return kept[round_]


def alike(x: Decision, y: Decision) -> Any:
    """The same decisions on one order: the kind named, completing or not, a
    Bombastica's hand cards (the model's canonical values where nothing is asked)."""
    return N.And(x.named == y.named, x.complete == y.complete,
                 *[p == q for p, q in zip(x.take, y.take, strict=True)])


def otherwise(deciding: str, mine: Decision, other: Decision) -> Any:
    """``other`` takes the decision ``mine`` took otherwise: another kind named
    (``named_kind``), or the completion declined, the same kind named
    (``completed_from_hand``)."""
    if deciding == "named_kind":
        return other.named != mine.named
    return N.And(other.named == mine.named, z3.Not(other.complete))


def turned_by(deciding: str, decided: Callable[[Step], Any], step: Step,
              model: GameModel) -> Any:
    """Whether an earlier reveal of ``step``'s opening whose decision ``decided`` (the
    deciding event ``deciding``, with the fields asked), taken otherwise, and every other
    decision of the opening taken alike, gives ``step``'s order the other outcome:
    another kind the rule offers (``named_kind``; completing or not as the owner may),
    or declining the completion, the same kind named (``completed_from_hand``)."""
    chain = alternative(model, step.round)
    u = chain.reveals.index(step)
    options = []
    for t, at in enumerate(chain.reveals[:u]):
        rest = [alike(x.sel.decision, chain.decisions[i])
                for i, x in enumerate(chain.reveals) if i != t]
        options.append(N.And(decided(at), otherwise(deciding, at.sel.decision,
                                                     chain.decisions[t]), *rest))
    if not options:
        return N.BoolVal(False)
    return N.And(chain.legal, z3.Or(*options), chain.baked[u] != step.facts["baked"])


__all__ = ["Alternative", "alike", "alternative", "otherwise", "turned_by"]
