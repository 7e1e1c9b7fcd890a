"""Query Q22-bombastica-most-cards (``spec/queries.yaml``)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
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
    bombastica_takes_all,
)
from mammamia_ref.queries.catalogue.registry import register
from mammamia_ref.queries.catalogue.results import Verdict
from mammamia_ref.queries.model.proofs import (
    card_kept_at_openings,
    take_bound,
)
from mammamia_ref.rules.typed_spec import RoundEnd
from mammamia_ref.rules.vocabulary import (
    COPIES,
)


def least_bound(prove: Callable[[int], Any], start: int, stop: int) -> tuple[int | None, Any]:
    """The least bound from ``start`` to ``stop`` that ``prove`` proves (its Proof)."""
    proof = None
    for bound in range(start, stop + 1):
        proof = prove(bound)
        if proof.holds:
            return bound, proof
    return None, proof


@register("Q22-bombastica-most-cards")
def q22_bombastica_most_cards(query: Mapping[str, Any], answer: Mapping[str, Any]) -> Verdict:
    """A plan's game in which red's Bombastica takes the most it can, and the least
    bound z3 proves from there on (the cards in play at most)."""
    v = answer_flags(answer)
    players = players_of(answer)
    last_ingredient = v.round_end == RoundEnd.LAST_INGREDIENT
    built = build(bombastica_takes_all(1 if last_ingredient else 0), players,
                  plan_variants(answer))
    baked = [(i, e) for i, e in built.events("baked") if e.get("order") == "red.bombastica"]
    if not baked:
        return Verdict("value", detail="the plan's Bombastica did not bake")
    at, event = baked[0]
    taken = sum(event.get("used").values())
    cards = sum(c - t for c, t in zip(COPIES, built.state.box, strict=True))
    invariant = card_kept_at_openings if last_ingredient else None
    upper, proof = least_bound(lambda bound: take_bound(players, v, "red.bombastica", bound,
                                                        invariant), taken, cards)
    left = ("under round_end=last_ingredient the round ends on the drawing of the "
            "supply's last ingredient card, which the drawer keeps: "
            if last_ingredient else "")
    doc = built_doc(query, answer, built, f"A Pizza Bombastica takes {taken} cards "
                    f"({players} players)",
                    f"{a_game(players)} ({cards} ingredient cards in play). Each player is "
                    "dealt six cards of one kind and nobody else places an order. The "
                    "players play out the supply and then their hands, drawing orders from "
                    f"their waiters; {left}red plays its last cards with its Bombastica and "
                    "draws, which ends the first round. The Bombastica is the oven's last "
                    f"card: it finds {taken} cards on the table and takes them all.",
                    ["oven.bombastica", "oven.leftovers", f"round_end.{v.round_end}"],
                    {at: {"events": [{"event": "baked", "rule": "oven.bombastica",
                                      "order": "red.bombastica",
                                      "used": dict(event.get("used"))}]}})
    how = "induction (a card stays in a hand, the supply or the used pile at every " \
          "opening) and one reveal step" if invariant else "one reveal step from every " \
          "reachable state (well-formedness proved by induction)"
    return Verdict("value", value=taken, upper=upper, witness=doc, evidence="game",
                   upper_evidence="induction" if invariant else "statement",
                   detail=f"the plan's game: {taken} cards; proved the most: {upper} ({how}: "
                   + ", ".join(f"{k} {r}" for k, r in proof.cases.items()) + ")")
