"""Policies: who chooses an action when a program plays. Pluggable by name.

A policy sees the state and the legal actions and returns one of them; its
randomness, if any, comes from the generator it is given, never a global one.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from .actions import Action, Complete, Decline, Draw, NameKind, NoOrder, Pass, PlaceOrder, Play
from .state import GameState
from .vocabulary import KIND_INDEX, ORDERS, add, counts_of, covers

Policy = Callable[[GameState, Sequence[Action], random.Random], Action]


def random_policy(state: GameState, legal: Sequence[Action], rng: random.Random) -> Action:
    """The benchmark policy: uniform among legal actions, except the draw, which takes the
    supply with probability 0.8 and the waiter otherwise."""
    draws = [a for a in legal if isinstance(a, Draw)]
    if draws and len(draws) == len(legal):
        source = "supply" if rng.random() < 0.8 else "waiter"
        return rng.choice([a for a in draws if a.source == source] or draws)
    return rng.choice(list(legal))


def simple_policy(state: GameState, legal: Sequence[Action], rng: random.Random) -> Action:
    """A plain, readable player: plays its most plentiful kind, places an order once the
    publicly played ingredients seem to cover it, draws orders while it holds none,
    completes from hand whenever it can, and names the kind it is best placed to make."""
    first = legal[0]
    if isinstance(first, Pass):
        return first
    if isinstance(first, Play):
        plays = [a for a in legal if isinstance(a, Play)]
        return max(plays, key=lambda a: (a.count, -rng.random()))
    if isinstance(first, PlaceOrder | NoOrder):
        played = counts_of(state.oven)
        for action in legal:
            if isinstance(action, PlaceOrder) and _looks_covered(action.order, played, state):
                return action
        return legal[-1]
    if isinstance(first, Draw):
        hand = state.hands[state.current]
        wants_orders = not hand.orders and state.waiters[state.current]
        source = "waiter" if wants_orders else "supply"
        return max((a for a in legal if a.source == source), key=lambda a: a.count or 0)
    if isinstance(first, NameKind):
        hand = state.hands[state.current].ingredients
        return max(legal, key=lambda a: state.table[KIND_INDEX[a.kind]] + hand[KIND_INDEX[a.kind]])
    completes = [a for a in legal if isinstance(a, Complete)]
    return completes[0] if completes else next(a for a in legal if isinstance(a, Decline))


def _looks_covered(order_id: str, played: tuple[int, ...], state: GameState) -> bool:
    order = ORDERS[order_id]
    if order.type == "bombastica":
        return sum(played) + sum(state.table) >= 20
    if order.type in ("monotoni", "minimale"):
        return sum(played) >= 12
    return covers(add(played, state.table), order.requirement())


POLICIES: dict[str, Policy] = {"random": random_policy, "simple": simple_policy}
