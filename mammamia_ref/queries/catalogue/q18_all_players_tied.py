"""Query Q18-all-players-tied (``spec/queries.yaml``)."""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from typing import Any

from mammamia_ref.queries.catalogue.builders import game_doc, search_game
from mammamia_ref.queries.catalogue.common import (
    all_tied,
    answer_flags,
    by_plan,
    full_search,
    recheck,
    red_only,
)
from mammamia_ref.queries.catalogue.planned import tied_planned
from mammamia_ref.queries.catalogue.registry import register
from mammamia_ref.queries.catalogue.results import Verdict
from mammamia_ref.queries.model import num as N
from mammamia_ref.queries.model.decode import Replay
from mammamia_ref.queries.model.flags import flag_values
from mammamia_ref.queries.model.game_model import OVER, GameModel
from mammamia_ref.rules.typed_spec import FinalTie


@register("Q18-all-players-tied")
def q18_all_players_tied(query: Mapping[str, Any], answer: Mapping[str, Any]) -> Verdict:
    """The 3-player search takes about 340 s of CPU: by default its certificate, the
    committed witness game, is re-checked (:func:`recheck`)."""
    if by_plan(answer):
        return tied_planned(query, answer)
    if not full_search():
        checked = recheck(query, answer, all_tied, "the witness game replays and ends with "
                          "every player level on delivered orders and cards in hand")
        if checked is not None:
            return checked
    v = answer_flags(answer)
    players = int(answer.get("players", 3))

    def goal(m: GameModel) -> Any:
        last = m.S[-1]
        return N.And(last.ph == OVER,
                     *[m.delivered(last, p) == m.delivered(last, 0) for p in range(1, m.n)],
                     *[N.Sum(last.hand[p]) == N.Sum(last.hand[0]) for p in range(1, m.n)])

    lengths = range(players, 2 * players + 1)
    schedules = sorted(itertools.product(lengths, repeat=3), key=lambda s: (sum(s), s))
    played_flags = {flag: value for flag, value in flag_values(v).items() if flag != "final_tie"}
    found = search_game(players, played_flags, schedules, goal, orders=red_only(players))
    if found is None:
        return Verdict("unsat", detail=f"no game with rounds of {lengths.start} to "
                       f"{lengths.stop - 1} turns")
    model, zm = found
    holder = N.value(zm, model.S[-1].mm)
    if v.final_tie == FinalTie.SHARED:
        winners, rule = list(model.colours), "game_end.shared_win"
    else:
        winners, rule = [model.colours[holder]], "game_end.seat_order_win"
    held = N.value(zm, N.Sum(model.S[-1].hand[0]))

    def expects(played: Replay) -> dict[int, dict[str, Any]]:
        return {len(played.played) - 1: {"winners": winners, "winner_rule": rule}}

    doc = game_doc(query, answer, model, zm, f"All {players} players tied after the tie-break",
                   f"A {players}-player game whose rounds last "
                   f"{', '.join(map(str, model.schedule))} turns: every player ends with the "
                   f"same number of delivered orders and {held} ingredient cards in hand; "
                   + ("they all share the win." if rule == "game_end.shared_win" else
                      f"{model.colours[holder]}, the last Mamma Mia! holder, wins by seat "
                      "order."),
                   ["game_end.most_delivered", "game_end.tie_break", rule], expects,
                   beyond={"final_tie": v.final_tie})
    return Verdict("sat", witness=doc, detail=f"{players} players, rounds of "
                   f"{model.schedule} turns")
