"""Query Q21-fewest-turns-all-orders (``spec/queries.yaml``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mammamia_ref.queries.catalogue.builders import game_doc, search_game
from mammamia_ref.queries.catalogue.common import (
    answer_flags,
    built_doc,
    final_state,
    full_search,
    load_catalogue,
    players_of,
    recheck,
    red_only,
    relabel,
    supply_shuffles,
)
from mammamia_ref.queries.catalogue.planned import all_orders_game, all_orders_story
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


def _q04_game() -> tuple[dict[str, Any], Any] | None:
    """Q04's two-player game, in which red delivers all eight orders placing one on each
    of its turns: its certificate, Q04's committed witness, re-checked; or (the full
    search) searched with a plan, a hint the witness need not follow otherwise: red
    starts every round and places its orders in the order of :data:`Q04_PLAN`, one on
    each of its turns; yellow places none (about 100 s of CPU). The game and the state
    it ends in."""
    query = next(q for q in load_catalogue() if q["id"] == "Q04-all-orders-delivered")
    answer = next(a for a in query["answers"] if players_of(a) == 2)
    found = None if full_search() else recheck(
        query, answer, lambda state: len(state.delivered[0]) == N_ORDERS,
        "the witness game replays and red has delivered all 8 orders")
    if found is None:
        found = _q04_search(query, answer)
    if found.witness is None:
        return None
    return found.witness, final_state(found.witness)


def _q04_search(query: Mapping[str, Any], answer: Mapping[str, Any]) -> Verdict:
    """The two-player game of :func:`_q04_game` searched with its plan, written as
    Q04's witness (the one committed)."""
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


@register("Q21-fewest-turns-all-orders")
def q21_fewest_turns_all_orders(query: Mapping[str, Any],
                                answer: Mapping[str, Any]) -> Verdict:
    """At least eight of the player's turns (a turn places at most one order,
    turn.place_order); Q04's game takes exactly eight of red's turns (for three to five
    players, Q04's game there, counting red's turns until its eighth order is delivered:
    :func:`all_orders_game`)."""
    if players_of(answer) == 3:
        return _q21_search_3p(query, answer)
    if players_of(answer) > 2:
        return _q21_by_plan(query, answer)
    found = _q04_game()
    if found is None:
        return Verdict("value", value=None, detail="Q04 found no game")
    doc, state = found
    if len(state.delivered[0]) != N_ORDERS:
        return Verdict("value", value=None, detail="Q04's game: red delivers fewer than 8")
    from mammamia_ref.rules.actions import parse_action

    turns = sum(1 for step in doc["steps"]
                if parse_action(step["do"]).__class__.__name__ in ("Play", "Pass"))
    red_turns = _turns_of(doc, 0)
    witness = relabel(doc, query, answer, "All eight orders in eight of one's turns",
                       f"The game of Q04: red delivers all eight orders in {red_turns} of its "
                       f"own turns ({turns} turns of the game in all), one order placed on "
                       "each; no player can do it in fewer, since a turn places at most one "
                       "order.", ["turn.place_order", "oven.bake", "game_end.three_resolutions"])
    return Verdict("value", value=red_turns, witness=witness,
                   detail=f"{red_turns} of red's turns, {turns} turns of the game")


Q21_PLAN_3P = (("red.minimale", "red.pineapple4", "red.mushroom4", "red.bombastica"),
               ("red.pepper4", "red.olive4", "red.one_of_each", "red.monotoni"))
Q21_SCHEDULE_3P = (12, 12)


def _q21_search_3p(query: Mapping[str, Any], answer: Mapping[str, Any]) -> Verdict:
    """Q21 for three players, where at most seven orders bake at one opening (Q23): a
    bounded search of two rounds of 12 turns with a plan (a search hint, as for Q04):
    red starts both rounds and places the orders of :data:`Q21_PLAN_3P`, one on each of
    its turns; the others place none. Red's turns and deliveries are read from the
    reference's replay. The search takes about 40 s of CPU: by default its certificate,
    the committed witness, is re-checked instead (:func:`recheck`), its red's turns
    counted again in the reference."""
    if not full_search():
        checked = recheck(query, answer, lambda state: len(state.delivered[0]) == N_ORDERS,
                          "the witness game replays and red has delivered all 8 orders")
        if checked is not None and checked.witness is not None:
            red_turns = _turns_of(checked.witness, 0)
            if red_turns == N_ORDERS:
                return Verdict("value", value=red_turns, witness=checked.witness,
                               detail=f"{checked.detail}; in {red_turns} of red's turns")
    v = answer_flags(answer)
    plan: dict[tuple[int, int], str | None] = {}
    for r, (turns, orders) in enumerate(zip(Q21_SCHEDULE_3P, Q21_PLAN_3P, strict=True),
                                        start=1):
        for j in range(turns):
            plan[r, j] = orders[j // 3] if j % 3 == 0 and j // 3 < len(orders) else None
    placed = [o for orders in Q21_PLAN_3P for o in orders]
    found = search_game(3, v, [Q21_SCHEDULE_3P], lambda m: m.delivered(m.S[-1], 0) == N_ORDERS,
                        orders=red_only(3, placed), starts=(0, 0), plan=plan)
    if found is None:
        return Verdict("value", value=None, detail="no game within the plan")
    model, zm = found

    def expects(played: Replay) -> dict[int, dict[str, Any]]:
        shuffles = supply_shuffles(played.played)[1:]
        ends = [i - 1 for i in shuffles]    # the last action of each opening
        if len(played.played) - 1 not in shuffles:
            ends.append(len(played.played) - 1)
        return {end: {"state": {"players": {"red": {
            "delivered": list(played.played[end].state.delivered[0])}}}} for end in ends}

    doc = game_doc(query, answer, model, zm, "All eight orders in eight of one's turns "
                   "(3 players)", "", ["turn.place_order", "oven.bake", "oven.bombastica",
                                       "next_round.supply"], expects)
    state = final_state(doc)
    red_turns = _turns_of(doc, 0)
    totals = [len(step["expect"]["state"]["players"]["red"]["delivered"])
              for step in doc["steps"] if "state" in step.get("expect", {})]
    per = [b - a for a, b in zip([0, *totals], totals, strict=False)]
    doc["description"] = (
        f"A 3-player game of two rounds of {Q21_SCHEDULE_3P[0]} turns, red starting both "
        "and placing an order on each of its turns, the others none: red delivers "
        + " and ".join(f"{n} at opening {r}" for r, n in enumerate(per, start=1))
        + f", all eight in {red_turns} of its turns. With 3 players at most seven orders "
        "bake at one opening (Q23), so two openings are needed; no player can do it in "
        "fewer than 8 turns, since a turn places at most one order.")
    if len(state.delivered[0]) != N_ORDERS or red_turns != N_ORDERS:
        return Verdict("value", value=None, detail=f"the game: {len(state.delivered[0])} "
                       f"delivered in {red_turns} of red's turns")
    return Verdict("value", value=red_turns, witness=doc,
                   detail=f"{red_turns} of red's turns, rounds of {Q21_SCHEDULE_3P} turns")


def _q21_by_plan(query: Mapping[str, Any], answer: Mapping[str, Any]) -> Verdict:
    """Q21 for three to five players: red's turns (plays and passes, read from the
    reference's states) until the action at which its eighth order is delivered, in
    :func:`all_orders_game`. The value is the fewest only when it is 8, the bound
    turn.place_order gives; otherwise the answer is no value."""
    from mammamia_ref.rules.actions import Pass, Play

    built = all_orders_game(answer)
    red_turns, at, mover = 0, None, None
    for i, entry in enumerate(built.played):
        if isinstance(entry.action, Play | Pass) and mover == 0:
            red_turns += 1
        if len(entry.state.delivered[0]) == N_ORDERS:
            at = i
            break
        mover = entry.state.current    # the seat to move after this action
    if at is None:
        return Verdict("value", value=None, detail="the plan's game: red delivers "
                       f"{len(built.state.delivered[0])} orders")
    turns = sum(1 for e in built.played[:at + 1] if isinstance(e.action, Play | Pass))
    if red_turns != N_ORDERS:
        return Verdict("value", value=None, detail=f"the plan's game takes {red_turns} of "
                       "red's turns, not the 8 turn.place_order allows: the fewest is not known")
    doc = built_doc(query, answer, built, f"All eight orders in eight of one's turns "
                    f"({built.players} players)",
                    all_orders_story(built) + f" Red's eighth order is delivered after "
                    f"{red_turns} of red's turns ({turns} turns of the game); no player can do "
                    "it in fewer, since a turn places at most one order.",
                    ["turn.place_order", "oven.bake", "game_end.three_resolutions"],
                    {at: {"state": {"players": {"red": {
                        "delivered": list(built.played[at].state.delivered[0])}}}}})
    return Verdict("value", value=red_turns, witness=doc,
                   detail=f"{red_turns} of red's turns, {turns} turns of the game until red's "
                   "eighth delivery")


def _turns_of(doc: Mapping[str, Any], seat: int) -> int:
    """How many turns ``seat`` plays in a one-run witness game."""
    from mammamia_ref.rules.actions import Pass, Play, parse_action
    from mammamia_ref.rules.game import apply, new_game
    from mammamia_ref.rules.state import make_config

    setup = doc["given"]["setup"]
    state = new_game(make_config(setup["players"], first_player=setup.get("first_player", 0),
                                 variants=doc.get("variants", {})))
    count = 0
    for step in doc["steps"]:
        action = parse_action(step["do"])
        if isinstance(action, Play | Pass) and state.current == seat:
            count += 1
        state, _events = apply(state, action)
    return count
