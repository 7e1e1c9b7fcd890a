"""The ``mammamia`` command line: the parser of every command group, and the dispatch.

Each command group is one module of this package (``game``, ``register``, ``verify``,
``scenario``, ``conform``, ``bench``, ``perft``, ``simulate``, ``query``) that adds its
parsers and sets their handler. Bad arguments give one line on stderr and exit 2.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from mammamia_ref.cli import bench, conform, game, perft, query, register, scenario, simulate
from mammamia_ref.cli import verify as verify_command
from mammamia_ref.cli.args import OneLineParser
from mammamia_ref.errors import MammamiaError


def build_parser() -> argparse.ArgumentParser:
    parser = OneLineParser(prog="mammamia", description="The executable rulebook of Mamma Mia!")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=OneLineParser)
    game.add_parser(commands)
    register.add_parsers(commands)
    verify_command.add_parser(commands)
    scenario.add_parser(commands)
    conform.add_parsers(commands)
    bench.add_parser(commands)
    perft.add_parser(commands)
    simulate.add_simulate_parsers(commands)
    query.add_query_parser(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    try:
        args = build_parser().parse_args(argv)
        code: int = args.handler(args)
        return code
    except MammamiaError as exc:
        print(f"mammamia: error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # pragma: no cover - output piped into head
        return 0
    except KeyboardInterrupt as exc:
        # Ctrl-C: one line, no traceback; a command that knows what it had finished says
        # so in the exception (e.g. "after 37 of 99 scenario runs; 37 passed"). Report
        # files are written atomically, so each is complete or absent. 130 = 128 + SIGINT.
        print(f"mammamia: interrupted {exc}".rstrip(), file=sys.stderr)
        return 130


__all__ = ["build_parser", "main"]
