"""``mammamia scenario run|check|export``: what a designer runs to settle an argument
and what a porter runs to get the bundle."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from mammamia_ref.cli.args import Commands, OneLineParser
from mammamia_ref.errors import NoSuchPathError
from mammamia_ref.formats.narrate import step_lines
from mammamia_ref.formats.output import check_destination, write_atomically
from mammamia_ref.formats.scenario import (
    RunResult,
    default_suite,
    export_bundle,
    load_all,
    require_cases,
    run_scenario,
    scenario_files,
)


def add_parser(commands: Commands) -> None:
    scenario = commands.add_parser("scenario", help="check, run or export scenarios")
    actions = scenario.add_subparsers(dest="scenario_command", required=True,
                                      parser_class=OneLineParser)
    run = actions.add_parser("run", help="run scenarios against the reference")
    run.add_argument("paths", nargs="*", metavar="PATH",
                     help="default: ./scenarios, else the suite shipped with the package")
    run.add_argument("--trace", action="store_true", help="print every step, event and rule")
    run.add_argument("--json", action="store_true", help="one JSON record per run")
    check = actions.add_parser("check", help="validate scenario files without running them")
    check.add_argument("paths", nargs="+", metavar="PATH")
    export = actions.add_parser("export", help="write every scenario as one JSON bundle")
    export.add_argument("paths", nargs="*", metavar="PATH",
                        help="default: ./scenarios, else the suite shipped with the package")
    export.add_argument("-o", "--output", help="file to write (default: stdout)")
    scenario.set_defaults(handler=run_scenario_command)


def run_scenario_command(args: argparse.Namespace) -> int:
    if not args.paths:  # `check` requires paths; run and export default to the suite
        args.paths = [str(default_suite())]
    missing = [p for p in args.paths if not Path(p).exists()]
    if missing:
        raise NoSuchPathError(missing)
    if args.scenario_command == "export" and args.output:
        check_destination(args.output)  # before the scenarios are loaded
    require_cases(len(list(scenario_files(args.paths))), args.paths)
    scenarios, errors = load_all(args.paths)
    for error in errors:
        print(f"error: {error}", file=sys.stderr)
    if args.scenario_command == "check":
        print(f"{len(scenarios)} scenario files valid, {len(errors)} invalid")
        return 1 if errors else 0
    if args.scenario_command == "export":
        bundle = json.dumps(export_bundle(scenarios), indent=1, ensure_ascii=False) + "\n"
        if args.output:
            write_atomically(Path(args.output), bundle)
            print(f"wrote {len(scenarios)} scenarios to {args.output}")
        else:
            sys.stdout.write(bundle)
        return 1 if errors else 0
    results: list[RunResult] = []
    try:
        for scenario in scenarios:
            for result in run_scenario(scenario):
                results.append(result)
                if args.json:
                    print(json.dumps({"scenario": result.scenario, "run": result.run,
                                      "file": result.file, "passed": result.passed,
                                      "step": result.step, "line": result.line,
                                      "failure": result.failure}))
                else:
                    print_result(result, trace=args.trace)
    except KeyboardInterrupt:
        total = sum(len(scenario.runs) for scenario in scenarios)
        raise KeyboardInterrupt(f"after {len(results)} of {total} scenario runs; "
                                f"{sum(r.passed for r in results)} passed") from None
    failed = sum(not r.passed for r in results)
    if not args.json:
        print(f"{len(results) - failed} passed, {failed} failed"
              + (f", {len(errors)} files invalid" if errors else ""))
    return 1 if failed or errors else 0


def print_result(result: RunResult, *, trace: bool) -> None:
    print(f"{'PASS' if result.passed else 'FAIL'} {result.name}  ({result.file})")
    if trace:
        for step in result.trace:
            lines = step_lines(step.action, step.events, step.actor, result.config)
            print(f"  step {step.index}: {lines[0]}")
            for line in lines[1:]:
                print(f"  {line}")
    if not result.passed:
        print(f"  diverged at step {result.step} ({result.file}:{result.line}):")
        for line in (result.failure or "").splitlines():
            print(f"    {line}")
