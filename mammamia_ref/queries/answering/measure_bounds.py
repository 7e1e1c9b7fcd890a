"""The proved bounds of a measure (``most:`` / ``fewest:``), where one is known: an upper
bound a ``most:`` value cannot pass, a lower bound a ``fewest:`` value cannot go below,
each with how it is proved (``ranking``, ``statement``, ``induction`` by z3, or
``counting``). ``ask`` reads them first, so that a search or the game model that meets
one stops there ("exact"). Each bound says in words how it is proved (``how``), which
the answer prints beside it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mammamia_ref.queries.answering.unbounded import Proved
from mammamia_ref.rules.ruleset import Rules
from mammamia_ref.rules.typed_spec import Stall
from mammamia_ref.rules.vocabulary import COLOURS


def upper_bound(name: Any, players: int, rules: Rules) -> Proved | None:
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
    from mammamia_ref.queries.model.proofs import card_bound, hand_limit, prove_invariant
    from mammamia_ref.rules.setup import trimmed_per_kind
    from mammamia_ref.rules.vocabulary import COPIES, ORDERS_OF

    numbers = rules.parameters
    if isinstance(name, Mapping):
        return _form_upper_bound(name, players, rules)
    a_round = _round_turns(players, rules) if name in ("longest_round", "turns") else None
    if a_round is not None:
        bound, how = a_round
        if name == "longest_round":
            return Proved(bound, "ranking", how)
        return _game_turns(bound, how, numbers.rounds)
    try:
        with N.building():
            if name == "baked_one_opening":
                # the cards every order needs, all colours together (Q05's count), and
                # the most each colour can deliver at one opening (Q23's), whichever is less
                bounds = _orders_bounds(players, rules)
                total = None if bounds is None else sum(bounds)
                with N.building():
                    cards, in_play = card_bound(players, rules)
                how = (f"the orders baked at one opening use distinct cards: those every "
                       f"choice of orders needs, of the {in_play} in play, allow at most "
                       f"{cards} (z3)")
                if total is not None and total < cards:
                    return Proved(total, "statement", f"each colour delivers at most "
                                  f"{', '.join(map(str, bounds or ()))} orders at one opening "
                                  f"(z3, by the cards its orders need): {total} in all")
                return Proved(cards, "statement", how)
            if name == "largest_hand":
                proof = prove_invariant(players, rules, hand_limit, counts=True)
                return Proved(numbers.hand_limit, "induction", f"no hand holds more than "
                              f"the hand limit, {numbers.hand_limit}, in any state: an "
                              "invariant z3 proves inductive") if proof.holds else None
    except VariantError:
        return None
    if name in ("baked", "delivered"):
        dealt = sum(len(ORDERS_OF[c]) for c in COLOURS[:players])
        return Proved(dealt, "counting", f"the orders dealt: {dealt}, each baked once")
    if name == "bombastica_cards":
        trimmed = trimmed_per_kind(numbers.trimming, players, rules.flags.trimming)
        cards = sum(c - trimmed for c in COPIES)
        if _card_kept(players, rules, cards - 1):
            return Proved(cards - 1, "induction", f"some ingredient card stays off the "
                          f"table at every opening (an invariant z3 proves inductive), so "
                          f"no Bombastica takes all {cards} in play")
        return Proved(cards, "counting", f"the ingredient cards in play: {cards}")
    return None


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


def _form_upper_bound(form: Mapping[str, Any], players: int, rules: Rules) -> Proved | None:
    """A measure form's proved upper bound. A seat's orders baked in one round
    (``some_seat: s`` with ``most_in_a_round:`` ``baked`` at ``s``'s seat, nothing else):
    the most any colour can deliver at one opening, z3's
    :func:`..model.proofs.orders_bound` (``statement``). Under the stall cut, where z3
    proves a round's turns at most ``R`` (:func:`..model.proofs.round_length_bound`):
    ``most_in_a_round: E`` of an event only turns emit, at most ``m`` a turn
    (:func:`.leads.most_a_turn`), at most ``m * R``; the turns until a condition, at
    most the game's turns; a seat's own turns, at most its turns of every round (the
    turns go round the table, ``turn.clockwise``: ``R / players`` a round, rounded up)."""
    from mammamia_ref.errors import VariantError
    from mammamia_ref.queries.model import num as N

    counted = form.get("most_in_a_round")
    if "some_seat" in form and counted == {"event": "baked",
                                           "where": {"seat": form["some_seat"]}}:
        try:
            with N.building():
                bounds = _orders_bounds(players, rules)
        except VariantError:
            return None
        return None if bounds is None else Proved(
            max(bounds), "statement", f"a colour delivers at most {max(bounds)} orders at "
            "one opening (z3, by the cards its orders need)")
    placed = None if counted is None else _orders_in_a_round(counted, players, rules)
    if placed is not None:
        return placed
    a_round = _round_turns(players, rules)
    if a_round is None:
        return None
    turns, how = a_round
    rounds = rules.parameters.rounds
    if counted is not None:
        per_turn = _most_a_turn(counted, form.get("some_seat"), players, rules)
        return None if per_turn is None else Proved(
            per_turn[0] * turns, "ranking", f"{per_turn[1]} (z3, from any well-formed "
            f"state); {how}: at most {per_turn[0] * turns} in a round")
    if "some_seat" in form:   # own_turns_until: or own_turns: true
        own = -(-turns // players)
        return Proved(rounds * own, "ranking", f"{how}, so a seat's own turns at most "
                      f"{own} a round (the turns go round the table, turn.clockwise), "
                      f"{rounds} rounds: {rounds * own}")
    return _game_turns(turns, how, rounds)   # the turns until a condition: the game's


def _orders_in_a_round(counted: Mapping[str, Any], players: int, rules: Rules
                       ) -> Proved | None:
    """``most_in_a_round:`` an event that only turns emit (``placed_order``), of one
    seat or of any: z3 shows, for a turn of any seat from any well-formed state, that
    each such event puts an order of the seats counted into the oven from outside it,
    and that no turn takes an order out of the oven; a round's turns all come before
    its opening, so each order counts at most once a round: at most the orders of the
    seats counted (under any rules: the stall cut's ranking bound is not needed). None
    where ``where:`` asks more than the seat, or z3 does not show both."""
    import z3

    from mammamia_ref.errors import VariantError
    from mammamia_ref.queries.answering.unbounded import can_emit, emitted
    from mammamia_ref.queries.model import num as N
    from mammamia_ref.queries.model.game_terms import IN_OVEN
    from mammamia_ref.queries.model.oven_rules import N_ORDERS

    where = counted.get("where") or {}
    if set(counted) - {"event", "where"} or set(where) - {"seat"}:
        return None
    colours = tuple(COLOURS[:players])
    event = str(counted["event"])
    cond = {"event": event, **({"where": {"seat": colours[0]}} if where else {})}
    seats = [0] if where else list(range(players))
    try:
        with N.building():
            if any(can_emit(cond, players, rules, colours, what) not in (None, z3.unsat)
                   for what in ("reveal", "transition")):
                return None
            model, _step, found, base = emitted(cond, players, rules, colours, "turn")
            before, after = model.S
            entering = N.Sum([N.If(N.And(before.loc[p][o] != IN_OVEN,
                                         after.loc[p][o] == IN_OVEN), 1, 0)
                              for p in seats for o in range(N_ORDERS)])
            leaving = z3.Or(*[N.And(before.loc[p][o] == IN_OVEN, after.loc[p][o] != IN_OVEN)
                              for p in range(players) for o in range(N_ORDERS)])
            new = N.check([*base, N.Sum(found or [N.Val(0)]) > entering])[0]
            kept = N.check([*base, leaving])[0]
    except VariantError:
        return None
    if new != z3.unsat or kept != z3.unsat:
        return None
    orders = N_ORDERS * len(seats)
    return Proved(orders, "counting", f"each {event} of a turn puts an order into the oven, "
                  "and no turn takes one out (z3, a turn of any seat from any well-formed "
                  "state); a round's turns come before its opening, so each order counts at "
                  f"most once a round: the orders of the seat{'s' if len(seats) > 1 else ''} "
                  f"counted, {orders}")


def _game_turns(a_round: int, how: str, rounds: int) -> Proved:
    """The most turns of a game of ``rounds`` rounds of at most ``a_round`` turns each
    (``how``: the round's proof)."""
    return Proved(rounds * a_round, "ranking", f"{how}, {rounds} rounds: a game of at most "
                  f"{rounds * a_round} turns")


def _round_turns(players: int, rules: Rules) -> tuple[int, str] | None:
    """The most turns of a round z3 proves under the stall cut (a ranking function,
    :func:`..model.proofs.round_length_bound`), with the proof in words; None under the
    letter, or where the proof does not hold."""
    from mammamia_ref.errors import VariantError
    from mammamia_ref.queries.model import num as N
    from mammamia_ref.queries.model.proofs import round_length_bound

    if rules.flags.stall != Stall.CUT:
        return None
    try:
        with N.building():
            bound, proof = round_length_bound(players, rules)
    except VariantError:
        return None
    return (bound, f"z3 proves a ranking function that every turn of a round lowers under "
            f"the stall cut (round_end.stall): at most {bound} turns a round") \
        if proof.holds else None


def _most_a_turn(counted: Any, seat: Any, players: int, rules: Rules
                 ) -> tuple[int, str] | None:
    """:func:`.leads.most_a_turn` of a ``most_in_a_round:`` condition, where it is
    :func:`.leads.provable`; None otherwise."""
    from mammamia_ref.queries.answering.leads import most_a_turn, provable

    cond = provable(counted, seat, players, rules)
    return None if cond is None else most_a_turn(cond, False, players, rules,
                                                 tuple(COLOURS[:players]))


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


def lower_bound(name: Any, players: int, rules: Rules) -> Proved | None:
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

        return turns_needed(name, players, rules)
    if name != "bombastica_cards":
        return None
    total = rules.parameters.bombastica_total
    try:
        with N.building():
            for colour in COLOURS[:players]:
                order = next(o for o in ORDERS_OF[colour] if ORDERS[o].type == "bombastica")
                if not take_bound(players, rules, order, total, below=True).holds:
                    return None
    except VariantError:
        return None
    return Proved(total, "statement", f"a Pizza Bombastica bakes only with at least "
                  f"{total} cards (z3, for every colour's, from every well-formed state)")


__all__ = ["Proved", "lower_bound", "upper_bound"]
