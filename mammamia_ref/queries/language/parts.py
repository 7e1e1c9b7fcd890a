"""The parts of a run of the game model that a span keeps (``within:``), as z3 terms:
the steps in a part, and for a part bounded by an event or by a seat's own turns, which
of a step's events (and of its cards revealed) and which states lie in it.
:func:`.conditions.span_part` cuts from a model's run the part :func:`.judging.span`
cuts from the reference's game, with these; ``tests/test_conditions.py`` holds every
span to the reference's events and states."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from mammamia_ref.queries.model import num as N
from mammamia_ref.queries.model.events_model import seat_is
from mammamia_ref.queries.model.game_model import GameModel
from mammamia_ref.queries.model.game_terms import Step


@dataclass(frozen=True)
class Part:
    """The part of a run a condition is judged on (see :func:`.judging.span`): the steps
    in it (all when None) and whether the setup's state belongs to it; for a span bounded
    by an event, which events of a step (by name) and which states it holds, as z3
    terms (``events``, ``states``: the state a step leaves, None for the setup's)."""

    steps: frozenset[int] | None = None
    setup: bool = True
    events: Callable[[Step, str], Any] | None = None
    states: Callable[[int | None, str | None], Any] | None = None
    present: Any = None   # a term: whether the run has the part at all (None: it has)
    cards: Callable[[Step, int], Any] | None = None   # which of a step's cards revealed

    def has(self, index: int) -> bool:
        return self.steps is None or index in self.steps

    def event_in(self, step: Step, name: str) -> Any:
        """Whether an event ``name`` of ``step`` lies in the part (a term)."""
        return self.events(step, name) if self.events is not None else N.BoolVal(True)

    def card_in(self, step: Step, card: int) -> Any:
        """Whether the card ``step`` reveals at position ``card`` lies in the part (a
        span bounded by a card revealed cuts among a step's cards:
        :func:`.conditions.each_revealed`)."""
        inside = self.event_in(step, "revealed")
        return inside if self.cards is None else N.And(inside, self.cards(step, card))

    def state_in(self, index: int | None, point: str | None = None) -> Any:
        """Whether the state step ``index`` leaves (with ``point``, the state inside it
        after that event: :class:`.conditions.Stop`) lies in the part (a term)."""
        static = self.setup if index is None else self.has(index)
        if not static:
            return N.BoolVal(False)
        return self.states(index, point) if self.states is not None else N.BoolVal(True)


EMITTED = {"turn": ("played", "passed", "placed_order", "drew", "mamma_mia_drawn",
                    "mamma_mia_taken", "round_ended", "oven_opened"),
           "reveal": ("revealed", "named_kind", "completed_from_hand", "baked", "failed"),
           "transition": ("leftovers_to_oven", "game_ended", "mamma_mia_taken",
                          "round_ended", "oven_opened", "revealed")}
"""The order in which the reference emits the events of one model step: a span bounded
by an event holds the events of its step that come after (or before) it. ``revealed``
may come many times in one step, but always together (the leftovers, the turn's cards,
its order): a span it bounds cuts among them card by card (:attr:`Part.cards`)."""


def turns_begin(model: GameModel) -> list[int]:
    """The steps in which the reference begins a turn (``turn_begins``), in order: each
    turn step, and the preparation of a round that ends as it starts (a schedule's 0,
    under ``round_end.last_ingredient``), where its starting player's turn begins and the
    round ends before any action."""
    def at_once(st: Step) -> bool:
        return st.what == "transition" and st.round < model.R and model.schedule[st.round] == 0

    return [st.index for st in model.steps if st.what == "turn" or at_once(st)]


def own_turns(seat: str, limit: int, model: GameModel, part: Part) -> Part:
    """The part before ``seat`` begins its turn number ``limit + 1`` (:func:`.judging.within`
    with a seat): a step's events and the state it leaves lie in it while the seat has
    begun at most ``limit`` turns (a round that ends as it starts: its leftovers moved
    and its state before the turn it begins, as for the game's first turns; a state
    inside a step: as the step's)."""
    begins = set(turns_begin(model))
    before: dict[int, Any] = {}
    after: dict[int, Any] = {}
    so_far: Any = N.Val(0)
    for st in model.steps:
        before[st.index] = so_far
        if st.index in begins:
            who = st.facts["who"] if st.what == "turn" else model.S[st.after].cur
            so_far = so_far + N.If(seat_is(who, seat, model), 1, 0)
        after[st.index] = so_far
    at_once = {i for i in begins if model.steps[i].what != "turn"}

    def events(step: Step, name: str) -> Any:
        counted = before if step.index in at_once and name == "leftovers_to_oven" else after
        return N.And(part.event_in(step, name), counted[step.index] <= limit)

    def states(index: int | None, point: str | None = None) -> Any:
        inner = N.BoolVal(True) if part.states is None else part.states(index, point)
        if index is None:
            return inner
        return N.And(inner, (before if index in at_once else after)[index] <= limit)

    return Part(part.steps, part.setup, events, states, part.present, part.cards)


def before_the_turn(cut: int, events: Callable[[Step, str], Any] | None
                     ) -> Callable[[Step, str], Any]:
    """A part's events, but of step ``cut`` (a round's preparation in which a turn begins
    and the round ends at once) only those the reference emits before the turn begins:
    the leftovers moved into the oven."""
    def kept(step: Step, name: str) -> Any:
        inner = N.BoolVal(True) if events is None else events(step, name)
        return inner if step.index != cut or name == "leftovers_to_oven" else N.BoolVal(False)

    return kept


__all__ = ["EMITTED", "Part", "before_the_turn", "own_turns", "turns_begin"]
