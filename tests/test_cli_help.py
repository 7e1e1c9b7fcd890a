"""The command line's help: every argument says what it is for, every command's
``--help`` ends with an example to copy, every path the help names exists; ``serve`` on a
terminal says what it waits for; ``conform``'s case lines are coloured as
``scenario run``'s are."""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from mammamia_ref.cli.app import FIRST_COMMANDS, build_parser, main
from mammamia_ref.kit.protocol import PROTOCOL
from mammamia_ref.site.cli_page import EXAMPLES, commands

ROOT = Path(__file__).resolve().parent.parent
# A path of the project named in a help text: a folder of ours, then a file or a glob.
PROJECT_PATH = re.compile(r"\b(?:mammamia_ref|spec|scenarios|docs|examples|tests)/[\w./*-]*\w")


def _arguments() -> list[tuple[str, argparse.Action]]:
    return [(name, action) for name, _, parser in commands(build_parser())
            for action in parser._actions
            if not isinstance(action, argparse._HelpAction | argparse._SubParsersAction)]


def test_every_argument_has_help() -> None:
    bare = [f"{name} {'/'.join(action.option_strings) or action.dest}"
            for name, action in _arguments()
            if not action.help or action.help == argparse.SUPPRESS]
    assert bare == []


@pytest.mark.parametrize("name", [name for name, _, _ in commands(build_parser())])
def test_every_help_ends_with_an_example(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main([*name.split()[1:], "--help"])
    assert exited.value.code == 0
    shown = capsys.readouterr().out
    if name == "mammamia":  # the first commands a reader tries, several
        assert shown.endswith("\nexamples:\n" + "".join(
            f"  {line}\n" for line in FIRST_COMMANDS.splitlines())), shown[-300:]
        return
    assert shown.endswith(f"\nexample:\n  {EXAMPLES[name]}\n"), shown[-300:]


def test_the_top_level_examples_are_commands_that_parse() -> None:
    lines = [line.split("  #")[0].split() for line in FIRST_COMMANDS.splitlines()]
    assert len(lines) >= 5 and all(words[0] == "mammamia" for words in lines)
    for words in lines:
        if "COMMAND" not in words:
            build_parser().parse_args(words[1:])  # exits (2) on a command that does not parse


def test_every_path_named_in_help_exists() -> None:
    texts = [EXAMPLES[name] for name, _, _ in commands(build_parser())] + [FIRST_COMMANDS]
    texts += [p.description or "" for _, _, p in commands(build_parser())]
    texts += [action.help or "" for _, action in _arguments()]
    named = {match for text in texts for match in PROJECT_PATH.findall(text)}
    assert "mammamia_ref/sim/perft.py" in named  # the checker sees the help's paths
    missing = sorted(path for path in named if not list(ROOT.glob(path)))
    assert missing == []


@pytest.mark.slow  # runs the command line under a pseudo-terminal
def test_serve_on_a_terminal_says_what_it_waits_for() -> None:
    """Typed at a terminal, ``serve`` says on stderr that it waits for JSON requests and
    where the protocol is documented; stdout carries only the answers."""
    import pty

    leader, follower = pty.openpty()
    done = subprocess.Popen([sys.executable, "-m", "mammamia_ref", "serve"], stdin=follower,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    os.close(follower)
    hello = json.dumps({"id": 1, "op": "hello", "protocol": PROTOCOL})
    os.write(leader, f"{hello}\n".encode() + b"\x04")
    try:
        out, err = done.communicate(timeout=120)  # a hang guard only
    finally:
        os.close(leader)
    assert f"waiting for {PROTOCOL} requests" in err and "docs/porting.md" in err, err
    from mammamia_ref.kit.versions import current
    from mammamia_ref.rules import specdata

    schema = specdata.spec_path("schemas/" + current().schema)   # where this install has it
    assert str(schema) in err and schema.exists(), err
    assert out.startswith('{"id":1,"ok":true'), out
    piped = subprocess.run([sys.executable, "-m", "mammamia_ref", "serve"], input="",
                           capture_output=True, text=True, check=False, timeout=120)
    assert piped.returncode == 0 and piped.stderr == ""  # a kit on a pipe hears nothing


def test_conform_case_lines_are_coloured_on_a_terminal(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from mammamia_ref.cli import conform
    from mammamia_ref.kit.cases import CaseResult

    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    for status, code in (("pass", "32"), ("fail", "31"), ("skip", "33")):
        result = CaseResult(name="x", kind="scenario", status=status)
        conform._finished(result, expected=set(), jsonl=None, progress=None, verbose=True)
        assert capsys.readouterr().out.startswith(f"\033[{code}m{status.upper():5}\033[0m ")
    monkeypatch.setenv("NO_COLOR", "1")
    conform._finished(CaseResult(name="x", kind="scenario", status="pass"), expected=set(),
                      jsonl=None, progress=None, verbose=True)
    assert capsys.readouterr().out.startswith("PASS  scenario x")
