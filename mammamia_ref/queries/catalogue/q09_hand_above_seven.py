"""Query Q09-hand-above-seven (``spec/queries.yaml``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mammamia_ref.queries.catalogue.common import answer_rules
from mammamia_ref.queries.catalogue.registry import register
from mammamia_ref.queries.catalogue.results import Verdict
from mammamia_ref.queries.model.proofs import (
    hand_limit,
    prove_invariant,
)


@register("Q09-hand-above-seven", parameters=True)
def q09_hand_above_seven(query: Mapping[str, Any], answer: Mapping[str, Any]) -> Verdict:
    rules = answer_rules(answer)   # the hand limit is the game's: 7 by the spec
    proof = prove_invariant(int(answer.get("players", 2)), rules, hand_limit, counts=True)
    return Verdict("unsat" if proof.holds else "sat",
                   detail=f"no hand above {rules.parameters.hand_limit} cards, 1-induction: "
                   + ", ".join(f"{k} {r}" for k, r in proof.cases.items()))
