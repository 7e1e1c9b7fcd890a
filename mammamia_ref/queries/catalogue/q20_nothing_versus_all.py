"""Query Q20-nothing-versus-all (``spec/queries.yaml``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mammamia_ref.queries.catalogue.q04_all_orders_delivered import _q04_game
from mammamia_ref.queries.common import plan_fell_short, players_of, relabel
from mammamia_ref.queries.oven_rules import (
    N_ORDERS,
)
from mammamia_ref.queries.planned import all_orders_witness
from mammamia_ref.queries.registry import register
from mammamia_ref.queries.results import Verdict


@register("Q20-nothing-versus-all")
def q20_nothing_versus_all(query: Mapping[str, Any], answer: Mapping[str, Any]) -> Verdict:
    """Q04's game answers it: red delivers all eight orders, yellow, placing none,
    nothing (for three to five players, Q04's game there: :func:`all_orders_game`)."""
    if players_of(answer) > 2:
        built, doc = all_orders_witness(query, answer, "All eight orders against none",
                                         ["game_end.most_delivered", "turn.place_order",
                                          "oven.bake"], every_seat=True)
        counts = [len(d) for d in built.state.delivered]
        if built.state.phase != "over" or N_ORDERS not in counts or 0 not in counts:
            return plan_fell_short(f"its game ends with {counts} delivered")
        nothing = [built.config.colours[p] for p, n in enumerate(counts) if n == 0]
        return Verdict("sat", witness=doc, detail="the plan's game: delivered "
                       + ", ".join(map(str, counts)) + f" ({', '.join(nothing)} nothing)")
    found = _q04_game()
    if found is None:
        return Verdict("unsat", detail="Q04 found no game")
    doc, state = found
    counts = sorted(len(d) for d in state.delivered)
    if counts != [0, 8]:
        return Verdict("unsat", detail=f"Q04's game ends with {counts} delivered")
    witness = relabel(doc, query, answer, "All eight orders against none",
                       "The game of Q04: red, starting every round, places an order on each "
                       "of its turns and delivers all eight; yellow places none and ends the "
                       "game with nothing delivered.",
                       ["game_end.most_delivered", "turn.place_order", "oven.bake"])
    return Verdict("sat", witness=witness, detail="Q04's witness game, re-checked: "
                   "delivered 8 and 0")
