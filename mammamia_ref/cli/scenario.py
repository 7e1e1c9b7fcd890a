"""``mammamia scenario run|check|export``: what a designer runs to settle an argument
and what a porter runs to get the bundle."""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path

from mammamia_ref.errors import MammamiaError
from mammamia_ref.formats.narrate import step_lines
from mammamia_ref.formats.scenario import RunResult, export_bundle, load_all, run_scenario


def run_scenario_command(args: argparse.Namespace) -> int:
    missing = [p for p in args.paths if not Path(p).exists()]
    if missing:
        raise MammamiaError(f"no such file or folder: {', '.join(missing)}")
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


def write_atomically(path: Path, text: str) -> None:
    """Write through a temporary file and a rename: never half a file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
