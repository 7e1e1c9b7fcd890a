"""Plans that build games of the catalogue's "most" questions (``tests/plan_builder.py``),
kept for the tests: each is a function of a ``Builder`` that deals, shuffles and plays
one game, deciding every turn from the state the reference reaches. They built the
catalogue's first witnesses (Q22's Bombastica of every card, Q23's most orders, Q24's
long round); the route of ``mammamia ask`` now finds its own from the question files,
and the tests use the plans' games to show the proved bounds tight (a game reaches
each) and an invariant broken where it must be (``tests/test_query_plans.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from mammamia_ref.errors import InternalError
from mammamia_ref.rules.actions import Action, NameKind
from mammamia_ref.rules.game import chance_pile, is_chance
from mammamia_ref.rules.ruleset import default_rules
from mammamia_ref.rules.state import GameState
from mammamia_ref.rules.vocabulary import KINDS, MAMMA_MIA, ORDERS
from tests.plan_builder import (
    Builder,
    deal_deck,
    default_decision,
    waiter_order,
)

HAND_LIMIT, SPEC_ROUNDS = default_rules().parameters.hand_limit, default_rules().parameters.rounds
"""The plans are built for the spec's numbers: a query resting on one is refused under
a house rule's (:func:`.registry.takes_parameters`)."""

Plan = Callable[[Builder], None]
RED = 0


def _in_play(b: Builder) -> list[int]:
    """Cards of each kind in play (the box holds the trimmed ones)."""
    from mammamia_ref.rules.vocabulary import COPIES

    return [c - t for c, t in zip(COPIES, b.state.box, strict=True)]


def _rest(b: Builder, hands: Sequence[Sequence[str]]) -> list[str]:
    """The ingredient cards not dealt, kind by kind."""
    left = _in_play(b)
    for hand in hands:
        for card in hand:
            left[KINDS.index(card)] -= 1
    return [k for i, k in enumerate(KINDS) for _ in range(left[i])]


def _setup(b: Builder, hands: Sequence[Sequence[str]], waiters: dict[str, Sequence[str]],
           supply: Sequence[str] | None = None) -> None:
    """Deal ``hands``; the supply in ``supply``'s order (by default the undealt cards
    kind by kind), the Mamma Mia! card at its bottom; each waiter with the orders
    ``waiters`` names on top."""
    rest = list(supply) if supply is not None else _rest(b, hands)
    b.shuffle(deal_deck(b.players, b.first_player, hands, rest))
    while is_chance(b.state):
        pile, cards = chance_pile(b.state)
        if pile == "supply":
            b.shuffle(rest + [MAMMA_MIA])
        elif pile.startswith("waiter."):
            b.shuffle(waiter_order(b.state, waiters.get(pile.removeprefix("waiter."), ())))
        else:   # pragma: no cover - setup has no other pile
            b.shuffle(sorted(cards))


def _largest(hand: Sequence[int]) -> int:
    """The kind of which the hand holds most (the first such kind)."""
    return max(range(len(KINDS)), key=lambda i: (hand[i], -i))


def _largest_group(b: Builder) -> tuple[str | None, int]:
    """The play of the player to move's largest group of one kind: (kind, count), or
    (None, 0), a pass, with no ingredient card in hand."""
    held = b.state.hands[b.state.current].ingredients
    k = _largest(held)
    return (KINDS[k] if held[k] else None), held[k]


def _play_out(b: Builder) -> None:
    """Play the round out: each player in turn plays their largest group (or passes),
    places no order and draws from the supply, until the round ends."""
    while b.state.phase == "turn":
        kind, count = _largest_group(b)
        b.turn(kind, count, None, "supply")


def bombastica_takes_all(keep: int) -> Plan:
    """Red's Pizza Bombastica, the oven's last card in the first round, finds every
    ingredient card on the table but ``keep`` (``round_end.last_ingredient`` ends the
    round on the drawing of the last ingredient card, which stays in the drawer's hand:
    ``keep`` 1; otherwise 0).

    Each player is dealt six cards of one kind and red's Bombastica is red's first
    order. While the supply holds more than ``keep`` ingredient cards, the player to
    move plays their largest group and draws from the supply, as many as leave
    exactly ``keep`` when the draw would take more (else from the waiter). Then the
    others play out their hands, drawing orders from their waiters, while red plays
    one card a turn; red's last turn plays its last group with the Bombastica and
    draws from the supply, which ends the round (``round_end.*``) with every other
    card of the round in the oven before the Bombastica."""
    def plan(b: Builder) -> None:
        _bombastica_round(b, keep)
        b.resolve()
    return plan


def _bombastica_round(b: Builder, keep: int, bombastica: bool = True) -> None:
    """The first round of :func:`bombastica_takes_all`, up to the round's end (without
    ``bombastica`` red places no order: nothing bakes at the opening)."""
    n = b.players
    _setup(b, [[KINDS[p % len(KINDS)]] * 6 for p in range(n)],
           {"red": ["red.bombastica"]})
    while b.state.phase == "turn":
        s = b.state
        p = s.current
        hand = list(s.hands[p].ingredients)
        orders = len(s.hands[p].orders)
        left = sum(1 for c in s.supply if c != MAMMA_MIA)
        if left > keep:
            k = _largest(hand)
            if hand[k] == 0:
                b.turn(None, source="supply")
                continue
            wanted = HAND_LIMIT - (sum(hand) - hand[k] + orders)
            if wanted <= left - keep:
                b.turn(KINDS[k], hand[k], source="supply")
                continue
            exact = left - keep - HAND_LIMIT + sum(hand) + orders
            if 1 <= exact <= hand[k]:
                b.turn(KINDS[k], exact, source="supply")
            else:
                b.turn(KINDS[k], hand[k], source="waiter")
            continue
        if p != RED:
            b.turn(*_largest_group(b), source="waiter")
            continue
        kinds = [i for i in range(len(KINDS)) if hand[i]]
        done = all(sum(s.hands[q].ingredients) == 0 for q in range(n) if q != RED)
        if done and len(kinds) == 1:
            b.turn(KINDS[kinds[0]], hand[kinds[0]], "red.bombastica" if bombastica else None,
                   "supply")
            break
        if not kinds or (len(kinds) == 1 and hand[kinds[0]] == 1):
            raise InternalError("the plan leaves red without a card for its last turn")
        k = min(kinds, key=lambda i: (hand[i], i)) if len(kinds) > 1 else kinds[0]
        b.turn(KINDS[k], hand[k] if done and len(kinds) > 1 else 1, source="waiter")


MostOrders = tuple[tuple[str, ...], tuple[tuple[str, ...], ...], tuple[str, ...],
                   tuple[tuple[str, int], ...], tuple[tuple[str, ...], ...], str]
"""A :func:`most_orders` plan for one player count: red's orders in the order placed,
the hands dealt to the players who only dump their cards, the feeder's hand, the
feeder's plays (one a cycle, just before red), the cards each of its draws from the
supply turns up but the last (after which it draws from its waiter), and the kind
red's Monotoni names."""

_S, _P, _M, _E, _O = KINDS
MOST_ORDERS: dict[int, MostOrders] = {
    # 10 cards a kind, seven orders (z3 proves eight never fit): no One-of-each; all
    # ten pineapple go to the standard order and the Monotoni, and the Bombastica
    # finds exactly 15
    3: (("red.minimale", "red.pineapple4", "red.mushroom4", "red.pepper4", "red.olive4",
         "red.monotoni", "red.bombastica"),
        ((_E,) * 6,), (_M,) * 3 + (_P,) * 3,
        ((_M, 3), (_P, 4), (_M, 4), (_P, 6), (_O, 4), (_O, 6), (_E, 4)),
        ((_P, _M, _M), (_M, _M, _P, _P), (_P,) * 4, (_O,) * 6, (_O,) * 4,
         (_E, _E, _E, _E, _M, _M)), _P),
    4: (("red.minimale", "red.pineapple4", "red.mushroom4", "red.pepper4", "red.olive4",
         "red.one_of_each", "red.monotoni", "red.bombastica"),
        ((_E,) * 6, (_O,) * 6), (_M,) * 3 + (_P,) * 3,
        ((_M, 3), (_P, 5), (_M, 5), (_P, 6), (_E, 6), (_O, 6)),
        ((_P, _P, _M), (_M, _M, _M, _M, _P), (_P,) * 5, (_E,) * 6, (_O,) * 6), _P),
    5: (("red.minimale", "red.pineapple4", "red.mushroom4", "red.pepper4", "red.olive4",
         "red.one_of_each", "red.monotoni", "red.bombastica"),
        ((_E,) * 6, (_O,) * 6, (_M,) * 6), (_P,) * 6,
        ((_P, 3), (_P, 5), (_M, 6), (_E, 6), (_O, 6)),
        ((_P, _P, _M), (_M,) * 5, (_E,) * 6, (_O,) * 6), _M),
}


def most_orders(b: Builder) -> None:
    """Three to five players, yellow first: red delivers as many orders at the first
    opening as the cards in play allow (:data:`MOST_ORDERS`).

    Red is dealt six salami and on each of its turns plays one with the next order
    (its last turn: all it holds, with the Bombastica); it draws orders from its
    waiter, then three salami from the supply, then nothing (from its empty waiter).
    The player just before red, the feeder, plays before each order what the table
    still lacks for it, drawing from the supply the cards it plays next (wished,
    :meth:`.construct.Builder.wish`); the others dump their six cards of one kind on
    their first turn, on the table for the later orders, and fill their hands with
    orders, passing from then on. The Minimale comes first, when the feeder's three
    cards are the lowest eligible kind; the Bombastica last, taking the table's rest,
    15 cards at least. Nobody but red places an order; then all play on until the
    supply runs out."""
    n = b.players
    orders, dumps, feeder_hand, feeds, draws, monotoni = MOST_ORDERS[n]
    feeder = n - 1
    _setup(b, [[_S] * 6, *dumps, feeder_hand], {"red": orders})
    for turn, order in enumerate(orders):
        for _seat in range(1, feeder):       # the dumpers: all on the first turn, then pass
            b.turn(*_largest_group(b), None, "waiter")
        if turn < len(feeds):
            kind, count = feeds[turn]
            if turn < len(draws):
                b.wish(draws[turn])
            b.turn(kind, count, None, "supply" if turn < len(draws) else "waiter")
        else:   # a pass
            b.turn(*_largest_group(b), None, "waiter")
        s = b.state
        hand = s.hands[RED]
        last = turn == len(orders) - 1
        played = hand.ingredients[0] if last else 1
        left = hand.ingredients[0] - played
        room = HAND_LIMIT - (hand.size - played - 1)
        if s.waiters[RED] or left >= len(orders) - turn - 1:
            b.turn(_S, played, order, "waiter")
        else:
            b.wish([_S] * room)
            b.turn(_S, played, order, "supply")
    _play_out(b)

    def decide(state: GameState) -> Action:
        if state.step == "name_kind" and state.reveal is not None and \
                ORDERS[state.reveal.order].type == "monotoni":
            return NameKind(monotoni)
        return default_decision(state)

    b.resolve(decide)


__all__ = ["MOST_ORDERS", "MostOrders", "Plan", "bombastica_takes_all", "most_orders"]
