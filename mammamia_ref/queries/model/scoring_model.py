"""The end of the game in z3 (``game_end.*``): the winners and the rule that decided
them, scored from a state of the game model as the reference's
:func:`mammamia_ref.rules.scoring.winning_seats` scores them (``tests/test_conditions.py``
holds the two together), and a ``result:`` condition over them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import z3

from mammamia_ref.queries.model import num as N
from mammamia_ref.queries.model.game_model import GameModel
from mammamia_ref.rules.typed_spec import FinalTie


def result_term(result: Mapping[str, Any], wins: Sequence[Any], rule: Mapping[str, Any],
                model: GameModel) -> Any:
    """A ``result:`` condition over the winners and the deciding rule
    (:func:`scoring_terms`)."""
    out = []
    if "winner" in result:
        out.append(_seat_in(result["winner"], wins, model))
    if "decided_by" in result:
        out.append(rule[result["decided_by"]])
    if "winners" in result:
        out.append(compare_term(N.Sum([N.If(w, 1, 0) for w in wins]), result["winners"], 0))
    return N.And(*out)


def _seat_in(colour: str, wins: Sequence[Any], model: GameModel) -> Any:
    return wins[model.colours.index(colour)] if colour in model.colours else N.BoolVal(False)


def scoring_terms(s: Any, model: GameModel) -> tuple[list[Any], dict[str, Any]]:
    """The winners at the game's end (one Boolean per seat) and, per rule, whether it
    decided them: ``game_end.most_delivered``; among tied players
    ``game_end.tie_break`` (most ingredient cards in hand); a tie that survives shared
    (``game_end.shared_win``) or, under ``final_tie=seat_order``, the tied player first
    in turn order from the last Mamma Mia! holder (``game_end.seat_order_win``), as
    :func:`mammamia_ref.rules.scoring.winning_seats` decides."""
    n = model.n
    delivered = [model.delivered(s, p) for p in range(n)]
    cards = [N.Sum(s.hand[p]) for p in range(n)]
    most = delivered[0]
    for d in delivered[1:]:
        most = N.If(d > most, d, most)
    leader = [d == most for d in delivered]
    alone = N.Sum([N.If(x, 1, 0) for x in leader]) == 1
    best = N.Val(-1)
    for p in range(n):
        best = N.If(N.And(leader[p], cards[p] > best), cards[p], best)
    second = [N.And(leader[p], cards[p] == best) for p in range(n)]
    broken = N.Sum([N.If(x, 1, 0) for x in second]) == 1
    start = N.If(s.mm >= 0, s.mm, s.cur)
    # the tied player first in turn order from the start: nobody tied sits before them
    first = [N.And(second[p], *[z3.Not(N.And(second[q], (q - start + n) % n < (p - start + n) % n))
                               for q in range(n) if q != p]) for p in range(n)]
    shared = model.v.final_tie == FinalTie.SHARED
    wins = [N.If(alone, leader[p], N.If(broken, second[p], second[p] if shared else first[p]))
            for p in range(n)]
    tie = z3.Not(alone)
    rule = {"game_end.most_delivered": alone,
            "game_end.tie_break": N.And(tie, broken),
            "game_end.shared_win": N.And(tie, z3.Not(broken), N.BoolVal(shared)),
            "game_end.seat_order_win": N.And(tie, z3.Not(broken), N.BoolVal(not shared))}
    return wins, rule


def compare_term(n: Any, cond: Mapping[str, Any], least: int) -> Any:
    """The grammar's ``at_least`` / ``at_most`` / ``equals`` over a z3 count (see
    :func:`..language.judging.compare`); ``least`` where none is given."""
    if "equals" in cond:
        return n == int(cond["equals"])
    out = n >= int(cond.get("at_least", least))
    return N.And(out, n <= int(cond["at_most"])) if "at_most" in cond else out


__all__ = ["compare_term", "result_term", "scoring_terms"]
