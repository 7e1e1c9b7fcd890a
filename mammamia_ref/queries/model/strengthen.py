"""A bound on how many times something happens in a game, with the invariant that
proves it found automatically (Houdini: Flanagan and Leino's greatest inductive subset
of candidate invariants).

"At most ``k`` such events in any game" is not a property of one step, and not of one
state either: a counter of the events (a ghost, ``g``: 0 after the setup, raised by each
step by the events it emits) must stay at most ``k``, which is inductive only beside a
reason why it cannot keep growing. That reason is a game quantity the counter never
exceeds: the orders delivered for baked orders, the rounds begun and the Mamma Mia!
card's holder for the oven's openings. Which quantity is not known in advance, so the
candidates are ``g <= q`` for every named quantity ``q`` of the state (:data:`QUANTITIES`),
then ``g <= q1 + q2`` for every pair, with the wanted bound ``g <= k`` among them.
Houdini drops every candidate a counterexample breaks (after the setup, or after a step
from a state where all those still kept hold) until none breaks: what is left holds
after the setup and is kept by every step, so it holds in every state reached, and the
bound with it. The proof is the last round of checks, all unsatisfiable; the candidates
kept name the invariant found.

Why this rather than k-induction or z3's Spacer: a counterexample to k-induction here is
k steps of one round from a state whose counter is already too high, and a round lasts
dozens of turns, so k would have to exceed them; Spacer, tried on this relation for
counts of cards, was as quick where this proof holds and settled nothing within 120 s
where it did not (docs/questions.md, :mod:`...tools.horn_trial`). Templates over the
game's own quantities keep each check one query of the relation the other proofs use,
and the invariant found says why in the game's words.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import z3

from mammamia_ref.queries.model import num as N
from mammamia_ref.queries.model.flags import FlagValues
from mammamia_ref.queries.model.free_steps import setup_state
from mammamia_ref.queries.model.game_terms import (
    DELIVERED,
    HAND,
    IN_OVEN,
    OVEN,
    OVER,
    UNDER,
    WAITER,
    State,
)

Quantity = Callable[[Any, State], Any]


def _orders(*where: int, seat: int | None = None) -> Quantity:
    """The orders at any of ``where``, of every seat or of ``seat``
    (:meth:`..game_model.GameModel.orders_at`)."""
    def count(model: Any, s: State) -> Any:
        seats = range(model.n) if seat is None else (seat,)
        return N.Sum([model.orders_at(s, p, *where) for p in seats])
    return count


QUANTITIES: dict[str, Quantity] = {
    "the round": lambda _m, s: s.rnd,
    "the rounds resolved": lambda _m, s: s.res,
    "an opening in progress": lambda _m, s: N.If(s.ph == OVEN, 1, 0),
    "the game over": lambda _m, s: N.If(s.ph == OVER, 1, 0),
    "the Mamma Mia! card held": lambda _m, s: N.If(s.mm >= 0, 1, 0),
    "the quiet turns": lambda _m, s: s.quiet,
    "the cards put on the oven this round": lambda _m, s: s.ovl,
    "the orders delivered": _orders(DELIVERED),
    "the orders in the oven": _orders(IN_OVEN),
    "the orders in hands": _orders(HAND),
    "the orders waiting": _orders(WAITER, UNDER),
    "the supply": lambda _m, s: N.Sum(s.supply),
    "the oven's ingredients": lambda _m, s: N.Sum(s.oven),
    "the table": lambda _m, s: N.Sum(s.table),
    "the used pile": lambda _m, s: N.Sum(s.used),
}
"""The game's quantities a counter of events may be bounded by, each named as the
answer says it (seat by seat too: :func:`quantities`)."""

PER_SEAT: dict[str, Callable[[int], Quantity]] = {
    "orders delivered": lambda p: lambda m, s: m.delivered(s, p),
    "orders in the oven": lambda p: _orders(IN_OVEN, seat=p),
    "orders in hand": lambda p: lambda m, s: m.held_orders(s, p),
    "ingredients in hand": lambda p: lambda _m, s: N.Sum(s.hand[p]),
    "Mamma Mia! card": lambda p: lambda _m, s: N.If(s.mm == p, 1, 0),
}


PART_OF: dict[str, str] = {
    "orders delivered": "the orders delivered", "orders in the oven": "the orders in the oven",
    "orders in hand": "the orders in hands", "Mamma Mia! card": "the Mamma Mia! card held"}
"""Each seat's quantity of :data:`PER_SEAT` that a game's quantity sums over the seats:
the seat's is at most the game's."""


def quantities(colours: Sequence[str]) -> dict[str, Quantity]:
    """Every quantity of :data:`QUANTITIES`, and each of :data:`PER_SEAT` for each seat
    (named by its colour, ``colours`` seat by seat)."""
    out = dict(QUANTITIES)
    for name, of in PER_SEAT.items():
        for p, colour in enumerate(colours):
            out[f"{colour}'s {name}"] = of(p)
    return out


@dataclass(frozen=True)
class CountedStep:
    """One kind of step from an arbitrary state, for a counter: the model (for its
    quantities), the states before and after, the step's constraints with the
    invariants already proved on the state before, and the events it emits (a term)."""

    what: str
    model: Any
    before: State
    after: State
    constraints: list[Any]
    emitted: Any


@dataclass
class Bound:
    """What :func:`bound_events` made of "at most ``most`` events": ``holds`` with the
    invariant found (the candidates kept), or not, with the reason; the proof's cases
    (its last round of checks), the rounds of checks and their CPU."""

    holds: bool
    invariant: tuple[str, ...] = ()
    reason: str = ""
    cases: dict[str, str] = field(default_factory=dict)
    checks: int = 0
    cpu: float = 0.0


class _OutOfTime(Exception):
    """The CPU given ran out after ``checks`` checks (or z3 left one ``undecided``)."""

    def __init__(self, checks: int, undecided: bool = False) -> None:
        super().__init__(checks)
        self.checks, self.undecided = checks, undecided


def bound_events(players: int, variants: FlagValues, steps: Sequence[CountedStep],
                 most: int, seconds: float, hints: Sequence[str] = ()) -> Bound:
    """Prove that no game has more than ``most`` of the events ``steps`` count, by a
    counter and an invariant found among the candidates (first those ``hints`` name:
    what was found for another count of the same proof, see :func:`moved`; then each
    quantity alone, then pairs), within ``seconds`` of CPU (the answer says so when they
    run out). A hint is only a smaller set of candidates: what Houdini keeps of it is
    checked as any other."""
    start = time.process_time()
    checks = 0
    tiers: list[tuple[str, bool, frozenset[str] | None]] = []
    if hints:
        tiers.append(("the bounds found for the counts before",
                      any(" + " in h for h in hints), frozenset({_GOAL, *hints})))
    tiers += [("each quantity alone", False, None), ("pairs of quantities", True, None)]
    last = tiers[-1][0]
    for tier, pairs, only in tiers:
        try:
            kept, cases, n = _houdini(players, variants, steps, most, pairs,
                                      start + seconds, only)
        except _OutOfTime as exc:
            why = "z3 could not decide a check" if exc.undecided else \
                "the CPU the proof was given ran out"
            return Bound(False, reason=f"{why} while trying {tier}",
                         checks=checks + exc.checks,
                         cpu=time.process_time() - start)
        checks += n
        if kept is not None:
            return Bound(True, tuple(k for k in kept if k != _GOAL), cases=cases,
                         checks=checks, cpu=time.process_time() - start)
    return Bound(False, reason=f"no invariant among the candidates ({last}) bounds the "
                 "count", checks=checks, cpu=time.process_time() - start)


_GOAL = "the bound asked"


def essential(invariant: Sequence[str]) -> list[str]:
    """The bounds of an invariant found that no other implies: every quantity is at least
    0, so "at most a" implies "at most a + b"; and a seat's quantity is at most the game's
    it is part of (:data:`PART_OF`), so "at most red's orders delivered" implies "at most
    the orders delivered"."""
    singles = {c.removeprefix("count <= ") for c in invariant if " + " not in c}
    by_seat = {PART_OF[per] for q in singles
               for _colour, sep, per in [q.partition("'s ")] if sep and per in PART_OF}
    weaker = singles | by_seat
    out = []
    for c in invariant:
        parts = c.removeprefix("count <= ").split(" + ")
        implied = parts[0] in by_seat if len(parts) == 1 else \
            any(p in weaker for p in parts)
        if not implied:
            out.append(c)
    return out


def moved(names: Sequence[str], seats: Mapping[str, str]) -> list[str]:
    """Candidates ``names`` with each seat's bound moved to the seat ``seats`` maps its
    colour to ("red's orders delivered" to "yellow's"): how an invariant found for one
    seat's count is tried first for another's."""
    table = {f"count <= {colour}'s {per}": f"count <= {to}'s {per}"
             for per in PER_SEAT for colour, to in seats.items()}
    return [table.get(name, name) for name in names]


def _candidates(model: Any, s: State, g: Any, most: int, pairs: bool,
                colours: Sequence[str]) -> dict[str, Any]:
    """The candidate invariants over the counter ``g`` in state ``s``: ``g <= q`` for
    every quantity, seat by seat too; with ``pairs``, ``g <= q1 + q2`` for every two of
    the game's own (:data:`QUANTITIES`: the pairs grow with the square of their number,
    so the seats' are left out of them)."""
    terms = {name: q(model, s) for name, q in quantities(colours).items()}
    out = {_GOAL: g <= most}
    for name, term in terms.items():
        out[f"count <= {name}"] = g <= term
    if pairs:
        names = list(QUANTITIES)
        for i, a in enumerate(names):
            for b in names[i:]:
                out[f"count <= {a} + {b}"] = g <= terms[a] + terms[b]
    return out


def _houdini(players: int, variants: FlagValues, steps: Sequence[CountedStep], most: int,
             pairs: bool, deadline: float, only: frozenset[str] | None = None,
             ) -> tuple[list[str] | None, dict[str, str], int]:
    """The greatest subset of the candidates (those named ``only``, if given) that holds
    after the setup and that every step keeps, if it keeps the goal: (its names, the
    cases of its proof, the checks)."""
    model, s, setup = setup_state(players, variants, "houdini")
    g = N.Int("houdini_count")
    colours = steps[0].model.colours   # the seats' names, the same in every case
    at_setup = _candidates(model, s, g, most, pairs, colours)
    obligations: list[tuple[str, list[Any], dict[str, Any], dict[str, Any] | None]] = [
        ("setup", [*setup, g == 0], at_setup, None)]
    for k, step in enumerate(steps):
        before, after = N.Int(f"houdini_before{k}"), N.Int(f"houdini_after{k}")
        obligations.append((step.what, [*step.constraints, before >= 0,
                                        after == before + step.emitted],
                            _candidates(step.model, step.after, after, most, pairs, colours),
                            _candidates(step.model, step.before, before, most, pairs,
                                        colours)))
    kept = [name for name in at_setup if only is None or name in only]
    checks = 0
    while True:   # until a whole round of checks drops no candidate
        cases: dict[str, str] = {}
        dropped = False
        for what, constraints, then, assumed in obligations:
            while True:
                left = deadline - time.process_time()
                if left <= 0:
                    raise _OutOfTime(checks)
                checks += 1
                hypotheses = [assumed[name] for name in kept] if assumed is not None else []
                result, zm = N.check([*constraints, *hypotheses,
                                      z3.Not(N.And(*[then[name] for name in kept]))], left)
                if result == z3.unknown:
                    raise _OutOfTime(checks, time.process_time() < deadline)
                if zm is None:
                    cases[f"the count's invariant, {what}"] = str(result)
                    break
                dropped = True
                kept = [name for name in kept
                        if z3.is_true(zm.eval(then[name], model_completion=True))]
                if _GOAL not in kept:
                    return None, {}, checks
        if not dropped:
            return kept, cases, checks


__all__ = ["PART_OF", "QUANTITIES", "Bound", "CountedStep", "bound_events", "essential",
           "moved", "quantities"]
