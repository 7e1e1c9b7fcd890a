"""What ``mammamia bench`` times in the z3 package: every answer of the query catalogue,
and a bounded model check of one fixed property at a chosen number of unrolled turns.

The bench needs zero-argument callables it can time one by one, and a model check
whose size it can raise step by step, to show how solving time grows with the bound.
Both run the package's own code paths: :func:`benchmark_queries` calls
:func:`.answer_query` (which solves, builds the witness and replays it in the
reference) without writing any file; :func:`bmc_check` unrolls :class:`.GameModel`, the
encoding the ``game`` queries search.

The property the model checker checks (:data:`BMC_PROPERTY`) is Q09's hand limit,
bounded: from the setup of a two-player game (default variants), in every position of
the first round's first ``bound`` turns in which a player is still to move, no hand
holds more than seven cards (:func:`..model.proofs.hand_limit`). Q09 itself proves it for
games of every length by induction; the bounded check is the brute-force
counterpart, and its cost, which grows steeply with the bound, is why Q09 is answered
by induction.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Collection
from dataclasses import dataclass

import z3

from mammamia_ref.queries.catalogue.common import load_catalogue
from mammamia_ref.queries.catalogue.results import Answer
from mammamia_ref.queries.catalogue.runner import answer_query, chosen_answers
from mammamia_ref.queries.model import num as N
from mammamia_ref.queries.model.errors import ModelBoundError
from mammamia_ref.queries.model.game_model import GameModel
from mammamia_ref.queries.model.proofs import hand_limit

BMC_PLAYERS = 2
BMC_PROPERTY = ("Q09 bounded: from the setup of a 2-player game (default variants), no "
                "hand holds more than 7 cards in any position of the first round's first "
                "`bound` turns in which a player is still to move")


def benchmark_queries(include_slow: bool = False, *,
                      only: Collection[str] | None = None
                      ) -> list[tuple[str, Callable[[], Answer]]]:
    """One ``("<query ID>/<answer name>", callable)`` pair per catalogue answer, in
    catalogue order; without ``include_slow`` the answers marked ``slow`` are left out,
    and with ``only`` those of the queries named there (by ID, or by the catalogue's
    ``method``). Each callable
    answers its question as ``mammamia query run`` does (z3, then the witness replayed
    by the reference) and returns the :class:`.Answer`, whose ``seconds`` and
    ``cpu`` cover all of it; no witness file is written.

    >>> names = [name for name, _ in benchmark_queries(True)]
    >>> names[0]
    'Q01-minimale-impossible/eligible_kinds'
    >>> len(benchmark_queries(only=["Q24-longest-round"])) < len(benchmark_queries()) <= len(names)
    True
    """
    items: list[tuple[str, Callable[[], Answer]]] = []
    for query in load_catalogue():
        if only is not None and query["id"] not in only and query["method"] not in only:
            continue
        for answer in chosen_answers(query, include_slow=include_slow):
            run = functools.partial(answer_query, query, answer, write=False)
            items.append((f"{query['id']}/{answer['name']}", run))
    return items


@dataclass(frozen=True)
class BmcResult:
    """One bounded check: ``verdict`` is z3's answer to "can the property be broken
    within ``bound`` turns?" (``unsat``: it holds up to the bound; ``unknown``: z3 ran
    out of time)."""

    bound: int
    verdict: str
    steps: int             # unrolled steps (turns) in the model
    assertions: int        # top-level constraints handed to z3
    build_seconds: float   # building the unrolling
    solve_seconds: float   # z3's check

    @property
    def holds(self) -> bool:
        return self.verdict == "unsat"

    @property
    def seconds(self) -> float:
        return self.build_seconds + self.solve_seconds

    def __str__(self) -> str:
        meaning = {"unsat": "holds", "sat": "broken", "unknown": "undecided"}[self.verdict]
        return f"bound {self.bound}: {self.verdict} ({meaning})"


def bmc_check(bound: int, *, timeout: float | None = None) -> BmcResult:
    """Check :data:`BMC_PROPERTY` with ``bound`` turns unrolled, in a z3 context of its
    own (so that earlier checks do not steer this one); ``timeout`` in seconds makes z3
    give up with ``unknown``.

    >>> result = bmc_check(1)
    >>> result.verdict, result.holds, result.steps
    ('unsat', True, 1)
    """
    if bound < 1:
        raise ModelBoundError("the model checker unrolls at least one turn", value=bound)
    with N.building():
        started = time.perf_counter()
        model = GameModel(BMC_PLAYERS, {}, schedule=(bound,), open_last=True, name="bmc")
        # the setup, then the position after each turn (with open_last no turn ends the round)
        states = [model.S[0]] + [model.S[step.after] for step in model.of("turn")]
        broken = N.Or(*[z3.Not(N.And(*hand_limit(model, state))) for state in states])
        solver = model.solver()
        solver.add(broken)
        if timeout is not None:
            solver.set("timeout", max(1, int(timeout * 1000)))
        built = time.perf_counter()
        result = solver.check()
        solved = time.perf_counter()
        return BmcResult(bound, str(result), len(model.of("turn")), len(solver.assertions()),
                         round(built - started, 4), round(solved - built, 4))


__all__ = ["BMC_PLAYERS", "BMC_PROPERTY", "BmcResult", "benchmark_queries", "bmc_check"]
