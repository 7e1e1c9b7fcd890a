"""z3 queries about what the rules of Mamma Mia! make possible.

z3 is a test extra: only this package imports it, and nothing else in ``mammamia_ref``
imports this package at module level (``mammamia_ref.cli.query`` does so when a query
is run).

- :mod:`.oven_rules`: the chapter *Opening the oven* as z3 terms, one function per rule
  (each docstring starts with the rule ID it states); :func:`.oven_rules.resolve_order`
  judges one revealed order.
- :mod:`.oven_model`: one opening of the oven with symbolic turns, hands and decisions.
- :mod:`.game_model`: a bounded unrolling of whole turns and rounds from the setup (the
  solver choosing every shuffle), and the one-step transition relation.
- :mod:`.decode`: a model's run as explicit shuffles and actions, replayed by the
  reference with its predictions checked at every turn and opening.
- :mod:`.proofs`: invariants by induction, termination by a ranking function, and the
  upper bounds of the "most" questions (cards a Bombastica takes, orders one opening
  bakes, turns one round lasts).
- :mod:`.construct` and :mod:`.plans`: witness games built by a plan, every action
  through the reference, where a z3 search of the whole game is out of reach.
- :mod:`.catalogue`: the questions of ``spec/queries.yaml``, one module per query, each
  registering its implementation in :mod:`.registry`; :mod:`.runner` answers them
  (:func:`run_catalogue`), with :mod:`.results` (verdicts and answers), the witness
  builders of :mod:`.builders` (z3 searches) and :mod:`.planned` (plans), and the helpers
  of :mod:`.common`.
- :mod:`.witness`: witness scenarios in our scenario format; :mod:`.docs` renders the
  queries page of the rules site.
- :mod:`.num`: the numbers of the encodings and the explicit z3 context every term is
  built in; :mod:`.flags`: the variant flags each z3 model follows (``models:`` in
  ``spec/disputes.yaml``); :mod:`.errors`: bad input to a query or a model.
- :mod:`.timing`: the benchmark's timings of the answers and the bounded model checker;
  :mod:`.interrupt`: Ctrl-C during z3 work (used by ``verify``, ``query run``, ``bench``).
"""

from mammamia_ref.queries.common import load_catalogue
from mammamia_ref.queries.docs import render_markdown, write_docs
from mammamia_ref.queries.results import Answer, QueryResult, Verdict
from mammamia_ref.queries.runner import answer_query, chosen_answers, run_catalogue, run_query
from mammamia_ref.queries.timing import BMC_PROPERTY, BmcResult, benchmark_queries, bmc_check

__all__ = ["BMC_PROPERTY", "Answer", "BmcResult", "QueryResult", "Verdict", "answer_query",
           "benchmark_queries", "bmc_check", "chosen_answers", "load_catalogue", "render_markdown",
           "run_catalogue", "run_query", "write_docs"]
