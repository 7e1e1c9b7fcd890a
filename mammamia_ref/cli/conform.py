"""``mammamia conform -- COMMAND...`` and ``mammamia serve``."""

from __future__ import annotations

import argparse
import sys
from functools import partial
from pathlib import Path
from typing import Any

from mammamia_ref.cli.args import Commands
from mammamia_ref.errors import UsageError
from mammamia_ref.formats.perft_table import load_perft_tables
from mammamia_ref.formats.scenario import Run, load_all, needs_observation
from mammamia_ref.kit.client import Implementation, ImplementationError
from mammamia_ref.kit.protocol import serve
from mammamia_ref.kit.report import (
    UNEXPECTED,
    apply_expected_failures,
    load_expected_failures,
    summary,
    write_jsonl,
    write_junit,
)
from mammamia_ref.kit.runner import (
    ConformRun,
    run_perft_case,
    run_random_game,
    run_scenario_case,
)
from mammamia_ref.rules.state import make_config


def add_parsers(commands: Commands) -> None:
    serve_parser = commands.add_parser("serve", help="serve the reference over the porter "
                                       "protocol on stdin/stdout")
    serve_parser.set_defaults(handler=lambda args: serve())
    conform = commands.add_parser(
        "conform", help="run an implementation through the scenarios, counting tables and "
        "random games", usage="mammamia conform [options] -- COMMAND [ARGS...]")
    conform.add_argument("--scenarios", action="append", metavar="PATH",
                         help="scenario files or folders (default: ./scenarios)")
    conform.add_argument("--perft", metavar="DIR", default=None,
                         help="counting tables (default: ./scenarios/perft if present)")
    conform.add_argument("--max-nodes", type=int, default=20_000,
                         help="skip counting-table depths with more nodes than this")
    conform.add_argument("--random-games", type=int, default=5, metavar="N",
                         help="random games per player count (0: none)")
    conform.add_argument("--players", type=int, action="append",
                         help="player counts for the random games (default: 2 to 5)")
    conform.add_argument("--seed", type=int, default=0, help="the first random game's seed")
    conform.add_argument("--write-divergences", metavar="DIR",
                         help="write a scenario reproducing each random-game divergence")
    conform.add_argument("--rule", action="append", help="only scenarios citing this rule")
    conform.add_argument("--id", action="append", dest="ids", help="only this scenario id")
    conform.add_argument("--feature", action="append",
                         help="only cases this feature needs (setup, load_state, variants, "
                         "observation)")
    conform.add_argument("--expected-failures", metavar="FILE",
                         help="case names expected to fail, one per line")
    conform.add_argument("--timeout", type=float, default=10.0, help="seconds per operation")
    conform.add_argument("--startup-timeout", type=float, default=30.0,
                         help="seconds for the implementation to start and shake hands")
    conform.add_argument("--budget", type=float, default=1800.0,
                         help="seconds for the whole run")
    conform.add_argument("--jsonl", metavar="FILE", help="write one JSON record per case")
    conform.add_argument("--junit", metavar="FILE", help="write JUnit XML")
    conform.add_argument("-q", "--quiet", action="store_true", help="only the summary")
    conform.add_argument("command", nargs=argparse.REMAINDER, help="the implementation")
    conform.set_defaults(handler=run_conform)


def _features(scenario_given: dict[str, Any], variants: dict[str, str],
              run: Run | None = None) -> set[str]:
    needed = {"setup"} if "setup" in scenario_given else {"load_state"}
    if variants:
        needed.add("variants")
    if run is not None and needs_observation(run):
        needed.add("observation")
    return needed


def run_conform(args: argparse.Namespace) -> int:
    command = [part for part in args.command if part != "--"] if args.command else []
    if not command:
        raise UsageError("name the implementation after --, e.g. "
                         "mammamia conform -- ./my-impl --serve", options=("COMMAND",))
    scenario_paths = args.scenarios or (["scenarios"] if Path("scenarios").exists() else [])
    scenarios, errors = load_all(scenario_paths)
    for error in errors:
        print(f"error: {error}", file=sys.stderr)
    expected = load_expected_failures(Path(args.expected_failures)) \
        if args.expected_failures else set()
    impl = Implementation(command, timeout=args.timeout, startup_timeout=args.startup_timeout)
    try:
        info = impl.start()
    except ImplementationError as exc:
        print(f"mammamia: error: the implementation did not start: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        impl.close()
        raise
    name = f"{info.get('name', '?')} {info.get('version', '')} ({info.get('language', '?')})"
    run = ConformRun(impl, budget=args.budget)
    if not args.quiet:
        run.on_result = lambda r: print(f"{r.status.upper():5} {r.kind} {r.name}", flush=True)
    try:
        for scenario in scenarios:
            if args.ids and scenario.id not in args.ids:
                continue
            if args.rule and not set(args.rule) & set(scenario.rules):
                continue
            for scenario_run in scenario.runs:
                if args.feature and not _features(scenario.given, scenario_run.variants,
                                                  scenario_run) & set(args.feature):
                    continue
                case_name = scenario.id if scenario_run.name == "default" else \
                    f"{scenario.id}[{scenario_run.name}]"
                run.case(case_name, "scenario",
                         partial(run_scenario_case, impl, scenario, scenario_run),
                         scenario.rules, scenario.file)
        if not (args.ids or args.rule or args.feature):
            perft_dir = Path(args.perft) if args.perft else Path("scenarios/perft")
            if perft_dir.exists():
                for table in load_perft_tables(perft_dir):
                    run.case(table.id, "perft",
                             partial(run_perft_case, impl, table, args.max_nodes),
                             file=table.file)
            divergences = Path(args.write_divergences) if args.write_divergences else None
            for players in args.players or range(2, 6):
                for game in range(args.random_games):
                    config = make_config(players)
                    seed = args.seed + game
                    run.case(f"random-{players}p-seed{seed}", "random",
                             partial(run_random_game, impl, config, seed, divergences))
    except KeyboardInterrupt:
        run.interrupted = True
    finally:
        impl.close()
    apply_expected_failures(run.results, expected)
    print(summary(run.results, implementation=name, interrupted=run.interrupted))
    if args.jsonl:
        write_jsonl(run.results, Path(args.jsonl))
    if args.junit:
        write_junit(run.results, Path(args.junit), implementation=name)
    if run.interrupted:  # the summary and the reports above cover the finished cases
        raise KeyboardInterrupt(f"after {len(run.results)} cases; "
                                f"{sum(r.status == 'pass' for r in run.results)} passed")
    return 1 if any(r.status in UNEXPECTED for r in run.results) or errors else 0
