"""The z3 route of ``mammamia ask`` for ``find:``: the question's condition
(:mod:`.conditions`) over the game model, schedule by schedule within the bound.

A run of the game model follows a schedule (the turns of each round,
:mod:`.game_model`). The bound is ``rounds`` and ``turns`` (all rounds together):

- a condition that stays met once met (:attr:`.conditions.Shape.monotone`) is judged on
  the first rounds of a game: every schedule of 1 to ``rounds`` rounds whose rounds
  end, and every one whose last round is still going on (``open_last``), of at most
  ``turns`` turns in all. Unsatisfiable under all of them: no game meets it within its
  first ``rounds`` rounds and ``turns`` turns;
- any other only on whole games (``rounds`` must reach the game's end): every
  schedule of the game's rounds of at most ``turns`` turns in all.

Schedules go shortest first; a first round that cannot end when it says is skipped at
once (:func:`.builders.can_end`, itself a z3 proof up to three players). A satisfying
run is decoded, replayed by the reference (:func:`.decode.replay`, which checks the
model against it step by step), played on to the game's end by a seeded policy, and
kept only when the reference's events and states meet the condition; the caller then
writes and replays its scenario. When the budget runs out first the answer is
unknown, with the part of the bound that was covered: that part is proved.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import z3

from mammamia_ref.errors import InternalError, MammamiaError
from mammamia_ref.queries import num as N
from mammamia_ref.queries.conditions import Shape, Unsupported, encode, shape
from mammamia_ref.rules.ruleset import Rules


@dataclass
class Bounded:
    """What the z3 route made of one cell."""

    verdict: str                      # "found", "none", "unknown"
    detail: str
    game: Any = None                  # the game found (an :class:`.ask.Played`)
    schedules: int = 0


def schedules(players: int, rules: Rules, rounds: int, turns: int, whole: bool
              ) -> Iterator[tuple[tuple[int, ...], bool]]:
    """Every (schedule, last round open) within the bound, fewest turns first. A round
    after the first may last no turn at all under ``round_end.last_ingredient`` (its
    supply holds no ingredient card)."""
    low = 0 if rules.flags.round_end == "last_ingredient" else 1
    counts = range(rules.parameters.rounds, rules.parameters.rounds + 1) if whole \
        else range(1, rounds + 1)
    for total in range(1, turns + 1):
        for k in counts:
            for rest in itertools.product(range(low, total + 1), repeat=k - 1):
                first = total - sum(rest)
                if first < 1:
                    continue
                schedule = (first, *rest)
                yield schedule, False
                if not whole and schedule[-1] >= 1:
                    yield schedule, True


def prove_or_find(condition: Mapping[str, Any], players: int, rules: Rules,
                  bound: Mapping[str, int], budget: float) -> Bounded:
    """The condition over every schedule within ``bound`` until ``budget`` CPU seconds:
    a game (:class:`Bounded` ``found``), a proof that none is within the bound
    (``none``), or ``unknown`` with the reason and the part of the bound covered."""
    from mammamia_ref.errors import VariantError
    from mammamia_ref.queries.builders import can_end
    from mammamia_ref.queries.flags import model_rules
    from mammamia_ref.queries.game_model import GameModel

    start = time.process_time()
    try:
        model_rules("game_model", rules)
        form = shape(condition, rules)
    except Unsupported as exc:
        return Bounded("unknown", f"no z3 encoding: {exc.reason}")
    except VariantError as exc:
        return Bounded("unknown", f"no z3 encoding: {exc}")
    # the proved round lengths are under the spec's numbers: none skipped under others
    prechecked = not rules.non_default_parameters()
    game_rounds = rules.parameters.rounds
    whole = form.whole_game
    rounds = bound.get("rounds", game_rounds if whole else 1)
    if whole and rounds < game_rounds:
        return Bounded("unknown", f"the condition is judged on whole games ({_why(form)}), "
                       f"which a bound of {rounds} round(s) does not reach")
    turns = bound.get("turns", 4 * players * rounds)
    tried, covered = 0, 0
    where = ("whole games of at most {t} turns" if whole else
             f"the first {rounds} round(s) of a game, at most {{t}} turns in all")
    for schedule, open_last in schedules(players, rules, rounds, turns, whole):
        total = sum(schedule)
        if total > covered + 1:
            covered = total - 1
        left = budget - (time.process_time() - start)
        if left <= 0:
            return Bounded("unknown", _spent(budget, covered, where, tried), schedules=tried)
        if prechecked and not (open_last and len(schedule) == 1) and \
                not can_end(players, rules, schedule[0]):
            continue
        with N.building():
            model = GameModel(players, rules, schedule=schedule, open_last=open_last)
            goal = encode(condition, model)
            result, zm = N.check([*model.constraints, goal], timeout=left)
        tried += 1
        if zm is not None:
            return _found(condition, model, zm, schedule, open_last, tried)
        if result != z3.unsat:
            return Bounded("unknown", _spent(budget, covered, where, tried), schedules=tried)
    covered = turns
    if not form.exact:
        return Bounded("unknown", f"z3 found no game within {where.format(t=turns)} "
                       f"({tried} schedules), judging the state counts only between turns; "
                       "the reference judges the states inside a turn too, so no bound is "
                       "claimed", schedules=tried)
    return Bounded("none", f"z3 (the game model): no game meets it within "
                   f"{where.format(t=turns)}; every one of the {tried} schedules of the "
                   f"bound unsatisfiable", schedules=tried)


def _why(form: Shape) -> str:
    return "it is not kept once met" if not form.monotone else "it looks at the game's end"


def _spent(budget: float, covered: int, where: str, tried: int) -> str:
    part = (f"; proved: none within {where.format(t=covered)}" if covered else "")
    return f"z3: the budget of {budget:g} s of CPU ran out after {tried} schedules{part}"


def _found(condition: Mapping[str, Any], model: Any, zm: Any, schedule: tuple[int, ...],
           open_last: bool, tried: int) -> Bounded:
    """The run as a reference game, played on to its end, judged again by the
    reference's events and states."""
    from mammamia_ref.queries.ask import Played, holds, playout
    from mammamia_ref.queries.decode import decode, replay

    how = f"z3 game model, schedule {list(schedule)}{' (last round open)' if open_last else ''}"
    try:
        run = replay(decode(model, zm))
    except (MammamiaError, InternalError) as exc:   # the encoding or the reference is wrong
        return Bounded("unknown", f"the game model and the reference disagree on the run "
                       f"of {how}: {exc}", schedules=tried)
    config = run.trace.config()
    part = Played(config, tuple((p.action, p.events, p.state) for p in run.played),
                  found_by=how)
    game = playout(config, "ask-z3", "random", after=part)
    if not holds(condition, game):
        return Bounded("unknown", f"z3's run of {how} meets the condition, the reference's "
                       "game does not: the encoding (mammamia_ref/queries/conditions.py) "
                       "and the reference differ", schedules=tried)
    return Bounded("found", how, game, tried)


__all__ = ["Bounded", "prove_or_find", "schedules"]
