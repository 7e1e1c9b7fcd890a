"""``mammamia simulate`` and ``mammamia compare``: many games per ruling, summarised.

Bad arguments (an unknown flag, value, policy or dispute, a player count out of range)
give one line on stderr and exit 2, before any game is played.
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mammamia_ref.cli.args import (
    Commands,
    add_rules_options,
    game_rules,
    integer_seed,
    job_count,
    parameter_values,
    player_count,
    positive_number,
)
from mammamia_ref.errors import UsageError

if TYPE_CHECKING:  # the simulator (and Dask, when asked for) loads when a command runs
    from mammamia_ref.sim.simulate import Executor


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--players", type=player_count, required=True, help="2 to 5")
    parser.add_argument("--games", type=positive_number, required=True, help="games per ruling")
    parser.add_argument("--seed", type=integer_seed, default=0,
                        help="the first game's seed (default 0)")
    add_rules_options(parser, "select a ruling (see `mammamia variants`); for compare, the "
                              "rulings of the other flags")
    parser.add_argument("--policy", action="append", default=[], metavar="NAME",
                        help="the policy of every seat, or give one per seat "
                             "(default: random, the benchmark policy)")
    parser.add_argument("--jobs", type=job_count, default=1, metavar="J",
                        help="worker processes (results do not depend on it)")
    parser.add_argument("--dask", metavar="ADDRESS",
                        help="run on a Dask distributed scheduler at ADDRESS "
                             "(tcp://host:8786), or 'local' for a local cluster of J workers")
    parser.add_argument("--json", action="store_true", help="print one JSON document")
    parser.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                        help="a progress bar on stderr (default: when stderr is a terminal)")


def add_simulate_parsers(subparsers: Commands) -> None:
    """Add ``simulate`` and ``compare`` to the ``mammamia`` subcommands."""
    sim = subparsers.add_parser("simulate", help="play many games and summarise them")
    _common(sim)
    sim.set_defaults(handler=run_simulate)

    cmp_ = subparsers.add_parser("compare", help="the same games under every ruling of "
                                 "a dispute, and the differences with their significance")
    cmp_.add_argument("disputes", nargs="*", metavar="DISPUTE",
                      help="dispute IDs (D4 ...); none: every dispute with a variant flag")
    cmp_.add_argument("--param", type=parameter_values, metavar="NAME=V1,V2,...",
                      help="compare values of a number of the rules instead of disputes "
                           "(e.g. hand_limit=6,7,8; see spec/cards.yaml parameters)")
    _common(cmp_)
    cmp_.add_argument("-o", "--output", metavar="FILE",
                      help="also write the whole sweep as JSON (written atomically)")
    cmp_.add_argument("--plots", metavar="DIR",
                      help="write one plot per dispute, DIR/D4.png ... (needs matplotlib)")
    cmp_.set_defaults(handler=run_compare)


def _executor(args: argparse.Namespace) -> Executor:
    from mammamia_ref.sim.simulate import Executor, dask_address

    return Executor(args.jobs, dask=None if args.dask is None else dask_address(args.dask))


def _progress(args: argparse.Namespace) -> bool:
    return sys.stderr.isatty() if args.progress is None else bool(args.progress)


def run_simulate(args: argparse.Namespace) -> int:
    from mammamia_ref.formats.limits import seed_span
    from mammamia_ref.sim.simulate import format_summary, simulate

    seed_span(args.seed, args.games)  # every game's seed is one a port can hold
    with _executor(args) as executor:
        summary = simulate(args.players, args.games, seed=args.seed,
                           variants=game_rules(args), policies=args.policy,
                           executor=executor, progress=_progress(args))
    if args.json:
        print(json.dumps(summary.as_json(), indent=1))
    else:
        print(format_summary(summary))
    return 0


def run_compare(args: argparse.Namespace) -> int:
    from mammamia_ref.formats.limits import seed_span
    from mammamia_ref.formats.output import check_destination, write_atomically
    from mammamia_ref.rules.state import make_config
    from mammamia_ref.sim import impact
    from mammamia_ref.sim.compare import format_comparison, parameter_rulings, rulings_of

    seed_span(args.seed, args.games)  # every game's seed is one a port can hold
    for dispute in args.disputes:
        rulings_of(dispute)  # an unknown dispute or variant: fail before playing anything
    rules = game_rules(args)
    if args.param is not None:
        if args.disputes:
            raise UsageError("give disputes or --param, not both", options=("--param",))
        name, values = args.param
        cells = parameter_rulings(name, values, rules)  # a bad name or value: fail here
        for _, cell in cells:
            make_config(args.players, variants=cell)  # numbers the deck cannot serve
    if args.output:
        check_destination(args.output)  # a typo in -o costs nothing: refused before the games
    if args.plots:
        try:
            import matplotlib  # noqa: F401  (only when plotting: not loaded at start-up)
        except ImportError:
            print("mammamia: error: --plots needs matplotlib (pip install 'mammamia[bench]')",
                  file=sys.stderr)
            return 2
    command = "mammamia " + " ".join(shlex.quote(a) for a in sys.argv[1:])

    def shown(doc: dict[str, Any]) -> None:
        if not args.json:
            print(format_comparison(doc), flush=True)
            print(flush=True)
        if args.plots:
            impact.plot_comparison(doc, Path(args.plots) / f"{doc['dispute']}.png")

    with _executor(args) as executor:
        doc = impact.sweep(args.disputes, args.players, args.games, seed=args.seed,
                           policies=args.policy or ("random",), base=rules,
                           executor=executor, progress=_progress(args), command=command,
                           plots=args.plots, on_dispute=shown, param=args.param)
    if args.output:
        write_atomically(args.output, json.dumps(doc, indent=1) + "\n")
    if args.json:
        print(json.dumps(doc, indent=1))
    else:
        print(f"{len(doc['disputes'])} disputes in {doc['wall_seconds']:,.1f} s")
    return 0

