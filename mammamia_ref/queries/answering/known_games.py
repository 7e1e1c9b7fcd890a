"""The known games: every game the package ships as a scenario from a new deal (the
rulebook's examples, the edge cases, the catalogue's witnesses and certificates, the
house rules' games), judged by ``ask`` before it searches.

A game someone already built, by hand or by a plan, is a game like any other: the
reference replays it here and the question's own judgement decides. So a question
whose answer is a game the package already holds gets it at once, and says which file
it came from (``Played.found_by``); a game that only a plan builds (a catalogue's longest
round, its largest Pizza Bombastica) is then within ``ask``'s reach too. A scenario
that starts from a position (``given.state``) is not a game and is never used; nor is a
run the reference does not pass.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from mammamia_ref.errors import IllegalActionError, MammamiaError
from mammamia_ref.formats.scenario import Scenario
from mammamia_ref.queries.language.judging import Played
from mammamia_ref.rules.actions import Action
from mammamia_ref.rules.events import Event
from mammamia_ref.rules.game import apply, new_game
from mammamia_ref.rules.ruleset import Rules
from mammamia_ref.rules.state import GameConfig, GameState
from mammamia_ref.sim.scenario_run import RunResult


@functools.cache
def _library() -> tuple[Played, ...]:
    """Every run from a new deal of every shipped scenario that the reference passes,
    played again with every state kept. Loaded once per process."""
    from mammamia_ref.formats.scenario import load_scenario, packaged_suite

    suite = packaged_suite()
    games: list[Played] = []
    for path in sorted(suite.rglob("*.yaml")):
        if any(part.startswith("_") for part in path.relative_to(suite).parts):
            continue   # recorded disagreements, not games the reference stands by
        try:
            scenario = load_scenario(path)
        except (MammamiaError, OSError):
            continue   # the scenario suite's own tests report a malformed file
        if "setup" not in scenario.given:
            continue
        name = Path(suite.name, path.relative_to(suite)).as_posix()
        for result, played in played_runs(scenario):
            if not result.passed:
                continue
            by = name if len(scenario.runs) == 1 else f"{name} (run {result.run})"
            games.append(Played(played.config, played.steps, found_by=f"{KNOWN_GAME} {by}"))
    return tuple(games)


KNOWN_GAME = "the known game"
"""How a known game's ``found_by`` begins (the answer's ``found by:``)."""


def played_runs(scenario: Scenario) -> list[tuple[RunResult, Played]]:
    """Each run of a scenario from a new deal as the reference runs it (its result:
    passed, or where it diverged) and the game it plays, every state kept (up to the
    divergence, for a run that does not pass)."""
    from mammamia_ref.sim.scenario_run import run_scenario

    return [(result, replayed(result.config, [step.action for step in result.trace]))
            for result in run_scenario(scenario)]


Step = tuple[Action, tuple[Event, ...], GameState]


def _played(config: GameConfig, actions: list[Action]) -> Iterator[Step | None]:
    """Each action played from a new game in turn: its step, or None where the
    reference refuses it (the state then stays as it was)."""
    state = new_game(config)
    for action in actions:
        try:
            after, events = apply(state, action)
        except IllegalActionError:
            yield None
            continue
        yield action, tuple(events), after
        state = after


def replayed(config: GameConfig, actions: list[Action]) -> Played:
    """The actions played from a new game; a step the reference refuses (a scenario's
    expected rejection) leaves the state as it was and is not a step of the game."""
    return Played(config, tuple(step for step in _played(config, actions) if step))


def played_through(config: GameConfig, actions: list[Action]) -> Played | None:
    """The actions played from a new game, each as the reference plays it; None if it
    refuses one."""
    steps: list[Step] = []
    for step in _played(config, actions):
        if step is None:
            return None
        steps.append(step)
    return Played(config, tuple(steps))


def known_games(players: int, rules: Rules) -> Iterator[Played]:
    """The known games for ``players`` under exactly ``rules``' flags and numbers (a game
    under other rules is not a game of this cell)."""
    for game in _library():
        if of_cell(game, players, rules):
            yield game


def of_cell(game: Played, players: int, rules: Rules) -> bool:
    """Whether ``game`` is a game of a cell: its player count, and exactly the cell's
    flags and numbers."""
    played_under = game.config.rules
    return game.config.players == players and played_under.flags == rules.flags \
        and played_under.parameters == rules.parameters


def best_known(players: int, rules: Rules, judge: Callable[[Played], float | None],
               budget: float = float("inf")) -> tuple[Played | None, float, int]:
    """The best known game by ``judge`` (None: not a candidate; larger is better), its
    score and how many known games were judged: all of them, unless judging them takes
    more than ``budget`` CPU seconds (a measure judged on every prefix of a long game
    can take seconds a game), where it stops. Loading the library is the process's
    once, not the judging's: it is done before the clock starts (else the first cell
    asked in a process, its share spent on the load, would judge none)."""
    _library()
    start = time.process_time()
    best, score, judged = None, float("-inf"), 0
    for game in known_games(players, rules):
        if time.process_time() - start > budget:
            break
        judged += 1
        got = judge(game)
        if got is not None and got > score:
            best, score = game, got
    return best, score, judged
