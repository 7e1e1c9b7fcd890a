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
    from mammamia_ref.rules.ruleset import Rules
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
    cmp_.add_argument("--param", type=parameter_values, action="append", metavar="NAME=V1,V2,...",
                      help="compare values of a number of the rules instead of disputes "
                           "(e.g. hand_limit=6,7,8; see `mammamia variants`); one number at "
                           "a time: set the others in a house file (--house)")
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


def one_parameter(given: list[tuple[str, tuple[int, ...]]] | None
                  ) -> tuple[str, tuple[int, ...]] | None:
    """The one parameter ``--param`` compares: the values of a name given twice are
    combined (said on stderr); two names are refused, with the way to compare one under
    another value of the other (a house file)."""
    if not given:
        return None
    names = list(dict.fromkeys(name for name, _ in given))
    if len(names) > 1:
        other, value = given[-1][0], given[-1][1][0]
        raise UsageError(
            f"compare takes one --param at a time, not {len(names)} ({', '.join(names)}): to "
            f"compare {names[0]} under {other}={value}, write `parameters: {{{other}: {value}}}` "
            f"in a house file and add --house FILE", options=("--param",))
    values = tuple(dict.fromkeys(v for _, vs in given for v in vs))
    if len(values) < 2:
        raise UsageError(f"--param {names[0]} needs two or more different values to compare "
                         "(NAME=V1,V2,...)", options=("--param",))
    if len(given) > 1:
        print(f"mammamia: --param {names[0]} given {len(given)} times: comparing "
              f"{names[0]}={','.join(map(str, values))}", file=sys.stderr)
    return names[0], values


def _done(doc: dict[str, Any], param: tuple[str, tuple[int, ...]] | None) -> str:
    """The last line of ``compare``: what was compared, in how long."""
    took = f"{doc['wall_seconds']:,.1f} s"
    if param is not None:
        return f"{param[0]}: {len(param[1])} values compared in {took}"
    count = len(doc["disputes"])
    return f"{count} dispute{'' if count == 1 else 's'} compared in {took}"


def _compare_rules(args: argparse.Namespace) -> Rules:
    """``compare``'s options checked before any game is played (the seeds, the disputes,
    ``--param`` and its values, the output's destination), and the rules the other flags
    give; ``args.param`` is made (name, values) or None."""
    from mammamia_ref.formats.limits import seed_span
    from mammamia_ref.formats.output import check_destination
    from mammamia_ref.rules.state import make_config
    from mammamia_ref.sim.compare import parameter_rulings, rulings_of

    seed_span(args.seed, args.games)  # every game's seed is one a port can hold
    for dispute in args.disputes:
        rulings_of(dispute)  # an unknown dispute or variant: fail before playing anything
    rules = game_rules(args)
    args.param = one_parameter(args.param)
    if args.param is not None:
        if args.disputes:
            raise UsageError("give disputes or --param, not both", options=("--param",))
        name, values = args.param
        cells = parameter_rulings(name, values, rules)  # a bad name or value: fail here
        for _, cell in cells:
            make_config(args.players, variants=cell)  # numbers the deck cannot serve
    if args.output:
        check_destination(args.output)  # a typo in -o costs nothing: refused before the games
    return rules


def _can_plot() -> bool:
    """Whether matplotlib is here for ``--plots`` (said on stderr if not)."""
    try:
        import matplotlib  # noqa: F401  (only when plotting: not loaded at start-up)
    except ImportError:
        print("mammamia: error: --plots needs matplotlib (pip install 'mammamia[bench]')",
              file=sys.stderr)
        return False
    return True


def run_compare(args: argparse.Namespace) -> int:
    from mammamia_ref.formats.output import write_atomically
    from mammamia_ref.sim import impact
    from mammamia_ref.sim.compare import format_comparison

    rules = _compare_rules(args)
    if args.plots and not _can_plot():
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
        print(_done(doc, args.param))
    return 0

