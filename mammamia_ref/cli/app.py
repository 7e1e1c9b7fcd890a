"""The ``mammamia`` command line: the parser of every command group, and the dispatch.

Each command group is one module of this package (``game``, ``register``, ``verify``,
``scenario``, ``conform``, ``bench``, ``perft``, ``simulate``, ``query``) that adds its
parsers and sets their handler. Bad arguments give one line on stderr and exit 2, with
a "did you mean" when a command, flag or variant value is near a known one.

Start-up is kept short (``mammamia --help`` and ``--version`` in well under a quarter of a
second): building the parser imports only the command modules, :mod:`.args` and
:mod:`mammamia_ref.errors`. Each command module imports what its work needs (the engines,
the kit, the scenario loader, jsonschema, the benchmarks...) inside its handler, so only
the command that runs pays for it; ``tests/test_startup.py`` holds this.
"""

from __future__ import annotations

import argparse
import re
import signal
import sys
import threading
from collections.abc import Sequence
from difflib import get_close_matches
from typing import Any, NoReturn

from mammamia_ref.cli import ask as ask_command
from mammamia_ref.cli import (
    bench,
    conform,
    examples,
    game,
    perft,
    query,
    register,
    scenario,
    simulate,
)
from mammamia_ref.cli import verify as verify_command
from mammamia_ref.cli.args import OneLineParser
from mammamia_ref.errors import MammamiaError, VariantError
from mammamia_ref.site.cli_page import EXAMPLES
from mammamia_ref.site.cli_page import commands as commands_of


def package_version() -> str:
    """The installed distribution's version (the package's own when not installed)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("mammamia")
    except PackageNotFoundError:  # pragma: no cover - run from a source tree
        from mammamia_ref import __version__

        return __version__


class VersionAction(argparse._VersionAction):
    """``--version``, with the installed version looked up (through
    :mod:`importlib.metadata`, tens of milliseconds) only when it is asked for, and on a
    second line the fast core in use (:func:`mammamia_ref.sim.compiled.core_line`)."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: Any, option_string: str | None = None) -> None:
        from mammamia_ref.sim.compiled import core_line  # no engine: files and hashes

        # two lines, as written (argparse's own printing would fill them into one)
        version = self.version or f"mammamia {package_version()}"
        parser._print_message(f"{version}\n{core_line()}\n", sys.stdout)
        parser.exit()


class SuggestingParser(OneLineParser):
    """A one-line error that names the nearest command or option when there is one."""

    argv: list[str] = []  # noqa: RUF012 - set on the root parser by :func:`main`

    def error(self, message: str) -> NoReturn:
        hint = suggestion(self, message, self.argv)
        super().error(message + (f"; did you mean {hint}?" if hint else ""))


def _subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def _deepest(parser: argparse.ArgumentParser, argv: Sequence[str]) -> argparse.ArgumentParser:
    """The (sub)command parser the words of ``argv`` lead to."""
    for word in argv:
        sub = _subcommands(parser).get(word)
        if sub is not None:
            parser = sub
    return parser


def suggestion(parser: argparse.ArgumentParser, message: str, argv: Sequence[str]) -> str | None:
    """The known word nearest the mistyped one in argparse's ``message``, if any."""
    choice = re.search(r"invalid choice: '([^']*)' \(choose from (.*)\)", message)
    if choice:
        known = re.findall(r"'([^']*)'", choice.group(2)) or \
            [c.strip() for c in choice.group(2).split(",")]
        near = get_close_matches(choice.group(1), known, n=1, cutoff=0.6)
        return near[0] if near else None
    unknown = re.search(r"unrecognized arguments: (.*)", message)
    if unknown:
        target = _deepest(parser, argv)
        options: list[str] = [o for a in target._actions for o in a.option_strings]
        for word in unknown.group(1).split():
            if word.startswith("-"):
                near = get_close_matches(word.split("=")[0], options, n=1, cutoff=0.6)
                if near:
                    return str(near[0])
    return None


def build_parser() -> argparse.ArgumentParser:
    parser = SuggestingParser(prog="mammamia", description="The executable rulebook of Mamma Mia!")
    parser.add_argument("--version", action=VersionAction)
    commands = parser.add_subparsers(dest="command", required=True, parser_class=SuggestingParser)
    game.add_parser(commands)
    register.add_parsers(commands)
    verify_command.add_parser(commands)
    scenario.add_parser(commands)
    conform.add_parsers(commands)
    examples.add_parsers(commands)
    bench.add_parser(commands)
    perft.add_parser(commands)
    simulate.add_simulate_parsers(commands)
    query.add_query_parser(commands)
    ask_command.add_parser(commands)
    for name, _, command in commands_of(parser):
        if isinstance(command, OneLineParser):
            command.example = EXAMPLES.get(name)
    parser.example = FIRST_COMMANDS
    return parser


FIRST_COMMANDS = "\n".join((
    "mammamia play --players 3 --seed 7                 # a seeded game, every rule ID named",
    "mammamia rules oven.minimale                       # one rule, its statement and sources",
    "mammamia disputes D4                               # where the editions disagree",
    "mammamia play --players 3 --seed 7 --house examples/house-rules/hand-of-eight.yaml",
    "mammamia compare --param hand_limit=6,7,8 --players 4 --games 2000",
    "mammamia ask examples/questions/largest-hand.yaml  # a designer's question",
    "mammamia verify                                    # the whole rulebook checked",
    "mammamia COMMAND --help                            # each command, with an example"))
"""The top-level ``--help``'s examples: the first commands a reader tries (README.md)."""


def check_variants(args: argparse.Namespace) -> None:
    """Every ``--variant NAME=VALUE`` names a flag and one of its values; a near miss is
    named (the register checks again when the game is made)."""
    from mammamia_ref.rules.state import variant_values

    values = variant_values()
    for flag, value in getattr(args, "variant", None) or []:
        if flag not in values:
            near = get_close_matches(flag, list(values), n=1)
            raise VariantError(f"unknown variant flag {flag!r}"
                               + (f"; did you mean {near[0]}?" if near else
                                  "; `mammamia variants` lists them"), flag=flag, value=value)
        if value not in values[flag]:
            near = get_close_matches(value, list(values[flag]), n=1, cutoff=0.5)
            raise VariantError(f"unknown value {value!r} for variant {flag!r}"
                               + (f"; did you mean {flag}={near[0]}?" if near else
                                  f"; expected one of {', '.join(values[flag])}"),
                               flag=flag, value=value)


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command. Its standard output goes through the output writer's guard, so
    that a full disk or a device error is one line (exit code 2), as for any file."""
    from mammamia_ref.formats.output import GuardedStream, silence

    words = list(sys.argv[1:] if argv is None else argv)
    stdout = sys.stdout
    sys.stdout = GuardedStream(stdout)
    terminated, previous = _on_sigterm()
    try:
        parser = build_parser()
        SuggestingParser.argv = words
        args: Any = parser.parse_args(words)
        check_variants(args)
        code: int = args.handler(args)
        sys.stdout.flush()  # the last of the output is written (or fails) here, not at exit
        return code
    except MammamiaError as exc:
        print(f"mammamia: error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # output piped into head: it has what it wanted
        silence(stdout)
        return 0
    except KeyboardInterrupt as exc:
        # Ctrl-C: one line, no traceback; a command that knows what it had finished says
        # so in the exception (e.g. "after 37 of 99 scenario runs; 37 passed"). Report
        # files are written atomically, so each is complete or absent. 130 = 128 + SIGINT.
        if terminated.is_set():  # 143 = 128 + SIGTERM
            print(f"mammamia: terminated (SIGTERM) {exc}".rstrip(), file=sys.stderr)
            return 143
        print(f"mammamia: interrupted {exc}".rstrip(), file=sys.stderr)
        return 130
    finally:
        sys.stdout = stdout
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)


def _on_sigterm() -> tuple[threading.Event, Any]:
    """SIGTERM is made a Ctrl-C (set in the returned event), so that the clean-up of
    every command runs for it too: worker pools and implementations are stopped, no
    report is half written. Workers reset it (:func:`mammamia_ref.sim.simulate
    .die_with_parent`). Returns the event and the handler it replaced."""
    terminated = threading.Event()
    if threading.current_thread() is not threading.main_thread():
        return terminated, None

    def handler(_signal: int, _frame: object) -> None:
        terminated.set()
        raise KeyboardInterrupt

    return terminated, signal.signal(signal.SIGTERM, handler)


__all__ = ["build_parser", "check_variants", "main", "package_version", "suggestion"]
