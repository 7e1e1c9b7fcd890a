"""The query catalogue (``spec/queries.yaml``): each question answered by z3, once per
relevant variant value, and each witness replayed by the reference implementation.

Every query is answered by its question file (``method: question``: :mod:`.by_question`,
registered for its method in :mod:`.registry`, where a module of one query's own would
register under its ID; none is left). The results are in :mod:`.results`, the runner in
:mod:`.runner`, the helpers they share in :mod:`.common`.
:func:`run_catalogue` answers every query (or those named) and returns one
:class:`QueryResult` per query; importing this package registers every query.
"""

from __future__ import annotations

from mammamia_ref.queries.answering.witness import reference_replay
from mammamia_ref.queries.catalogue import (
           by_question,  # noqa: F401
)
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
]
