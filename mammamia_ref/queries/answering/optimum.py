"""Optima by the solver: a ``most:`` value raised, a ``fewest:`` value lowered, by the
game model.

A game whose measure is at least ``k`` is a ``find:`` condition
(:func:`at_least`: the vocabulary's ``measure_conditions``, or a ``most_in_a_round:``
form's events in one round), and so is a game whose measure is at most ``k``
(:func:`at_most`: ``measure_conditions_at_most``, or the first turns, or a seat's own
first turns, of a ``turns_until:`` / ``own_turns_until:`` form). So the routes that
answer ``find:`` answer it too: the unbounded proof (:mod:`.unbounded`) may show that no
game of any length reaches ``k`` (a proved bound, ``k - 1``, or ``k + 1`` for the
fewest), and the bounded game model (:mod:`.bounded`) may find a game that does (the
value moves to that game's measure, and it asks again) or prove that none within the
bound does. Each game it finds is replayed by the reference before it counts
(:func:`.ask._keep`)."""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from mammamia_ref.queries.answering.bounded import CAP_SPENT
from mammamia_ref.queries.language.judging import Played, kept_once_met
from mammamia_ref.queries.language.measures import measure
from mammamia_ref.queries.language.questions import Question
from mammamia_ref.rules import specdata
from mammamia_ref.rules.ruleset import Rules

_VOCABULARY: dict[str, Any] = specdata.load_yaml("question_vocabulary.yaml")
MEASURE_CONDITIONS: dict[str, Any] = dict(_VOCABULARY["measure_conditions"])
"""A game whose named measure is at least ``K``, as a ``find:`` condition (``K`` stands
for the number)."""
MEASURE_AT_MOST: dict[str, Any] = dict(_VOCABULARY["measure_conditions_at_most"])
"""A game whose named measure is at most ``K`` (for ``fewest:``)."""


def at_least(name: Any, k: int) -> dict[str, Any] | None:
    """A ``find:`` condition met by exactly the games whose measure ``name`` is at least
    ``k`` (None where the language cannot state it)."""
    if isinstance(name, Mapping):
        if "most_in_a_round" not in name:
            return None
        counted = {"within": {"round": "any"},
                   "holds": {**name["most_in_a_round"], "at_least": k}}
        return {"some_seat": name["some_seat"], "holds": counted} \
            if "some_seat" in name else counted
    template = MEASURE_CONDITIONS.get(name)
    return None if template is None else _with_k(template, k)


def at_most(name: Any, k: int) -> dict[str, Any] | None:
    """A ``find:`` condition met by exactly the games whose measure ``name`` is at most
    ``k`` (None where the language cannot state it). A ``turns_until: C`` is at most
    ``k`` when ``C`` holds within the first ``k`` turns, an ``own_turns_until: C`` when it
    holds within the seat's own first ``k``: for a ``C`` kept once met (else it might
    hold on a shorter part only)."""
    if not isinstance(name, Mapping):
        template = MEASURE_AT_MOST.get(name)
        return None if template is None else _with_k(template, k)
    form = "turns_until" if "turns_until" in name else "own_turns_until"
    cond = name.get(form)
    if not isinstance(cond, Mapping) or not kept_once_met(cond) or k < 0:
        return None
    if form == "turns_until":
        return {"within": {"turns": k}, "holds": cond} if k else None
    seat = name["some_seat"]
    return {"some_seat": seat, "holds": {"within": {"turns": k, "seat": seat}, "holds": cond}} \
        if k else None


def _with_k(template: Any, k: int) -> Any:
    if template == "K":
        return k
    if isinstance(template, Mapping):
        return {key: _with_k(value, k) for key, value in template.items()}
    if isinstance(template, list):
        return [_with_k(value, k) for value in template]
    return template


@dataclass
class Raised:
    """What the game model made of a value: the best game it found (if better), a bound
    it proved for every game, and what it tried."""

    value: int
    game: Played | None = None
    upper: int | None = None
    upper_evidence: str | None = None
    tried: list[str] = field(default_factory=list)
    lower: int | None = None            # for fewest: a bound proved for every game
    lower_evidence: str | None = None
    bound_how: str = ""                 # the bound's proof in words


def raise_value(question: Question, players: int, rules: Rules, value: int,
                budget: float, upper: int | None = None, aimed: bool = True) -> Raised:
    """Ask for a game of measure ``value + 1`` (after the aim at ``upper``, a bound
    already proved, where ``aimed``: nothing beyond it is asked for) until the budget is
    spent, none is within the bound, no game of any length has it, or the value meets
    ``upper``."""
    start = time.process_time()
    out = Raised(value)
    if upper is not None and value < upper and aimed:
        aim(question, players, rules, upper, budget * AIM_SHARE, out)
    return _one_at_a_time(question, players, rules, out,
                          budget - (time.process_time() - start), upper, 1)


def lower_value(question: Question, players: int, rules: Rules, value: int,
                budget: float, lower: int | None = None) -> Raised:
    """For ``fewest:``, :func:`raise_value`'s mirror: ask for a game of measure
    ``value - 1`` until the budget is spent, none is within the bound, no game of any
    length has it (``value`` is then proved the least), or the value meets ``lower``.
    Where the condition looks at the first ``k`` turns only, its bound is those turns,
    so "none within the bound" is proved for every game too."""
    return _one_at_a_time(question, players, rules, Raised(value), budget, lower, -1)


def _one_at_a_time(question: Question, players: int, rules: Rules, out: Raised,
                   budget: float, limit: int | None, step: int) -> Raised:
    """Move ``out.value`` by ``step`` (1 for ``most:``, -1 for ``fewest:``) while the game
    model finds a game there: the unbounded proof first (no game has it: the bound is
    proved), then the game model (a game it finds becomes the value), until ``limit``."""
    from mammamia_ref.queries.answering.bounded import prove_or_find
    from mammamia_ref.queries.answering.leads import lead
    from mammamia_ref.queries.answering.unbounded import STRENGTHEN_SECONDS, prove_never

    most = step > 0
    start = time.process_time()
    while out.value != limit:
        k = out.value + step
        cond = (at_least if most else at_most)(question.measure, k)
        left = budget - (time.process_time() - start)
        if cond is None or left <= 0 or (limit is not None and (k - limit) * step > 0):
            break
        # a quarter of what is left at most for an invariant that bounds a count:
        # the game model's raising is what finds the value
        never = prove_never(cond, players, rules, min(left / 4, STRENGTHEN_SECONDS))
        if never.proved:
            out.tried.append(f"no game of any length {'reaches' if most else 'is'} {k}"
                             f"{'' if most else ' or fewer'}: {never.how}")
            _bound(out, most, k - step, never.evidence, out.tried[-1])
            break
        first = None if most else first_turns(cond)
        bound = {**question.bound, "turns": min(first, question.bound.get("turns", first))} \
            if first else question.bound
        own = None if most or first else own_span(cond, players)
        if own and "turns" not in bound:   # a lead, not a proof: see own_span
            bound = {**bound, "turns": own}
        led = lead(cond, players, rules)
        found = prove_or_find(cond, players, rules, bound,
                              budget - (time.process_time() - start), led)
        if own and found.verdict == "none":
            # none within the lead's turns proves nothing: on, with no bound of turns
            out.tried.append(f"the game model for {k} within {_turns(own)}: none there")
            found = prove_or_find(cond, players, rules, question.bound,
                                  budget - (time.process_time() - start), led)
        if found.game is not None:
            got = measure(question.measure, found.game, "most" if most else "fewest")
            if got is None or (got - k) * step < 0:   # pragma: no cover - the measure's own
                out.tried.append(f"the game model's game for {k} measures {got}")
                break
            out.value, out.game = got, found.game
            out.tried.append(f"the game model found {got} ({found.detail})")
            continue
        if found.verdict == "none" and first and not question.bound:
            out.tried.append(f"no game's first {first} turns reach it: {found.detail}")
            _bound(out, most, k - step, "exhaustive", out.tried[-1])
        else:
            out.tried.append(f"the game model for {k}: {found.detail}")
        break
    return out


def _bound(out: Raised, most: bool, value: int, evidence: str, how: str) -> None:
    """A bound proved for every game: the most (``most``) or the fewest."""
    if most:
        out.upper, out.upper_evidence = value, evidence
    else:
        out.lower, out.lower_evidence = value, evidence
    out.bound_how = how


def first_turns(cond: Mapping[str, Any] | None) -> int | None:
    """The k of a condition judged on the game's first k turns alone (``within: {turns:
    k}``, not a seat's own): a game's first k turns are a run of at most k turns, so the
    game model's "none" within them holds for every game."""
    span = (cond or {}).get("within") or {}
    return None if "seat" in span or set(span) != {"turns"} else int(span["turns"])


def own_span(cond: Mapping[str, Any] | None, players: int) -> int | None:
    """Where a condition is a seat's own first k turns (``some_seat: s`` over ``within:
    {turns: k, seat: s}``): the game's turns in which those k turns lie when no round
    ends between them, ``(k + 1) * players - 1``, so that the game model tries the short
    first rounds it puts off without a bound (at 4 and 5 players). Not a bound for every
    game: a round's end may start the next with another seat and widen the gap, so a
    "none" within it proves nothing of the measure, and none is claimed."""
    inner = (cond or {}).get("holds") or {}
    span = inner.get("within") or {}
    if "some_seat" not in (cond or {}) or set(span) != {"turns", "seat"}:
        return None
    return (int(span["turns"]) + 1) * players - 1


def climb(question: Question, players: int, rules: Rules, lower: int | None,
          budget: float) -> Raised | None:
    """For a ``fewest:`` whose "at most k" looks at the first k turns alone
    (:func:`first_turns`) and a question with no bound of its own: the game model asked
    for k from the proved lower bound (or 1: turns count from 1) up, each "none" within
    those turns a proof for every game, so the first game found is the least, exact,
    with no search (each k asks only the runs of k turns: the shorter are the steps
    before). None where the measure is not of that form; the value 0 where the budget
    ran out first (``lower`` is what was proved)."""
    from mammamia_ref.queries.answering.bounded import prove_or_find
    from mammamia_ref.queries.answering.leads import lead

    if question.goal != "fewest" or question.bound or \
            first_turns(at_most(question.measure, 1)) is None:
        return None
    start = time.process_time()
    out, k = Raised(0), max(lower or 1, 1)
    first = k
    out.lower, out.lower_evidence = k, "exhaustive"   # raised by each k proved below
    out.bound_how = "" if lower else "a game's turns count from 1"
    while budget - (time.process_time() - start) > 0:
        cond = at_most(question.measure, k)
        assert cond is not None
        led = lead(cond, players, rules)
        # the runs of fewer than k turns were the steps before; the first asks them all,
        # so that a game below a proved bound would show the proof wrong
        found = prove_or_find(cond, players, rules, {"turns": k},
                              budget - (time.process_time() - start), led,
                              least=1 if k == first else k)
        if found.game is not None:
            out.value, out.game = measure(question.measure, found.game, "fewest") or k, \
                found.game
            out.tried.append(f"{k}: found ({found.detail})")
            break
        if found.verdict != "none":
            out.tried.append(f"{k}: {found.detail}")
            break
        runs = f"{found.schedules} runs unsatisfiable" if found.schedules else \
            f"no schedule of {_turns(k)} whose first round can end"
        out.tried.append(f"{k}: none in the first {_turns(k)} of any game ({runs})")
        k += 1
        out.lower = k
        out.bound_how = (f"no game's first {k - 1} turns have it: the game model over "
                         f"every schedule of {k - 1} turns and fewer")
    return out


def _turns(k: int) -> str:
    return f"{k} turn" if k == 1 else f"{k} turns"


def aim(question: Question, players: int, rules: Rules, upper: int, budget: float,
        out: Raised) -> None:
    """Ask the game model straight for the proved bound ``upper``, a game of one round
    at a time (:func:`aim_lengths`, shortest first), each check capped and the cap
    doubled for the lengths not yet settled, until one is found (the value is then
    exact) or the budget is spent. Only for a measure kept once met (an opening's
    measure is met when its round ends); what each length gave is in ``out.tried``."""
    from mammamia_ref.queries.language.conditions import Unsupported, written_out

    cond = at_least(question.measure, upper)
    try:
        form = None if cond is None else written_out(cond, players, rules.parameters.rounds)[2]
    except Unsupported:
        return
    if cond is None or form is None or form.whole_game:
        return
    exact = form.exact   # else a "none" compares positions between turns only
    deadline = time.process_time() + budget
    lengths = aim_lengths(players, rules, seat_turns(question.measure, upper), deadline)
    cap = budget / AIM_FIRST_CAPS
    log: list[str] = []
    while lengths:   # each pass over the lengths not yet settled, with twice the cap
        unsettled: list[int] = []
        for turns in lengths:
            left = deadline - time.process_time()
            verdict = _aim_at(cond, question, players, rules, turns, min(cap, left), out,
                              log, exact) if left > 0 else "spent"
            if verdict in ("found", "spent"):
                unsettled = []
                break
            if verdict == "unknown":
                unsettled.append(turns)
        lengths, cap = unsettled, 2 * cap
    out.tried.append(f"the game model, asked for the bound {upper} on one round at a time "
                     f"({'; '.join(log) or 'no time left'})")


def _aim_at(cond: dict[str, Any], question: Question, players: int, rules: Rules,
            turns: int, cap: float, out: Raised, log: list[str], exact: bool) -> str:
    """One length of :func:`aim`: ``found`` (``out`` raised), ``none`` or ``unknown``
    (logged as "none between turns" where z3 compares positions between turns only)."""
    from mammamia_ref.queries.answering.bounded import on_schedule

    began = time.process_time()
    found = on_schedule(cond, players, rules, question.bound, (turns,), cap)
    got = None if found.game is None else measure(question.measure, found.game, "most")
    if got is not None and got > out.value:
        out.value, out.game, verdict = got, found.game, "found"
    else:
        verdict = "none" if found.verdict == "none" else "unknown"
    # a cap's end says nothing more; anything else that left it unknown is worth reading
    why = "" if found.verdict != "unknown" or found.detail.endswith(CAP_SPENT) \
        else f": {found.detail}"
    said = "none between turns" if verdict == "none" and not exact else verdict
    log.append(f"{turns} turns: {said} in {time.process_time() - began:.1f} s{why}")
    return verdict


AIM_SHARE = 0.8
"""The part of the game model's budget that asks for the proved bound outright
(:func:`aim`) before it raises the value one by one."""

AIM_FIRST_CAPS = 4
"""The first cap of one check of :func:`aim`: its budget over this (doubled for each
pass over the lengths not yet settled)."""

AIM_TURNS_A_PLAYER = 5
"""The longest first round :func:`aim` asks about, in turns a player: one more than the
bounded search's first rounds (:func:`..model.proofs.first_rounds`)."""


def aim_lengths(players: int, rules: Rules, own: int = 0,
                deadline: float | None = None) -> list[int]:
    """The first-round lengths :func:`aim` asks about, shortest first: those that can end
    (:func:`..model.proofs.can_end`), and where the measure needs ``own`` turns of one
    seat in the round (:func:`seat_turns`), none too short for them, and the longest
    five turns a player beyond the shortest that holds them. A length beyond five turns
    a player is asked as it is: proving whether such a round can end takes z3 minutes
    (283 s for 19 to 33 turns at 3 players), more than asking for the game there. With
    a ``deadline`` (CPU time), no check runs past it: a length it leaves unsettled is
    kept (at 3 players the fifteen checks take 18 s of CPU the first time in a process,
    more than a default budget)."""
    from mammamia_ref.queries.model.proofs import can_end, first_rounds

    usual = AIM_TURNS_A_PLAYER * players
    least = max(first_rounds(players).start, (own - 1) * players + 1)
    most = max(usual, least + usual - 1) if own else usual

    def left() -> float | None:
        return None if deadline is None else max(deadline - time.process_time(), 0.01)

    return [t for t in range(least, most + 1)
            if t > usual or can_end(players, rules, t, left())]


def seat_turns(name: Any, k: int) -> int:
    """The turns of one seat a round needs for the measure ``name`` to reach ``k`` in it:
    ``k`` where it counts one seat's orders placed or baked in a round (``some_seat: s``,
    ``most_in_a_round:`` ``placed_order`` or ``baked`` at ``s``'s seat), since each is an
    order that seat placed in that round, one a turn (the oven is emptied of orders at
    every opening); 0 for any other measure."""
    if not isinstance(name, Mapping) or "some_seat" not in name:
        return 0
    counted = name.get("most_in_a_round") or {}
    mine = counted.get("where") == {"seat": name["some_seat"]}
    return k if mine and counted.get("event") in ("placed_order", "baked") and \
        set(counted) <= {"event", "where"} else 0


__all__ = ["AIM_SHARE", "MEASURE_AT_MOST", "MEASURE_CONDITIONS", "Raised", "aim",
           "aim_lengths", "at_least", "at_most", "climb", "first_turns", "lower_value",
           "raise_value"]
