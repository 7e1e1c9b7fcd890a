"""The catalogue's queries answered by the question language, side by side.

Every query of ``spec/queries.yaml`` is also a question file,
``spec/questions/<its id>.yaml``, stated by its condition alone. This answers each
catalogue cell (its player count and flag values) by ``mammamia ask``'s generic route
and sets the answer beside the catalogue's expected one: the verdict or value, how it
was obtained, and the CPU spent. The catalogue is not run: its expected answers are
the claim (``tests/test_queries.py`` holds the catalogue to them).

    python -m mammamia_ref.tools.side_by_side [--players 2,3] [--budget 60]
        [--query Q05] [--json]

Exit 2 when no cell is compared (none matches, or none is stated: nothing compared is no
agreement), 1 when an answer contradicts the catalogue (a "found" where the catalogue
proves none, a "none" where it has a game, a value beyond its proved bound), 0
otherwise. A cell the generic route does not settle within the budget is listed as
such, never as agreeing.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from mammamia_ref.rules import specdata

NOT_STATED: dict[str, str] = {}
"""The catalogue queries (or cells, ``ID/variant``) the question language cannot state,
and why: they stay with the catalogue's own z3 models (docs/questions.md). None is now:
Q24's letter cell, a round that lasts for ever, is its measure answered "unbounded"."""

NARROWER: dict[str, str] = {}
"""The catalogue queries whose question file states a narrower question than the
catalogue's (a catalogue witness need not meet it), and how: they keep their modules."""


@dataclass
class Row:
    """One catalogue cell, both ways."""

    query: str
    cell: str
    players: int
    variants: dict[str, str]
    catalogue: str
    generic: str = "-"
    how: str = ""
    cpu: float = 0.0
    agreement: str = "not stated"
    source: str = "-"

    def as_json(self) -> dict[str, Any]:
        return dict(self.__dict__)


def catalogue_answer(expected: Mapping[str, Any]) -> str:
    """The catalogue's expected answer in a word or two, with its evidence."""
    verdict, evidence = expected["verdict"], expected.get("evidence", "")
    if verdict == "value":
        upper = expected.get("upper")
        exact = " exact" if upper is not None and upper == expected["value"] else \
            (f", proved at most {upper}" if upper is not None else "")
        return f"value {expected['value']}{exact} ({evidence})"
    return {"sat": "found", "unsat": "none"}[verdict] + f" ({evidence})"


def agreement(expected: Mapping[str, Any], got: Any, goal: str) -> str:
    """How the generic answer stands to the catalogue's: ``agrees``, ``agrees within the
    bound`` (a bounded "none" beside the catalogue's proof), ``short`` (a value below the
    catalogue's, or a bound not met), ``not settled``, or ``CONTRADICTS``."""
    verdict = expected["verdict"]
    if verdict == "sat":   # a most: that has none is a game found (Q24's letter)
        said = {"found": "agrees", "unknown": "not settled"}
        if goal == "most":   # a value is a game found, not the one that never ends
            said |= {"unbounded": "agrees", "value": "not settled" if got.upper is None
                     else "CONTRADICTS"}
        return said.get(got.answer, "CONTRADICTS")
    if verdict == "unsat":
        if got.answer == "none in any game":
            return "agrees"
        if got.answer == "none within the bound":
            return "agrees within the bound"
        if got.answer == "value" and goal == "most" and got.upper is not None:
            return "agrees (a proved bound on every round)"
        return "CONTRADICTS" if got.answer == "found" else "not settled"
    value, upper = expected["value"], expected.get("upper")
    if got.value is None:
        return "not settled"
    if goal == "most":
        if upper is not None and got.value > upper:
            return "CONTRADICTS"
        if got.upper is not None and got.upper < value:
            return "CONTRADICTS"
        if got.value < value:
            return "short"
        return "agrees" if got.value == value and (got.exact or upper != value) \
            else ("agrees, not proved exact" if got.value == value else "beyond the catalogue")
    if got.lower is not None and got.lower > value:
        return "CONTRADICTS"
    return "agrees" if got.value == value else ("short" if got.value > value
                                                else "beyond the catalogue")


def source(got: Any) -> str:
    """Where the generic answer came from: the unbounded proof, a known game (the
    package's own scenarios, the catalogue's certificates among them), the search or
    the game model."""
    if got.answer.startswith("none"):
        return "proof" if got.answer == "none in any game" else "game model (bounded)"
    from mammamia_ref.queries.answering.bounded import MODEL_GAME
    from mammamia_ref.queries.answering.known_games import KNOWN_GAME

    if not got.found_by:
        return "-"
    if got.found_by.startswith(KNOWN_GAME):
        return "known game"
    return "game model" if MODEL_GAME in got.found_by else "search"


def generic_answer(got: Any) -> str:
    if got.answer == "value":
        bound = " exact" if got.exact else (
            f", proved at most {got.upper}" if got.upper is not None else
            f", proved at least {got.lower}" if got.lower is not None else "")
        return f"value {got.value}{bound}"
    return str(got.answer)


def rows(players: Sequence[int], budget: float, only: Sequence[str] = (),
         known: bool = True) -> list[Row]:
    """Every catalogue cell at ``players``, answered by its question file (without
    ``known``, by the search and the game model alone, :func:`.ask.answer_cell`)."""
    from mammamia_ref.queries.answering.ask import answer_cell
    from mammamia_ref.queries.catalogue.common import load_catalogue, players_of
    from mammamia_ref.queries.language.questions import load_question

    folder = specdata.spec_path("questions")
    out: list[Row] = []
    for query in load_catalogue():
        qid = query["id"]
        if only and not any(qid.startswith(o) for o in only):
            continue
        path = folder / f"{qid}.yaml"
        question = load_question(path) if path.exists() else None
        for answer in query["answers"]:
            n = players_of(answer)
            if n not in players:
                continue
            variants = dict(answer.get("variants") or {})
            row = Row(qid, answer["name"], n, variants, catalogue_answer(answer["expected"]))
            reason = NOT_STATED.get(qid) or next(
                (why for key, why in NOT_STATED.items() if key.startswith(qid + "/")
                 and key.split("/")[1] in variants.values()), None)
            if question is None or reason is not None:
                row.how = reason or "no question file"
                out.append(row)
                continue
            got = answer_cell(question, n, variants, budget, known=known)
            row.generic, row.cpu = generic_answer(got), got.cpu
            row.source = source(got)
            row.how = got.detail if got.answer.startswith("none") else got.tried
            row.agreement = agreement(answer["expected"], got, question.goal)
            out.append(row)
            print(f"{qid} {answer['name']}: {row.generic} [{row.agreement}] "
                  f"{row.cpu:.1f} s", file=sys.stderr, flush=True)
    return out


def table(found: Sequence[Row]) -> str:
    """The rows as a Markdown table."""
    lines = ["| query | cell | players | catalogue | generic route | from | CPU s | |",
             "|---|---|---:|---|---|---|---:|---|"]
    for r in found:
        lines.append(f"| {r.query[:3]} | {r.cell} | {r.players} | {r.catalogue} | "
                     f"{r.generic} | {r.source} | {r.cpu:.1f} | {r.agreement} |")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    from mammamia_ref.queries.catalogue.common import load_catalogue

    parser = argparse.ArgumentParser(prog="python -m mammamia_ref.tools.side_by_side",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", default="2,3", help="player counts (default 2,3)")
    parser.add_argument("--budget", type=float, default=60.0,
                        help="CPU seconds per cell (default 60)")
    parser.add_argument("--query", action="append", default=[],
                        help="only queries whose ID starts so (repeatable)")
    parser.add_argument("--json", action="store_true", help="one JSON document")
    parser.add_argument("--without-known-games", action="store_true",
                        help="the search and the game model alone: the package's own games "
                        "(the catalogue's certificates among them) not judged")
    args = parser.parse_args(argv)
    try:
        players = [int(p) for p in args.players.split(",")]
    except ValueError:
        players = []
    if not players or any(not 2 <= p <= 5 for p in players):
        parser.error(f"--players: a comma-separated list of 2 to 5, not {args.players!r}")
    known = [q["id"] for q in load_catalogue()]
    unknown = [o for o in args.query if not any(k.startswith(o) for k in known)]
    if unknown:
        parser.error(f"--query: no catalogue query starts with {', '.join(unknown)} "
                     f"(the queries: {known[0][:3]} to {known[-1][:3]})")
    found = rows(players, args.budget, args.query, known=not args.without_known_games)
    if all(r.agreement == "not stated" for r in found):   # nothing compared: no agreement
        print("side_by_side: no catalogue cell the language states at these player counts "
              "and queries", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps([r.as_json() for r in found], indent=2))
    else:
        print(table(found))
    return 1 if any(r.agreement == "CONTRADICTS" for r in found) else 0


if __name__ == "__main__":   # pragma: no cover
    sys.exit(main())


__all__ = ["NARROWER", "NOT_STATED", "Row", "agreement", "catalogue_answer", "main", "rows",
           "source", "table"]
