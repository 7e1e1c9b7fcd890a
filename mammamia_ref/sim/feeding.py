"""A table that plays for one seat: ``feed:COLOUR:POLICY``.

A question such as "how many orders can one player deliver at one opening?" asks what
the rules allow, not what players would do: the answer is a game in which the others
help. Random or careful players rarely make one (they place orders of their own, which
take the table's cards first). This policy arranges such a table: the seat of
``COLOUR`` plays as ``POLICY`` does (``random``, ``simple``, ``careful``); every other
seat places no order, plays the kind the fed seat's orders (in hand and in the oven)
lack the most, by the order shapes of the game's numbers, and draws from its waiter
while it holds a card of each kind they lack (so the supply, and the Mamma Mia! card in
it, last: the round is longer), else as ``POLICY`` does. It sees the whole state, as
the table of an existence question may (it is not a player: the others give up their
own game); its randomness is the generator it is given, so a seeded game replays.
``mammamia simulate --policy feed:red:careful`` plays such tables too.

``ask``'s search plays it where a question measures one seat's orders or its Pizza
Bombastica (:func:`mammamia_ref.queries.answering.searching.policies_for`). Measured on the first
seeds (the most orders one seat delivers at one opening, Q23's measure): at 3 players
careful players reach 7 in none of 1,500 games, ``feed:red:careful`` in 10 of 800; at 4
players 8 in 1 of 400 (careful players at most 6); at 5 players 8 in 3 of 300 (the
feeders drawing from the supply instead: none, 7 in 1).

>>> parse_feed("feed:red:careful")
('red', 'careful')
>>> parse_feed("careful") is None
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from mammamia_ref.errors import UsageError
from mammamia_ref.rules.actions import Action, Draw, NoOrder, Play
from mammamia_ref.rules.game import to_move
from mammamia_ref.rules.ruleset import order_shapes
from mammamia_ref.rules.state import GameState
from mammamia_ref.rules.vocabulary import (
    COLOURS,
    KIND_INDEX,
    NO_CARDS,
    ORDERS,
    Counts,
    add,
    counts_of,
    subtract,
)

if TYPE_CHECKING:
    from mammamia_ref.sim.policies import Policy

FEED = "feed"
"""The first part of a feeding policy's name."""

INNER = ("random", "simple", "careful")
"""The policies a fed seat may play (and the others fall back on)."""


def parse_feed(name: object) -> tuple[str, str] | None:
    """The fed colour and the policy of a name ``feed:COLOUR:POLICY``; None if ``name``
    is not a feeding policy's; :class:`UsageError` for a malformed one."""
    if not isinstance(name, str) or not name.startswith(f"{FEED}:"):
        return None
    parts = name.split(":")
    if len(parts) != 3 or parts[1] not in COLOURS or parts[2] not in INNER:
        raise UsageError(f"policy {name[:40]!r}: a feeding table is feed:COLOUR:POLICY, "
                         f"COLOUR one of {', '.join(COLOURS)}, POLICY one of "
                         f"{', '.join(INNER)}", options=("--policy",), value=name)
    return parts[1], parts[2]


def lacking(state: GameState, seat: int) -> Counts:
    """What the orders of ``seat`` in hand and in the oven need, kind by kind, less the
    ingredient cards already in the oven (a Monotoni or a Minimale counted with its
    personal kind named; a Bombastica, which takes any cards, not counted)."""
    shapes = order_shapes(state.parameters)
    colour = state.colour(seat)
    mine = [ORDERS[o] for o in (*state.oven, *state.hands[seat].orders)
            if o in ORDERS and ORDERS[o].colour == colour]
    need = NO_CARDS
    for order in mine:
        if order.type != "bombastica":
            need = add(need, order.requirement(shapes, order.personal))
    return subtract(need, counts_of(state.oven))


@dataclass(frozen=True)
class FeedingPolicy:
    """``feed:COLOUR:POLICY`` (see the module's docstring)."""

    fed: str
    inner: Policy

    def __call__(self, state: GameState, legal: Sequence[Action], rng: random.Random) -> Action:
        colours, seat = state.config.colours, to_move(state)
        if seat is None or self.fed not in colours or seat == colours.index(self.fed):
            return self.inner(state, legal, rng)
        if any(isinstance(a, NoOrder) for a in legal):
            return NoOrder()
        lack = lacking(state, colours.index(self.fed))
        plays = [a for a in legal if isinstance(a, Play)]
        if plays:
            best = max(plays, key=lambda a: (min(a.count, lack[KIND_INDEX[a.kind]]),
                                             a.count, rng.random()))
            if lack[KIND_INDEX[best.kind]] > 0:
                return best
        waiter = [a for a in legal if isinstance(a, Draw) and a.source == "waiter"]
        hand = state.hands[seat].ingredients
        if waiter and not any(n > 0 and h == 0 for n, h in zip(lack, hand, strict=True)):
            return waiter[0]
        return self.inner(state, legal, rng)


__all__ = ["FEED", "INNER", "FeedingPolicy", "lacking", "parse_feed"]
