"""Query Q12-monotoni-absent-kind (``spec/queries.yaml``)."""

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
    describe_counts,
    expect_events,
    players_of,
    red_only,
)
from mammamia_ref.queries.decode import Replay
from mammamia_ref.queries.flags import FlagValues
from mammamia_ref.queries.game_model import GameModel
from mammamia_ref.queries.oven_rules import (
    NK,
    order_terms_of,
    resolve_order,
)
from mammamia_ref.queries.registry import register
from mammamia_ref.queries.results import Verdict
from mammamia_ref.rules.typed_spec import MonotoniKind
from mammamia_ref.rules.vocabulary import (
    KINDS,
)


def _monotoni_any(query: Mapping[str, Any], answer: Mapping[str, Any],
                  v: FlagValues) -> Verdict:
    def goal(_m: GameModel, step: Any) -> Any:
        named, table = step.sel.decision.named, step.facts["table"]
        return N.And(step.facts["baked"],
                     *[z3.Implies(named == k, table[k] == 0) for k in range(NK)])

    players = players_of(answer)
    found = search_opening(players, v, goal, orders=red_only(players, ["red.monotoni"]),
                           turns=first_rounds(players))
    if found is None:
        return Verdict("unsat", detail=f"no first round of up to {4 * players} turns")
    model, zm, step = found
    named = KINDS[N.value(zm, step.sel.decision.named)]
    table = [N.value(zm, x) for x in step.facts["table"]]
    from_hand = [N.value(zm, x) for x in step.facts["from_hand"]]

    def expects(played: Replay) -> dict[int, dict[str, Any]]:
        return expect_events(played.played, [
            {"event": "named_kind", "rule": "oven.monotoni", "kind": named},
            {"event": "completed_from_hand", "cards": counts_by_kind(from_hand)},
            {"event": "baked", "rule": "oven.bake", "order": "red.monotoni"}])

    doc = game_doc(query, answer, model, zm, "A Pizza Monotoni of a kind absent from the table",
                   f"{a_game(players)} whose first round lasts {model.schedule[0]} turns. Red's "
                   f"Monotoni turns up with {describe_counts(table)} on the table; red names "
                   f"{named}, of which there is none, and completes the order from hand.",
                   ["oven.monotoni", "oven.complete_from_hand"], expects)
    return Verdict("sat", witness=doc, detail=f"named {named}, first round of "
                   f"{model.schedule[0]} turns")


@register("Q12-monotoni-absent-kind")
def q12_monotoni_absent_kind(query: Mapping[str, Any], answer: Mapping[str, Any]) -> Verdict:
    v = answer_flags(answer)
    if v.monotoni_kind == MonotoniKind.ANY_OTHER:
        return _monotoni_any(query, answer, v)
    table, hand, d, domain = all_hands_table()
    out = resolve_order(table, hand, order_terms_of("red.monotoni"), d, v)
    absent = N.And(*[z3.Implies(d.named == k, table[k] == 0) for k in range(NK)])
    result, _ = N.check([*domain, out.legal, out.baked, absent])
    return Verdict("unsat" if result == z3.unsat else "sat",
                   detail="every table and hand: a baked Monotoni's kind was on the table "
                          f"({result})")
