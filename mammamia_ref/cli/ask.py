"""``mammamia ask FILE... [--json] [--budget SECONDS] [--write-witnesses]
[--without-known-games]``: designers'
question files (``spec/questions/``, :mod:`mammamia_ref.queries.language.questions`) answered.

Every file is read and checked before any is answered: a bad one is one error line
(file:line, what is wrong) and exit 2, with nothing solved. Exit 0 when every cell has
an answer other than "unknown" and every witness is replayed by the reference, else 1.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from mammamia_ref.cli.args import Commands, ask_budget, house_file

if TYPE_CHECKING:  # z3 loads when the command runs
    from mammamia_ref.queries.answering.ask import AskAnswer


def add_parser(commands: Commands) -> None:
    ask = commands.add_parser("ask", help="answer question files: a witness game, a proved "
                              "bound, a value with its bound, or unknown")
    ask.add_argument("files", nargs="+", metavar="FILE", help="question files (YAML)")
    ask.add_argument("--json", action="store_true", help="one JSON document")
    ask.add_argument("--budget", type=ask_budget, default=10.0, metavar="SECONDS",
                     help="CPU seconds a search may spend on one cell (default 10)")
    ask.add_argument("--house", metavar="FILE", type=house_file,
                     help="ask every question under this house rule (docs/house-rules.md) "
                          "instead of the one its house: names, if any")
    ask.add_argument("--write-witnesses", action="store_true",
                     help="write each witness game found as a scenario file, in the folder "
                          "ask of the current folder's scenarios folder (`mammamia verify` "
                          "run there then reads that scenarios folder, not the package's)")
    ask.add_argument("--without-known-games", action="store_true",
                     help="leave out the games the package ships (the catalogue's "
                          "certificates among them): what the proofs, the search and the "
                          "game model reach by themselves")
    ask.set_defaults(handler=run_ask)


def run_ask(args: argparse.Namespace) -> int:
    try:
        from mammamia_ref.queries.answering.ask import answers
        from mammamia_ref.queries.answering.interrupt import z3_interruptible
        from mammamia_ref.queries.language.questions import load_question
    except ImportError as exc:  # pragma: no cover - z3 is a test extra
        print(f"mammamia: error: ask needs z3 (pip install -e '.[test]'): {exc}",
              file=sys.stderr)
        return 2
    from mammamia_ref.formats.house import load_house
    from mammamia_ref.formats.question_work import bound_questions, witnesses
    from mammamia_ref.formats.witness_files import plan_witnesses, write_witness

    house = load_house(args.house) if args.house else None
    questions = [q.with_house(house)        # every file checked before any solving
                 for q in [load_question(f) for f in args.files]]   # (under --house: its numbers),
    cells = bound_questions(questions, house)   # and its work bounded under its rules
    plan = plan_witnesses(Path("scenarios") / "ask", witnesses(questions)) \
        if args.write_witnesses else None   # under the current folder, never the package's
    found: list[AskAnswer] = []
    with z3_interruptible(at_once=True) as stop:
        try:
            for answer in answers(questions, args.budget, house, stop,
                                  known=not args.without_known_games):
                found.append(answer)
                if plan is not None and answer.scenario is not None and \
                        answer.witness_file and answer.reference == "agrees" and \
                        answer.witness_file.startswith("scenarios/ask/"):
                    from mammamia_ref.queries.answering.witness import ASK_HEADER, dump_scenario

                    write_witness(plan, answer.scenario["id"],
                                  dump_scenario(answer.scenario, ASK_HEADER))
                if not args.json:
                    print(answer.text(written=plan is not None), flush=True)
        except KeyboardInterrupt:
            raise KeyboardInterrupt(f"after {len(found)} of {cells} cells") from None
    if args.json:
        print(json.dumps([a.as_json() for a in found], indent=2))
    ok = all(a.answer != "unknown" and a.reference != "disagrees" for a in found)
    return 0 if ok else 1


__all__ = ["add_parser", "run_ask"]

