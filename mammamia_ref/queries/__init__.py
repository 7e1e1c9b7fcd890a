"""z3 queries about what the rules of Mamma Mia! make possible.

Four sub-packages, by what each module is, lowest first (each imports only those before
it; ``tests/test_layers.py`` holds the order):

- :mod:`.model`: the z3 models of the game (the rules as z3 terms, one opening, whole
  games turn by turn, one step from any state, the events and the scoring a run tells,
  its replay by the reference, the proofs for games of every length);
- :mod:`.language`: the question language (the question format, its variables, a
  condition judged on a reference game and encoded over a run of the game model);
- :mod:`.answering`: ``mammamia ask``, a question answered cell by cell (search,
  bounded model, unbounded proof, optima), its witnesses and Ctrl-C during z3 work;
- :mod:`.catalogue`: the questions of ``spec/queries.yaml``, one module per query, with
  their registry, runner, results, witness builders and plans, page and timings.

z3 is a test extra: only this package imports it, and nothing else in ``mammamia_ref``
imports this package at module level (``mammamia_ref.cli.query`` does so when a query
is run). This module imports nothing: each name is imported from its own module.
"""
