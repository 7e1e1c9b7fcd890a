"""Query Q15-completion-declined (``spec/queries.yaml``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import z3

from mammamia_ref.queries.catalogue.builders import all_hands_table, game_runs_doc, two_decisions
from mammamia_ref.queries.catalogue.common import a_game, answer_flags, expect_events, players_of
from mammamia_ref.queries.catalogue.registry import register
from mammamia_ref.queries.catalogue.results import Verdict
from mammamia_ref.queries.model import num as N
from mammamia_ref.queries.model.decode import Replay
from mammamia_ref.queries.model.oven_rules import (
    N_ORDERS,
    Decision,
    resolve_order,
    select_order,
)
from mammamia_ref.queries.model.proofs import first_rounds
from mammamia_ref.rules.typed_spec import Completion
from mammamia_ref.rules.vocabulary import (
    COLOURS,
)


@register("Q15-completion-declined")
def q15_completion_declined(query: Mapping[str, Any], answer: Mapping[str, Any]) -> Verdict:
    v = answer_flags(answer)
    if v.completion == Completion.MANDATORY:
        seat, index = N.Int("q15_seat"), N.Int("q15_index")
        order = select_order(COLOURS, seat, index)
        table, hand, d, domain = all_hands_table()
        other = Decision.fresh("q15_other")
        out = resolve_order(table, hand, order, d, v)
        alt = resolve_order(table, hand, order, other, v)
        result, _ = N.check([*domain, seat >= 0, seat < len(COLOURS), index >= 0, index < N_ORDERS,
                            out.legal, z3.Not(out.baked), alt.legal, alt.baked])
        return Verdict("unsat" if result == z3.unsat else "sat",
                       detail=f"every order, table, hand and pair of decisions ({result})")
    players = players_of(answer)
    found = two_decisions(players, v, lambda t, a, b: N.And(
        a[t].facts["has_order"], z3.Not(a[t].facts["baked"]), b[t].facts["baked"]),
        orders=None, turns=first_rounds(players))
    if found is None:
        return Verdict("unsat", detail=f"no first round of up to {4 * players} turns")
    model, _zm, traces, (t, _u) = found
    first = traces[0][1].steps
    choice = next(c for c in first if getattr(c, "step", None) == model.of("reveal")[t].index)
    order_id = choice.order

    def expects(r: int, played: Replay) -> dict[int, dict[str, Any]]:
        event = {"event": "baked", "order": order_id} if r == 1 else \
            {"event": "failed", "order": order_id}
        return expect_events(played.played, [event])

    doc = game_runs_doc(query, answer, model, traces,
                        "An owner who could complete an order declines",
                        f"{a_game(players)} whose first round lasts {model.schedule[0]} turns. "
                        f"{order_id} falls short on the table; its owner holds the missing cards "
                        "and may complete it (run complete) or decline (run decline), and then "
                        "it fails.", ["oven.complete_from_hand", "oven.fail"], expects)
    return Verdict("sat", witness=doc, detail=f"{order_id}, first round of "
                   f"{model.schedule[0]} turns")
