"""The one place that bounds a question's work before it starts (``mammamia ask``).

A question file asks for one answer a cell (a player count and a value of each flag
named), each cell a search and a z3 check within ``bound:`` (the rounds and turns a
condition is judged on, the games a search plays). All of that is known from the file
before anything is solved, so it is checked here, once, with the line of the file at
fault, against the caps below and against the rules the cells are played under:

- the cells, counted without building them (every flag's values and 2 to 5 players is
  524,288 cells): at most :data:`CELLS_MAX`;
- ``bound: {games: N}``: at most :data:`GAMES_MAX` (a search never plays more);
- ``bound: {turns: N}``: at most :data:`TURNS_MAX` (the z3 route goes through every
  schedule of the bound);
- ``bound: {rounds: N}``: at most the rounds of the game under the house rule in force
  (1 to 9 by ``spec/cards.yaml``, 3 by the spec's numbers);
- the player counts: each one the house rule's deck can serve.

:func:`work_problem` returns the first fault as (JSON pointer, message), so that the
question reader and ``ask --house`` (a house rule laid over the file's own) raise it as
their own error at the line of that pointer.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator, Mapping, Sequence
from typing import Protocol

from mammamia_ref.formats.house import HouseRule
from mammamia_ref.formats.limits import bound_work, excerpt
from mammamia_ref.formats.safeyaml import InputFileError
from mammamia_ref.formats.witness_files import witness_id
from mammamia_ref.rules.ruleset import make_rules, unserved

CELLS_MAX = 256
"""Cells of one question, and of one ``ask`` run, at most (at the default budget of
10 s a cell, 43 minutes of CPU)."""
GAMES_MAX = 100_000
"""``bound: {games: N}``: the most seeded games a search may be asked to play."""
TURNS_MAX = 1_000
"""``bound: {turns: N}``: the most turns a bound may reach (a whole game of the spec
takes about 60)."""


class QuestionWorkError(InputFileError):
    """A question whose work is beyond its caps or its rules: file and line."""


class Asked(Protocol):
    """What the bounds read of a checked question (``queries.language.questions.Question``)."""

    @property
    def id(self) -> str: ...
    @property
    def file(self) -> str: ...
    @property
    def players(self) -> tuple[int, ...]: ...
    @property
    def variants(self) -> Mapping[str, tuple[str, ...]]: ...
    @property
    def bound(self) -> Mapping[str, int]: ...
    @property
    def house(self) -> HouseRule | None: ...
    @property
    def lines(self) -> Mapping[str, int]: ...


def cell_count(players: Sequence[int], variants: Mapping[str, Sequence[str]]) -> int:
    """The cells of a question, counted without building them."""
    return len(players) * math.prod(len(values) for values in variants.values())


def work_problem(players: Sequence[int], variants: Mapping[str, Sequence[str]],
                 bound: Mapping[str, int], house: HouseRule | None, *,
                 rules_known: bool = True) -> tuple[str, str] | None:
    """The first reason a question cannot be answered as asked under ``house`` (the
    spec's rules when None), as (JSON pointer into the file, message), or None. Without
    ``rules_known`` (a file read before ``ask --house`` may lay a house rule over it)
    the rounds are left to the run's check."""
    cells = cell_count(players, variants)
    if cells > CELLS_MAX:
        flags = " x ".join(f"{len(v)} {flag}" for flag, v in sorted(variants.items()))
        return ("/variants" if variants else "/players",
                f"{cells:,} cells asked for ({len(players)} player counts"
                + (f" x {flags}" if flags else "") + f"), at most {CELLS_MAX:,}; ask "
                "about fewer flag values or player counts")
    if bound.get("games", 1) > GAMES_MAX:
        return "/bound/games", (f"bound games: {bound['games']:,}, at most {GAMES_MAX:,} "
                                "seeded games a search")
    if bound.get("turns", 1) > TURNS_MAX:
        return "/bound/turns", (f"bound turns: {bound['turns']:,}, at most {TURNS_MAX:,} "
                                "(a whole game takes about 60)")
    rules = house.rules if house is not None else make_rules()
    under = (f"under the house rule {house.name!r} ({house.file})" if house is not None
             else "under the spec's numbers")
    rounds = rules.parameters.rounds
    if rules_known and bound.get("rounds", 1) > rounds:
        return "/bound/rounds", (f"bound rounds: {bound['rounds']}, but a game has {rounds} "
                                 f"round{'s' if rounds > 1 else ''} {under}")
    for n in players:
        why = unserved(rules, n)
        if why is not None:
            return "/players", (f"players: {n}: the deck cannot serve {n} players {under}: "
                                f"{why}")
    return None


def bound_questions(questions: Sequence[Asked], house: HouseRule | None = None) -> int:
    """The cells of a run of ``ask`` (each question under ``house`` when one is given,
    else its own), every question checked by :func:`work_problem` and the total held to
    :data:`CELLS_MAX`, before any is answered; the first fault is one
    :class:`QuestionWorkError` at its file and line."""
    total = 0
    for question in questions:
        problem = work_problem(question.players, question.variants, question.bound,
                               house if house is not None else question.house)
        if problem is not None:
            pointer, message = problem
            raise QuestionWorkError(message, file=question.file,
                                    line=_line_of(question.lines, pointer))
        total += cell_count(question.players, question.variants)
    return bound_work("ask: the cells of the questions together", total, CELLS_MAX,
                      "ask fewer questions at once")


def witnesses(questions: Sequence[Asked]) -> Iterator[tuple[str, str]]:
    """Every witness file a run of ``ask`` may write, one a cell: (file stem, which
    answer it is), for :func:`.witness_files.plan_witnesses`."""
    for question in questions:
        flags = sorted(question.variants)
        several = math.prod(len(v) for v in question.variants.values()) > 1
        for values in itertools.product(*(question.variants[f] for f in flags)):
            cell = dict(zip(flags, values, strict=True))
            for n in question.players:
                shown = "".join(f", {flag}={value}" for flag, value in cell.items()) \
                    if several else ""
                yield (witness_id(question.id, n, cell, several),
                       f"question {excerpt(question.id)} ({question.file}), {n} players{shown}")


def _line_of(lines: Mapping[str, int], pointer: str) -> int | None:
    """The line of ``pointer``, or of its nearest ancestor that has one."""
    while pointer not in lines:
        if not pointer:
            return None
        pointer = pointer.rsplit("/", 1)[0]
    return lines[pointer]


__all__ = ["CELLS_MAX", "GAMES_MAX", "TURNS_MAX", "Asked", "QuestionWorkError",
           "bound_questions", "cell_count", "witnesses", "work_problem"]
