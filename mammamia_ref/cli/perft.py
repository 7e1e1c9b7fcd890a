"""``mammamia perft``: count the legal action sequences from a state, and check a
counting table's listed counts (the counting itself is :mod:`mammamia_ref.sim.counting`)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mammamia_ref.cli.args import (
    Commands,
    add_rules_options,
    game_rules,
    game_seed,
    job_count,
    player_count,
    positive_number,
)
from mammamia_ref.errors import MalformedError, UsageError

if TYPE_CHECKING:
    from mammamia_ref.rules.state import GameState


def add_parser(subparsers: Commands) -> None:
    parser = subparsers.add_parser(
        "perft", help="count the legal action sequences from a state (as chess perft)",
        description="Count the distinct legal action sequences of a given length from a "
        "state, as defined in mammamia_ref/sim/perft.py. FILE is a counting table "
        "(scenarios/perft/*.yaml: its listed counts are checked) or a canonical state "
        "(mammamia-state/1, JSON or YAML); without FILE, the first decision of a new game "
        "(shuffled from --seed) at --players, or at every player count the rules serve, "
        "to --depth, or to depths 1 to 4 (mammamia perft --house FILE: a house rule's "
        "counts at every player count it serves).")
    parser.add_argument("file", metavar="FILE", nargs="?", help="a counting table or a state")
    parser.add_argument("--players", type=player_count, metavar="N",
                        help="without FILE: 2 to 5 (default: every count the rules serve)")
    parser.add_argument("--seed", type=game_seed, default=0,
                        help="without FILE: the setup's shuffles (a whole number or a word)")
    add_rules_options(parser, "without FILE: a ruling")
    parser.add_argument("--depth", type=positive_number, action="append", metavar="D",
                        help="the depth to count (repeat for several; default: every depth "
                             "the table lists, or 1 to 4 without FILE)")
    parser.add_argument("--divide", action="store_true",
                        help="also the count below each first action")
    parser.add_argument("--jobs", type=job_count, default=1, metavar="N",
                        help="worker processes (the counts do not depend on it)")
    parser.add_argument("--reference", action="store_true",
                        help="count with the reference engine (slow) instead of the fast one")
    parser.add_argument("--json", action="store_true", help="print one JSON document")
    parser.set_defaults(handler=run_perft)


def load_counting_input(path: Path) -> tuple[GameState, dict[int, int], str]:
    """A counting table's state and listed counts, or a bare state (no counts). A bad
    state is reported with its file and line."""
    from mammamia_ref.formats.jsonform import parse_state
    from mammamia_ref.formats.perft_table import perft_table_of
    from mammamia_ref.formats.safeyaml import load_file

    loaded = load_file(path)
    doc = loaded.data
    if isinstance(doc, dict) and "counts" in doc:
        table = perft_table_of(doc, path)
        state_doc, prefix, listed, name = table.state, "/state", table.counts, table.id
    elif isinstance(doc, dict) and doc.get("format") == "mammamia-state/1":
        state_doc, prefix, listed, name = doc, "", {}, path.stem
    else:
        raise MalformedError(f"{path}: neither a counting table (id, state, counts) nor a "
                             "canonical state (format: mammamia-state/1)", value=doc)
    try:
        return parse_state(state_doc), listed, name
    except MalformedError as exc:
        line = loaded.line_of(prefix + exc.where)
        raise MalformedError(f"{path}:{line}: {exc}" if line else f"{path}: {exc}",
                             value=exc.value) from None


def _count_depths(state: GameState, listed: dict[int, int], depths: list[int],
                  args: argparse.Namespace) -> Iterator[dict[str, Any]]:
    """One row per depth, as each is counted (and checked against ``listed``)."""
    from mammamia_ref.sim import fast
    from mammamia_ref.sim.counting import count, divide
    from mammamia_ref.sim.perft import divide as reference_divide
    from mammamia_ref.sim.perft import perft as reference_perft
    from mammamia_ref.sim.simulate import workers

    quick = fast.from_state(state)
    with workers(1 if args.reference else args.jobs) as pool:
        for depth in depths:
            split: dict[str, int] | None
            if args.reference:
                nodes = reference_perft(state, depth)
                split = reference_divide(state, depth) if args.divide else None
            elif args.divide:
                split = divide(quick, depth, pool=pool)
                nodes = sum(split.values()) if split else count(quick, depth)
            else:
                split, nodes = None, count(quick, depth, pool=pool)
            expected = listed.get(depth)
            yield {"depth": depth, "nodes": nodes, "expected": expected,
                   "matches": None if expected is None else nodes == expected,
                   **({"divide": split} if split is not None else {})}


DEFAULT_DEPTHS = (1, 2, 3, 4)
"""The depths counted from a new game when no ``--depth`` is given (quick at any count)."""


def _new_games(args: argparse.Namespace) -> list[tuple[GameState, str]]:
    """Without FILE: the first decision of a new game at ``--players``, or at every player
    count the rules serve (a count they cannot serve is skipped with a word on stderr)."""
    from mammamia_ref.rules.ruleset import unserved
    from mammamia_ref.rules.state import make_config
    from mammamia_ref.rules.vocabulary import MAX_PLAYERS, MIN_PLAYERS
    from mammamia_ref.sim.counting import setup_state

    rules = game_rules(args)
    counts = [args.players] if args.players is not None \
        else list(range(MIN_PLAYERS, MAX_PLAYERS + 1))
    games = []
    for players in counts:
        why = unserved(rules, players) if args.players is None else None
        if why is not None:
            print(f"mammamia: {players} players skipped: {why}", file=sys.stderr)
            continue
        config = make_config(players, variants=rules)
        games.append((setup_state(config, args.seed), f"{players}p seed {args.seed}" + (
            f" ({rules.describe()})" if args.house or not rules.is_default() else "")))
    return games


def run_perft(args: argparse.Namespace) -> int:
    if args.file is None:
        inputs = [(state, dict[int, int](), name) for state, name in _new_games(args)]
        depths = sorted(set(args.depth or DEFAULT_DEPTHS))
    else:
        if args.players is not None or args.variant or args.house:
            raise UsageError("--players, --variant and --house choose a new game: not with "
                             "a FILE (a state carries its own rules)",
                             options=("--players", "--variant", "--house"), value=args.file)
        state, listed, name = load_counting_input(Path(args.file))
        inputs = [(state, listed, name)]
        depths = sorted(set(args.depth or listed))
        if not depths:
            raise UsageError(f"{args.file}: a bare state lists no counts: give --depth D",
                             options=("--depth",), value=args.file)
    tables: list[dict[str, Any]] = []
    for state, listed, name in inputs:
        rows: list[dict[str, Any]] = []
        try:
            for row in _count_depths(state, listed, depths, args):
                rows.append(row)
                if not args.json:
                    _print_row(name, row)
        except KeyboardInterrupt:
            raise KeyboardInterrupt(f"while counting {name} at depth "
                                    f"{depths[len(rows)]}") from None
        tables.append({"id": name, "rows": rows})
    failed = any(row["matches"] is False for table in tables for row in table["rows"])
    if args.json:
        engine = "reference" if args.reference else "fast"
        doc: dict[str, Any] = {"id": tables[0]["id"], "engine": engine,
                               "rows": tables[0]["rows"], "ok": not failed} \
            if len(tables) == 1 else {"engine": engine, "tables": tables, "ok": not failed}
        json.dump(doc, sys.stdout, indent=2)
        print()
    return 1 if failed else 0


def _print_row(name: str, row: dict[str, Any]) -> None:
    for key, nodes in (row.get("divide") or {}).items():
        print(f"  {_readable(key)}: {nodes:,}")
    verdict = "" if row["expected"] is None else (
        "  matches the table" if row["matches"]
        else f"  MISMATCH: the table says {row['expected']:,}")
    print(f"{name} depth {row['depth']}: {row['nodes']:,}{verdict}", flush=True)


def _readable(key: str) -> str:
    """A first action as people read it ("play 2 salami"); ``--json`` keeps the
    canonical JSON key."""
    from mammamia_ref.rules.actions import describe, parse_action

    return describe(parse_action(json.loads(key)))
