"""What a position that comes back allows: a ``most:`` with no most, and a ``find:`` met
by playing the actions between again.

Under the letter of the rules (stall=letter) nothing ends a round in which no card
moves, and a position can come back (Q07): every card in the same place, the same
player to act. The reference is deterministic, so the actions between the two can be
played again from the second as from the first, any number of times, each a legal game.
Where each time adds to the measure (the turns of a round, of the game), no game is the
longest: "value 59" there would present a bound of the search as an optimum.

A measure of the language is a count of a game's events or turns, or the largest of
such counts (over rounds, seats, openings), so with the steps between played ``k`` more
times it is the largest of functions linear in ``k``: convex. Measured with them played
0, 1, 2 and 3 more times, a rise from one to the next shows it rises at least as much
every time after, without end; the answer keeps the measures it saw.

The position is looked for among the known games, then by the z3 game model (the route
of ``find: {position_returns: true}``, :func:`.bounded.prove_or_find`: no seeded game
shows one, since a seeded game of the letter is cut when a cycle of turns moves nothing).
A measure with a proved upper bound is never asked this (it has a most), nor one where
the unbounded proof shows that no position comes back in any game (under the stall cut,
a ranking function: Q07).

A ``find:`` condition kept once met that counts what those actions do ("200 passes")
is met by playing them again often enough (:func:`repeated_until`): a search plays no
such game (a seeded game of the letter is cut at the first cycle of quiet turns), and
the game model's schedules stop far short of it. The game is the reference's, judged by
the condition as any game is.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any, TypeVar

from mammamia_ref.queries.language.judging import Played, actions, comes_back, meets
from mammamia_ref.queries.language.measures import measure
from mammamia_ref.queries.language.questions import Question
from mammamia_ref.rules.ruleset import Rules

RETURN = {"position_returns": True}
"""The condition whose games show a position that comes back (Q07's question)."""

AGAIN = 3
"""How many more times the steps between are played to see the measure rise."""


@dataclass(frozen=True)
class Unending:
    """A game whose measure grows without end: the position after action ``first``
    comes back after action ``again`` (0-based, whole actions), and the measure with the
    actions between played 0, 1, ... :data:`AGAIN` more times."""

    game: Played
    first: int
    again: int
    measured: tuple[int, ...]

    def said(self) -> str:
        between = self.again - self.first
        seen = ", ".join(str(m) for m in self.measured)
        return (f"no most: the position after action {self.first + 1} comes back after "
                f"action {self.again + 1}, so the {between} actions between can be played "
                f"again without end (the reference played them 0 to {AGAIN} more times: "
                f"the measure was {seen}, rising each time)")


def played_again(game: Played, first: int, again: int, times: int) -> Played | None:
    """The game with its actions ``first + 1 .. again`` played ``times`` more times
    after ``again``, then the rest, all replayed by the reference from a new game; None
    at the first action the reference refuses (as it would where the two states
    differ)."""
    from mammamia_ref.queries.answering.known_games import played_through

    acts = actions(game.steps)
    loop = acts[first + 1:again + 1]
    return played_through(game.config, acts[:again + 1] + loop * times + acts[again + 1:])


def grows(question: Question, game: Played) -> Unending | None:
    """The game as :class:`Unending` if a position comes back in it and the question's
    measure rises each time the actions between are played again; else None."""
    back = comes_back(game)
    if back is None:
        return None
    first, again = back
    seen: list[int] = []
    for times in range(AGAIN + 1):
        longer = played_again(game, first, again, times)
        got = None if longer is None else measure(question.measure, longer, "most")
        if got is None:
            return None
        seen.append(got)
    if not all(a < b for a, b in itertools.pairwise(seen)):
        return None
    return Unending(game, first, again, tuple(seen))


T = TypeVar("T")


def returning(players: int, rules: Rules, budget: float, known: bool,
              take: Callable[[Played], T | None], taken: str) -> tuple[T | None, str]:
    """What ``take`` makes of a game in which a position comes back, looked for within
    ``budget`` CPU seconds: none where the unbounded proof shows that no position comes
    back in any game; else among the known games (with ``known``), then by the game
    model (:data:`RETURN`); and what was tried, in words (``taken``: what ``take``
    looks for, for the answer where a game shows none)."""
    from mammamia_ref.queries.answering.bounded import prove_or_find
    from mammamia_ref.queries.answering.known_games import best_known
    from mammamia_ref.queries.answering.leads import lead
    from mammamia_ref.queries.answering.unbounded import prove_never

    start = time.process_time()
    never = prove_never(RETURN, players, rules, budget / 4)
    if never.proved:   # under the stall cut a ranking function proves it (Q07)
        return None, f"no position comes back in any game ({never.evidence})"
    if known:
        made: dict[int, T] = {}

        def judge(game: Played) -> float | None:
            got = take(game)
            if got is None:
                return None
            made[id(game)] = got
            return 1.0

        game, _score, judged = best_known(players, rules, judge, budget / 2)
        if game is not None:
            return made[id(game)], f"a known game ({judged} judged)"
    left = budget - (time.process_time() - start)
    if left <= 0:
        return None, "no time left to look for a position that comes back"
    found = prove_or_find(RETURN, players, rules, {}, left, lead(RETURN, players, rules))
    if found.game is None:
        return None, f"no position that comes back found ({found.verdict}: {found.detail})"
    got = take(found.game)
    if got is None:
        return None, f"a position comes back, but {taken}"
    return got, found.game.found_by or "the z3 game model"


def unending(question: Question, players: int, rules: Rules, budget: float,
             known: bool = True) -> tuple[Unending | None, str]:
    """A game in which the question's measure grows without end (:func:`returning`)."""
    return returning(players, rules, budget, known, lambda g: grows(question, g),
                     "playing the actions between again does not raise the measure")


MOST_ACTIONS = 20_000
"""The longest game a repetition is played to (as long as a seeded game may be)."""


def repeated_until(condition: Mapping[str, Any], bound: Mapping[str, int], game: Played
                   ) -> Played | None:
    """The game with the actions between a position and its return played again 1, 2,
    4, ... more times while each comes nearer to ``condition`` (one kept once met: what
    the actions between do, it counts once more each time), then as few more times
    between the last two as still meet it (by halves): the game that meets it within
    ``bound``, judged so; None if none does within :data:`MOST_ACTIONS` actions, or no
    position comes back. A repetition past the bound (its turns, its rounds) comes no
    nearer, so it stops there."""
    from mammamia_ref.queries.language.nearness import nearness

    back = comes_back(game)
    if back is None:
        return None
    first, again = back
    loop, length = again - first, len(actions(game.steps))

    def tried(times: int) -> tuple[Played | None, int | None]:
        longer = played_again(game, first, again, times)
        return longer, None if longer is None else nearness(condition, longer, bound)

    far, times, met = nearness(condition, game, bound), 1, None
    while met is None and length + times * loop <= MOST_ACTIONS:
        longer, now = tried(times)
        if longer is None or now is None or (far is not None and now >= far and now):
            return None   # refused, or the repetition brings it no nearer
        met, far = (longer if now == 0 else None), now
        times *= 2 if met is None else 1
    low, high = times // 2, times   # low more times fall short (none: the game itself)
    while met is not None and high - low > 1:
        mid = (low + high) // 2
        longer, now = tried(mid)
        if longer is not None and now == 0:
            met, high = longer, mid
        else:
            low = mid
    if met is None or not meets(condition, met, bound):
        return None
    return replace(met, found_by=f"{game.found_by or 'a game'}, its {loop} actions between "
                   f"a position and its return (after actions {first + 1} and {again + 1}) "
                   f"played {high} more times")


def found_by_repeating(question: Question, players: int, rules: Rules, budget: float,
                       known: bool = True) -> tuple[Played | None, str]:
    """A game that meets a ``find:`` condition kept once met, made by playing the
    actions between a position and its return again (:func:`returning`)."""
    condition = question.condition
    assert condition is not None
    return returning(players, rules, budget, known,
                     lambda g: repeated_until(condition, question.bound, g),
                     "playing the actions between again does not meet the condition")


__all__ = ["AGAIN", "MOST_ACTIONS", "RETURN", "Unending", "found_by_repeating", "grows",
           "played_again", "repeated_until", "returning", "unending"]
