"""The z3 encoding of the chapter *Opening the oven*: one function per rule.

Every function here states one rule of ``spec/rules.yaml`` over symbolic values (z3
integer terms; plain Python integers are accepted wherever a term is), and its
docstring starts with the rule ID, the same ID the reference implementation
(:mod:`mammamia_ref.rules.oven`) cites. :func:`resolve_order` puts them together: given the
table when an order turns up, its owner's hand and the owner's decisions, it says
whether the decisions are legal, whether the order bakes and which cards leave the
table and the hand. Variant flags are Python values (one encoding per ruling), so each
answer is computed under exactly one reading of every dispute.

Counts are lists of five terms in the canonical kind order of ``spec/cards.yaml``.
An order is described by :class:`OrderTerms` (its type code, its owner's personal kind
and, for a standard order, its other kind), which may be symbolic too: the oven of a
query holds orders the solver chooses.

>>> with N.building():                  # terms live in an explicit z3 context
...     table = [1, 0, 0, 0, 0]            # one salami
...     order = order_terms_of("red.minimale")
...     minimale = oven_minimale(table, order.personal)
...     N.Solver().check(N.Or(minimale)) == z3.unsat   # only the personal kind: no choice
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import z3

from mammamia_ref.queries.model import num as N
from mammamia_ref.queries.model.flags import FlagValues, as_rules, flags_of
from mammamia_ref.rules.ruleset import order_shapes
from mammamia_ref.rules.typed_spec import BombasticaHand, Completion, MinimaleLowest, MonotoniKind
from mammamia_ref.rules.vocabulary import (
    COLOURS,
    KIND_INDEX,
    KINDS,
    ORDER_TYPE_CODES,
    ORDER_TYPES,
    ORDERS,
    ORDERS_OF,
)

NK = len(KINDS)
N_ORDERS = len(ORDERS_OF[COLOURS[0]])  # a colour's orders (spec/cards.yaml)
TYPES = tuple(ORDER_TYPE_CODES)   # the order types' codes, as the engines number them
T_STANDARD, T_ONE_OF_EACH, T_BOMBASTICA, T_MONOTONI, T_MINIMALE = (
    ORDER_TYPE_CODES[name] for name in ("standard", "one_of_each", "bombastica", "monotoni",
                                        "minimale"))
NO_KIND = -1

Term = Any          # a z3 arithmetic term or a Python int
Counts = Sequence[Term]
Shapes = Mapping[str, Mapping[str, int]]
"""The order types' counts a game is played with (:func:`.ruleset.order_shapes`); the
spec's (``ORDER_TYPES``) unless a house rule sets other numbers."""


def _sum(terms: Sequence[Term]) -> Term:
    return N.Sum([N.Val(t) if isinstance(t, int) else t for t in terms]) if terms else 0


def _terms(counts: Counts) -> list[Term]:
    """Counts as terms of the context being built in (plain integers lifted), so that
    every comparison below is a z3 term of that context."""
    return [N.lift(c) for c in counts]


def _covers(have: Counts, need: Counts) -> z3.BoolRef:
    return N.And([h >= n for h, n in zip(have, need, strict=True)])


def _zero() -> list[Term]:
    return [N.Val(0) for _ in KINDS]


@dataclass(frozen=True)
class OrderTerms:
    """A (possibly symbolic) order card: its type code, the personal kind of its
    colour and, for a standard order, the kind it needs four of (else ``NO_KIND``)."""

    type: Term
    personal: Term
    other: Term


def order_terms_of(order_id: str) -> OrderTerms:
    """The constant terms of one order card of the manifest."""
    order = ORDERS[order_id]
    other = KIND_INDEX[order.other] if order.other else NO_KIND
    return OrderTerms(N.Val(ORDER_TYPE_CODES[order.type]), N.Val(KIND_INDEX[order.personal]),
                      N.Val(other))


def select_order(colours: Sequence[str], seat: Term, index: Term,
                 allowed: Mapping[int, Sequence[int]] | None = None) -> OrderTerms:
    """The order at ``index`` (0 to 7, the manifest's order of a colour's cards) of the
    colour seated at ``seat``: a choice among the constant cards (only the ``allowed``
    indices of each seat, if given), as terms."""
    typ, personal, other = N.Val(-1), N.Val(NO_KIND), N.Val(NO_KIND)
    for s, colour in enumerate(colours):
        if isinstance(seat, int) and seat != s:
            continue
        for i, order_id in enumerate(ORDERS_OF[colour]):
            if allowed is not None and i not in allowed.get(s, ()):
                continue
            terms = order_terms_of(order_id)
            here = index == i if isinstance(seat, int) else N.And(seat == s, index == i)
            typ = N.If(here, terms.type, typ)
            personal = N.If(here, terms.personal, personal)
            other = N.If(here, terms.other, other)
    return OrderTerms(typ, personal, other)


# --------------------------------------------------------------------- the rules


def oven_sort(table: Counts, kind: Term, count: Term = 1) -> list[Term]:
    """oven.sort: every ingredient card revealed joins the face-up table, grouped with
    its kind, so each kind's count is public. ``count`` cards of ``kind`` revealed one
    after another (no decision falls between them) add ``count`` to that kind."""
    table = _terms(table)
    return [t + N.If(N.Eq(kind, k), count, 0) for k, t in enumerate(table)]


def oven_standard(personal: Term, other: Term,
                  shape: Mapping[str, int] = ORDER_TYPES["standard"]) -> list[Term]:
    """oven.standard: a standard order needs 1 card of its colour's personal kind and
    4 (``standard_count``) of its one other kind (cards.yaml, order type ``standard``)."""
    return [N.If(N.Eq(personal, k), shape["personal"], 0) + N.If(N.Eq(other, k), shape["count"], 0)
            for k in range(NK)]


def oven_one_of_each(shape: Mapping[str, int] = ORDER_TYPES["one_of_each"]) -> list[Term]:
    """oven.one_of_each: the fifth standard order needs exactly one card of each of the
    five kinds, the personal kind included."""
    return [N.Val(shape["each"]) for _ in KINDS]


def oven_monotoni(table: Counts, personal: Term) -> list[z3.BoolRef]:
    """oven.monotoni: the owner names the Monotoni's other kind when it is revealed; any
    kind except the personal one may be named, even one with no card on the table."""
    table, personal = _terms(table), N.lift(personal)
    return [personal != k for k in range(NK)]


def oven_monotoni_on_table(table: Counts, personal: Term) -> list[z3.BoolRef]:
    """oven.monotoni_on_table: (variant monotoni_kind=on_table) the named kind must have
    at least one card on the table; with none but the personal kind there, no kind can
    be named and the order fails."""
    table, personal = _terms(table), N.lift(personal)
    return [N.And(personal != k, table[k] > 0) for k in range(NK)]


def oven_minimale(table: Counts, personal: Term) -> list[z3.BoolRef]:
    """oven.minimale: the eligible kinds are the non-personal kinds with at least one
    card on the table; the owner must take one whose count is the smallest among the
    eligible kinds, freely among ties. No eligible kind: nothing can be named."""
    table, personal = _terms(table), N.lift(personal)
    eligible = [N.And(personal != k, table[k] > 0) for k in range(NK)]
    return [N.And(eligible[k], *[z3.Implies(eligible[j], table[k] <= table[j])
                                 for j in range(NK)]) for k in range(NK)]


def oven_minimale_all_kinds(table: Counts, personal: Term) -> list[z3.BoolRef]:
    """oven.minimale_all_kinds: (variant minimale_lowest=all_kinds) the smallest count is
    taken over every kind on the table, the personal kind included; only a non-personal
    kind having it may be named, so a personal kind alone at the minimum (or an empty
    table) leaves no legal choice."""
    table, personal = _terms(table), N.lift(personal)
    present = [table[k] > 0 for k in range(NK)]
    return [N.And(personal != k, present[k],
                  *[z3.Implies(present[j], table[k] <= table[j]) for j in range(NK)])
            for k in range(NK)]


def named_requirement(personal: Term, named: Term, shape: Mapping[str, int]) -> list[Term]:
    """oven.monotoni, oven.minimale: once the kind is named the order needs 1 personal
    card and ``count`` cards of the named kind (6 for Monotoni, 3 for Minimale)."""
    return [N.If(N.Eq(personal, k), shape["personal"], 0) + N.If(N.Eq(named, k), shape["count"], 0)
            for k in range(NK)]


def shortfall(need: Counts, table: Counts) -> list[Term]:
    """What the table lacks of ``need``, kind by kind (helper of oven.bake)."""
    return [N.If(n > t, n - t, 0) for n, t in zip(need, table, strict=True)]


def oven_bake(table: Counts, need: Counts) -> tuple[z3.BoolRef, list[Term]]:
    """oven.bake: when the table meets the order's requirement the order bakes, and
    exactly the cards it calls for leave the table. Returns (met, cards taken)."""
    return _covers(table, need), list(need)


def oven_complete_from_hand(hand: Counts, missing: Counts,
                            complete: z3.BoolRef) -> tuple[z3.BoolRef, z3.BoolRef]:
    """oven.complete_from_hand: (completion=optional) when the table falls short, the
    owner, and nobody else, may supply exactly the missing cards from hand; it is the
    owner's free choice. Returns (the owner can, the order is completed)."""
    can = _covers(hand, missing)
    return can, N.And(can, complete)


def oven_complete_mandatory(hand: Counts, missing: Counts) -> tuple[z3.BoolRef, z3.BoolRef]:
    """oven.complete_mandatory: (completion=mandatory) an owner who can supply every
    missing card must do so. Returns (the owner can, the order is completed)."""
    can = _covers(hand, missing)
    return can, can


def oven_bombastica(table: Counts, hand: Counts, complete: z3.BoolRef, take: Counts,
                    mandatory: bool, total: int = ORDER_TYPES["bombastica"]["total"]
                    ) -> tuple[z3.BoolRef, z3.BoolRef, z3.BoolRef]:
    """oven.bombastica: at least 15 (``bombastica_total``) ingredient cards of any kinds;
    if the table holds fewer, the owner may make up exactly the difference with hand
    cards of any kinds. Baking takes every card on the table however many, so the table
    is left empty. Returns (baked, the owner is asked, the hand cards ``take`` are legal)."""
    short = total - _sum(list(table))
    from_table_only = short <= 0
    can = _sum(list(hand)) >= short
    asked = N.And(z3.Not(from_table_only), can)
    completes = asked if mandatory else N.And(asked, complete)
    take_ok = N.If(completes,
                    N.And(*[N.And(t >= 0, t <= h) for t, h in zip(take, hand, strict=True)],
                          _sum(list(take)) == short),
                    N.And(*[t == 0 for t in take]))
    return N.Or(from_table_only, completes), asked, take_ok


def several_ways(hand: Counts, short: Term) -> z3.BoolRef:
    """oven.bombastica under ``completion=mandatory``: the owner is asked how to make up
    a shortfall of ``short`` (at least 1, at most the hand) only where there is more
    than one way to take it (:func:`mammamia_ref.rules.oven.ways_to_take`); a single
    way is taken without asking. There is more than one just where the hand holds more
    cards than the shortfall, of at least two kinds."""
    kinds = _sum([N.If(h > 0, 1, 0) for h in hand])
    return N.And(_sum(list(hand)) > short, kinds >= 2)


def oven_bombastica_table_only(table: Counts,
                               total: int = ORDER_TYPES["bombastica"]["total"]) -> z3.BoolRef:
    """oven.bombastica_table_only: (bombastica_hand=forbidden) no hand card may be added:
    a Pizza Bombastica bakes only if the table alone holds 15 (``bombastica_total``)."""
    return _sum(list(table)) >= total


def oven_fail() -> tuple[list[Term], list[Term]]:
    """oven.fail: an order neither met by the table nor completed from hand fails: it
    goes face down under its owner's waiter and no card leaves the table or the hand."""
    return _zero(), _zero()


def oven_leftovers(table: Counts, from_table: Counts) -> list[Term]:
    """oven.leftovers: the cards an order does not use stay face up on the table for the
    orders revealed later in the same opening."""
    return [t - u for t, u in zip(table, from_table, strict=True)]


# --------------------------------------------------------------- one revealed order


@dataclass(frozen=True)
class Decision:
    """The owner's decisions on one revealed order: the kind named (Monotoni and
    Minimale; ``NO_KIND`` otherwise), whether to complete from hand, and for a
    Bombastica which hand cards."""

    named: Term
    complete: z3.BoolRef
    take: list[Term]

    @staticmethod
    def fresh(prefix: str) -> Decision:
        return Decision(N.Int(f"{prefix}_named"), N.Bool(f"{prefix}_complete"),
                        [N.Int(f"{prefix}_take_{k}") for k in KINDS])

    def canonical(self) -> list[z3.BoolRef]:
        """The one value of each decision where no order is revealed: no kind named, no
        completion, no card taken."""
        return [self.named == NO_KIND, z3.Not(self.complete), *[x == 0 for x in self.take]]


@dataclass(frozen=True)
class Outcome:
    """What happens to one revealed order. ``legal`` constrains the decisions to the
    rules (and to one canonical value where the rules ask nothing)."""

    legal: z3.BoolRef
    baked: z3.BoolRef
    from_table: list[Term]
    from_hand: list[Term]
    choices: list[z3.BoolRef]     # the kinds the kind rule offers (Monotoni, Minimale)
    permitted: list[z3.BoolRef]   # ... and that the owner may name under the completion rule
    need: list[Term]              # the requirement once fixed (not for Bombastica)
    asked: z3.BoolRef             # the owner decides whether to complete


def kind_choices(table: Counts, order: OrderTerms, variants: FlagValues) -> list[z3.BoolRef]:
    """The kinds the owner of a revealed Monotoni or Minimale may name under the kind
    rules in force (no kind for other orders)."""
    flags = flags_of(variants)
    if flags.monotoni_kind == MonotoniKind.ON_TABLE:
        mono = oven_monotoni_on_table(table, order.personal)
    else:
        mono = oven_monotoni(table, order.personal)
    if flags.minimale_lowest == MinimaleLowest.ALL_KINDS:
        mini = oven_minimale_all_kinds(table, order.personal)
    else:
        mini = oven_minimale(table, order.personal)
    return [N.Or(N.And(order.type == T_MONOTONI, mono[k]),
                 N.And(order.type == T_MINIMALE, mini[k])) for k in range(NK)]


def fixed_requirement(order: OrderTerms, named: Term, shapes: Shapes = ORDER_TYPES) -> list[Term]:
    """The requirement of a non-Bombastica order, its kind named where it needs one."""
    standard = oven_standard(order.personal, order.other, shapes["standard"])
    one = oven_one_of_each(shapes["one_of_each"])
    mono = named_requirement(order.personal, named, shapes["monotoni"])
    mini = named_requirement(order.personal, named, shapes["minimale"])
    # the type tests once for every kind, made in the order the kinds' terms first made them
    types = [order.type == t for t in (T_STANDARD, T_ONE_OF_EACH, T_MONOTONI, T_MINIMALE)]
    return [N.If(types[0], standard[k], N.If(types[1], one[k],
                                              N.If(types[2], mono[k], N.If(types[3], mini[k], 0))))
            for k in range(NK)]


def could_bake(table: Counts, hand: Counts, order: OrderTerms,
               variants: FlagValues) -> z3.BoolRef:
    """oven.complete_from_hand, oven.bombastica: whether some decisions the rules offer
    the owner would bake the order on this table with this hand: a kind the kind rule
    offers whose requirement table and hand cover, a fixed requirement covered so, a
    Bombastica's total in the table (and the hand, unless ``bombastica_hand=forbidden``).
    The language's ``could_bake`` of a failed order (:func:`..rules.oven.could_bake`)."""
    table, hand = _terms(table), _terms(hand)
    rules = as_rules(variants)
    shapes = order_shapes(rules.parameters)
    have = [t + h for t, h in zip(table, hand, strict=True)]
    choices = kind_choices(table, order, variants)
    named = N.Or(*[N.And(choices[k], _covers(have, fixed_requirement(order, k, shapes)))
                   for k in range(NK)])
    fixed = _covers(have, fixed_requirement(order, NO_KIND, shapes))
    cards = _sum(table) + (0 if rules.flags.bombastica_hand == BombasticaHand.FORBIDDEN
                           else _sum(hand))
    return N.If(order.type == T_BOMBASTICA, cards >= shapes["bombastica"]["total"],
                N.If(N.Or(order.type == T_MONOTONI, order.type == T_MINIMALE), named, fixed))


def resolve_order(table: Counts, hand: Counts, order: OrderTerms, decision: Decision,
                  variants: FlagValues) -> Outcome:
    """Judge one revealed order against the table and its owner's hand, as the rules of
    the chapter (under ``variants``, with the counts of its parameters) require, given
    the owner's decisions."""
    table, hand = _terms(table), _terms(hand)
    rules = as_rules(variants)
    flags, shapes = rules.flags, order_shapes(rules.parameters)
    total = shapes["bombastica"]["total"]
    mandatory = flags.completion == Completion.MANDATORY
    named_type = N.Or(order.type == T_MONOTONI, order.type == T_MINIMALE)
    bomb = order.type == T_BOMBASTICA
    choices = kind_choices(table, order, variants)
    # Under compulsory completion the named kind must be one that can bake, if any can.
    have = [t + h for t, h in zip(table, hand, strict=True)]
    makeable = [_covers(have, fixed_requirement(order, k, shapes)) for k in range(NK)]
    if mandatory:
        any_makeable = N.Or(*[N.And(choices[k], makeable[k]) for k in range(NK)])
        permitted = [N.And(choices[k], N.Or(makeable[k], z3.Not(any_makeable)))
                     for k in range(NK)]
    else:
        permitted = choices
    has_choice = N.Or(*permitted)
    named_ok = N.If(N.And(named_type, has_choice),
                     N.Or(*[N.And(decision.named == k, permitted[k]) for k in range(NK)]),
                     decision.named == NO_KIND)
    named_fails = N.And(named_type, z3.Not(has_choice))

    need = fixed_requirement(order, decision.named, shapes)
    met, _taken = oven_bake(table, need)
    missing = shortfall(need, table)
    if mandatory:
        can, completed = oven_complete_mandatory(hand, missing)
    else:
        can, completed = oven_complete_from_hand(hand, missing, decision.complete)
    fixed_asked = N.And(z3.Not(bomb), z3.Not(named_fails), z3.Not(met), can)
    fixed_baked = N.And(z3.Not(named_fails), N.Or(met, completed))

    if flags.bombastica_hand == BombasticaHand.FORBIDDEN:
        bomb_baked = oven_bombastica_table_only(table, total)
        bomb_asked = N.BoolVal(False)
        take_ok = N.And(*[t == 0 for t in decision.take])
    else:
        bomb_baked, bomb_asked, take_ok = oven_bombastica(table, hand, decision.complete,
                                                          decision.take, mandatory, total)
    asked = N.If(bomb, bomb_asked, fixed_asked)
    baked = N.If(bomb, bomb_baked, fixed_baked)
    # canonical values where the rules ask nothing; forced values under mandatory
    complete_ok = decision.complete == asked if mandatory else \
        z3.Implies(z3.Not(asked), z3.Not(decision.complete))
    legal = N.And(named_ok, complete_ok,
                  N.If(bomb, take_ok, N.And(*[t == 0 for t in decision.take])))

    none_table, none_hand = oven_fail()
    from_table = [N.If(baked, N.If(bomb, table[k], need[k] - missing[k]), none_table[k])
                  for k in range(NK)]
    from_hand = [N.If(baked, N.If(bomb, decision.take[k], missing[k]), none_hand[k])
                 for k in range(NK)]
    return Outcome(legal, baked, from_table, from_hand, choices, permitted, need, asked)


__all__ = [
    "NK", "NO_KIND", "TYPES", "T_BOMBASTICA", "T_MINIMALE", "T_MONOTONI", "T_ONE_OF_EACH",
    "T_STANDARD", "Decision", "OrderTerms", "Outcome", "could_bake", "fixed_requirement",
    "kind_choices",
    "named_requirement", "order_terms_of", "oven_bake", "oven_bombastica",
    "oven_bombastica_table_only", "oven_complete_from_hand", "oven_complete_mandatory",
    "oven_fail", "oven_leftovers", "oven_minimale", "oven_minimale_all_kinds",
    "oven_monotoni", "oven_monotoni_on_table", "oven_one_of_each", "oven_sort",
    "oven_standard", "resolve_order", "select_order", "several_ways", "shortfall",
]
