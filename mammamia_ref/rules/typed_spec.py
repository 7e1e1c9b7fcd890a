"""GENERATED from spec/disputes.yaml (flags) and spec/cards.yaml (parameters) by
``python -m mammamia_ref.tools.typed_spec``: do not edit by hand.

One StrEnum per variant flag, and the typed records of a game's flag values and
parameters; ``rules/ruleset.py`` builds them from the spec, a house rule and the
command line. A per-players parameter is a tuple indexed by the player count."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Trimming(StrEnum):
    """The values of flag ``trimming`` (D1); default ``on``."""

    ON = "on"  # setup.trim
    OFF = "off"  # setup.full_deck


class MammaMiaShuffle(StrEnum):
    """The values of flag ``mamma_mia_shuffle`` (D2); default ``after_deal``."""

    AFTER_DEAL = "after_deal"  # setup.supply
    BEFORE_DEAL = "before_deal"  # setup.supply_before_deal


class Refill(StrEnum):
    """The values of flag ``refill`` (D3); default ``to_seven``."""

    TO_SEVEN = "to_seven"  # turn.draw
    AS_MANY_AS_PLAYED = "as_many_as_played"  # turn.draw_as_played


class MinimaleLowest(StrEnum):
    """The values of flag ``minimale_lowest`` (D4); default ``eligible_kinds``."""

    ELIGIBLE_KINDS = "eligible_kinds"  # oven.minimale
    ALL_KINDS = "all_kinds"  # oven.minimale_all_kinds


class Completion(StrEnum):
    """The values of flag ``completion`` (D5); default ``optional``."""

    OPTIONAL = "optional"  # oven.complete_from_hand
    MANDATORY = "mandatory"  # oven.complete_mandatory


class RoundEnd(StrEnum):
    """The values of flag ``round_end`` (D6); default ``last_card``."""

    LAST_CARD = "last_card"  # round_end.last_card
    LAST_INGREDIENT = "last_ingredient"  # round_end.last_ingredient


class Stall(StrEnum):
    """The values of flag ``stall`` (D7); default ``cut``."""

    CUT = "cut"  # round_end.stall
    LETTER = "letter"  # None


class FinalTie(StrEnum):
    """The values of flag ``final_tie`` (D8); default ``shared``."""

    SHARED = "shared"  # game_end.shared_win
    SEAT_ORDER = "seat_order"  # game_end.seat_order_win


class DrawAmount(StrEnum):
    """The values of flag ``draw_amount`` (D9); default ``fill``."""

    FILL = "fill"  # turn.draw
    ANY = "any"  # turn.draw_fewer


class Leftovers(StrEnum):
    """The values of flag ``leftovers`` (D10); default ``oven``."""

    OVEN = "oven"  # next_round.oven
    TABLE = "table"  # next_round.leftovers_on_table


class PassOrder(StrEnum):
    """The values of flag ``pass_order`` (D12); default ``forbidden``."""

    FORBIDDEN = "forbidden"  # turn.pass
    ALLOWED = "allowed"  # turn.pass_with_order


class MonotoniKind(StrEnum):
    """The values of flag ``monotoni_kind`` (D13); default ``any_other``."""

    ANY_OTHER = "any_other"  # oven.monotoni
    ON_TABLE = "on_table"  # oven.monotoni_on_table


class BombasticaHand(StrEnum):
    """The values of flag ``bombastica_hand`` (D13); default ``allowed``."""

    ALLOWED = "allowed"  # oven.bombastica
    FORBIDDEN = "forbidden"  # oven.bombastica_table_only


class OvenMemory(StrEnum):
    """The values of flag ``oven_memory`` (D17); default ``announced``."""

    ANNOUNCED = "announced"  # information.oven_announced
    SEEN = "seen"  # information.oven_seen


class CardCounts(StrEnum):
    """The values of flag ``card_counts`` (D18); default ``public``."""

    PUBLIC = "public"  # information.counts
    HIDDEN = "hidden"  # information.counts_hidden


class UsedPile(StrEnum):
    """The values of flag ``used_pile`` (D19); default ``closed``."""

    CLOSED = "closed"  # information.used_closed
    OPEN = "open"  # information.used_open


class DrawPiles(StrEnum):
    """The values of flag ``draw_piles`` (a house rule); default ``one``."""

    ONE = "one"  # turn.draw
    BOTH = "both"  # turn.draw_both


FLAG_TYPES: dict[str, type[StrEnum]] = {
    'trimming': Trimming,
    'mamma_mia_shuffle': MammaMiaShuffle,
    'refill': Refill,
    'minimale_lowest': MinimaleLowest,
    'completion': Completion,
    'round_end': RoundEnd,
    'stall': Stall,
    'final_tie': FinalTie,
    'draw_amount': DrawAmount,
    'leftovers': Leftovers,
    'pass_order': PassOrder,
    'monotoni_kind': MonotoniKind,
    'bombastica_hand': BombasticaHand,
    'oven_memory': OvenMemory,
    'card_counts': CardCounts,
    'used_pile': UsedPile,
    'draw_piles': DrawPiles,
}
"""Every flag, in the order of spec/disputes.yaml, with its values' type."""


@dataclass(frozen=True, slots=True)
class Flags:
    """A value of every variant flag."""

    trimming: Trimming
    mamma_mia_shuffle: MammaMiaShuffle
    refill: Refill
    minimale_lowest: MinimaleLowest
    completion: Completion
    round_end: RoundEnd
    stall: Stall
    final_tie: FinalTie
    draw_amount: DrawAmount
    leftovers: Leftovers
    pass_order: PassOrder
    monotoni_kind: MonotoniKind
    bombastica_hand: BombasticaHand
    oven_memory: OvenMemory
    card_counts: CardCounts
    used_pile: UsedPile
    draw_piles: DrawPiles


PARAMETER_NAMES: tuple[str, ...] = (
    'hand_limit',
    'starting_ingredients',
    'starting_orders',
    'rounds',
    'standard_count',
    'monotoni_count',
    'minimale_count',
    'bombastica_total',
    'trimming',
)
"""Every parameter, in the order of spec/cards.yaml."""


@dataclass(frozen=True, slots=True)
class Parameters:
    """A value of every number of the rules."""

    hand_limit: int
    """A hand is refilled up to this many cards. (turn.draw)"""
    starting_ingredients: int
    """Ingredient cards dealt to each player. (setup.deal)"""
    starting_orders: int
    """Orders each player takes from the top of the waiter at the start. (setup.waiter)"""
    rounds: int
    """The game ends after this many oven openings. (game_end.three_resolutions)"""
    standard_count: int
    """Cards of the other kind a standard order needs, beside its personal card. (oven.standard)"""
    monotoni_count: int
    """Cards of the named kind a Pizza Monotoni needs, beside its personal card. (oven.monotoni)"""
    minimale_count: int
    """Cards of the lowest kind a Pizza Minimale needs, beside its personal card. (oven.minimale)"""
    bombastica_total: int
    """Ingredient cards of any kinds a Pizza Bombastica needs. (oven.bombastica)"""
    trimming: tuple[int, ...]
    """Ingredient cards of each kind that go back to the box, by player count. (setup.trim)"""
