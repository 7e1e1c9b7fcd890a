"""Seeded games on the fast engine with the reference's events, for ``mammamia ask``'s
search: each game is the one :func:`mammamia_ref.queries.answering.searching.playout` plays on the
reference with the same seed and policy (the same shuffles, the same choices, the same
stall=letter cut), and its events are the reference's, in order
(``tests/test_fast_events.py`` holds the two to each other). A game found here is
replayed on the reference before anything is said about it.

>>> from mammamia_ref.rules.state import make_config
>>> [(seed, events[-2].name) for seed, events in games_with_events(make_config(2), [3], "random")]
[(3, 'game_ended')]
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator

from mammamia_ref.errors import VariantError
from mammamia_ref.rules.events import Event
from mammamia_ref.rules.state import GameConfig, GameState
from mammamia_ref.sim import fast

MAX_STEPS = 20_000
"""The steps (shuffles and decisions) a game may take, as ``playout``'s ``max_steps``."""


def fast_policies() -> tuple[str, ...]:
    """The policies the fast engine plays as the reference does (their fast choosers)."""
    from mammamia_ref.sim.policies import FAST_CHOOSERS

    return tuple(FAST_CHOOSERS)


def games_with_events(config: GameConfig, seeds: Iterable[int | str], policy: str,
                      max_steps: int = MAX_STEPS, *, after: GameState | None = None,
                      names: Iterable[str] | None = None
                      ) -> Iterator[tuple[int | str, tuple[Event, ...]]]:
    """Each seed's game under ``policy`` at every seat, with every event of the game in
    the reference's order; with ``after`` (a reference state of a game under
    ``config``), that game played on from there to its end (the events from there on), as
    ``playout(..., after=...)`` plays it; with ``names``, only the events of those names
    (:func:`~mammamia_ref.sim.fast.record_events`: the others are not built). A policy
    without a fast chooser, or one that refuses these rules (as the reference's would),
    is refused with :class:`VariantError`."""
    from mammamia_ref.rules.state import refuse_unclaimed
    from mammamia_ref.sim.policies import FAST_CHOOSERS

    choose = FAST_CHOOSERS.get(policy)
    if choose is None:
        raise VariantError(f"the fast engine has no chooser for the {policy} policy; it has "
                           f"{', '.join(FAST_CHOOSERS)}", value=policy)
    if policy != "random":   # the benchmark policy reads no rule; the others check theirs
        refuse_unclaimed("policies", config.rules, carries_information=True)
    for seed in seeds:
        state = fast.new_game(config) if after is None else fast.from_state(after)
        events = fast.record_events(state, names)
        chance, rng = fast.FastChance(seed), random.Random(f"mammamia-policy:{seed}")
        letter, players = state.rules.stall_letter, state.players
        for _ in range(max_steps):
            if fast.is_over(state) or (letter and state.quiet_turns >= players):
                break
            if fast.is_chance(state):
                fast.apply_shuffle(state, chance.shuffle(state))
            else:
                fast.apply(state, choose(state, fast.legal_actions(state), rng))
        yield seed, tuple(events)


__all__ = ["MAX_STEPS", "fast_policies", "games_with_events"]
