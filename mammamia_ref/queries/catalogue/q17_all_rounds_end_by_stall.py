"""Query Q17-all-rounds-end-by-stall (``spec/queries.yaml``)."""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from typing import Any

from mammamia_ref.queries.catalogue.builders import game_doc, search_game
from mammamia_ref.queries.catalogue.common import (
    a_game,
    answer_flags,
    by_plan,
    no_stall_rule,
    players_of,
    red_only,
    stall_story,
)
from mammamia_ref.queries.catalogue.planned import stalls_planned
from mammamia_ref.queries.catalogue.plans import SPEC_ROUNDS as ROUNDS
from mammamia_ref.queries.catalogue.registry import register
from mammamia_ref.queries.catalogue.results import Verdict
from mammamia_ref.queries.model import num as N
from mammamia_ref.queries.model.decode import Disagreement, Replay
from mammamia_ref.queries.model.game_model import GameModel
from mammamia_ref.rules.typed_spec import Stall


@register("Q17-all-rounds-end-by-stall")
def q17_all_rounds_end_by_stall(query: Mapping[str, Any],
                                answer: Mapping[str, Any]) -> Verdict:
    v = answer_flags(answer)
    if v.stall == Stall.LETTER:
        return no_stall_rule(v)
    if by_plan(answer):
        return stalls_planned(query, answer, ROUNDS)

    def goal(m: GameModel) -> Any:
        last = {}
        for s in m.of("turn"):
            last[s.round] = s
        return N.And(*[s.facts["stall"] for s in last.values()])

    players = players_of(answer)
    lengths = range(players, 2 * players + 1)
    schedules = sorted(itertools.product(lengths, repeat=3), key=lambda s: (sum(s), s))
    found = search_game(players, v, schedules, goal, orders=red_only(players))
    if found is None:
        return Verdict("unsat", detail=f"no game with rounds of {lengths.start} to "
                       f"{lengths.stop - 1} turns")
    model, zm = found

    def expects(played: Replay) -> dict[int, dict[str, Any]]:
        out = stall_story(played)
        if len(out) != ROUNDS:
            raise Disagreement(f"the reference ends {len(out)} rounds by the stall rule")
        return out

    doc = game_doc(query, answer, model, zm, "Three rounds, each ended by the stall rule",
                   f"{a_game(players)} whose rounds last {', '.join(map(str, model.schedule))} "
                   "turns: each ends by the stall rule, a full cycle of turns moving no card.",
                   ["round_end.stall", "game_end.three_resolutions"], expects)
    return Verdict("sat", witness=doc, detail=f"rounds of {model.schedule} turns")
