"""Query Q04-all-orders-delivered (``spec/queries.yaml``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mammamia_ref.queries.catalogue.builders import game_doc, search_game
from mammamia_ref.queries.catalogue.common import (
    answer_flags,
    final_state,
    full_search,
    load_catalogue,
    plan_fell_short,
    players_of,
    recheck,
    supply_shuffles,
)
from mammamia_ref.queries.catalogue.planned import all_orders_witness, deliveries
from mammamia_ref.queries.catalogue.registry import register
from mammamia_ref.queries.catalogue.results import Verdict
from mammamia_ref.queries.model.decode import Replay
from mammamia_ref.queries.model.oven_rules import (
    N_ORDERS,
)

Q04_PLAN = (("red.minimale", "red.pineapple4", "red.bombastica"),
            ("red.mushroom4", "red.pepper4", "red.one_of_each"),
            ("red.olive4", "red.monotoni"))
Q04_SCHEDULE = (6, 6, 4)


@register("Q04-all-orders-delivered")
def q04_all_orders_delivered(query: Mapping[str, Any], answer: Mapping[str, Any]) -> Verdict:
    """Searched with a plan, a hint the witness need not follow otherwise: red starts
    every round and places its orders in the order of :data:`Q04_PLAN`, one on each of
    its turns; yellow places none. The search takes about 100 s of CPU: by default its
    certificate, the committed witness, is re-checked instead (:func:`recheck`). For
    three to five players: the game of :func:`.plans.all_orders` (:func:`all_orders_game`)."""
    if players_of(answer) > 2:
        return _q04_by_plan(query, answer)
    if not full_search():
        checked = recheck(query, answer, lambda state: len(state.delivered[0]) == N_ORDERS,
                          "the witness game replays and red has delivered all 8 orders")
        if checked is not None:
            return checked
    v = answer_flags(answer)
    plan: dict[tuple[int, int], str | None] = {}
    for r, (turns, orders) in enumerate(zip(Q04_SCHEDULE, Q04_PLAN, strict=True), start=1):
        for j in range(turns):
            plan[r, j] = orders[j // 2] if j % 2 == 0 and j // 2 < len(orders) else None
    placed = [o for orders in Q04_PLAN for o in orders]
    found = search_game(2, v, [Q04_SCHEDULE], lambda m: m.delivered(m.S[-1], 0) == N_ORDERS,
                        orders={0: placed, 1: []}, starts=(0, 0, 0), plan=plan)
    if found is None:
        return Verdict("unsat", detail="not within the plan")
    model, zm = found

    def expects(played: Replay) -> dict[int, dict[str, Any]]:
        rounds = [list(orders) for orders in Q04_PLAN]
        out: dict[int, dict[str, Any]] = {}
        done: list[str] = []
        shuffles = supply_shuffles(played.played)[1:]
        ends = [i - 1 for i in shuffles] + [len(played.played) - 1]
        for r, end in enumerate(ends):
            done += rounds[r]
            out[end] = {"state": {"players": {"red": {"delivered": list(done)}}}}
        out[len(played.played) - 1]["winners"] = ["red"]
        return out

    doc = game_doc(query, answer, model, zm, "Red delivers all eight orders",
                   "A two-player game in which red, starting every round, places an order on "
                   "each of its turns and yellow none: red delivers three orders in the first "
                   "round (the Bombastica last), three in the second and two in the third, "
                   "all eight.", ["game_end.three_resolutions", "turn.place_order", "turn.draw",
                                  "oven.bake", "oven.bombastica", "next_round.supply"], expects)
    return Verdict("sat", witness=doc, detail=f"rounds of {Q04_SCHEDULE} turns, orders "
                   + " / ".join(", ".join(o.split(".")[1] for o in r) for r in Q04_PLAN))


def _q04_by_plan(query: Mapping[str, Any], answer: Mapping[str, Any]) -> Verdict:
    """Q04 for three to five players: :func:`all_orders_game`, red's deliveries read
    from the reference's events and final state."""
    built, doc = all_orders_witness(query, answer, "Red delivers all eight orders",
                                     ["game_end.three_resolutions", "turn.place_order",
                                      "oven.bake", "oven.bombastica", "next_round.supply"],
                                     every_seat=False)
    state = built.state
    if state.phase != "over" or len(state.delivered[0]) != N_ORDERS:
        return plan_fell_short(f"red delivers {len(state.delivered[0])} (game "
                               f"{'over' if state.phase == 'over' else 'not over'})")
    per = [len(d) for d in deliveries(built, 0)]
    return Verdict("sat", witness=doc, detail="the plan's game: red delivers "
                   + " + ".join(str(n) for n in per) + " orders at the three openings")


def _q04_game() -> tuple[dict[str, Any], Any] | None:
    """Q04's witness game (its certificate re-checked, or searched in full) and the
    state it ends in."""
    q04 = next(q for q in load_catalogue() if q["id"] == "Q04-all-orders-delivered")
    found = q04_all_orders_delivered(q04, q04["answers"][0])
    if found.witness is None:
        return None
    return found.witness, final_state(found.witness)
