"""Playing whole games: a seeded driver that alternates chance and policy decisions
and records every action and event, so that any game replays exactly."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from mammamia_ref.rules.actions import Action
from mammamia_ref.rules.chance import ChanceSource
from mammamia_ref.rules.events import Event
from mammamia_ref.rules.game import apply, is_chance, is_over, legal_actions, new_game, winners
from mammamia_ref.rules.state import GameConfig, GameState, Phase, Step
from mammamia_ref.rules.typed_spec import Stall
from mammamia_ref.sim.policies import POLICIES, Policy


@dataclass
class GameRecord:
    """A played game: its configuration, every step and how it ended."""

    config: GameConfig
    seed: int | str
    steps: list[tuple[Action, tuple[Event, ...]]] = field(default_factory=list)
    final: GameState | None = None
    turns: int = 0
    stalled: bool = False  # under stall=letter a round stalled for good: nothing ends it

    @property
    def winners(self) -> tuple[int, ...]:
        return winners(self.final)[0] if self.final is not None and is_over(self.final) else ()


def play_game(config: GameConfig, seed: int | str, policies: list[Policy] | None = None,
              *, max_steps: int = 100_000) -> GameRecord:
    """Play one game. ``policies`` gives one policy per seat (default: the simple one).

    Under ``stall=letter`` a round in which every player in turn moved no card would
    repeat forever; the driver detects the repetition and stops (``stalled``).
    """
    chance = ChanceSource(seed)
    rng = random.Random(f"mammamia-policy:{seed}")
    chosen = policies or [POLICIES["simple"]] * config.players
    record = GameRecord(config, seed)
    state = new_game(config)
    for _ in range(max_steps):
        if is_over(state):
            break
        if state.flags.stall == Stall.LETTER and state.quiet_turns >= state.players:
            record.stalled = True
            break
        action: Action
        if is_chance(state):
            action = chance.shuffle(state)
        else:
            action = chosen[state.current](state, legal_actions(state), rng)
        if state.phase == Phase.TURN and state.step == Step.PLAY:
            record.turns += 1
        state, events = apply(state, action)
        record.steps.append((action, events))
    record.final = state
    return record
