"""What the game model's single steps tell the bounded search where the unbounded proof
(:mod:`.unbounded`) does not settle a condition: the :class:`Lead` of a failed proof
(which games the search may leave out) and the turns a count of events, or a count
of a state, needs (:func:`turns_needed`, a proved bound of ``turns_until``). Each
rests on the same free steps from any well-formed state and the invariants proved, as
the proof's cases."""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import z3

from mammamia_ref.queries.answering.unbounded import (
    NotProvable,
    Proved,
    can_emit,
    emitted,
    provable_event,
    step_from_any,
    well_formed_holds,
    without_turning,
)
from mammamia_ref.queries.language.variables import RELATIONS, expand, seatings
from mammamia_ref.queries.model import num as N
from mammamia_ref.rules.ruleset import Rules
from mammamia_ref.rules.typed_spec import Leftovers


@dataclass(frozen=True)
class Lead:
    """What a failed proof's counterexamples tell the bounded search
    (:func:`.bounded.prove_or_find`): every one is an opening's reveal step, no turn and
    no round's preparation being able to emit the ``events`` the condition rests on.
    A game that meets such a condition meets it by the end of its last round that has
    ended (the condition judges those events alone, each kept once had), so a
    schedule whose last round is still open adds nothing to its shorter one: the
    bounded search leaves those out, about half of its runs."""

    events: tuple[str, ...]

    def text(self) -> str:
        return (f"games whose last round is still open left out: no turn and no round's "
                f"preparation can emit {', '.join(self.events)} (z3, from any well-formed "
                "state, as the unbounded proof's cases), so such a game meets the "
                "condition by the end of its last round that ended, a shorter game of the "
                "bound")


def lead(condition: Mapping[str, Any], players: int, rules: Rules) -> Lead | None:
    """The :class:`Lead` of ``condition``, where it has one: built of events, each
    wanted at least once (no ``not:``, no state count, no result), under ``all:``,
    ``any:`` and spans, for every seating; each event's turn and round's preparation
    proved unable to emit it (z3, as the proof's cases), from any well-formed state
    where the invariants proved hold: so only where well-formedness is proved inductive
    under these rules, as for a "never". None otherwise."""
    from mammamia_ref.errors import VariantError
    from mammamia_ref.queries.language.conditions import Unsupported

    names: list[str] = []
    try:
        if not well_formed_holds(players, rules):
            return None
        with N.building():
            for colours in seatings(players, condition):
                for each in _events_of(expand(condition, colours, rules.parameters.rounds)):
                    leaf = without_turning(each)
                    name = provable_event(leaf, rules)
                    if any(can_emit(leaf, players, rules, colours, what) not in (None, z3.unsat)
                           for what in ("turn", "transition")):
                        return None
                    if name not in names:
                        names.append(name)
    except (NotProvable, Unsupported, VariantError, _NoLead):
        return None
    return Lead(tuple(names)) if names else None


class _NoLead(Exception):
    """A condition outside :func:`lead`'s kind."""


def _events_of(cond: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The events a condition of :func:`lead`'s kind rests on; :class:`_NoLead` for any
    other condition."""
    if "all" in cond or "any" in cond:
        return [leaf for part in cond.get("all", cond.get("any")) for leaf in _events_of(part)]
    if "within" in cond:
        return _events_of(cond["holds"])
    if "event" in cond:
        return [cond]
    raise _NoLead


def turns_needed(form: Mapping[str, Any], players: int, rules: Rules) -> Proved | None:
    """A proved lower bound of ``turns_until: C`` or ``own_turns_until: C`` (with
    ``some_seat: s``) where ``C`` asks for a count to reach ``k`` (:func:`_count_needed`)
    or for at least ``k`` events: only turns emit them
    (no opening, no round's preparation does), at most ``m`` a turn (and, for a seat's
    own turns, none in another seat's turn), each from any well-formed state: so at
    least ``k / m`` turns, rounded up (``induction``, with the proof in words). None
    where the proof does not go through."""
    from mammamia_ref.rules.vocabulary import COLOURS

    own = "own_turns_until" in form
    colours = tuple(COLOURS[:players])
    cond = provable(form.get("own_turns_until", form.get("turns_until")),
                    form.get("some_seat") if own else None, players, rules)
    if cond is None:
        return None
    if set(cond) == {"state"}:
        with N.building():
            return _count_needed(cond["state"], own, players, rules, colours)
    per_turn = most_a_turn(cond, own, players, rules, colours)
    return None if per_turn is None else _needed(int(cond.get("at_least", 1)), *per_turn)


def provable(raw: Any, seat: Any, players: int, rules: Rules) -> Mapping[str, Any] | None:
    """A measure's condition with its seat variable ``seat`` the first colour's (the
    rules treat the seats alike), where the game model states it and well-formedness is
    proved (the ground of every proof from one step); None otherwise."""
    from mammamia_ref.errors import VariantError
    from mammamia_ref.queries.language.conditions import Unsupported, shape
    from mammamia_ref.queries.model.flags import model_rules
    from mammamia_ref.rules.vocabulary import COLOURS

    if not isinstance(raw, Mapping):
        return None
    colours = COLOURS[:players]
    cond = expand(raw, colours, rules.parameters.rounds,
                  {seat: colours[0]} if seat is not None else None)
    try:
        model_rules("game_model", rules)
        shape(cond)
        return cond if well_formed_holds(players, rules) else None
    except (VariantError, Unsupported):
        return None


def most_a_turn(cond: Mapping[str, Any], own: bool, players: int, rules: Rules,
                colours: tuple[str, ...]) -> tuple[int, str] | None:
    """The most events of ``cond`` (an event condition, its variables expanded, no
    relation, no ``then:``, no upper count) one turn emits, where only turns emit them
    (no opening step, no round's preparation does) and, with ``own``, none in another
    seat's turn than the first's; each proved by z3 from any well-formed state, 1 to 3
    tried; with the proof in words. None otherwise."""
    if "event" not in cond or any(k in cond for k in (*RELATIONS, "then", "at_most",
                                                      "equals")):
        return None
    with N.building():
        if any(can_emit(cond, players, rules, colours, what) not in (None, z3.unsat)
               for what in ("reveal", "transition")):
            return None
        model, step, found, base = emitted(cond, players, rules, colours, "turn")
        count = N.Sum(found) if found else N.Val(0)
        if own and N.check([*base, model.S[step.before].cur != 0, count > 0])[0] != z3.unsat:
            return None
        for most in range(1, 4):
            if N.check([*base, count > most])[0] == z3.unsat:
                return most, (f"only a turn emits {cond['event']} (no opening step, no "
                              f"round's preparation does), at most {most} a turn"
                              + (", none in another seat's turn" if own else ""))
    return None


def _needed(k: int, most: int, why: str) -> Proved:
    """At least ``k / most`` turns, rounded up, said with the proof's reason."""
    turns = -(-k // most)
    return Proved(turns, "induction", f"{why}, from any well-formed state (z3): {k} need "
                  f"at least {turns} turns")


def _count_needed(state: Mapping[str, Any], own: bool, players: int, rules: Rules,
                  colours: tuple[str, ...]) -> Proved | None:
    """A proved lower bound of the turns (seat 0's own turns, with ``own``) until a
    count of ``state`` (one seat's, the game's, or without ``own`` any seat's) reaches
    ``at_least`` k, in every state the reference stops at: a potential, the count plus
    at most one of the game's quantities (:func:`..model.strengthen.quantities`; red's
    delivered orders plus red's orders in the oven, say), is at most 0 after the setup,
    never grows in an opening's step or a round's preparation, nor in a turn (another
    seat's, with ``own``), and grows by at most ``m`` in one turn, inside it too
    (:mod:`..model.stops`), each from any well-formed state: so at least ``k / m``
    turns, rounded up. None where no potential is found within :data:`POTENTIAL_CPU`."""
    from mammamia_ref.queries.language.conditions import state_counts
    from mammamia_ref.queries.model import stops
    from mammamia_ref.queries.model.free_steps import setup_state
    from mammamia_ref.queries.model.strengthen import quantities

    if set(state) - {"count", "seat", "kind", "at_least"} or "at_least" not in state:
        return None
    k = int(state["at_least"])
    readings = (True, False) if rules.flags.leftovers == Leftovers.OVEN else (True,)
    deadline = time.process_time() + POTENTIAL_CPU

    def counts(model: Any, s: Any) -> list[Any]:
        return [c for r in readings for c in state_counts(s, state, model, in_round=r)]

    setup_model, first, setup = setup_state(players, rules)
    alike = ""
    if not own and len(counts(setup_model, first)) == players * len(readings):
        # a count of every seat, any or all of them to reach k: the rules treat the
        # seats alike, so the turns seat 0's count needs are every seat's
        state, alike = {**state, "seat": colours[0]}, " (every seat's count alike)"
    if len(counts(setup_model, first)) != len(readings):
        return None   # one count a state (a seat named, or the game's), each reading
    steps: dict[str, tuple[Any, Any, list[Any], list[Any], list[Any]]] = {}
    for what in ("reveal", "transition", "turn"):
        model, before, after, facts, constraints = step_from_any(players, rules, colours,
                                                                 what)
        steps[what] = (model, before, [after, *stops.inside(
            model, what, before, after, facts["selectors"], facts)], constraints, [])
    extras = sorted(quantities(colours).items(),
                    key=lambda kv: not kv[0].startswith(colours[0]))

    def allowed(m: int) -> Any:   # a turn's growth: any turn's, or seat 0's alone
        return lambda b: N.If(b.cur == 0, m, 0) if own else N.Val(m)

    for name, extra in [("", lambda _m, _s: N.Val(0)), *extras]:
        if time.process_time() > deadline:
            return None

        def potential(model: Any, s: Any, extra: Any = extra) -> list[Any]:
            return [c + extra(model, s) for c in counts(model, s)]

        checks = [(steps[what], allowed(3 if what == "turn" else 0))
                  for what in ("turn", "reveal", "transition")]
        if any(_grows(step, potential, most, solve=False) for step, most in checks):
            continue   # a counterexample already found refutes it
        most = next((m for m in range(1, 4)
                     if not _grows(steps["turn"], potential, allowed(m))), None)
        if most is None or any(_grows(step, potential, most) for step, most in checks[1:]):
            continue
        grown = [p > 0 for x in (first, stops.before_first_orders(first))
                 for p in potential(setup_model, x)]
        if N.check([*setup, z3.Or(*grown)], timeout=CHECK_CPU)[0] == z3.unsat:
            plus = f" plus {name}" if name else ""
            return _needed(k, most, f"{_counted(state)}{plus} is at most 0 after the "
                           "setup, grows in no opening step, no round's preparation" +
                           (", no other seat's turn" if own else "") +
                           f", and by at most {most} a turn" + alike)
    return None


def _counted(state: Mapping[str, Any]) -> str:
    """A state count in words: ``red's delivered``, ``the oven (olive)``."""
    kind = f" ({state['kind']})" if "kind" in state else ""
    return (f"{state['seat']}'s " if "seat" in state else "the ") + f"{state['count']}{kind}"


CHECK_CPU = 5.0
"""The CPU seconds one check of :func:`_count_needed` may take (an undecided check
proves nothing); :data:`POTENTIAL_CPU` for all of them."""
POTENTIAL_CPU = 20.0


def _grows(step: tuple[Any, Any, list[Any], list[Any], list[Any]], potential: Any,
           allowed: Any, solve: bool = True) -> bool:
    """Whether a potential may grow by more than ``allowed(before)`` from a step's state
    before to its state after or one inside it (z3: anything but unsat counts). The
    step's counterexamples found so far (its last item) are tried first: one that
    refutes this potential too spares a check (``solve``: else only they are tried)."""
    model, before, states, constraints, seen = step
    was = potential(model, before)
    more = z3.Or(*[now - old > allowed(before) for x in states
                   for now, old in zip(potential(model, x), was, strict=True)])
    if any(N.truth(zm, more) for zm in seen):
        return True
    if not solve:
        return False
    result, zm = N.check([*constraints, more], timeout=CHECK_CPU)
    if zm is not None:
        seen.append(zm)
    return bool(result != z3.unsat)


__all__ = ["Lead", "lead", "most_a_turn", "provable", "turns_needed"]
