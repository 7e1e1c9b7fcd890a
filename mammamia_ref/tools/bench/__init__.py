"""``mammamia bench``: how fast the engines are, next to python-chess on the same machine.

One run measures, each for a fixed time budget:

- complete games per second for 2 to 5 players under the benchmark policy
  (:func:`mammamia_ref.sim.policies.random_policy`), on the reference engine and on the fast
  one (:mod:`mammamia_ref.sim.fast`), and the decisions per second in those games;
- 4-player games per second of the simulation's game loop with the benchmark policy
  and with the careful one in every seat (the careful one also on the reference's
  state), and what a careful game costs in random games (:mod:`.players`);
- ``legal_actions`` calls per second and oven resolutions per second, on both engines,
  over states met in seeded games;
- counting-table (perft) nodes per second over the tables in ``scenarios/perft/``;
- the scenario suite (load and run every scenario under ``scenarios/``);
- the conformance protocol's throughput against ``python -m mammamia_ref serve``;
- each z3 query's solve time (every answer of ``spec/queries.yaml``; a quick run only
  the ``rules`` ones) and the bounded model checker's deepest bound within a time budget,
  with the time of every bound (:mod:`mammamia_ref.queries.catalogue.timing`);
- python-chess (``pip install -e '.[bench]'``): random-play moves per second and perft
  nodes per second from the initial position, so that our figures read as ratios.

Single-process rates are work per CPU second of the measuring process: on one core,
and not counting time the process waited for the CPU while other programs ran. With
``--jobs N`` the game simulation and the counting also run in N processes (seeds and
tables split deterministically: the same games whatever N) and the scaling is reported
against one process, in wall-clock time.

One module per concern: :mod:`.measure` (the timing loop), :mod:`.engines`, :mod:`.players`,
:mod:`.counting`, :mod:`.suite` (scenarios, conformance), :mod:`.queries` (z3),
:mod:`.chess`, :mod:`.scaling`, :mod:`.run` (the whole run), :mod:`.report` (goals,
table), :mod:`.plots`, and :mod:`.loop` (``--loop``: the everyday loop, start-up, verify,
the site and the test suite, as whole-process times, apart from the measures above); the
command is :mod:`mammamia_ref.cli.bench`.

>>> for goal in sorted(GOALS):
...     print(goal)
careful_game_cost
decisions_vs_chess_moves
fast_games_per_s_4p
jobs_efficiency
perft_vs_chess
"""

from mammamia_ref.tools.bench.counting import perft_tables
from mammamia_ref.tools.bench.loop import MEASURES as LOOP_MEASURES
from mammamia_ref.tools.bench.loop import format_loop_table, run_loop
from mammamia_ref.tools.bench.measure import PLAYER_COUNTS
from mammamia_ref.tools.bench.plots import write_bmc_plot, write_jobs_plot, write_plots
from mammamia_ref.tools.bench.queries import (
    QUICK_BMC_BUDGET,
    QUICK_QUERIES,
    model_checker_depth,
    query_times,
)
from mammamia_ref.tools.bench.report import GOALS, format_queries, format_table, goals
from mammamia_ref.tools.bench.run import run_benchmarks
from mammamia_ref.tools.bench.scaling import scaling

__all__ = ["GOALS", "LOOP_MEASURES", "PLAYER_COUNTS", "QUICK_BMC_BUDGET",
           "QUICK_QUERIES", "format_loop_table", "format_queries", "format_table",
           "goals", "model_checker_depth", "perft_tables", "query_times", "run_benchmarks",
           "run_loop", "scaling", "write_bmc_plot", "write_jobs_plot", "write_plots"]
