"""``mammamia conform -- COMMAND...`` and ``mammamia serve``.

Every option is checked, and every case is gathered, before the implementation starts:
a mistake costs one line and exit code 2, and a run that finds nothing to check is an
error (a verification never passes on nothing)."""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mammamia_ref.cli.args import (
    Commands,
    add_rules_options,
    game_rules,
    integer_seed,
    non_negative_number,
    player_count,
    random_game_count,
    request_timeout,
    run_budget,
)
from mammamia_ref.cli.style import paint
from mammamia_ref.errors import NoSuchPathError, UsageError

if TYPE_CHECKING:  # the kit, the scenario loader and the engine load when a command runs
    from mammamia_ref.formats.scenario import Run
    from mammamia_ref.kit.cases import CaseResult
    from mammamia_ref.kit.client import Implementation
    from mammamia_ref.kit.report import JsonlReport, Progress
    from mammamia_ref.kit.runner import ConformRun
    from mammamia_ref.rules.state import GameConfig


# The features of hello's answer (the protocol spoken): what ``--feature`` selects by.
HELLO_FEATURES = ("load_state", "events", "observation", "perft", "seats")


def add_parsers(commands: Commands) -> None:
    serve_parser = commands.add_parser(
        "serve", help="serve the reference over the porter protocol on stdin/stdout",
        description="Serve the reference over the porter protocol (docs/porting.md). It takes "
        "no --variant or --house: every new_game request carries its own rules (variants "
        "and, from protocol version 3, parameters: the numbers of the rules that differ "
        "from spec/cards.yaml), and a loaded state carries its own; a request without "
        "parameters is a game under the spec's numbers. hello lists every flag value and "
        "every parameter the reference takes.")
    serve_parser.set_defaults(handler=run_serve)
    conform = commands.add_parser(
        "conform", help="run an implementation through the scenarios, counting tables and "
        "random games", usage="mammamia conform [options] -- COMMAND [ARGS...]")
    _add_case_options(conform)
    _add_selection_options(conform)
    _add_run_options(conform)
    conform.add_argument("command", nargs=argparse.REMAINDER, help="the implementation")
    conform.set_defaults(handler=run_conform)


def _add_case_options(conform: argparse.ArgumentParser) -> None:
    """What ``conform`` runs: the scenarios, the counting tables, the random games."""
    conform.add_argument("--scenarios", action="append", metavar="PATH",
                         help="scenario files or folders (default: ./scenarios, else the "
                         "suite shipped with the package)")
    conform.add_argument("--perft", metavar="DIR", default=None,
                         help="counting tables (default: the perft folder of the (first) "
                         "scenario suite, if it has one)")
    conform.add_argument("--max-nodes", type=non_negative_number, default=20_000,
                         help="skip counting-table depths with more nodes than this")
    conform.add_argument("--perft-walk", action="store_true",
                         help="walk the counting trees with legal_actions and apply even if "
                         "the implementation counts itself (feature perft)")
    conform.add_argument("--follow-links", action="store_true",
                         help="read symbolic links that lead outside the scenario folders "
                              "(reported and not read by default)")
    conform.add_argument("--random-games", type=random_game_count, default=5, metavar="N",
                         help="random games per player count and ruling configuration "
                         "(0: none)")
    conform.add_argument("--players", type=player_count, action="append",
                         help="player counts for the random games (default: 2 to 5)")
    conform.add_argument("--seed", type=integer_seed, default=0,
                         help="the first random game's seed")
    add_rules_options(conform, "play the random games under this ruling (repeatable, once "
                      "per flag); --house plays the random games under a house rule (its "
                      "flags and numbers of the rules, sent in new_game), while the "
                      "scenarios' runs and the counting tables keep their own rules")
    conform.add_argument("--sweep-variants", action="store_true",
                         help="also play the random games under every other value of every "
                         "variant flag, one flag changed at a time")
    conform.add_argument("--write-divergences", metavar="DIR",
                         help="write a scenario reproducing each random-game divergence")


def _add_selection_options(conform: argparse.ArgumentParser) -> None:
    """Which of ``conform``'s cases run, and which are expected to fail."""
    conform.add_argument("--rule", action="append", help="only scenarios citing this rule")
    conform.add_argument("--id", action="append", dest="ids", help="only this scenario id")
    conform.add_argument("--feature", action="append", choices=HELLO_FEATURES,
                         help="only the cases that need this feature (a feature of hello's "
                         "answer: load_state, events, observation, perft, seats)")
    conform.add_argument("--from-setup", action="store_true",
                         help="only the scenarios that start from new_game, and the random "
                         "games (a port without load_state yet)")
    conform.add_argument("--expected-failures", metavar="FILE",
                         help="case names expected to fail, one per line")


def _add_run_options(conform: argparse.ArgumentParser) -> None:
    """How long ``conform`` waits, and what it writes."""
    conform.add_argument("--timeout", type=request_timeout, default=10.0,
                         help="the base allowance per request, in seconds: a counting (perft) "
                         "request gets one more per 2,000 nodes of its table; on Linux the "
                         "implementation's CPU time is what counts, so waiting for a CPU on a "
                         "busy machine is not held against it (a request that uses no CPU "
                         "for this long is hung)")
    conform.add_argument("--startup-timeout", type=request_timeout, default=30.0,
                         help="seconds for the implementation to start and shake hands")
    conform.add_argument("--budget", type=run_budget, default=1800.0,
                         help="seconds for the whole run (checked inside each case too)")
    conform.add_argument("--jsonl", metavar="FILE",
                         help="write one JSON record per case, as each case finishes")
    conform.add_argument("--junit", metavar="FILE", help="write JUnit XML at the end")
    conform.add_argument("--report", metavar="FILE",
                         help="write a conformance report at the end: the implementation, "
                         "results by chapter, each first divergence, the skips (Markdown; "
                         "HTML if FILE ends in .html; the run as data if it ends in .json)")
    conform.add_argument("--rules-site", metavar="URL",
                         help="link each rule and scenario of the --report to the rules site "
                         "at URL (its address, or the folder `mkdocs build` wrote)")
    conform.add_argument("-q", "--quiet", action="store_true",
                         help="only the summary (and a progress bar on a terminal)")


def run_serve(args: argparse.Namespace) -> int:
    """``mammamia serve``: answer the porter protocol on stdin/stdout."""
    from mammamia_ref.kit.protocol import serve

    if sys.stdin.isatty():  # a person at a terminal, not a conformance kit: say what to do
        print(serve_hello(), file=sys.stderr, flush=True)
    return serve()


def serve_hello() -> str:
    """What ``serve`` says on a terminal (on stderr: stdout carries only protocol
    answers): the version it speaks and where its schema lies in this installation."""
    from mammamia_ref.kit.versions import current
    from mammamia_ref.rules import specdata

    version = current()
    return (f"mammamia serve: waiting for {version.id} requests on standard input, one JSON "
            "object a line, each answered on standard output (start with "
            f'{{"id": 1, "op": "hello", "protocol": "{version.id}"}}). The protocol\'s '
            f"schema: {specdata.spec_path('schemas/' + version.schema)}; the porting guide: "
            "docs/porting.md in the source repository (the rules site's Porting guide). "
            "Ctrl-D ends it.")


@dataclass(frozen=True)
class Case:
    """One case of the plan, gathered before the implementation starts."""

    name: str
    kind: str
    body: Callable[..., CaseResult]   # called with the implementation
    rules: tuple[str, ...] = ()
    file: str | None = None


def _features(scenario_given: dict[str, Any], run: Run) -> set[str]:
    """The features of hello's answer a scenario run needs (or, for ``events``, checks)."""
    from mammamia_ref.formats.scenario import needs_observation, needs_seats

    needed = set() if "setup" in scenario_given else {"load_state"}
    if needs_observation(run):
        needed.add("observation")
    if needs_seats(run):
        needed.add("seats")
    if any("events" in step.expect or "events_exact" in step.expect for step in run.steps):
        needed.add("events")
    return needed


def ruling_configurations(base: dict[str, str], sweep: bool) -> list[dict[str, str]]:
    """The rulings the random games are played under: ``base`` and, with ``sweep``,
    every other value of every flag, one flag changed at a time."""
    from mammamia_ref.rules.state import variant_defaults, variant_values

    configurations, defaults = [base], variant_defaults()
    if sweep:
        for flag, values in variant_values().items():
            chosen = base.get(flag, defaults[flag])
            configurations += [{**base, flag: value} for value in values if value != chosen]
    return configurations


def plan(args: argparse.Namespace) -> tuple[list[Case], list[str], int]:
    """Every case of the run, the places looked in, and how many scenario files failed to
    load. Raises a one-line error for anything wrong with the options."""
    from mammamia_ref.formats.limits import CASES_MAX, bound_work, seed_span

    configs = random_configs(args)  # the cheapest checks first
    seed_span(args.seed, args.random_games)
    bound_work("conform: the random games", len(configs) * args.random_games, CASES_MAX,
               "give fewer --random-games or --players, or drop --sweep-variants")
    from mammamia_ref.formats.scenario import default_suite

    scenario_paths = args.scenarios or [str(default_suite())]
    missing = [p for p in scenario_paths if not Path(p).exists()]
    if missing:
        raise NoSuchPathError(missing)
    if args.perft and not Path(args.perft).is_dir():
        raise NoSuchPathError([args.perft])
    cases, load_errors = _scenario_cases(args, scenario_paths)
    looked = [f"scenarios in {', '.join(scenario_paths)}"]
    tables = not (args.ids or args.rule or args.from_setup) and \
        (not args.feature or {"load_state", "perft"} & set(args.feature))
    if tables:
        # the counting tables: --perft, else the perft folder of the (first) suite
        perft_dir = Path(args.perft) if args.perft else Path(scenario_paths[0]) / "perft"
        if perft_dir.is_dir():
            looked.append(f"counting tables in {perft_dir}")
            cases += _table_cases(args, perft_dir)
    if not (args.ids or args.rule or args.feature):
        cases += _random_cases(args, configs)
        looked.append(f"{args.random_games} random games per configuration")
    return cases, looked, load_errors


def _scenario_cases(args: argparse.Namespace, scenario_paths: list[str]) -> tuple[list[Case], int]:
    """A case for each run of each scenario that loads and that the options select, and
    how many scenario files failed to load (each told on stderr)."""
    from mammamia_ref.formats.scenario import load_all

    scenarios, errors = load_all(scenario_paths, follow_links=args.follow_links)
    for error in errors:
        print(f"error: {error}", file=sys.stderr)
    cases: list[Case] = []
    for scenario in scenarios:
        if args.ids and scenario.id not in args.ids:
            continue
        if args.rule and not set(args.rule) & set(scenario.rules):
            continue
        for scenario_run in scenario.runs:
            if args.feature and not _features(scenario.given, scenario_run) & set(args.feature):
                continue
            if args.from_setup and "setup" not in scenario.given:
                continue
            case_name = scenario.id if scenario_run.name == "default" else \
                f"{scenario.id}[{scenario_run.name}]"
            cases.append(Case(case_name, "scenario",
                              partial(_scenario_body, scenario=scenario, run=scenario_run),
                              scenario.rules, scenario.file))
    return cases, len(errors)


def _table_cases(args: argparse.Namespace, perft_dir: Path) -> list[Case]:
    """A case for each counting table in ``perft_dir``."""
    from mammamia_ref.formats.perft_table import load_perft_tables

    return [Case(table.id, "perft",
                 partial(_perft_body, table=table, max_nodes=args.max_nodes,
                         walk=args.perft_walk),
                 file=table.file)
            for table in load_perft_tables(perft_dir)]


def _random_cases(args: argparse.Namespace, configs: list[GameConfig]) -> list[Case]:
    """A case for each random game: ``--random-games`` seeds under each configuration."""
    divergences = Path(args.write_divergences) if args.write_divergences else None
    cases: list[Case] = []
    for config in configs:
        for game in range(args.random_games):
            seed = args.seed + game
            cases.append(Case(f"random-{config.players}p-seed{seed}", "random",
                              partial(_random_body, config=config, seed=seed,
                                      write_to=divergences, house=args.house)))
    return cases


def random_configs(args: argparse.Namespace) -> list[GameConfig]:
    """Every (player count, ruling) the random games cover, under ``--house`` and
    ``--variant``; unknown flags or values, and a bad house-rule file, are refused here,
    before any work. Without ``--players``, a house rule's games are played at the
    player counts its deck serves."""
    from mammamia_ref.rules.ruleset import make_rules, unserved
    from mammamia_ref.rules.state import make_config

    rules = game_rules(args)
    counts = args.players or [n for n in range(2, 6) if unserved(rules, n) is None]
    configs = []
    for variants in ruling_configurations(rules.non_default(), args.sweep_variants):
        for players in counts:
            configs.append(make_config(players, variants=make_rules(variants, base=rules)))
    return configs


def left_out(args: argparse.Namespace) -> list[str]:
    """The player counts a house rule's random games leave out (without ``--players``),
    each with why: the deck cannot serve that game."""
    from mammamia_ref.rules.ruleset import unserved

    if args.players or not args.house or not args.random_games or \
            args.ids or args.rule or args.feature:
        return []
    rules = game_rules(args)
    return [f"random games: {n} players left out: the deck cannot serve them ({why})"
            for n in range(2, 6) if (why := unserved(rules, n)) is not None]


def _scenario_body(impl: Any, *, scenario: Any, run: Run) -> CaseResult:
    from mammamia_ref.kit.cases import run_scenario_case

    return run_scenario_case(impl, scenario, run)


def _perft_body(impl: Any, *, table: Any, max_nodes: int, walk: bool) -> CaseResult:
    from mammamia_ref.kit.cases import run_perft_case

    return run_perft_case(impl, table, max_nodes, walk=walk)


def _random_body(impl: Any, *, config: GameConfig, seed: int,
                 write_to: Path | None, house: str | None = None) -> CaseResult:
    from mammamia_ref.kit.cases import run_random_game

    return run_random_game(impl, config, seed, write_to, house=house)


def run_conform(args: argparse.Namespace) -> int:
    command = [part for part in args.command if part != "--"] if args.command else []
    if not command:
        raise UsageError("name the implementation after --, e.g. "
                         "mammamia conform -- ./my-impl --serve", options=("COMMAND",))
    from mammamia_ref.formats.output import check_destination
    from mammamia_ref.formats.scenario import NoCasesError
    from mammamia_ref.kit.client import Implementation
    from mammamia_ref.kit.report import (
        UNEXPECTED,
        JsonlReport,
        Progress,
        load_expected_failures,
    )
    from mammamia_ref.kit.runner import ConformRun

    for destination in (args.jsonl, args.junit, args.report):
        if destination:
            check_destination(destination)
    expected = load_expected_failures(Path(args.expected_failures)) \
        if args.expected_failures else set()
    cases, looked, load_errors = plan(args)
    if not cases:
        raise NoCasesError(f"no case to run: looked for {'; '.join(looked)}")
    if not any(case.kind == "scenario" for case in cases):  # a mistyped folder, say
        print(f"mammamia: warning: no scenario to run: looked for {looked[0]}; the other "
              f"cases are run", file=sys.stderr)
    jsonl = JsonlReport(Path(args.jsonl)) if args.jsonl else None  # before the start
    impl = Implementation(command, timeout=args.timeout, startup_timeout=args.startup_timeout)
    deadline = time.monotonic() + args.budget  # the budget covers the first start too
    info = _start(impl, deadline, jsonl)
    if info is None:
        return 2
    run = ConformRun(impl, budget=max(0.0, deadline - time.monotonic()))
    progress = Progress(len(cases), sys.stderr) if args.quiet and sys.stderr.isatty() else None
    run.on_result = partial(_finished, expected=expected, jsonl=jsonl, progress=progress,
                            verbose=not args.quiet)
    _run_cases(run, cases, impl, jsonl, progress)
    write_outputs(args, run.results, info, interrupted=run.interrupted)
    if run.interrupted:  # the summary and the reports above cover the finished cases
        raise KeyboardInterrupt(f"after {len(run.results)} cases; "
                                f"{sum(r.status == 'pass' for r in run.results)} passed")
    return 1 if any(r.status in UNEXPECTED for r in run.results) or load_errors else 0


def _start(impl: Implementation, deadline: float,
           jsonl: JsonlReport | None) -> dict[str, Any] | None:
    """Start the implementation and shake hands: its hello, or None (told on stderr) if it
    did not start; the JSONL report is closed if it goes no further."""
    from mammamia_ref.kit.client import ImplementationError

    try:
        return impl.start(deadline)
    except ImplementationError as exc:
        if jsonl:
            jsonl.close()
        print(f"mammamia: error: the implementation did not start: {exc}", file=sys.stderr)
        return None
    except BaseException:
        impl.close()
        if jsonl:
            jsonl.close()
        raise


def _run_cases(run: ConformRun, cases: list[Case], impl: Implementation,
               jsonl: JsonlReport | None, progress: Progress | None) -> None:
    """Run every case, until the end or Ctrl-C (``run.interrupted``); then close the
    implementation and the reports written as the cases finish."""
    try:
        for case in cases:
            run.case(case.name, case.kind, partial(case.body, run.port), case.rules, case.file)
    except KeyboardInterrupt:
        run.interrupted = True
    finally:
        impl.close()
        if jsonl:
            jsonl.close()
        if progress:
            progress.close()


def write_outputs(args: argparse.Namespace, results: list[CaseResult], info: dict[str, Any],
                  *, interrupted: bool) -> None:
    """After the run: the house rule's lines, the summary, the JUnit XML and the report."""
    from mammamia_ref.kit.report import summary, write_junit

    name = implementation_name(info)
    if args.house:  # the output names the house rule the random games were played under
        print(f"random games: {game_rules(args).describe()} ({args.house})")
        for line in left_out(args):
            print(line)
    print(summary(results, implementation=name, interrupted=interrupted,
                  protocol=info.get("protocol")))
    if args.junit:
        write_junit(results, Path(args.junit), implementation=name)
    if args.report:
        from mammamia_ref.kit.port_report import run_document, write_report

        write_report(Path(args.report), run_document(results, info, replay_arguments(args)),
                     args.rules_site)


def implementation_name(info: dict[str, Any]) -> str:
    """The port as the summary names it, from its hello: its words made safe for a
    terminal and cut short (:func:`mammamia_ref.kit.words.plain`)."""
    from mammamia_ref.kit.words import plain

    return (f"{plain(info.get('name', '?'))} {plain(info.get('version', ''))} "
            f"({plain(info.get('language', '?'))})")


def replay_arguments(args: argparse.Namespace) -> list[str]:
    """The options that choose a run's cases, as given (the report names them, and a
    committed run is replayed with them); output files, timeouts and the command aside."""
    out: list[str] = []
    for flag, values in (("--scenarios", args.scenarios), ("--house", [args.house] if
                                                            args.house else None),
                         ("--rule", args.rule),
                         ("--id", args.ids), ("--feature", args.feature),
                         ("--players", args.players),
                         ("--variant", [f"{k}={v}" for k, v in args.variant])):
        for value in values or []:
            out += [flag, str(value)]
    if args.perft:
        out += ["--perft", args.perft]
    out += ["--max-nodes", str(args.max_nodes), "--random-games", str(args.random_games),
            "--seed", str(args.seed)]
    return out + (["--sweep-variants"] if args.sweep_variants else []) + \
        (["--perft-walk"] if args.perft_walk else []) + \
        (["--from-setup"] if args.from_setup else [])


def _finished(result: CaseResult, *, expected: set[str], jsonl: JsonlReport | None,
              progress: Progress | None, verbose: bool) -> None:
    """As each case finishes: its expected-failure status, its JSON line, its line or
    the progress bar."""
    from mammamia_ref.kit.report import apply_expected_failures

    apply_expected_failures([result], expected)
    if jsonl:
        jsonl.add(result)
    if progress:
        progress.add(result)
    if verbose:
        seconds = f"{result.seconds:.2f} s"
        mark = paint(f"{result.status.upper():5}", STATUS_COLOURS.get(result.status, "bold"))
        print(f"{mark} {result.kind} {result.name}  ({seconds})", flush=True)


# A case's status as ``scenario run`` colours PASS and FAIL (only on a terminal): what
# went as expected green, what must be looked at red, what was left aside yellow.
STATUS_COLOURS = {"pass": "green", "fail": "red", "error": "red", "xpass": "red",
                  "skip": "yellow", "xfail": "yellow"}
