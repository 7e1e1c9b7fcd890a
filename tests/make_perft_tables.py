"""Writes the counting tables under scenarios/perft/ from seeded positions.

Run: python tests/make_perft_tables.py. The positions are reached by seeded random
play, so the same code always writes the same files; tests/test_perft.py checks the
counts against the reference.
"""

from __future__ import annotations

import random
from pathlib import Path

import yaml

from mammamia_ref import ChanceSource, apply, is_chance, is_over, legal_actions, make_config
from mammamia_ref.rules.game import new_game
from mammamia_ref.rules.state import GameState
from mammamia_ref.sim.perft import table

FOLDER = Path(__file__).resolve().parent.parent / "scenarios" / "perft"
SCHEMA_LINE = "# yaml-language-server: $schema=../../spec/schemas/perft.schema.json\n"


def reach(players: int, seed: int, wanted, variants=None, limit: int = 5000) -> GameState:
    """Play seeded random actions until ``wanted(state)`` holds."""
    state = new_game(make_config(players, variants=variants))
    chance, rng = ChanceSource(seed), random.Random(seed)
    for _ in range(limit):
        if not is_chance(state) and wanted(state):
            return state
        if is_over(state):
            break
        action = chance.shuffle(state) if is_chance(state) else rng.choice(legal_actions(state))
        state, _ = apply(state, action)
    raise LookupError("no such position in this game")


POSITIONS = [
    ("start-2p", "The first decision of a two-player game.",
     lambda: reach(2, 1, lambda s: True), 20_000),
    ("start-5p", "The first decision of a five-player game.",
     lambda: reach(5, 3, lambda s: True), 20_000),
    ("round2-3p", "A three-player game early in round 2.",
     lambda: reach(3, 4, lambda s: s.round == 2 and s.phase == "turn"), 20_000),
    ("draw-4p", "A four-player game at a draw decision in round 1.",
     lambda: reach(4, 5, lambda s: s.phase == "turn" and s.step == "draw" and s.played > 2),
     20_000),
    ("oven-decision", "An owner's decision while the oven is resolved.",
     lambda: reach(3, 6, lambda s: s.phase == "oven"), 20_000),
    ("draw-any-2p", "draw_amount=any: every count of cards is a separate draw.",
     lambda: reach(2, 7, lambda s: s.phase == "turn" and s.step == "draw" and s.round == 1,
                   variants={"draw_amount": "any"}), 20_000),
]


def main() -> None:
    FOLDER.mkdir(parents=True, exist_ok=True)
    for table_id, description, position, max_nodes in POSITIONS:
        doc = table(table_id, position(), description, max_nodes)
        path = FOLDER / f"{table_id}.yaml"
        path.write_text(SCHEMA_LINE + yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")
        print(path, [row["nodes"] for row in doc["counts"]])


if __name__ == "__main__":
    main()
