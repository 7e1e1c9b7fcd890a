"""Policies: who chooses an action when a program plays. Pluggable by name.

A :data:`Policy` is what a driver such as :func:`mammamia_ref.sim.play.play_game` calls: it
gets the state, the legal actions and a random generator, and returns one of the legal
actions. Its randomness, if any, comes from the generator it is given, never a global
one.

A player that must decide only from what it may know is written as a :data:`Chooser`
over an :class:`~mammamia_ref.rules.observation.Observation` and wrapped by
:class:`ObservingPolicy`, which hands it the deciding player's observation and nothing
else (the legal actions are themselves a function of that observation). The registry:

- ``random``: the benchmark policy, uniform among the legal actions, except that a draw
  takes the supply with probability 0.8 and the waiter otherwise. It looks at nothing
  but the legal actions.
- ``simple``: a plain player on its observation: plays its most plentiful kind, places
  an order once the announced ingredients and the table seem to cover it.
- ``careful``: a sensible player on its observation: places an order when the announced
  ingredients, less what the orders already in the oven are expected to take, plus its
  spare hand cards, cover it; plays the cards such an order still lacks; draws orders
  while it has none it could place.

>>> sorted(POLICIES)
['careful', 'random', 'simple']
>>> try:
...     get_policy("clever")
... except ValueError as error:
...     print(error)
unknown policy 'clever'; known policies: careful, random, simple
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from mammamia_ref.errors import InternalError, MammamiaError
from mammamia_ref.rules.actions import (
    Action,
    Complete,
    Decline,
    Draw,
    NameKind,
    NoOrder,
    Pass,
    PlaceOrder,
    Play,
)
from mammamia_ref.rules.game import to_move
from mammamia_ref.rules.observation import IngredientRun, Observation, observation
from mammamia_ref.rules.oven import (
    Outcome,
    bombastica_outcome,
    bombastica_shortfall,
    pizza_minimale_kinds,
    pizza_monotoni_kinds,
)
from mammamia_ref.rules.state import GameState, Hand, Variants, refuse_unclaimed
from mammamia_ref.rules.vocabulary import (
    KIND_INDEX,
    KINDS,
    NO_CARDS,
    ORDER_TYPES,
    ORDERS,
    Counts,
    add,
    covers,
    shortfall,
    subtract,
)

Policy = Callable[[GameState, Sequence[Action], random.Random], Action]
Chooser = Callable[[Observation, Sequence[Action], random.Random], Action]


class UnknownPolicyError(MammamiaError):
    """A policy was asked for by a name the registry does not know."""


@dataclass(frozen=True, slots=True)
class ObservingPolicy:
    """A :data:`Policy` whose chooser sees only the observation of the player who must
    decide: whatever it does, it cannot use hidden cards."""

    name: str
    choose: Chooser

    def __call__(self, state: GameState, legal: Sequence[Action], rng: random.Random) -> Action:
        check_variants(state.variants)
        return self.choose(observation(state, to_move(state)), legal, rng)


_CHECKED: set[Variants] = set()


def check_variants(variants: Variants) -> None:
    """Refuse (``VariantError``) a non-default value of a flag the policies do not claim
    in ``spec/disputes.yaml`` (``models:``); each set of variants is checked once. A
    flag that only changes what players see is not refused: a policy that ignores some
    of what it may see still plays by the rules."""
    if variants not in _CHECKED:
        refuse_unclaimed("policies", variants, carries_information=True)
        _CHECKED.add(variants)


# --- random: the benchmark ------------------------------------------------------------


def random_policy(state: GameState, legal: Sequence[Action], rng: random.Random) -> Action:
    """The benchmark policy: uniform among legal actions, except the draw, which takes the
    supply with probability 0.8 and the waiter otherwise. (``mammamia_ref.sim.fast`` repeats
    it on action codes, drawing the same numbers.) It reads no rule, so it refuses no
    variant."""
    draws = [a for a in legal if isinstance(a, Draw)]
    if draws and len(draws) == len(legal):
        source = "supply" if rng.random() < 0.8 else "waiter"
        return rng.choice([a for a in draws if a.source == source] or draws)
    return rng.choice(list(legal))


# --- simple ---------------------------------------------------------------------------


def choose_simple(seen: Observation, legal: Sequence[Action], rng: random.Random) -> Action:
    """A plain, readable player: plays its most plentiful kind, places an order once the
    announced ingredients and the table seem to cover it, draws orders while it holds
    none, completes from hand whenever it can, and names the kind it is best placed to
    make."""
    first = legal[0]
    hand = _hand(seen)
    if isinstance(first, Pass):
        return first
    if isinstance(first, Play):
        plays = [a for a in legal if isinstance(a, Play)]
        return max(plays, key=lambda a: (a.count, -rng.random()))
    if isinstance(first, PlaceOrder | NoOrder):
        played = seen.oven_ingredients()
        for action in legal:
            if isinstance(action, PlaceOrder) and _looks_covered(action.order, played, seen):
                return action
        return legal[-1]
    if isinstance(first, Draw):
        wants_orders = not hand.orders and _own_waiter(seen)
        source = "waiter" if wants_orders else "supply"
        return max((a for a in legal if isinstance(a, Draw) and a.source == source),
                   key=lambda a: a.count or 0)
    if isinstance(first, NameKind):
        names = [a for a in legal if isinstance(a, NameKind)]
        return max(names, key=lambda a: seen.table[KIND_INDEX[a.kind]]
                   + hand.ingredients[KIND_INDEX[a.kind]])
    completes = [a for a in legal if isinstance(a, Complete)]
    return completes[0] if completes else next(a for a in legal if isinstance(a, Decline))


def _looks_covered(order_id: str, played: Counts, seen: Observation) -> bool:
    order = ORDERS[order_id]
    if order.type == "bombastica":
        return sum(played) + sum(seen.table) >= 20
    if order.type in ("monotoni", "minimale"):
        return sum(played) >= 12
    return covers(add(played, seen.table), order.requirement())


# --- careful --------------------------------------------------------------------------

BOMBASTICA_TOTAL: int = ORDER_TYPES["bombastica"]["total"]
ORDERS_SOUGHT = 3  # the careful player draws orders only while it holds fewer than this


def choose_careful(seen: Observation, legal: Sequence[Action], rng: random.Random) -> Action:
    """A sensible player who decides from its observation only.

    It forecasts the oven (:func:`forecast`): the table an order put on it now would
    meet, and the hand cards its own orders already in the oven will need. Then:

    - Order: place an order that this table plus the hand cards not spoken for cover,
      the one needing the fewest hand cards; else none.
    - Play: if an order in hand can be made that way, play cards it would otherwise
      take from hand (they are revealed just before it, so no earlier order can take
      them); otherwise play one card of the kind it has most to spare.
    - Draw: orders from the waiter while it has none it could place (and fewer than
      three in hand), else ingredients from the supply; always as many as allowed.
    - At the opening: name the kind that needs the fewest hand cards, and complete from
      hand whenever possible, giving up the cards its other orders need least.

    It uses no randomness.
    """
    first = legal[0]
    if isinstance(first, Pass):
        return first
    if isinstance(first, Play):
        return _careful_play(seen, [a for a in legal if isinstance(a, Play)])
    if isinstance(first, PlaceOrder | NoOrder):
        return _careful_order(seen, legal)
    if isinstance(first, Draw):
        return _careful_draw(seen, [a for a in legal if isinstance(a, Draw)])
    if isinstance(first, NameKind):
        return _careful_kind(seen, [a for a in legal if isinstance(a, NameKind)])
    completes = [a for a in legal if isinstance(a, Complete)]
    if completes:
        _, reserve = forecast(seen)
        need = add(reserve, tuple(_hand_needs(seen)))
        return min(completes, key=lambda a: (sum(n * c for n, c in zip(need, a.cards,
                                                                        strict=True)),
                                             [-c for c in a.cards]))
    return next(a for a in legal if isinstance(a, Decline))


def forecast(seen: Observation) -> tuple[Counts, Counts]:
    """What the observer expects of the oven: the table an order put on it now would
    meet when turned up, and the hand cards its own orders already in the oven will
    need then.

    Orders are judged in the order they were played, each on the table plus the
    ingredients revealed before it. An own order bakes if the hand cards not yet spoken
    for make up its shortfall. Another player's order is counted only when the observer
    knows it and the table then holds all it needs (it bakes whatever its owner holds);
    an order the observer cannot identify is passed over, since it could need anything."""
    table: Counts = seen.table
    hand = seen.hand.ingredients if seen.hand is not None else NO_CARDS
    reserve = NO_CARDS
    for entry in seen.oven:
        if isinstance(entry, IngredientRun):
            table = add(table, _one(entry.kind, entry.count))
        elif entry.order is None:
            continue
        elif entry.colour == seen.colour:
            used = _use(entry.order, table, subtract(hand, reserve), seen)
            if used is not None:
                table, reserve = subtract(table, used[0]), add(reserve, used[1])
        else:
            used = _use(entry.order, table, NO_CARDS, seen)
            if used is not None:
                table = subtract(table, used[0])
    return table, reserve


def expected_table(seen: Observation) -> Counts:
    """The table an order put on the oven now would meet (see :func:`forecast`)."""
    return forecast(seen)[0]


def _use(order_id: str, table: Counts, hand: Counts,
         seen: Observation) -> tuple[Counts, Counts] | None:
    """The table cards and hand cards an order would use, the kind (for Monotoni and
    Minimale) and the hand cards (for Bombastica) chosen to spare the hand; None if
    ``table`` and ``hand`` cannot make it."""
    order = ORDERS[order_id]
    if order.type == "bombastica":
        short = hand_shortfall(order_id, table, hand, seen)
        return None if short is None else (table, _spare(hand, short))
    best: tuple[int, Counts] | None = None
    for kind in _kinds_for(order_id, table, seen):
        need = order.requirement(kind)
        missing = shortfall(need, table)
        if covers(hand, missing) and (best is None or sum(missing) < best[0]):
            best = (sum(missing), need)
    if best is None:
        return None
    missing = shortfall(best[1], table)
    return subtract(best[1], missing), missing


def _spare(hand: Counts, count: int) -> Counts:
    """``count`` cards from ``hand``, taken from its most plentiful kinds."""
    taken = [0] * len(KINDS)
    for _ in range(count):
        i = max(range(len(KINDS)), key=lambda k: (hand[k] - taken[k], -k))
        taken[i] += 1
    return tuple(taken)


def _kinds_for(order_id: str, table: Counts, seen: Observation) -> tuple[str | None, ...]:
    """The kinds its owner may name (None: the order's recipe is fixed)."""
    order = ORDERS[order_id]
    if order.type == "monotoni":
        return pizza_monotoni_kinds(table, order.personal, seen.variants["monotoni_kind"])
    if order.type == "minimale":
        return pizza_minimale_kinds(table, order.personal, seen.variants["minimale_lowest"])
    return (None,)


def hand_shortfall(order_id: str, table: Counts, hand: Counts, seen: Observation) -> int | None:
    """How many hand cards the owner must add to bake ``order_id`` on ``table`` (choosing
    the best kind for Monotoni and Minimale), or None if ``hand`` cannot make it up."""
    order = ORDERS[order_id]
    if order.type == "bombastica":
        outcome = bombastica_outcome(table, hand, seen.variants["bombastica_hand"], "optional")
        if outcome is Outcome.BAKE:
            return 0
        return bombastica_shortfall(table) if outcome is Outcome.ASK else None
    best = None
    for kind in _kinds_for(order_id, table, seen):
        missing = shortfall(order.requirement(kind), table)
        if covers(hand, missing) and (best is None or sum(missing) < best):
            best = sum(missing)
    return best


def _careful_order(seen: Observation, legal: Sequence[Action]) -> Action:
    table, reserve = forecast(seen)
    free = subtract(_hand(seen).ingredients, reserve)
    options = []
    for action in legal:
        if isinstance(action, PlaceOrder):
            short = hand_shortfall(action.order, table, free, seen)
            if short is not None:
                options.append((short, action.order, action))
    if options:
        return min(options, key=lambda o: (o[0], o[1]))[2]
    return next(a for a in legal if isinstance(a, NoOrder))


def _careful_play(seen: Observation, plays: list[Play]) -> Action:
    hand = _hand(seen)
    table, reserve = forecast(seen)
    free = subtract(hand.ingredients, reserve)
    best: tuple[tuple[int, int, str], Play] | None = None
    for order_id in hand.orders:
        before = hand_shortfall(order_id, table, free, seen)
        for play in plays:
            cards = _one(play.kind, play.count)
            if not covers(free, cards):
                continue
            now = hand_shortfall(order_id, add(table, cards), subtract(free, cards), seen)
            # worth it only if the cards played are cards the order would take from hand
            if now is None or (before is not None and now >= before):
                continue
            score = (now, -play.count, order_id)
            if best is None or score < best[0]:
                best = (score, play)
    if best is not None:
        return best[1]
    # one card of the kind it has most to spare, never one spoken for if it can help it
    need = _hand_needs(seen)
    held = [i for i in range(len(KINDS)) if free[i] > 0] or \
        [i for i in range(len(KINDS)) if hand.ingredients[i] > 0]
    spare = max(held, key=lambda i: (free[i] - need[i], free[i], -i))
    return next(p for p in plays if p.kind == KINDS[spare] and p.count == 1)


def _careful_draw(seen: Observation, draws: list[Draw]) -> Action:
    hand = _hand(seen)
    table, reserve = forecast(seen)
    free = subtract(hand.ingredients, reserve)
    stuck = all(hand_shortfall(o, table, free, seen) is None for o in hand.orders)
    wants_orders = stuck and len(hand.orders) < ORDERS_SOUGHT and _own_waiter(seen) > 0
    source = "waiter" if wants_orders else "supply"
    return max((a for a in draws if a.source == source), key=lambda a: a.count or 0)


def _careful_kind(seen: Observation, legal: list[NameKind]) -> Action:
    if seen.reveal is None:
        raise InternalError("a kind is named only for a revealed order")
    order = ORDERS[seen.reveal.order]
    hand = _hand(seen).ingredients

    def cost(action: NameKind) -> tuple[int, int, str]:
        missing = shortfall(order.requirement(action.kind), seen.table)
        makeable = covers(hand, missing)
        return (0 if makeable else 1, sum(missing), action.kind)

    return min(legal, key=cost)


def _hand_needs(seen: Observation, skip: str | None = None) -> list[int]:
    """How many cards of each kind the orders in hand call for (specials: their
    personal ingredient), a measure of which hand cards are worth keeping."""
    need = [0] * len(KINDS)
    for order_id in _hand(seen).orders:
        if order_id == skip:
            continue
        order = ORDERS[order_id]
        if order.type in ("standard", "one_of_each"):
            need = [n + r for n, r in zip(need, order.requirement(), strict=True)]
        elif order.type != "bombastica":
            need[KIND_INDEX[order.personal]] += 1
    return need


def _one(kind: str, count: int) -> Counts:
    return tuple(count if k == kind else 0 for k in KINDS)


def _hand(seen: Observation) -> Hand:
    if seen.hand is None:
        raise MammamiaError("a spectator's observation cannot decide")
    return seen.hand


def _own_waiter(seen: Observation) -> int:
    """How many orders the observer's waiter holds (always known to its owner)."""
    size = seen.seats[seen.player].waiter_size if seen.player is not None else None
    return size or 0


# --- the registry ---------------------------------------------------------------------

POLICIES: dict[str, Policy] = {
    "random": random_policy,
    "simple": ObservingPolicy("simple", choose_simple),
    "careful": ObservingPolicy("careful", choose_careful),
}
"""Every policy by name. ``random`` sees only the legal actions; the others are
:class:`ObservingPolicy` and see only the deciding player's observation."""


def get_policy(name: str) -> Policy:
    """The policy registered as ``name``; :class:`UnknownPolicyError` names the others."""
    try:
        return POLICIES[name]
    except (KeyError, TypeError):
        raise UnknownPolicyError(f"unknown policy {name!r}; known policies: "
                                 f"{', '.join(sorted(POLICIES))}") from None


__all__ = ["POLICIES", "Chooser", "ObservingPolicy", "Policy", "UnknownPolicyError",
           "choose_careful", "choose_simple", "expected_table", "get_policy",
           "hand_shortfall", "random_policy"]
