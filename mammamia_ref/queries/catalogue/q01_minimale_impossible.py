"""Query Q01-minimale-impossible (``spec/queries.yaml``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import z3

from mammamia_ref.queries import num as N
from mammamia_ref.queries.builders import first_rounds, game_doc, reveal_hand, search_opening
from mammamia_ref.queries.common import (
    a_game,
    answer_flags,
    describe_counts,
    expect_events,
    players_of,
    red_only,
)
from mammamia_ref.queries.decode import Replay
from mammamia_ref.queries.flags import flag_values
from mammamia_ref.queries.game_model import GameModel
from mammamia_ref.queries.oven_rules import (
    NK,
    Decision,
    order_terms_of,
    resolve_order,
)
from mammamia_ref.queries.registry import register
from mammamia_ref.queries.results import Verdict
from mammamia_ref.rules.typed_spec import MinimaleLowest
from mammamia_ref.rules.vocabulary import (
    KINDS,
)


def _table_no_hand_saves(v: Any, order: Any, personal: int) -> list[int] | None:
    """The ∃table ∀hand statement: a table with a non-personal kind on which no hand of at
    most 7 cards, and no decision, bakes red's Minimale (None if there is none)."""
    in_play = 8
    table = [N.Int(f"q01_table{k}") for k in range(NK)]
    hand = [N.Int(f"q01_hand{k}") for k in range(NK)]
    d = Decision.fresh("q01")
    out = resolve_order(table, hand, order, d, v)
    hand_ok = N.And(*[N.And(h >= 0, h + t <= in_play) for h, t in zip(hand, table, strict=True)],
                    N.Sum(hand) <= 7)
    s = N.Solver()
    s.add([N.And(t >= 0, t <= in_play) for t in table])
    s.add(N.Or(*[table[k] > 0 for k in range(NK) if k != personal]))
    s.add(z3.ForAll([*hand, d.named, d.complete, *d.take],
                    z3.Implies(N.And(hand_ok, out.legal), z3.Not(out.baked))))
    if s.check() == z3.unsat:
        return None
    return [N.value(s.model(), t) for t in table]


@register("Q01-minimale-impossible")
def q01_minimale_impossible(query: Mapping[str, Any], answer: Mapping[str, Any]) -> Verdict:
    v = answer_flags(answer)
    order = order_terms_of("red.minimale")        # any colour: red's personal kind is salami
    personal = KINDS.index("salami")
    example = _table_no_hand_saves(v, order, personal)
    if example is None:
        return Verdict("unsat", detail="for every table with a non-personal kind some hand "
                       "completes the Minimale (z3: the ∃table ∀hand statement is unsat)")
    # the witness: a game whose first opening turns up red's Minimale on such a table,
    # where red's hand would save it under the other reading (eligible kinds)
    eligible = {**flag_values(v), "minimale_lowest": MinimaleLowest.ELIGIBLE_KINDS}
    saves: dict[int, Decision] = {}

    def goal(model: GameModel, step: Any) -> Any:
        out_here = step.facts["outcome"]
        table_here = step.facts["table"]
        other = Decision.fresh(f"q01_other{step.index}")
        saves[step.index] = other
        saved = resolve_order(table_here, reveal_hand(model, step), order, other, eligible)
        return N.And(step.facts["has_order"], z3.Not(N.Or(*out_here.permitted)),
                     N.Or(*[table_here[k] > 0 for k in range(NK) if k != personal]),
                     saved.legal, saved.baked)

    players = players_of(answer)
    found = search_opening(players, v, goal, orders=red_only(players, ["red.minimale"]),
                           turns=first_rounds(players))
    if found is None:
        return Verdict("sat", detail="position-level only: no first round of up to "
                       f"{4 * players} turns "
                       f"reaches such a table; e.g. table {describe_counts(example)}")
    model, zm, step = found
    table_seen = [N.value(zm, x) for x in step.facts["table"]]
    named = KINDS[N.value(zm, saves[step.index].named)]
    held = [N.value(zm, x) for x in reveal_hand(model, step)]

    def expects(played: Replay) -> dict[int, dict[str, Any]]:
        return expect_events(played.played, [
            {"event": "failed", "rule": "oven.minimale_all_kinds", "order": "red.minimale"}])

    doc = game_doc(query, answer, model, zm,
                   "A Pizza Minimale no hand can save (lowest over all kinds)",
                   f"{a_game(players)} whose first round lasts {model.schedule[0]} turns. Red's "
                   f"Minimale turns up with {describe_counts(table_seen)} on the table and red "
                   f"holding {describe_counts(held)}. Under minimale_lowest=all_kinds the lowest "
                   "count is the personal salami's alone, so no kind may be named and the "
                   "order fails whatever red holds; red's hand would have made it bake under "
                   f"eligible_kinds, naming {named}. (z3's ∃table ∀hand search found such "
                   f"tables, e.g. {describe_counts(example)}.)",
                   ["oven.minimale_all_kinds", "oven.fail"], expects)
    return Verdict("sat", witness=doc, detail=f"e.g. table {describe_counts(example)}; first round "
                   f"of {model.schedule[0]} turns")
