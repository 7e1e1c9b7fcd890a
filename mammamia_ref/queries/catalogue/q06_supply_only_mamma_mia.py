"""Query Q06-supply-only-mamma-mia (``spec/queries.yaml``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mammamia_ref.queries import num as N
from mammamia_ref.queries.builders import first_rounds, game_doc, search_game
from mammamia_ref.queries.common import (
    answer_flags,
    by_plan,
    mamma_mia_alone,
    players_of,
    red_only,
    supply_shuffles,
)
from mammamia_ref.queries.decode import Replay
from mammamia_ref.queries.planned import q06_planned
from mammamia_ref.queries.registry import register
from mammamia_ref.queries.results import Verdict
from mammamia_ref.rules.typed_spec import RoundEnd


@register("Q06-supply-only-mamma-mia")
def q06_supply_only_mamma_mia(query: Mapping[str, Any], answer: Mapping[str, Any]) -> Verdict:
    v = answer_flags(answer)
    players = players_of(answer)
    if by_plan(answer):
        return q06_planned(query, answer, v)
    found = search_game(players, v, [(t,) for t in first_rounds(players)],
                        lambda m: N.And(*[x == 0 for x in m.S[-1].supply]),
                        orders=red_only(players))
    if found is None:
        return Verdict("unsat", detail=f"no first round of up to {4 * players} turns")
    model, zm = found
    at_once = v.round_end == RoundEnd.LAST_INGREDIENT

    def expects(played: Replay) -> dict[int, dict[str, Any]]:
        shuffles = supply_shuffles(played.played)
        return mamma_mia_alone(shuffles[1], at_once)

    turns = model.schedule[0]
    then = ("the second round ends as it starts, its Mamma Mia! card going to the starting "
            "player" if at_once else "the second round's first draw from the supply will end it")
    doc = game_doc(query, answer, model, zm, "Round 2's supply: the Mamma Mia! card alone",
                   f"Nobody bakes an order in the first round, which ends after {turns} turns "
                   "with the supply drawn to the end: the next supply is the Mamma Mia! card "
                   f"alone, and {then}.",
                   ["next_round.supply", f"round_end.{v.round_end}", "mamma_mia.holder"],
                   expects)
    return Verdict("sat", witness=doc, detail=f"first round of {turns} turns, no order baked")
