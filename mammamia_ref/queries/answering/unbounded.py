""""None in any game": a ``find:`` condition proved unreachable in games of every length.

The bounded route (:mod:`.bounded`) can only say "none within the bound". This route
proves more, by induction over the game model's transition relation
(:func:`..model.free_steps.free_step`: one turn, one opening's reveal or one round's
preparation, from *any* well-formed state), relative to what is already proved for every
reachable state: the model's well-formedness and the hand limit
(:func:`..model.proofs.prove_invariant`, itself a 1-induction from the setup, proved for
each cell's players and rules before anything is claimed). Why this and
not a Horn-clause engine (z3's Spacer), which would search for a strengthening itself:
the step relation is large (over a hundred integers a state), its invariants are known
and few, and each check here takes under a second, so no answer waits on an engine
whose run time cannot be bounded (measured: :mod:`...tools.horn_trial`, whose Spacer took
73 s where this proof takes 0.2 s, and settled nothing this proof leaves open within
120 s; docs/questions.md). A count of events is strengthened automatically, among
bounds by the game's own quantities (:mod:`..model.strengthen`); other conditions whose
proof needs a stronger invariant than these are not claimed: the answer says so and the
bounded route goes on.

Which conditions (the core grammar, after :func:`..language.variables.expand`, for every seating
of :func:`..language.variables.seatings`):

- **an event** (with ``where:``, ``rule:`` and ``then:``) happening at least once: no
  step of any kind that can emit it does, from any well-formed state where the
  invariants hold. The reference stops inside a step (after a play, where an owner
  decides), but an event is emitted by one step, and ``then:`` is told at every state
  right after an event (:func:`..language.conditions.then_term`,
  :func:`..language.conditions.revealed_then`; a round's preparation read both as the
  game's end and as the next round's), so the step covers it;
- **an event** happening at least ``k`` times (two or more) where a step can emit it:
  a counter of those events stays below ``k``, by an invariant found automatically
  (:func:`..model.strengthen.bound_events`: Houdini over bounds by the game's
  quantities), within the CPU given;
- **a count** reaching a number (``at_least``), of any seat, kind or pile: the count
  staying below it is proved an invariant of every state the reference stops at
  (:mod:`..model.stops`: between turns, inside a turn, where an owner decides inside
  an opening, before a round's shuffle, before the first orders are taken), so at
  every ``at``;
- **a position that comes back** (``position_returns``): a ranking function
  (:func:`..model.proofs.prove_turns_terminate`) decreases at every turn that ends no
  round, from any well-formed state, so no state between turns comes back within a round
  (and a state inside a turn comes back only if its turn's start does); a round's end
  changes the round;
- ``any:`` when each part is never met, ``all:`` when one is, a span (``within:``) when
  its condition is never met anywhere.

Anything else (a ``not:``, a relation, a result, a count compared ``at_most`` or
``equals``) is not claimed here.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import z3

from mammamia_ref.queries.language.conditions import revealed_then, state_term, then_term
from mammamia_ref.queries.language.parts import EMITTED
from mammamia_ref.queries.language.variables import RELATIONS, expand, named_colours, seatings
from mammamia_ref.queries.model import num as N
from mammamia_ref.queries.model.game_terms import Step
from mammamia_ref.rules.ruleset import Rules
from mammamia_ref.rules.typed_spec import Leftovers, RoundEnd

STEP_KINDS = tuple(EMITTED)   # the model's steps: a turn, a reveal, a transition


class NotProvable(Exception):
    """A condition this route does not prove: ``reason`` says which part."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass
class Never:
    """What the route made of a condition: ``proved`` with how, or the reason it is not."""

    proved: bool
    how: str
    cases: dict[str, str] = field(default_factory=dict)
    cpu: float = 0.0
    evidence: str = "induction"   # or "ranking", where a ranking function proves it


@dataclass(frozen=True)
class Proved:
    """A bound of a measure proved for every game (:mod:`.measure_bounds`): its value,
    the kind of proof (``ranking``, ``statement``, ``induction``, ``counting``,
    ``exhaustive``) and the proof in words."""

    value: int
    evidence: str
    how: str


@dataclass
class _Proving:
    """One proof under way: its ``cases`` and ``reasons`` so far (each reason with its
    evidence: induction or ranking), the CPU time it must end by (``deadline``), and
    the invariants found for counts of events (with the colours each count named),
    tried first on the next count: another seat's count is bounded by the same kinds of
    quantity, of its own seat."""

    deadline: float
    cases: dict[str, str] = field(default_factory=dict)
    reasons: dict[str, str] = field(default_factory=dict)
    found: list[tuple[tuple[str, ...], tuple[str, ...]]] = field(default_factory=list)

    def hints(self, named: tuple[str, ...]) -> list[str]:
        """The invariants found so far, each moved from the colours its count named to
        ``named`` (where they name as many)."""
        from mammamia_ref.queries.model.strengthen import moved

        out: list[str] = []
        for before, invariant in self.found:
            if len(before) == len(named):
                out += moved(invariant, dict(zip(before, named, strict=True)))
        return list(dict.fromkeys(out))


STRENGTHEN_SECONDS = 30.0
"""The CPU a proof may spend looking for the invariant that bounds a count of events
(:func:`..model.strengthen.bound_events`) when no budget is given."""


def prove_never(condition: Mapping[str, Any], players: int, rules: Rules,
                seconds: float = STRENGTHEN_SECONDS) -> Never:
    """Try to prove that no game of ``players`` under ``rules``, of any length and any
    seating, meets ``condition`` (the question's own, variables and all); the search
    for an invariant that bounds a count of events spends at most ``seconds`` of CPU
    in all."""
    from mammamia_ref.errors import VariantError
    from mammamia_ref.queries.model.flags import model_rules

    start = time.process_time()
    try:
        model_rules("game_model", rules)
    except VariantError as exc:
        return Never(False, f"not proved for every game: {exc}")
    from mammamia_ref.queries.language.conditions import Unsupported

    seated = seatings(players, condition)
    if not well_formed_holds(players, rules):
        return Never(False, "not proved for every game: the game model's well-formedness, "
                     "which every step here assumes, is not inductive under these rules",
                     {"well-formed": "not inductive"}, time.process_time() - start)
    proof = _Proving(start + seconds, {"well-formed, by 1-induction": "unsat"})
    try:
        for colours in seated:
            core = expand(condition, colours, rules.parameters.rounds)
            with N.building():
                _never(core, players, rules, colours, proof)
    except (NotProvable, Unsupported) as exc:
        return Never(False, f"not proved for every game: {exc.reason}", proof.cases,
                     time.process_time() - start)
    seats = "every seating alike" if len(seated) == 1 else \
        f"each of the {len(seated)} seatings the condition tells apart"
    kinds = set(proof.reasons.values())
    by = " and ".join(BY[kind] for kind in sorted(kinds))
    return Never(True, f"proved by {by} over every step of the game model "
                 f"({'; '.join(proof.reasons)}; {seats})", proof.cases,
                 time.process_time() - start, "ranking" if "ranking" in kinds else "induction")


def _never(cond: Mapping[str, Any], players: int, rules: Rules, colours: tuple[str, ...],
           proof: _Proving) -> None:
    """Raise :class:`NotProvable` unless ``cond`` is proved never met (what is proved
    added to ``proof``)."""
    cases, reasons = proof.cases, proof.reasons
    if _at_the_end(cond):   # the result and the state at the end, judged together
        _end_never(cond, players, rules, colours, cases)
        reasons["no well-formed state at a game's end meets it"] = "induction"
        return
    if "any" in cond:
        for part in cond["any"]:
            _never(part, players, rules, colours, proof)
        return
    if "all" in cond:
        why = []
        for part in cond["all"]:
            try:
                _never(part, players, rules, colours, proof)
                return
            except NotProvable as exc:
                why.append(exc.reason)
        raise NotProvable("no part of all: is proved never met (" + "; ".join(why) + ")")
    if "within" in cond:
        past = _past_the_last_round(cond["within"], rules.parameters.rounds)
        if past:
            reasons[past] = "induction"
            return
        _never(cond["holds"], players, rules, colours, proof)
        return
    if "position_returns" in cond:
        _returns_never(players, rules, cases)
        reasons["a ranking function decreases at every turn that ends no round (cards in "
                "hands, supply and waiters; cards in supply and waiters; quiet turns left), so "
                "no position comes back"] = "ranking"
        return
    if "not" in cond:
        raise NotProvable("a not: is met by games that lack something; induction proves "
                          "that something never happens")
    if "result" in cond:
        raise NotProvable("a game's result joined to what happened before its end")
    if "event" in cond:
        reasons[_event_never(cond, players, rules, colours, proof)] = "induction"
        return
    at_the_end = ""   # why the round's end alone was not proved, if it was tried
    if cond["state"].get("at") == "round_end":
        at_the_end = _round_end_never(cond["state"], players, rules, colours, proof)
        if not at_the_end:
            return
    try:
        _count_never(cond["state"], players, rules, cases)
    except NotProvable as exc:
        raise NotProvable(f"{exc.reason}; at a round's end alone: {at_the_end}"
                          if at_the_end else exc.reason) from exc
    reasons[f"the {cond['state']['count']} count stays below "
            f"{cond['state']['at_least']} in every state, by 1-induction"] = "induction"


def _past_the_last_round(span: Mapping[str, Any], rounds: int) -> str:
    """Why a span that starts past the game's last round is empty in every game (a
    condition judged there is never met: :func:`..language.judging.span`); else "". No
    state of the game model has a round above ``rounds`` (its domain, kept by every
    step as well-formedness is)."""
    first = span.get("round", span.get("from_round"))
    if not isinstance(first, int) or first <= rounds:
        return ""
    return (f"no game has a round {first}: a game ends after its last round, {rounds} "
            "under these rules (game_end.three_resolutions), so the span is empty")


BY = {"induction": "induction", "ranking": "a ranking function"}
"""How an answer names each kind of evidence behind its proof."""


def _returns_never(players: int, rules: Rules, cases: dict[str, str]) -> None:
    """No position comes back: :func:`..model.proofs.prove_turns_terminate` holds."""
    from mammamia_ref.queries.model.proofs import prove_turns_terminate

    proof = prove_turns_terminate(players, rules)
    cases.update({f"ranking, {name}": result for name, result in proof.cases.items()})
    if not proof.holds:
        raise NotProvable(f"no position comes back only where every turn decreases the "
                          f"ranking function, and here {proof.counterexample}")


def _event_never(cond: Mapping[str, Any], players: int, rules: Rules,
                 colours: tuple[str, ...], proof: _Proving) -> str:
    """Raise :class:`NotProvable` unless no step emits ``cond``'s event as asked, or,
    where it asks for at least two, their count is bounded below that
    (:func:`_events_bounded`); the reason it is never met."""
    cases = proof.cases
    turned = (cond.get("where") or {}).get("turned_by")
    if turned is not None and _never_otherwise(turned, players, rules, colours, cases):
        return f"no reveal can take {turned['event']} otherwise, as asked"
    cond = without_turning(cond)
    name = provable_event(cond, rules)
    steps: dict[str, str] = {}   # the proof's cases, once every step is ruled out
    built: dict[str, Occurring] = {}   # each kind of step, for a counter too
    emits = ""
    for what in STEP_KINDS:
        label = f"{'-'.join(colours)} {what} emits {_asked(cond)}"
        built[what] = _occurring(cond, players, rules, colours, what)
        result = _emits(built[what])
        steps[label] = "none (this step never emits it)" if result is None else str(result)
        if result is not None and result != z3.unsat:
            emits = f"a {what} step from a well-formed state can emit {name} as asked ({result})"
            break
    if not emits:
        cases.update(steps)
        asked = [*(cond.get("where") or {}), *(["rule"] if "rule" in cond else []),
                 *(["the state right after it"] if "then" in cond else [])]
        listed = " and ".join([", ".join(asked[:-1]), asked[-1]] if len(asked) > 1 else asked)
        return f"no step emits {cond['event']}" + (f" with {listed} as asked" if asked else "")
    if int(cond.get("at_least", 1)) < 2:
        cases.update(steps)
        raise NotProvable(f"{emits}: the invariants proved do not rule it out, so only "
                          "the bounded search may answer")
    try:
        return _events_bounded(cond, players, rules, colours, proof, emits, built)
    except NotProvable:
        cases.update(steps)   # where a counter proves it, its cases are the proof's
        raise


def _asked(cond: Mapping[str, Any]) -> str:
    """An event condition as a proof's case names it: the event and what ``where:``
    asks of it (so that each seat's of ``some_seat:`` is a case of its own)."""
    where = cond.get("where") or {}
    return str(cond["event"]) + "".join(f" {key}={value}" for key, value in where.items())


def _never_otherwise(turned: Mapping[str, Any], players: int, rules: Rules,
                     colours: tuple[str, ...], cases: dict[str, str]) -> bool:
    """Whether no reveal, from any well-formed state, takes a ``turned_by``'s deciding
    decision (its event as asked) while the rules allow taking it otherwise there
    (:func:`..model.alternative.otherwise`): then no order is ever turned by it, since
    the run taken otherwise is in the same state at that reveal (every earlier decision
    of the opening alike)."""
    from mammamia_ref.queries.model.alternative import otherwise
    from mammamia_ref.queries.model.game_terms import Selectors

    deciding = str(turned["event"])   # {event:, where:} (the core grammar)
    with N.building():
        model, step, found, base = emitted(turned, players, rules, colours, "reveal")
        other = Selectors.fresh("u_otherwise")   # the same reveal, decided otherwise
        _after, _facts, legal = model.reveal(model.S[0], other, step.facts["block"])
        result = N.check([*base, z3.Or(*[t > 0 for t in found]), legal,
                          otherwise(deciding, step.sel.decision, other.decision)])[0]
    cases[f"{'-'.join(colours)} reveal takes {deciding} otherwise"] = str(result)
    return bool(result == z3.unsat)


def without_turning(cond: Mapping[str, Any]) -> Mapping[str, Any]:
    """An event condition without its ``turned_by``, which one step cannot tell (it runs
    the opening again): what this module proves of it holds of the narrower condition."""
    where = cond.get("where") or {}
    if "turned_by" not in where:
        return cond
    return {**cond, "where": {k: v for k, v in where.items() if k != "turned_by"}}


def provable_event(cond: Mapping[str, Any], rules: Rules) -> str:
    """The event an event condition asks for, where one step's emitting it is what
    meets the condition; else :class:`NotProvable`, with the reason."""
    from mammamia_ref.queries.language.conditions import shape

    name = str(cond["event"])
    if any(r in cond for r in RELATIONS) or "at_most" in cond or "equals" in cond:
        raise NotProvable(f"a count of {name} compared other than 'at least'")
    if int(cond.get("at_least", 1)) < 1:
        raise NotProvable(f"at least 0 {name} events: every game has that")
    shape(cond)   # what the model tells (conditions.Unsupported otherwise)
    where = dict(cond.get("where") or {})
    if "first_card_of_round" in where:
        raise NotProvable("first_card_of_round looks back over the round, which one step "
                          "does not see")
    v = rules.flags
    if "round" in where:
        raise NotProvable(f"{name} of a given round is told by the model only on an "
                          "unrolled run (the round it belongs to)")
    if v.round_end == RoundEnd.LAST_INGREDIENT and name == "revealed":
        # a round's preparation into a round that ends at once reveals the leftovers:
        # the free transition step tells its round_ended, oven_opened and
        # mamma_mia_taken (events_model), not the cards
        raise NotProvable("under round_end=last_ingredient a round's preparation may "
                          "reveal cards, which the model tells only on an unrolled run")
    if v.leftovers == Leftovers.OVEN and name == "revealed":
        raise NotProvable("under leftovers=oven an opening first reveals the last round's "
                          "leftovers, which the model tells only on an unrolled run")
    return name


def can_emit(cond: Mapping[str, Any], players: int, rules: Rules,
              colours: tuple[str, ...], what: str) -> Any:
    """Whether one free step of kind ``what`` from a well-formed state (the invariants
    proved holding) can emit ``cond``'s event as asked, ``then:`` included: z3's result
    (``unsat``: it cannot), or None where that kind of step never emits the event."""
    return _emits(_occurring(cond, players, rules, colours, what))


Occurring = tuple[Any, Step, list[Any], list[Any]]
"""One free step and its occurrences of an event (:func:`_occurring`)."""


def _emits(step: Occurring) -> Any:
    """:func:`can_emit` of a step built."""
    _model, _step, found, base = step
    return N.check([*base, z3.Or(*[t > 0 for t in found])])[0] if found else None


def _occurring(cond: Mapping[str, Any], players: int, rules: Rules,
               colours: tuple[str, ...], what: str) -> Occurring:
    """:func:`emitted`, its occurrences those the state right after meets as ``then:``
    asks (card by card for cards revealed)."""
    name, where = cond["event"], dict(cond.get("where") or {})
    model, step, found, base = emitted(cond, players, rules, colours, what)
    if found and "then" in cond and name == "revealed":   # card by card
        found = revealed_then(cond["then"], where, cond.get("rule"), step, model)
    elif found and "then" in cond:
        then = then_term(cond["then"], name, step, model, step.facts.get("final"))
        found = [N.If(then, t, 0) for t in found]
    return model, step, found, base


def _events_bounded(cond: Mapping[str, Any], players: int, rules: Rules,
                    colours: tuple[str, ...], proof: _Proving,
                    emits: str, built: Mapping[str, Occurring]) -> str:
    """At most ``at_least - 1`` of ``cond``'s events in any game: a counter of them,
    bounded by an invariant found automatically
    (:func:`..model.strengthen.bound_events`, the invariants found so far in ``proof``
    tried first), over the steps ``built`` so far and the rest; else
    :class:`NotProvable`, with why."""
    from mammamia_ref.queries.model.strengthen import CountedStep, bound_events, essential

    most = int(cond["at_least"]) - 1
    steps = []
    for what in STEP_KINDS:
        model, _step, found, base = built.get(what) or _occurring(cond, players, rules,
                                                                  colours, what)
        steps.append(CountedStep(what, model, model.S[0], model.S[1], base,
                                 N.Sum(found) if found else N.Val(0)))
    named = tuple(sorted(named_colours(cond), key=colours.index))
    bound = bound_events(players, rules, steps, most,
                         max(proof.deadline - time.process_time(), 0), proof.hints(named))
    if not bound.holds:
        raise NotProvable(f"{emits}, and no invariant found bounds their count below "
                          f"{most + 1} ({'-'.join(colours)}): {bound.reason} "
                          f"({bound.checks} checks, {bound.cpu:.1f} s of CPU), so only the "
                          "bounded search may answer")
    proof.found.append((named, bound.invariant))
    proof.cases.update({f"{'-'.join(colours)} {_asked(cond)}, {case}": result
                        for case, result in bound.cases.items()})
    kept = essential(bound.invariant)
    listed = "; ".join(c.replace("count <= ", "at most ") for c in kept[:4])
    more = f" and {len(kept) - 4} more" if len(kept) > 4 else ""
    return (f"at most {most} {cond['event']} events as asked in any game: a counter of "
            f"them stays within bounds found automatically and together inductive "
            f"({listed}{more}; {bound.checks} checks, {bound.cpu:.1f} s of CPU)")


def emitted(cond: Mapping[str, Any], players: int, rules: Rules, colours: tuple[str, ...],
             what: str) -> Occurring:
    """One free step of kind ``what`` (:func:`..model.free_steps.free_step`) and the occurrences
    of ``cond``'s event in it: the model (its states the step's before and after), the
    step, the occurrences, and the step's constraints with the invariants proved on the
    state before it."""
    from mammamia_ref.queries.model.events_model import occurrences

    model, before, after, facts, constraints = step_from_any(players, rules, colours, what)
    model.S = [before, after]
    step = Step(0, what, 1, 1, N.BoolVal(True), facts["selectors"], facts)
    found = occurrences(cond["event"], dict(cond.get("where") or {}), cond.get("rule"),
                        step, model)
    return model, step, found, constraints


def step_from_any(players: int, rules: Rules, colours: tuple[str, ...], what: str
                  ) -> tuple[Any, Any, Any, dict[str, Any], list[Any]]:
    """One free step of kind ``what`` (:func:`..model.free_steps.free_step`) from a
    well-formed state where the invariants proved hold: the model, the states before and
    after, the step's facts, and its constraints with those invariants on the state
    before."""
    from mammamia_ref.queries.model.free_steps import free_step
    from mammamia_ref.queries.model.proofs import proved_invariants

    model, before, after, facts, constraints = free_step(players, rules, what, f"u_{what}",
                                                         colours=colours)
    hypotheses = proved_invariants(players, rules)(model, before)
    return model, before, after, facts, [*constraints, *hypotheses]


def _at_the_end(cond: Mapping[str, Any]) -> bool:
    """Whether a condition speaks only of the game's end: its result and its state
    there."""
    for key in ("all", "any"):
        if key in cond:
            return all(_at_the_end(c) for c in cond[key])
    if "not" in cond:
        return _at_the_end(cond["not"])
    if "state" in cond:
        return bool(cond["state"].get("at") == "game_end")
    return "result" in cond


def _end_never(cond: Mapping[str, Any], players: int, rules: Rules,
               colours: tuple[str, ...], cases: dict[str, str]) -> None:
    """No well-formed state with the game over (and the invariants proved) meets a
    condition on the game's end: every game ends in such a state."""
    from mammamia_ref.queries.model.free_steps import stub
    from mammamia_ref.queries.model.game_model import OVER, State
    from mammamia_ref.queries.model.scoring_model import scoring_terms

    model = stub(players, rules, "u_end", colours)
    s = State.fresh("u_end", players)
    wins, decided = scoring_terms(s, model)

    def term(c: Mapping[str, Any]) -> Any:
        if "all" in c:
            return N.And(*[term(x) for x in c["all"]])
        if "any" in c:
            return z3.Or(*[term(x) for x in c["any"]])
        if "not" in c:
            return z3.Not(term(c["not"]))
        if "state" in c:
            return state_term(c["state"], s, model, in_round=False)
        from mammamia_ref.queries.model.scoring_model import result_term

        return result_term(c["result"], wins, decided, model)

    from mammamia_ref.queries.model.proofs import proved_invariants

    hypotheses = proved_invariants(players, rules)(model, s)
    result, _zm = N.check([*model.domain(s), *model.well_formed(s), *hypotheses,
                           s.ph == OVER, term(cond)])
    cases[f"{'-'.join(colours)} game's end"] = str(result)
    if result != z3.unsat:
        raise NotProvable(f"a well-formed state at a game's end can meet it ({result})")


def _round_end_never(state: Mapping[str, Any], players: int, rules: Rules,
                     colours: tuple[str, ...], proof: _Proving) -> str:
    """Prove that no step that ends a round leaves a state ``state`` asks for (``at:
    round_end``: the state right after the part of a step that ends the round,
    :func:`..language.judging.states_at`, as ``then:`` reads right after an event), as
    ``round_ended`` with that ``then:``: a count that only the end of a round keeps low
    (the supply, emptied by the draw that ends it) is no invariant of every state.
    "" where proved (added to ``proof``); else why not (nothing added)."""
    then = {key: value for key, value in state.items() if key != "at"}
    trial = _Proving(proof.deadline)
    try:
        why = _event_never({"event": "round_ended", "then": then}, players, rules, colours,
                           trial)
    except NotProvable as exc:
        return exc.reason
    proof.cases.update(trial.cases)
    proof.reasons[f"no state at a round's end meets it: {why}"] = "induction"
    return ""


def _count_never(state: Mapping[str, Any], players: int, rules: Rules,
                 cases: dict[str, str]) -> None:
    """The count stays below ``at_least`` in every state the reference stops at: every
    seat's alike (a turn's case is seat 0's, which stands for every seat's only where
    the invariant treats the seats alike), under both readings of a round's leftovers
    where they go to the oven (:func:`..language.conditions.state_counts`)."""
    from mammamia_ref.queries.language.conditions import state_counts
    from mammamia_ref.queries.model.proofs import prove_invariant

    what = state["count"]
    if set(state) - {"count", "at", "seat", "at_least", "kind"} or "at_least" not in state:
        raise NotProvable("a state count compared other than 'at least' a number")
    limit = int(state["at_least"]) - 1
    every_seat = {**state, "seat": "any"}
    readings = (True, False) if rules.flags.leftovers == Leftovers.OVEN else (True,)

    def below(model: Any, s: Any) -> list[Any]:
        return [c <= limit for in_round in readings
                for c in state_counts(s, every_seat, model, in_round=in_round)]

    proof = prove_invariant(players, rules, below, counts=what == "hand", inside=True)
    for case, result in proof.cases.items():
        cases[f"{what} <= {limit}: {case}"] = result
    if not proof.holds:
        raise NotProvable(f"{what} <= {limit} is not inductive ({proof.counterexample}): a "
                          "game may reach it, or it needs a stronger invariant")


@lru_cache(maxsize=64)
def well_formed_holds(players: int, rules: Rules) -> bool:
    """The model's well-formedness is inductive from the setup (every kind of step keeps
    it): what each step from a "well-formed state" here stands for, proved for the cell's
    players and rules (about 0.2 s), not taken on trust."""
    from mammamia_ref.queries.model.proofs import prove_invariant

    with N.building():
        return prove_invariant(players, rules, lambda _model, _s: [], counts=False).holds


__all__ = [
    "Never",
    "NotProvable",
    "can_emit",
    "emitted",
    "provable_event",
    "prove_never",
    "step_from_any",
    "well_formed_holds",
    "without_turning",
]
