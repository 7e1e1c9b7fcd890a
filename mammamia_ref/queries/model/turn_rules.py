"""The z3 encoding of the chapter *The turn* and of the round's end a turn brings: one
function per rule.

As :mod:`.oven_rules` does for the oven, every function here states one rule of
``spec/rules.yaml`` over symbolic values (z3 terms; plain Python integers and truth
values are accepted wherever a term is), and its docstring starts with the rule IDs it
states, the same the reference implementation (:mod:`mammamia_ref.rules.turn`,
:mod:`mammamia_ref.rules.round`) cites. Where the kernel's function of a rule works on
terms as it stands (:func:`~mammamia_ref.rules.round.stalls`,
:func:`~mammamia_ref.rules.round.game_ends`, :func:`~mammamia_ref.rules.round.next_supply`)
or decides a flag's reading (:func:`~mammamia_ref.rules.turn.step_after_pass`), the
encoding calls it; where it takes a minimum or a maximum of counts, which Python cannot
take of a term, the encoding states the same arithmetic and
``tests/test_game_model_rules.py`` holds the two together on states of random reference
games. :meth:`.game_model.GameModel.turn` puts them together, in the order of a turn.

The terms are made in the order the model always made them: z3 numbers a term when it is
first made, and the solver's choices can depend on those numbers.

Counts are lists of five terms in the canonical kind order of ``spec/cards.yaml``; an
order is an index into its colour's eight (``-1``: none).

>>> with N.building():
...     hand = [0, 2, 0, 0, 0]               # two mushroom cards
...     [z3.simplify(turn_play(hand, 1, c)) for c in (0, 1, 2, 3)]
[False, True, True, False]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import z3

from mammamia_ref.queries.model import num as N
from mammamia_ref.queries.model.game_terms import NO, SUPPLY, WAITER_SOURCE, _min, _sel
from mammamia_ref.queries.model.oven_rules import N_ORDERS, NK
from mammamia_ref.rules.round import game_ends, next_supply, stalls
from mammamia_ref.rules.state import Step
from mammamia_ref.rules.turn import step_after_pass
from mammamia_ref.rules.typed_spec import PassOrder, Refill, RoundEnd, Stall

Term = Any          # a z3 term, or a plain Python int or bool
Counts = Sequence[Term]


# ------------------------------------------------------------------ playing, or passing


def turn_pass(kind: Term, count: Term) -> Term:
    """turn.pass: a player holding no ingredient card passes: no kind, no card."""
    return N.And(kind == NO, count == 0)


def turn_play(hand: Counts, kind: Term, count: Term) -> Term:
    """turn.play: a player holding ingredient cards plays one to all of the cards of one
    kind they hold (the kernel's ``play_options``)."""
    return N.And(kind >= 0, kind < NK, count >= 1, count <= _sel(list(hand), kind))


def turn_play_or_pass(hand: Counts, ingredients: Term, kind: Term, count: Term) -> Term:
    """turn.play, turn.pass: which of the two the hand allows: a pass with no ingredient
    card, a play otherwise."""
    return N.If(ingredients == 0, turn_pass(kind, count), turn_play(hand, kind, count))


def turn_played_from_hand(hand: Counts, kind: Term, count: Term) -> list[Term]:
    """turn.play: the cards played leave the hand for the oven."""
    return [hand[k] - N.If(kind == k, count, 0) for k in range(NK)]


def turn_onto_oven(oven: Counts, kind: Term, count: Term) -> list[Term]:
    """turn.play: the cards played go onto the oven, face down."""
    return [oven[k] + N.If(kind == k, count, 0) for k in range(NK)]


# ------------------------------------------------------------------------ the order


def pass_may_place_order(pass_order: PassOrder) -> bool:
    """turn.pass, turn.pass_with_order: whether a player who passed (and holds an order)
    may place one: the kernel's :func:`~mammamia_ref.rules.turn.step_after_pass`."""
    return step_after_pass(pass_order, True) == Step.ORDER


def turn_place_order(in_hand: Sequence[Term], orders_held: Term, passed: Term, order: Term,
                     pass_order: PassOrder) -> tuple[Term, Term]:
    """turn.place_order (turn.pass_with_order): after the play, a player holding an order
    may place one of them, at most one; after a pass only where ``pass_order`` allows.
    Returns (the choice of ``order`` is legal, an order is placed)."""
    may = N.And(orders_held > 0, N.Or(z3.Not(passed), pass_may_place_order(pass_order)))
    placed = order >= 0
    legal = N.Or(order == NO, N.And(may, order >= 0, order < N_ORDERS,
                                    _sel(list(in_hand), order)))
    return legal, placed


# ------------------------------------------------------------------------- the draw


def turn_draw(refill: Refill, hand_limit: int, size: Term, played: Term) -> Term:
    """turn.draw, turn.draw_as_played: how many cards the draw may take: up to the hand
    limit, or as many as the turn put on the oven (the kernel's ``cards_to_draw``)."""
    if refill == Refill.AS_MANY_AS_PLAYED:
        return played
    return N.If(hand_limit - size > 0, hand_limit - size, 0)


def turn_draw_source(source: Term) -> Term:
    """turn.draw: the draw takes from one source only, the supply or the waiter."""
    return N.Or(source == SUPPLY, source == WAITER_SOURCE)


def turn_draw_fewer(number: Term, allowance: Term, there: Term) -> Term:
    """turn.draw_fewer: (draw_amount=any) the drawer names how many cards, none up to the
    allowance; naming more than the source holds draws what it holds, the same draw as
    naming that many, so the count is at most that."""
    return N.And(number >= 0, number <= allowance, number <= there)


def turn_draw_short(wanted: Term, there: Term) -> Term:
    """turn.draw_short: a source holding fewer cards than wanted gives what it has."""
    return _min(wanted, there)


def waiter_draw(took: Term, waiting: Term, picks: Sequence[Term], shuffled: Sequence[Term],
                under: Sequence[Term]) -> Term:
    """turn.draw (from the waiter), oven.fail: a waiter draw takes its shuffled orders
    first (which of them is the waiter's shuffle, chance), then the failed orders put
    under it. ``picks`` are the orders the draw takes."""
    took_shuffled = _min(took, waiting)
    took_under = took - took_shuffled
    return N.And(
        N.Sum([N.If(N.And(x, w), 1, 0) for x, w in zip(picks, shuffled, strict=True)])
        == took_shuffled,
        N.Sum([N.If(N.And(x, u), 1, 0) for x, u in zip(picks, under, strict=True)])
        == took_under,
        *[z3.Implies(x, N.Or(w, u)) for x, w, u in zip(picks, shuffled, under, strict=True)])


def oven_fail_oldest_first(picks: Sequence[Term], under: Sequence[Term],
                           since: Sequence[Term]) -> list[Term]:
    """oven.fail: the failed orders lie under the waiter in the order they failed
    (``since``), so a draw reaching them takes the oldest first."""
    return [z3.Implies(N.And(picks[o], under[o], z3.Not(picks[o2]), under[o2]),
                       since[o] < since[o2])
            for o in range(N_ORDERS) for o2 in range(N_ORDERS) if o != o2]


# ------------------------------------------------------------ the Mamma Mia! card


def mamma_mia_draw(round_end: RoundEnd, can_meet: Term, ran_dry: Term, popped: Term,
                   last: Term) -> tuple[Term, Term]:
    """mamma_mia.draw, round_end.last_card, round_end.last_ingredient: whether a supply
    draw that ``can_meet`` the Mamma Mia! card (it lies in the supply, the draw wants a
    card) turns it up (``popped``), and after its last ingredient card (``last``).
    Under last_card a draw that runs dry takes it too; under last_ingredient the draw
    stops with the last ingredient card, so a Mamma Mia! card under it is never drawn
    (:func:`mamma_mia_taken` gives it to the drawer). Returns the two conditions."""
    if round_end == RoundEnd.LAST_INGREDIENT:
        return z3.Implies(z3.Not(can_meet), z3.Not(popped)), z3.Not(last)
    return (N.If(can_meet, z3.Implies(ran_dry, popped), z3.Not(popped)),
            z3.Implies(last, N.And(popped, ran_dry)))


def round_end_supply(round_end: RoundEnd, supply: Counts, mm: Term) -> Term:
    """round_end.last_card, round_end.last_ingredient: whether a supply holding
    ``supply`` (and the Mamma Mia! card while ``mm`` is -1) has run out: no card left,
    or no ingredient card (the kernel's ``supply_runs_out``)."""
    empty = N.Sum(list(supply)) == 0
    if round_end == RoundEnd.LAST_CARD:
        return N.And(empty, mm != -1)
    return empty


def mamma_mia_taken(exhausted: Term, in_supply: Term, popped: Term) -> Term:
    """round_end.last_ingredient: a Mamma Mia! card left alone in a supply that ran out
    of ingredients goes to the drawer (never the case under last_card, where a supply
    that ran out holds no card)."""
    return N.And(exhausted, in_supply, z3.Not(popped))


# ------------------------------------------------------------ the round's end


def round_end_quiet(quiet_turn: Term, quiet_turns: Term, players: int) -> Term:
    """round_end.stall: the count of consecutive turns that moved no card, after a turn
    (capped at the players: a full cycle is all the rule asks about; the kernel's
    ``quiet_turns_after``)."""
    return N.If(quiet_turn, _min(quiet_turns + 1, players), 0)


def round_end_stall(stall: Stall, exhausted: Term, quiet_turns: Term, players: int) -> Term:
    """round_end.stall: under ``stall=cut`` a full cycle of quiet turns ends a round the
    supply did not end (the kernel's :func:`~mammamia_ref.rules.round.stalls`)."""
    if not stalls(stall, players, players):
        return N.BoolVal(False)
    return N.And(z3.Not(exhausted), stalls(stall, quiet_turns, players))


def turn_clockwise(seat: Term, players: int) -> Term:
    """turn.clockwise: the left neighbour plays next."""
    return (seat + 1) % players if isinstance(seat, int) else \
        N.If(seat == players - 1, 0, seat + 1)


def mamma_mia_holder(seat: Term, following: Term, holder: Term, drawn: Term, taken: Term,
                     stalled: Term, in_supply: Term) -> Term:
    """mamma_mia.draw, round_end.last_ingredient, round_end.stall: who holds the Mamma Mia!
    card after the turn: the drawer who turned it up or took it, the player whose turn
    it would be when a stall leaves it in the supply, else whoever held it."""
    return N.If(N.Or(drawn, taken), seat, N.If(N.And(stalled, in_supply), following, holder))


# ------------------------------------------------------------ between two rounds


def game_end(resolutions: Term, rounds: int) -> Term:
    """game_end.three_resolutions: the game's last opening ends it (the kernel's
    :func:`~mammamia_ref.rules.round.game_ends`)."""
    return game_ends(resolutions, rounds)


def next_round_supply(used: Counts, left: Counts) -> list[Term]:
    """next_round.supply: the used pile and the supply cards a stall left make the next
    supply's ingredient cards (the kernel's :func:`~mammamia_ref.rules.round.next_supply`)."""
    return list(next_supply(tuple(used), tuple(left)))


def round_ends_at_once(round_end: RoundEnd, supply: Counts, final: Term) -> Term:
    """round_end.last_ingredient: a new round whose supply holds no ingredient card ends
    as it starts (never under last_card: the Mamma Mia! card is in it)."""
    return N.And(N.BoolVal(round_end == RoundEnd.LAST_INGREDIENT), N.Sum(list(supply)) == 0,
                 z3.Not(final))


__all__ = [
    "game_end", "mamma_mia_draw", "mamma_mia_holder", "mamma_mia_taken", "next_round_supply",
    "oven_fail_oldest_first", "pass_may_place_order", "round_end_quiet", "round_end_stall",
    "round_end_supply", "round_ends_at_once", "turn_clockwise", "turn_draw", "turn_draw_fewer",
    "turn_draw_short", "turn_draw_source", "turn_onto_oven", "turn_pass", "turn_place_order",
    "turn_play", "turn_play_or_pass", "turn_played_from_hand", "waiter_draw",
]
