"""Games built by a plan (kept for the tests: ``tests/witness_plans.py``).

Some questions ask for the most of something (every card taken by one Pizza Bombastica,
the longest round): their witnesses are games of thirty to a hundred and more turns,
beyond what the bounded unrolling of the game model solves at once. A *plan* builds
such a game instead: it chooses every shuffle (the deal, the supply, the waiters) and
then every decision, turn by turn, from the state the reference implementation reaches.
Every action goes through the reference (:func:`mammamia_ref.rules.game.apply`), which
refuses an illegal one, so a plan can only ever produce a game of the rules; how good
the game is (the value it reaches) is read from the reference's own events and state,
and the query compares it with a bound proved by z3.

:class:`Builder` plays the game and keeps what ``mammamia_ref.queries.answering.witness``
needs to write it as a scenario from a new game.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace

from mammamia_ref.errors import InternalError
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
from mammamia_ref.rules.events import Event
from mammamia_ref.rules.game import apply, chance_pile, is_chance, legal_actions, new_game
from mammamia_ref.rules.state import GameState, make_config
from mammamia_ref.rules.vocabulary import MAMMA_MIA


@dataclass
class Entry:
    """One action of a built game, the events it caused and the state after it."""

    action: Action
    events: tuple[Event, ...]
    state: GameState


@dataclass
class Builder:
    """A game of the reference played action by action from a new game.

    A plan may *wish* for the cards a supply draw turns up (:meth:`wish`) instead of
    arranging the whole supply in advance: :func:`build` then runs the plan twice. The
    first pass moves the wished cards to the top of what is left of the supply just
    before each draw (an arrangement of the cards not yet drawn, so the supply stays a
    permutation of its cards) and records each round's supply as it was drawn; the
    second plays the same plan from a new game with those orders as the supply
    shuffles, every wish then already on top, so the game is one the reference plays
    from its setup with chance given in advance."""

    players: int
    variants: Mapping[str, str] = field(default_factory=dict)
    first_player: int = 0
    lazy: bool = False                      # the first pass: wishes rearrange the supply
    supplies: list[list[str]] | None = None  # the second pass: each round's supply order
    played: list[Entry] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.config = make_config(self.players, first_player=self.first_player,
                                  variants=dict(self.variants))
        self.state = new_game(self.config)
        self.drawn: list[list[str]] = []    # each round's supply cards, in the order drawn
        self.rest: list[list[str]] = []     # ... and those left after its last draw

    # ---------------------------------------------------------------- actions

    def do(self, action: Action) -> tuple[Event, ...]:
        """Apply ``action`` in the reference (which refuses an illegal one)."""
        before = self.state.supply
        self.state, events = apply(self.state, action)
        if isinstance(action, Draw) and action.source == "supply" and self.drawn:
            # the cards come off the top: those drawn, and the Mamma Mia! card if met
            moved = sum(e.get("count") for e in events if e.name == "drew") + \
                sum(1 for e in events if e.name == "mamma_mia_drawn")
            self.drawn[-1].extend(before[:moved])
            self.rest[-1] = list(before[moved:])
        self.played.append(Entry(action, events, self.state))
        return events

    def shuffle(self, order: Sequence[str]) -> None:
        """The pending shuffle, its cards in ``order`` (top first); in the second pass
        of :func:`build` a supply gets the order the first pass drew it in."""
        pile, cards = chance_pile(self.state)
        if pile == "supply":
            if self.supplies is not None:
                order = self.supplies[len(self.drawn)]
            self.drawn.append([])
            self.rest.append(list(order))
        if sorted(order) != sorted(cards):
            raise InternalError(f"a plan shuffles {pile} as {sorted(order)}, not its cards "
                                f"{sorted(cards)}")
        self.do(Shuffle(pile, tuple(order)))

    def wish(self, cards: Sequence[str]) -> None:
        """The next supply draw turns up ``cards`` first (top first): in the first pass
        they are moved to the top of the cards left; in the second they must be there."""
        top = list(self.state.supply[:len(cards)])
        if not self.lazy:
            if top != list(cards):
                raise InternalError(f"a plan wishes for {list(cards)}, the supply has {top}")
            return
        if not self.drawn:
            raise InternalError("a plan wishes for cards of a supply it did not shuffle")
        rest = list(self.state.supply)
        for card in cards:
            if card not in rest:
                raise InternalError(f"a plan wishes for {card}, which the supply lacks")
            rest.remove(card)
        self.state = replace(self.state, supply=(*cards, *rest))
        self.rest[-1] = list(self.state.supply)

    def supply_orders(self) -> list[list[str]]:
        """Each round's supply in the order it was drawn, the cards never drawn after."""
        return [d + r for d, r in zip(self.drawn, self.rest, strict=True)]

    def turn(self, kind: str | None, count: int = 0, order: str | None = None,
             source: str = "supply", number: int | None = None) -> tuple[Event, ...]:
        """One whole turn of the player to move: a play (``kind``, ``count``) or a pass,
        an order or none, and the draw."""
        events = self.do(Pass() if kind is None else Play(kind, count))
        if self.state.step == "order":
            events += self.do(PlaceOrder(order) if order else NoOrder())
        elif order:
            raise InternalError(f"a plan places {order} where no order may be placed")
        return events + self.do(Draw(source, number))

    def resolve(self, decide: Callable[[GameState], Action] | None = None) -> None:
        """Resolve the oven while it is open, the owners deciding as ``decide`` says (by
        default :func:`default_decision`); the next round's supply shuffle is then
        pending (:meth:`next_supply`), unless the game is over."""
        while self.state.phase == "oven":
            self.do((decide or default_decision)(self.state))

    def next_supply(self, order: Callable[[Sequence[str]], Sequence[str]]) -> None:
        """The shuffle of a later round's supply, ``order`` arranging its cards."""
        if not is_chance(self.state):
            raise InternalError("no shuffle is pending")
        _pile, cards = chance_pile(self.state)
        self.shuffle(order(cards))

    # ---------------------------------------------------------------- reading

    @property
    def actions(self) -> list[Action]:
        return [e.action for e in self.played]

    def events(self, name: str) -> list[tuple[int, Event]]:
        return [(i, e) for i, entry in enumerate(self.played) for e in entry.events
                if e.name == name]

    def hand(self, seat: int) -> dict[str, int]:
        from mammamia_ref.rules.vocabulary import KINDS

        return {k: n for k, n in zip(KINDS, self.state.hands[seat].ingredients, strict=True)
                if n}


def build(plan: Callable[[Builder], None], players: int,
          variants: Mapping[str, str] | None = None, first_player: int = 0) -> Builder:
    """The game ``plan`` plays, its wishes turned into supply shuffles (see
    :class:`Builder`): the second pass, from a new game, is the witness."""
    first = Builder(players, dict(variants or {}), first_player, lazy=True)
    plan(first)
    second = Builder(players, dict(variants or {}), first_player,
                     supplies=first.supply_orders())
    plan(second)
    def decisions(b: Builder) -> list[Action]:
        return [a for a in b.actions if not (isinstance(a, Shuffle) and a.pile == "supply")]

    if decisions(second) != decisions(first):
        raise InternalError("a plan played differently from its supply given in advance")
    return second


def default_decision(state: GameState) -> Action:
    """An owner's decision at the oven: complete from hand when offered (the first
    completion the reference lists), name the first kind offered."""
    options = legal_actions(state)
    for kind in (Complete, NameKind, Decline):
        for action in options:
            if isinstance(action, kind):
                return action
    raise InternalError(f"no decision in {options}")


def deal_deck(players: int, first_player: int, hands: Sequence[Sequence[str]],
              rest: Sequence[str], mamma_mia_to: int | None = None) -> list[str]:
    """The ingredient deck that deals ``hands`` (one card at a time round the table from
    the first player, ``setup.deal``) followed by ``rest``; with ``mamma_mia_to`` the
    Mamma Mia! card lies just before that seat's first card (``mamma_mia.dealt``)."""
    pending = [list(h) for h in hands]
    deck: list[str] = []
    for _ in range(max(len(h) for h in hands)):
        for i in range(players):
            seat = (first_player + i) % players
            if seat == mamma_mia_to and MAMMA_MIA not in deck:
                deck.append(MAMMA_MIA)
            deck.append(pending[seat].pop(0))
    return deck + list(rest)


def waiter_order(state: GameState, first: Sequence[str]) -> list[str]:
    """A waiter shuffle putting ``first`` on top (in that order), the rest after."""
    _pile, cards = chance_pile(state)
    return list(first) + [o for o in cards if o not in first]


__all__ = ["Builder", "Entry", "build", "deal_deck", "default_decision", "waiter_order"]
