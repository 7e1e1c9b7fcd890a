"""``mammamia scenario run|check|export``: what a designer runs to settle an argument
and what a porter runs to get the bundle."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mammamia_ref.cli.args import Commands, house_file
from mammamia_ref.cli.style import paint
from mammamia_ref.errors import MalformedError, NoSuchPathError

if TYPE_CHECKING:  # the scenario loader (and jsonschema) loads when a command runs
    from mammamia_ref.formats.scenario import Scenario
    from mammamia_ref.sim.rulings import Comparison
    from mammamia_ref.sim.scenario_run import RunResult


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
    run.add_argument("--house", metavar="FILE", type=house_file,
                     help="play every run under a house rule (docs/house-rules.md): its flag "
                          "values and numbers of the rules laid under the run's own (a run's "
                          "own values win)")
    check = actions.add_parser("check", help="validate scenario files without running them")
    check.add_argument("paths", nargs="+", metavar="PATH",
                       help="scenario files or folders (folders are searched for *.yaml)")
    check.add_argument("--json", action="store_true", help="one JSON document")
    export = actions.add_parser("export", help="write every scenario as one JSON bundle")
    export.add_argument("paths", nargs="*", metavar="PATH",
                        help="default: ./scenarios, else the suite shipped with the package")
    export.add_argument("-o", "--output", help="file to write (default: stdout)")
    for command in (run, check, export):
        command.add_argument("--follow-links", action="store_true",
                             help="read symbolic links that lead outside the folders "
                                  "searched (reported and not read by default)")
    scenario.set_defaults(handler=run_scenario_command)


def run_scenario_command(args: argparse.Namespace) -> int:
    scenarios, errors = load_scenarios(args)
    if args.scenario_command == "check" and args.json:
        return print_check_json(scenarios, errors)
    for error in errors:
        print(f"error: {error}", file=sys.stderr)
    if args.scenario_command == "check":
        print(f"{len(scenarios)} scenario files valid, {len(errors)} invalid")
        return 1 if errors else 0
    if args.scenario_command == "run" and args.rulings:
        return run_rulings(scenarios, args, len(errors))
    if args.scenario_command == "export":
        export_scenarios(scenarios, args.output)
        return 1 if errors else 0
    failed, ran = run_scenarios(scenarios, json_lines=args.json, trace=args.trace)
    if not args.json:
        print(f"{ran - failed} passed, {failed} failed"
              + (f", {len(errors)} files invalid" if errors else ""))
    return 1 if failed or errors else 0


def load_scenarios(args: argparse.Namespace) -> tuple[list[Scenario], list[MalformedError]]:
    """The scenarios of ``args.paths`` (default: the suite) that load, under ``--house``
    for ``run``, and an error for each that does not; a missing path, an export's bad
    destination or no scenario file at all is refused first."""
    from mammamia_ref.formats.output import check_destination
    from mammamia_ref.formats.scenario import (
        default_suite,
        found_files,
        load_all,
        require_cases,
    )

    if not args.paths:  # `check` requires paths; run and export default to the suite
        args.paths = [str(default_suite())]
    missing = [p for p in args.paths if not Path(p).exists()]
    if missing:
        raise NoSuchPathError(missing)
    if args.scenario_command == "export" and args.output:
        check_destination(args.output)  # before the scenarios are loaded
    found = list(found_files(args.paths, follow_links=args.follow_links))  # links reported
    require_cases(len(found), args.paths)
    scenarios, errors = load_all(args.paths, follow_links=args.follow_links)
    if args.scenario_command == "run" and args.house:
        scenarios = under_house(scenarios, args.house, quiet=args.json)
    return scenarios, errors


def export_scenarios(scenarios: list[Scenario], output: str | None) -> None:
    """``scenario export``: the scenarios as one JSON bundle, to ``output`` or stdout."""
    from mammamia_ref.formats.output import write_atomically
    from mammamia_ref.formats.scenario import export_bundle

    bundle = json.dumps(export_bundle(scenarios), indent=1, ensure_ascii=False) + "\n"
    if output:
        write_atomically(Path(output), bundle)
        print(f"wrote {len(scenarios)} scenarios to {output}")
    else:
        sys.stdout.write(bundle)


def run_scenarios(scenarios: list[Scenario], *, json_lines: bool,
                  trace: bool) -> tuple[int, int]:
    """``scenario run``: every run of every scenario, each told as it ends (a JSON line,
    or a line and with ``trace`` its steps); how many failed, of how many run. Ctrl-C
    stops with the count so far."""
    from mammamia_ref.sim.scenario_run import run_one

    results: list[RunResult] = []
    try:
        for scenario in scenarios:
            for run in scenario.runs:  # one at a time, so an interruption counts exactly
                result = run_one(scenario, run)
                results.append(result)
                if json_lines:
                    print(json.dumps({"scenario": result.scenario, "run": result.run,
                                      "file": result.file, "passed": result.passed,
                                      "step": result.step, "line": result.line,
                                      "failure": result.failure}))
                else:
                    print_result(result, trace=trace)
    except KeyboardInterrupt:
        total = sum(len(scenario.runs) for scenario in scenarios)
        raise KeyboardInterrupt(f"after {len(results)} of {total} scenario runs; "
                                f"{sum(r.passed for r in results)} passed") from None
    return sum(not r.passed for r in results), len(results)


def under_house(scenarios: list[Scenario], path: str, *, quiet: bool) -> list[Scenario]:
    """The scenarios with every run under the house rule of ``path`` (a bad file is one
    error before any run); the output names the house rule unless it is JSON."""
    from mammamia_ref.formats.house import load_house
    from mammamia_ref.formats.scenario import with_rules_under

    house = load_house(path)
    if not quiet:
        print(f"every run under {house.rules.describe()} ({house.file}), the run's own "
              "values over it")
    return [with_rules_under(scenario, house.rules) for scenario in scenarios]


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
        where = f"{result.file}:{result.line}" if result.line else result.file
        print(f"  diverged at step {result.step} ({where}):")
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


def run_rulings(scenarios: list[Scenario], args: argparse.Namespace, load_errors: int) -> int:
    """Print each scenario's comparison; 0 whether or not the rulings part (a question,
    not a check), 1 when a file did not load. The replays are counted and bounded
    before the first starts."""
    from mammamia_ref.formats.limits import REPLAYS_MAX, bound_work
    from mammamia_ref.sim.rulings import compare_rulings, dispute_flags, ruling_count

    per_scenario = ruling_count(dispute_flags(args.rulings))
    bound_work("--rulings: the replays (rulings times scenarios)",
               per_scenario * len(scenarios), REPLAYS_MAX,
               "name fewer disputes or fewer scenario files")
    comparisons = [compare_rulings(s, args.rulings, args.run_name) for s in scenarios]
    if args.json:
        print(json.dumps([c.as_json() for c in comparisons], indent=1, ensure_ascii=False))
    else:
        for comparison in comparisons:
            print("\n".join(rulings_lines(comparison)))
    return 1 if load_errors or not scenarios else 0


def letter(position: int) -> str:
    """The column letter of the ruling at ``position``: A to Z, then AA, AB...

    >>> [letter(0), letter(25), letter(26), letter(63)]
    ['A', 'Z', 'AA', 'BL']
    """
    return letter(position // 26 - 1) + chr(ord("A") + position % 26) if position >= 26 \
        else chr(ord("A") + position)


def rulings_lines(comparison: Comparison) -> list[str]:
    """The comparison as text: the rulings lettered, then each step, the diverging
    ones with every ruling's outcome (the lines every ruling shares left out); a ruling
    that refused an earlier action is "not reached"; the closing line says what differs
    at the end, or that nothing does."""
    letters = [letter(i) for i in range(len(comparison.traces))]
    diverging = set(comparison.diverging_steps())
    out = [f"{comparison.title} ({comparison.file}, run {comparison.run}) under "
           f"{len(comparison.traces)} rulings of {', '.join(comparison.disputes)}:"]
    out += [f"  {mark}: {trace.label}" for mark, trace in zip(letters, comparison.traces,
                                                                strict=True)]
    for i, (index, action) in enumerate(comparison.steps):
        outcomes = [trace.outcomes[i] for trace in comparison.traces]
        gone = [mark for mark, o in zip(letters, outcomes, strict=True) if o is None]
        if i not in diverging:
            played = next((o for o in outcomes if o is not None), None)
            same = played.text[0] if played else action
            where = f"every ruling still in play ({', '.join(gone)}: not reached)" if gone \
                else "every ruling"
            out.append(f"step {index}: same under {where}: {same}")
            continue
        out.append(f"step {index}: {paint('DIFFERS', 'yellow')} ({action})")
        live = [o for o in outcomes if o is not None]
        shared = set.intersection(*(set(o.text[1:]) for o in live)) if live else set()
        for mark, outcome in zip(letters, outcomes, strict=True):
            if outcome is None:
                out.append(f"  {mark}: not reached")
                continue
            out.append(f"  {mark}: {outcome.text[0]}")
            own = [line for line in outcome.text[1:] if line not in shared]
            out += [f"       {line}" for line in own]
            left_out = len(outcome.text) - 1 - len(own)
            if left_out:
                out.append(f"       (and {left_out} line{'s' if left_out > 1 else ''} the "
                           "same under every ruling)")
    out += closing_lines(comparison, letters)
    return out


def closing_lines(comparison: Comparison, letters: list[str]) -> list[str]:
    """What differs after the last step, in the designer's terms: the result (who won,
    by which rule), the cards, what each player sees; or that nothing does."""
    stopped = comparison.not_reaching_the_end()
    unreached = (f"; {', '.join(letters[i] for i in stopped)} "
                 f"{'does' if len(stopped) == 1 else 'do'} not reach the end (an action "
                 "was refused)") if stopped else ""
    if len(stopped) == len(comparison.traces):
        return ["after the last step: no ruling reaches the end (an action was refused "
                "under each)"]
    differs = comparison.final_differences()
    if not differs:
        same = ("after the last step nothing differs: the same result, cards and what each "
                "player sees under every ruling" + (" that reaches it" if stopped else ""))
        out = [same + unreached]
        if not comparison.diverges and not stopped:
            out.append("the outcome is the same under every ruling")
        return out
    views = [k for k in differs if k.startswith("what ")]
    cards = [k for k in differs if k != "result" and k not in views]
    parts = []
    if "result" in differs:
        parts.append("the result (" + "; ".join(
            f"{mark}: {_result_text(trace.final)}" for mark, trace in
            zip(letters, comparison.traces, strict=True) if trace.final is not None) + ")")
    if cards:
        parts.append(f"the cards and the position ({', '.join(cards)})")
    if views:
        seers = [view.removeprefix("what ").removesuffix(" sees") for view in views]
        parts.append(f"what the players see ({', '.join(seers)})")
    return ["after the last step the rulings differ in: " + ", ".join(parts) + unreached]


def _result_text(final: dict[str, Any] | None) -> str:
    """Who won a finished game and by which rule, or that it goes on."""
    result = (final or {}).get("result")
    if not isinstance(result, dict):
        return "the game goes on"
    winners = result.get("winners") or []
    who = " and ".join(str(w) for w in winners) or "nobody"
    return f"{who} {'wins' if len(winners) == 1 else 'win'} ({result.get('rule')})"
