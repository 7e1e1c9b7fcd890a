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
- ``search`` (``search:N``: N playouts per decision): Monte Carlo search over deals of
  the cards it cannot see, consistent with its observation, careful players playing
  each candidate on (:mod:`mammamia_ref.sim.search`).
- ``feed:COLOUR:POLICY``: not a player but a table that plays for one seat, for
  ``ask``'s search: the others place no order and play what its orders lack
  (:mod:`mammamia_ref.sim.feeding`).

>>> sorted(POLICIES)
['careful', 'random', 'search', 'simple']
>>> try:
...     get_policy("clever")
... except ValueError as error:
...     print(str(error).replace("; ", ";\\n"))
unknown policy 'clever';
known policies: careful, random, search, simple (and search:N, feed:COLOUR:POLICY, slow:COLOUR)
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
from mammamia_ref.rules.ruleset import order_shapes
from mammamia_ref.rules.state import GameState, Hand, Rules, refuse_unclaimed
from mammamia_ref.rules.vocabulary import (
    COLOURS,
    KIND_INDEX,
    KINDS,
    NO_CARDS,
    ORDERS,
    Counts,
    add,
    covers,
)
from mammamia_ref.sim import careful, fast, search
from mammamia_ref.sim.careful import CARD_CODES, CARD_NAMES

Policy = Callable[[GameState, Sequence[Action], random.Random], Action]
FastChooser = Callable[[fast.FastState, Sequence[int], random.Random], int]
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
        check_variants(state.rules)
        return self.choose(observation(state, to_move(state)), legal, rng)


_CHECKED: set[Rules] = set()


def check_variants(variants: Rules) -> None:
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
        return _simple_order(seen, legal)
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


def _simple_order(seen: Observation, legal: Sequence[Action]) -> Action:
    """The first order that :func:`_looks_covered`, else none (listed last)."""
    played = seen.oven_ingredients()
    for action in legal:
        if isinstance(action, PlaceOrder) and _looks_covered(action.order, played, seen):
            return action
    return legal[-1]


def _looks_covered(order_id: str, played: Counts, seen: Observation) -> bool:
    """A rough guess from the game's order shapes: a Bombastica once five cards more than
    it needs are in sight; a Monotoni once the oven holds twice its count (the named kind
    is likely among the two most played); a Minimale once it holds its count of each of
    the four kinds it may be named; a fixed order once its recipe is in sight."""
    order, numbers = ORDERS[order_id], seen.rules.parameters
    shapes = order_shapes(numbers)
    if order.type == "bombastica":
        return sum(played) + sum(seen.table) >= numbers.bombastica_total + 5
    if order.type == "monotoni":
        return sum(played) >= 2 * shapes["monotoni"]["count"]
    if order.type == "minimale":
        return sum(played) >= (len(KINDS) - 1) * shapes["minimale"]["count"]
    return covers(add(played, seen.table), order.requirement(shapes))


# --- careful --------------------------------------------------------------------------
# The judgement itself is written once, over counts and card codes, in
# :mod:`mammamia_ref.sim.careful`; this chooser hands it what the observation shows, as
# the fast engine's chooser there hands it what the fast state shows the same player.

ORDERS_SOUGHT = careful.ORDERS_SOUGHT  # the careful player draws orders only while it holds fewer


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

    It uses no randomness. (:func:`mammamia_ref.sim.careful.choose_careful_code` makes the
    same choices on the fast engine.)
    """
    first = legal[0]
    if isinstance(first, Pass):
        return first
    hand = _hand(seen)
    flags = careful.Judgement.of(seen.rules)
    orders = tuple(CARD_CODES[o] for o in hand.orders)
    if isinstance(first, NameKind):
        return _careful_kind(seen, legal, hand, flags)
    if isinstance(first, Draw):
        return _careful_draw(seen, legal, hand, orders, flags)
    table, reserve = forecast(seen)
    free = careful.free_cards(hand.ingredients, reserve)
    if isinstance(first, Play):
        plays = [a for a in legal if isinstance(a, Play)]
        kind, count = careful.choose_play(orders, [(KIND_INDEX[a.kind], a.count) for a in plays],
                                          hand.ingredients, table, free, flags)
        return next(a for a in plays if a.kind == KINDS[kind] and a.count == count)
    if isinstance(first, PlaceOrder | NoOrder):
        return _careful_order(legal, table, free, flags)
    return _careful_completion(legal, reserve, orders, flags)


def _careful_kind(seen: Observation, legal: Sequence[Action], hand: Hand,
                  flags: careful.Judgement) -> Action:
    """The kind to name for the revealed order (:func:`careful.choose_kind`)."""
    if seen.reveal is None:
        raise InternalError("a kind is named only for a revealed order")
    names = [a for a in legal if isinstance(a, NameKind)]
    kind = careful.choose_kind(CARD_CODES[seen.reveal.order],
                               [KIND_INDEX[a.kind] for a in names], seen.table,
                               hand.ingredients, flags)
    return next(a for a in names if a.kind == KINDS[kind])


def _careful_draw(seen: Observation, legal: Sequence[Action], hand: Hand,
                  orders: tuple[int, ...], flags: careful.Judgement) -> Action:
    """The waiter if :func:`careful.wants_orders`, else the supply; as many as allowed."""

    def view() -> tuple[Counts, Counts]:
        table, reserve = forecast(seen)
        return table, careful.free_cards(hand.ingredients, reserve)

    source = "waiter" if careful.wants_orders(orders, _own_waiter(seen), view, flags) \
        else "supply"
    return max((a for a in legal if isinstance(a, Draw) and a.source == source),
               key=lambda a: a.count or 0)


def _careful_order(legal: Sequence[Action], table: Counts, free: Counts,
                   flags: careful.Judgement) -> Action:
    """The order to place (:func:`careful.choose_order`), or none."""
    places = [a for a in legal if isinstance(a, PlaceOrder)]
    order = careful.choose_order([CARD_CODES[a.order] for a in places], table, free, flags)
    if order is None:
        return next(a for a in legal if isinstance(a, NoOrder))
    return next(a for a in places if a.order == CARD_NAMES[order])


def _careful_completion(legal: Sequence[Action], reserve: Counts, orders: tuple[int, ...],
                        flags: careful.Judgement) -> Action:
    """The hand cards to complete with (:func:`careful.choose_completion`), or decline."""
    completes = [a for a in legal if isinstance(a, Complete)]
    if completes:
        cards = careful.choose_completion([a.cards for a in completes], reserve, orders, flags)
        return next(a for a in completes if a.cards == cards)
    return next(a for a in legal if isinstance(a, Decline))


def forecast(seen: Observation) -> tuple[Counts, Counts]:
    """What the observer expects of the oven: the table an order put on it now would
    meet when turned up, and the hand cards its own orders already in the oven will
    need then (:func:`mammamia_ref.sim.careful.forecast` on the observed oven: orders
    judged in the order they were played; an own order bakes if the hand cards not yet
    spoken for make up its shortfall; another player's order is counted only when the
    observer knows it and the table then holds all it needs; an order the observer
    cannot identify is passed over, since it could need anything)."""
    oven: list[int] = []
    for entry in seen.oven:
        if isinstance(entry, IngredientRun):
            oven += [KIND_INDEX[entry.kind]] * entry.count
        else:
            oven.append(careful.UNKNOWN if entry.order is None else CARD_CODES[entry.order])
    hand = seen.hand.ingredients if seen.hand is not None else NO_CARDS
    own = COLOURS.index(seen.colour) if seen.colour is not None else -1
    return careful.forecast(oven, seen.table, hand, own, careful.Judgement.of(seen.rules),
                            all_known=True, top_known=False)


def expected_table(seen: Observation) -> Counts:
    """The table an order put on the oven now would meet (see :func:`forecast`)."""
    return forecast(seen)[0]


def hand_shortfall(order_id: str, table: Counts, hand: Counts, seen: Observation) -> int | None:
    """How many hand cards the owner must add to bake ``order_id`` on ``table`` (choosing
    the best kind for Monotoni and Minimale), or None if ``hand`` cannot make it up."""
    return careful.hand_shortfall(CARD_CODES[order_id], tuple(table), tuple(hand),
                                  careful.Judgement.of(seen.rules))


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
    "search": ObservingPolicy("search", search.SearchPolicy(search.SearchSettings())),
}
"""Every policy by name. ``random`` sees only the legal actions; the others are
:class:`ObservingPolicy` and see only the deciding player's observation. ``search`` has
the default budget; :func:`get_policy` also knows ``search:N`` (N playouts per
decision)."""


FAST_CHOOSERS: dict[str, FastChooser] = {
    "random": fast.benchmark_choice,
    "careful": careful.choose_careful_code,
}
"""The policies that also choose on the fast engine's state and action codes, making
the choices their :data:`POLICIES` entry makes (``tests/test_careful_fast.py``,
``tests/test_fast_equivalence.py``)."""


def get_fast_chooser(name: str) -> FastChooser | None:
    """The fast engine's chooser of policy ``name``, None if it has none (the policy is
    then run on the reference's state). A search player's builds its observation from
    the fast state and searches on the fast engine."""
    if not isinstance(name, str):
        return None
    if name in FAST_CHOOSERS:
        return FAST_CHOOSERS[name]
    settings = _search_settings(name)
    return None if settings is None else search.SearchChooser(settings)


def get_policy(name: str) -> Policy:
    """The policy registered as ``name``, a search player ``search:N`` or a table that
    plays for one seat ``feed:COLOUR:POLICY`` (:mod:`.feeding`);
    :class:`UnknownPolicyError` names the others."""
    from mammamia_ref.sim.feeding import FeedingPolicy, parse_feed
    from mammamia_ref.sim.slowing import SlowPolicy, parse_slow

    try:
        return POLICIES[name]
    except (KeyError, TypeError):
        pass
    try:
        fed = parse_feed(name)
    except MammamiaError as error:
        raise UnknownPolicyError(str(error)) from None
    if fed is not None:
        return FeedingPolicy(fed[0], POLICIES[fed[1]])
    try:
        slow = parse_slow(name)
    except MammamiaError as error:
        raise UnknownPolicyError(str(error)) from None
    if slow is not None:
        return SlowPolicy(slow)
    settings = _search_settings(name)
    if settings is None:
        raise UnknownPolicyError(f"unknown policy {name!r}; known policies: "
                                 f"{', '.join(sorted(POLICIES))} (and search:N, "
                                 "feed:COLOUR:POLICY, slow:COLOUR)")
    return ObservingPolicy(name, search.SearchPolicy(settings))


def _search_settings(name: str) -> search.SearchSettings | None:
    try:
        return search.parse_search(name)
    except MammamiaError as error:
        raise UnknownPolicyError(str(error)) from None


__all__ = ["POLICIES", "Chooser", "ObservingPolicy", "Policy", "UnknownPolicyError",
           "choose_careful", "choose_simple", "expected_table", "get_policy",
           "hand_shortfall", "random_policy"]
