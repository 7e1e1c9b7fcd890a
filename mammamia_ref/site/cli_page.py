"""The command line reference: a section per command of ``mammamia``, each with what it
does, its usage, its options as a table and an example to copy.

The argument parser is handed in by the caller (the MkDocs hook builds it): the command
line is a higher layer than the site, so the site never imports it. The examples are
written here, one per command; a command without one is listed by :func:`missing_examples`
(the tests fail on it), so a new command cannot reach the site undocumented.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Iterator
from contextlib import contextmanager

from mammamia_ref.site.text import md

# One example per command: what a designer or a porter would type first.
EXAMPLES: dict[str, str] = {
    "mammamia": "mammamia --version",
    "mammamia play": "mammamia play --players 3 --seed 7 --variant refill=as_many_as_played",
    "mammamia rules": "mammamia rules oven.minimale",
    "mammamia disputes": "mammamia disputes D4 --json",
    "mammamia variants": "mammamia variants",
    "mammamia examples": "mammamia examples examples",
    "mammamia verify": "mammamia verify --json > verify.json",
    "mammamia scenario": "mammamia scenario run scenarios/oven",
    "mammamia scenario run":
        "mammamia scenario run scenarios/oven/minimale-personal-lowest.yaml --rulings D4",
    "mammamia scenario check": "mammamia scenario check scenarios --json",
    "mammamia scenario export": "mammamia scenario export -o scenarios.json",
    "mammamia serve": ("echo '{\"id\": 1, \"op\": \"hello\", "
                       "\"protocol\": \"mammamia-protocol/3\"}' | mammamia serve"),
    "mammamia conform": "mammamia conform --random-games 10 -- python my_port.py",
    "mammamia bench": "mammamia bench --quick",
    "mammamia perft": "mammamia perft --players 2 --seed 1 --depth 3",
    "mammamia simulate": "mammamia simulate --players 4 --games 1000 --variant stall=letter",
    "mammamia compare": "mammamia compare --players 4 --games 1000 D3",
    "mammamia query": "mammamia query list",
    "mammamia ask": "mammamia ask spec/questions/new-no-pizza-bakes.yaml --budget 5",
    "mammamia query list": "mammamia query list --json",
    "mammamia query run": "mammamia query run Q01-minimale-impossible",
    "mammamia query docs": "mammamia query docs -o queries.md",
}


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


def _helps(parser: argparse.ArgumentParser) -> dict[str, str]:
    """Each subcommand's one-line help, as given to ``add_parser``."""
    found: dict[str, str] = {}
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for choice in action._choices_actions:
                found[choice.dest] = choice.help or ""
    return found


def commands(parser: argparse.ArgumentParser, name: str | None = None,
             help_text: str = "") -> Iterator[tuple[str, str, argparse.ArgumentParser]]:
    """Every command and subcommand: (full name, one-line help, parser), depth first."""
    name = name or parser.prog
    yield name, help_text or parser.description or "", parser
    helps = _helps(parser)
    for sub_name, sub in _subparsers(parser):
        yield from commands(sub, f"{name} {sub_name}", helps.get(sub_name, ""))


def _option_rows(parser: argparse.ArgumentParser) -> list[str]:
    """The options and arguments as table rows: how to write it, what it does."""
    formatter = parser._get_formatter()
    rows = []
    for action in parser._actions:
        if isinstance(action, argparse._HelpAction | argparse._SubParsersAction):
            continue
        if action.help == argparse.SUPPRESS:
            continue
        shown = formatter._format_action_invocation(action)
        text = (action.help or "") % {"default": action.default, "prog": parser.prog} \
            if action.help and "%(" in action.help else (action.help or "")
        if action.required and action.option_strings:
            text = ("required; " + text) if text else "required"
        rows.append(f"| `{shown}` | {md(text)} |")
    return rows


def _usage(parser: argparse.ArgumentParser) -> str:
    """The usage without its "usage: " prefix, the continuation lines shifted to match."""
    lines = parser.format_usage().strip().splitlines()
    prefix = "usage: "
    return "\n".join([lines[0].removeprefix(prefix),
                      *(line.removeprefix(" " * len(prefix)) for line in lines[1:])])


def _section(name: str, help_text: str, parser: argparse.ArgumentParser, depth: int) -> list[str]:
    out = [f"{'#' * min(depth, 4)} `{name}`", ""]
    if help_text:
        out += [md(help_text[0].upper() + help_text[1:]) + ".", ""]
    out += ["```text", _usage(parser), "```", ""]
    rows = _option_rows(parser)
    if rows:
        out += ["| Option | What it does |", "|---|---|", *rows, ""]
    if name in EXAMPLES:
        out += ["Example:", "", "```console", f"$ {EXAMPLES[name]}", "```", ""]
    return out


def missing_examples(parser: argparse.ArgumentParser) -> list[str]:
    """The commands of ``parser`` that have no example on the page."""
    return [name for name, _, _ in commands(parser) if name not in EXAMPLES]


def cli_markdown(parser: argparse.ArgumentParser) -> str:
    """A section per command and subcommand of ``parser``, usage 80 columns wide."""
    out: list[str] = []
    with _columns(80):
        for name, help_text, sub in commands(parser):
            out += _section(name, help_text, sub, 1 + len(name.split()))
    return "\n".join(out)


def cli_page(parser: argparse.ArgumentParser | None) -> str:
    """The page; without a parser it says so, rather than the build failing on a link
    to a missing page (the tests of the built site look for the commands)."""
    head = ("# Command line\n\nGenerated from the `mammamia` argument parser "
            "(`mammamia_ref.cli.app.build_parser`): every command, its options and an "
            "example. Commands that print results take `--json`; a mistyped command, "
            "option, rule, dispute or variant value is answered with the nearest known one. "
            "Colour is used only on a terminal, and never when `NO_COLOR` is set.\n\n")
    if parser is None:
        return head + "*No argument parser was handed to the site generator.*\n"
    index = ["| Command | What it does |", "|---|---|"]
    index += [f"| [`{n}`](#{n.replace(' ', '-')}) | {md(h)} |"
              for n, h, _ in commands(parser) if n != parser.prog]
    return head + "\n".join(index) + "\n\n" + cli_markdown(parser)


__all__ = ["EXAMPLES", "cli_markdown", "cli_page", "commands", "missing_examples"]
