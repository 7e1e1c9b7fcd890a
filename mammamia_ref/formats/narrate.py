"""Readable text for events and steps: what a designer reads to follow a game, each
line ending with the rule ID that decided it."""

from __future__ import annotations

from mammamia_ref.formats.event_register import say
from mammamia_ref.rules.actions import Action, Shuffle, describe
from mammamia_ref.rules.events import Event
from mammamia_ref.rules.state import GameConfig


def event_text(item: Event, config: GameConfig) -> str:
    """One line for one event, in its words of the register (spec/events.yaml), with
    its rule ID."""
    return f"{say(item.name, dict(item.data), lambda seat: config.colours[seat])}  [{item.rule}]"


def step_lines(action: Action, events: tuple[Event, ...], actor: int | None,
               config: GameConfig) -> list[str]:
    """The lines of one step: who did what, then what followed."""
    if isinstance(action, Shuffle):
        head = f"chance: {describe(action)}"
    else:
        head = f"{config.colours[actor] if actor is not None else '?'}: {describe(action)}"
    return [head, *(f"    {event_text(item, config)}" for item in events)]
