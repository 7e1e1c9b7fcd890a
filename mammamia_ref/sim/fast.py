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
- no events are built. The rule each step applies is named in its function's docstring.

The reference stays the readable account of the rules; this module follows it function
by function, and where it takes a short cut (a cached table, a test written for
integer cards) the comment says why it is the same.

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
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final

from mammamia_ref.errors import IllegalActionError, InternalError
from mammamia_ref.formats.jsonform import rules_fields
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
)
from mammamia_ref.rules.oven import (
    Outcome,
    bombastica_outcome,
    bombastica_shortfall,
    fixed_order_outcome,
    may_decline,
    nameable_kinds,
    named_needs,
    ways_to_take,
)
from mammamia_ref.rules.round import (
    game_ends,
    leftovers_to_oven,
    next_supply,
    quiet_turns_after,
    stalls,
    supply_runs_out,
)
from mammamia_ref.rules.ruleset import Parameters, order_shapes
from mammamia_ref.rules.ruleset import Rules as GameRules
from mammamia_ref.rules.scoring import winning_seats
from mammamia_ref.rules.setup import deal_order, mamma_mia_dealt_with_deck, trimmed_per_kind
from mammamia_ref.rules.state import (
    GameConfig,
    GameState,
    Hand,
    Phase,
    Reveal,
    Step,
    refuse_unclaimed,
    waiter_pile,
)
from mammamia_ref.rules.turn import (
    cards_to_draw,
    orders_before_supply,
    play_options,
    step_after_pass,
    step_after_play,
)
from mammamia_ref.rules.vocabulary import (
    COLOURS,
    COPIES,
    KINDS,
    MAMMA_MIA,
    ORDER_TYPE_CODES,
    ORDERS,
    ORDERS_OF,
    covers,
    shortfall,
)

# Phases and steps: the fast engine keeps the plain ``str`` values of the reference's
# ``Phase`` and ``Step`` members (they compare equal to the members, so callers may use
# either). A member is a ``str`` subclass: comparing one misses the interpreter's fast
# path for exact strings, and an Enum class attribute costs a tenth of a microsecond a
# lookup, both too much for the hot loop. ``to_state`` hands the members back.
#
# The module's constants are ``Final``: no effect in Python, but the compiled core (mypyc)
# then keeps them in C variables instead of looking each up in the module's dict.
_SHUFFLE: Final = Phase.SHUFFLE.value
_TURN: Final = Phase.TURN.value
_OVEN: Final = Phase.OVEN.value
_ROUND_END: Final = Phase.ROUND_END.value
_OVER: Final = Phase.OVER.value
_PLAY: Final = Step.PLAY.value
_ORDER: Final = Step.ORDER.value
_DRAW: Final = Step.DRAW.value
_NAME_KIND: Final = Step.NAME_KIND.value
_COMPLETE: Final = Step.COMPLETE.value
_REVEAL: Final = Step.REVEAL.value
_STALL: Final = Step.STALL.value
_INGREDIENTS: Final = Step.INGREDIENTS.value
_SUPPLY_PILE: Final = Step.SUPPLY.value
_OVER_STEP: Final = Step.OVER.value
_PHASE_MEMBER: Final[dict[str, Phase]] = {phase.value: phase for phase in Phase}
_STEP_MEMBER: Final[dict[str, Step]] = {step.value: step for step in Step}
_PLAIN: Final[dict[str, str]] = {member.value: member.value for member in (*Phase, *Step)}
"""The plain value of a phase or step (a member or a string); a waiter's pile is its
own plain value."""

# -- cards ---------------------------------------------------------------------------

N_KINDS: Final = len(KINDS)
MM: Final = N_KINDS                      # the Mamma Mia! card; every smaller code is a kind
FIRST_ORDER: Final[int] = MM + 1
ORDER_IDS: Final[tuple[str, ...]] = tuple(sorted(ORDERS))
CARD_NAMES: Final[tuple[str, ...]] = (*KINDS, MAMMA_MIA, *ORDER_IDS)
CARD_CODES: Final[dict[str, int]] = {name: code for code, name in enumerate(CARD_NAMES)}
COLOUR_INDEX: Final[dict[str, int]] = {colour: i for i, colour in enumerate(COLOURS)}
NO_KINDS: Final = (0,) * N_KINDS

# The order types' codes, from the spec's order of ``order_types`` (rules.vocabulary).
STANDARD: Final[int] = ORDER_TYPE_CODES["standard"]
ONE_OF_EACH: Final[int] = ORDER_TYPE_CODES["one_of_each"]
BOMBASTICA: Final[int] = ORDER_TYPE_CODES["bombastica"]
MONOTONI: Final[int] = ORDER_TYPE_CODES["monotoni"]
MINIMALE: Final[int] = ORDER_TYPE_CODES["minimale"]


def _order_table(value: Any) -> list[Any]:
    """A list indexed by card code holding ``value(order)`` for each order."""
    table: list[Any] = [None] * len(CARD_NAMES)
    for order_id in ORDER_IDS:
        table[CARD_CODES[order_id]] = value(ORDERS[order_id])
    return table


ORDER_TYPE: Final[list[int]] = _order_table(lambda order: ORDER_TYPE_CODES[order.type])
ORDER_COLOUR: Final[list[int]] = _order_table(lambda order: COLOUR_INDEX[order.colour])
ORDER_PERSONAL: Final[list[int]] = _order_table(lambda order: KINDS.index(order.personal))
ORDER_TYPE_NAME: Final[list[str]] = _order_table(lambda order: order.type)


def order_needs(parameters: Parameters) -> tuple[list[tuple[int, ...] | None],
                                                 list[tuple[tuple[int, ...], ...]]]:
    """The requirements of every order under a game's counts, by card code: the fixed
    ones (standard, one of each; None for the others) and, for a Monotoni or Minimale,
    one per kind named."""
    shapes, named = order_shapes(parameters), named_needs(parameters)
    return (_order_table(lambda order: order.requirement(shapes)
                         if order.type in ("standard", "one_of_each") else None),
            _order_table(lambda order: named[order.id]))

WAITER_OF_COLOUR: Final[list[tuple[int, ...]]] = [tuple(CARD_CODES[o] for o in ORDERS_OF[colour])
                                           for colour in COLOURS]


def cards_of(counts: Sequence[int]) -> list[int]:
    """The ingredient cards of a count map, in canonical (sorted) order."""
    cards: list[int] = []
    for kind, count in enumerate(counts):
        cards += [kind] * count
    return cards


# -- actions -------------------------------------------------------------------------
# An action is an int: the flag-like ones are constants, the others a base plus a
# payload. ``action_of`` and ``action_code`` convert to and from the reference's.

PASS: Final = 0
NO_ORDER: Final = 1
DECLINE: Final = 2
DRAW_SUPPLY: Final = 3
DRAW_WAITER: Final = 4
PLAY_BASE: Final = 16        # + 16 * kind + count
PLACE_BASE: Final = 128      # + order card code
NAME_BASE: Final = 192       # + kind
DRAW_N_BASE: Final = 256     # + 64 * source (0 supply, 1 waiter) + count, under draw_amount=any
COMPLETE_BASE: Final = 1024  # + the hand cards packed in base 16, kind 0 lowest
SUPPLY: Final = 0
WAITER: Final = 1
SOURCES: Final = ("supply", "waiter")
DRAW_FILL: Final = (DRAW_SUPPLY, DRAW_WAITER)


def play_code(kind: int, count: int) -> int:
    return PLAY_BASE + 16 * kind + count


_PLAY_OF: Final = {play_code(kind, count): (kind, count) for kind in range(N_KINDS)
            for count in range(1, 16)}


def pack(cards: Sequence[int]) -> int:
    return sum([count << (4 * kind) for kind, count in enumerate(cards)])


def unpack(packed: int) -> tuple[int, ...]:
    return tuple([(packed >> (4 * kind)) & 15 for kind in range(N_KINDS)])


def action_of(code: int) -> Action:
    """The reference action an action code stands for."""
    if code == PASS:
        return Pass()
    if code == NO_ORDER:
        return NoOrder()
    if code == DECLINE:
        return Decline()
    if code in DRAW_FILL:
        return Draw(SOURCES[code - DRAW_SUPPLY])
    if code < PLACE_BASE:
        kind, count = divmod(code - PLAY_BASE, 16)
        return Play(KINDS[kind], count)
    if code < NAME_BASE:
        return PlaceOrder(CARD_NAMES[code - PLACE_BASE])
    if code < DRAW_N_BASE:
        return NameKind(KINDS[code - NAME_BASE])
    if code < COMPLETE_BASE:
        source, count = divmod(code - DRAW_N_BASE, 64)
        return Draw(SOURCES[source], count)
    return Complete(unpack(code - COMPLETE_BASE))


def action_code(action: Action) -> int:
    """The action code of a reference action (a ``Shuffle`` has none: see
    :func:`apply_shuffle`)."""
    match action:
        case Pass():
            return PASS
        case NoOrder():
            return NO_ORDER
        case Decline():
            return DECLINE
        case Play(kind, count):
            return play_code(KINDS.index(kind), count)
        case PlaceOrder(order):
            return PLACE_BASE + CARD_CODES[order]
        case NameKind(kind):
            return NAME_BASE + KINDS.index(kind)
        case Draw(source, None):
            return DRAW_SUPPLY + SOURCES.index(source)
        case Draw(source, int() as count):
            return DRAW_N_BASE + 64 * SOURCES.index(source) + count
        case Complete(cards):
            return COMPLETE_BASE + pack(cards)
    raise TypeError(f"no action code for {action!r}")


# -- the state -----------------------------------------------------------------------


_MAX_HELD: Final = 64  # more cards than a hand holds or a turn plays (a larger count is computed)


class Rules:
    """The variant flags of one game, as the kernel functions of the chapters take
    them (flag values), and as booleans where the engine's representation branches.
    Built once per set of variants, refusing the flags the fast engine does not claim
    in ``spec/disputes.yaml`` (``models:``)."""

    __slots__ = ("after_pass_with_orders", "after_pass_without_orders", "allowance",
                 "bombastica_hand", "bombastica_total", "completion", "draw_any", "draw_both",
                 "draw_piles", "final_tie",
                 "hand_limit", "leftovers", "leftovers_to_oven", "made_from", "mandatory",
                 "minimale_lowest",
                 "mm_before_deal", "monotoni_kind", "need", "need_named", "pass_order",
                 "quiet_after_busy", "quiet_after_quiet", "refill", "removed", "round_end",
                 "round_end_last_ingredient", "rounds", "stall", "stall_letter", "stalls",
                 "starting_ingredients", "starting_orders", "trimming")

    def __init__(self, variants: GameRules, players: int) -> None:
        refuse_unclaimed("fast", variants, carries_information=True)
        self.made_from = (variants, players)
        numbers = variants.parameters
        self.hand_limit = numbers.hand_limit
        self.bombastica_total = numbers.bombastica_total
        self.starting_ingredients = numbers.starting_ingredients
        self.starting_orders = numbers.starting_orders
        self.rounds = numbers.rounds
        self.removed = numbers.trimming
        self.need, self.need_named = order_needs(numbers)
        self.trimming: str = variants.flags.trimming
        self.refill: str = variants.flags.refill
        self.minimale_lowest: str = variants.flags.minimale_lowest
        self.monotoni_kind: str = variants.flags.monotoni_kind
        self.completion: str = variants.flags.completion
        self.bombastica_hand: str = variants.flags.bombastica_hand
        self.round_end: str = variants.flags.round_end
        self.stall: str = variants.flags.stall
        self.final_tie: str = variants.flags.final_tie
        self.leftovers: str = variants.flags.leftovers
        self.pass_order: str = variants.flags.pass_order
        self.mm_before_deal = mamma_mia_dealt_with_deck(variants.flags.mamma_mia_shuffle)
        self.mandatory = not may_decline(self.completion)
        self.leftovers_to_oven = leftovers_to_oven(self.leftovers)
        self.round_end_last_ingredient = self.round_end == "last_ingredient"
        self.stall_letter = self.stall == "letter"
        self.draw_any = variants.flags.draw_amount == "any"
        self.draw_piles: str = variants.flags.draw_piles
        self.draw_both = self.draw_piles == "both"
        # The turn's kernel functions, tabled for the hot loop: ``allowance[played][size]``
        # is ``cards_to_draw``; ``quiet_after_quiet[count]`` and ``quiet_after_busy[count]``
        # are ``quiet_turns_after`` after a quiet turn and after one that moved a card, and
        # ``stalls[count]`` is ``stalls``, at this many players; ``after_pass_with_orders``
        # and ``after_pass_without_orders`` are ``step_after_pass``.
        self.allowance = tuple(tuple(cards_to_draw(self.refill, self.hand_limit, size, played)
                                     for size in range(_MAX_HELD))
                               for played in range(_MAX_HELD))
        self.quiet_after_quiet, self.quiet_after_busy = (
            tuple(quiet_turns_after(quiet, count, players) for count in range(players + 1))
            for quiet in (True, False))
        self.after_pass_with_orders = step_after_pass(self.pass_order, True).value
        self.after_pass_without_orders = step_after_pass(self.pass_order, False).value
        self.stalls = tuple(stalls(self.stall, count, players) for count in range(players + 1))

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as what it is made from (for the worker processes of ``perft --jobs``):
        a mypyc-compiled class cannot be rebuilt by pickle's default, slot by slot."""
        return (rules_for, self.made_from)


class FastState:
    """A game in progress, changed in place. The fields mean what the reference's
    :class:`~mammamia_ref.rules.state.GameState` fields mean; piles are lists of card codes
    (``supply`` and ``waiters`` top first, ``oven`` first played first), count maps
    lists of five ints, a hand is split into ``hands`` (ingredient counts) and
    ``hand_orders`` (sorted order codes), ``reveal`` is an order code or None and
    ``reveal_kind`` the named kind or None. Phases and steps are the plain string values
    of the reference's :class:`~mammamia_ref.rules.state.Phase` and ``Step`` members
    (equal to them; between decisions also ``round_end`` and ``reveal``).

    What each seat has (``hands``, ``hand_orders``, ``waiters``, ``delivered``) is a
    tuple, replaced when it changes: copying a state then copies only the outer lists."""

    __slots__ = ("box", "config", "current", "delivered", "hand_orders", "hands",
                 "mamma_mia", "oven", "phase", "played", "players", "quiet_turns", "resolutions",
                 "reveal", "reveal_kind", "round", "rules", "seat_of_colour", "step", "supply",
                 "table", "used", "waiters")

    config: GameConfig
    rules: Rules
    players: int
    seat_of_colour: list[int]
    phase: str
    step: str
    current: int
    round: int
    resolutions: int
    supply: list[int]
    oven: list[int]
    table: list[int]
    used: list[int]
    box: tuple[int, ...]
    mamma_mia: int | None
    hands: list[tuple[int, ...]]
    hand_orders: list[tuple[int, ...]]
    waiters: list[tuple[int, ...]]
    delivered: list[tuple[int, ...]]
    played: int
    quiet_turns: int
    reveal: int | None
    reveal_kind: int | None

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled field by field (for the worker processes of ``perft --jobs``): a
        mypyc-compiled class cannot be rebuilt by pickle's default, slot by slot."""
        return (_unpickled, (self.config, self.rules, self.players, self.seat_of_colour,
                             self.phase, self.step, self.current, self.round, self.resolutions,
                             self.supply, self.oven, self.table, self.used, self.box,
                             self.mamma_mia, self.hands, self.hand_orders, self.waiters,
                             self.delivered, self.played, self.quiet_turns, self.reveal,
                             self.reveal_kind))

    def copy(self) -> FastState:
        """An independent copy (the configuration and rules are shared: never changed)."""
        new = FastState.__new__(FastState)
        new.config, new.rules, new.players = self.config, self.rules, self.players
        new.seat_of_colour = self.seat_of_colour
        new.phase, new.step, new.current = self.phase, self.step, self.current
        new.round, new.resolutions = self.round, self.resolutions
        new.supply, new.oven = self.supply[:], self.oven[:]
        new.table, new.used, new.box = self.table[:], self.used[:], self.box
        new.mamma_mia = self.mamma_mia
        new.hands, new.hand_orders = self.hands[:], self.hand_orders[:]
        new.waiters, new.delivered = self.waiters[:], self.delivered[:]
        new.played, new.quiet_turns = self.played, self.quiet_turns
        new.reveal, new.reveal_kind = self.reveal, self.reveal_kind
        return new

    @property
    def variants(self) -> Any:
        return self.config.rules

    # -- conversion to and from the reference's state ----------------------------

    def to_state(self) -> GameState:
        """The reference :class:`GameState` this state stands for."""
        names = CARD_NAMES
        return GameState(
            config=self.config, phase=_PHASE_MEMBER[self.phase],
            step=_STEP_MEMBER.get(self.step, self.step), current=self.current,
            round=self.round, resolutions=self.resolutions,
            supply=tuple(names[c] for c in self.supply),
            oven=tuple(names[c] for c in self.oven), table=tuple(self.table),
            used=tuple(self.used), box=self.box, mamma_mia=self.mamma_mia,
            hands=tuple(Hand(hand, tuple(names[c] for c in orders))
                        for hand, orders in zip(self.hands, self.hand_orders, strict=True)),
            waiters=tuple(tuple(names[c] for c in waiter) for waiter in self.waiters),
            delivered=tuple(tuple(names[c] for c in stack) for stack in self.delivered),
            played=self.played, quiet_turns=self.quiet_turns,
            reveal=None if self.reveal is None else Reveal(
                names[self.reveal], None if self.reveal_kind is None else KINDS[self.reveal_kind]))

    def to_json(self) -> dict[str, Any]:
        """The canonical JSON form (``mammamia_ref.formats.jsonform.format_state`` of
        :meth:`to_state`), built directly."""
        names = CARD_NAMES
        config = self.config

        def counts(values: Sequence[int]) -> dict[str, int]:
            return dict(zip(KINDS, values, strict=True))

        return {
            "format": "mammamia-state/1",
            "players": [
                {"colour": config.colours[seat],
                 "hand": {"ingredients": counts(self.hands[seat]),
                          "orders": [names[c] for c in self.hand_orders[seat]]},
                 "waiter": [names[c] for c in self.waiters[seat]],
                 "delivered": [names[c] for c in self.delivered[seat]]}
                for seat in range(self.players)
            ],
            "first_player": config.first_player,
            **rules_fields(config.rules),
            "phase": str(self.phase),
            "step": str(self.step),
            "current": self.current,
            "round": self.round,
            "resolutions": self.resolutions,
            "supply": [names[c] for c in self.supply],
            "oven": [names[c] for c in self.oven],
            "table": counts(self.table),
            "used": counts(self.used),
            "box": counts(self.box),
            "mamma_mia": self.mamma_mia,
            "played": self.played,
            "quiet_turns": self.quiet_turns,
            "reveal": None if self.reveal is None else {
                "order": names[self.reveal],
                "kind": None if self.reveal_kind is None else KINDS[self.reveal_kind]},
        }


_RULES: Final[dict[Any, Rules]] = {}  # by Variants (frozen, so a key) and players: never changed


def rules_for(variants: GameRules, players: int) -> Rules:
    """The :class:`Rules` of a set of variants at this many players, made once."""
    key = (variants, players)
    rules = _RULES.get(key)
    if rules is None:
        rules = _RULES[key] = Rules(variants, players)
    return rules


def _unpickled(config: GameConfig, rules: Rules, players: int, seat_of_colour: list[int],
               phase: str, step: str, current: int, round_: int, resolutions: int,
               supply: list[int], oven: list[int], table: list[int], used: list[int],
               box: tuple[int, ...], mamma_mia: int | None, hands: list[tuple[int, ...]],
               hand_orders: list[tuple[int, ...]], waiters: list[tuple[int, ...]],
               delivered: list[tuple[int, ...]], played: int, quiet_turns: int,
               reveal: int | None, reveal_kind: int | None) -> FastState:
    """A :class:`FastState` from the fields :meth:`FastState.__reduce__` pickled."""
    state = FastState.__new__(FastState)
    state.config, state.rules, state.players = config, rules, players
    state.seat_of_colour, state.phase, state.step = seat_of_colour, phase, step
    state.current, state.round, state.resolutions = current, round_, resolutions
    state.supply, state.oven, state.table, state.used = supply, oven, table, used
    state.box, state.mamma_mia, state.hands, state.hand_orders = box, mamma_mia, hands, hand_orders
    state.waiters, state.delivered, state.played = waiters, delivered, played
    state.quiet_turns, state.reveal, state.reveal_kind = quiet_turns, reveal, reveal_kind
    return state


def _blank(config: GameConfig) -> FastState:
    # no __init__: the callers fill every slot (``FastState.__new__``, not ``object``'s,
    # which a mypyc-compiled class refuses; in Python the two are the same function)
    state = FastState.__new__(FastState)
    state.config = config
    players = config.players
    state.rules = rules_for(config.rules, players)
    state.players = players
    seats = [-1] * len(COLOURS)
    for seat, colour in enumerate(config.colours):
        seats[COLOUR_INDEX[colour]] = seat
    state.seat_of_colour = seats
    return state


def from_state(state: GameState) -> FastState:
    """The fast form of a reference state (any state the reference accepts)."""
    fast = _blank(state.config)
    codes = CARD_CODES
    fast.phase, fast.step = _PLAIN[state.phase], _PLAIN.get(state.step) or str(state.step)
    fast.current = state.current
    fast.round, fast.resolutions = state.round, state.resolutions
    fast.supply = [codes[c] for c in state.supply]
    fast.oven = [codes[c] for c in state.oven]
    fast.table, fast.used, fast.box = list(state.table), list(state.used), tuple(state.box)
    fast.mamma_mia = state.mamma_mia
    fast.hands = [tuple(hand.ingredients) for hand in state.hands]
    fast.hand_orders = [tuple(sorted(codes[o] for o in hand.orders)) for hand in state.hands]
    fast.waiters = [tuple(codes[o] for o in waiter) for waiter in state.waiters]
    fast.delivered = [tuple(codes[o] for o in stack) for stack in state.delivered]
    fast.played, fast.quiet_turns = state.played, state.quiet_turns
    fast.reveal = None if state.reveal is None else codes[state.reveal.order]
    fast.reveal_kind = None if state.reveal is None or state.reveal.kind is None \
        else KINDS.index(state.reveal.kind)
    return fast


# -- the API -------------------------------------------------------------------------


def new_game(config: GameConfig) -> FastState:
    """``setup.components``, ``setup.trim`` / ``setup.full_deck``: every card in its
    starting place, the deck (with the Mamma Mia! card under ``setup.supply_before_deal``)
    in the supply slot, awaiting its shuffle."""
    state = _blank(config)
    players = state.players
    removed = trimmed_per_kind(state.rules.removed, players, state.rules.trimming)
    state.box = (removed,) * N_KINDS
    state.supply = cards_of([copies - removed for copies in COPIES])
    if state.rules.mm_before_deal:
        state.supply.append(MM)
    state.phase, state.step, state.current = _SHUFFLE, _INGREDIENTS, config.first_player
    state.round, state.resolutions = 1, 0
    state.oven, state.table, state.used = [], [0] * N_KINDS, [0] * N_KINDS
    state.mamma_mia = None
    state.hands = [NO_KINDS] * players
    state.hand_orders = [()] * players
    state.waiters = [WAITER_OF_COLOUR[COLOUR_INDEX[c]] for c in config.colours]
    state.delivered = [()] * players
    state.played = state.quiet_turns = 0
    state.reveal = state.reveal_kind = None
    return state


def is_chance(state: FastState) -> bool:
    return state.phase == _SHUFFLE


def is_over(state: FastState) -> bool:
    return state.phase == _OVER


def to_move(state: FastState) -> int | None:
    return state.current if state.phase in (_TURN, _OVEN) else None


def chance_pile(state: FastState) -> tuple[str, Sequence[int]]:
    """At a chance node: the pile to shuffle and its cards, in the reference's order."""
    step = state.step
    if state.phase != _SHUFFLE:
        raise IllegalActionError("no pile is waiting to be shuffled", rule="setup.deal")
    colour = _PILE_COLOUR.get(step)
    if colour is not None:
        return step, state.waiters[state.seat_of_colour[colour]]
    return step, state.supply


_PILE_COLOUR: Final[dict[str, int]] = {waiter_pile(colour): i for i, colour in enumerate(COLOURS)}
"""The colour index of each waiter's shuffle step (``waiter_pile(colour)``)."""
_PILE_OF_COLOUR: Final[dict[str, str]] = {colour: waiter_pile(colour) for colour in COLOURS}


def legal_actions(state: FastState) -> Sequence[int]:
    """The action codes of :func:`mammamia_ref.rules.game.legal_actions`, in its order.
    The sequence returned may be shared: do not change it."""
    step = state.step
    if state.phase == _TURN:
        if step == _PLAY:
            hand = state.hands[state.current]
            return _PLAY_CHOICES.get(hand) or play_choices(hand)
        if step == _ORDER:
            orders = state.hand_orders[state.current]
            return _ORDER_CHOICES.get(orders) or order_choices(orders)
        if state.rules.draw_any:
            return _DRAW_ANY[refill_allowance(state)]
        return DRAW_FILL
    if state.phase == _OVEN:
        if step == _NAME_KIND:
            return [NAME_BASE + kind for kind in kind_choices(state, _revealed(state))]
        options = [COMPLETE_BASE + pack(cards) for cards in completions(state)]
        if not state.rules.mandatory:
            options.append(DECLINE)
        return options
    return ()


_PLAY_CHOICES: Final[dict[tuple[int, ...], tuple[int, ...]]] = {}
_DRAW_ANY: Final = [tuple(DRAW_N_BASE + 64 * source + count for source in (SUPPLY, WAITER)
                   for count in range(allowance + 1)) for allowance in range(64)]


def play_choices(hand: tuple[int, ...]) -> tuple[int, ...]:
    """``turn.play`` / ``turn.pass``: any number of cards of one kind held, kind by kind
    in ``KINDS`` order, one to all; a pass only without ingredient cards. (Cached by
    hand: there are few hands.)"""
    choices = _PLAY_CHOICES.get(hand)
    if choices is None:
        choices = _PLAY_CHOICES[hand] = tuple(
            play_code(kind, count) for kind, count in play_options(hand)) or (PASS,)
    return choices


_ORDER_CHOICES: Final[dict[tuple[int, ...], tuple[int, ...]]] = {}


def order_choices(orders: tuple[int, ...]) -> tuple[int, ...]:
    """``turn.place_order``: any one order in hand (in the hand's sorted order), or none.
    (Cached by hand.)"""
    choices = _ORDER_CHOICES[orders] = (*(PLACE_BASE + order for order in orders), NO_ORDER)
    return choices


def apply(state: FastState, action: int) -> None:
    """Apply a legal action code (from :func:`legal_actions`; not checked: see
    :func:`apply_checked`), then every automatic step up to the next decision."""
    step = state.step
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
    elif step == _DRAW:
        if action < DRAW_N_BASE:
            turn_draw(state, action - DRAW_SUPPLY, None)
        else:
            source, count = divmod(action - DRAW_N_BASE, 64)
            turn_draw(state, source, count)
    elif step == _NAME_KIND:
        name_kind(state, _revealed(state), action - NAME_BASE)
    else:  # complete
        if action == DECLINE:
            oven_fail(state, _revealed(state))
        else:
            oven_complete(state, unpack(action - COMPLETE_BASE))
    if state.phase != _TURN:
        settle(state)


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


# -- setup ---------------------------------------------------------------------------


def after_setup_shuffle(state: FastState) -> None:
    """What follows a setup shuffle: the deal (``setup.deal``), the Mamma Mia! card
    joining the rest of the deck (``setup.supply``), each waiter's shuffle
    (``setup.waiter``), the first orders."""
    pile = state.step
    if pile == _INGREDIENTS:
        deal(state)
        if not state.rules.mm_before_deal:
            rest = [0] * N_KINDS
            for card in state.supply:
                rest[card] += 1
            state.supply = cards_of(rest) + [MM]
            state.step = _SUPPLY_PILE
            return
        state.step = _PILE_OF_COLOUR[state.config.colours[0]]
    elif pile == _SUPPLY_PILE:
        state.step = _PILE_OF_COLOUR[state.config.colours[0]]
    else:  # a waiter: the next seat's, after the last the first orders
        seat = state.seat_of_colour[_PILE_COLOUR[pile]] + 1
        if seat < state.players:
            state.step = _PILE_OF_COLOUR[state.config.colours[seat]]
        else:
            take_first_orders(state)


def deal(state: FastState) -> None:
    """``setup.deal``: six cards each, one at a time round the table from the first
    player; under ``setup.supply_before_deal`` a dealt Mamma Mia! card goes beside its
    receiver's waiter and is replaced (``mamma_mia.dealt``)."""
    deck = state.supply
    players, first = state.players, state.config.first_player
    order = deal_order(first, players)
    hands = [[0] * N_KINDS for _ in range(players)]
    position = 0
    for _ in range(state.rules.starting_ingredients):
        for seat in order:
            card = deck[position]
            position += 1
            if card == MM:
                state.mamma_mia = seat
                card = deck[position]
                position += 1
            hands[seat][card] += 1
    del deck[:position]
    state.hands = [tuple(hand) for hand in hands]


def take_first_orders(state: FastState) -> None:
    """``setup.waiter`` and ``setup.first_player``: each player takes the top order of
    their waiter; the first player begins."""
    taken = state.rules.starting_orders
    for seat in range(state.players):
        waiter = state.waiters[seat]
        state.hand_orders[seat] = tuple(sorted(waiter[:taken]))
        state.waiters[seat] = waiter[taken:]
    state.phase, state.step = _TURN, _PLAY
    state.current = state.config.first_player
    state.played = state.quiet_turns = 0


# -- the turn ------------------------------------------------------------------------


# ``step_after_play``, looked up: by whether the player still holds orders.
_AFTER_PLAY_WITH_ORDERS: Final = step_after_play(True).value
_AFTER_PLAY_WITHOUT_ORDERS: Final = step_after_play(False).value


def turn_play(state: FastState, kind: int, count: int) -> None:
    """``turn.play``: ``count`` cards of one kind from hand onto the oven."""
    hand = list(state.hands[state.current])
    hand[kind] -= count
    state.hands[state.current] = tuple(hand)
    state.oven.extend([kind] * count)
    state.played = count
    state.step = _AFTER_PLAY_WITH_ORDERS if state.hand_orders[state.current] \
        else _AFTER_PLAY_WITHOUT_ORDERS


def turn_pass(state: FastState) -> None:
    """``turn.pass``: no ingredient card, no play; an order may follow only under
    ``turn.pass_with_order``."""
    state.played = 0
    rules = state.rules
    state.step = rules.after_pass_with_orders if state.hand_orders[state.current] \
        else rules.after_pass_without_orders


def turn_place_order(state: FastState, order: int) -> None:
    """``turn.place_order`` (``turn.pass_with_order`` after a pass): one order card from
    hand onto the oven."""
    orders = list(state.hand_orders[state.current])
    orders.remove(order)
    state.hand_orders[state.current] = tuple(orders)
    state.oven.append(order)
    state.played += 1
    state.step = _DRAW


def refill_allowance(state: FastState) -> int:
    """``turn.draw``: up to seven cards in hand; ``turn.draw_as_played``: as many as
    were put on the oven this turn."""
    seat, played = state.current, state.played
    size = sum(state.hands[seat]) + len(state.hand_orders[seat])
    try:
        return state.rules.allowance[played][size]
    except IndexError:  # beyond the table (no hand grows that large)
        return cards_to_draw(state.rules.refill, state.rules.hand_limit, size, played)


def turn_draw(state: FastState, source: int, count: int | None) -> None:
    """``turn.draw`` (``turn.draw_fewer`` when a count is chosen): refill from one source;
    a short source gives what it has (``turn.draw_short``). Then the turn ends.

    This runs every turn, so the usual draw from the supply (all the cards at once, the
    Mamma Mia! card not among them) and the end of the turn (the reference's
    ``end_turn``) are written out here: the round ends if the supply is exhausted, or
    after a full cycle of turns that moved no card (``round_end.stall``); else the left
    neighbour plays (``turn.clockwise``)."""
    rules, played, seat = state.rules, state.played, state.current
    if count is None:  # refill_allowance, looked up
        try:
            wanted = rules.allowance[played][sum(state.hands[seat])
                                             + len(state.hand_orders[seat])]
        except IndexError:  # beyond the table (no hand grows that large)
            wanted = refill_allowance(state)
    else:
        wanted = count
    supply, first = state.supply, 0
    if source != WAITER and rules.draw_both:  # turn.draw_both: the waiter's top order first
        first = orders_before_supply(rules.draw_piles, wanted, len(state.waiters[seat]))
        draw_from_waiter(state, first)
        wanted -= first
    if source == WAITER:
        moved = draw_from_waiter(state, wanted)
    elif len(supply) > wanted and MM not in (taken := supply[:wanted]):  # the usual case
        hand = list(state.hands[seat])
        for card in taken:
            hand[card] += 1
        del supply[:wanted]
        state.hands[seat] = tuple(hand)
        if rules.round_end_last_ingredient and supply_exhausted(state):
            take_last_mamma_mia(state, seat)
        moved = wanted
    else:
        moved = draw_from_supply(state, wanted)
    moved += first
    state.quiet_turns = quiet_turns = (rules.quiet_after_busy if played or moved
                                       else rules.quiet_after_quiet)[state.quiet_turns]
    if len(supply) < 2 and _EXHAUSTED[rules.round_end, tuple(supply)]:  # supply_exhausted
        state.phase, state.step = _ROUND_END, _SUPPLY_PILE
    elif rules.stalls[quiet_turns]:
        stall(state)
    else:
        state.current = (seat + 1) % state.players
        state.step = _PLAY
        state.played = 0


def draw_from_waiter(state: FastState, wanted: int) -> int:
    """``turn.draw`` from the waiter: its top orders into hand (kept sorted)."""
    seat = state.current
    waiter = state.waiters[seat]
    taken = waiter[:wanted]
    if taken:
        state.waiters[seat] = waiter[len(taken):]
        state.hand_orders[seat] = tuple(sorted(state.hand_orders[seat] + taken))
    return len(taken)


def draw_from_supply(state: FastState, wanted: int) -> int:
    """``turn.draw`` from the supply, card by card from the top (when the draw meets the
    Mamma Mia! card or the supply's end: see :func:`turn_draw` for the usual case): the
    Mamma Mia! card is laid out and replaced (``mamma_mia.draw``); the round ends the
    moment the supply is exhausted (``round_end.last_card`` /
    ``round_end.last_ingredient``)."""
    seat, supply, hand = state.current, state.supply, list(state.hands[state.current])
    last_ingredient = state.rules.round_end_last_ingredient
    got = moved = 0
    while got < wanted and supply:  # an empty supply is exhausted under either ruling
        card = supply.pop(0)
        moved += 1
        if card == MM:
            state.mamma_mia = seat
        else:
            hand[card] += 1
            got += 1
        if last_ingredient and supply_exhausted(state):
            break
    state.hands[seat] = tuple(hand)
    if supply_exhausted(state):
        take_last_mamma_mia(state, seat)
    return moved


_EXHAUSTED: Final[dict[tuple[str, tuple[int, ...]], bool]] = {
    (round_end, supply): supply_runs_out(round_end, len(supply), sum(c < MM for c in supply))
    for round_end in ("last_card", "last_ingredient")
    for supply in ((), (MM,), *((kind,) for kind in range(N_KINDS)))}
"""``supply_runs_out`` for every supply of at most one card, by ruling. The supply
holds ingredients and at most the Mamma Mia! card, so a supply of two cards or more
holds an ingredient and ends no round: only the last card needs looking up."""


def supply_exhausted(state: FastState) -> bool:
    """``round_end.last_card`` / ``round_end.last_ingredient``: :func:`supply_runs_out`
    (looked up in ``_EXHAUSTED``)."""
    supply = state.supply
    return len(supply) < 2 and _EXHAUSTED[state.rules.round_end, tuple(supply)]


def take_last_mamma_mia(state: FastState, seat: int) -> None:
    """``round_end.last_ingredient``: a Mamma Mia! card left alone in the supply goes to
    the player who emptied it of ingredients (or who starts the round)."""
    if MM in state.supply:
        state.supply.remove(MM)
        state.mamma_mia = seat


def stall(state: FastState) -> None:
    """``round_end.stall``: a whole cycle of quiet turns ends the round; a Mamma Mia!
    card still in the supply goes to the player whose turn would be next."""
    if MM in state.supply:
        state.supply.remove(MM)
        state.mamma_mia = (state.current + 1) % state.players
    state.phase, state.step = _ROUND_END, _STALL


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


def open_the_oven(state: FastState) -> None:
    """``mamma_mia.holder``, ``oven.open``: the Mamma Mia! holder opens the oven."""
    state.phase, state.step = _OVEN, _REVEAL
    state.reveal = None
    state.current = _holder(state)


def _revealed(state: FastState) -> int:
    """The code of the order awaiting its owner's decision (``rules.state.revealed``)."""
    order = state.reveal
    if order is None:
        raise InternalError(f"no revealed order in phase {state.phase}, step {state.step}")
    return order


def _holder(state: FastState) -> int:
    """The Mamma Mia! holder, who opens the oven (``rules.state.holder``)."""
    seat = state.mamma_mia
    if seat is None:
        raise InternalError(f"no Mamma Mia! holder in phase {state.phase}")
    return seat


def reveal_next(state: FastState) -> None:
    """``oven.open``: turn up the next card; an ingredient is sorted onto the table
    (``oven.sort``), an order is judged at once, its owner deciding where there is a
    choice. (Ingredients in a row are turned up in one go: nothing is decided between
    them.) The order's code is handed down the judgement rather than read back from
    ``state.reveal``."""
    oven, table = state.oven, state.table
    position, last = 0, len(oven) - 1
    card = oven[0]
    while card < MM:
        table[card] += 1
        if position == last:
            oven.clear()
            return
        position += 1
        card = oven[position]
    del oven[:position + 1]
    state.reveal = card
    state.reveal_kind = None
    state.current = state.seat_of_colour[ORDER_COLOUR[card]]
    need = state.rules.need[card]
    if need is not None:  # oven.standard, oven.one_of_each
        bake_or_ask(state, card, need)
    elif ORDER_TYPE[card] == BOMBASTICA:
        pizza_bombastica(state, card)
    else:  # oven.monotoni, oven.minimale
        kinds = kind_choices(state, card)
        if not kinds:
            oven_fail(state, card)
        elif len(kinds) > 1:
            state.step = _NAME_KIND
        else:
            name_kind(state, card, kinds[0])


_KIND_CHOICES: Final[dict[tuple[int, tuple[int, ...], tuple[int, ...], Rules],
                          tuple[int, ...]]] = {}
_KIND_CHOICES_LIMIT: Final = 1 << 14  # remembered answers, at most (then forgotten, all at once)


def kind_choices(state: FastState, order: int) -> tuple[int, ...]:
    """``oven.monotoni`` / ``oven.minimale``: :func:`~mammamia_ref.rules.oven.nameable_kinds`
    for the revealed order, remembered by everything it is given: the same order, table
    and hand recur (the kinds are asked for at the reveal, again for the decision, and in
    other games)."""
    rules, table, hand = state.rules, tuple(state.table), state.hands[state.current]
    key = (order, table, hand, rules)
    kinds = _KIND_CHOICES.get(key)
    if kinds is None:
        if len(_KIND_CHOICES) >= _KIND_CHOICES_LIMIT:
            _KIND_CHOICES.clear()
        kinds = _KIND_CHOICES[key] = nameable_kinds(
            ORDER_TYPE_NAME[order], table, ORDER_PERSONAL[order], hand, rules.need_named[order],
            rules.monotoni_kind, rules.minimale_lowest, rules.completion)
    return kinds


def name_kind(state: FastState, order: int, kind: int) -> None:
    """The owner names the kind of a Monotoni or Minimale; it is then judged as fixed."""
    state.reveal_kind = kind
    bake_or_ask(state, order, state.rules.need_named[order][kind])


def requirement(state: FastState, order: int) -> tuple[int, ...]:
    """The requirement of ``order``, the revealed order (with the named kind for a
    Monotoni or Minimale)."""
    need = state.rules.need[order]
    if need is None:
        if state.reveal_kind is None:
            raise InternalError("a Monotoni or Minimale is judged only once its kind is named")
        return state.rules.need_named[order][state.reveal_kind]
    return need


_BAKE: Final = Outcome.BAKE  # looked up once (Enum members)
_FAIL: Final = Outcome.FAIL
_FAIL_TABLE_ONLY: Final = Outcome.FAIL_TABLE_ONLY
_FORCED: Final = Outcome.FORCED


def bake_or_ask(state: FastState, order: int, need: tuple[int, ...]) -> None:
    """An order with a fixed requirement ``need``, judged by
    :func:`~mammamia_ref.rules.oven.fixed_order_outcome`."""
    table = state.table
    outcome = fixed_order_outcome(need, table, state.hands[state.current], state.rules.completion)
    if outcome is _BAKE:
        bake(state, order, need, NO_KINDS)
    elif outcome is _FAIL:
        oven_fail(state, order)
    elif outcome is _FORCED:
        missing = shortfall(need, tuple(table))
        bake(state, order, [n - m for n, m in zip(need, missing, strict=True)], missing)
    else:
        state.step = _COMPLETE


def pizza_bombastica(state: FastState, order: int) -> None:
    """``oven.bombastica``, judged by :func:`~mammamia_ref.rules.oven.bombastica_outcome`:
    it takes the whole table."""
    rules, hand = state.rules, state.hands[state.current]
    outcome = bombastica_outcome(state.table, hand, rules.bombastica_total, rules.bombastica_hand,
                                 rules.completion)
    if outcome is _BAKE:
        bake(state, order, state.table[:], NO_KINDS)
    elif outcome is _FAIL or outcome is _FAIL_TABLE_ONLY:
        oven_fail(state, order)
    elif outcome is _FORCED:
        bake(state, order, state.table[:],
             hand_choices(hand, bombastica_shortfall(state.table, rules.bombastica_total))[0])
    else:
        state.step = _COMPLETE


_HAND_CHOICES: Final[dict[tuple[tuple[int, ...], int], tuple[tuple[int, ...], ...]]] = {}


def hand_choices(hand: tuple[int, ...], total: int) -> tuple[tuple[int, ...], ...]:
    """:func:`~mammamia_ref.rules.oven.ways_to_take`, cached: there are few hands."""
    key = (hand, total)
    ways = _HAND_CHOICES.get(key)
    if ways is None:
        ways = _HAND_CHOICES[key] = tuple(ways_to_take(hand, total))
    return ways


def completions(state: FastState) -> Sequence[Sequence[int]]:
    """The hand cards that may complete the revealed order: exactly what is missing, or
    for a Bombastica any choice making up the shortfall."""
    hand, order = state.hands[state.current], _revealed(state)
    if ORDER_TYPE[order] == BOMBASTICA:
        return hand_choices(hand, bombastica_shortfall(state.table, state.rules.bombastica_total))
    missing = shortfall(requirement(state, order), tuple(state.table))
    return [missing] if covers(hand, missing) else []


def oven_complete(state: FastState, cards: Sequence[int]) -> None:
    """``oven.complete_from_hand`` (``oven.complete_mandatory``): the owner adds these
    hand cards and the order bakes."""
    order = _revealed(state)
    if ORDER_TYPE[order] == BOMBASTICA:
        bake(state, order, state.table[:], cards)
    else:
        bake(state, order, [n - c for n, c in zip(requirement(state, order), cards, strict=True)],
             cards)


def bake(state: FastState, order: int, from_table: Sequence[int],
         from_hand: Sequence[int]) -> None:
    """``oven.bake``: the order to its owner's delivered stack, the ingredients it uses
    (from table and hand) to the used pile; the rest stays (``oven.leftovers``). The
    holder opens the next card."""
    seat, holder = state.current, state.mamma_mia
    if holder is None:
        raise InternalError("no Mamma Mia! holder at the oven")
    table, used = state.table, state.used
    for kind, count in enumerate(from_table):
        if count:
            table[kind] -= count
            used[kind] += count
    if any(from_hand):
        for kind, count in enumerate(from_hand):
            used[kind] += count
        state.hands[seat] = tuple([h - c for h, c in zip(state.hands[seat], from_hand,
                                                         strict=True)])
    state.delivered[seat] += (order,)
    state.reveal = state.reveal_kind = None
    state.step = _REVEAL
    state.current = holder


def oven_fail(state: FastState, order: int) -> None:
    """``oven.fail``: the order goes under its owner's waiter; the table keeps its cards.
    The holder opens the next card."""
    holder = state.mamma_mia
    if holder is None:
        raise InternalError("no Mamma Mia! holder at the oven")
    state.waiters[state.current] += (order,)
    state.reveal = state.reveal_kind = None
    state.step = _REVEAL
    state.current = holder


# -- the next round and the end ------------------------------------------------------


def after_resolution(state: FastState) -> None:
    """The oven is empty: the third resolution ends the game
    (``game_end.three_resolutions``); otherwise leftovers go to the oven
    (``next_round.oven``) or stay (``next_round.leftovers_on_table``), and the used
    pile, the rest of the supply and the Mamma Mia! card make the next supply
    (``next_round.supply``), awaiting its shuffle."""
    state.resolutions += 1
    if game_ends(state.resolutions, state.rules.rounds):
        state.phase, state.step = _OVER, _OVER_STEP
        state.reveal = state.reveal_kind = None
        return
    if state.rules.leftovers_to_oven:
        state.oven = cards_of(state.table)
        state.table = [0] * N_KINDS
    left = [0] * N_KINDS
    for card in state.supply:
        if card < MM:
            left[card] += 1
    state.supply = cards_of(next_supply(tuple(state.used), tuple(left))) + [MM]
    state.used = [0] * N_KINDS
    state.phase, state.step = _SHUFFLE, _SUPPLY_PILE
    state.current = _holder(state)
    state.mamma_mia = None
    state.round += 1


def start_round(state: FastState) -> None:
    """``next_round.first_player``: the last Mamma Mia! holder opens the round. A supply
    with no ingredient (only under ``round_end.last_ingredient``) ends it at once."""
    state.phase, state.step = _TURN, _PLAY
    state.played = state.quiet_turns = 0
    if supply_exhausted(state):
        take_last_mamma_mia(state, state.current)
        state.phase, state.step = _ROUND_END, _SUPPLY_PILE


def winners(state: FastState) -> tuple[tuple[int, ...], str]:
    """``game_end.most_delivered``, then ``game_end.tie_break`` (most ingredient cards
    in hand), then ``game_end.shared_win`` or ``game_end.seat_order_win``."""
    if state.phase != _OVER:
        raise IllegalActionError("the game has not ended", rule="game_end.three_resolutions")
    start = state.mamma_mia if state.mamma_mia is not None else state.current
    return winning_seats(tuple(len(stack) for stack in state.delivered),
                         tuple(sum(hand) for hand in state.hands), state.rules.final_tie, start)


# -- chance, the benchmark policy, whole games, counting -----------------------------


# The reference's chance and policy draw from ``random.Random`` through ``sample`` and
# ``choice``, both built on ``_randbelow(n)``: ``getrandbits(n.bit_length())`` until the
# result is below n. The fast engine draws the very same numbers with that loop written
# out (a Python call less per number). ``_INLINE_OK`` checks, once, that this Python's
# ``random`` still works that way; where it does not, the fast engine calls it instead.


_BITS: Final = tuple(n.bit_length() for n in range(4096))  # n.bit_length(), looked up (piles and
# lists of legal actions are far shorter)


def _sample_all(rng: random.Random, cards: Sequence[int]) -> list[int]:
    """``rng.sample(cards, len(cards))``, number for number (its selection-pool branch,
    the one it takes whenever it returns the whole population)."""
    getrandbits, bits_of = rng.getrandbits, _BITS
    pool = list(cards)
    result: list[int] = []
    for left in range(len(pool), 0, -1):  # pick one of the ``left`` cards not yet taken
        bits = bits_of[left]
        j = getrandbits(bits)
        while j >= left:
            j = getrandbits(bits)
        result.append(pool[j])  # (the interpreter's own path for list.append)
        pool[j] = pool[left - 1]
    return result


def _inline_ok() -> bool:
    if getattr(random.Random, "_randbelow", None) is not getattr(
            random.Random, "_randbelow_with_getrandbits", object()):
        return False
    for n in (1, 2, 7, 8, 9, 40, 66):
        a, b = random.Random(f"check:{n}"), random.Random(f"check:{n}")
        if [a.sample(range(n), n) for _ in range(3)] != [_sample_all(b, range(n))
                                                        for _ in range(3)]:
            return False
        if [a.choice(range(n)) for _ in range(50)] != [_below(b.getrandbits, n)
                                                       for _ in range(50)]:
            return False
    return True


def _below(getrandbits: Callable[[int], int], n: int) -> int:
    """``Random._randbelow(n)``."""
    bits = n.bit_length()
    r = getrandbits(bits)
    while r >= n:
        r = getrandbits(bits)
    return r


_INLINE_OK: Final = _inline_ok()


def shuffled(rng: random.Random, cards: Sequence[int]) -> list[int]:
    """The shuffle the reference's :class:`~mammamia_ref.rules.chance.ChanceSource` draws:
    ``rng.sample(cards, len(cards))``. It orders positions, not values, so the same pile
    in the same order, coded or not, comes out the same."""
    if _INLINE_OK and len(cards) < len(_BITS):
        return _sample_all(rng, cards)
    return rng.sample(cards, len(cards))


class FastChance:
    """:class:`mammamia_ref.rules.chance.ChanceSource` for the fast engine: the same seed gives
    the same shuffles."""

    def __init__(self, seed: int | str) -> None:
        self.seed = seed
        self._random = random.Random(f"mammamia-chance:{seed}")

    def shuffle(self, state: FastState) -> list[int]:
        return shuffled(self._random, chance_pile(state)[1])


def benchmark_choice(state: FastState, legal: Sequence[int], rng: random.Random) -> int:
    """:func:`mammamia_ref.sim.policies.random_policy` on action codes, drawing the same
    numbers from ``rng``: uniform among the legal actions, except that the draw takes the
    supply with probability 0.8 and the waiter otherwise. (``rng.choice(seq)`` is
    ``seq[_randbelow(len(seq))]``.)"""
    first = 0
    n = len(legal)
    if state.step == _DRAW:
        source = SUPPLY if rng.random() < 0.8 else WAITER
        if legal is DRAW_FILL:  # one draw from that source: still a choice among one
            n, first = 1, source
        else:  # supply counts first, then as many waiter counts
            n //= 2
            first = n if source == WAITER else 0
    if not _INLINE_OK:
        return legal[first + rng.randrange(n)]  # which is rng._randbelow(n)
    bits = _BITS[n]
    r = rng.getrandbits(bits)
    while r >= n:
        r = rng.getrandbits(bits)
    return legal[first + r]


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
    itself: the choices :func:`legal_actions` lists, the numbers
    :func:`benchmark_choice` draws, the rule functions :func:`apply` calls (a play's,
    :func:`turn_play`, written out: half the turn's decisions are plays). The oven's
    decisions, and every decision under ``draw_amount=any``, take the general path."""
    chance = random.Random(f"mammamia-chance:{seed}")
    rng = random.Random(f"mammamia-policy:{seed}")
    getrandbits, uniform, bits_of = rng.getrandbits, rng.random, _BITS
    state = new_game(config)
    result = FastGameResult(state)
    players, stall_letter = state.players, state.rules.stall_letter
    inline = _INLINE_OK and not state.rules.draw_any
    decisions = turns = shuffles = 0
    # Module constants as locals: a local is read faster than a global.
    turn, oven, draw, play = _TURN, _OVEN, _DRAW, _PLAY
    after_play_with_orders, after_play_without_orders = (_AFTER_PLAY_WITH_ORDERS,
                                                         _AFTER_PLAY_WITHOUT_ORDERS)
    play_choices_of, order_choices_of, play_of = _PLAY_CHOICES.get, _ORDER_CHOICES.get, _PLAY_OF
    for _ in range(max_steps):
        if stall_letter and state.quiet_turns >= players:
            result.stalled = True
            break
        phase = state.phase
        if phase == turn and inline:  # the turn's decisions: see the docstring
            decisions += 1
            step = state.step
            if step == draw:  # the source, then the one draw from it: a choice among one
                source = SUPPLY if uniform() < 0.8 else WAITER
                while getrandbits(1):
                    pass
                turn_draw(state, source, None)
                if state.phase != turn:
                    settle(state)
                continue
            seat = state.current
            if step == play:
                turns += 1
                hand = state.hands[seat]
                legal = play_choices_of(hand) or play_choices(hand)
            else:
                orders = state.hand_orders[seat]
                legal = order_choices_of(orders) or order_choices(orders)
            n = len(legal)
            bits = bits_of[n]
            r = getrandbits(bits)
            while r >= n:
                r = getrandbits(bits)
            action = legal[r]
            if action == NO_ORDER:
                state.step = draw
            elif action >= PLACE_BASE:
                turn_place_order(state, action - PLACE_BASE)
            elif action == PASS:
                turn_pass(state)
            else:  # turn_play, written out (half the turn's decisions are plays)
                kind, count = play_of[action]
                held = list(hand)
                held[kind] -= count
                state.hands[seat] = tuple(held)
                state.oven.extend([kind] * count)
                state.played = count
                state.step = after_play_with_orders if state.hand_orders[seat] \
                    else after_play_without_orders
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
    "FastChance", "FastGameResult", "FastState", "action_code", "action_of", "apply",
    "apply_checked", "apply_shuffle", "benchmark_choice", "chance_pile", "from_state",
    "is_chance", "is_over", "legal_actions", "new_game", "perft", "play_random_game",
    "to_move", "winners",
]
