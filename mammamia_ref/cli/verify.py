"""``mammamia verify``: check the spec, play games, run every scenario and the queries."""

from __future__ import annotations

import argparse

from mammamia_ref.cli.args import Commands
from mammamia_ref.tools.verify import run_verify


def add_parser(commands: Commands) -> None:
    verify = commands.add_parser("verify", help="check the spec, play games, run every scenario")
    verify.add_argument("--json", action="store_true")
    verify.add_argument("--scenarios", action="append", metavar="PATH",
                        help="scenario files or folders (default: ./scenarios, else the "
                        "suite shipped with the package)")
    verify.set_defaults(handler=run_verify_command)


def run_verify_command(args: argparse.Namespace) -> int:
    return run_verify(as_json=args.json, scenario_paths=args.scenarios)
