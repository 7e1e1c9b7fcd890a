"""The immutable game state and the variant flags a game is created with.

A state is a frozen dataclass; every transition returns a new one. Where a physical
card lies is always explicit: the supply and the waiters are ordered piles (top
first), the oven is ordered as played (first played first), the table, the used
pile and the box are count maps (their order never matters).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, TypeVar

from mammamia_ref.errors import InternalError, VariantError
from mammamia_ref.rules import specdata
from mammamia_ref.rules.ruleset import Flags as Flags  # re-exported: the state's rules
from mammamia_ref.rules.ruleset import Parameters as Parameters
from mammamia_ref.rules.ruleset import Rules as Rules
from mammamia_ref.rules.ruleset import default_rules, make_rules, unserved
from mammamia_ref.rules.typed_spec import FLAG_TYPES
from mammamia_ref.rules.vocabulary import COLOURS, MAX_PLAYERS, MIN_PLAYERS, NO_CARDS, Counts


class Phase(StrEnum):
    """Where the game stands. A ``StrEnum``: its members are the strings of the JSON
    forms, and compare equal to them."""

    SHUFFLE = "shuffle"      # a chance node: the pile named by ``step`` must be shuffled
    TURN = "turn"            # step play, order or draw
    OVEN = "oven"            # step name_kind or complete: the revealed order's owner decides
    ROUND_END = "round_end"  # between decisions only: the round has just ended
    OVER = "over"            # the game has ended


class Step(StrEnum):
    """The step within a phase. A shuffle's step is the pile: ``INGREDIENTS``,
    ``SUPPLY`` or a waiter, ``waiter_pile(colour)`` (not a member: one per colour)."""

    INGREDIENTS = "ingredients"
    SUPPLY = "supply"        # also: a round ended by its supply (phase round_end)
    PLAY = "play"
    ORDER = "order"
    DRAW = "draw"
    NAME_KIND = "name_kind"
    COMPLETE = "complete"
    REVEAL = "reveal"        # between decisions only: the oven reveals its next card
    STALL = "stall"          # a round ended by a stall (phase round_end)
    OVER = "over"


_Value = TypeVar("_Value")
_new, _set = object.__new__, object.__setattr__


def replace(value: _Value, /, **changes: Any) -> _Value:
    """``dataclasses.replace`` for the rules' frozen, slotted values (the state, a hand,
    a reveal) without running ``__init__`` again: the reference engine makes several
    new states a step, and this takes half the time of the standard function."""
    cls = type(value)
    new = _new(cls)
    for name in cls.__slots__:  # type: ignore[attr-defined]  # the fields, and only them
        _set(new, name, changes.pop(name) if name in changes else getattr(value, name))
    if changes:
        raise TypeError(f"{cls.__name__} has no field {', '.join(changes)}")
    return new


WAITER_PILE = "waiter."


def waiter_pile(colour: str) -> str:
    """The shuffle step of a player's waiter."""
    return f"{WAITER_PILE}{colour}"


PHASES = (Phase.SHUFFLE, Phase.TURN, Phase.OVEN, Phase.OVER)  # the phases a state rests in
TURN_STEPS = (Step.PLAY, Step.ORDER, Step.DRAW)
OVEN_STEPS = (Step.NAME_KIND, Step.COMPLETE)


def variant_defaults() -> dict[str, str]:
    """Every variant flag with its default value, from ``spec/disputes.yaml``."""
    return default_rules().as_dict()


def variant_values() -> dict[str, tuple[str, ...]]:
    return {name: tuple(member.value for member in kinds) for name, kinds in FLAG_TYPES.items()}


MODEL_WORDS: dict[str, tuple[str, str]] = {
    "reference": ("the reference", "no other model plays more of the rules"),
    "fast": ("the fast engine (simulate, compare, perft, verify's games)",
             "play it on the reference: `mammamia play`, `scenario run`, `perft --reference`"),
    "policies": ("the simple, careful and search players",
                 "`--policy random` plays under every rule the reference plays"),
    "oven_model": ("the z3 oven model", "ask it as a question file (`mammamia ask`): the z3 "
                   "game model and the reference's games take more of the rules"),
    "game_model": ("the z3 game model", "ask it as a question file (`mammamia ask`): the "
                   "reference's games take every rule"),
}
"""Each model in a designer's words, and the option that gets round its refusals."""


def refuse_unclaimed(model: str, rules: Rules, *, carries_information: bool = False) -> None:
    """Refuse (``VariantError``) a non-default flag value or parameter that ``model`` does
    not claim in the spec (``models:`` of a flag or of one of its values in
    ``spec/disputes.yaml``, of a parameter in ``spec/cards.yaml``), saying which option
    gets round it (:data:`MODEL_WORDS`). An engine without observations
    (``carries_information``) passes an information-only flag through."""
    who, way = MODEL_WORDS.get(model, (f"the {model} model", ""))
    tail = f"; {way}" if way else ""
    for flag, value in rules.non_default().items():
        claimed = specdata.models_of(flag, value)
        if model in claimed or (carries_information and specdata.information_only(flag)):
            continue
        raise VariantError(f"{who} does not implement {flag}={value} (implemented by: "
                           f"{', '.join(claimed)}; spec/disputes.yaml){tail}",
                           flag=flag, value=value)
    for name, number in rules.non_default_parameters().items():
        claimed = specdata.parameter_models(name)
        if model not in claimed:
            raise VariantError(f"{who} does not take {name}={_said(number)} (taken by: "
                               f"{', '.join(claimed)}; spec/cards.yaml){tail}",
                               flag=name, value=number)


def _said(number: object) -> str:
    """A parameter's value as a house file writes it (a map by player count in braces)."""
    if isinstance(number, dict):
        return "{" + ", ".join(f"{k}: {v}" for k, v in number.items()) + "}"
    return str(number)


def make_variants(overrides: Mapping[str, str] | None = None) -> Rules:
    """The default rules with the flag values ``overrides`` applied; unknown flags or
    values are refused.

    >>> make_variants({"refill": "as_many_as_played"}).flags.refill
    <Refill.AS_MANY_AS_PLAYED: 'as_many_as_played'>
    """
    return make_rules(overrides)


@dataclass(frozen=True, slots=True)
class GameConfig:
    """What a game is created with: the seats' colours, who starts, the rules."""

    colours: tuple[str, ...]
    first_player: int
    rules: Rules

    @property
    def players(self) -> int:
        return len(self.colours)


def make_config(players: int, *, colours: tuple[str, ...] | None = None, first_player: int = 0,
                variants: Mapping[str, str] | Rules | None = None) -> GameConfig:
    """A checked configuration. Colours default to the manifest's first ``players``;
    ``variants`` is a game's rules, or flag values over the defaults."""
    if type(players) is not int or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise VariantError(f"the game is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players}")
    chosen = tuple(colours) if colours is not None else COLOURS[:players]
    if len(chosen) != players or not all(isinstance(c, str) for c in chosen) \
            or len(set(chosen)) != players or set(chosen) - set(COLOURS):
        raise VariantError(f"need {players} different colours from {', '.join(COLOURS)}; "
                           f"got {list(chosen)}")
    if type(first_player) is not int or not 0 <= first_player < players:
        raise VariantError(f"first_player must be a seat from 0 to {players - 1}")
    rules = variants if isinstance(variants, Rules) else make_rules(variants)
    why = unserved(rules, players)
    if why:
        where = f"house rule {rules.house!r}: " if rules.house else ""
        raise VariantError(f"{where}the deck cannot serve this game: {why}")
    return GameConfig(chosen, first_player, rules)


@dataclass(frozen=True, slots=True)
class Hand:
    """A player's hand: ingredient counts and order cards (sorted; hand order is private)."""

    ingredients: Counts = NO_CARDS
    orders: tuple[str, ...] = ()

    @property
    def size(self) -> int:
        return sum(self.ingredients) + len(self.orders)


@dataclass(frozen=True, slots=True)
class Reveal:
    """The order just turned up at the oven, awaiting its owner's decision."""

    order: str
    kind: str | None = None  # the kind named for a Monotoni or Minimale


@dataclass(frozen=True, slots=True)
class GameState:
    config: GameConfig
    phase: Phase
    step: str               # a Step, or a waiter's pile at a shuffle (``waiter_pile``)
    current: int            # the seat whose turn or decision it is (or will be, at a shuffle)
    round: int              # 1 to 3
    resolutions: int        # how many times the oven has been resolved
    supply: tuple[str, ...]  # top first; during setup it holds the undealt deck
    oven: tuple[str, ...]    # first played first (= first revealed)
    table: Counts            # face-up sorted ingredients while (and after) the oven is resolved
    used: Counts             # the used-ingredients pile
    box: Counts              # ingredient cards trimmed from the game
    mamma_mia: int | None    # the seat holding the Mamma Mia! card, or None
    hands: tuple[Hand, ...]
    waiters: tuple[tuple[str, ...], ...]    # top first
    delivered: tuple[tuple[str, ...], ...]  # in delivery order
    played: int = 0          # cards put on the oven this turn (ingredients and order)
    quiet_turns: int = 0     # consecutive turns in which no card moved (capped at players)
    reveal: Reveal | None = None

    @property
    def players(self) -> int:
        return self.config.players

    @property
    def rules(self) -> Rules:
        return self.config.rules

    @property
    def flags(self) -> Flags:
        return self.config.rules.flags

    @property
    def parameters(self) -> Parameters:
        return self.config.rules.parameters

    def colour(self, seat: int) -> str:
        return self.config.colours[seat]

    def seat_of(self, colour: str) -> int:
        return self.config.colours.index(colour)

    def with_hand(self, seat: int, hand: Hand) -> GameState:
        return replace(self, hands=_put(self.hands, seat, hand))

    def with_waiter(self, seat: int, waiter: tuple[str, ...]) -> GameState:
        return replace(self, waiters=_put(self.waiters, seat, waiter))

    def with_delivered(self, seat: int, stack: tuple[str, ...]) -> GameState:
        return replace(self, delivered=_put(self.delivered, seat, stack))


def revealed(state: GameState) -> Reveal:
    """The order awaiting its owner's decision at the oven: there is one exactly in the
    oven phase while a decision (or a judgement) is pending."""
    if state.reveal is None:
        raise InternalError(f"no revealed order in phase {state.phase}, step {state.step}")
    return state.reveal


def holder(state: GameState) -> int:
    """The seat holding the Mamma Mia! card, once the round has ended: someone always
    does by then (it is drawn, taken with the last ingredient, or taken at a stall)."""
    if state.mamma_mia is None:
        raise InternalError(f"no Mamma Mia! holder in phase {state.phase}")
    return state.mamma_mia


def _put(items: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return items[:index] + (value,) + items[index + 1:]
