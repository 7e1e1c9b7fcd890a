"""``mammamia verify``: check the spec, play games, run every scenario and the queries.

On a terminal, the stage under way and the scenario runs done are shown on standard
error (one line, rewritten); piped or redirected, verify is quiet until its report."""

from __future__ import annotations

import argparse
import sys
import time
from typing import TextIO

from mammamia_ref.cli.args import Commands, house_file, job_count
from mammamia_ref.cli.style import paint


def add_parser(commands: Commands) -> None:
    verify = commands.add_parser("verify", help="check the spec, play games, run every scenario")
    verify.add_argument("--json", action="store_true", help="the report as one JSON document")
    verify.add_argument("--scenarios", action="append", metavar="PATH",
                        help="scenario files or folders (default: ./scenarios, else the "
                        "suite shipped with the package)")
    verify.add_argument("--jobs", type=job_count, metavar="J",
                        help="worker processes for the z3 queries (default: the usable CPUs)")
    verify.add_argument("--house", metavar="FILE", type=house_file,
                        help="also verify this house rule (docs/house-rules.md): games at "
                             "every player count it serves under every ruling laid over it, "
                             "and the z3 queries under it (those resting on the spec's "
                             "numbers are refused and listed)")
    verify.set_defaults(handler=run_verify_command)


class TerminalProgress:
    """The stage under way, on one line of ``stream`` rewritten in place; a finished
    stage keeps its line, with its time."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.stage: str | None = None
        self.started = time.perf_counter()

    def __call__(self, stage: str, done: int, total: int) -> None:
        if stage == "finished":
            self.close()
            return
        now = time.perf_counter()
        if stage != self.stage:
            if self.stage is not None:
                self.stream.write(f"\r\033[K{paint('done', 'green', self.stream)} "
                                  f"{self.stage} ({now - self.started:.1f} s)\n")
            self.stage, self.started = stage, now
        count = f" {done}/{total}" if total else ""
        self.stream.write(f"\r\033[K... {stage}{count}")
        self.stream.flush()

    def close(self) -> None:
        """Clear the line under way, so the report starts on a clean line."""
        if self.stage is not None:
            self.stream.write(f"\r\033[K{paint('done', 'green', self.stream)} {self.stage} "
                              f"({time.perf_counter() - self.started:.1f} s)\n")
            self.stream.flush()
        self.stage = None


def run_verify_command(args: argparse.Namespace) -> int:
    from mammamia_ref.tools.verify import run_verify  # not at start-up: it loads everything

    house = None
    if args.house:
        from mammamia_ref.formats.house import load_house

        house = load_house(args.house)   # a bad file: one line, before any work
    if not sys.stderr.isatty():
        return run_verify(as_json=args.json, scenario_paths=args.scenarios, jobs=args.jobs,
                          house=house)
    progress = TerminalProgress(sys.stderr)
    try:
        return run_verify(as_json=args.json, scenario_paths=args.scenarios, progress=progress,
                          jobs=args.jobs, house=house)
    finally:
        progress.close()
