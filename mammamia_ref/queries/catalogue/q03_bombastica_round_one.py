"""Query Q03-bombastica-round-one (``spec/queries.yaml``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mammamia_ref.queries import num as N
from mammamia_ref.queries.builders import first_rounds, game_doc, search_game
from mammamia_ref.queries.common import (
    a_game,
    answer_flags,
    counts_by_kind,
    expect_events,
    players_of,
    red_only,
)
from mammamia_ref.queries.decode import Replay
from mammamia_ref.queries.registry import register
from mammamia_ref.queries.results import Verdict
from mammamia_ref.rules.typed_spec import BombasticaHand


@register("Q03-bombastica-round-one")
def q03_bombastica_round_one(query: Mapping[str, Any], answer: Mapping[str, Any]) -> Verdict:
    v = answer_flags(answer)
    players = players_of(answer)
    found = search_game(players, v, [(t,) for t in first_rounds(players)],
                        lambda m: N.Or(*[s.facts["baked"] for s in m.of("reveal")]),
                        orders=red_only(players, ["red.bombastica"]))
    if found is None:
        return Verdict("unsat", detail=f"no first round of up to {4 * players} turns")
    model, zm = found
    step = next(s for s in model.of("reveal") if N.truth(zm, s.facts["baked"]))
    table = [N.value(zm, x) for x in step.facts["table"]]
    from_hand = [N.value(zm, x) for x in step.facts["from_hand"]]

    def expects(played: Replay) -> dict[int, dict[str, Any]]:
        events = []
        if any(from_hand):
            events.append({"event": "completed_from_hand", "order": "red.bombastica",
                           "cards": counts_by_kind(from_hand)})
        events.append({"event": "baked", "rule": "oven.bombastica", "order": "red.bombastica",
                       "used": counts_by_kind([t + h for t, h
                                               in zip(table, from_hand, strict=True)])})
        last = len(played.played) - 1
        return expect_events(played.played, events, {last: {"state": {
            "round": 2, "players": {"red": {"delivered": ["red.bombastica"]}}}}})

    turns = model.schedule[0]
    how = (f"with {sum(table)} cards on the table and {sum(from_hand)} from red's hand"
           if any(from_hand) else f"with {sum(table)} cards on the table")
    cards = sum(model.in_play)
    doc = game_doc(query, answer, model, zm,
                   f"A Pizza Bombastica in round 1 of a {players}-player game",
                   f"{a_game(players)} ({cards} ingredient cards after trimming) whose first round "
                   f"lasts {turns} turns; red's Bombastica bakes at the first opening {how}, "
                   "and takes the whole table.",
                   ["oven.bombastica", "oven.bombastica_table_only" if
                    v.bombastica_hand == BombasticaHand.FORBIDDEN else "oven.complete_from_hand",
                    "setup.trim", "round_end.last_card"], expects)
    return Verdict("sat", witness=doc, detail=f"first round of {turns} turns, {how}")
