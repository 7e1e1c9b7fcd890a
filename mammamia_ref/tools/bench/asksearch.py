"""``mammamia ask``'s search, its games per CPU second: before (every seeded game played
and judged on the reference) and after (the seeded games played on the fast engine
with the reference's events, a candidate replayed on the reference:
:func:`mammamia_ref.queries.answering.searching.seeded_on_fast`), for a ``find:`` and a ``most:``
question. ``mammamia bench --cores both`` measures both routes on both fast cores.

A game counts once it is judged: on the reference, or on the fast engine. The ``find:``
question is one the search rarely meets, so that it runs its whole budget.
"""

from __future__ import annotations

import time
from typing import Any

from mammamia_ref.queries.language.questions import Question

FIND = Question(id="bench-stall-at-five", file="", goal="find", measure=None,
                title="Can a round end by the stall cut in a five-player game?",
                condition={"event": "round_ended", "rule": "round_end.stall"},
                players=(5,), variants={}, house=None, bound={})
MOST = Question(id="bench-most-one-opening", file="", goal="most", condition=None,
                title="The most orders one opening of the oven bakes (Q05)",
                measure="baked_one_opening", players=(5,), variants={}, house=None, bound={})
ROUTES = {"reference": False, "fast": True}
"""Each route: whether the search plays its seeded games on the fast engine."""


def search_rate(question: Question, on_fast: bool, budget: float) -> dict[str, Any]:
    """One search of ``question`` at its player count for ``budget`` CPU seconds: the
    games judged per CPU second, and what it found."""
    from mammamia_ref.queries.answering.searching import search
    from mammamia_ref.queries.language.judging import Played, meets
    from mammamia_ref.queries.language.measures import measure
    from mammamia_ref.rules.ruleset import make_rules

    condition, name = question.condition, question.measure or ""

    def judge(game: Played) -> float | None:
        if condition is not None:
            return float("inf") if meets(condition, game, question.bound) else None
        got = measure(name, game, question.goal)
        return None if got is None else float(got)

    start = time.process_time()
    best, played, score, screened = search(question, question.players[0], make_rules(), budget,
                                           judge, directed=question.goal != "find",
                                           on_fast=on_fast)
    cpu = time.process_time() - start
    games = played if question.goal == "find" else played + screened
    return {"games": games, "on_fast_engine": screened, "cpu_seconds": round(cpu, 3),
            "games_per_s": round(games / cpu, 1) if cpu > 0 else None,
            "found": None if best is None else (score if question.goal != "find" else True)}


def ask_search_figures(budget: float) -> dict[str, Any]:
    """Both questions, both routes: ``{find|most}_{route}_games_per_s`` and the details."""
    figures: dict[str, Any] = {}
    for label, question in (("find", FIND), ("most", MOST)):
        for route, on_fast in ROUTES.items():
            found = search_rate(question, on_fast, budget)
            figures[f"ask_{label}_{route}_games_per_s"] = found["games_per_s"]
            figures[f"ask_{label}_{route}"] = found
    return figures


__all__ = ["FIND", "MOST", "ROUTES", "ask_search_figures", "search_rate"]
