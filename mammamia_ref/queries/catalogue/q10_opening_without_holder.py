"""Query Q10-opening-without-holder (``spec/queries.yaml``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mammamia_ref.queries.catalogue.common import answer_rules
from mammamia_ref.queries.catalogue.registry import register
from mammamia_ref.queries.catalogue.results import Verdict
from mammamia_ref.queries.model.proofs import (
    holder_at_opening,
    prove_invariant,
)


@register("Q10-opening-without-holder", parameters=True)
def q10_opening_without_holder(query: Mapping[str, Any], answer: Mapping[str, Any]) -> Verdict:
    proof = prove_invariant(int(answer.get("players", 2)), answer_rules(answer), holder_at_opening)
    return Verdict("unsat" if proof.holds else "sat",
                   detail="1-induction: " + ", ".join(f"{k} {r}" for k, r in proof.cases.items()))
