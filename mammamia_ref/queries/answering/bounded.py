"""The z3 route of ``mammamia ask`` for ``find:``: the question's condition
(:mod:`..language.conditions`) over the game model, schedule by schedule within the bound.

A run of the game model follows a schedule (the turns of each round,
:mod:`..model.game_model`). A question's bound is ``rounds`` (the game's, unless given) and
``turns`` (all rounds together; none unless given), and a condition is judged on the
part of a game within it (:func:`..language.judging.within`):

- a condition kept once met (:func:`..language.judging.kept_once_met`) on the first rounds of
  a game: every schedule of 1 to ``rounds`` rounds whose rounds end, and every one
  whose last round is still going on (``open_last``), of at most ``turns`` turns (but
  where the unbounded proof's failure leads elsewhere, :func:`.leads.lead`: a
  condition built of events only an opening emits needs no round left open);
- any other only on whole games: every schedule of the game's rounds.

Schedules go fewest turns first; a first round that cannot end when it says is
skipped at once (:func:`..model.proofs.can_end`, itself a z3 proof up to three players,
under the spec's numbers), and a schedule whose rounds are unlikely to end when it says
(:func:`_unlikely`) is put off until every other of a finite bound is tried (without a
``turns`` bound it is never tried, and the part covered says so). Unsatisfiable under
every schedule of the bound: "none within the bound". A satisfying run is decoded,
replayed by the reference (:func:`..model.decode.replay`, which checks the model against
it step by step), played on to the game's end by a seeded policy, and kept only when the
reference's game meets the condition within the bound; the caller then writes and
replays its scenario. When the budget runs out first (or no ``turns`` bound is given)
the answer is unknown, with the part of the bound that was covered: that part is proved.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import z3

from mammamia_ref.errors import InternalError, MammamiaError
from mammamia_ref.queries.answering.leads import Lead
from mammamia_ref.queries.answering.searching import playout
from mammamia_ref.queries.language.conditions import Shape, Unsupported, encode, written_out
from mammamia_ref.queries.language.judging import Played, meets
from mammamia_ref.queries.model import num as N
from mammamia_ref.queries.model.decode import Replay, decode, replay
from mammamia_ref.rules.ruleset import Rules
from mammamia_ref.rules.typed_spec import RoundEnd


@dataclass
class Bounded:
    """What the z3 route made of one cell."""

    verdict: str                      # "found", "none", "unknown"
    detail: str
    game: Played | None = None        # the game found
    schedules: int = 0


def schedules(players: int, rules: Rules, rounds: int, turns: int | None, whole: bool,
              open_rounds: bool = True, least: int = 1
              ) -> Iterator[tuple[tuple[int, ...], bool]]:
    """Every (schedule, last round open) within the bound of ``least`` turns or more,
    fewest turns first (without a ``turns`` bound, for ever); a last round still open
    only where ``open_rounds`` (and the condition is not judged on whole games). A
    round after the first may last no turn at all under ``round_end.last_ingredient``
    (its supply holds no ingredient card); the reference begins its starting player's
    turn before it ends, so it counts as one of the bound's turns (the turns the
    reference begins, :func:`..language.judging.within`)."""
    low = 0 if rules.flags.round_end == RoundEnd.LAST_INGREDIENT else 1
    counts = [rules.parameters.rounds] if whole else range(1, rounds + 1)
    for total in itertools.count(least) if turns is None else range(least, turns + 1):
        for k in counts:
            for rest in itertools.product(range(low, total + 1), repeat=k - 1):
                first = total - sum(rest) - rest.count(0)
                if first < 1:
                    continue
                schedule = (first, *rest)
                yield schedule, False
                if open_rounds and not whole and schedule[-1] >= 1:
                    yield schedule, True


def prove_or_find(condition: Mapping[str, Any], players: int, rules: Rules,
                  bound: Mapping[str, int], budget: float, lead: Lead | None = None,
                  least: int = 1) -> Bounded:
    """The condition over every schedule within ``bound`` until ``budget`` CPU seconds:
    a game (:class:`Bounded` ``found``), a proof that none is within the bound
    (``none``), or ``unknown`` with the reason and the part of the bound covered. With
    the ``lead`` of a failed unbounded proof (:func:`.leads.lead`), the schedules
    whose last round is still open are left out, as it shows they may be. Only
    schedules of ``least`` turns or more are asked, where the caller has already shown
    that no shorter one has a game (:func:`.optimum.climb`, one turn at a time)."""
    from mammamia_ref.queries.model.proofs import can_end, first_rounds

    start = time.process_time()
    encoded = _encoded(condition, players, rules)
    if isinstance(encoded, Bounded):
        return encoded
    seated, cores, form = encoded
    game_rounds = rules.parameters.rounds
    rounds, turns = bound.get("rounds", game_rounds), bound.get("turns")
    if form.whole_game and rounds < game_rounds:
        return Bounded("unknown", f"the condition is judged on whole games (it is not kept "
                       f"once met), which a bound of {rounds} round(s) does not reach")
    where = ("a whole game of at most {t} turns" if form.whole_game else
             f"the first {rounds} round(s) of a game and its first {{t}} turns")
    if lead is not None and not form.whole_game:   # a whole game's have no round open
        where += f" ({lead.text()})"
    tried, covered = 0, 0
    shortest = first_rounds(players).start
    deferred: list[tuple[tuple[int, ...], bool]] = []
    every = ((s, o, False) for s, o in schedules(players, rules, rounds, turns,
                                                  form.whole_game, lead is None, least))
    for schedule, open_last, put_off in itertools.chain(every, _after(deferred, turns)):
        left = budget - (time.process_time() - start)
        if left <= 0:
            break
        ends = not (open_last and len(schedule) == 1)   # the first round ends
        if ends and not can_end(players, rules, schedule[0], left):
            continue
        if not put_off:
            covered = max(covered, sum(schedule) - 1)   # every shorter schedule is done
            if _unlikely(schedule, open_last, shortest, players):
                deferred.append((schedule, open_last))
                continue
        found, result, runs = _on_schedule(condition, bound, players, rules, seated, cores,
                                           schedule, open_last, start + budget, tried)
        tried += runs
        if found is not None:
            return found
        if result != z3.unsat:
            break
    else:
        return _seated(_none(turns, where, tried, form.exact), seated)
    if deferred:
        where += (f" whose first round, where it ends, lasts {shortest} turns or more and "
                  f"each later round that ends {players} or more (the others put off)")
    return _seated(Bounded("unknown", _spent(budget, covered, where, tried, form.exact),
                           schedules=tried), seated)


def _unlikely(schedule: tuple[int, ...], open_last: bool, shortest: int, players: int
              ) -> bool:
    """A schedule put off until every other of a finite bound is tried: a first round
    that ends in fewer than ``shortest`` turns (two a player beyond
    :data:`..model.proofs.PRECHECKED` players, where :func:`..model.proofs.can_end` has
    no proof), or a later round that ends in fewer turns than the players (not a full
    cycle; a round of no turns, which ends at once under ``round_end.last_ingredient``,
    is not put off). Such rounds rarely can end, and z3 may take minutes to show that
    they cannot (a counting argument), where a game is far more likely among the others."""
    ending = schedule[:-1] if open_last else schedule
    return bool(ending) and (ending[0] < shortest or any(0 < t < players for t in ending[1:]))


def _after(deferred: list[tuple[tuple[int, ...], bool]], turns: int | None
           ) -> Iterator[tuple[tuple[int, ...], bool, bool]]:
    """The schedules put off (:func:`_unlikely`), once every other one of a finite bound
    is tried: only they can complete a proof of "none within the bound"."""
    if turns is not None:
        yield from ((schedule, open_last, True) for schedule, open_last in deferred)


def on_schedule(condition: Mapping[str, Any], players: int, rules: Rules,
                bound: Mapping[str, int], schedule: tuple[int, ...], budget: float
                ) -> Bounded:
    """The condition on one schedule alone, its rounds all ending, within ``budget`` CPU
    seconds: ``found`` (a game the reference replayed and judged), ``none`` (no game of
    this schedule: a proof about the schedule, never about the bound) or ``unknown``."""
    start = time.process_time()
    encoded = _encoded(condition, players, rules)
    if isinstance(encoded, Bounded):
        return encoded
    seated, cores, _form = encoded
    found, result, runs = _on_schedule(condition, bound, players, rules, seated, cores,
                                       schedule, False, start + budget, 0)
    if found is not None:
        return found
    if result == z3.unsat:
        return Bounded("none", f"no game of schedule {list(schedule)}", schedules=runs)
    return Bounded("unknown", f"schedule {list(schedule)}: {CAP_SPENT}", schedules=runs)


CAP_SPENT = "not settled within its budget"
"""How :func:`on_schedule`'s answer ends when its budget ran out first."""


def _on_schedule(condition: Mapping[str, Any], bound: Mapping[str, int], players: int,
                 rules: Rules, seated: list[tuple[str, ...]], cores: list[Any],
                 schedule: tuple[int, ...], open_last: bool, deadline: float, tried: int
                 ) -> tuple[Bounded | None, Any, int]:
    """One schedule under each seating the condition tells apart, until ``deadline`` (CPU
    seconds): the game found (as :class:`Bounded`), else None and z3's last result
    (``unsat``: no game on this schedule), and the runs it took."""
    from mammamia_ref.queries.model.game_model import GameModel

    result: Any = z3.unsat
    for runs, (colours, each) in enumerate(zip(seated, cores, strict=True), start=1):
        with N.building():
            model = GameModel(players, rules, schedule=schedule, open_last=open_last,
                              colours=colours)
            goal = encode(each, model)
            result, zm = N.check([*model.constraints, goal],
                                 timeout=max(deadline - time.process_time(), 0.01))
        if zm is not None:
            return (_found(condition, bound, model, zm, schedule, open_last, tried + runs),
                    result, runs)
        if result != z3.unsat:
            return None, result, runs
    return None, result, len(seated)


def _encoded(condition: Mapping[str, Any], players: int, rules: Rules
             ) -> tuple[list[tuple[str, ...]], list[Any], Shape] | Bounded:
    """The condition under each seating it tells apart, and its shape; or ``unknown``
    where the game model has no encoding of it (or does not follow the rules)."""
    from mammamia_ref.errors import VariantError
    from mammamia_ref.queries.model.flags import model_rules

    try:
        model_rules("game_model", rules)
        return written_out(condition, players, rules.parameters.rounds)
    except Unsupported as exc:
        return Bounded("unknown", f"no z3 encoding: {exc.reason}")
    except VariantError as exc:
        return Bounded("unknown", f"no z3 encoding: {exc}")


def _seated(answer: Bounded, seated: list[tuple[str, ...]]) -> Bounded:
    """An answer that says which seatings it covered (:func:`..language.variables.seatings`)."""
    if len(seated) == 1:
        answer.detail += "; every seating alike (the condition names no colour)"
    else:
        answer.detail += (f"; each schedule under the {len(seated)} seatings the condition "
                          "tells apart (turn order from the starting player): "
                          + ", ".join("-".join(c) for c in seated))
    return answer


def _none(turns: int | None, where: str, tried: int, exact: bool) -> Bounded:
    """Every schedule of the bound unsatisfiable: a proof, where z3 sees every state
    the condition judges."""
    assert turns is not None   # only a bounded enumeration ends
    if not exact:
        return Bounded("unknown", f"z3 found no game within {where.format(t=turns)} "
                       f"({tried} schedules), comparing positions only between turns; "
                       "the reference compares every state it stops at, so no bound is "
                       "claimed", schedules=tried)
    return Bounded("none", f"z3 (the game model): no game meets it within "
                   f"{where.format(t=turns)}; every one of the {tried} runs (a schedule under a "
                   f"seating) of the bound unsatisfiable", schedules=tried)


def _spent(budget: float, covered: int, where: str, tried: int, exact: bool) -> str:
    """What a budget's end leaves: the part of the bound covered is proved, where z3
    sees every state the condition judges."""
    part = f"; proved: none within {where.format(t=covered)}" if covered and exact else ""
    return f"z3: the budget of {budget:.1f} s of CPU ran out after {tried} schedules{part}"


MODEL_GAME = "z3 game model"
"""How the ``found_by`` of a game the model found begins."""


def _found(condition: Mapping[str, Any], bound: Mapping[str, int], model: Any, zm: Any,
           schedule: tuple[int, ...], open_last: bool, tried: int) -> Bounded:
    """The run of ``schedule`` as a reference game (:func:`found_on`)."""
    how = f"{MODEL_GAME}, schedule {list(schedule)}{' (last round open)' if open_last else ''}"
    return found_on(condition, bound, model, zm, how, tried)


def found_on(condition: Mapping[str, Any], bound: Mapping[str, int], model: Any, zm: Any,
             how: str, tried: int, then: str = "random",
             judge: Callable[[Played], float | None] | None = None) -> Bounded:
    """The run as a reference game, played on to its end by the policy ``then``, judged
    again by the reference's events and states within the bound (and by ``judge``, where
    given: a game it scores None is not kept); ``how`` says where the run came from."""
    try:
        run = replay(decode(model, zm))
    except (MammamiaError, InternalError) as exc:   # the encoding or the reference is wrong
        return Bounded("unknown", f"the game model and the reference disagree on the run "
                       f"of {how}: {exc}", schedules=tried)
    game = playout(run.trace.config(), "ask-z3", then, after=played_of(run, how))
    if not meets(condition, game, bound):
        return Bounded("unknown", f"z3's run of {how} meets the condition, the reference's "
                       "game does not: the encoding (mammamia_ref/queries/language/conditions.py) "
                       "and the reference differ", schedules=tried)
    if judge is not None and judge(game) is None:
        return Bounded("unknown", f"the game played on from z3's run of {how} ({then}) "
                       "does not answer the question", schedules=tried)
    return Bounded("found", how, game, tried)


def played_of(run: Replay, found_by: str = "") -> Played:
    """A run of the game model as the reference replayed it (:func:`..model.decode.replay`)."""
    return Played(run.trace.config(), tuple((p.action, p.events, p.state)
                                            for p in run.played), found_by=found_by)


__all__ = ["CAP_SPENT", "MODEL_GAME", "Bounded", "found_on", "on_schedule", "played_of",
           "prove_or_find", "schedules"]
