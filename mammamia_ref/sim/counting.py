"""Counting tables at scale: ``mammamia perft``, and the count split among processes.

The count is the one :mod:`mammamia_ref.sim.perft` defines; the fast engine's
:func:`mammamia_ref.sim.fast.perft` gives the same numbers faster (checked on every table in
``scenarios/perft/`` by ``tests/test_fast_equivalence.py``). For several processes the
count is cut into the action sequences of its first levels, enough of them that no single
first action holds most of the work, and the pieces are added up: the same number
whatever the number of processes.

>>> from mammamia_ref.rules.state import make_config
>>> from mammamia_ref.sim import fast
>>> state = fast.from_state(setup_state(make_config(2), seed=0))
>>> count(state, 3) == fast.perft(state, 3)
True
>>> sum(divide(state, 3).values()) == count(state, 3)
True
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from mammamia_ref.errors import MalformedError, VariantError
from mammamia_ref.rules.actions import format_action
from mammamia_ref.rules.chance import ChanceSource
from mammamia_ref.rules.game import apply, is_chance, new_game
from mammamia_ref.rules.state import GameConfig, GameState
from mammamia_ref.sim import fast
from mammamia_ref.sim.perft import action_key
from mammamia_ref.sim.perft import divide as reference_divide
from mammamia_ref.sim.perft import perft as reference_perft

ActionPath = tuple[int, ...]  # the action codes that lead from the counted state to a piece


def setup_state(config: GameConfig, seed: int | str) -> GameState:
    """The first decision of a game: the setup's shuffles drawn from ``seed``."""
    state, chance = new_game(config), ChanceSource(seed)
    while is_chance(state):
        state, _ = apply(state, chance.shuffle(state))
    return state


def pieces(state: fast.FastState, depth: int,
           wanted: int) -> tuple[list[ActionPath], list[ActionPath]]:
    """Cut ``perft(state, depth)`` into pieces: expand the sequences level by level until
    there are at least ``wanted`` (or one level is left). Returns the sequences still to
    count (each at depth ``depth - len(path)``) and those that ended early, at a chance
    node or the end of the game (each counts one)."""
    frontier: list[ActionPath] = [()]
    ended: list[ActionPath] = []
    for _ in range(1, depth):
        if len(frontier) >= wanted:
            break
        grown: list[ActionPath] = []
        for path in frontier:
            child = _after(state, path)
            if child.phase in ("shuffle", "over"):
                ended.append(path)
            else:
                grown.extend((*path, action) for action in fast.legal_actions(child))
        frontier = grown
    return frontier, ended


def _after(state: fast.FastState, path: ActionPath) -> fast.FastState:
    child = state.copy()
    for action in path:
        fast.apply(child, action)
    return child


def count_piece(task: tuple[fast.FastState, ActionPath, int]) -> int:
    """One piece: the count below ``path`` (a plain function of plain data, for a pool)."""
    state, path, depth = task
    return fast.perft(_after(state, path), depth - len(path))


def _counted(state: fast.FastState, depth: int, jobs: int, pool: Any = None, *,
             wanted: int = 1) -> tuple[list[ActionPath], list[int], list[ActionPath]]:
    """The pieces (at least ``wanted``, and eight per process), their counts, and the
    sequences that ended early."""
    if depth <= 1 or state.phase in ("shuffle", "over"):
        return [()], [fast.perft(state, depth)], []
    parallel = jobs > 1 or pool is not None
    paths, ended = pieces(state, depth, max(wanted, 8 * jobs if parallel else 1))
    tasks = [(state, path, depth) for path in paths]
    if not parallel:
        return paths, [count_piece(task) for task in tasks], ended
    if pool is not None:
        return paths, pool.map(count_piece, tasks, chunksize=1), ended
    from mammamia_ref.sim.simulate import workers

    with workers(jobs) as own:
        return paths, own.map(count_piece, tasks, chunksize=1), ended


def count(state: fast.FastState, depth: int, *, jobs: int = 1, pool: Any = None) -> int:
    """``perft(state, depth)``, in ``jobs`` processes (or on ``pool``)."""
    _paths, counts, ended = _counted(state, depth, jobs, pool)
    return sum(counts) + len(ended)


def divide(state: fast.FastState, depth: int, *, jobs: int = 1,
           pool: Any = None) -> dict[str, int]:
    """The count split by first action, keyed by the action's canonical JSON (as
    :func:`mammamia_ref.sim.perft.divide`), in the order of the legal actions."""
    if depth == 0 or state.phase in ("shuffle", "over"):
        return {}
    by_first = dict.fromkeys(fast.legal_actions(state), 0)
    paths, counts, ended = _counted(state, depth, jobs, pool, wanted=2) if depth > 1 \
        else ([(first,) for first in by_first], [1] * len(by_first), [])
    for path, nodes in [*zip(paths, counts, strict=True), *((path, 1) for path in ended)]:
        by_first[path[0]] += nodes
    return {action_key(format_action(fast.action_of(code))): nodes
            for code, nodes in by_first.items()}


# -- the command -----------------------------------------------------------------------


def add_perft_parser(subparsers: Any) -> None:
    from mammamia_ref.cli.app import positive_number, variant_assignment

    parser = subparsers.add_parser(
        "perft", help="count the legal action sequences from a state (as chess perft)",
        description="Count the distinct legal action sequences of a given length from a "
        "state, as defined in mammamia_ref/perft.py. FILE is a counting table "
        "(scenarios/perft/*.yaml: its listed counts are checked) or a canonical state "
        "(mammamia-state/1, JSON or YAML); without FILE, the first decision of a game "
        "of --players (shuffled from --seed).")
    parser.add_argument("file", metavar="FILE", nargs="?", help="a counting table or a state")
    parser.add_argument("--players", type=int, metavar="N", help="without FILE: 2 to 5")
    parser.add_argument("--seed", default="0", help="without FILE: the setup's shuffles")
    parser.add_argument("--variant", type=variant_assignment, action="append", default=[],
                        metavar="NAME=VALUE", help="without FILE: a ruling")
    parser.add_argument("--depth", type=positive_number, action="append", metavar="D",
                        help="the depth to count (repeat for several; default: every depth "
                             "the table lists)")
    parser.add_argument("--divide", action="store_true",
                        help="also the count below each first action")
    parser.add_argument("--jobs", type=positive_number, default=1, metavar="N",
                        help="worker processes (the counts do not depend on it)")
    parser.add_argument("--reference", action="store_true",
                        help="count with the reference engine (slow) instead of the fast one")
    parser.add_argument("--json", action="store_true", help="print one JSON document")
    parser.set_defaults(handler=run_perft)


def load_counting_input(path: Path) -> tuple[GameState, dict[int, int], str]:
    """A counting table's state and listed counts, or a bare state (no counts). A bad
    state is reported with its file and line."""
    from mammamia_ref.formats.jsonform import parse_state
    from mammamia_ref.formats.safeyaml import load_file
    from mammamia_ref.kit.runner import perft_table_of

    loaded = load_file(path)
    doc = loaded.data
    if isinstance(doc, dict) and "counts" in doc:
        table = perft_table_of(doc, path)
        state_doc, prefix, listed, name = table.state, "/state", table.counts, table.id
    elif isinstance(doc, dict) and doc.get("format") == "mammamia-state/1":
        state_doc, prefix, listed, name = doc, "", {}, path.stem
    else:
        raise MalformedError(f"{path}: neither a counting table (id, state, counts) nor a "
                             "canonical state (format: mammamia-state/1)")
    try:
        return parse_state(state_doc), listed, name
    except MalformedError as exc:
        line = loaded.line_of(prefix + exc.where)
        raise MalformedError(f"{path}:{line}: {exc}" if line else f"{path}: {exc}",
                             value=exc.value) from None


def _count_depths(state: GameState, listed: dict[int, int], depths: list[int],
                  args: argparse.Namespace) -> Iterator[dict[str, Any]]:
    """One row per depth, as each is counted (and checked against ``listed``)."""
    from mammamia_ref.sim.simulate import workers

    quick = fast.from_state(state)
    with workers(1 if args.reference else args.jobs) as pool:
        for depth in depths:
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


def run_perft(args: argparse.Namespace) -> int:
    if args.file is None:
        if args.players is None or not args.depth:
            raise VariantError("give a FILE, or --players N and --depth D")
        from mammamia_ref.cli.app import game_seed
        from mammamia_ref.rules.state import make_config

        config = make_config(args.players, variants=dict(args.variant))
        state, listed = setup_state(config, game_seed(args.seed)), {}
        name = f"{args.players}p seed {args.seed}"
    else:
        if args.players is not None or args.variant:
            raise VariantError("--players and --variant choose a new game: not with a FILE")
        state, listed, name = load_counting_input(Path(args.file))
    depths = sorted(set(args.depth or listed))
    if not depths:
        raise MalformedError(f"{args.file}: a bare state lists no counts: give --depth D")
    rows: list[dict[str, Any]] = []
    try:
        for row in _count_depths(state, listed, depths, args):
            rows.append(row)
            if not args.json:
                _print_row(name, row)
    except KeyboardInterrupt:
        raise KeyboardInterrupt(f"while counting {name} at depth {depths[len(rows)]}") from None
    failed = any(row["matches"] is False for row in rows)
    if args.json:
        json.dump({"id": name, "engine": "reference" if args.reference else "fast",
                   "rows": rows, "ok": not failed}, sys.stdout, indent=2)
        print()
    return 1 if failed else 0


def _print_row(name: str, row: dict[str, Any]) -> None:
    for key, nodes in (row.get("divide") or {}).items():
        print(f"  {key}: {nodes:,}")
    verdict = "" if row["expected"] is None else (
        "  matches the table" if row["matches"]
        else f"  MISMATCH: the table says {row['expected']:,}")
    print(f"{name} depth {row['depth']}: {row['nodes']:,}{verdict}", flush=True)
