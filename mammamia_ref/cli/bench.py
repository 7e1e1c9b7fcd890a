"""``mammamia bench``: how fast the engines are, next to python-chess on the same
machine (the measures are :mod:`mammamia_ref.tools.bench`)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from mammamia_ref.cli.args import Commands, positive_number
from mammamia_ref.tools.bench import format_table, run_benchmarks, write_plots
from mammamia_ref.tools.bench.plots import plotting_available


def add_parser(subparsers: Commands) -> argparse.ArgumentParser:
    """Add ``bench`` to the ``mammamia`` subcommands (handler: :func:`run_bench_command`)."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "bench", help="measure the engines' speed, beside python-chess on the same machine")
    parser.add_argument("--json", action="store_true", help="print one JSON document")
    parser.add_argument("--quick", action="store_true",
                        help="small budgets and only the quick z3 queries (method rules): "
                             "rough figures")
    parser.add_argument("--jobs", type=positive_number, default=1, metavar="N",
                        help="also run the simulations and the counting in N processes and "
                             "report the scaling")
    parser.add_argument("--plots", metavar="DIR",
                        help="write the plots into DIR: bench-bmc.png (the model checker's "
                             "time per bound) and, with --jobs, bench-jobs.png (needs "
                             "matplotlib)")
    parser.set_defaults(handler=run_bench_command)
    return parser


def run_bench_command(args: argparse.Namespace) -> int:
    def progress(message: str) -> None:
        print(f"bench: {message}", file=sys.stderr, flush=True)

    if args.plots and not plotting_available():
        print("mammamia: error: --plots needs matplotlib (pip install -e '.[bench]')",
              file=sys.stderr)
        return 2
    results = run_benchmarks(quick=args.quick, jobs=args.jobs, progress=progress)
    if args.plots:
        results["plots"] = [str(path) for path in write_plots(results, args.plots)]
        for path in results["plots"]:
            progress(f"wrote {path}")
    if args.json:
        print(json.dumps(results, indent=2))
    else:
        print(format_table(results))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m mammamia_ref.tools.bench``: the same as ``mammamia bench``."""
    parser = argparse.ArgumentParser(prog="mammamia")
    add_parser(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(["bench", *(sys.argv[1:] if argv is None else argv)])
    code: int = args.handler(args)
    return code
