"""Query Q13-bombastica-short-table (``spec/queries.yaml``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import z3

from mammamia_ref.queries import num as N
from mammamia_ref.queries.builders import all_hands_table, first_rounds, game_doc, search_opening
from mammamia_ref.queries.common import (
    a_game,
    answer_flags,
    counts_by_kind,
    expect_events,
    players_of,
    red_only,
)
from mammamia_ref.queries.decode import Replay
from mammamia_ref.queries.oven_rules import (
    order_terms_of,
    resolve_order,
)
from mammamia_ref.queries.registry import register
from mammamia_ref.queries.results import Verdict
from mammamia_ref.rules.typed_spec import BombasticaHand
from mammamia_ref.rules.vocabulary import (
    ORDER_TYPES,
)


@register("Q13-bombastica-short-table")
def q13_bombastica_short_table(query: Mapping[str, Any], answer: Mapping[str, Any]) -> Verdict:
    v = answer_flags(answer)
    total = ORDER_TYPES["bombastica"]["total"]
    if v.bombastica_hand == BombasticaHand.FORBIDDEN:
        table, hand, d, domain = all_hands_table()
        out = resolve_order(table, hand, order_terms_of("red.bombastica"), d, v)
        result, _ = N.check([*domain, out.legal, out.baked, N.Sum(table) < total])
        return Verdict("unsat" if result == z3.unsat else "sat",
                       detail="every table and hand: a baked Bombastica had 15 on the table "
                              f"({result})")
    players = players_of(answer)
    found = search_opening(players, v, lambda _m, step: N.And(
        step.facts["baked"], N.Sum(step.facts["table"]) < total),
        orders=red_only(players, ["red.bombastica"]), turns=first_rounds(players))
    if found is None:
        return Verdict("unsat", detail=f"no first round of up to {4 * players} turns")
    model, zm, step = found
    table = [N.value(zm, x) for x in step.facts["table"]]
    from_hand = [N.value(zm, x) for x in step.facts["from_hand"]]

    def expects(played: Replay) -> dict[int, dict[str, Any]]:
        return expect_events(played.played, [
            {"event": "completed_from_hand", "rule": "oven.complete_from_hand",
             "cards": counts_by_kind(from_hand)},
            {"event": "baked", "rule": "oven.bombastica", "order": "red.bombastica"}])

    doc = game_doc(query, answer, model, zm, "A Pizza Bombastica made up from hand",
                   f"{a_game(players)} whose first round lasts {model.schedule[0]} turns. Red's "
                   f"Bombastica turns up with only {sum(table)} cards on the table; red adds "
                   f"{sum(from_hand)} from hand and it bakes.",
                   ["oven.bombastica", "oven.complete_from_hand"], expects)
    return Verdict("sat", witness=doc, detail=f"{sum(table)} on the table, first round of "
                   f"{model.schedule[0]} turns")
