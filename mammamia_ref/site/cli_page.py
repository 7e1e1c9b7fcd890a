"""The command line page: the help of every command and subcommand of ``mammamia``.

The argument parser is handed in by the caller (the MkDocs hook builds it): the command
line is a higher layer than the site, so the site never imports it.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def _columns(width: int) -> Iterator[None]:
    """argparse wraps help to ``$COLUMNS``: fix it, so the page does not depend on the
    terminal the site was built in."""
    saved = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = str(width)
    try:
        yield
    finally:
        if saved is None:
            os.environ.pop("COLUMNS", None)
        else:
            os.environ["COLUMNS"] = saved


def _subparsers(parser: argparse.ArgumentParser) -> Iterator[tuple[str, argparse.ArgumentParser]]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            yield from action.choices.items()


def _help_sections(parser: argparse.ArgumentParser, name: str, depth: int) -> list[str]:
    """A command's help under a heading, then each subcommand's, one level deeper."""
    out = [f"{'#' * min(depth, 4)} `{name}`", "", "```text", parser.format_help().rstrip(),
           "```", ""]
    for sub_name, sub in _subparsers(parser):
        out += _help_sections(sub, f"{name} {sub_name}", depth + 1)
    return out


def cli_markdown(parser: argparse.ArgumentParser) -> str:
    """The help of every command and subcommand of ``parser``, 80 columns wide."""
    with _columns(80):
        return "\n".join(_help_sections(parser, parser.prog, 2))


def cli_page(parser: argparse.ArgumentParser | None) -> str:
    """The page; without a parser it says so, rather than the build failing on a link
    to a missing page (the tests of the built site look for the commands)."""
    head = ("# Command line\n\nGenerated from the `mammamia` argument parser "
            "(`mammamia_ref.cli.app.build_parser`).\n\n")
    if parser is None:
        return head + "*No argument parser was handed to the site generator.*\n"
    return head + cli_markdown(parser)
