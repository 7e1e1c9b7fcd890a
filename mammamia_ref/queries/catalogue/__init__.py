"""The query catalogue (``spec/queries.yaml``): each question answered by z3, once per
relevant variant value, and each witness replayed by the reference implementation.

One module per query (``qNN_...``), each registering its implementation under the
query's ID (:mod:`.registry`), except the queries the question language states and
answers as the catalogue does (``method: question``: :mod:`.by_question`); the results
are in :mod:`.results`, the runner in :mod:`.runner`, the witness builders in
:mod:`.builders` and :mod:`.planned`, the helpers they share in :mod:`.common`.
:func:`run_catalogue` answers every query (or those named) and returns one
:class:`QueryResult` per query; importing this package registers every query.
"""

from __future__ import annotations

from mammamia_ref.queries.answering.witness import reference_replay
from mammamia_ref.queries.catalogue import (
           by_question,  # noqa: F401
           q05_most_pizzas_one_opening,  # noqa: F401
           q21_fewest_turns_all_orders,  # noqa: F401
           q24_longest_round,  # noqa: F401
)
from mammamia_ref.queries.catalogue.builders import search_game
from mammamia_ref.queries.catalogue.common import certificate, full_search, load_catalogue, recheck
from mammamia_ref.queries.catalogue.registry import IMPLEMENTATIONS
from mammamia_ref.queries.catalogue.results import ROOT, Answer, QueryResult, Verdict
from mammamia_ref.queries.catalogue.runner import (
           answer_query,
           chosen_answers,
           ruling_rules,
           run_catalogue,
           run_query,
)

__all__ = [
           "IMPLEMENTATIONS",
           "ROOT",
           "Answer",
           "QueryResult",
           "Verdict",
           "answer_query",
           "certificate",
           "chosen_answers",
           "full_search",
           "load_catalogue",
           "recheck",
           "reference_replay",
           "ruling_rules",
           "run_catalogue",
           "run_query",
           "search_game",
]
