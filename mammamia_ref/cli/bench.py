"""``mammamia bench``: how fast the engines are, next to python-chess on the same
machine (the measures are :mod:`mammamia_ref.tools.bench`); ``mammamia bench --loop``: the
everyday loop instead, start-up, verify, the site and the test suite, as whole-process
times (:mod:`mammamia_ref.tools.bench.loop`)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from mammamia_ref.cli.args import Commands, job_count

# The names of mammamia_ref.tools.bench.loop.MEASURES, in its order (a test holds the two
# equal): written out here because building the parser loads no benchmark module.
LOOP_MEASURES = ("startup", "verify", "site", "quick", "suite")


def loop_measures(text: str) -> tuple[str, ...]:
    """The argument type of ``--loop``: measure names, comma-separated (at least one)."""
    names = tuple(name.strip() for name in text.split(","))
    unknown = [name for name in names if name not in LOOP_MEASURES]
    if unknown:
        shown = ", ".join(repr(name[:40]) for name in unknown)
        raise argparse.ArgumentTypeError(
            f"unknown measure {shown}: expected one or more of {', '.join(LOOP_MEASURES)}, "
            "comma-separated")
    return tuple(dict.fromkeys(names))


def add_parser(subparsers: Commands) -> argparse.ArgumentParser:
    """Add ``bench`` to the ``mammamia`` subcommands (handler: :func:`run_bench_command`)."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "bench", help="measure the engines' speed, beside python-chess on the same machine")
    parser.add_argument("--json", action="store_true", help="print one JSON document")
    parser.add_argument("--quick", action="store_true",
                        help="small budgets and only the quick z3 queries (method rules): "
                             "rough figures")
    parser.add_argument("--jobs", type=job_count, default=1, metavar="N",
                        help="also run the simulations and the counting in N processes and "
                             "report the scaling")
    parser.add_argument("--plots", metavar="DIR",
                        help="write the plots into DIR: bench-bmc.png (the model checker's "
                             "time per bound) and, with --jobs, bench-jobs.png (needs "
                             "matplotlib)")
    parser.add_argument("--cores", choices=("current", "both"), default="current",
                        help="current (default): every measure on the fast core in use; "
                             "both: the pure-Python and the compiled fast core (python -m "
                             "mammamia_ref.tools.compile) side by side, in turn, three rounds "
                             "(random, careful and search players' games, perft, and ask's "
                             "search before and after it moved to the fast engine)")
    parser.add_argument("--loop", type=loop_measures, nargs="?", const=",".join(LOOP_MEASURES),
                        metavar="NAMES",
                        help="measure the everyday loop instead, as whole-process wall and "
                             "CPU times: NAMES, comma-separated, from "
                             f"{', '.join(LOOP_MEASURES)} (default: all); startup is "
                             "--version and --help, quick and suite run the test suite "
                             "(minutes); exit code 1 if a measured command failed")
    parser.set_defaults(handler=run_bench_command)
    return parser


def run_bench_command(args: argparse.Namespace) -> int:
    if args.loop is not None:
        return run_loop_command(args)
    if args.cores == "both":
        return run_cores_command(args)
    # the benchmarks load when the command runs, not when the parser is built
    from mammamia_ref.tools.bench import format_table, run_benchmarks, write_plots
    from mammamia_ref.tools.bench.plots import plotting_available

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


def run_cores_command(args: argparse.Namespace) -> int:
    """``mammamia bench --cores both``: the side-by-side table (or ``--json``)."""
    mixed = [option for option, given in (("--jobs", args.jobs > 1), ("--plots", args.plots))
             if given]
    if mixed:
        print(f"mammamia: error: argument --cores: not with {', '.join(mixed)}",
              file=sys.stderr)
        return 2
    from mammamia_ref.tools.bench.cores import compare_cores, format_cores

    def progress(message: str) -> None:
        print(f"bench: {message}", file=sys.stderr, flush=True)

    result = compare_cores(budget=0.3 if args.quick else 2.0, rounds=1 if args.quick else 3,
                           progress=progress)
    print(json.dumps(result, indent=2) if args.json else format_cores(result))
    return 0


def run_loop_command(args: argparse.Namespace) -> int:
    """``mammamia bench --loop``: the table (or ``--json``); 1 if a command failed or
    nothing could be measured."""
    mixed = [option for option, given in (("--quick", args.quick), ("--jobs", args.jobs > 1),
                                          ("--plots", args.plots),
                                          ("--cores both", args.cores == "both")) if given]
    if mixed:
        print(f"mammamia: error: argument --loop: not with {', '.join(mixed)} (for the "
              "engine measures only)", file=sys.stderr)
        return 2
    from mammamia_ref.tools.bench.loop import format_loop_table, run_loop

    def progress(message: str) -> None:
        print(f"bench: {message}", file=sys.stderr, flush=True)

    results = run_loop(args.loop, progress=progress)
    print(json.dumps(results, indent=2) if args.json else format_loop_table(results))
    return 0 if results["all_ok"] else 1


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m mammamia_ref.tools.bench``: the same as ``mammamia bench``."""
    parser = argparse.ArgumentParser(prog="mammamia")
    add_parser(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(["bench", *(sys.argv[1:] if argv is None else argv)])
    code: int = args.handler(args)
    return code
