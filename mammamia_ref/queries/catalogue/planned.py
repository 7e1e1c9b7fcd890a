"""Witnesses built by plans (every action through the reference), for more players
than the bounded z3 search reaches."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mammamia_ref.queries.catalogue.common import (
    a_game,
    plan_variants,
    players_of,
    supply_shuffles,
)
from mammamia_ref.queries.catalogue.construct import Builder, build
from mammamia_ref.queries.catalogue.plans import (
    all_orders,
)


def all_orders_game(answer: Mapping[str, Any]) -> Builder:
    """The game of :func:`.plans.all_orders` for the answer's players, yellow first:
    Q23's first round, in which red delivers all the orders one opening can take, played
    on to the game's end (every action through the reference)."""
    return build(all_orders, players_of(answer), plan_variants(answer), first_player=1)


def deliveries(built: Builder, seat: int) -> list[list[str]]:
    """The orders ``seat`` delivers at each opening of a built game, read from the
    reference's events (a round's opening ends with the next supply's shuffle)."""
    shuffles = supply_shuffles(built.played)[1:]
    colour = built.config.colours[seat]
    out: list[list[str]] = [[] for _ in range(len(shuffles) + 1)]
    for i, event in built.events("baked"):
        order = event.get("order")
        if order.startswith(f"{colour}."):
            out[sum(1 for s in shuffles if s < i)].append(order)
    return out


def all_orders_story(built: Builder) -> str:
    """What happens in a game of :func:`.plans.all_orders`, from the reference's events."""
    players = built.players
    per = [len(d) for d in deliveries(built, 0)]
    rounds = ", ".join(f"{n} at opening {r}" for r, n in enumerate(per, start=1) if n)
    others = ", ".join(built.config.colours[1:])
    counts = [len(d) for d in built.state.delivered]
    return (f"{a_game(players)}, yellow first: the first round of Q23's game (red, dealt six "
            "salami, plays one with an order on each turn; the player before red plays "
            "what each order lacks; the others dump their cards and hold orders), then "
            "every round played out, each player playing their largest group and "
            "drawing from the supply until it runs out. "
            + ("Red holds its One-of-each, the order the first opening cannot also take, "
               "and places it in the second round once the oven shows every kind. "
               if per[0] < 8 else "")
            + f"Red delivers {counts[0]} orders ({rounds}); {others} place none and "
            f"deliver {', '.join(str(n) for n in counts[1:])}.")
