"""Readable text for events and steps: what a designer reads to follow a game, each
line ending with the rule ID that decided it."""

from __future__ import annotations

from mammamia_ref.formats.event_register import say
from mammamia_ref.rules.actions import Action, Shuffle, describe
from mammamia_ref.rules.events import Event
from mammamia_ref.rules.state import GameConfig


def event_text(item: Event, config: GameConfig) -> str:
    """One line for one event, in its words of the register (spec/events.yaml), with
    its rule ID; the winners in a sentence of their own (:func:`winners_text`)."""
    data = dict(item.data)
    if item.name == "winners":
        return f"{winners_text(data['seats'], data['delivered'], config.colours)}  [{item.rule}]"
    return f"{say(item.name, data, lambda seat: config.colours[seat])}  [{item.rule}]"


def winners_text(seats: list[int], delivered: list[int], colours: tuple[str, ...]) -> str:
    """Who won and with how many pizzas, the others' counts after.

    >>> winners_text([0], [7, 5, 4, 4], ("red", "yellow", "green", "brown"))
    'winner: red with 7 pizzas delivered (yellow 5, green 4, brown 4)'
    >>> winners_text([0, 1], [6, 6], ("red", "yellow"))
    'winners: red and yellow with 6 pizzas delivered each'
    """
    if not seats:
        return "no winner"
    best = delivered[seats[0]]
    names = " and ".join(colours[s] for s in seats)
    others = ", ".join(f"{colours[s]} {n}" for s, n in enumerate(delivered) if s not in seats)
    head = f"winners: {names}" if len(seats) > 1 else f"winner: {names}"
    return (f"{head} with {best} pizza{'' if best == 1 else 's'} delivered"
            f"{' each' if len(seats) > 1 else ''}" + (f" ({others})" if others else ""))


def step_lines(action: Action, events: tuple[Event, ...], actor: int | None,
               config: GameConfig) -> list[str]:
    """The lines of one step: who did what, then what followed."""
    if isinstance(action, Shuffle):
        head = f"chance: {describe(action)}"
    else:
        head = f"{config.colours[actor] if actor is not None else '?'}: {describe(action)}"
    return [head, *(f"    {event_text(item, config)}" for item in events)]
