"""The derived field ``turned_by`` of ``baked`` and ``failed``: which earlier decision of
the same opening, taken otherwise, gives the order the other outcome.

A counterfactual is judged on one game: each decision of an opening (a kind named
where the kind rule offered a choice, an order completed from hand where its owner
could decline) is taken otherwise on the reference, from the state in which it was
asked, and every later decision of the opening is taken as the game took it (the
same kind named, the same completion or refusal, a Bombastica's same hand cards).
Where the rules do not allow that (the kind is not offered, the completion is not
asked, or a decision is made for the owner that the game did not make), that
alternative does not exist. Where it exists, each later order of the opening whose
outcome differs (baked in one, failed in the other) is *turned by* the decision.

Taken otherwise means: another kind the rule offers (and then completing or declining
as the owner may), or declining a completion (the same kind named). The z3 game model
states the same (:func:`..model.alternative.turned_by`); ``tests/test_turning.py`` holds
the two to each other, order by order, on replayed runs. Q02 and Q19 of the catalogue are stated
with it (``spec/questions/``).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from mammamia_ref.errors import IllegalActionError, SpecError
from mammamia_ref.queries.language import questions
from mammamia_ref.rules import game
from mammamia_ref.rules.actions import Action, Complete, Decline, NameKind
from mammamia_ref.rules.events import Event
from mammamia_ref.rules.oven import completions
from mammamia_ref.rules.state import GameConfig, GameState, Phase, Step, revealed
from mammamia_ref.rules.vocabulary import KINDS, ORDERS

DECIDING = {"named_kind": NameKind, "completed_from_hand": Complete}
"""The decisions ``turned_by`` may name (the vocabulary's, :data:`.questions.DECIDING`):
the event each emits and the action that takes it."""
if set(DECIDING) != set(questions.DECIDING):   # pragma: no cover - a spec edit
    raise SpecError("question_vocabulary.yaml: turned_by's events are "
                    f"{sorted(questions.DECIDING)}; the reference replays {sorted(DECIDING)}")

Steps = Sequence[tuple[Any, tuple[Event, ...], GameState]]
"""A game's actions, each with its events and the state after (not split into parts)."""

Key = tuple[int, str]
"""An order in one opening: the opening's number in the game (1 for the first), the
order's ID (an order may come back to a later opening)."""


@dataclass(frozen=True)
class Decided:
    """What an opening did with one order: the kind named, the hand cards that completed
    it, and whether it baked. Two runs decide alike on an order where the kind and the
    completion agree (a Bombastica's cards too: any other order's are what it lacks)."""

    named: str | None = None
    completed: Mapping[str, int] | None = None
    baked: bool | None = None

    def alike(self, other: Decided, order: str) -> bool:
        if self.named != other.named or (self.completed is None) != (other.completed is None):
            return False
        return ORDERS[order].type != "bombastica" or self.completed == other.completed


def turnings(steps: Steps, config: GameConfig, start: GameState | None = None
              ) -> dict[Key, tuple[Event, ...]]:
    """For each order of each opening of a game (``steps``: the reference's actions, each
    with its events and the state after; not split into parts; from a new game, or from
    ``start``), the deciding events that turn it (:mod:`this module <.turning>`), in the
    order they were taken."""
    state = start if start is not None else game.new_game(config)
    opening = 0
    asked: list[tuple[int, GameState, Action, Event]] = []
    decided: dict[Key, Decided] = {}
    for action, events, after in steps:
        deciding = next((name for name, kind in DECIDING.items() if isinstance(action, kind)),
                        None)
        for e in events:
            if e.name == "oven_opened":
                opening += 1
            _note(decided, (opening, e.get("order")), e)
            if e.name == deciding:
                asked.append((opening, state, action, e))
                deciding = None   # the action's own decision: later events follow from it
        state = after
    out: dict[Key, tuple[Event, ...]] = {}
    for opening, before, action, e in asked:
        for u in _turned(opening, before, action, decided):
            out[(opening, u)] = (*out.get((opening, u), ()), _with_fields(e, before))
    return out


def turning_notes(steps: Steps, config: GameConfig) -> dict[int, str]:
    """For a game's witness: at each action (by index) whose events hold a turned order,
    which decision turned it and how, in words."""
    turns = turnings(steps, config)
    notes: dict[int, str] = {}
    opening = 0
    for i, (_action, events, _state) in enumerate(steps):
        said = []
        for e in events:
            opening += e.name == "oven_opened"
            if e.name in ("baked", "failed"):
                said += [_told(e, d) for d in turns.get((opening, e.get("order")), ())]
        if said:
            notes[i] = "; ".join(said)
    return notes


def _told(e: Event, deciding: Event) -> str:
    """One turned order in words (:func:`turning_notes`)."""
    order = deciding.get("order")
    owner = ORDERS[order].colour
    taken = f"declined to complete {order}" if deciding.name == "completed_from_hand" else \
        f"named another kind than {deciding.get('kind')} for {order}"
    other = "failed" if e.name == "baked" else "baked"
    return (f"{e.get('order')} {e.name}; had {owner} {taken}, every later decision of the "
            f"opening alike, it would have {other} (turned_by: {deciding.name})")


def _note(decided: dict[Any, Decided], key: Any, e: Event) -> None:
    """What ``e`` tells of its order's :class:`Decided`, noted under ``key``."""
    was = decided.get(key, Decided())
    if e.name == "named_kind":
        decided[key] = replace(was, named=e.get("kind"))
    elif e.name == "completed_from_hand":
        decided[key] = replace(was, completed=e.get("cards"))
    elif e.name in ("baked", "failed"):
        decided[key] = replace(was, baked=e.name == "baked")


def _with_fields(e: Event, before: GameState) -> Event:
    """The deciding event with the derived fields a ``turned_by`` may test of it."""
    extra: list[tuple[str, Any]] = [("order_type", ORDERS[e.get("order")].type)]
    if e.name == "named_kind":
        extra.append(("on_table", before.table[KINDS.index(e.get("kind"))]))
    return replace(e, data=e.data + tuple(extra))


def _turned(opening: int, before: GameState, action: Action,
            decided: Mapping[Key, Decided]) -> set[str]:
    """The orders of the opening whose outcome a decision taken otherwise turns."""
    mine = revealed(before).order
    out: set[str] = set()
    for events in _otherwise(before, action, opening, decided):
        alternative: dict[Any, Decided] = {}
        for e in events:
            if e.name == "oven_opened":   # the next opening: beyond this one
                break
            _note(alternative, e.get("order"), e)
        later = {o: d for o, d in alternative.items() if o != mine}
        if all((opening, o) in decided and d.alike(decided[(opening, o)], o)
               for o, d in later.items()):
            out |= {o for o, d in later.items() if d.baked != decided[(opening, o)].baked}
    return out


def _otherwise(before: GameState, action: Action, opening: int,
               decided: Mapping[Key, Decided]) -> Iterator[tuple[Event, ...]]:
    """The events of each run of the rest of the opening from ``before`` (the state the
    decision was asked in) with the decision taken otherwise, every later one as the game
    took it; a run the rules do not allow is left out."""
    others = [a for a in game.legal_actions(before)
              if a != action and (isinstance(a, NameKind) if isinstance(action, NameKind)
                                  else isinstance(a, Decline))]
    for other in others:
        state, events = game.apply(before, other)
        pending = state.phase == Phase.OVEN and state.step == Step.COMPLETE and \
            state.reveal is not None and state.reveal.order == revealed(before).order
        for then in (game.legal_actions(state) if pending else (None,)):
            start, so_far = state, events
            if then is not None:
                start, more = game.apply(state, then)
                so_far = (*events, *more)
            rest = _as_taken(start, opening, decided)
            if rest is not None:
                yield (*so_far, *rest)


def _as_taken(state: GameState, opening: int,
              decided: Mapping[Key, Decided]) -> tuple[Event, ...] | None:
    """The rest of the opening from ``state``, each decision as the game took it on the
    same order (None where the rules do not allow it)."""
    out: tuple[Event, ...] = ()
    while state.phase == Phase.OVEN and state.reveal is not None:
        order = revealed(state).order
        was = decided.get((opening, order))
        if was is None:
            return None
        action: Action | None
        if state.step == Step.NAME_KIND:
            action = NameKind(was.named) if was.named is not None else None
        elif was.completed is None:
            action = Decline()
        elif ORDERS[order].type == "bombastica":
            action = Complete(tuple(was.completed[k] for k in KINDS))
        else:   # the cards it lacks: the one completion there is, if any
            options = completions(state)
            action = Complete(options[0]) if options else None
        if action is None:
            return None
        try:
            state, events = game.apply(state, action)
        except IllegalActionError:
            return None
        out += events
    return out


__all__ = ["DECIDING", "Decided", "turning_notes", "turnings"]
