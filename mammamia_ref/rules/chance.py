"""Chance made explicit: a seeded source of shuffles owned by one game.

The rules engine never draws randomness itself; at a chance node the driver asks a
``ChanceSource`` (or a scenario gives the order outright). The same seed gives the
same shuffles in every run, whatever else uses Python's global generator.
"""

from __future__ import annotations

import random

from mammamia_ref.rules.actions import Shuffle
from mammamia_ref.rules.game import chance_pile
from mammamia_ref.rules.state import GameState


class ChanceSource:
    """Shuffles drawn from a private generator seeded with ``seed``."""

    def __init__(self, seed: int | str) -> None:
        self.seed = seed
        self._random = random.Random(f"mammamia-chance:{seed}")

    def shuffle(self, state: GameState) -> Shuffle:
        pile, cards = chance_pile(state)
        return Shuffle(pile, tuple(self._random.sample(cards, len(cards))))
