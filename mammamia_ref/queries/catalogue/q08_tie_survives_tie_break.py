"""Query Q08-tie-survives-tie-break (``spec/queries.yaml``)."""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from typing import Any

from mammamia_ref.queries import num as N
from mammamia_ref.queries.builders import game_doc, search_game
from mammamia_ref.queries.common import (
    all_tied,
    answer_flags,
    by_plan,
    full_search,
    recheck,
    red_only,
)
from mammamia_ref.queries.decode import Replay
from mammamia_ref.queries.flags import flag_values
from mammamia_ref.queries.game_model import OVER, GameModel
from mammamia_ref.queries.planned import tied_planned
from mammamia_ref.queries.registry import register
from mammamia_ref.queries.results import Verdict
from mammamia_ref.rules.typed_spec import FinalTie, Stall


@register("Q08-tie-survives-tie-break")
def q08_tie_survives(query: Mapping[str, Any], answer: Mapping[str, Any]) -> Verdict:
    """Under stall=letter the search takes about 20 s of CPU: by default its
    certificate, the committed witness game, is re-checked (:func:`recheck`). With 3 to 5
    players the answer is Q18's game, every player level (:func:`tied_planned`)."""
    if by_plan(answer):
        return tied_planned(query, answer)
    v = answer_flags(answer)
    if v.stall == Stall.LETTER and not full_search():
        checked = recheck(query, answer, all_tied, "the witness game replays and ends with "
                          "both players level on delivered orders and cards in hand")
        if checked is not None:
            return checked

    def goal(m: GameModel) -> Any:
        last = m.S[-1]
        return N.And(last.ph == OVER, m.delivered(last, 0) == m.delivered(last, 1),
                     N.Sum(last.hand[0]) == N.Sum(last.hand[1]))

    # under the letter of the rules (stall=letter) no round of 2 to 4 turns ends but by
    # running the supply out, which takes a first round of 5 turns
    lengths = range(2, 5) if v.stall == Stall.CUT else range(1, 6)
    schedules = sorted(itertools.product(lengths, repeat=3), key=lambda s: (sum(s), s))
    # the goal is the query's own (a tie the tie-break leaves); the reference scores it
    played = flag_values(v)
    found = search_game(2, played, schedules, goal, orders=red_only(2))
    if found is None:
        return Verdict("unsat", detail=f"no game with rounds of {lengths.start} to "
                       f"{lengths.stop - 1} turns")
    model, zm = found
    holder = N.value(zm, model.S[-1].mm)
    colours = model.colours
    if v.final_tie == FinalTie.SHARED:
        winners, rule = list(colours), "game_end.shared_win"
    else:
        winners, rule = [colours[holder]], "game_end.seat_order_win"
    held = N.value(zm, N.Sum(model.S[-1].hand[0]))

    def expects(played: Replay) -> dict[int, dict[str, Any]]:
        return {len(played.played) - 1: {"winners": winners, "winner_rule": rule}}

    doc = game_doc(query, answer, model, zm, "A tie the tie-break does not break",
                   f"Both players end the game with the same number of delivered orders and "
                   f"{held} ingredient cards in hand each; "
                   + ("they share the win." if rule == "game_end.shared_win" else
                      f"{colours[holder]}, the last Mamma Mia! holder, wins by seat order."),
                   ["game_end.most_delivered", "game_end.tie_break", rule,
                    "game_end.three_resolutions"], expects)
    return Verdict("sat", witness=doc, detail=f"rounds of {model.schedule} turns")
