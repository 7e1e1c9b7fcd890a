"""Query Q05-most-pizzas-one-opening (``spec/queries.yaml``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import z3

from mammamia_ref.queries import num as N
from mammamia_ref.queries.builders import oven_doc
from mammamia_ref.queries.common import _v
from mammamia_ref.queries.oven_model import OvenModel
from mammamia_ref.queries.registry import register
from mammamia_ref.queries.results import Verdict
from mammamia_ref.rules.vocabulary import (
    COLOURS,
    ORDER_TYPES,
    ORDERS,
    ORDERS_OF,
)


@register("Q05-most-pizzas-one-opening")
def q05_most_pizzas(query: Mapping[str, Any], answer: Mapping[str, Any]) -> Verdict:
    v = _v(answer)
    players = 2
    colours = COLOURS[:players]
    m0 = OvenModel(players, v, turns=1)
    cards = sum(m0.in_play)
    # Upper bound: every baked order takes at least its smallest requirement of distinct
    # cards, and no card is used twice in one opening.
    cheapest = {"standard": 5, "one_of_each": 5, "minimale": 4, "monotoni": 7,
                "bombastica": ORDER_TYPES["bombastica"]["total"]}
    chosen = {o: N.Bool(f"q05_{o}") for c in colours for o in ORDERS_OF[c]}
    use = N.Sum([N.If(x, cheapest[ORDERS[o].type], 0) for o, x in chosen.items()])
    count = N.Sum([N.If(x, 1, 0) for x in chosen.values()])
    bound = 0
    for k in range(len(chosen), 0, -1):
        result, _ = N.check([use <= cards, count >= k])
        if result == z3.sat:
            bound = k
            break
    # A witness reaching the bound (the cheapest orders suffice).
    cheap = {p: [o for o in ORDERS_OF[c] if ORDERS[o].type in ("standard", "minimale")]
             for p, c in enumerate(colours)}
    for turns in (bound, bound + 2):
        m = OvenModel(players, v, turns=turns, orders=cheap)
        _result, zm = N.check([*m.constraints, m.baked_count() >= bound])
        if zm is not None:
            break
    else:
        return Verdict("value", value=None, detail=f"upper bound {bound}, no witness found")
    run = m.read(zm)
    delivered: dict[str, list[str]] = {c: [] for c in colours}
    for (_k, _c, order), outcome in zip([t for t in run.turns if t[2]], run.runs[0], strict=True):
        if outcome["baked"] and order is not None:
            delivered[ORDERS[order].colour].append(order)

    def expects(_r: int, played: list[Any]) -> dict[int, dict[str, Any]]:
        return {len(played) - 1: {"state": {"players": {c: {"delivered": d}
                                                         for c, d in delivered.items()}}}}

    doc = oven_doc(query, answer, run, f"{bound} orders baked in one opening (2 players)",
                   f"The most orders one opening can bake in a two-player game is {bound}: "
                   f"the 40 ingredient cards cannot make more (each order takes at least 4 "
                   f"cards, only the two Minimales that few), and this opening bakes {bound}.",
                   ["oven.open", "oven.bake", "oven.leftovers", "setup.trim"], expects)
    return Verdict("value", value=bound, witness=doc,
                   detail=f"upper bound by card count ({cards} cards), reached by the witness")
