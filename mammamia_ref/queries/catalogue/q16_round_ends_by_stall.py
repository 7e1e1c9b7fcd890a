"""Query Q16-round-ends-by-stall (``spec/queries.yaml``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mammamia_ref.queries.catalogue.builders import game_doc, search_game
from mammamia_ref.queries.catalogue.common import (
    answer_flags,
    by_plan,
    no_stall_rule,
    players_of,
    red_only,
    stall_story,
)
from mammamia_ref.queries.catalogue.planned import stalls_planned
from mammamia_ref.queries.catalogue.registry import register
from mammamia_ref.queries.catalogue.results import Verdict
from mammamia_ref.queries.model import num as N
from mammamia_ref.queries.model.game_model import GameModel
from mammamia_ref.queries.model.proofs import first_rounds
from mammamia_ref.rules.typed_spec import Stall


@register("Q16-round-ends-by-stall")
def q16_round_ends_by_stall(query: Mapping[str, Any], answer: Mapping[str, Any]) -> Verdict:
    v = answer_flags(answer)
    if v.stall == Stall.LETTER:
        return no_stall_rule(v)
    if by_plan(answer):
        return stalls_planned(query, answer, 1)

    def goal(m: GameModel) -> Any:
        return N.Or(*[s.facts["stall"] for s in m.of("turn")])

    players = players_of(answer)
    found = search_game(players, v, [(t,) for t in first_rounds(players)], goal,
                        orders=red_only(players))
    if found is None:
        return Verdict("unsat", detail=f"no first round of up to {4 * players} turns")
    model, zm = found
    doc = game_doc(query, answer, model, zm, "A round ended by the stall rule",
                   f"From a new game, the first round ends after {model.schedule[0]} turns: "
                   "a full cycle of turns moves no card, and the stall rule ends the round "
                   "with supply cards left.", ["round_end.stall", "turn.pass"], stall_story)
    return Verdict("sat", witness=doc, detail=f"first round of {model.schedule[0]} turns")
