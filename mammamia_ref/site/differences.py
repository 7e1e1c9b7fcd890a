"""The positions a scenario ends in under several rulings, told as a player would say
them: each place of the game that differs (a hand, a waiter, the delivered pizzas, the
supply, the oven, the table, the used pile, the round, what a player sees), in words,
one value per ruling. The final states are canonical JSON (``mammamia-state/1``), with
each player's observation under ``what COLOUR sees``, as
:class:`mammamia_ref.sim.rulings.Comparison` holds them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

MAMMA_MIA = "mamma_mia"
# A pile longer than this is told by kind ("30 cards: 8 salami, ..."), not card by card.
LISTED_CARDS = 8


def kind_words(kind: str, count: int) -> str:
    """A number of ingredient cards of one kind.

    >>> kind_words("mushroom", 3), kind_words("salami", 2), kind_words("olive", 1)
    ('3 mushrooms', '2 salami', '1 olive')
    >>> kind_words("ingredients", 4), kind_words("orders", 1)
    ('4 ingredients', '1 order')
    """
    if kind.endswith("s"):  # a count of cards of some sort ("ingredients", "orders")
        return f"{count} {kind[:-1] if count == 1 else kind}"
    plural = count != 1 and kind != "salami"
    return f"{count} {kind}{'s' if plural else ''}"


def and_list(items: Sequence[str]) -> str:
    """Items joined as a sentence would join them.

    >>> and_list(["olive", "salami", "the Mamma Mia! card"])
    'olive, salami and the Mamma Mia! card'
    >>> and_list([])
    'nothing'
    """
    if not items:
        return "nothing"
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def counts_words(counts: Mapping[str, int]) -> str:
    """Ingredient counts in words, the kinds with none left out.

    >>> counts_words({"salami": 0, "mushroom": 3, "pepper": 1})
    '3 mushrooms and 1 pepper'
    """
    return and_list([kind_words(k, n) for k, n in counts.items() if n]) if any(
        counts.values()) else "no ingredient"


def card_words(card: str) -> str:
    """One card: an ingredient by its kind, an order by its name, the Mamma Mia! card.

    >>> card_words("olive"), card_words("green.minimale"), card_words("mamma_mia")
    ('olive', 'Minimale', 'the Mamma Mia! card')
    >>> card_words("red.salami4"), card_words("red.one_of_each")
    ('Salami', 'One of each')
    """
    if card == MAMMA_MIA:
        return "the Mamma Mia! card"
    if "." in card:
        name = card.split(".", 1)[1].rstrip("4").replace("_", " ")
        return name[:1].upper() + name[1:]
    return card


def pile_words(cards: Sequence[str]) -> str:
    """A pile or stack in order (top or first first), or by kind when it is long.

    >>> pile_words(["olive", "salami", "mamma_mia"])
    'olive, salami and the Mamma Mia! card'
    >>> pile_words(["salami"] * 8 + ["olive"] * 2 + ["mamma_mia"])
    '11 cards: 8 salami, 2 olives and the Mamma Mia! card'
    >>> pile_words([])
    'empty'
    """
    if not cards:
        return "empty"
    if len(cards) <= LISTED_CARDS:
        return and_list([card_words(c) for c in cards])
    kinds: dict[str, int] = {}
    for card in cards:
        kinds[card] = kinds.get(card, 0) + 1
    parts = [kind_words(k, n) if "." not in k and k != MAMMA_MIA
             else (card_words(k) if n == 1 else f"{n} x {card_words(k)}")
             for k, n in kinds.items()]
    return f"{len(cards)} cards: {and_list(parts)}"


def orders_words(orders: Sequence[str]) -> str:
    """Order cards by name, with how many when there are several.

    >>> orders_words(["yellow.pepper4", "yellow.minimale"])
    '2: Pepper and Minimale'
    >>> orders_words([])
    'none'
    """
    if not orders:
        return "none"
    names = and_list([card_words(o) for o in orders])
    return names if len(orders) == 1 else f"{len(orders)}: {names}"


def places(state: Mapping[str, Any]) -> dict[str, str]:
    """The places of a final state a player could point at, each in words."""
    found: dict[str, str] = {}
    for player in state.get("players") or []:
        colour = player["colour"]
        hand = player.get("hand") or {}
        found[f"{colour.capitalize()}'s hand"] = (
            counts_words(hand.get("ingredients") or {})
            + f"; orders: {orders_words(hand.get('orders') or [])}")
        found[f"{colour.capitalize()}'s waiter"] = orders_words(player.get("waiter") or [])
        found[f"{colour.capitalize()}'s delivered pizzas"] = orders_words(
            player.get("delivered") or [])
    found["The supply (top first)"] = pile_words(state.get("supply") or [])
    found["The oven (first card first)"] = pile_words(state.get("oven") or [])
    found["The table"] = counts_words(state.get("table") or {})
    found["The used pile"] = counts_words(state.get("used") or {})
    found["The round"] = (f"round {state.get('round')}, after {state.get('resolutions')} "
                          "oven resolutions")
    if state.get("phase") is not None:
        found["What happens next"] = str(state.get("phase")).replace("_", " ") + (
            f" ({str(state['step']).replace('_', ' ')})" if state.get("step") else "")
    return found


def _leaves(value: Any, path: str = "") -> dict[str, Any]:
    """A JSON value's leaves by path; a list of plain values, or a map of counts, is one
    leaf (a pile, a hand), so that it is told as one."""
    if isinstance(value, Mapping) and value and not all(
            isinstance(v, int) and not isinstance(v, bool) for v in value.values()):
        return {k: v for key, sub in value.items()
                for k, v in _leaves(sub, f"{path}/{key}").items()}
    if isinstance(value, list) and value and isinstance(value[0], (dict, list)):
        return {k: v for i, sub in enumerate(value)
                for k, v in _leaves(sub, f"{path}/{i}").items()}
    return {path: value}


def _seen_place(observer: str, path: str, colours: Sequence[str]) -> str:
    """A part of a player's observation, named in words.

    >>> _seen_place("green", "/players/0/hand_size/ingredients", ["green", "red"])
    "What green sees: green's ingredient cards in hand"
    >>> _seen_place("red", "/supply_size", ["green", "red"])
    'What red sees: the cards in the supply'
    >>> _seen_place("red", "/hand/ingredients", ["green", "red"])
    'What red sees: own hand'
    """
    parts = [p for p in path.split("/") if p]
    if parts[:1] == ["hand"]:  # the observer's own hand
        parts = ["own hand", *parts[1:]][:1]
    names = {"hand_size": "cards in hand", "supply_size": "cards in the supply",
             "waiter_size": "orders in the waiter", "used_size": "cards in the used pile",
             "stack": "", "ingredients": "ingredient", "orders": "order"}
    words: list[str] = []
    i = 0
    while i < len(parts):
        part = parts[i]
        if part == "players" and i + 1 < len(parts) and parts[i + 1].isdigit():
            seat = int(parts[i + 1])
            words.append(f"{colours[seat] if seat < len(colours) else 'seat ' + str(seat)}'s")
            i += 2
            continue
        words.append(names.get(part, part.replace("_", " ")))
        i += 1
    text = " ".join(w for w in words if w)
    text = text.replace("cards in hand ingredient", "ingredient cards in hand")
    text = text.replace("cards in hand order", "order cards in hand")
    named = text.split()[0].endswith("'s") or text.startswith("own ")
    return f"What {observer} sees: " + (text if named else "the " + text)


def _seen_words(value: Any) -> str:
    if isinstance(value, list):
        if value and isinstance(value[0], str):
            return pile_words(value)
        return "nothing" if not value else str(value)
    if isinstance(value, Mapping):
        return counts_words(value)
    return "hidden" if value is None else str(value)


# A ruling under which the scenario stopped before its end has no final position.
NOT_REACHED = "not reached: the scenario stops earlier under this ruling"
# How many parts of one player's view a row names (the rest follows from the rows above).
SEEN_PARTS = 3


def final_differences(finals: Sequence[Mapping[str, Any] | None],
                      limit: int = 8) -> tuple[list[tuple[str, list[str]]], int]:
    """The places whose words differ between the final states, each with its words under
    every ruling (at most ``limit`` places), and how many more differ; then, a row per
    player, what that player sees differently. The rulings (columns) are those of
    ``finals``; one that stopped early reads :data:`NOT_REACHED`."""
    reached = [f for f in finals if f is not None]
    if len(reached) < 2:
        return [], 0
    colours = [p["colour"] for p in reached[0].get("players") or []]
    told = [None if f is None else places(f) for f in finals]
    shown = [t for t in told if t is not None]
    rows = [(place, [NOT_REACHED if t is None else t.get(place, "") for t in told])
            for place in shown[0] if len({t.get(place) for t in shown}) > 1]
    for key in [k for k in reached[0] if k.startswith("what ") and k.endswith(" sees")]:
        observer = key[len("what "):-len(" sees")]
        seen = [None if f is None else _leaves(f.get(key)) for f in finals]
        paths = dict.fromkeys(p for v in seen if v is not None for p in v
                              if not p.startswith("/variants"))
        differing = [p for p in paths if len({repr(v.get(p)) for v in seen
                                              if v is not None}) > 1][:SEEN_PARTS]
        if differing:
            rows.append((f"What {observer} sees", [
                NOT_REACHED if v is None else "; ".join(
                    _seen_place(observer, p, colours).split(": ", 1)[1] + ": "
                    + _seen_words(v.get(p)) for p in differing) for v in seen]))
    return rows[:limit], max(0, len(rows) - limit)
