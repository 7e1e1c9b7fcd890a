"""Query Q11-mamma-mia-last-card (``spec/queries.yaml``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import z3

from mammamia_ref.queries import num as N
from mammamia_ref.queries.builders import first_rounds, game_doc, search_game, turn_end
from mammamia_ref.queries.common import answer_flags, by_plan, players_of, red_only
from mammamia_ref.queries.decode import Replay
from mammamia_ref.queries.free_steps import free_step
from mammamia_ref.queries.planned import q11_planned
from mammamia_ref.queries.proofs import (
    oven_contract,
)
from mammamia_ref.queries.registry import register
from mammamia_ref.queries.results import Verdict
from mammamia_ref.rules.typed_spec import DrawAmount, RoundEnd
from mammamia_ref.rules.vocabulary import (
    KINDS,
    MAMMA_MIA,
)


@register("Q11-mamma-mia-last-card")
def q11_mamma_mia_last_card(query: Mapping[str, Any], answer: Mapping[str, Any]) -> Verdict:
    v = answer_flags(answer)
    if v.round_end == RoundEnd.LAST_INGREDIENT:
        model, _before, _after, facts, constraints = free_step(
            2, v, "turn", "q11", contract=oven_contract, who=0)
        result, _ = N.check([*constraints, *model.well_formed(_before), facts["mm_last_card"]])
        return Verdict("unsat" if result == z3.unsat else "sat", evidence="statement",
                       detail=f"no turn from any state draws the Mamma Mia! card last ({result})")
    players = players_of(answer)
    if by_plan(answer):
        return q11_planned(query, answer)
    found = search_game(players, v, [(t,) for t in first_rounds(players)],
                        lambda m: N.Or(*[s.facts["mm_last_card"] for s in m.of("turn")]),
                        orders=red_only(players))
    if found is None:
        return Verdict("unsat", detail=f"no first round of up to {4 * players} turns")
    model, zm = found
    last = next(s for s in model.of("turn") if N.truth(zm, s.facts["mm_last_card"]))
    left = [N.value(zm, x) for x in model.S[last.before].supply]
    remaining = [k for k, n in zip(KINDS, left, strict=True) for _ in range(n)] + [MAMMA_MIA]

    def expects(played: Replay) -> dict[int, dict[str, Any]]:
        end = turn_end(played, last.index)
        return {end - 1: {"state": {"supply": remaining, "mamma_mia": None}},
                end: {"events": [{"event": "mamma_mia_drawn", "rule": "mamma_mia.draw"},
                                 {"event": "round_ended", "rule": "round_end.last_card",
                                  "round": 1}]}}

    doc = game_doc(query, answer, model, zm, "The Mamma Mia! card as the supply's last card",
                   f"The first round's last draw finds {len(remaining) - 1} ingredient card(s) "
                   "and, under them, the Mamma Mia! card: the drawer lays it out, the "
                   "replacement draw finds nothing and the round ends."
                   + (" Under draw_amount=any the player asks for more cards than there are "
                      "ingredients left, which reaches the Mamma Mia! card."
                      if v.draw_amount == DrawAmount.ANY else ""),
                   ["round_end.last_card", "mamma_mia.draw", "turn.draw_short"]
                   + (["turn.draw_fewer"] if v.draw_amount == DrawAmount.ANY else []), expects)
    return Verdict("sat", witness=doc, detail=f"first round of {model.schedule[0]} turns")
