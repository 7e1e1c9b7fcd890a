"""Query Q02-minimale-tie-decides (``spec/queries.yaml``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import z3

from mammamia_ref.queries.catalogue.builders import game_runs_doc, two_decisions
from mammamia_ref.queries.catalogue.common import (
    a_game,
    answer_flags,
    describe_counts,
    expect_events,
    full_search,
    players_of,
    recheck,
)
from mammamia_ref.queries.catalogue.registry import register
from mammamia_ref.queries.catalogue.results import Verdict
from mammamia_ref.queries.model import num as N
from mammamia_ref.queries.model.decode import Replay
from mammamia_ref.queries.model.oven_rules import (
    T_MINIMALE,
    T_ONE_OF_EACH,
    T_STANDARD,
)
from mammamia_ref.queries.model.proofs import first_rounds
from mammamia_ref.rules.typed_spec import MinimaleLowest
from mammamia_ref.rules.vocabulary import (
    ORDERS,
)


def q02_claim(doc: Mapping[str, Any]) -> bool:
    """What a Q02 witness must expect: two runs naming different kinds for the same
    Minimale, and a later order that bakes in one run and fails in the other."""
    def story(run: Mapping[str, Any]) -> list[tuple[str, str, str | None]]:
        return [(e["event"], e["order"], e.get("kind")) for step in run["steps"]
                for e in step.get("expect", {}).get("events", ())
                if e["event"] in ("named_kind", "baked", "failed")]

    runs = [story(run) for run in doc.get("runs", ())]
    if len(runs) != 2 or any(len(r) != 2 for r in runs):
        return False
    (n1, m1, k1), (o1, later1, _x) = runs[0]
    (n2, m2, k2), (o2, later2, _y) = runs[1]
    minimale = ORDERS.get(m1)
    return (n1 == n2 == "named_kind" and m1 == m2 and minimale is not None
            and minimale.type == "minimale" and k1 != k2 and later1 == later2
            and {o1, o2} == {"baked", "failed"})


@register("Q02-minimale-tie-decides")
def q02_minimale_tie_decides(query: Mapping[str, Any], answer: Mapping[str, Any]) -> Verdict:
    """The search takes up to about 15 s of CPU on a loaded machine: by default its
    certificate, the committed witness game, is re-checked (:func:`recheck`)."""
    if not full_search() and players_of(answer) == 2:
        checked = recheck(query, answer, q02_claim, "the two runs replay, the Minimale "
                          "naming one tied kind or the other and a later order baking in "
                          "one run only")
        if checked is not None:
            return checked
    v = answer_flags(answer)
    minimale_types = (T_STANDARD, T_ONE_OF_EACH)

    def differs(i: int, j: int, a: list[Any], b: list[Any]) -> Any:
        x, y = a[i].facts, b[i].facts
        later, later_b = a[j].facts, b[j].facts
        return N.And(x["has_order"], _order_type(a[i]) == T_MINIMALE,
                     a[i].sel.decision.named != b[i].sel.decision.named, x["baked"], y["baked"],
                     later["has_order"], N.Or(*[_order_type(a[j]) == t for t in minimale_types]),
                     later["baked"], z3.Not(later_b["baked"]))

    players = players_of(answer)
    found = two_decisions(players, v, differs, orders=None, pairs=True,
                          turns=first_rounds(players, 2), names=("first", "second"))
    if found is None:
        return Verdict("unsat", detail=f"no first round of up to {4 * players} turns")
    model, zm, traces, (tie, later_at) = found
    reveals = [c for c in traces[0][1].steps if type(c).__name__ == "RevealChoice"]
    alt = [c for c in traces[1][1].steps if type(c).__name__ == "RevealChoice"]
    minimale, later = reveals[tie].order, reveals[later_at].order
    names = [reveals[tie].named, alt[tie].named]
    table = [N.value(zm, x) for x in model.of("reveal")[tie].facts["table"]]
    runs = [(f"name-{names[r]}", trace) for r, (_n, trace) in enumerate(traces)]

    def expects(r: int, played: Replay) -> dict[int, dict[str, Any]]:
        baked = (reveals, alt)[r][later_at].baked
        return expect_events(played.played, [
            {"event": "named_kind", "order": minimale, "kind": names[r]},
            {"event": "baked" if baked else "failed", "order": later}])

    doc = game_runs_doc(query, answer, model, runs,
                        "The Minimale's tied kind decides a later order",
                        f"{a_game(players)} whose first round lasts {model.schedule[0]} turns. "
                        f"{minimale} turns up with {describe_counts(table)} on the table: "
                        f"{names[0]} and {names[1]} tie for the lowest count. Naming {names[0]} "
                        f"leaves the cards {later} needs, so it bakes; naming {names[1]} uses "
                        "them up and it fails.",
                        ["oven.minimale_all_kinds" if v.minimale_lowest == MinimaleLowest.ALL_KINDS
                         else "oven.minimale", "oven.leftovers", "oven.bake", "oven.fail"],
                        expects)
    return Verdict("sat", witness=doc, detail=f"{minimale} then {later}, first round of "
                   f"{model.schedule[0]} turns")


def _order_type(reveal: Any) -> Any:
    """The type code of the order a reveal step judges."""
    return reveal.facts["type"]
