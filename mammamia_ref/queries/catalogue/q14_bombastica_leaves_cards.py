"""Query Q14-bombastica-leaves-cards (``spec/queries.yaml``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import z3

from mammamia_ref.queries import num as N
from mammamia_ref.queries.builders import all_hands_table
from mammamia_ref.queries.common import answer_flags
from mammamia_ref.queries.oven_rules import (
    order_terms_of,
    oven_leftovers,
    resolve_order,
)
from mammamia_ref.queries.registry import register
from mammamia_ref.queries.results import Verdict


@register("Q14-bombastica-leaves-cards")
def q14_bombastica_leaves_cards(query: Mapping[str, Any], answer: Mapping[str, Any]) -> Verdict:
    v = answer_flags(answer)
    table, hand, d, domain = all_hands_table()
    out = resolve_order(table, hand, order_terms_of("red.bombastica"), d, v)
    left = oven_leftovers(table, out.from_table)
    result, _ = N.check([*domain, out.legal, out.baked, N.Or(*[x > 0 for x in left])])
    return Verdict("unsat" if result == z3.unsat else "sat",
                   detail=f"every table, hand and decision: the table is empty after ({result})")
