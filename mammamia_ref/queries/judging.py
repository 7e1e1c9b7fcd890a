"""Judging a game by a question (:mod:`.questions`' grammar): a condition's events and
states, the part of a game within the bound, and the measures of ``most:`` / ``fewest:``.
Both of ``ask``'s routes judge a game here: the search (:mod:`.searching`) and the z3
game model's runs once the reference has played them (:mod:`.bounded`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from mammamia_ref.queries.questions import SEAT_FIELDS, kept_once_met
from mammamia_ref.rules.actions import Action
from mammamia_ref.rules.events import Event
from mammamia_ref.rules.ruleset import Rules
from mammamia_ref.rules.state import GameConfig, GameState


@dataclass(frozen=True)
class Played:
    """A game as the reference played it: each action, its events, the state after."""

    config: GameConfig
    steps: tuple[tuple[Action, tuple[Event, ...], GameState], ...]
    seed: int | str = 0
    policy: str = ""
    found_by: str = ""     # how the game was found, where not by a seeded search


def states_at(played: Played, at: str) -> list[GameState]:
    """The states a condition ``at`` looks at: after every step, after each step that
    ends a round, or the last."""
    if at == "game_end":
        return [played.steps[-1][2]] if played.steps else []
    if at == "round_end":
        return [s for _a, events, s in played.steps
                if any(e.name == "round_ended" for e in events)]
    return [s for _a, _e, s in played.steps]


def within(game: Played, bound: Mapping[str, int], whole: bool = False) -> Played | None:
    """The part of a game a question judges: its first ``rounds`` rounds and ``turns``
    turns (the opening a last turn starts included), cut where the next turn begins;
    with ``whole`` (a condition judged on whole games), the game itself if it fits,
    else None."""
    from dataclasses import replace

    rounds, turns = bound.get("rounds"), bound.get("turns")
    begun = 0
    for i, (action, events, state) in enumerate(game.steps):
        for j, e in enumerate(events):
            if e.name != "turn_begins":
                continue
            begun += 1
            if (turns is not None and begun > turns) or \
                    (rounds is not None and e.get("round") > rounds):
                if whole:
                    return None
                return replace(game, steps=(*game.steps[:i], (action, events[:j], state)))
    return game


def meets(cond: Mapping[str, Any], game: Played, bound: Mapping[str, int]) -> bool:
    """Whether ``game`` meets a ``find:`` condition within a question's bound: on the part
    :func:`within` keeps, a whole game for a condition not kept once met
    (:func:`.questions.kept_once_met`)."""
    part = within(game, bound, not kept_once_met(cond))
    return part is not None and holds(cond, part)


def judged_on(bound: Mapping[str, int], rules: Rules, cond: Mapping[str, Any]) -> str:
    """The part of a game :func:`meets` judges ``cond`` on, in words."""
    whole = not kept_once_met(cond)
    rounds, turns = bound.get("rounds", rules.parameters.rounds), bound.get("turns")
    if whole:
        return "whole games" + (f" of at most {turns} turns" if turns else "")
    if rounds >= rules.parameters.rounds and not turns:
        return "whole games (a condition kept once met: any part of the game)"
    return f"the first {rounds} round(s) of a game" + (f" and its first {turns} turns"
                                                       if turns else "")


def state_count(state: GameState, cond: Mapping[str, Any]) -> list[int]:
    """The counts a state condition compares: one per seat for hand and delivered."""
    from mammamia_ref.rules.vocabulary import KINDS

    what, kind = cond["count"], cond.get("kind")

    def cards(pile: Sequence[str]) -> int:     # the supply and the oven: cards in order
        return sum(1 for c in pile if kind is None or c == kind)

    def counts(pile: Sequence[int]) -> int:    # the table and the used pile: per kind
        return pile[KINDS.index(kind)] if kind else sum(pile)

    if what == "round":
        return [state.round]
    if what in ("supply", "oven"):
        return [cards(getattr(state, what))]
    if what in ("used", "table"):
        return [counts(getattr(state, what))]
    per_seat = [len(d) for d in state.delivered] if what == "delivered" else \
        [h.ingredients[KINDS.index(kind)] if kind else h.size for h in state.hands]
    seat = cond.get("seat", "any")
    if seat in ("any", "all"):
        return per_seat
    colours = state.config.colours   # a colour not in play holds nothing to compare
    return [per_seat[colours.index(seat)]] if seat in colours else []


def compare(n: int, cond: Mapping[str, Any], default_least: int = 0) -> bool:
    """Whether ``n`` meets a condition's ``at_least`` / ``at_most`` / ``equals``."""
    if "equals" in cond:
        return n == int(cond["equals"])
    return int(cond.get("at_least", default_least)) <= n <= int(cond.get("at_most", n))


def holds(cond: Mapping[str, Any], played: Played) -> bool:
    """Whether a game meets a condition (:mod:`.questions`' grammar)."""
    if "all" in cond:
        return all(holds(c, played) for c in cond["all"])
    if "any" in cond:
        return any(holds(c, played) for c in cond["any"])
    if "not" in cond:
        return not holds(cond["not"], played)
    if "event" in cond:
        return compare(sum(1 for _a, events, _s in played.steps for e in events
                           if event_matches(e, cond, played.config)), cond, 1)
    state = cond["state"]
    every = state.get("seat") == "all"
    for s in states_at(played, state.get("at", "any_step")):
        counts = [compare(n, state) for n in state_count(s, state)]
        if (all(counts) if every else any(counts)):
            return True
    return False


def event_matches(event: Event, cond: Mapping[str, Any], config: GameConfig) -> bool:
    if event.name != cond["event"] or cond.get("rule", event.rule) != event.rule:
        return False
    for key, want in (cond.get("where") or {}).items():
        got = event.get(key)
        if key in SEAT_FIELDS and isinstance(got, int):
            got = config.colours[got]
        if got != want:
            return False
    return True


def baked_by_opening(played: Played) -> list[list[tuple[int, Event]]]:
    """Each oven opening's ``baked`` events, with the step of each, in the game's order."""
    openings: list[list[tuple[int, Event]]] = []
    for i, (_action, events, _state) in enumerate(played.steps):
        for e in events:
            if e.name == "oven_opened":
                openings.append([])
            elif e.name == "baked" and openings:
                openings[-1].append((i, e))
    return openings


def measure(name: str, played: Played, goal: str = "most") -> int | None:
    """A question's number for one game (:data:`.questions.MEASURES`); None where the
    game has none (no Pizza Bombastica baked), so that it is no candidate."""
    events = [(e, s) for _a, evs, s in played.steps for e in evs]
    if name == "turns":
        return sum(1 for e, _s in events if e.name == "turn_begins")
    if name == "longest_round":
        rounds: dict[int, int] = {}
        for e, s in events:
            if e.name == "turn_begins":
                rounds[s.round] = rounds.get(s.round, 0) + 1
        return max(rounds.values(), default=0)
    if name == "baked":
        return sum(1 for e, _s in events if e.name == "baked")
    if name == "baked_one_opening":
        return max((len(baked) for baked in baked_by_opening(played)), default=0)
    if name == "delivered":
        return sum(len(d) for d in played.steps[-1][2].delivered) if played.steps else 0
    if name == "largest_hand":
        return max((h.size for _a, _e, s in played.steps for h in s.hands), default=0)
    if name == "bombastica_cards":
        from mammamia_ref.rules.vocabulary import ORDERS

        taken = [sum(e.get("used").values()) for e, _s in events
                 if e.name == "baked" and ORDERS[e.get("order")].type == "bombastica"]
        return (max(taken) if goal == "most" else min(taken)) if taken else None
    raise ValueError(f"no measure {name}")   # pragma: no cover - checked when read


__all__ = ["Played", "baked_by_opening", "compare", "event_matches", "holds", "judged_on",
           "measure", "meets", "state_count", "states_at", "within"]
