"""A table that makes a round last: ``slow:COLOUR``.

"How many turns can one round last?" asks what the rules allow, not what players would
do. Under the stall cut a full cycle of turns in which no card moves ends the round
(``round_end.stall``), so a round lasts longest when one card moves a cycle: this table
plays so. The seat of ``COLOUR`` is the one player who moves cards, one a turn: holding
an ingredient card, it plays one (of the kind it holds fewest of), places an order only
while it holds more orders, in hand and in its waiter, than a hand less one (so that a
hand of orders keeps room for one card), and draws from its waiter (nothing once it is
empty); holding none, it passes and then draws from the supply while the supply holds a
card other than the Mamma Mia! card (always under ``stall=letter``, where only that card
ends the round), else from its waiter. Every other seat plays out its ingredient cards
in its largest groups, places no order and draws from its waiter, then passes: a quiet
turn once its hand is full or its waiter empty. So after a round in which a Pizza
Bombastica took every card (the supply then holds them all and no hand one), each
supply card takes the slow seat two turns, each followed by the others' quiet turns. An
owner's decision at an opening is the random policy's. It sees the whole state, as the
table of an existence question may; its randomness is the generator it is given.

>>> parse_slow("slow:red")
'red'
>>> parse_slow("careful") is None
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from mammamia_ref.errors import UsageError
from mammamia_ref.rules.actions import Action, Draw, NoOrder, Pass, PlaceOrder, Play
from mammamia_ref.rules.game import to_move
from mammamia_ref.rules.state import GameState
from mammamia_ref.rules.typed_spec import Stall
from mammamia_ref.rules.vocabulary import COLOURS, KIND_INDEX, MAMMA_MIA

SLOW = "slow"
"""The first part of a slow table's name."""


def parse_slow(name: object) -> str | None:
    """The slow colour of a name ``slow:COLOUR``; None if ``name`` is not a slow table's;
    :class:`UsageError` for a malformed one."""
    if not isinstance(name, str) or not name.startswith(f"{SLOW}:"):
        return None
    colour = name.split(":", 1)[1]
    if colour not in COLOURS:
        raise UsageError(f"policy {name[:40]!r}: a slow table is slow:COLOUR, COLOUR one of "
                         f"{', '.join(COLOURS)}", options=("--policy",), value=name)
    return colour


def _draw(legal: Sequence[Action], source: str) -> Action | None:
    """The draw of the most cards from ``source`` (every draw, under ``draw_amount=any``)."""
    draws = [a for a in legal if isinstance(a, Draw) and a.source == source]
    return max(draws, key=lambda a: a.count or 0) if draws else None


@dataclass(frozen=True)
class SlowPolicy:
    """``slow:COLOUR`` (see the module's docstring)."""

    slow: str

    def __call__(self, state: GameState, legal: Sequence[Action], rng: random.Random) -> Action:
        seat = to_move(state)
        first = legal[0]
        if seat is None or not isinstance(first, Play | Pass | PlaceOrder | NoOrder | Draw):
            return rng.choice(list(legal))   # an opening's decision
        hand = state.hands[seat]
        moving = state.config.colours[seat] == self.slow
        if isinstance(first, Play | Pass):
            plays = [a for a in legal if isinstance(a, Play)]
            if not plays:
                return first
            if moving:   # one card, of the kind it holds fewest of
                return min((a for a in plays if a.count == 1),
                           key=lambda a: (hand.ingredients[KIND_INDEX[a.kind]], a.kind))
            return max(plays, key=lambda a: (a.count, a.kind))
        if isinstance(first, PlaceOrder | NoOrder):
            places = [a for a in legal if isinstance(a, PlaceOrder)]
            spare = len(hand.orders) + len(state.waiters[seat]) > state.parameters.hand_limit - 1
            if moving and places and spare:
                return places[0]
            return next(a for a in legal if isinstance(a, NoOrder))
        supply = any(c != MAMMA_MIA for c in state.supply) or state.flags.stall != Stall.CUT
        if moving and state.played == 0 and supply:   # it passed: one card to play next
            return _draw(legal, "supply") or first
        return _draw(legal, "waiter") or first


__all__ = ["SLOW", "SlowPolicy", "parse_slow"]
