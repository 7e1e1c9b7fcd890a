"""The terms of the z3 game model (:mod:`.game_model`): the codes it gives phases,
order locations and draw sources, the abstract state between two steps, the selectors
of one step, and the record of each step of an unrolling. Kept apart so that the
model's module holds its rules: the setup, the turn, the reveal and the transition; and the
terms one turn is built from (:class:`Mover`, :class:`DrawTerms`, :class:`TurnEnd`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import z3

from mammamia_ref.queries.model import num as N
from mammamia_ref.queries.model.oven_rules import N_ORDERS, NK, Decision

TURN, OVEN, OVER = 0, 1, 2
WAITER, HAND, IN_OVEN, DELIVERED, UNDER = 0, 1, 2, 3, 4
JUDGED = 5                   # an order revealed, its owner deciding (never between steps)
MM = NK                      # the Mamma Mia! card's code in the supply sequence
NO = -1                      # no order / pass / Mamma Mia! in the supply
SUPPLY, WAITER_SOURCE = 0, 1


def _sel(values: Sequence[Any], index: Any) -> Any:
    """values[index] for a symbolic index (the last value when out of range); a plain
    index selects at once."""
    if isinstance(index, int):
        return values[index]
    out = values[-1]
    for i in range(len(values) - 2, -1, -1):
        out = N.If(N.Eq(index, i), values[i], out)
    return out


def _min(a: Any, b: Any) -> Any:
    return N.If(a < b, a, b)


def _is(a: Any, b: int) -> Any:
    """a == b, decided at once when ``a`` is a plain int."""
    return N.BoolVal(a == b) if isinstance(a, int) else N.Eq(a, b)


@dataclass
class State:
    """The abstract state between two steps."""

    ph: Any
    cur: Any
    rnd: Any
    res: Any
    hand: list[list[Any]]       # [seat][kind]
    loc: list[list[Any]]        # [seat][order index]: WAITER, HAND, IN_OVEN, DELIVERED, UNDER
    pos: list[list[Any]]        # [seat][order index]: when a failed order went under
    wt: list[Any]               # [seat]: the next such time
    table: list[Any]
    used: list[Any]
    supply: list[Any]           # ingredient cards left in the supply, per kind
    oven: list[Any]             # ingredient cards in the oven, per kind
    mm: Any                     # the Mamma Mia! holder, -1 while it is in the supply
    quiet: Any
    ovl: Any                    # cards put on the oven this round

    def fields(self) -> list[Any]:
        flat = [self.ph, self.cur, self.rnd, self.res, self.mm, self.quiet, self.ovl,
                *self.wt, *self.table, *self.used, *self.supply, *self.oven]
        for rows in (self.hand, self.loc, self.pos):
            for row in rows:
                flat.extend(row)
        return flat

    def position(self) -> list[Any]:
        """Everything the state holds: two equal positions within a round, with nothing
        put on the oven in between (``ovl`` counts the round's cards), are the same game
        state."""
        return self.fields()

    def copy(self) -> State:
        return State(ph=self.ph, cur=self.cur, rnd=self.rnd, res=self.res,
                     hand=[list(r) for r in self.hand], loc=[list(r) for r in self.loc],
                     pos=[list(r) for r in self.pos], wt=list(self.wt),
                     table=list(self.table), used=list(self.used), supply=list(self.supply),
                     oven=list(self.oven), mm=self.mm, quiet=self.quiet, ovl=self.ovl)

    @staticmethod
    def fresh(prefix: str, players: int) -> State:
        def i(name: str) -> Any:
            return N.Int(f"{prefix}_{name}")
        return State(
            ph=i("ph"), cur=i("cur"), rnd=i("rnd"), res=i("res"),
            hand=[[i(f"hand_{p}_{k}") for k in range(NK)] for p in range(players)],
            loc=[[i(f"loc_{p}_{o}") for o in range(N_ORDERS)] for p in range(players)],
            pos=[[i(f"pos_{p}_{o}") for o in range(N_ORDERS)] for p in range(players)],
            wt=[i(f"wt_{p}") for p in range(players)],
            table=[i(f"table_{k}") for k in range(NK)], used=[i(f"used_{k}") for k in range(NK)],
            supply=[i(f"supply_{k}") for k in range(NK)], oven=[i(f"oven_{k}") for k in range(NK)],
            mm=i("mm"), quiet=i("quiet"),
            ovl=i("ovl"))


@dataclass
class Selectors:
    """The decisions (and chance outcomes) of one step."""

    kind: Any        # kind played, -1 for a pass
    count: Any
    order: Any       # order index placed, -1 for none
    source: Any      # 0 supply, 1 waiter
    number: Any      # cards asked for under draw_amount=any (0 otherwise)
    drawn: list[Any]  # chance: the ingredient cards a supply draw turns up, per kind
    mm_pop: Any      # chance: the draw turns up the Mamma Mia! card
    mm_last: Any     # chance: ... after the draw's ingredient cards (else before them)
    picks: list[Any]  # chance: the orders a waiter draw turns up from its shuffled part
    decision: Decision

    @staticmethod
    def fresh(prefix: str) -> Selectors:
        def i(name: str) -> Any:
            return N.Int(f"{prefix}_{name}")
        return Selectors(i("kind"), i("count"), i("order"), i("source"), i("number"),
                         [i(f"drawn_{k}") for k in range(NK)], N.Bool(f"{prefix}_mm_pop"),
                         N.Bool(f"{prefix}_mm_last"),
                         [N.Bool(f"{prefix}_pick_{o}") for o in range(N_ORDERS)],
                         Decision.fresh(f"{prefix}_dec"))

    def canonical_turn(self) -> list[Any]:
        """The one value of each turn selector where no turn is played: no card, no
        order, no draw."""
        return [self.kind == NO, self.count == 0, self.order == NO, self.source == 0,
                self.number == 0, z3.Not(self.mm_pop), z3.Not(self.mm_last),
                *[x == 0 for x in self.drawn], *[z3.Not(x) for x in self.picks]]

    def idle(self) -> Any:
        """The canonical selectors of a step that decides nothing."""
        return N.And(*self.canonical_turn(), *self.decision.canonical())


@dataclass
class Block:
    """What one turn slot put in the oven: nothing unless ``active``."""

    active: Any
    kind: Any
    count: Any
    order: Any
    owner: Any


@dataclass
class Step:
    """Step ``index`` of the unrolling: its kind, round layer and slot, whether it
    does anything, its selectors and the facts queries read."""

    index: int
    what: str            # "turn", "reveal" or "transition"
    round: int
    slot: int
    active: Any
    sel: Selectors
    facts: dict[str, Any] = field(default_factory=dict)

    @property
    def before(self) -> int:
        return self.index

    @property
    def after(self) -> int:
        return self.index + 1


@dataclass(frozen=True)
class Mover:
    """The player to move (``seat``, perhaps symbolic) as a turn's rules see them: the
    ingredient cards per kind and, for each order of the colour, whether it is in hand,
    in the waiter's shuffled part or under the waiter (failed); the orders held."""

    seat: Any
    hand: list[Any]
    in_hand: list[Any]
    shuffled: list[Any]
    under: list[Any]
    held: Any


@dataclass
class DrawTerms:
    """What a turn's draw makes, filled in the order the turn's rules make the terms."""

    from_supply: Any
    from_waiter: Any = None
    mm_there: Any = None      # the Mamma Mia! card lies in the supply
    wanted: Any = None        # the cards the draw asks for
    amount_ok: Any = None     # the count named is legal (0 unless draw_amount=any)
    source_ok: Any = None
    got: Any = None           # ingredient cards a supply draw turns up
    drawn_ok: Any = None      # ... which the supply holds (chance)
    ran_dry: Any = None       # every ingredient card left was drawn, and more wanted
    after: list[Any] = field(default_factory=list)   # the supply after the draw
    pop_ok: Any = None        # the Mamma Mia! card turns up as the rules allow (chance)
    last_ok: Any = None       # ... after the draw's ingredient cards
    exhausted: Any = None     # the supply ran out
    mm_taken: Any = None      # the drawer takes a Mamma Mia! card left alone
    took: Any = None          # orders a waiter draw takes
    picks_ok: Any = None      # ... which the waiter holds, in its order (chance)
    moved: Any = None         # the cards the draw moved


@dataclass(frozen=True)
class TurnEnd:
    """How a turn ends: the quiet turns counted, a stall, the round's end, the next
    player and the Mamma Mia! holder."""

    quiet: Any
    stall: Any
    round_end: Any
    following: Any
    holder: Any
