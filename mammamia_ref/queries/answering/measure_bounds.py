"""The proved bounds of a measure (``most:`` / ``fewest:``), where one is known: an upper
bound a ``most:`` value cannot pass, a lower bound a ``fewest:`` value cannot go below,
each with how it is proved (``ranking``, ``statement``, ``induction`` by z3, or
``counting``). ``ask`` reads them first, so that a search or the game model that meets
one stops there ("exact")."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mammamia_ref.rules.ruleset import Rules
from mammamia_ref.rules.typed_spec import Stall
from mammamia_ref.rules.vocabulary import COLOURS


def upper_bound(name: Any, players: int, rules: Rules) -> tuple[int | None, str | None]:
    """A proved upper bound of a measure under ``rules``, where one is known: z3's
    (``ranking``: :func:`..model.proofs.round_length_bound`; ``statement``: the cards the
    orders need, all colours together, :func:`..model.proofs.card_bound`, or
    :func:`..model.proofs.orders_bound` of every colour in play, whichever is less;
    ``induction``: no hand above the hand limit, :func:`..model.proofs.hand_limit`; no
    Bombastica takes every card in play where one always stays off the table,
    :func:`_card_kept`) or by counting (the orders dealt, the ingredient cards in play).
    A z3 model that does not follow one of the rules gives none (it refuses rather than
    answer under other rules)."""
    from mammamia_ref.errors import VariantError
    from mammamia_ref.queries.model import num as N
    from mammamia_ref.queries.model.proofs import (
        card_bound,
        hand_limit,
        prove_invariant,
        round_length_bound,
    )
    from mammamia_ref.rules.setup import trimmed_per_kind
    from mammamia_ref.rules.vocabulary import COPIES, ORDERS_OF

    numbers = rules.parameters
    if isinstance(name, Mapping):
        return _form_upper_bound(name, players, rules)
    try:
        with N.building():
            if name in ("longest_round", "turns") and rules.flags.stall == Stall.CUT:
                bound, proof = round_length_bound(players, rules)
                if proof.holds:
                    return (bound if name == "longest_round" else numbers.rounds * bound), \
                        "ranking"
            if name == "baked_one_opening":
                # the cards every order needs, all colours together (Q05's count), and
                # the most each colour can deliver at one opening (Q23's), whichever is less
                bounds = _orders_bounds(players, rules)
                total = None if bounds is None else sum(bounds)
                with N.building():
                    cards, _in_play = card_bound(players, rules)
                return (cards if total is None else min(total, cards)), "statement"
            if name == "largest_hand":
                proof = prove_invariant(players, rules, hand_limit, counts=True)
                return (numbers.hand_limit, "induction") if proof.holds else (None, None)
    except VariantError:
        return None, None
    if name in ("baked", "delivered"):
        return sum(len(ORDERS_OF[c]) for c in COLOURS[:players]), "counting"
    if name == "bombastica_cards":
        trimmed = trimmed_per_kind(numbers.trimming, players, rules.flags.trimming)
        cards = sum(c - trimmed for c in COPIES)
        return (cards - 1, "induction") if _card_kept(players, rules, cards - 1) \
            else (cards, "counting")
    return None, None


def _card_kept(players: int, rules: Rules, bound: int) -> bool:
    """z3: no colour's Pizza Bombastica takes more than ``bound`` cards, where some
    ingredient card stays off the table at every opening (an invariant proved inductive
    first, :func:`..model.proofs.card_kept_at_openings`; it holds under
    ``round_end.last_ingredient``, Q22's proof): a fraction of a second a colour."""
    from mammamia_ref.errors import VariantError
    from mammamia_ref.queries.model import num as N
    from mammamia_ref.queries.model.proofs import card_kept_at_openings, take_bound
    from mammamia_ref.rules.vocabulary import ORDERS, ORDERS_OF

    try:
        with N.building():
            return all(take_bound(players, rules, order, bound, card_kept_at_openings).holds
                       for colour in COLOURS[:players] for order in ORDERS_OF[colour]
                       if ORDERS[order].type == "bombastica")
    except VariantError:
        return False


def _form_upper_bound(form: Mapping[str, Any], players: int, rules: Rules
                      ) -> tuple[int | None, str | None]:
    """A seat's orders baked in one round (``some_seat: s`` with ``most_in_a_round:``
    ``baked`` at ``s``'s seat, nothing else): the most any colour can deliver at one
    opening, z3's :func:`..model.proofs.orders_bound` (``statement``)."""
    from mammamia_ref.errors import VariantError
    from mammamia_ref.queries.model import num as N

    counted = form.get("most_in_a_round")
    if "some_seat" not in form or counted != {"event": "baked",
                                              "where": {"seat": form["some_seat"]}}:
        return None, None
    try:
        with N.building():
            bounds = _orders_bounds(players, rules)
    except VariantError:
        return None, None
    return (None, None) if bounds is None else (max(bounds), "statement")


def _orders_bounds(players: int, rules: Rules) -> list[int] | None:
    """The most each colour in play can deliver at one opening (z3's
    :func:`..model.proofs.orders_bound`), or None where a proof does not hold."""
    from mammamia_ref.queries.model.proofs import orders_bound
    from mammamia_ref.rules.vocabulary import COLOURS

    bounds = []
    for colour in COLOURS[:players]:
        most, proof = orders_bound(players, rules, colour)
        if not proof.holds:
            return None
        bounds.append(most)
    return bounds


def lower_bound(name: Any, players: int, rules: Rules) -> tuple[int | None, str | None]:
    """A proved lower bound of a measure under ``rules``, where one is known: a baked
    Pizza Bombastica takes at least the game's ``bombastica_total`` cards, proved by z3
    (``statement``: :func:`..model.proofs.take_bound` below it, for the Bombastica of every
    colour in play, from every well-formed state); the turns until at least ``k`` events
    have happened, at least ``k`` over the most one turn emits, or until a count has
    reached ``k``, at least ``k`` over the most one turn adds to a potential the count
    is part of (:func:`.leads.turns_needed`, ``induction``)."""
    from mammamia_ref.errors import VariantError
    from mammamia_ref.queries.model import num as N
    from mammamia_ref.queries.model.proofs import take_bound
    from mammamia_ref.rules.vocabulary import COLOURS, ORDERS, ORDERS_OF

    if isinstance(name, Mapping):
        from mammamia_ref.queries.answering.leads import turns_needed

        needed = turns_needed(name, players, rules)
        return (needed, "induction") if needed is not None else (None, None)
    if name != "bombastica_cards":
        return None, None
    total = rules.parameters.bombastica_total
    try:
        with N.building():
            for colour in COLOURS[:players]:
                order = next(o for o in ORDERS_OF[colour] if ORDERS[o].type == "bombastica")
                if not take_bound(players, rules, order, total, below=True).holds:
                    return None, None
    except VariantError:
        return None, None
    return total, "statement"


__all__ = ["lower_bound", "upper_bound"]
