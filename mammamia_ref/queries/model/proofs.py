"""Statements proved for games of every length: invariants by induction over the
transition relation of :mod:`.game_model`, a ranking function for termination, and the
most orders one opening can bake by counting cards (:func:`card_bound`,
:func:`orders_bound`).

An invariant ``I`` holds in every reachable state when it holds after the setup (base
case) and every step (a turn, a reveal, a transition) from any state satisfying ``I``
leads to a state satisfying ``I`` (1-induction). Each proof is a handful of
unsatisfiability checks, one per case; a failed case returns the counterexample step.
The invariants are always proved together with the model's well-formedness
(:meth:`.game_model.GameModel.well_formed`), which must itself be inductive.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import z3

from mammamia_ref.errors import InternalError
from mammamia_ref.queries.model import num as N
from mammamia_ref.queries.model.flags import (
    FlagValues,
    as_rules,
    flag_values,
    flags_of,
    implemented_flags,
)
from mammamia_ref.queries.model.free_steps import free_step, setup_state
from mammamia_ref.queries.model.game_model import (
    HAND,
    TURN,
    UNDER,
    WAITER,
    GameModel,
    State,
)
from mammamia_ref.queries.model.oven_rules import (
    N_ORDERS,
    NK,
    Decision,
    Outcome,
    resolve_order,
    select_order,
)
from mammamia_ref.rules.ruleset import order_shapes
from mammamia_ref.rules.setup import trimmed_per_kind
from mammamia_ref.rules.state import variant_defaults
from mammamia_ref.rules.typed_spec import PassOrder, Stall
from mammamia_ref.rules.vocabulary import COLOURS, COPIES, KINDS, ORDERS, ORDERS_OF

Invariant = Callable[[GameModel, State], list[Any]]


@dataclass
class Proof:
    holds: bool
    cases: dict[str, str]          # case -> "unsat" (proved) or "sat" (counterexample)
    counterexample: str | None = None


def prove_invariant(players: int, variants: FlagValues, invariant: Invariant, *,
                    counts: bool = False, inside: bool = False) -> Proof:
    """1-induction of ``well_formed ∧ invariant`` over every kind of step; with
    ``counts``, the turn case first proves the counting lemmas of :func:`_turn_lemmas`
    (for invariants about the number of cards in hands); with ``inside``, ``invariant``
    is proved too of every state the reference stops at inside a step and before the
    first orders are taken (:mod:`.stops`), so that it holds in every state a question
    judges."""
    from mammamia_ref.queries.model import stops

    cases: dict[str, str] = {}

    def full(model: GameModel, s: State) -> Any:
        return N.And(*model.well_formed(s), *invariant(model, s))

    model, s, constraints = setup_state(players, variants)
    result, _ = N.check(constraints + [z3.Not(full(model, s))])
    cases["setup"] = str(result)
    if inside:
        result, _ = N.check(constraints + [z3.Not(N.And(*invariant(
            model, stops.before_first_orders(s))))])
        cases["setup, before the first orders"] = str(result)
    lemma = prove_oven_contract(variants)
    cases["oven contract"] = "unsat" if lemma.holds else "sat"
    for what in ("turn", "reveal", "transition"):
        # A turn's rules never look at the seat's colour: seat 0's turn stands for every
        # seat's (the state is arbitrary, so relabelling the seats maps one case onto
        # another).
        model, before, after, facts, constraints = free_step(
            players, variants, what, f"i_{what}", contract=oven_contract,
            who=0 if what == "turn" else None)
        if what == "turn" and counts:
            constraints = constraints + _turn_lemmas(model, before, after, facts, constraints,
                                                     cases)
        result, zm = N.check(constraints + invariant(model, before) + [z3.Not(full(model, after))])
        cases[what] = str(result)
        if zm is not None:
            return Proof(False, cases, f"a {what} step breaks the invariant")
        states = stops.inside(model, what, before, after, facts["selectors"], facts) \
            if inside else []
        for k, mid in enumerate(states):
            result, zm = N.check(constraints + invariant(model, before)
                                 + [z3.Not(N.And(*invariant(model, mid)))])
            cases[f"{what}, inside ({k + 1})"] = str(result)
            if zm is not None:
                return Proof(False, cases, f"a state inside a {what} step breaks the invariant")
    holds = all(v == "unsat" for v in cases.values())
    return Proof(holds, cases, None if holds else "the setup breaks the invariant")


def _turn_lemmas(model: GameModel, before: State, after: State, facts: dict[str, Any],
                 constraints: list[Any], cases: dict[str, str]) -> list[Any]:
    """Lemmas about seat 0's turn, each proved here (from the turn's constraints and the
    lemmas before it) before it is used: order by order, an order is in hand after the
    turn if it was and was not placed, or if it was drawn; as many orders are drawn as
    the draw takes; so the orders and then the whole hand after the turn, counted card
    by card, are what the turn's arithmetic says. Proving the count in these steps spares
    the solver a counting argument it finds slow."""
    a = facts["selectors"]
    held_after = model.held_orders(after, 0)
    picks = N.Sum([N.If(p, 1, 0) for p in a.picks])
    per_order = []
    for o in range(N_ORDERS):
        was = N.If(before.loc[0][o] == HAND, 1, 0)
        now = N.If(after.loc[0][o] == HAND, 1, 0)
        pick = N.If(a.picks[o], 1, 0)
        per_order.append(now == was - N.If(a.order == o, 1, 0) + pick)
        per_order.append(pick == N.If(N.And(a.picks[o], before.loc[0][o] == WAITER), 1, 0)
                         + N.If(N.And(a.picks[o], before.loc[0][o] == UNDER), 1, 0))
    per_order.append(N.Sum([N.If(a.order == o, 1, 0) for o in range(N_ORDERS)])
                     == N.If(a.order >= 0, 1, 0))
    steps = [("each order", per_order),
             ("orders drawn", [picks == facts["took"]]),
             ("orders held", [held_after == facts["held_after"]]),
             ("hand count", [model.hand_size(after, 0)
                             == facts["ingredients_after"] + facts["held_after"]])]
    known: list[Any] = []
    base = constraints + model.well_formed(before)
    for name, lemma in steps:
        result, _ = N.check(base + known + [z3.Not(N.And(lemma))])
        cases[f"turn lemma: {name}"] = str(result)
        if result != z3.unsat:
            raise InternalError(f"the turn lemma '{name}' does not hold ({result})")
        known += lemma
    return known


def hand_limit(model: GameModel, s: State) -> list[Any]:
    """No hand holds more cards (ingredients and orders) than the hand limit (7 by the
    spec; the game's ``hand_limit``)."""
    return [model.hand_size(s, p) <= model.hand_limit for p in range(model.n)]


def quiet_hands(model: GameModel, s: State) -> list[Any]:
    """While a round is played, the players of the quiet turns just before the turn to
    play hold no ingredient card: a player passes only with none (turn.pass), and a quiet
    turn moves no card (round_end.stall counts them), so none has come to them since."""
    n = model.n
    return [z3.Implies(N.And(s.ph == TURN, s.quiet >= j, s.cur == (p + j) % n),
                       N.Sum(list(s.hand[p])) == 0)
            for p in range(n) for j in range(1, n)]


def proved_invariants(players: int, variants: FlagValues) -> Invariant:
    """The invariants proved for every reachable state (each by 1-induction with the
    model's well-formedness, so all of them together are inductive too): the hand limit
    and :func:`quiet_hands`, each where its proof holds for ``players`` under
    ``variants``; the hypotheses on a step's state before it in the unbounded proofs."""
    proved = [invariant for invariant, counts in PROVED
              if _holds(players, variants, invariant, counts)]
    return lambda model, s: [c for invariant in proved for c in invariant(model, s)]


PROVED: tuple[tuple[Invariant, bool], ...] = ((hand_limit, True), (quiet_hands, False))
"""The invariants :func:`proved_invariants` tries, each with whether its proof needs the
counting lemmas of the cards in hands (``prove_invariant``'s ``counts``)."""


@functools.lru_cache(maxsize=128)
def _holds(players: int, variants: FlagValues, invariant: Invariant,
           counts: bool = False) -> bool:
    with N.building():
        return prove_invariant(players, variants, invariant, counts=counts).holds


def holder_at_opening(model: GameModel, s: State) -> list[Any]:
    """Whenever the oven is being opened, somebody holds the Mamma Mia! card."""
    from mammamia_ref.queries.model.game_model import OVEN

    return [z3.Implies(s.ph == OVEN, s.mm >= 0)]


def measure(model: GameModel, s: State) -> tuple[Any, Any, Any]:
    """The ranking of a position within a round, compared lexicographically: cards in
    hands, the supply (the Mamma Mia! card included while there) and the waiters; cards
    in the supply and the waiters; turns still to go before a cycle of quiet turns."""
    n = model.n
    supply = model.supply_cards(s)
    waiting = N.Sum([model.orders_at(s, p, WAITER, UNDER) for p in range(n)])
    hands = N.Sum([model.hand_size(s, p) for p in range(n)])
    return hands + supply + waiting, supply + waiting, n - s.quiet


def prove_turns_terminate(players: int, variants: FlagValues) -> Proof:
    """Every turn that does not end its round decreases :func:`measure`; the measure is
    a tuple of naturals, so no round has infinitely many turns (and a game has at most
    three rounds, each opening revealing finitely many cards)."""
    model, before, after, facts, constraints = free_step(players, variants, "turn", "rank",
                                                         contract=oven_contract, who=0)
    cases: dict[str, str] = {}
    constraints = constraints + _turn_lemmas(model, before, after, facts, constraints, cases)
    a, b = measure(model, before), measure(model, after)
    decreases = N.Or(a[0] > b[0], N.And(a[0] == b[0], a[1] > b[1]),
                     N.And(a[0] == b[0], a[1] == b[1], a[2] > b[2]))
    natural = N.And(*[x >= 0 for x in b])
    result, _ = N.check(constraints + model.well_formed(before)
                        + [after.ph == TURN, z3.Not(N.And(decreases, natural))])
    cases["turn"] = str(result)
    return Proof(result == z3.unsat, cases,
                 None if result == z3.unsat else "a turn that ends no round keeps the measure")


_fresh = iter(range(1 << 30))


def oven_contract(table: list[Any], hand: list[Any]) -> Outcome:
    """Any outcome of a revealed order that :func:`prove_oven_contract` allows: cards
    leave the table and the owner's hand, never more than are there, and none when the
    order fails. Induction proofs judge a reveal by this contract, proved once for
    every order, table, hand and decision, instead of by the rules themselves."""
    i = next(_fresh)
    baked = N.Bool(f"contract{i}_baked")
    from_table = [N.Int(f"contract{i}_table{k}") for k in range(NK)]
    from_hand = [N.Int(f"contract{i}_hand{k}") for k in range(NK)]
    legal = N.And(*[N.And(x >= 0, x <= t) for x, t in zip(from_table, table, strict=True)],
                  *[N.And(x >= 0, x <= h) for x, h in zip(from_hand, hand, strict=True)],
                  z3.Implies(z3.Not(baked), N.And(*[x == 0 for x in from_table + from_hand])))
    return Outcome(legal, baked, from_table, from_hand, [], [], [], N.BoolVal(False))


def prove_oven_contract(variants: FlagValues) -> Proof:
    """The oven rules (:func:`.oven_rules.resolve_order`) keep :func:`oven_contract` for
    every order of every colour, every table of up to 13 cards a kind, every hand and
    every legal decision."""
    seat, index = N.Int("lemma_seat"), N.Int("lemma_index")
    table = [N.Int(f"lemma_table{k}") for k in range(NK)]
    hand = [N.Int(f"lemma_hand{k}") for k in range(NK)]
    decision = Decision.fresh("lemma")
    order = select_order(COLOURS, seat, index)
    rules = as_rules(variants)  # the oven rules and the hand limit, trimming and counts
    out = resolve_order(table, hand, order, decision, rules)
    domain = [seat >= 0, seat < len(COLOURS), index >= 0, index < N_ORDERS,
              *[N.And(t >= 0, t <= c) for t, c in zip(table, COPIES, strict=True)],
              *[N.And(h >= 0, h <= rules.parameters.hand_limit) for h in hand]]
    kept = N.And(*[N.And(x >= 0, x <= t) for x, t in zip(out.from_table, table, strict=True)],
                 *[N.And(x >= 0, x <= h) for x, h in zip(out.from_hand, hand, strict=True)],
                 z3.Implies(z3.Not(out.baked),
                            N.And(*[x == 0 for x in out.from_table + out.from_hand])))
    result, _ = N.check(domain + [out.legal, z3.Not(kept)])
    return Proof(result == z3.unsat, {"oven contract": str(result)})


def card_kept_at_openings(model: GameModel, s: State) -> list[Any]:
    """While the oven is open, some ingredient card is in a hand, the supply or the used
    pile. It holds under ``round_end.last_ingredient``: a round ends on the drawing of
    the supply's last ingredient card, which the drawer keeps, or by a stall, which
    leaves supply cards, or at once, when no card came back to the supply
    (``round_end.last_ingredient``, ``round_end.stall``, ``next_round.supply``)."""
    from mammamia_ref.queries.model.game_model import OVEN

    held = N.Sum([x for p in range(model.n) for x in s.hand[p]])
    return [z3.Implies(s.ph == OVEN, held + N.Sum(s.supply) + N.Sum(s.used) >= 1)]


def take_bound(players: int, variants: FlagValues, order_id: str, bound: int,
               invariant: Invariant | None = None, *, below: bool = False) -> Proof:
    """No revealed ``order_id`` that bakes takes more than ``bound`` ingredient cards
    (with ``below``: fewer than ``bound``) from the table and its owner's hand, from any
    well-formed state (and one satisfying ``invariant``; both are proved inductive first,
    :func:`prove_invariant`): one reveal step judged by the oven rules themselves, every
    card, hand and decision."""
    cases: dict[str, str] = {}
    # the hypothesis of the reveal step: the model's well-formedness (and the invariant)
    # holds in every reachable state
    proof = prove_invariant(players, variants, invariant or (lambda _m, _s: []))
    cases.update({f"invariant: {k}": r for k, r in proof.cases.items()})
    if not proof.holds:
        return Proof(False, cases, "the invariant is not inductive")
    model, before, _after, facts, constraints = free_step(players, variants, "reveal", "take")
    colour = ORDERS[order_id].colour
    seat = model.colours.index(colour)
    taken = N.Sum([a + b for a, b in zip(facts["from_table"], facts["from_hand"], strict=True)])
    extra = invariant(model, before) if invariant is not None else []
    result, _ = N.check(constraints + extra + [
        facts["owner"] == seat, facts["order"] == ORDERS_OF[colour].index(order_id),
        facts["baked"], taken < bound if below else taken > bound])
    cases["reveal"] = str(result)
    holds = all(r == "unsat" for r in cases.values())
    return Proof(holds, cases, None if holds else
                 f"{order_id} can take {'fewer' if below else 'more'} than {bound}")


def card_bound(players: int, rules: FlagValues) -> tuple[int, int]:
    """Q05's bound: the most orders one opening of a ``players``-player game can bake by the cards
    they need (z3, over every choice of orders of every colour), and the cards in play,
    under the game's numbers (its order counts and trimming)."""
    game = as_rules(rules)
    trimmed = trimmed_per_kind(game.parameters.trimming, players, game.flags.trimming)
    cards = sum(c - trimmed for c in COPIES)
    cheapest = cheapest_needs(order_shapes(game.parameters))
    orders = [o for c in COLOURS[:players] for o in ORDERS_OF[c]]
    # how many orders of each type bake (orders of one type cost alike): linear
    # arithmetic over five counts, which z3 settles at once
    of_type = {t: sum(1 for o in orders if ORDERS[o].type == t) for t in cheapest}
    chosen = {t: N.Int(f"q05_{t}") for t in cheapest}
    domain = [N.And(x >= 0, x <= of_type[t]) for t, x in chosen.items()]
    use = N.Sum([x * cheapest[t] for t, x in chosen.items()])
    count = N.Sum(list(chosen.values()))
    # the cheapest orders first fit the most (a count of items, each of its own size);
    # z3 checks that number is possible and one more is not
    costs = sorted(cheapest[ORDERS[o].type] for o in orders)
    most = max(k for k in range(len(costs) + 1) if sum(costs[:k]) <= cards)
    fits, _ = N.check([*domain, use <= cards, count >= most])
    beyond, _ = N.check([*domain, use <= cards, count >= most + 1])
    if fits != z3.sat or beyond != z3.unsat:   # pragma: no cover - z3 disagrees
        raise InternalError(f"Q05's card count: {most} orders {fits}, one more {beyond}")
    return most, cards


def cheapest_needs(shapes: Mapping[str, Mapping[str, int]]) -> dict[str, int]:
    """The fewest distinct cards an order of each type takes when it bakes: its
    requirement (a Monotoni's and a Minimale's for the named kind), a Bombastica's total.

    >>> from mammamia_ref.rules.vocabulary import ORDER_TYPES
    >>> cheapest_needs(ORDER_TYPES)
    {'standard': 5, 'one_of_each': 5, 'bombastica': 15, 'monotoni': 7, 'minimale': 4}
    """
    out = {}
    for name, shape in shapes.items():
        if "total" in shape:
            out[name] = shape["total"]
        elif "each" in shape:
            out[name] = shape["each"] * len(KINDS)
        else:
            out[name] = shape["personal"] + shape["count"]
    return out


def orders_bound(players: int, variants: FlagValues, colour: str) -> tuple[int, Proof]:
    """The most orders of ``colour`` that can bake in one opening, by the cards they
    need: the orders baked at one opening use disjoint cards (a used card goes to the
    used pile, ``oven.bake``), each order as many of each kind as the oven rules make
    it take from some table and its owner's hand (:func:`.oven_rules.resolve_order`,
    every table, hand and decision), and of each kind no more cards are in play. The
    bound is the largest number of orders z3 can fit (sat) with one more proved not to
    fit (unsat)."""
    from mammamia_ref.queries.model.oven_rules import order_terms_of

    rules = as_rules(variants)  # the oven rules and the hand limit, trimming and counts
    numbers = rules.parameters
    trimmed = trimmed_per_kind(numbers.trimming, players, rules.flags.trimming)
    in_play = [c - trimmed for c in COPIES]
    chosen, uses, constraints = [], [], []
    for order_id in ORDERS_OF[colour]:
        name = order_id.replace(".", "_")
        table = [N.Int(f"{name}_t{k}") for k in range(NK)]
        hand = [N.Int(f"{name}_h{k}") for k in range(NK)]
        out = resolve_order(table, hand, order_terms_of(order_id), Decision.fresh(name),
                            rules)
        on = N.Bool(f"{name}_on")
        chosen.append(on)
        constraints += [N.And(t >= 0, t <= c) for t, c in zip(table, in_play, strict=True)]
        constraints += [h >= 0 for h in hand] + [N.Sum(hand) <= numbers.hand_limit]
        constraints.append(z3.Implies(on, N.And(out.legal, out.baked)))
        uses.append([N.If(on, a + b, 0) for a, b in zip(out.from_table, out.from_hand,
                                                         strict=True)])
    constraints += [N.Sum([u[k] for u in uses]) <= in_play[k] for k in range(NK)]
    count = N.Sum([N.If(on, 1, 0) for on in chosen])
    cases: dict[str, str] = {}
    # upwards: the satisfiable checks are quick, the one unsatisfiable check is the proof
    for k in range(len(chosen) + 1):
        if k == len(chosen):
            return k, Proof(True, cases)
        result, _ = N.check(constraints + [count >= k + 1])
        cases[f"{k + 1} orders"] = str(result)
        if result != z3.sat:
            return k, Proof(result == z3.unsat, cases)
    raise InternalError("unreachable")   # pragma: no cover


def round_potential(model: GameModel, s: State) -> Any:
    """A bound on the turns a round has left, under ``round_end.stall``: ``n`` times
    the cards' moves still possible within the round (an ingredient card in a hand
    can still be played, one in the supply drawn and played, as can the Mamma Mia!
    card be drawn; an order in a waiter can still be drawn, and, under
    ``pass_order=allowed``, an order in hand placed on its own), plus the quiet turns
    still to go before a stalled cycle. A turn moves a card (and the potential drops
    by ``n`` at least, the quiet count starting again) or is quiet (it drops by one)."""
    n = model.n
    hands = N.Sum([x for p in range(n) for x in s.hand[p]])
    supply = model.supply_cards(s)
    waiting = N.Sum([model.orders_at(s, p, WAITER, UNDER) for p in range(n)])
    moves = hands + 2 * supply + waiting
    if model.v.pass_order == PassOrder.ALLOWED:
        moves = moves + N.Sum([model.held_orders(s, p) for p in range(n)])
    return n * moves + (n - 1 - s.quiet)


def round_length_bound(players: int, variants: FlagValues) -> tuple[int, Proof]:
    """The most turns any round can have under ``stall=cut``: every turn (of seat 0,
    which stands for every seat, as in :func:`prove_invariant`) that does not end its
    round lowers :func:`round_potential` by one at least, which is never
    negative while a round is played; so a round has at most one turn more than the
    potential when it starts. The largest potential of a well-formed state in which a
    turn is to be played (well-formedness proved by induction) is found by z3 (sat at
    it, unsat above)."""
    if flags_of(variants).stall != Stall.CUT:
        raise InternalError("without the stall rule a round may go on for ever (Q07)")
    cases: dict[str, str] = {}
    proof = prove_invariant(players, variants, lambda _m, _s: [])
    cases.update({f"well-formed: {k}": r for k, r in proof.cases.items()})
    model, before, after, _facts, constraints = free_step(players, variants, "turn", "len",
                                                          contract=oven_contract, who=0)
    a, b = round_potential(model, before), round_potential(model, after)
    result, _ = N.check(constraints + [after.ph == TURN, z3.Not(N.And(b <= a - 1, b >= 0))])
    cases["a turn lowers the potential"] = str(result)
    # the largest potential at a turn: z3 finds it, then proves nothing is above it
    from mammamia_ref.queries.model.free_steps import stub

    model = stub(players, variants, "top")
    s = State.fresh("top_s", players)
    domain = model.domain(s) + model.well_formed(s) + [s.ph == TURN]
    top = round_potential(model, s)
    optimum = z3.Optimize(ctx=N.current())
    optimum.add(domain)
    optimum.maximize(top)
    if optimum.check() != z3.sat:   # pragma: no cover - some state is well formed
        raise InternalError("no well-formed state to bound")
    best = N.value(optimum.model(), top)
    above, _ = N.check(domain + [top > best])
    cases[f"no turn with a potential above {best}"] = str(above)
    holds = proof.holds and result == z3.unsat and above == z3.unsat
    return best + 1, Proof(holds, cases, None if holds else "the potential does not bound")


# ------------------------------------------------- which first rounds can end


PRECHECKED = 3   # up to this many players a search first proves which rounds can end

# The cache key of the turn model's answers: every flag the game model claims (spec), so
# that no flag it reads can share an answer across its values.
TURN_FLAGS: tuple[str, ...] = tuple(sorted(implemented_flags("game_model")))


def first_rounds(players: int, shortest: int = 1) -> range:
    """The first-round lengths a bounded search tries, shortest first: up to four turns
    a player (8 for two players). For more than :data:`PRECHECKED` players it starts at
    two turns a player and tries each length without first proving that a round of
    that length can end (:func:`first_round_can_end`): proving that shorter first
    rounds cannot end is a counting argument z3 finds slow (a round of 5 turns of 4
    players: not done in 240 s of CPU), while a witness need not be the shortest."""
    if players > PRECHECKED:
        return range(max(shortest, 2 * players), 4 * players + 1)
    return range(shortest, 4 * players + 1)


def can_end(players: int, variants: FlagValues, turns: int,
            timeout: float | None = None) -> bool:
    """Whether a search tries a first round of ``turns`` turns: those that can end, or
    every length beyond :data:`PRECHECKED` players (see :func:`first_rounds`) or under
    numbers other than the spec's (the proofs are made under the spec's numbers). A
    check ``timeout`` CPU seconds do not settle counts as "can end": the length is
    tried, and a round that cannot end then has no game there."""
    return players > PRECHECKED or bool(as_rules(variants).non_default_parameters()) \
        or first_round_can_end(players, variants, turns, timeout) is not False


_ROUND_ENDS: dict[tuple[int, tuple[tuple[str, str], ...], int], bool] = {}
"""The first-round lengths settled so far (:func:`first_round_can_end`), once per
process for each value of the flags that matter."""


def first_round_can_end(players: int, variants: FlagValues, turns: int,
                        timeout: float | None = None) -> bool | None:
    """Whether some first round of ``players`` lasts exactly ``turns`` turns under
    ``variants`` (only the flags that govern turns matter; any orders may be placed);
    None where ``timeout`` CPU seconds did not settle it (kept only once settled). Each
    check builds its model in a z3 context of its own, so the answer is the same
    whatever ran before."""
    values = {**variant_defaults(), **flag_values(variants)}
    flags = tuple((f, values[f]) for f in TURN_FLAGS)
    key = (players, flags, turns)
    if key not in _ROUND_ENDS:
        with N.building():
            model = GameModel(players, dict(flags), schedule=(turns,), open_last=True,
                              end_last=True)
            result, _ = N.check(model.constraints, timeout=timeout)
        if result == z3.unknown:
            return None
        _ROUND_ENDS[key] = result == z3.sat
    return _ROUND_ENDS[key]
