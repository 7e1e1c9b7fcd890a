"""Counting at scale: the count split among processes (the command is ``mammamia perft``,
:mod:`mammamia_ref.cli.perft`).

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

from typing import Any

from mammamia_ref.rules.actions import format_action
from mammamia_ref.rules.chance import ChanceSource
from mammamia_ref.rules.game import apply, is_chance, new_game
from mammamia_ref.rules.state import GameConfig, GameState
from mammamia_ref.sim import fast
from mammamia_ref.sim.perft import action_key
from mammamia_ref.sim.simulate import workers

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
