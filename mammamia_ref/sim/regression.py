"""Turning a failing action sequence (found by hypothesis, or by a porter's run) into a
permanent regression scenario in our format (``docs/scenario-format.md``).

The reference is the oracle: the sequence is replayed from a new game, and every step
records what the reference did (its events, or the rule it rejected the action under);
the last step also records the whole final state, who is to move, the legal actions and,
if the game is over, the winners. A scenario written here loads with
:func:`mammamia_ref.formats.scenario.load_scenario` and passes
:func:`mammamia_ref.sim.scenario_run.run_scenario` against the
reference, so a port that diverges fails it at the first differing step.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import yaml

from mammamia_ref.errors import IllegalActionError, MammamiaError
from mammamia_ref.formats.jsonform import format_state
from mammamia_ref.formats.scenario import SCENARIO_FORMAT, load_scenario
from mammamia_ref.rules import specdata
from mammamia_ref.rules.actions import Action, format_action
from mammamia_ref.rules.events import format_event
from mammamia_ref.rules.game import apply, is_over, legal_actions, new_game, to_move, winners
from mammamia_ref.rules.state import GameConfig, GameState
from mammamia_ref.sim.scenario_run import run_scenario

_ID = re.compile(r"^[a-z0-9][a-z0-9-]*$")


class RegressionError(MammamiaError):
    """The sequence cannot be written as a passing scenario (bad id, unknown rule, or an
    action the reference fails on with something other than a rule rejection)."""


def write_regression_scenario(config: GameConfig, actions: Sequence[Action], path: str | Path,
                              *, title: str, rules: Sequence[str], failure: str,
                              verify: bool = True) -> Path:
    """Write ``actions`` (from a new game of ``config``, shuffles included) to ``path`` as a
    scenario whose expectations are what the reference produced. The scenario id is the
    file's stem. ``rules`` names the rules concerned (empty: the rules of the last
    step's events); ``failure`` (the failing check, or hypothesis' report) goes into the
    description. With ``verify`` the written file is loaded and run, and an error is
    raised unless it passes. Returns the path."""
    path = Path(path)
    scenario_id = path.stem
    if path.suffix != ".yaml" or not _ID.match(scenario_id):
        raise RegressionError(f"{path}: a scenario file is <id>.yaml with an id of "
                              f"[a-z0-9-], starting with a letter or digit")
    steps, last_events = _replay(config, actions)
    known = specdata.rule_ids()
    chosen = list(dict.fromkeys(rules)) or sorted({e["rule"] for e in last_events})
    if not chosen:
        raise RegressionError("name at least one rule: the last step produced no event")
    if unknown := [rule for rule in chosen if rule not in known]:
        raise RegressionError(f"unknown rule IDs: {', '.join(unknown)}")
    setup: dict[str, Any] = {"players": config.players, "colours": list(config.colours),
                             "first_player": config.first_player}
    doc: dict[str, Any] = {
        "format": SCENARIO_FORMAT,
        "id": scenario_id,
        "title": title,
        "description": f"Regression: {failure.strip() or 'a failing sequence'}. Every step "
                       "expects the events the reference produced; the last step also its "
                       "whole final state.",
        "rules": chosen,
        "tags": ["regression"],
        "variants": dict(config.rules.as_dict()),
        "given": {"setup": setup},
        "steps": steps,
    }
    doc = json.loads(json.dumps(doc))  # no shared objects, so safe_dump writes no aliases
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(yaml.safe_dump(doc, sort_keys=False, allow_unicode=True, width=100,
                                   default_flow_style=None),
                    encoding="utf-8")
    if verify:
        results = run_scenario(load_scenario(path))
        if not all(result.passed for result in results):
            failed = next(result for result in results if not result.passed)
            raise RegressionError(f"{path}: the written scenario does not pass against the "
                                  f"reference at step {failed.step}: {failed.failure}")
    return path


def _replay(config: GameConfig, actions: Sequence[Action]
            ) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The scenario steps of ``actions`` as the reference plays them, and the events of
    the last accepted action."""
    if not actions:
        raise RegressionError("a regression scenario needs at least one action")
    state = new_game(config)
    steps: list[dict[str, Any]] = []
    events: list[dict[str, Any]] = []
    for index, action in enumerate(actions):
        step: dict[str, Any] = {"do": format_action(action)}
        try:
            state, produced = apply(state, action)
        except IllegalActionError as exc:
            step["reject"] = {"rule": exc.rule}
        except Exception as exc:  # the reference itself is broken: fix it first
            raise RegressionError(f"action {index} ({format_action(action)}) makes the "
                                  f"reference fail: {exc!r}") from exc
        else:
            events = [format_event(e) for e in produced]
            step["expect"] = {"events_exact": events}  # pinned: [] pins "no event"
        steps.append(step)
    final: dict[str, Any] = {"state": format_state(state), "to_move": _mover(state),
                             "legal": [format_action(a) for a in legal_actions(state)]}
    if is_over(state):
        seats, rule = winners(state)
        final["winners"] = [state.colour(seat) for seat in seats]
        final["winner_rule"] = rule
    steps.append({"note": "the final state the reference reached", "expect": final})
    return steps, events


def _mover(state: GameState) -> str | None:
    seat = to_move(state)
    return None if seat is None else state.colour(seat)


__all__ = ["RegressionError", "write_regression_scenario"]
