"""A fast engine for simulation: the reference's rules on a mutable state.

The same decisions, the same legal actions in the same order, the same chance nodes
(the same piles, their cards in the same order, so the same ``ChanceSource`` seed gives
the same shuffles) as :mod:`mammamia_ref.rules.game`; ``tests/test_fast_equivalence.py``
plays many games on both engines and compares them after every step. What differs is
only the representation, chosen for speed:

- a :class:`FastState` is changed in place (:func:`apply` returns nothing; use
  :meth:`FastState.copy` to branch);
- cards are small integers: the kinds ``0`` to ``4`` in ``KINDS`` order, the Mamma Mia!
  card ``5``, the orders from ``6`` on, numbered in sorted order of their IDs (so a hand's
  orders sort as the reference sorts them);
- actions are integers too (:func:`action_code`, :func:`action_of` convert);
- no events are built unless asked for (:func:`record_events`: then the reference's
  events, the same values in the same order). The rule each step applies is named in
  its function's docstring.

The reference stays the readable account of the rules; the fast engine follows it
function by function, a module per chapter as ``rules/`` has them: its state and
representation (:mod:`.fast_state`), :mod:`.fast_setup`, :mod:`.fast_turn`,
:mod:`.fast_round`, :mod:`.fast_oven`, :mod:`.fast_scoring`, and the chance and benchmark
policy's numbers (:mod:`.fast_chance`); where it takes a short cut (a cached table, a test
written for integer cards) the comment says why it is the same. This module is the API
(as :mod:`mammamia_ref.rules.game`: it routes) and names the others' public names.

The API mirrors :mod:`mammamia_ref.rules.game`: :func:`new_game`, :func:`is_chance`,
:func:`chance_pile` and :func:`apply_shuffle` (or :class:`FastChance`) at chance nodes,
:func:`legal_actions` and :func:`apply` at decisions, :func:`is_over`, :func:`winners`;
:func:`from_state`, :meth:`FastState.to_state` and :meth:`FastState.to_json` convert.
:func:`play_random_game` plays a whole seeded game under the benchmark policy and
:func:`perft` counts.

>>> from mammamia_ref.rules.state import make_config
>>> game = new_game(make_config(3))
>>> chance_pile(game)[0] == "ingredients"
True
>>> result = play_random_game(make_config(4), seed=7)
>>> str(result.state.phase), result.state.resolutions
('over', 3)
"""


from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from mammamia_ref.errors import IllegalActionError
from mammamia_ref.rules.actions import (
    Shuffle,
)
from mammamia_ref.rules.state import (
    GameConfig,
)
from mammamia_ref.sim.fast_chance import (
    _BITS,
    INLINE_OK,
    FastChance,
    benchmark_choice,
    chance_pile,
    shuffled,
)
from mammamia_ref.sim.fast_oven import (
    completions,
    kind_choices,
    name_kind,
    oven_complete,
    oven_fail,
    reveal_next,
)
from mammamia_ref.sim.fast_round import (
    after_resolution,
    open_the_oven,
    start_round,
)
from mammamia_ref.sim.fast_scoring import (
    winners,
)
from mammamia_ref.sim.fast_setup import (
    after_setup_shuffle,
    new_game,
)
from mammamia_ref.sim.fast_state import (
    _DRAW,
    _NAME_KIND,
    _ORDER,
    _OVEN,
    _OVER,
    _PILE_COLOUR,
    _PLAY,
    _PLAY_OF,
    _ROUND_END,
    _SHUFFLE,
    _TURN,
    BOMBASTICA,
    CARD_CODES,
    CARD_NAMES,
    COLOUR_INDEX,
    COMPLETE_BASE,
    DECLINE,
    DRAW_FILL,
    DRAW_N_BASE,
    DRAW_SUPPLY,
    DRAW_WAITER,
    FIRST_ORDER,
    MINIMALE,
    MM,
    MONOTONI,
    NAME_BASE,
    NO_ORDER,
    ONE_OF_EACH,
    PASS,
    PLACE_BASE,
    PLAY_BASE,
    STANDARD,
    SUPPLY,
    WAITER,
    FastState,
    Rules,
    _revealed,
    action_code,
    action_of,
    from_state,
    pack,
    play_code,
    record_events,
    rules_for,
    unpack,
)
from mammamia_ref.sim.fast_turn import (
    _AFTER_PLAY_WITH_ORDERS,
    _AFTER_PLAY_WITHOUT_ORDERS,
    _DRAW_ANY,
    _ORDER_CHOICES,
    _PLAY_CHOICES,
    order_choices,
    play_choices,
    refill_allowance,
    turn_draw,
    turn_pass,
    turn_place_order,
    turn_play,
)

# -- the API -------------------------------------------------------------------------


def is_chance(state: FastState) -> bool:
    return state.phase == _SHUFFLE


def is_over(state: FastState) -> bool:
    return state.phase == _OVER


def to_move(state: FastState) -> int | None:
    return state.current if state.phase in (_TURN, _OVEN) else None


def legal_actions(state: FastState) -> Sequence[int]:
    """The action codes of :func:`mammamia_ref.rules.game.legal_actions`, in its order.
    The sequence returned may be shared: do not change it."""
    if state.phase == _TURN:
        return _turn_choices(state)
    if state.phase == _OVEN:
        return _oven_choices(state)
    return ()


def _turn_choices(state: FastState) -> Sequence[int]:
    """The turn's legal action codes: a play (or pass), an order to place, a draw."""
    step = state.step
    if step == _PLAY:
        hand = state.hands[state.current]
        return _PLAY_CHOICES.get(hand) or play_choices(hand)
    if step == _ORDER:
        orders = state.hand_orders[state.current]
        return _ORDER_CHOICES.get(orders) or order_choices(orders)
    if state.rules.draw_any:
        return _DRAW_ANY[refill_allowance(state)]
    return DRAW_FILL


def _oven_choices(state: FastState) -> Sequence[int]:
    """The oven's legal action codes: a kind to name, or the hand cards to complete the
    revealed order with (and declining, unless completing is mandatory)."""
    if state.step == _NAME_KIND:
        return [NAME_BASE + kind for kind in kind_choices(state, _revealed(state))]
    options = [COMPLETE_BASE + pack(cards) for cards in completions(state)]
    if not state.rules.mandatory:
        options.append(DECLINE)
    return options


def apply(state: FastState, action: int) -> None:
    """Apply a legal action code (from :func:`legal_actions`; not checked: see
    :func:`apply_checked`), then every automatic step up to the next decision."""
    step = state.step
    if step in (_PLAY, _ORDER, _DRAW):
        _apply_turn(state, step, action)
    elif step == _NAME_KIND:
        name_kind(state, _revealed(state), action - NAME_BASE)
    elif action == DECLINE:  # complete
        oven_fail(state, _revealed(state), "oven.complete_from_hand")
    else:
        oven_complete(state, unpack(action - COMPLETE_BASE))
    if state.phase != _TURN:
        settle(state)


def _apply_turn(state: FastState, step: str, action: int) -> None:
    """A turn's action code: a play or pass, an order placed or none, a draw."""
    if step == _PLAY:
        if action == PASS:
            turn_pass(state)
        else:
            kind, count = _PLAY_OF[action]
            turn_play(state, kind, count)
    elif step == _ORDER:
        if action == NO_ORDER:
            state.step = _DRAW
        else:
            turn_place_order(state, action - PLACE_BASE)
    elif action < DRAW_N_BASE:
        turn_draw(state, action - DRAW_SUPPLY, None)
    else:
        source, count = divmod(action - DRAW_N_BASE, 64)
        turn_draw(state, source, count)


def apply_checked(state: FastState, action: int) -> None:
    """:func:`apply`, refusing (with the rule of the pending decision, state unchanged)
    an action code that is not legal here."""
    if action not in legal_actions(state):
        raise IllegalActionError(f"{action_of(action) if action >= 0 else action} is not "
                                 f"legal here", rule=decision_rule(state))
    apply(state, action)


def decision_rule(state: FastState) -> str:
    """The rule governing the pending decision (as the reference's ``decision_rule``)."""
    from mammamia_ref.rules.game import decision_rule as reference_rule

    return reference_rule(state.to_state())


def apply_shuffle(state: FastState, order: Sequence[int]) -> None:
    """Chance: the pending pile now lies in ``order`` (card codes, top first); then the
    setup (``setup.after_shuffle``) or the round (``next_round.first_player``) goes on."""
    colour = _PILE_COLOUR.get(state.step)
    if colour is not None:
        state.waiters[state.seat_of_colour[colour]] = tuple(order)
    else:
        state.supply = list(order)
    if state.resolutions == 0:
        after_setup_shuffle(state)
    else:
        start_round(state)
    settle(state)


def shuffle_order(state: FastState, shuffle: Shuffle) -> list[int]:
    """The card codes of a reference ``Shuffle``'s order."""
    return [CARD_CODES[card] for card in shuffle.order]


# -- the oven ------------------------------------------------------------------------


def settle(state: FastState) -> None:
    """The steps that need no decision: opening the oven at the round's end, revealing
    card after card, and what follows the last one."""
    while True:
        phase = state.phase
        if phase == _ROUND_END:
            open_the_oven(state)
        elif phase == _OVEN and state.reveal is None:
            if state.oven:
                reveal_next(state)
            else:
                after_resolution(state)
        else:
            return


@dataclass
class FastGameResult:
    """A played game: its final state and how many decisions, turns and shuffles."""

    state: FastState
    decisions: int = 0
    turns: int = 0
    shuffles: int = 0
    stalled: bool = False

    @property
    def winners(self) -> tuple[int, ...]:
        return winners(self.state)[0] if self.state.phase == _OVER else ()


def play_random_game(config: GameConfig, seed: int | str, *,
                     max_steps: int = 100_000) -> FastGameResult:
    """One game under the benchmark policy: the same game as
    ``play_game(config, seed, [random_policy] * players)`` on the reference.

    This loop is the benchmark's hot path, so it makes the turn's decisions (nine in ten)
    itself (:func:`_benchmark_turn`): the choices :func:`legal_actions` lists, the
    numbers :func:`benchmark_choice` draws, the rule functions :func:`apply` calls (a
    play's, :func:`turn_play`, written out: half the turn's decisions are plays). The
    oven's decisions, and every decision under ``draw_amount=any``, take the general
    path."""
    chance = random.Random(f"mammamia-chance:{seed}")
    rng = random.Random(f"mammamia-policy:{seed}")
    state = new_game(config)
    result = FastGameResult(state)
    players, stall_letter = state.players, state.rules.stall_letter
    inline = INLINE_OK and not state.rules.draw_any
    decisions = turns = shuffles = 0
    # Module constants as locals: a local is read faster than a global.
    turn, oven, play = _TURN, _OVEN, _PLAY
    for _ in range(max_steps):
        if stall_letter and state.quiet_turns >= players:
            result.stalled = True
            break
        phase = state.phase
        if phase == turn and inline:  # the turn's decisions: see the docstring
            decisions += 1
            turns += _benchmark_turn(state, rng)
        elif phase in (turn, oven):
            if state.step == play:
                turns += 1
            apply(state, benchmark_choice(state, legal_actions(state), rng))
            decisions += 1
        elif phase == _SHUFFLE:
            apply_shuffle(state, shuffled(chance, chance_pile(state)[1]))
            shuffles += 1
        else:  # over
            break
    result.decisions, result.turns, result.shuffles = decisions, turns, shuffles
    return result


def _benchmark_turn(state: FastState, rng: random.Random) -> int:
    """One of the turn's decisions under the benchmark policy, made and applied here (the
    same numbers drawn as :func:`benchmark_choice`, the same changes as :func:`apply`);
    1 if it was a play or a pass (a turn), else 0."""
    step = state.step
    if step == _DRAW:  # the source, then the one draw from it: a choice among one
        source = SUPPLY if rng.random() < 0.8 else WAITER
        while rng.getrandbits(1):
            pass
        turn_draw(state, source, None)
        if state.phase != _TURN:
            settle(state)
        return 0
    seat = state.current
    if step == _PLAY:
        hand = state.hands[seat]
        legal = _PLAY_CHOICES.get(hand) or play_choices(hand)
    else:
        orders = state.hand_orders[seat]
        legal = _ORDER_CHOICES.get(orders) or order_choices(orders)
    n = len(legal)
    bits = _BITS[n]
    getrandbits = rng.getrandbits
    r = getrandbits(bits)
    while r >= n:
        r = getrandbits(bits)
    _apply_benchmark_code(state, seat, legal[r])
    return 1 if step == _PLAY else 0


def _apply_benchmark_code(state: FastState, seat: int, action: int) -> None:
    """:func:`apply` of a play, pass or order code, with a play's :func:`turn_play`
    written out (half the turn's decisions are plays; settling is never needed)."""
    if action == NO_ORDER:
        state.step = _DRAW
    elif action >= PLACE_BASE:
        turn_place_order(state, action - PLACE_BASE)
    elif action == PASS:
        turn_pass(state)
    else:
        kind, count = _PLAY_OF[action]
        held = list(state.hands[seat])
        held[kind] -= count
        state.hands[seat] = tuple(held)
        state.oven.extend([kind] * count)
        state.played = count
        state.step = _AFTER_PLAY_WITH_ORDERS if state.hand_orders[seat] \
            else _AFTER_PLAY_WITHOUT_ORDERS


def perft(state: FastState, depth: int) -> int:
    """:func:`mammamia_ref.sim.perft.perft` on the fast engine (the last level is counted
    from the number of legal actions, as chess programs do: the same number). ``state``
    is left as it was."""
    if depth == 0 or state.phase == _SHUFFLE or state.phase == _OVER:
        return 1
    if depth == 1:
        return len(legal_actions(state))
    return _perft_into(state.copy(), depth)


def _perft_into(state: FastState, depth: int) -> int:
    """``perft`` of a state of our own, used up on the way: every action but the last is
    tried on a copy, the last on the state itself (one copy fewer per node)."""
    legal = legal_actions(state)
    last = len(legal) - 1
    total = 0
    for index, action in enumerate(legal):
        child = state.copy() if index < last else state
        apply(child, action)
        phase = child.phase
        if phase in (_SHUFFLE, _OVER):
            total += 1
        elif depth == 2:
            total += len(legal_actions(child))
        else:
            total += _perft_into(child, depth - 1)
    return total


__all__ = [
    "BOMBASTICA",
    "CARD_CODES",
    "CARD_NAMES",
    "COLOUR_INDEX",
    "COMPLETE_BASE",
    "DECLINE",
    "DRAW_FILL",
    "DRAW_N_BASE",
    "DRAW_SUPPLY",
    "DRAW_WAITER",
    "FIRST_ORDER",
    "INLINE_OK",
    "MINIMALE",
    "MM",
    "MONOTONI",
    "NAME_BASE",
    "NO_ORDER",
    "ONE_OF_EACH",
    "PASS",
    "PLACE_BASE",
    "PLAY_BASE",
    "STANDARD",
    "SUPPLY",
    "WAITER",
    "FastChance",
    "FastGameResult",
    "FastState",
    "Rules",
    "action_code",
    "action_of",
    "apply",
    "apply_checked",
    "apply_shuffle",
    "benchmark_choice",
    "chance_pile",
    "decision_rule",
    "from_state",
    "is_chance",
    "is_over",
    "legal_actions",
    "new_game",
    "pack",
    "perft",
    "play_code",
    "play_random_game",
    "record_events",
    "rules_for",
    "settle",
    "shuffle_order",
    "shuffled",
    "to_move",
    "unpack",
    "winners",
]
