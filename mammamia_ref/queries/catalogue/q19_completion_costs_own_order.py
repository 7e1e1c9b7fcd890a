"""Query Q19-completion-costs-own-order (``spec/queries.yaml``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import z3

from mammamia_ref.queries.catalogue.builders import game_runs_doc, two_decisions
from mammamia_ref.queries.catalogue.common import (
    a_game,
    answer_flags,
    expect_events,
    full_search,
    players_of,
    recheck,
    red_only,
)
from mammamia_ref.queries.catalogue.registry import register
from mammamia_ref.queries.catalogue.results import Verdict
from mammamia_ref.queries.model import num as N
from mammamia_ref.queries.model.decode import Replay
from mammamia_ref.queries.model.proofs import first_rounds
from mammamia_ref.rules.vocabulary import (
    ORDERS,
    ORDERS_OF,
)


def q19_claim(doc: Mapping[str, Any]) -> bool:
    """What a Q19 witness must expect: in run complete an order completed from hand bakes
    and a later order of the same owner fails; in run decline the reverse."""
    def outcomes(run: Mapping[str, Any]) -> list[tuple[str, str]]:
        return [(e["event"], e["order"]) for step in run["steps"]
                for e in step.get("expect", {}).get("events", ())
                if e["event"] in ("baked", "failed")]

    runs = {run["name"]: outcomes(run) for run in doc["runs"]}
    done, declined = runs.get("complete", []), runs.get("decline", [])
    if len(done) != 2 or len(declined) != 2:
        return False
    (e1, early), (e2, later) = done
    same_owner = early.split(".")[0] == later.split(".")[0] and early != later
    return same_owner and (e1, e2) == ("baked", "failed") and \
        declined == [("failed", early), ("baked", later)]


def _same(a: Any, b: Any) -> Any:
    """a == b as a z3 term, though both be plain ints."""
    return N.BoolVal(a == b) if isinstance(a, int) and isinstance(b, int) else a == b


@register("Q19-completion-costs-own-order")
def q19_completion_costs_own_order(query: Mapping[str, Any],
                                   answer: Mapping[str, Any]) -> Verdict:
    if not full_search():
        checked = recheck(query, answer, q19_claim, "the two runs replay, the completed "
                          "order baking and a later one of its owner failing in one, the "
                          "reverse in the other")
        if checked is not None:
            return checked
    v = answer_flags(answer)

    def differs(t: int, u: int, a: list[Any], b: list[Any]) -> Any:
        x, y = a[t].facts, b[t].facts
        return N.And(x["has_order"], x["baked"], N.Sum(x["from_hand"]) > 0, z3.Not(y["baked"]),
                     a[u].facts["has_order"], _same(x["owner"], a[u].facts["owner"]),
                     z3.Not(a[u].facts["baked"]), z3.Not(a[u].facts["outcome"].asked),
                     b[u].facts["baked"])

    # a search hint: red's four standard orders only, yellow's none
    standard = [o for o in ORDERS_OF["red"] if ORDERS[o].type == "standard"]
    players = players_of(answer)
    found = two_decisions(players, v, differs, orders=red_only(players, standard), pairs=True,
                          turns=first_rounds(players, 3), names=("complete", "decline"))
    if found is None:
        return Verdict("unsat", detail=f"no first round of 3 to {4 * players} turns")
    model, _zm, traces, (t, u) = found
    first = [c for c in traces[0][1].steps if type(c).__name__ == "RevealChoice"]
    early, later = first[t].order, first[u].order

    def expects(r: int, played: Replay) -> dict[int, dict[str, Any]]:
        events = [{"event": "baked", "order": early}, {"event": "failed", "order": later}] \
            if r == 0 else [{"event": "failed", "order": early},
                            {"event": "baked", "order": later}]
        return expect_events(played.played, events)

    owner = early.split(".")[0]
    doc = game_runs_doc(query, answer, model, traces,
                        "Completing an order from hand costs a later one",
                        f"{a_game(players)} whose first round lasts {model.schedule[0]} turns. "
                        f"{early} falls short and {owner} completes it from hand (run "
                        f"complete): the cards given are those {later}, revealed later, would "
                        f"have baked with, and it fails, whatever {owner} decides. "
                        f"Declining (run decline) lets {early} fail and {later} bake.",
                        ["oven.complete_from_hand", "oven.bake", "oven.fail"], expects)
    return Verdict("sat", witness=doc, detail=f"{early} then {later}, first round of "
                   f"{model.schedule[0]} turns")
