"""Readable text for events and steps: what a designer reads to follow a game, each
line ending with the rule ID that decided it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from mammamia_ref.rules.actions import Action, Shuffle, describe
from mammamia_ref.rules.events import Event
from mammamia_ref.rules.state import GameConfig


def _cards(counts: dict[str, int]) -> str:
    return ", ".join(f"{n} {kind}" for kind, n in counts.items() if n) or "nothing"


def event_text(item: Event, config: GameConfig) -> str:
    """One line for one event, with its rule ID."""
    d: dict[str, Any] = dict(item.data)

    def who(key: str = "seat") -> str:
        return config.colours[d[key]] if d.get(key) is not None else "nobody"

    texts: dict[str, Callable[[], str]] = {
        "dealt": lambda: f"{d['cards']} ingredient cards dealt to each of {d['players']} players",
        "mamma_mia_dealt": lambda: f"{who()} is dealt the Mamma Mia! card and is dealt another",
        "mamma_mia_joined_supply": lambda: "the Mamma Mia! card is shuffled into the supply",
        "took_first_orders": lambda: "each player takes the top order of their waiter",
        "turn_begins": lambda: f"round {d['round']}: {who()} to play",
        "played": lambda: f"{who()} plays {d['count']} {d['kind']}",
        "passed": lambda: f"{who()} has no ingredient card and passes",
        "placed_order": lambda: f"{who()} places order {d['order']}",
        "drew": lambda: f"{who()} draws {d['count']} from the {d['source']}"
                        + (f" ({_cards(d['cards'])})" if d.get("cards") else ""),
        "mamma_mia_drawn": lambda: f"{who()} draws the Mamma Mia! card and draws again",
        "mamma_mia_taken": lambda: f"{who()} takes the Mamma Mia! card",
        "round_ended": lambda: f"round {d['round']} ends",
        "oven_opened": lambda: f"{who()} opens the oven ({d['cards']} cards)",
        "revealed": lambda: (f"revealed {d['card']}" + (f" ({who('owner')})" if "owner" in d
                                                         else "")),
        "needs": lambda: f"{d['order']} needs "
                         + (_cards(d["cards"]) if "cards" in d else f"at least {d['total']} cards"),
        "named_kind": lambda: f"{d['order']} is made with {d['kind']}",
        "completed_from_hand": lambda: f"{who()} completes {d['order']} from hand with "
                                       f"{_cards(d['cards'])}",
        "baked": lambda: f"{d['order']} is baked ({_cards(d['used'])} to the used pile) and "
                         f"delivered",
        "failed": lambda: f"{d['order']} fails ({d['why']}) and goes under {who()}'s waiter",
        "leftovers_to_oven": lambda: f"{d['cards']} unused ingredients start the next oven",
        "leftovers_stay": lambda: f"{d['cards']} unused ingredients stay on the table",
        "supply_gathered": lambda: f"the used ingredients and the Mamma Mia! card make a "
                                   f"supply of {d['cards']} cards",
        "game_ended": lambda: f"the game ends after {d['resolutions']} resolutions",
        "winners": lambda: winners_text(d["seats"], d["delivered"], config.colours),
    }
    text = texts[item.name]() if item.name in texts else f"{item.name} {d}"
    return f"{text}  [{item.rule}]"


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
