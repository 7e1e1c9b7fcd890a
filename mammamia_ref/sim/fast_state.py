"""The fast engine's state: cards and actions as small integers, the rules of one game
as the chapters take them, and :class:`FastState`, a game changed in place (with its
conversions to and from the reference's state). The chapters (:mod:`.fast_setup`,
:mod:`.fast_turn`, :mod:`.fast_round`, :mod:`.fast_oven`, :mod:`.fast_scoring`) change it;
:mod:`mammamia_ref.sim.fast` is the API."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Final

from mammamia_ref.errors import InternalError
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
)
from mammamia_ref.rules.events import Event
from mammamia_ref.rules.oven import (
    may_decline,
    named_needs,
)
from mammamia_ref.rules.round import (
    leftovers_to_oven,
    quiet_turns_after,
    stalls,
)
from mammamia_ref.rules.ruleset import Parameters, order_shapes
from mammamia_ref.rules.ruleset import Rules as GameRules
from mammamia_ref.rules.setup import mamma_mia_dealt_with_deck
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
    step_after_pass,
)
from mammamia_ref.rules.typed_spec import DrawAmount, DrawPiles, PassOrder, RoundEnd, Stall
from mammamia_ref.rules.vocabulary import (
    COLOURS,
    KINDS,
    MAMMA_MIA,
    ORDER_TYPE_CODES,
    ORDERS,
    ORDERS_OF,
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

# The flag values the fast engine compares with, bound once as the generated members'
# plain values (as the phases and steps above): no string literal of a flag value here.
_LAST_INGREDIENT: Final = RoundEnd.LAST_INGREDIENT.value
_LETTER: Final = Stall.LETTER.value
_ANY_AMOUNT: Final = DrawAmount.ANY.value
_BOTH_PILES: Final = DrawPiles.BOTH.value
PASS_ORDER_FORBIDDEN: Final = PassOrder.FORBIDDEN.value

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
        self.round_end_last_ingredient = self.round_end == _LAST_INGREDIENT
        self.stall_letter = self.stall == _LETTER
        self.draw_any = variants.flags.draw_amount == _ANY_AMOUNT
        self.draw_piles: str = variants.flags.draw_piles
        self.draw_both = self.draw_piles == _BOTH_PILES
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
    tuple, replaced when it changes: copying a state then copies only the outer lists.

    ``events`` is None unless the caller asks for the events (:func:`record_events`):
    then every transition appends to it the reference's :class:`~mammamia_ref.rules.events.Event`
    values, the same as :func:`mammamia_ref.rules.game.apply` returns, in the same order.
    Normal play builds none (one test of a field per transition at most). ``told``, if
    not None, keeps only the events of those names (the others are not built)."""

    __slots__ = ("box", "config", "current", "delivered", "events", "hand_orders", "hands",
                 "mamma_mia", "oven", "phase", "played", "players", "quiet_turns", "resolutions",
                 "reveal", "reveal_kind", "round", "rules", "seat_of_colour", "step", "supply",
                 "table", "told", "used", "waiters")

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
    events: list[Event] | None
    told: frozenset[str] | None

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
        new.events = new.told = None  # a copy records nothing into its original's events
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
    state.events = state.told = None
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
    state.events = state.told = None
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


_PILE_COLOUR: Final[dict[str, int]] = {waiter_pile(colour): i for i, colour in enumerate(COLOURS)}
"""The colour index of each waiter's shuffle step (``waiter_pile(colour)``)."""
_PILE_OF_COLOUR: Final[dict[str, str]] = {colour: waiter_pile(colour) for colour in COLOURS}

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


def record_events(state: FastState, names: Iterable[str] | None = None) -> list[Event]:
    """From now on, the events of every transition of ``state`` are appended to the list
    returned (:attr:`FastState.events`): the reference's events, for the judging of
    ``mammamia ask``'s questions (:mod:`mammamia_ref.sim.fast_events`); with ``names``,
    only the events of those names (the reference's, with the others left out)."""
    events: list[Event] = []
    state.events = events
    state.told = None if names is None else frozenset(names)
    return events


def tell(state: FastState, name: str, rule: str, *data: tuple[str, Any]) -> None:
    """Append an event to ``state.events`` (the caller has checked it records): the
    reference's :func:`mammamia_ref.rules.events.event` with its fields in order."""
    events, told = state.events, state.told
    if events is not None and (told is None or name in told):
        events.append(Event(name, rule, data))
