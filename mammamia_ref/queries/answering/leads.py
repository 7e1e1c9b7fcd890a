"""What the game model's single steps tell the bounded search where the unbounded proof
(:mod:`.unbounded`) does not settle a condition: the :class:`Lead` of a failed proof
(which games the search may leave out) and the turns a count of events needs
(:func:`turns_needed`, a proved bound of ``turns_until``). Each rests on the same
free steps from any well-formed state and the invariants proved, as the proof's cases."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import z3

from mammamia_ref.queries.answering.unbounded import (
    NotProvable,
    can_emit,
    emitted,
    provable_event,
    well_formed_holds,
    without_turning,
)
from mammamia_ref.queries.language.variables import RELATIONS, expand, seatings
from mammamia_ref.queries.model import num as N
from mammamia_ref.rules.ruleset import Rules


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


def turns_needed(form: Mapping[str, Any], players: int, rules: Rules) -> int | None:
    """A proved lower bound of ``turns_until: C`` or ``own_turns_until: C`` (with
    ``some_seat: s``) where ``C`` asks for at least ``k`` events: only turns emit them
    (no opening, no round's preparation does), at most ``m`` a turn (and, for a seat's
    own turns, none in another seat's turn), each from any well-formed state: so at
    least ``k / m`` turns, rounded up. None where the proof does not go through."""
    from mammamia_ref.errors import VariantError
    from mammamia_ref.queries.language.conditions import Unsupported, shape
    from mammamia_ref.queries.model.flags import model_rules
    from mammamia_ref.rules.vocabulary import COLOURS

    own = "own_turns_until" in form
    raw = form.get("own_turns_until", form.get("turns_until"))
    colours = tuple(COLOURS[:players])   # the rules treat the seats alike
    if not isinstance(raw, Mapping):
        return None
    cond = expand(raw, colours, rules.parameters.rounds,
                  {form["some_seat"]: colours[0]} if own else None)
    if "event" not in cond or any(k in cond for k in (*RELATIONS, "then", "at_most",
                                                      "equals")):
        return None
    k = int(cond.get("at_least", 1))
    try:
        model_rules("game_model", rules)
        shape(cond)
    except (VariantError, Unsupported):
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
                return -(-k // most)
    return None


__all__ = ["Lead", "lead", "turns_needed"]
