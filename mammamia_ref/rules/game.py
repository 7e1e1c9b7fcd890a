"""The game's small, fixed API: create a game, ask who decides and what is legal,
apply an action. Each chapter module decides its own part; this module only routes.

>>> from mammamia_ref.rules.state import make_config
>>> state = new_game(make_config(3))
>>> to_move(state) is None and chance_pile(state)[0] == "ingredients"
True
"""

from __future__ import annotations

from collections.abc import Iterator

from mammamia_ref.errors import IllegalActionError
from mammamia_ref.rules import oven, round, scoring, setup, turn
from mammamia_ref.rules.actions import (
    Action,
    Complete,
    Decline,
    Draw,
    NameKind,
    NoOrder,
    Pass,
    PlaceOrder,
    Play,
    Shuffle,
    check_action,
)
from mammamia_ref.rules.events import Event
from mammamia_ref.rules.state import WAITER_PILE, GameConfig, GameState, Phase, Step, replace

Transition = tuple[GameState, tuple[Event, ...]]


def new_game(config: GameConfig) -> GameState:
    """A new game at its first chance node (the shuffle of the ingredient deck)."""
    return setup.new_game(config)


def is_chance(state: GameState) -> bool:
    return state.phase == Phase.SHUFFLE


def is_over(state: GameState) -> bool:
    return state.phase == Phase.OVER


def to_move(state: GameState) -> int | None:
    """The seat that must decide now; None at a chance node or when the game is over."""
    return state.current if state.phase in (Phase.TURN, Phase.OVEN) else None


def chance_pile(state: GameState) -> tuple[str, tuple[str, ...]]:
    """At a chance node: the pile to shuffle and its cards (any order of them is legal)."""
    if not is_chance(state):
        raise IllegalActionError("no pile is waiting to be shuffled", rule=decision_rule(state))
    if state.step.startswith(WAITER_PILE):
        return state.step, state.waiters[state.seat_of(state.step.removeprefix(WAITER_PILE))]
    return state.step, state.supply


def legal_actions(state: GameState) -> tuple[Action, ...]:
    """Every legal action of the player who must decide; () at chance nodes and at the end."""
    if state.phase == Phase.TURN:
        return turn.legal_actions(state)
    if state.phase == Phase.OVEN:
        return oven.legal_actions(state)
    return ()


def winners(state: GameState) -> tuple[tuple[int, ...], str]:
    """The winning seats of a finished game and the rule that decided them."""
    if not is_over(state):
        raise IllegalActionError("the game has not ended", rule="game_end.three_resolutions")
    return scoring.winners(state)


def apply(state: GameState, action: Action) -> Transition:
    """The state after ``action`` and the events it caused. An illegal action raises
    :class:`IllegalActionError` naming the rule it breaks; ``state`` is never changed."""
    check_action(action)
    state, events = _route(state, action)
    return _settle(state, events)


def apply_in_parts(state: GameState, action: Action) -> tuple[Transition, ...]:
    """:func:`apply`, part by part: the action's own transition, then each step that
    needs no decision (:func:`_settling`), each with the state it leaves and the events
    it caused. Their events together are :func:`apply`'s, the last state its state; the
    question language reads the state right after an event from them."""
    check_action(action)
    first = _route(state, action)
    return (first, *_settling(first[0]))


def _route(state: GameState, action: Action) -> Transition:
    phase, step = state.phase, state.step
    match action:
        case Shuffle() if phase == Phase.SHUFFLE:
            return shuffle(state, action)
        case Play() if phase == Phase.TURN and step == Step.PLAY:
            return turn.play(state, action)
        case Pass() if phase == Phase.TURN and step == Step.PLAY:
            return turn.pass_turn(state)
        case PlaceOrder() | NoOrder() if phase == Phase.TURN and step == Step.ORDER:
            return turn.place_order(state, action)
        case Draw() if phase == Phase.TURN and step == Step.DRAW:
            return turn.draw(state, action)
        case NameKind() if phase == Phase.OVEN and step == Step.NAME_KIND:
            return oven.name_kind(state, action)
        case Complete() | Decline() if phase == Phase.OVEN and step == Step.COMPLETE:
            return oven.complete(state, action)
    raise IllegalActionError(f"{type(action).__name__} is not the decision here "
                             f"({_decision_name(state)})", rule=_misplaced_rule(state, action),
                             action=action)


def check_seat(state: GameState, seat: int) -> None:
    """An action attempted by ``seat`` is refused unless that seat must decide now:
    during a turn under ``turn.clockwise``, otherwise under the pending decision's rule."""
    if seat != to_move(state):
        rule = "turn.clockwise" if state.phase == "turn" else decision_rule(state)
        raise IllegalActionError(f"seat {seat} is not to move ({_decision_name(state)})",
                                 rule=rule)


def _misplaced_rule(state: GameState, action: Action) -> str:
    """The rule an action breaks when it is not the decision pending: an order after a
    pass breaks ``turn.pass``, a second order ``turn.place_order``; otherwise the rule
    of the pending decision."""
    if isinstance(action, PlaceOrder) and state.phase == Phase.TURN and state.step == Step.DRAW:
        return "turn.pass" if state.played == 0 else "turn.place_order"
    if isinstance(action, Play) and state.phase == "turn" and state.played > 0:
        return "turn.play"  # one play a turn: a second one breaks the play rule itself
    return decision_rule(state)


def _decision_name(state: GameState) -> str:
    if state.phase == Phase.OVER:
        return "the game is over"
    if state.phase == Phase.SHUFFLE:
        return f"the {state.step} pile must be shuffled"
    return f"seat {state.current} must decide: {state.step}"


def decision_rule(state: GameState) -> str:
    """The rule that governs the decision pending in ``state``."""
    if state.phase == Phase.SHUFFLE:
        if state.resolutions:
            return "next_round.supply"
        return setup.shuffle_rule(state, state.step)
    if state.phase == Phase.TURN:
        return turn.STEP_RULES[state.step]
    if state.phase == Phase.OVEN:
        return oven.kind_rule(state) if state.step == Step.NAME_KIND else "oven.complete_from_hand"
    return "game_end.three_resolutions"


def shuffle(state: GameState, action: Shuffle) -> Transition:
    """Chance: the pending pile takes the given order, which must hold exactly its cards."""
    pile, cards = chance_pile(state)
    rule = decision_rule(state)
    if action.pile != pile:
        raise IllegalActionError(f"the pile to shuffle is {pile}, not {action.pile}", rule=rule,
                                 action=action)
    if sorted(action.order) != sorted(cards):
        raise IllegalActionError(f"the order given for {pile} is not a shuffle of its cards",
                                 rule=rule, action=action)
    if pile.startswith("waiter."):
        state = state.with_waiter(state.seat_of(pile.removeprefix("waiter.")), action.order)
    else:
        state = replace(state, supply=action.order)
    if state.resolutions == 0:
        return setup.after_shuffle(state)
    return round.start_round(state)


def _settle(state: GameState, events: tuple[Event, ...]) -> Transition:
    """Run the steps that need no decision (reveals, the round's end, the next supply)."""
    parts = list(_settling(state))
    for _state, more in parts:
        events += more
    return (parts[-1][0] if parts else state), events


def _settling(state: GameState) -> Iterator[Transition]:
    """The steps that need no decision, one by one: the oven opened at a round's end, a
    card revealed, the next round prepared."""
    while True:
        if state.phase == Phase.ROUND_END:
            state, more = round.open_the_oven(state)
        elif state.phase == Phase.OVEN and state.reveal is None:
            state, more = oven.reveal_next(state) if state.oven else round.after_resolution(state)
        else:
            return
        yield state, more
