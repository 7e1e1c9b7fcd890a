"""Counting tables in the manner of chess perft.

``perft(state, d)`` counts the distinct legal action sequences of length ``d`` from
``state``, where a sequence also ends early, and counts once, when it reaches a chance
node (a shuffle: chance is not expanded) or the end of the game. So ``perft(s, 0) = 1``;
``perft(s, d) = 1`` if ``s`` is a chance node or over; otherwise the sum over the legal
actions ``a`` of ``perft(apply(s, a), d - 1)``. Decisions at the oven count like any
other decision; the automatic steps between decisions do not.

>>> from mammamia_ref.rules.state import make_config
>>> from mammamia_ref.rules.game import new_game
>>> perft(new_game(make_config(2)), 3)
1
"""

from __future__ import annotations

import json
from typing import Any

from mammamia_ref.rules.actions import format_action
from mammamia_ref.rules.game import apply, is_chance, is_over, legal_actions
from mammamia_ref.rules.state import GameState


def perft(state: GameState, depth: int) -> int:
    if depth == 0 or is_chance(state) or is_over(state):
        return 1
    return sum(perft(apply(state, action)[0], depth - 1) for action in legal_actions(state))


def divide(state: GameState, depth: int) -> dict[str, int]:
    """``perft`` split by first action (keyed by the action's canonical JSON)."""
    if depth == 0 or is_chance(state) or is_over(state):
        return {}
    return {action_key(format_action(action)): perft(apply(state, action)[0], depth - 1)
            for action in legal_actions(state)}


def action_key(action: dict[str, Any]) -> str:
    return json.dumps(action, sort_keys=True, separators=(",", ":"))


def table(table_id: str, state: GameState, description: str, max_nodes: int,
          max_depth: int = 8) -> dict[str, Any]:
    """A counting table for ``state``: perft at each depth until ``max_nodes`` is passed."""
    from mammamia_ref.formats.jsonform import format_state

    counts = []
    for depth in range(1, max_depth + 1):
        nodes = perft(state, depth)
        counts.append({"depth": depth, "nodes": nodes})
        if nodes > max_nodes:
            break
    return {"id": table_id, "description": description, "state": format_state(state),
            "counts": counts}
