"""The careful player's judgement, written once over plain counts and card codes.

Two choosers call it: :func:`mammamia_ref.sim.policies.choose_careful`, on a player's
:class:`~mammamia_ref.rules.observation.Observation` and the reference's actions, and
:func:`choose_careful_code` below, on the fast engine's state and action codes (what
``mammamia simulate --policy careful`` runs: no reference state is built). Both hand
the same plain data to the same functions, so they make the same choices;
``tests/test_careful_fast.py`` compares them decision by decision.

Cards are the fast engine's codes (:data:`mammamia_ref.sim.fast.CARD_CODES`): kinds ``0``
to ``4``, orders from ``FIRST_ORDER`` on, numbered in the sorted order of their IDs (so
comparing codes compares IDs, as the reference's tie-breaks do). The oven is a
sequence of codes, an order the observer cannot identify being :data:`UNKNOWN`.

What the fast chooser reads of the state is what the observer may know: its own hand
and waiter size, the table, the oven's ingredients (all announced) and the orders in it
that it may identify under the information rules (``information.oven_announced``, and
every one under ``information.oven_seen``); it needs no random number.
"""

from __future__ import annotations

import random
from bisect import bisect_right
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache
from operator import add, sub
from typing import Final, TypeVar

from mammamia_ref.errors import InternalError
from mammamia_ref.rules.oven import (
    Outcome,
    bombastica_outcome,
    bombastica_shortfall,
    ever_nameable,
    minimale_kinds,
    monotoni_kinds,
    named_needs,
)
from mammamia_ref.rules.ruleset import Parameters, order_shapes
from mammamia_ref.rules.state import Phase, Rules, Step, refuse_unclaimed
from mammamia_ref.rules.typed_spec import Completion, OvenMemory
from mammamia_ref.rules.vocabulary import (
    COLOURS,
    KIND_INDEX,
    KINDS,
    ORDER_TYPE_CODES,
    ORDERS,
    Counts,
)
from mammamia_ref.sim import fast

T = TypeVar("T")
# the steps and the oven's phase as the fast engine's plain strings (an enum member read
# from its class costs a metaclass lookup, more than some of the judgements here)
# (the module's constants are ``Final``: no effect in Python; compiled, mypyc keeps them in
# C variables rather than the module's dict, as in the fast engine)
_PLAY: Final = Step.PLAY.value
_ORDER: Final = Step.ORDER.value
_DRAW: Final = Step.DRAW.value
_NAME_KIND: Final = Step.NAME_KIND.value
_OVEN: Final = Phase.OVEN.value
N_KINDS: Final = len(KINDS)
NONE: Final[Counts] = (0,) * N_KINDS
UNKNOWN: Final = -1  # an order in the oven the observer cannot identify
ORDERS_SOUGHT: Final = 3  # the careful player draws orders only while it holds fewer than this

STANDARD: Final = fast.STANDARD
BOMBASTICA: Final = fast.BOMBASTICA
MONOTONI: Final = fast.MONOTONI
FIRST_ORDER: Final = fast.FIRST_ORDER
CARD_CODES: Final = fast.CARD_CODES
CARD_NAMES: Final = fast.CARD_NAMES


def _by_code(value: Callable[[str], T], default: T) -> list[T]:
    """A list indexed by card code: ``value`` of each order's ID, ``default`` elsewhere."""
    table = [default] * len(CARD_NAMES)
    for order_id in ORDERS:
        table[CARD_CODES[order_id]] = value(order_id)
    return table


TYPE: Final[list[int]] = _by_code(lambda o: ORDER_TYPE_CODES[ORDERS[o].type], -1)
COLOUR: Final[list[int]] = _by_code(lambda o: COLOURS.index(ORDERS[o].colour), -1)
PERSONAL: Final[list[int]] = _by_code(lambda o: KIND_INDEX[ORDERS[o].personal], -1)

Recipe = tuple[tuple[int, int], ...]
"""A requirement as the (kind, count) pairs of the kinds it needs."""


def _recipe(need: Counts) -> Recipe:
    return tuple((kind, count) for kind, count in enumerate(need) if count)


@dataclass(frozen=True, slots=True)
class OrderNeeds:
    """What every order needs under one game's order shapes (``rules.ruleset.order_shapes``:
    a house rule's ``standard_count``, ``monotoni_count``, ``minimale_count``), by card code:
    the careful player judges orders by these, never by the spec's numbers."""

    fixed_need: list[Counts | None]  # standard and one-of-each: the one requirement
    named_need: list[tuple[Counts, ...]]  # Monotoni and Minimale: by the kind named
    fixed_recipe: list[Recipe | None]
    fixed_takes: list[Counts]
    named_recipe: list[tuple[Recipe, ...]]
    wanted: list[Counts]  # what an order in hand makes worth keeping


@cache
def order_needs(parameters: Parameters) -> OrderNeeds:
    """:class:`OrderNeeds` under ``parameters`` (one per set of numbers of the rules)."""
    shapes = order_shapes(parameters)
    named_needs_by_id = named_needs(parameters)
    fixed = _by_code(lambda o: ORDERS[o].requirement(shapes)
                     if ORDERS[o].type in ("standard", "one_of_each") else None, None)
    no_need: tuple[Counts, ...] = ()
    named = _by_code(lambda o: named_needs_by_id[o], no_need)

    def wanted(order_id: str) -> Counts:
        """A fixed order its recipe, a Monotoni or Minimale its personal ingredient, a
        Bombastica nothing in particular."""
        order = ORDERS[order_id]
        if order.type in ("standard", "one_of_each"):
            return order.requirement(shapes)
        if order.type == "bombastica":
            return NONE
        return tuple(int(k == order.personal) for k in KINDS)

    return OrderNeeds(
        fixed_need=fixed, named_need=named,
        fixed_recipe=[None if need is None else _recipe(need) for need in fixed],
        fixed_takes=[NONE if need is None else need for need in fixed],
        named_recipe=[tuple(_recipe(need) for need in by_kind) for by_kind in named],
        wanted=_by_code(wanted, NONE))


@dataclass(frozen=True, slots=True, eq=False)
class Judgement:
    """The variant flags and the numbers of the rules the careful player reads (what each
    order needs: :func:`order_needs`), and what it has worked out under them (one object
    for each set of rules: see :meth:`of`)."""

    monotoni_kind: str
    minimale_lowest: str
    bombastica_hand: str
    remembered: bool  # oven_memory=seen: every order played stays known
    bombastica_total: int  # oven.bombastica: the cards a Bombastica needs
    # what each order needs under the game's order counts (:class:`OrderNeeds`), by code
    fixed_recipe: list[Recipe | None]
    fixed_takes: list[Counts]
    named_recipe: list[tuple[Recipe, ...]]
    named_need: list[tuple[Counts, ...]]
    wanted: list[Counts]
    recipes: list[dict[Counts, tuple[Recipe, ...]]] = field(
        default_factory=lambda: [{} for _ in CARD_NAMES])  # by order code, then table
    nameable: list[dict[Counts, tuple[int, ...]]] = field(
        default_factory=lambda: [{} for _ in CARD_NAMES])  # by order code, then table
    folds: dict[tuple[int, bool, Counts], _Fold] = field(default_factory=dict)
    needs: dict[tuple[int, ...], Counts] = field(default_factory=dict)  # by orders in hand

    def fresh(self) -> Judgement:
        """The same flags with nothing worked out yet: what the caches must agree with."""
        return Judgement(self.monotoni_kind, self.minimale_lowest, self.bombastica_hand,
                         self.remembered, self.bombastica_total, self.fixed_recipe,
                         self.fixed_takes, self.named_recipe, self.named_need, self.wanted)

    @staticmethod
    def of(variants: Rules) -> Judgement:
        """The flags and order counts of ``variants``, refusing (``VariantError``) a value
        of a flag or parameter the policies do not claim in the spec (``models:``). A flag
        that only changes what players see is not refused: a player that ignores some of
        what it may see still plays by the rules."""
        found = _JUDGEMENTS.get(variants)
        if found is None:
            refuse_unclaimed("policies", variants, carries_information=True)
            needs = order_needs(variants.parameters)
            found = _JUDGEMENTS[variants] = Judgement(
                variants.flags.monotoni_kind, variants.flags.minimale_lowest,
                variants.flags.bombastica_hand, variants.flags.oven_memory == OvenMemory.SEEN,
                variants.parameters.bombastica_total, needs.fixed_recipe, needs.fixed_takes,
                needs.named_recipe, needs.named_need, needs.wanted)
        return found


_JUDGEMENTS: Final[dict[Rules, Judgement]] = {}
# by the fast engine's rules object (by identity)
_OF_RULES: Final[dict[fast.Rules, Judgement]] = {}


def judgement(state: fast.FastState) -> Judgement:
    """The :class:`Judgement` of a fast state's variants (looked up by its rules)."""
    found = _OF_RULES.get(state.rules)
    if found is None:
        found = _OF_RULES[state.rules] = Judgement.of(state.config.rules)
    return found


# --- what an order needs ---------------------------------------------------------------


def recipes(order: int, table: Counts, flags: Judgement) -> tuple[Recipe, ...]:
    """The requirements ``order`` may be baked to on ``table``: its fixed one, or one for
    each kind its owner may name (Monotoni, Minimale: :func:`nameable`)."""
    fixed = flags.fixed_recipe[order]
    if fixed is not None:
        return (fixed,)
    known = flags.recipes[order]
    found = known.get(table)
    if found is None:
        named = flags.named_recipe[order]
        found = tuple(named[kind] for kind in nameable(order, table, flags))
        if len(known) > _CACHE_LIMIT:
            known.clear()
        known[table] = found
    return found


def nameable(order: int, table: Counts, flags: Judgement) -> tuple[int, ...]:
    """The kinds the owner of Monotoni or Minimale ``order`` may name on ``table``: the
    rules kernel's :func:`~mammamia_ref.rules.oven.monotoni_kinds` and
    :func:`~mammamia_ref.rules.oven.minimale_kinds`, cached by table."""
    known = flags.nameable[order]
    found = known.get(table)
    if found is None:
        if not flags.named_recipe[order]:
            raise InternalError(f"{CARD_NAMES[order]} has no recipe")
        if TYPE[order] == MONOTONI:
            found = monotoni_kinds(table, PERSONAL[order], flags.monotoni_kind)
        else:
            found = minimale_kinds(table, PERSONAL[order], flags.minimale_lowest)
        if len(known) > _CACHE_LIMIT:
            known.clear()
        known[table] = found
    return found


_CACHE_LIMIT: Final = 20_000  # tables per order and set of flags: a cache, cleared when full


def _short(recipe: Recipe, table: Sequence[int], hand: Sequence[int]) -> int | None:
    """How many hand cards ``recipe`` needs on ``table``; None if ``hand`` lacks them."""
    total = 0
    for kind, count in recipe:
        missing = count - table[kind]
        if missing > 0:
            if hand[kind] < missing:
                return None
            total += missing
    return total


def hand_shortfall(order: int, table: Counts, hand: Counts, flags: Judgement) -> int | None:
    """How many hand cards the owner must add to bake ``order`` on ``table`` (choosing the
    best kind for Monotoni and Minimale), or None if ``hand`` cannot make it up."""
    fixed = flags.fixed_recipe[order]
    if fixed is not None:
        return _short(fixed, table, hand)
    if TYPE[order] == BOMBASTICA:
        outcome = bombastica_outcome(table, hand, flags.bombastica_total, flags.bombastica_hand,
                                     Completion.OPTIONAL)
        return 0 if outcome is Outcome.BAKE else \
            bombastica_shortfall(table, flags.bombastica_total) if outcome is Outcome.ASK else None
    best = None
    for recipe in _named_recipes(order, table, hand, flags):
        total = 0  # _short, written out: this is the careful player's innermost loop
        for kind, count in recipe:
            missing = count - table[kind]
            if missing > 0:
                if hand[kind] < missing:
                    break
                total += missing
        else:
            if best is None or total < best:
                best = total
    return best


def _named_recipes(order: int, table: Counts, hand: Counts,
                   flags: Judgement) -> tuple[Recipe, ...]:
    """:func:`recipes` of a Monotoni or Minimale, or none if ``table`` is new to it and
    ``hand`` makes up no kind it may ever be named: the rules kernel is then not asked
    about ``table``."""
    found = flags.recipes[order].get(table)
    if found is not None:
        return found
    named = flags.named_recipe[order]
    for kind in ever_nameable(PERSONAL[order]):
        if _short(named[kind], table, hand) is not None:
            return recipes(order, table, flags)
    return ()


def uses(order: int, table: Counts, hand: Counts,
         flags: Judgement) -> tuple[Counts, Counts] | None:
    """The table cards and hand cards ``order`` would use, the kind (Monotoni, Minimale)
    and the hand cards (Bombastica) chosen to spare the hand; None if ``table`` and
    ``hand`` cannot make it."""
    fixed = flags.fixed_recipe[order]
    if fixed is not None:  # its one requirement
        return _fixed_uses(order, fixed, table, hand, flags)
    if TYPE[order] == BOMBASTICA:
        short = hand_shortfall(order, table, hand, flags)
        return None if short is None else (table, spare(hand, short) if short else NONE)
    return _named_uses(order, table, hand, flags)


def _fixed_uses(order: int, fixed: Recipe, table: Counts, hand: Counts,
                flags: Judgement) -> tuple[Counts, Counts] | None:
    """:func:`uses` of an order of one requirement, ``fixed``."""
    total = _short(fixed, table, hand)
    if total is None:
        return None
    if not total:
        return flags.fixed_takes[order], NONE
    return _split(fixed, table)


def _named_uses(order: int, table: Counts, hand: Counts,
                flags: Judgement) -> tuple[Counts, Counts] | None:
    """:func:`uses` of a Monotoni or Minimale: the kind needing the fewest hand cards."""
    best: tuple[int, Recipe] | None = None
    for recipe in _named_recipes(order, table, hand, flags):
        short = _short(recipe, table, hand)
        if short is not None and (best is None or short < best[0]):
            best = (short, recipe)
    if best is None:
        return None
    if best[0] == 0:
        return _with_no_hand(best[1]), NONE
    return _split(best[1], table)


def _split(recipe: Recipe, table: Counts) -> tuple[Counts, Counts]:
    """What ``recipe`` takes from ``table``, and what from hand."""
    took, missing = [0] * N_KINDS, [0] * N_KINDS
    for kind, count in recipe:
        took[kind] = min(count, table[kind])
        missing[kind] = count - took[kind]
    return tuple(took), tuple(missing)


def _with_no_hand(recipe: Recipe) -> Counts:
    took = [0] * N_KINDS
    for kind, count in recipe:
        took[kind] = count
    return tuple(took)


def spare(hand: Counts, count: int) -> Counts:
    """``count`` cards from ``hand``, taken from its most plentiful kinds (one at a time,
    the first such kind; cached by hand and count)."""
    found = _SPARED.get((hand, count))
    if found is None:
        left = list(hand)
        for _ in range(count):
            most = max(left)
            left[left.index(most)] -= 1
        found = tuple(map(sub, hand, left))
        if len(_SPARED) > _CACHE_LIMIT:
            _SPARED.clear()
        _SPARED[(hand, count)] = found
    return found


_SPARED: Final[dict[tuple[Counts, int], Counts]] = {}


def hand_needs(orders: tuple[int, ...], flags: Judgement) -> Counts:
    """How many cards of each kind the orders in hand call for (specials: their personal
    ingredient), a measure of which hand cards are worth keeping (cached in ``flags``: a
    few hundred hands of orders at most)."""
    need = flags.needs.get(orders)
    if need is None:
        need = NONE
        for order in orders:
            wanted = flags.wanted[order]
            need = tuple(map(add, need, wanted))
        flags.needs[orders] = need
    return need


# --- the oven as the observer expects it ----------------------------------------------


def forecast(oven: list[int], table: Counts, hand: Counts, own: int, flags: Judgement,
             *, all_known: bool, top_known: bool,
             growing: object = None) -> tuple[Counts, Counts]:
    """What the observer (colour index ``own``, holding ``hand``) expects of the oven: the
    table an order put on it now would meet when turned up, and the hand cards its own
    orders already in it will need then.

    ``oven`` lists the cards first played first; an order counts as known if it is the
    observer's, if ``all_known``, or if it is the last card and ``top_known``; an
    :data:`UNKNOWN` one never. Orders are judged in the order they were played, each on
    the table plus the ingredients revealed before it. An own order bakes if the hand
    cards not yet spoken for make up its shortfall. Another player's order is counted
    only when known and the table then holds all it needs (it bakes whatever its owner
    holds); an order the observer cannot identify is passed over, since it could need
    anything.

    The oven only grows during a round, so the work is kept (:class:`_Fold`) and
    extended: the cards already judged for this observer on this table are not judged
    again; with a new hand, only the observer's own orders are judged again, and the
    cards after the first whose judgement changed. An oven that is not the last one
    grown (another branch of a search) goes back to the last point both share.

    ``growing``, if not None, names a span during which this very list ``oven`` only
    grows (the fast engine's round, during its turns: :func:`observed_forecast`): the
    cards kept from a forecast on the same list in the same span are then known to
    begin it, and are not compared again."""
    return _forecast(oven, table, hand, own, flags, all_known, top_known, growing)


def _forecast(oven: list[int], table: Counts, hand: Counts, own: int, flags: Judgement,
              all_known: bool, top_known: bool, growing: object) -> tuple[Counts, Counts]:
    """:func:`forecast`, its arguments by position."""
    size = len(oven)
    stop = size  # the cards whose judgement does not change as the oven grows
    if top_known and size and not all_known:
        top = oven[-1]
        if top >= FIRST_ORDER and COLOUR[top] != own:
            stop = size - 1  # known only while on top
    key = (own, all_known, table)
    fold = flags.folds.get(key)
    if fold is None or fold.oven is not oven or growing is None or fold.growing != growing \
            or len(fold.cards) > stop:
        if fold is None or ((len(fold.cards) > stop or oven[:len(fold.cards)] != fold.cards)
                            and not fold.rollback(oven, stop, own, all_known)):
            if len(flags.folds) > _FOLDS_LIMIT:
                flags.folds.clear()
            fold = flags.folds[key] = _Fold(table, hand)
        elif not fold.saved or fold.saved[-1] != len(fold.cards):
            fold.save()  # a point this oven shares with the last: another branch may too
        fold.oven, fold.growing = oven, growing
    if fold.hand != hand:
        fold.rehand(oven, hand, flags)
    if len(fold.cards) < stop:
        fold.extend(oven, stop, own, flags, all_known)
    now = tuple(fold.now)
    if stop == size:
        return now, fold.reserve
    used = uses(oven[-1], now, NONE, flags)
    return now if used is None else tuple(map(sub, now, used[0])), fold.reserve


_Mark = tuple[int, Counts, Counts | None, Counts | None]
_FOLDS_LIMIT: Final = 1_000  # forecasts kept (by observer and table): cleared when full


class _Fold:
    """The forecast of an oven's first cards for one observer, to be extended: the
    ``cards`` judged, on ``table`` with ``hand``, giving ``now`` (the table then) and
    ``reserve``. ``marks`` has, for each of the observer's own orders among them, its
    place, the table it met and the table and hand cards it took (None: it would fail;
    no hand card is :data:`NONE` itself)."""

    __slots__ = ("cards", "growing", "hand", "marks", "now", "oven", "reserve", "saved", "saves",
                 "table")

    def __init__(self, table: Counts, hand: Counts) -> None:
        self.table, self.hand = table, hand
        self.oven: list[int] | None = None  # the list last judged, and its span of growth
        self.growing: object = None
        self.cards: list[int] = []
        self.now = list(table)
        self.reserve = NONE
        self.marks: list[_Mark] = []
        self.saved: list[int] = []  # the numbers of cards judged at each save, ascending
        self.saves: list[tuple[Counts, Counts, tuple[_Mark, ...], Counts]] = []

    def save(self) -> None:
        """Remember this point (the table, reserve, own orders and hand after the cards
        judged so far), to come back to from another branch of the oven."""
        self.saved.append(len(self.cards))
        self.saves.append((tuple(self.now), self.reserve, tuple(self.marks), self.hand))

    def cut(self, length: int) -> None:
        """Forget the cards after the first ``length``, and the saves made after them."""
        del self.cards[length:]
        at = bisect_right(self.saved, length)
        del self.saved[at:], self.saves[at:]

    def rollback(self, oven: list[int], stop: int, own: int, all_known: bool) -> bool:
        """Go back to the last save whose cards begin ``oven`` (and are no more than
        ``stop``); False if there is none. Two orders of another player that the
        observer cannot identify are the same card to it (the oven of another deal of
        the hidden cards, in a search)."""
        cards = self.cards
        limit = min(len(oven), len(cards), stop)
        common = 0
        while common < limit:
            card, kept = oven[common], cards[common]
            if card != kept and (all_known or card < FIRST_ORDER or kept < FIRST_ORDER
                                 or COLOUR[card] != COLOUR[kept] or COLOUR[card] == own):
                break
            common += 1
        at = bisect_right(self.saved, common) - 1
        if at < 0:
            return False
        now, self.reserve, marks, self.hand = self.saves[at]
        length = self.saved[at]
        self.cut(length)
        cards[:] = oven[:length]
        self.now, self.marks = list(now), list(marks)
        return True

    def rehand(self, oven: list[int], hand: Counts, flags: Judgement) -> None:
        """Judge the own orders again with ``hand``; from the first that now takes other
        table cards, the cards are to be judged again. (An order that needed no hand
        card is judged the same whatever the hand: its best requirement, or a
        Bombastica's table, was met by the table alone.)"""
        self.hand = hand
        reserve = NONE
        for number, (index, met, took, from_hand) in enumerate(self.marks):
            if from_hand is NONE:
                continue
            free = free_cards(hand, reserve)
            fixed = flags.fixed_recipe[oven[index]]
            if fixed is not None and from_hand is not None:
                # a fixed recipe on the same table takes the same cards, if the hand has them
                for kind, _ in fixed:
                    if free[kind] < from_hand[kind]:
                        break
                else:
                    reserve = tuple(map(add, reserve, from_hand))
                    continue
            used = uses(oven[index], met, free, flags)
            if (None if used is None else used[0]) != took:
                self.cut(index)
                del self.marks[number:]
                self.now = list(met)
                break
            if used is not None:
                self.marks[number] = (index, met, took, used[1])
                if used[1] is not NONE:
                    reserve = tuple(map(add, reserve, used[1]))
        self.reserve = reserve

    def extend(self, oven: list[int], stop: int, own: int, flags: Judgement,
               all_known: bool) -> None:
        now, start = self.now, len(self.cards)
        first_order, colour = FIRST_ORDER, COLOUR
        cards = oven[start:stop]
        for index, card in enumerate(cards, start):
            if card < first_order:
                if card >= 0:
                    now[card] += 1
                continue
            if colour[card] == own:
                met, reserve = tuple(now), self.reserve
                free = free_cards(self.hand, reserve)
                used = uses(card, met, free, flags)
                if used is None:
                    self.marks.append((index, met, None, None))
                    continue
                self.marks.append((index, met, used[0], used[1]))
                if used[1] is not NONE:
                    self.reserve = tuple(map(add, reserve, used[1]))
            elif all_known:
                used = uses(card, tuple(now), NONE, flags)
                if used is None:
                    continue
            else:
                continue
            for kind, count in enumerate(used[0]):
                now[kind] -= count
        self.cards += cards


# --- the decisions -----------------------------------------------------------------------


def choose_order(candidates: Sequence[int], table: Counts, free: Counts,
                 flags: Judgement) -> int | None:
    """Place the order that ``table`` plus the ``free`` hand cards cover, the one needing
    the fewest hand cards (then the first by ID); None: place none."""
    best: tuple[int, int] | None = None
    for order in candidates:
        short = hand_shortfall(order, table, free, flags)
        if short is not None and (best is None or (short, order) < best):
            best = (short, order)
    return None if best is None else best[1]


def choose_play(orders: tuple[int, ...], plays: Sequence[tuple[int, int]], hand: Counts,
                table: Counts, free: Counts, flags: Judgement) -> tuple[int, int]:
    """The play (kind, count), among ``plays`` (in the order the rules list them): if an
    order in hand can be made that way, cards it would otherwise take from hand (they
    are revealed just before it, so no earlier order can take them); otherwise one card
    of the kind it has most to spare."""
    # A play (kind, count) moves cards of one kind from the free hand cards to the table.
    # For a requirement (kind, need) pairs that the free cards can make up, that changes
    # nothing but its shortfall, by min(count, what the table lacks of that kind), and
    # one that they cannot make up stays so (a play takes no more than the free cards
    # hold): so each requirement's shortfall is worked out once (:func:`_judge_orders`),
    # and each play's from it. Only which kinds a Monotoni or Minimale may be named
    # depends on the table the play makes (:func:`nameable`), and a Bombastica is judged
    # on it as before. The play chosen is the first with the lowest (shortfall, -count,
    # order) over its orders, so each play's orders may be judged in any order.
    judged = _judge_orders(orders, table, free, flags)
    if judged[0] or judged[1] or judged[2]:
        chosen = _play_for_orders(plays, table, free, judged, flags)
        if chosen is not None:
            return chosen
    return _most_to_spare(orders, hand, free, flags)


_FixedJudged = tuple[int, int, list[int]]
"""An order of a fixed recipe: (order, shortfall, what the table lacks by kind)."""
_Feasible = list[tuple[int, int, list[int]]]
"""A Monotoni's or Minimale's kinds the free cards can make up (:func:`_feasible_named`)."""
_NamedJudged = tuple[int, int | None, _Feasible, dict[Counts, tuple[int, ...]]]
"""A Monotoni or Minimale: (order, shortfall before or None, feasible, kinds by table)."""
_BombasticaJudged = tuple[int, int | None]
"""A Bombastica: (order, shortfall before; None: cannot be made)."""
_Judged = tuple[list[_FixedJudged], list[_NamedJudged], list[_BombasticaJudged]]
_Score = tuple[int, int, int]
"""A play's score for one order: (shortfall after it, -count, order); the lowest wins."""


def _judge_orders(orders: tuple[int, ...], table: Counts, free: Counts,
                  flags: Judgement) -> _Judged:
    """The orders in hand a play might bring nearer, by kind of requirement, each with
    what :func:`_play_for_orders` needs of it: those the hand cannot make up, or that
    need no hand card already, are left out (no play changes them)."""
    fixed_judged: list[_FixedJudged] = []
    named_judged: list[_NamedJudged] = []
    bombasticas: list[_BombasticaJudged] = []
    for order in orders:
        fixed = flags.fixed_recipe[order]
        if fixed is not None:
            short = _lacking(fixed, table, free)
            # one the hand cannot make up stays so whatever is played
            if short is not None and short[0]:
                fixed_judged.append((order, short[0], short[1]))
        elif TYPE[order] == BOMBASTICA:
            before = hand_shortfall(order, table, free, flags)
            if before != 0:
                bombasticas.append((order, before))
        else:
            named = _judge_named(order, table, free, flags)
            if named is not None:
                named_judged.append(named)
    return fixed_judged, named_judged, bombasticas


def _judge_named(order: int, table: Counts, free: Counts,
                 flags: Judgement) -> _NamedJudged | None:
    """A Monotoni or Minimale as :func:`_play_for_orders` judges it: the shortfall of
    each kind it may ever be named (rules kernel), those the free cards can make up (a
    play leaves the others out of reach), and its lowest on ``table`` now; None if none
    can be made up or one needs no hand card already."""
    feasible = _feasible_named(order, table, free, flags)
    if not feasible:
        return None
    known = flags.nameable[order]
    found = known.get(table)
    kinds = nameable(order, table, flags) if found is None else found
    before = None
    for named, total, _lacks in feasible:
        if named in kinds and (before is None or total < before):
            before = total
    return None if before == 0 else (order, before, feasible, known)


def _play_for_orders(plays: Sequence[tuple[int, int]], table: Counts, free: Counts,
                     judged: _Judged, flags: Judgement) -> tuple[int, int] | None:
    """The first play with the lowest score over the ``judged`` orders, if any play
    brings one nearer (takes cards it would otherwise take from hand); else None."""
    fixed_judged, named_judged, bombasticas = judged
    best: _Score | None = None
    chosen = None
    counts_tried: set[tuple[int, int]] = set()
    for play in plays:
        kind, count = play
        if free[kind] < count:
            continue
        scored = _best_fixed(fixed_judged, kind, count, best)
        if named_judged or bombasticas:
            after_table = _plus(table, kind, count)
            scored = _best_named(named_judged, kind, count, after_table, scored, flags)
            scored = _best_bombastica(bombasticas, kind, count, after_table, free, scored,
                                      counts_tried, flags)
        if scored != best:  # a score only ever replaces a higher one
            best, chosen = scored, play
    return chosen


def _best_fixed(fixed_judged: list[_FixedJudged], kind: int, count: int,
                best: _Score | None) -> _Score | None:
    """``best``, or a lower score of playing ``count`` of ``kind`` for an order of a fixed
    recipe."""
    for order, total, lacks in fixed_judged:
        lack = lacks[kind]
        if lack:  # else the table holds all it needs of this kind: no change
            score = (total - (count if count < lack else lack), -count, order)
            if best is None or score < best:
                best = score
    return best


def _best_named(named_judged: list[_NamedJudged], kind: int, count: int,
                after_table: Counts, best: _Score | None,
                flags: Judgement) -> _Score | None:
    """``best``, or a lower score of playing ``count`` of ``kind`` for a Monotoni or
    Minimale: worth it only if the cards played are cards the order would take from
    hand, among the kinds it may be named on the table the play makes."""
    for order, before, feasible, known in named_judged:
        # the lowest shortfall this play could leave, whatever kinds it makes
        # nameable: if that does no better, the rules kernel need not be asked
        bound = _MORE_THAN_ANY  # feasible is never empty
        for _named, total, lacking in feasible:
            lack = lacking[kind]
            value = total - (count if count < lack else lack)
            if value < bound:
                bound = value
        if (before is not None and bound >= before) or \
                (best is not None and best <= (bound, -count, order)):
            continue
        found = known.get(after_table)
        kinds = nameable(order, after_table, flags) if found is None else found
        now = None
        for named, total, lacking in feasible:
            if named in kinds:
                lack = lacking[kind]
                value = total - (count if count < lack else lack)
                if now is None or value < now:
                    now = value
        best = _better(best, now, before, count, order)
    return best


def _better(best: _Score | None, now: int | None, before: int | None, count: int,
            order: int) -> _Score | None:
    """``best``, or the score of a play that leaves an order short of ``now`` cards where
    it was short of ``before``, if it lowers the shortfall and beats ``best``."""
    if now is None or (before is not None and now >= before):
        return best
    score = (now, -count, order)
    return score if best is None or score < best else best


def _best_bombastica(bombasticas: list[_BombasticaJudged], kind: int, count: int,
                     after_table: Counts, free: Counts, best: _Score | None,
                     counts_tried: set[tuple[int, int]], flags: Judgement) -> _Score | None:
    """``best``, or a lower score of playing ``count`` of ``kind`` for a Bombastica (its
    shortfall depends only on how many cards are played: ``counts_tried`` holds the
    (order, count) an earlier play scored already, the same)."""
    for order, before in bombasticas:
        if best is not None and best < (0, -count, order):
            continue  # no shortfall below 0: this play cannot do better here
        if (order, count) in counts_tried:  # an earlier play scored the same
            continue
        counts_tried.add((order, count))
        now = hand_shortfall(order, after_table, _plus(free, kind, -count), flags)
        best = _better(best, now, before, count, order)
    return best


def _most_to_spare(orders: tuple[int, ...], hand: Counts, free: Counts,
                   flags: Judgement) -> tuple[int, int]:
    """One card of the kind the hand has most to spare, never one spoken for if it can
    help it."""
    need = hand_needs(orders, flags)
    spared = free if max(free) > 0 else hand  # the kinds held free, else any held
    pick, most = -1, (0, 0)
    for k in range(N_KINDS):  # the first kind with most to spare, then most free
        if spared[k] > 0:
            to_spare = (free[k] - need[k], free[k])
            if pick < 0 or to_spare > most:
                pick, most = k, to_spare
    return (pick, 1)


_MORE_THAN_ANY: Final = 1 << 30  # more than any shortfall


def _feasible_named(order: int, table: Counts, free: Counts,
                    flags: Judgement) -> list[tuple[int, int, list[int]]]:
    """The (kind, shortfall, lacking by kind) of Monotoni or Minimale ``order`` named each
    kind it may ever be named (:func:`~mammamia_ref.rules.oven.ever_nameable`) that the
    free cards can make up (:func:`_lacking`)."""
    recipes = flags.named_recipe[order]
    feasible = []
    for named in ever_nameable(PERSONAL[order]):
        short = _lacking(recipes[named], table, free)
        if short is not None:
            feasible.append((named, short[0], short[1]))
    return feasible


def _lacking(recipe: Recipe, table: Counts, free: Counts) -> tuple[int, list[int]] | None:
    """:func:`_short` of ``recipe``, and what the table lacks of each kind (0: nothing);
    None if the free cards cannot make it up."""
    total, lacking = 0, [0] * N_KINDS
    for kind, count in recipe:
        missing = count - table[kind]
        if missing > 0:
            if free[kind] < missing:
                return None
            total += missing
            lacking[kind] = missing
    return total, lacking


def _plus(counts: Counts, kind: int, count: int) -> Counts:
    return counts[:kind] + (counts[kind] + count,) + counts[kind + 1:]


def wants_orders(orders: Sequence[int], waiter_size: int,
                 view: Callable[[], tuple[Counts, Counts]], flags: Judgement) -> bool:
    """Draw from the waiter: while no order in hand could be placed (and fewer than
    :data:`ORDERS_SOUGHT` are held) and the waiter holds any. ``view`` gives the
    forecast table and the free hand cards, looked at only if the rest holds."""
    if len(orders) >= ORDERS_SOUGHT or waiter_size <= 0:
        return False
    table, free = view()
    return all(hand_shortfall(o, table, free, flags) is None for o in orders)


def free_cards(hand: Counts, reserve: Counts) -> Counts:
    """The hand cards not spoken for by the observer's orders in the oven."""
    return hand if reserve is NONE else tuple(map(sub, hand, reserve))


def choose_kind(order: int, kinds: Sequence[int], table: Counts, hand: Counts,
                flags: Judgement) -> int:
    """The kind to name for a revealed Monotoni or Minimale: one the hand can make up,
    needing the fewest hand cards (then the first by name)."""
    named = flags.named_need[order]
    best: tuple[tuple[int, int, str], int] | None = None
    for kind in kinds:  # min() by (hand cannot make it up, cards missing, name), written out
        missing, lacking = 0, 0
        for held, need, have in zip(hand, named[kind], table, strict=True):
            if need > have:
                missing += need - have
                lacking |= held < need - have
        cost = (lacking, missing, KINDS[kind])
        if best is None or cost < best[0]:
            best = (cost, kind)
    if best is None:
        raise InternalError(f"no kind to name for {CARD_NAMES[order]}")
    return best[1]


def choose_completion(options: Sequence[Counts], reserve: Counts, orders: tuple[int, ...],
                      flags: Judgement) -> Counts:
    """The hand cards to complete with: those the other orders (in the oven and in hand)
    need least."""
    need = tuple(r + w for r, w in zip(reserve, hand_needs(orders, flags), strict=True))
    return min(options, key=lambda cards: (sum(n * c for n, c in zip(need, cards, strict=True)),
                                           [-c for c in cards]))


# --- the fast engine's chooser ---------------------------------------------------------


_PASS: Final = fast.PASS  # looked up once
_NO_ORDER: Final = fast.NO_ORDER
_PLACE_BASE: Final = fast.PLACE_BASE
_PLAYS: Final[dict[tuple[int, ...], list[tuple[int, int]]]] = {}


def _plays(legal: Sequence[int]) -> list[tuple[int, int]]:
    key = legal if type(legal) is tuple else tuple(legal)
    found = _PLAYS.get(key)
    if found is None:
        found = _PLAYS[key] = [divmod(code - fast.PLAY_BASE, 16) for code in legal]
    return found


_CANDIDATES: Final[dict[tuple[int, ...], list[int]]] = {}


def _candidates(legal: Sequence[int]) -> list[int]:
    """The orders that may be placed (from the legal action codes), by codes seen."""
    key = legal if type(legal) is tuple else tuple(legal)
    found = _CANDIDATES.get(key)
    if found is None:
        found = _CANDIDATES[key] = [c - fast.PLACE_BASE for c in legal if c != fast.NO_ORDER]
    return found


def observed_forecast(state: fast.FastState, seat: int,
                      flags: Judgement) -> tuple[Counts, Counts]:
    """:func:`forecast` for ``seat`` on a fast state: the oven's orders it may identify are
    its own, every one under ``information.oven_seen``, and the top card while the oven
    is in view (``information.oven_announced``: not once it is being opened).

    During a round's turns the fast engine only appends to ``state.oven`` (one list per
    state: a copy has its own), so the forecast kept on that list is trusted to begin
    it (``growing``: the round); a caller that changed a state's oven otherwise in the
    middle of a round's turns would have to replace the list rather than change it."""
    if state.phase != _OVEN:  # the oven only grows during a round's turns
        return _forecast(state.oven, tuple(state.table), state.hands[seat],
                         _COLOUR_INDEX[state.config.colours[seat]], flags, flags.remembered,
                         True, state.round)
    return _forecast(state.oven, tuple(state.table), state.hands[seat],
                     _COLOUR_INDEX[state.config.colours[seat]], flags, flags.remembered,
                     False, None)


_COLOUR_INDEX: Final = fast.COLOUR_INDEX


def choose_careful_code(state: fast.FastState, legal: Sequence[int],
                        rng: random.Random | None = None) -> int:
    """The careful player's choice on the fast engine: the action code of the action
    :func:`mammamia_ref.sim.policies.choose_careful` chooses in this state (it draws no
    random number)."""
    if len(legal) == 1:
        return legal[0]  # no choice to make (the judgement below would come to it too)
    step = state.step
    flags = _OF_RULES.get(state.rules) or judgement(state)
    if step == _PLAY:
        return _careful_play(state, legal, flags)
    if step == _ORDER:
        return _careful_order(state, legal, flags)
    if step == _DRAW:
        return _careful_draw(state, legal, flags)
    if step == _NAME_KIND:
        return _careful_kind(state, legal, flags)
    return _careful_completion(state, legal, flags)


def _careful_play(state: fast.FastState, legal: Sequence[int], flags: Judgement) -> int:
    """Pass if the hand must (the rules list passing alone first), else :func:`choose_play`
    on the forecast table and the free hand cards."""
    if legal[0] == _PASS:
        return _PASS
    seat = state.current
    hand = state.hands[seat]
    table, reserve = observed_forecast(state, seat, flags)
    free = free_cards(hand, reserve)
    kind, count = choose_play(state.hand_orders[seat], _plays(legal), hand, table, free, flags)
    return fast.play_code(kind, count)


def _careful_order(state: fast.FastState, legal: Sequence[int], flags: Judgement) -> int:
    """The order to place (:func:`choose_order`), or none."""
    seat = state.current
    table, reserve = observed_forecast(state, seat, flags)
    free = free_cards(state.hands[seat], reserve)
    order = choose_order(_candidates(legal), table, free, flags)
    return _NO_ORDER if order is None else _PLACE_BASE + order


def _careful_draw(state: fast.FastState, legal: Sequence[int], flags: Judgement) -> int:
    """The waiter if :func:`wants_orders`, else the supply; under ``draw_amount=any``, as
    many cards as may be drawn from it."""
    seat = state.current

    def view() -> tuple[Counts, Counts]:
        table, reserve = observed_forecast(state, seat, flags)
        return table, free_cards(state.hands[seat], reserve)

    source = fast.WAITER if wants_orders(state.hand_orders[seat], len(state.waiters[seat]),
                                         view, flags) else fast.SUPPLY
    if not state.rules.draw_any:
        return fast.DRAW_FILL[source]
    base = fast.DRAW_N_BASE + 64 * source
    return max(c for c in legal if base <= c < base + 64)


def _careful_kind(state: fast.FastState, legal: Sequence[int], flags: Judgement) -> int:
    """The kind to name for the revealed order (:func:`choose_kind`)."""
    order = state.reveal
    if order is None:
        raise InternalError("a kind is named only for a revealed order")
    kind = choose_kind(order, [c - fast.NAME_BASE for c in legal], tuple(state.table),
                       state.hands[state.current], flags)
    return fast.NAME_BASE + kind


def _careful_completion(state: fast.FastState, legal: Sequence[int], flags: Judgement) -> int:
    """The hand cards to complete the revealed order with (:func:`choose_completion`), or
    decline if there are none."""
    completes = [c for c in legal if c >= fast.COMPLETE_BASE]
    if not completes:
        return fast.DECLINE
    _, reserve = observed_forecast(state, state.current, flags)
    cards = choose_completion([fast.unpack(c - fast.COMPLETE_BASE) for c in completes],
                              reserve, state.hand_orders[state.current], flags)
    return fast.COMPLETE_BASE + fast.pack(cards)


__all__ = ["UNKNOWN", "Judgement", "choose_careful_code", "choose_completion", "choose_kind",
           "choose_order", "choose_play", "forecast", "free_cards", "hand_needs", "hand_shortfall",
           "judgement", "nameable", "observed_forecast", "order_needs", "recipes", "spare", "uses",
           "wants_orders"]
