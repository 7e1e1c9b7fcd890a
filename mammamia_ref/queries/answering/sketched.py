"""The game model asked on a question's sketches (:mod:`..language.sketch`).

A sketch gives part of a game (its rounds' turns, who starts each, which orders a colour
places on which of its turns, or may place at all); z3 fills in the rest. ``ask`` tries
a cell's sketches before its search: for a ``find:``, the condition; for a ``most:`` /
``fewest:``, a game whose measure reaches the sketch's ``aim:``, else the proved bound
(so the value is exact at once; with neither, the sketch is not asked). A game is kept
only as every other one is (replayed by the reference, judged by the question); a
sketch with no game says nothing of the question, and the answer says only that the
sketch has none.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

import z3

from mammamia_ref.errors import VariantError
from mammamia_ref.queries.answering.bounded import CAP_SPENT, MODEL_GAME, Bounded, found_on
from mammamia_ref.queries.language.conditions import Unsupported, encode, written_out
from mammamia_ref.queries.language.judging import Played
from mammamia_ref.queries.language.questions import Question
from mammamia_ref.queries.language.sketch import Sketch, sketches_for
from mammamia_ref.queries.language.variables import expand
from mammamia_ref.queries.model import num as N
from mammamia_ref.rules.ruleset import Rules


@dataclass(frozen=True)
class Sketched:
    """What a cell's sketches gave: the first game found (None if none) and, sketch by
    sketch, what each gave, in words."""

    found: Bounded | None
    tried: tuple[str, ...]

    def said(self) -> str:
        return "the question's sketches: " + "; ".join(self.tried)


def on_sketches(condition: Mapping[str, Any], sketches: tuple[Sketch, ...], rules: Rules,
                budget: float, bound: Mapping[str, int] | None = None,
                judge: Callable[[Played], float | None] | None = None) -> Sketched:
    """``condition`` asked on each sketch in turn until one has a game or ``budget`` CPU
    seconds are spent (each sketch may take what the ones before it left), judged within
    the question's ``bound`` (:func:`on_sketch`)."""
    start, tried = time.process_time(), []
    for sketch in sketches:
        left = budget - (time.process_time() - start)
        if left <= 0:
            tried.append(f"{sketch.text()}: no budget left")
            continue
        answer = on_sketch(condition, sketch, rules, left, bound, judge)
        tried.append(f"{sketch.text()}: {answer.detail}")
        if answer.verdict == "found":
            return Sketched(answer, tuple(tried))
    return Sketched(None, tuple(tried))


def aimed(question: Question, players: int, rules: Rules, aim: int | None, budget: float
          ) -> tuple[Played | None, str]:
    """A ``most:`` / ``fewest:`` cell's sketches, each asked for a game whose measure
    reaches its own ``aim:``, else ``aim`` (the proved bound), until one has a game or
    ``budget`` CPU seconds are spent: the game (None if none) and what they gave, in
    words ("" where the cell has no sketch)."""
    from mammamia_ref.queries.answering.optimum import at_least, at_most

    sketches = sketches_for(question.sketches, players, rules)
    if not sketches:
        return None, ""
    stated = at_least if question.goal == "most" else at_most
    start, said = time.process_time(), []
    for sketch in sketches:
        at = sketch.aim if sketch.aim is not None else aim
        cond = sketch.holds if sketch.holds is not None else \
            None if at is None else stated(question.measure, at)
        if cond is None:
            why = "no proved bound, and no aim:" if stated(question.measure, 1) else \
                (f"the measure has no {'at least' if question.goal == 'most' else 'at most'}"
                 " k the game model can be asked for")
            said.append(f"{sketch.text()}: not asked ({why})")
            continue
        sketched = on_sketches(cond, (sketch,), rules, budget - (time.process_time() - start),
                               judge=lambda g: _scored(question, g))
        said.extend(sketched.tried)
        if sketched.found is not None and sketched.found.game is not None:
            return sketched.found.game, Sketched(None, tuple(said)).said()
    return None, Sketched(None, tuple(said)).said()


def _scored(question: Question, game: Played) -> float | None:
    """A game's measure, the higher the better (a ``fewest:``'s negated)."""
    from mammamia_ref.queries.language.measures import measure

    got = measure(question.measure, game, question.goal)
    return None if got is None else float(got if question.goal == "most" else -got)


def on_sketch(condition: Mapping[str, Any], sketch: Sketch, rules: Rules,
              budget: float, bound: Mapping[str, int] | None = None,
              judge: Callable[[Played], float | None] | None = None) -> Bounded:
    """The condition on one sketch within ``budget`` CPU seconds (the sketch's
    ``holds:`` instead, where it has one): ``found`` (a game the reference replayed,
    played on by the sketch's ``then:``, judged within the question's ``bound``, and by
    ``judge`` where given), ``none`` (no game of the sketch:
    nothing said of the question) or ``unknown``."""
    from mammamia_ref.queries.model.flags import model_rules
    from mammamia_ref.queries.model.game_model import GameModel

    start = time.process_time()
    rounds = rules.parameters.rounds
    condition = sketch.holds if sketch.holds is not None else condition
    try:
        model_rules("game_model", rules)
        _seated, _cores, form = written_out(condition, sketch.players, rounds)
    except (Unsupported, VariantError) as exc:
        return Bounded("unknown", f"no z3 encoding: {getattr(exc, 'reason', exc)}")
    if len(sketch.rounds) > rounds:
        return Bounded("unknown", f"the sketch has {len(sketch.rounds)} rounds, the game "
                       f"{rounds}")
    if form.whole_game and len(sketch.rounds) < rounds:
        return Bounded("unknown", "the condition is judged on whole games, and the sketch "
                       f"has {len(sketch.rounds)} of the game's {rounds} rounds")
    bound = bound or {}
    past = [f"{what} {bound[key]}" for key, what, has in (
        ("turns", "turns", sum(sketch.rounds)), ("rounds", "rounds", len(sketch.rounds)))
        if key in bound and has > bound[key]]
    if past:   # its game would be judged past the part the question looks at
        return Bounded("unknown", f"the sketch goes past the question's bound ({past[0]})")
    with N.building():
        model = GameModel(sketch.players, rules, **sketch.model_hints())
        goal = encode(expand(condition, sketch.seated, rounds), model)
        left = budget - (time.process_time() - start)
        result, zm = N.check([*model.constraints, goal], timeout=left) if left > 0 else \
            (z3.unknown, None)
    cpu = f"{time.process_time() - start:.1f} s of CPU"
    if zm is not None:
        found = found_on(condition, bound, model, zm, f"{MODEL_GAME} on the question's "
                         f"sketch ({sketch.text()})", 1, sketch.then, judge)
        return found if found.game is None else replace(found, detail=f"a game [{cpu}]")
    if result == z3.unsat:
        return Bounded("none", f"no game of the sketch [{cpu}]", schedules=1)
    return Bounded("unknown", f"{CAP_SPENT} [{cpu}]", schedules=1)


__all__ = ["Sketched", "aimed", "on_sketch", "on_sketches"]
