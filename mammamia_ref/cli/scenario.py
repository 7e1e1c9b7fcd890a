"""``mammamia scenario run|check|export``: what a designer runs to settle an argument
and what a porter runs to get the bundle."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from mammamia_ref.cli.args import Commands
from mammamia_ref.cli.style import paint
from mammamia_ref.errors import MalformedError, NoSuchPathError

if TYPE_CHECKING:  # the scenario loader (and jsonschema) loads when a command runs
    from mammamia_ref.formats.scenario import RunResult, Scenario
    from mammamia_ref.sim.rulings import Comparison


def add_parser(commands: Commands) -> None:
    scenario = commands.add_parser("scenario", help="check, run or export scenarios")
    actions = scenario.add_subparsers(dest="scenario_command", required=True,
                                      parser_class=type(scenario))
    run = actions.add_parser("run", help="run scenarios against the reference")
    run.add_argument("paths", nargs="*", metavar="PATH",
                     help="default: ./scenarios, else the suite shipped with the package")
    run.add_argument("--trace", action="store_true", help="print every step, event and rule")
    run.add_argument("--json", action="store_true", help="one JSON record per run")
    add_rulings_arguments(run)
    check = actions.add_parser("check", help="validate scenario files without running them")
    check.add_argument("paths", nargs="+", metavar="PATH",
                       help="scenario files or folders (folders are searched for *.yaml)")
    check.add_argument("--json", action="store_true", help="one JSON document")
    export = actions.add_parser("export", help="write every scenario as one JSON bundle")
    export.add_argument("paths", nargs="*", metavar="PATH",
                        help="default: ./scenarios, else the suite shipped with the package")
    export.add_argument("-o", "--output", help="file to write (default: stdout)")
    scenario.set_defaults(handler=run_scenario_command)


def run_scenario_command(args: argparse.Namespace) -> int:
    from mammamia_ref.formats.output import check_destination, write_atomically
    from mammamia_ref.formats.scenario import (
        default_suite,
        export_bundle,
        load_all,
        require_cases,
        run_one,
        scenario_files,
    )

    if not args.paths:  # `check` requires paths; run and export default to the suite
        args.paths = [str(default_suite())]
    missing = [p for p in args.paths if not Path(p).exists()]
    if missing:
        raise NoSuchPathError(missing)
    if args.scenario_command == "export" and args.output:
        check_destination(args.output)  # before the scenarios are loaded
    require_cases(len(list(scenario_files(args.paths))), args.paths)
    scenarios, errors = load_all(args.paths)
    if args.scenario_command == "check" and args.json:
        return print_check_json(scenarios, errors)
    for error in errors:
        print(f"error: {error}", file=sys.stderr)
    if args.scenario_command == "check":
        print(f"{len(scenarios)} scenario files valid, {len(errors)} invalid")
        return 1 if errors else 0
    if args.scenario_command == "run" and args.rulings:
        return run_rulings(scenarios, args)
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
            for run in scenario.runs:  # one at a time, so an interruption counts exactly
                result = run_one(scenario, run)
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
    from mammamia_ref.formats.narrate import step_lines

    mark = paint("PASS", "green") if result.passed else paint("FAIL", "red")
    print(f"{mark} {result.name}  ({result.file})")
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


# --- scenario check --json ------------------------------------------------------------


def print_check_json(scenarios: list[Scenario], errors: list[MalformedError]) -> int:
    """``scenario check --json``: the valid files and each invalid one's problem."""
    print(json.dumps({"valid": [{"scenario": s.id, "file": s.file} for s in scenarios],
                      "invalid": [{"error": str(e), "where": getattr(e, "where", None)}
                                  for e in errors]}, indent=1))
    return 1 if errors else 0


# --- scenario run --rulings: one scenario under every ruling of some disputes -----------


def add_rulings_arguments(run: argparse.ArgumentParser) -> None:
    run.add_argument("--rulings", nargs="+", metavar="DISPUTE",
                     help="replay under every ruling of these disputes (e.g. D4 D5) and show "
                          "where the outcomes part")
    run.add_argument("--run", dest="run_name", metavar="NAME",
                     help="with --rulings: the scenario's run to replay (default: its first)")


def run_rulings(scenarios: list[Scenario], args: argparse.Namespace) -> int:
    """Print each scenario's comparison; 0 whether or not the rulings part (a question,
    not a check), 1 only when a file did not load."""
    from mammamia_ref.sim.rulings import compare_rulings

    comparisons = [compare_rulings(s, args.rulings, args.run_name) for s in scenarios]
    if args.json:
        print(json.dumps([c.as_json() for c in comparisons], indent=1, ensure_ascii=False))
    else:
        for comparison in comparisons:
            print("\n".join(rulings_lines(comparison)))
    return 0


def rulings_lines(comparison: Comparison) -> list[str]:
    """The comparison as text: the rulings lettered, then each step, the diverging
    ones with every ruling's outcome (the lines every ruling shares left out)."""
    letters = [chr(ord("A") + i) for i in range(len(comparison.traces))]
    diverging = set(comparison.diverging_steps())
    out = [f"{comparison.title} ({comparison.file}, run {comparison.run}) under "
           f"{len(comparison.traces)} rulings of {', '.join(comparison.disputes)}:"]
    out += [f"  {letter}: {trace.label}" for letter, trace in zip(letters, comparison.traces,
                                                                    strict=True)]
    for i, (index, action) in enumerate(comparison.steps):
        if i not in diverging:
            outcome = comparison.traces[0].outcomes[i]
            same = outcome.text[0] if outcome else action
            out.append(f"step {index}: same under every ruling: {same}")
            continue
        out.append(f"step {index}: {paint('DIFFERS', 'yellow')} ({action})")
        outcomes = [trace.outcomes[i] for trace in comparison.traces]
        shared = set.intersection(*(set(o.text[1:]) for o in outcomes if o is not None)) \
            if all(o is not None for o in outcomes) else set()
        for letter, outcome in zip(letters, outcomes, strict=True):
            if outcome is None:
                out.append(f"  {letter}: (not played: the trace stopped earlier)")
                continue
            out.append(f"  {letter}: {outcome.text[0]}")
            own = [line for line in outcome.text[1:] if line not in shared]
            out += [f"       {line}" for line in own]
            left_out = len(outcome.text) - 1 - len(own)
            if left_out:
                out.append(f"       (and {left_out} line{'s' if left_out > 1 else ''} the "
                           "same under every ruling)")
    final = comparison.final_differences()
    out.append("after the last step the rulings differ in: " + ", ".join(final) if final
               else "after the last step the state is the same under every ruling")
    if not comparison.diverges:
        out.append("the outcome is the same under every ruling")
    return out
