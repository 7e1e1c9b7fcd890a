"""``mammamia query list|run|docs``: the z3 query catalogue (``spec/queries.yaml``).

z3 is a test extra: this module imports it (through :mod:`mammamia_ref.queries`) only
when a query is run, so ``mammamia`` works without it and ``query list`` needs no
solver. Wiring: ``add_query_parser(subparsers)`` adds the ``query`` command to the
parser's subcommands; ``run_query_command(args)`` runs it and returns the exit code.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from difflib import get_close_matches
from pathlib import Path
from typing import Any

from mammamia_ref.cli.args import Commands, house_file
from mammamia_ref.cli.style import number_words


def add_query_parser(subparsers: Commands) -> argparse.ArgumentParser:
    """Add ``query`` (with ``list``, ``run`` and ``docs``) to ``subparsers``, the object
    returned by ``ArgumentParser.add_subparsers``; returns the ``query`` parser."""
    query: argparse.ArgumentParser = subparsers.add_parser(
        "query", help="z3 questions about what the rules make possible (spec/queries.yaml)")
    actions = query.add_subparsers(dest="query_command", required=True)
    listing = actions.add_parser("list",
                                 help="list the queries, their answers and expected verdicts")
    listing.add_argument("--json", action="store_true", help="the catalogue entries as JSON")
    run = actions.add_parser("run", help="answer queries with z3 and replay the witnesses")
    run.add_argument("ids", nargs="*", metavar="ID", help="query IDs (default: all)")
    run.add_argument("--json", action="store_true", help="one JSON document")
    run.add_argument("--write-witnesses", action="store_true",
                     help="write each witness scenario under scenarios/queries/ of the "
                          "--witness-folder (never into the installed package)")
    run.add_argument("--witness-folder", default=".", metavar="FOLDER",
                     help="with --write-witnesses: the folder holding scenarios/queries/ "
                          "(default: the current folder)")
    run.add_argument("--quick", action="store_true",
                     help="leave out the answers the catalogue marks slow")
    run.add_argument("--slow", action="store_true",
                     help="run the long searches in full instead of re-checking their certificates")
    run.add_argument("--house", metavar="FILE", type=house_file,
                     help="answer under this house rule (docs/house-rules.md): its flags under "
                          "each answer's, its numbers for the queries that take them; the "
                          "catalogue's expectations, made for the spec's rules, are not compared")
    docs = actions.add_parser("docs", help="the queries page (Markdown) from the catalogue")
    docs.add_argument("-o", "--output", help="file to write (default: standard output)")
    query.set_defaults(handler=run_query_command)
    return query


def run_query_command(args: argparse.Namespace) -> int:
    """Run ``mammamia query ...``: 0 when every answer is the expected one, 1 when one is
    not, 2 when z3 is missing or an ID is unknown."""
    from mammamia_ref.rules import specdata

    catalogue = specdata.load_yaml("queries.yaml")["queries"]
    if args.query_command == "list":
        _list(catalogue, args.json)
        return 0
    try:  # z3 is loaded here, not at start-up: only the commands that need it pay for it
        from mammamia_ref.queries.catalogue.docs import write_docs
    except ImportError as exc:  # pragma: no cover - z3 is a test extra
        print(f"mammamia: error: the queries need z3 (pip install -e '.[test]'): {exc}",
              file=sys.stderr)
        return 2
    if args.query_command == "docs":
        if args.output:   # refused before the page is rendered (its stories replay games)
            from mammamia_ref.formats.output import check_destination

            check_destination(args.output)
        text = write_docs(Path(args.output) if args.output else None)
        print(f"wrote {args.output}" if args.output else text, end="\n" if args.output else "")
        return 0
    ids = _resolved_ids(args.ids, [q["id"] for q in catalogue])
    if ids is None:
        return 2
    args.ids = ids
    return _run(args, catalogue)


def _list(catalogue: list[dict[str, Any]], as_json: bool) -> None:
    """``query list``: the catalogue as JSON, or each query with its answers."""
    if as_json:
        print(json.dumps(catalogue, indent=1, ensure_ascii=False, default=str))
        return
    for query in catalogue:
        print(f"{query['id']}: {' '.join(query['question'].split())}")
        for answer in query["answers"]:
            variants = ", ".join(f"{k}={v}" for k, v in answer.get("variants", {}).items())
            exp = answer["expected"]
            verdict = exp["verdict"] + (f" {exp['value']}" if "value" in exp else "")
            print(f"  {answer['name']:<22} {variants or 'defaults':<44} expected {verdict}")


def _resolved_ids(ids: list[str], known: list[str]) -> list[str] | None:
    """The query IDs ``ids`` name (each may be a prefix); None, with the error said,
    when one is ambiguous or unknown."""
    resolved = [resolve_id(i, known) for i in ids]
    ambiguous = [(i, found) for i, found in zip(ids, resolved, strict=True) if len(found) > 1]
    if ambiguous:
        i, found = ambiguous[0]
        print(f"mammamia: error: query {i} is ambiguous: it begins {', '.join(found)}",
              file=sys.stderr)
        return None
    unknown = [i for i, found in zip(ids, resolved, strict=True) if not found]
    if unknown:
        near = [m for u in unknown for m in get_close_matches(u, sorted(known), n=1)]
        hint = f"did you mean {', '.join(near)}?" if near else "`mammamia query list` lists them"
        print(f"mammamia: error: no query {', '.join(unknown)}; {hint}", file=sys.stderr)
        return None
    return [found[0] for found in resolved]


def _run(args: argparse.Namespace, catalogue: list[dict[str, Any]]) -> int:
    """``query run``: answer the queries, print each result (or the JSON) and the tally."""
    from mammamia_ref.queries.answering.interrupt import z3_interruptible
    from mammamia_ref.queries.catalogue.runner import answer_interruptibly

    if getattr(args, "slow", False):
        os.environ["MAMMAMIA_FULL_SEARCH"] = "1"   # read by queries.catalogue.full_search
    house = None
    if getattr(args, "house", None):
        from mammamia_ref.formats.house import load_house

        house = load_house(args.house).rules
    root = witness_root(args.witness_folder) if args.write_witnesses else None  # before z3
    results = []
    with z3_interruptible() as stop:
        for query_id in args.ids or [q["id"] for q in catalogue]:
            for found in answer_interruptibly(query_id, stop, write_witnesses=root is not None,
                                              root=root or Path("."), house=house,
                                              include_slow=not getattr(args, "quick", False)):
                results.append(found)
                if not args.json:
                    print_result(found)
    if args.json:
        print(json.dumps([r.as_json() for r in results], indent=2))
    total = sum(r.seconds for r in results)
    if house is not None:
        return _house_tally(house, results, total, args.json)
    bad = [r for r in results if not r.matches_expected]
    if not args.json:
        print(f"{len(results) - len(bad)} of {len(results)} queries as expected ({total:.1f} s)")
    return 1 if bad else 0


def _house_tally(house: Any, results: list[Any], total: float, as_json: bool) -> int:
    """Under a house rule the expectations are not compared: 0 when every answer was
    given, 1 when one was refused."""
    answers = [a for r in results for a in r.answers]
    refused = [a for a in answers if a.verdict == "refused"]
    done = [a for a in answers if a.answered]
    if not as_json:
        print(f"{house.describe()}: {len(done)} of {len(answers)} answers given, "
              f"{len(refused)} refused ({total:.1f} s); the catalogue's expectations "
              "are for the spec's rules and were not compared")
    return 0 if len(done) == len(answers) else 1


def resolve_id(given: str, known: list[str]) -> list[str]:
    """The catalogue IDs ``given`` names: itself when it is one, else every ID it begins
    (``Q05`` for ``Q05-most-pizzas-one-opening``); more than one is ambiguous."""
    if given in known:
        return [given]
    return [k for k in known if k.lower().startswith(given.lower())]


def witness_root(folder: str) -> Path:
    """The folder ``--write-witnesses`` writes under (its ``scenarios/queries`` and the
    disagreements' folder below it), checked writable before the work starts. It is the
    folder given or the current one, never the folder the package is installed in."""
    from mammamia_ref.formats.output import check_destination
    from mammamia_ref.queries.catalogue.results import DISAGREEMENT_DIR, WITNESS_DIR

    root = Path(folder)
    for place in (WITNESS_DIR, DISAGREEMENT_DIR):
        check_destination(root / place / "witness.yaml")
    return root


def print_result(result: Any) -> None:
    house = next((a.house for a in result.answers if a.house), None)
    under = any(a.house is not None or a.parameters for a in result.answers)
    mark = f"under house rule {house!r}" if under else \
        "ok" if result.matches_expected else "UNEXPECTED"
    print(f"{result.id} [{mark}, {result.seconds:.1f} s]: {result.question}")
    for answer in result.answers:
        variants = ", ".join(f"{k}={v}" for k, v in
                             {**answer.variants, **answer.parameters}.items()) or "defaults"
        verdict = answer.verdict + (f" {answer.value}" if answer.value is not None else "")
        expected = answer.expected["verdict"]
        flag = "" if under or answer.matches_expected else f"  (expected {expected})"
        print(f"  {answer.name} ({variants}): {verdict} in {answer.seconds:.1f} s{flag}")
        if answer.detail:
            print(f"    {answer.detail}")
        if answer.verdict == "refused":
            continue
        flags, numbers = answer.in_force()
        print("    flags: " + ", ".join(f"{k}={v}" for k, v in flags.items()))
        print("    parameters: " + "; ".join(f"{k}={number_words(v)}"
                                          for k, v in numbers.items())
              + ("" if answer.parameters else " (the spec's)"))
        if answer.full_search is not None:
            from mammamia_ref.queries.catalogue.results import full_search_line

            print(f"    {full_search_line(answer.full_search, answer.cpu)}")
        print(f"    rulings used: {', '.join(answer.rulings) or 'none named by its events'}")
        if answer.witness_file:
            print(f"    witness: {answer.witness_file} (reference {answer.reference})")
            if answer.reference_detail:
                print(f"    {answer.reference_detail}")
        elif answer.verdict == "unsat":
            print(f"    bound: {' '.join(answer.bound.split())}")


__all__ = ["add_query_parser", "print_result", "resolve_id", "run_query_command"]
