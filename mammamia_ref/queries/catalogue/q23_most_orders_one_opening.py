"""Query Q23-most-orders-one-opening (``spec/queries.yaml``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mammamia_ref.queries.catalogue.common import (
    a_game,
    answer_flags,
    built_doc,
    plan_variants,
    players_of,
)
from mammamia_ref.queries.catalogue.construct import build
from mammamia_ref.queries.catalogue.plans import (
    most_orders,
    six_orders,
)
from mammamia_ref.queries.catalogue.registry import register
from mammamia_ref.queries.catalogue.results import Verdict
from mammamia_ref.queries.model.errors import ModelBoundError
from mammamia_ref.queries.model.proofs import (
    orders_bound,
)
from mammamia_ref.rules.vocabulary import (
    COPIES,
    KINDS,
    ORDERS,
    ORDERS_OF,
)


@register("Q23-most-orders-one-opening")
def q23_most_orders_one_opening(query: Mapping[str, Any],
                                answer: Mapping[str, Any]) -> Verdict:
    """A plan's game in which red delivers the most orders it can at the first opening
    (two players: :func:`.plans.six_orders`; three to five: :func:`.plans.most_orders`),
    and z3's bound by the cards the orders need (:func:`.proofs.orders_bound`)."""
    v = answer_flags(answer)
    players = players_of(answer)
    if players not in (2, 3, 4, 5):
        raise ModelBoundError("Q23's plans are for two to five players", value=players)
    built = build(six_orders if players == 2 else most_orders, players,
                  plan_variants(answer), first_player=1)
    opened = [i for i, _e in built.events("oven_opened")]
    ends = [i for i, e in built.events("supply_gathered")] or [len(built.played) - 1]
    baked = [e for i, e in built.events("baked")
             if opened[0] <= i <= ends[0] and e.get("order").startswith("red.")]
    delivered = [e.get("order") for e in baked]
    upper, proof = orders_bound(players, v, "red")
    last = len(built.played) - 1
    cards = sum(c - t for c, t in zip(COPIES, built.state.box, strict=True))
    each = cards // len(KINDS)
    if upper >= len(ORDERS_OF["red"]):
        beyond = (f"No player can deliver more than the {upper} orders of a colour at one "
                  "opening.")
    else:
        beyond = (f"No player can deliver more at one opening of {a_game(players).lower()}: "
                  f"{upper + 1} orders of one colour need more cards of some kind than the "
                  f"{each} in play.")
    if players == 2:
        how = ("Red is dealt six salami and, on each of its first six turns, plays one with "
               "an order; yellow, placing none, plays just before it the cards that order "
               "needs (five pineapple, five mushroom, five pepper: each standard order "
               "leaves one, which the One-of-each finds with an olive; six olive for the "
               "Monotoni; three mushroom for the Minimale, the only kind it may take then).")
        rules = ["oven.open", "oven.bake", "oven.leftovers", "oven.minimale", "oven.monotoni",
                 "turn.place_order"]
    else:
        bombastica = sum(sum(e.get("used").values()) for e in baked
                         if ORDERS[e.get("order")].type == "bombastica")
        seats = built.config.colours
        dumpers = " and ".join(seats[1:players - 1]) + (" plays" if players == 3 else " play")
        how = (f"Red is dealt six salami and on each turn plays salami with its next order; "
               f"{dumpers} their six cards of one kind on their first turn and from then "
               f"on hold only orders; {seats[players - 1]}, just before red, plays what "
               "the table still lacks for red's next order, drawing the cards it plays next "
               "from the supply. Nobody else places an order. The Minimale comes first, "
               f"its three cards the lowest eligible kind; the Bombastica last, taking the "
               f"{bombastica} cards left on the table.")
        rules = ["oven.open", "oven.bake", "oven.leftovers", "oven.minimale", "oven.monotoni",
                 "oven.bombastica", "turn.place_order"]
    doc = built_doc(query, answer, built, f"Red delivers {len(delivered)} orders at one "
                    f"opening ({players} players)",
                    f"{a_game(players)}, yellow first. {how} At the first opening all "
                    f"{len(delivered)} bake: " + ", ".join(delivered) + f". {beyond}",
                    rules, {last: {"state": {"players": {"red": {"delivered": delivered}}}}})
    return Verdict("value", value=len(delivered), upper=upper if proof.holds else None,
                   witness=doc, evidence="game", upper_evidence="statement",
                   detail=f"the plan's game: {len(delivered)} orders at the first opening; "
                   f"the cards they need: " + ", ".join(f"{k} {r}" for k, r in
                                                        proof.cases.items()))
