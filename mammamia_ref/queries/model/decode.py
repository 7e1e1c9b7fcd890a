"""From a z3 model of :mod:`.game_model` to a game the reference implementation plays.

:func:`decode` reads a run out of a model: the starting hands, every shuffle (rebuilt
from what the run draws: the cards in the order they come off the pile, then the rest)
and the decisions of every step. :func:`replay` then drives the reference with them,
asking the model only where the reference asks a decision, and checks at every turn
and at every opening that the reference is where the model says it is. Any difference
raises :class:`Disagreement`, naming the step: either the encoding or the reference is
wrong, and the caller must find out which.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import z3

from mammamia_ref.errors import IllegalActionError, InternalError
from mammamia_ref.queries.model.flags import flag_values, implemented_flags
from mammamia_ref.queries.model.game_model import (
    DELIVERED,
    HAND,
    NO,
    SUPPLY,
    GameModel,
    State,
    Step,
)
from mammamia_ref.queries.model.num import truth, value
from mammamia_ref.queries.model.oven_rules import N_ORDERS, NK, NO_KIND
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
    format_action,
)
from mammamia_ref.rules.events import Event
from mammamia_ref.rules.game import apply, chance_pile, is_chance, new_game
from mammamia_ref.rules.ruleset import make_rules
from mammamia_ref.rules.setup import mamma_mia_dealt_with_deck
from mammamia_ref.rules.state import GameConfig, GameState, make_config
from mammamia_ref.rules.typed_spec import DrawAmount
from mammamia_ref.rules.vocabulary import (
    KINDS,
    MAMMA_MIA,
    ORDERS_OF,
    counts_of,
)


class Disagreement(InternalError):
    """The reference and the encoding part ways: ``step`` is the model step, ``detail``
    what differs."""

    def __init__(self, message: str, *, step: int | None = None, actions: list[Any] | None = None):
        super().__init__(message)
        self.step = step
        self.actions = actions or []


@dataclass
class TurnChoice:
    step: int
    round: int
    seat: int
    kind: str | None
    count: int
    order: str | None
    source: str
    number: int | None
    drawn: tuple[int, ...]
    mm_pop: bool
    mm_last: bool
    picks: tuple[str, ...]


@dataclass
class RevealChoice:
    step: int
    round: int
    seat: int
    order: str | None
    named: str | None
    complete: bool
    take: tuple[int, ...]
    baked: bool
    from_hand: tuple[int, ...]


@dataclass
class Trace:
    """A run read from a model: everything needed to replay it."""

    model: GameModel
    zmodel: z3.ModelRef
    hands: list[tuple[int, ...]]
    first_orders: list[list[str]]  # the orders each seat takes at the start (setup.waiter)
    steps: list[TurnChoice | RevealChoice | None]
    supplies: list[list[str]]       # each round's supply, top first (as shuffled)
    waiters: list[list[str]]        # each seat's waiter shuffle (top first)
    # values of flags the model leaves to the query (scoring: final_tie) for the replay
    beyond: dict[str, str] = field(default_factory=dict)
    # the seat dealt the Mamma Mia! card (mamma_mia.dealt), None while it is in the supply
    dealt_mm: int | None = None

    @property
    def before_deal(self) -> bool:
        """``setup.supply_before_deal``: the first round's supply is the rest of the
        ingredient deck, in the order dealt from it, with no shuffle of its own."""
        return mamma_mia_dealt_with_deck(self.model.v.mamma_mia_shuffle)

    def v(self, term: Any) -> int:
        return value(self.zmodel, term)

    def b(self, term: Any) -> bool:
        return truth(self.zmodel, term)

    def config(self) -> GameConfig:
        m = self.model
        rules = make_rules({**flag_values(m.v), **self.beyond},
                           m.rules.non_default_parameters(), house=m.rules.house)
        return make_config(m.n, colours=m.colours, first_player=m.first, variants=rules)


def _cards(counts: tuple[int, ...] | list[int]) -> list[str]:
    return [kind for kind, n in zip(KINDS, counts, strict=True) for _ in range(n)]


def decode(m: GameModel, zm: z3.ModelRef, beyond: Mapping[str, str] | None = None) -> Trace:
    """The run of a model, to be replayed under the model's flag values and ``beyond``:
    values of flags the model does not follow (they must not touch the run itself)."""
    clash = set(beyond or {}) & implemented_flags("game_model")
    if clash:
        raise InternalError(f"the game model follows {sorted(clash)} itself")
    s0 = m.S[0]
    dealt_mm = None if value(zm, s0.mm) == -1 else value(zm, s0.mm)
    hands = [tuple(value(zm, x) for x in s0.hand[p]) for p in range(m.n)]
    first_orders = [[ORDERS_OF[m.colours[p]][o] for o in range(N_ORDERS)
                     if value(zm, s0.loc[p][o]) == HAND] for p in range(m.n)]
    steps, supplies, picked = _read_steps(m, zm, dealt_mm)
    waiters = []
    for p in range(m.n):   # an order drawn again had failed since: from under the waiter
        queue = list(dict.fromkeys(first_orders[p] + picked[p]))
        waiters.append(queue + [o for o in ORDERS_OF[m.colours[p]] if o not in queue])
    return Trace(m, zm, hands, first_orders, steps, supplies, waiters, dict(beyond or {}),
                 dealt_mm)


def _read_steps(m: GameModel, zm: z3.ModelRef, dealt_mm: int | None
                ) -> tuple[list[TurnChoice | RevealChoice | None], list[list[str]],
                           list[list[str]]]:
    """Every step's choices, each round's supply (top first) and the orders each seat's
    draws took from its waiter."""
    steps: list[TurnChoice | RevealChoice | None] = []
    picked: list[list[str]] = [[] for _ in range(m.n)]
    supplies: list[list[str]] = []
    current: list[str] = []      # the cards the round has drawn so far, in order
    for step in m.steps:
        if step.what == "turn":
            choice = _turn_choice(m, zm, step)
            picked[choice.seat].extend(choice.picks)
            current += _drawn(choice)
            steps.append(choice)
        elif step.what == "reveal":
            steps.append(_reveal_choice(m, zm, step))
        else:
            steps.append(None)
            # the round is over: what it never drew lies under what it drew
            supplies.append(_supply(zm, m.S[step.before], current,
                                    dealt_mm is not None and not supplies))
            current = []
    if m.open_last or len(supplies) < m.R:
        supplies.append(_supply(zm, m.S[-1], current, dealt_mm is not None and not supplies))
    # the supply of the round after the last modelled one (drawn from by nobody)
    if not m.open_last and len(m.steps) and m.steps[-1].what == "transition" \
            and m.rounds > m.R:
        supplies.append(_cards([value(zm, x) for x in m.S[-1].supply]) + [MAMMA_MIA])
    return steps, supplies, picked


def _supply(zm: z3.ModelRef, ended: State, drawn: list[str], dealt: bool) -> list[str]:
    """A round's supply: the cards ``drawn`` in order, then those left in the supply of
    ``ended``, and the Mamma Mia! card unless it was drawn or ``dealt`` (round 1 only)."""
    rest = _cards([value(zm, x) for x in ended.supply])
    if MAMMA_MIA not in drawn and not dealt:
        rest.append(MAMMA_MIA)
    return drawn + rest


def _turn_choice(m: GameModel, zm: z3.ModelRef, step: Step) -> TurnChoice:
    a = step.sel
    seat = value(zm, step.facts["who"])
    colour = m.colours[seat]
    kind, order = value(zm, a.kind), value(zm, a.order)
    return TurnChoice(
        step.index, step.round, seat, None if kind == NO else KINDS[kind], value(zm, a.count),
        None if order == NO else ORDERS_OF[colour][order],
        "supply" if value(zm, a.source) == SUPPLY else "waiter",
        value(zm, a.number) if m.v.draw_amount == DrawAmount.ANY else None,
        tuple(value(zm, x) for x in a.drawn), truth(zm, a.mm_pop), truth(zm, a.mm_last),
        tuple(ORDERS_OF[colour][o] for o in range(N_ORDERS) if truth(zm, a.picks[o])))


def _drawn(choice: TurnChoice) -> list[str]:
    """The cards a turn's supply draw took, in order: the Mamma Mia! card before or after
    its ingredient cards (``mm_last``)."""
    if choice.source != "supply":
        return []
    pop, last = choice.mm_pop, choice.mm_last
    return ([MAMMA_MIA] if pop and not last else []) + _cards(choice.drawn) + \
        ([MAMMA_MIA] if pop and last else [])


def _reveal_choice(m: GameModel, zm: z3.ModelRef, step: Step) -> RevealChoice:
    block, d = step.facts["block"], step.sel.decision
    seat, order, named = value(zm, block.owner), value(zm, block.order), value(zm, d.named)
    return RevealChoice(
        step.index, step.round, seat, None if order == NO else ORDERS_OF[m.colours[seat]][order],
        None if named == NO_KIND else KINDS[named], truth(zm, d.complete),
        tuple(value(zm, x) for x in d.take), truth(zm, step.facts["baked"]),
        tuple(value(zm, x) for x in step.facts["from_hand"]))


# ----------------------------------------------------------------------- replay


@dataclass
class Played:
    """One action of the replay, the events it caused and the state after it."""

    action: Action
    events: tuple[Event, ...]
    state: GameState
    model_step: int | None        # the model step the action belongs to (None: chance)
    reveals: list[int] = field(default_factory=list)   # model reveal steps it resolved


@dataclass
class Replay:
    trace: Trace
    played: list[Played]

    @property
    def actions(self) -> list[Action]:
        return [p.action for p in self.played]

    def final(self) -> GameState:
        return self.played[-1].state

    def index_of_reveal(self, step: int) -> int | None:
        for i, p in enumerate(self.played):
            if step in p.reveals:
                return i
        return None


def _deal_order(trace: Trace) -> list[str]:
    """The ingredient deck: the deal gives one card at a time round the table from the
    first player (``setup.deal``); the undealt cards follow (the supply is shuffled
    again after the deal, so their order is immaterial). Under
    ``setup.supply_before_deal`` the Mamma Mia! card is in the deck: a seat dealt it
    finds it just before its first card and is dealt that card in its place
    (``mamma_mia.dealt``), and the undealt cards are the first round's supply in the
    order the run draws it (the caller appends it)."""
    m = trace.model
    pending = [_cards(h) for h in trace.hands]
    deck = []
    seats = [(m.first + i) % m.n for i in range(m.n)]
    for _ in range(m.starting_ingredients):
        for seat in seats:
            if seat == trace.dealt_mm and MAMMA_MIA not in deck:
                deck.append(MAMMA_MIA)
            deck.append(pending[seat].pop(0))
    if trace.before_deal:
        return deck
    dealt = counts_of(deck)
    rest = [m.in_play[k] - dealt[k] for k in range(NK)]
    return deck + _cards(rest)


def replay(trace: Trace) -> Replay:
    """Play the trace in the reference, checking the model's predictions as it goes."""
    return _Replayer(trace).run()


_ORDER_CARDS = frozenset(o for c in ORDERS_OF.values() for o in c)


class _Replayer:
    """The reference driven by a trace: the shuffles and decisions it asks for come
    from the trace, each checked against where the model says the game is."""

    def __init__(self, trace: Trace) -> None:
        self.trace = trace
        self.state = new_game(trace.config())
        self.played: list[Played] = []
        self.supplies = list(trace.supplies)
        choices = list(trace.steps)
        self.reveal_queue = [c for c in choices if isinstance(c, RevealChoice) and c.order]
        self.turn_queue = [c for c in choices if isinstance(c, TurnChoice)]
        self.pending_reveal: list[RevealChoice] = []
        self.deck_given = False

    def run(self) -> Replay:
        while self._next():
            pass
        if self.turn_queue or self.reveal_queue:
            raise self.fail(f"the reference stopped ({self.state.phase}) before the model's "
                            f"run ended", (self.turn_queue or self.reveal_queue)[0].step)
        return Replay(self.trace, self.played)

    def _next(self) -> bool:
        """Play what the reference asks for next; False once the trace has no more."""
        if is_chance(self.state):
            return self._shuffle()
        if self.state.phase == "turn":
            return self._turn()
        if self.state.phase == "oven":
            self._decide()
            return True
        return False

    def fail(self, message: str, step: int | None) -> Disagreement:
        return Disagreement(message, step=step,
                            actions=[format_action(p.action) for p in self.played])

    def do(self, action: Action, step: int | None) -> None:
        try:
            self.state, events = apply(self.state, action)
        except IllegalActionError as exc:
            raise self.fail(f"the reference rejects {format_action(action)}: {exc}",
                            step) from exc
        entry = Played(action, events, self.state, step)
        for e in events:
            self._check_event(e, step, entry)
        self.played.append(entry)

    def _check_event(self, e: Event, step: int | None, entry: Played) -> None:
        """An order revealed must be the one the model reveals next; baked or failed,
        as the model judges it."""
        if e.name == "revealed" and e.get("card") in _ORDER_CARDS:
            if not self.reveal_queue:
                raise self.fail(f"the reference reveals {e.get('card')}, the model no order",
                                step)
            choice = self.reveal_queue.pop(0)
            if choice.order != e.get("card"):
                raise self.fail(f"the reference reveals {e.get('card')}, the model "
                                f"{choice.order}", choice.step)
            self.pending_reveal[:] = [choice]
            entry.reveals.append(choice.step)
        if e.name in ("baked", "failed"):
            choice = self.pending_reveal[0]
            if (e.name == "baked") != choice.baked:
                raise self.fail(f"{choice.order}: the reference says {e.name}, the model "
                                f"{'baked' if choice.baked else 'failed'}", choice.step)

    def _shuffle(self) -> bool:
        pile, cards = chance_pile(self.state)
        if pile == "ingredients":
            if self.deck_given:
                return False
            self.deck_given = True
            deck = _deal_order(self.trace)
            if self.trace.before_deal:   # no supply shuffle: the deck's rest is the supply
                deck += self.supplies.pop(0)
            if sorted(deck) != sorted(cards):
                raise self.fail(f"the ingredient deck: the model has {sorted(deck)}, the "
                                f"reference {sorted(cards)}", None)
            self.do(Shuffle(pile, tuple(deck)), None)
        elif pile == "supply":
            if not self.supplies:
                return False
            order = self.supplies.pop(0)
            if sorted(order) != sorted(cards):
                raise self.fail(f"supply of round {self.state.round}: the model has "
                                f"{sorted(order)}, the reference {sorted(cards)}", None)
            self.do(Shuffle(pile, tuple(order)), None)
        else:
            seat = self.state.seat_of(pile.removeprefix("waiter."))
            self.do(Shuffle(pile, tuple(self.trace.waiters[seat])), None)
        return True

    def _turn(self) -> bool:
        if not self.turn_queue:
            return False
        choice = self.turn_queue.pop(0)
        state = self.state
        if state.current != choice.seat or state.round != choice.round:
            raise self.fail(f"the reference has seat {state.current} to play in round "
                            f"{state.round}, the model seat {choice.seat} in round "
                            f"{choice.round}", choice.step)
        self.do(Pass() if choice.kind is None else Play(choice.kind, choice.count), choice.step)
        if self.state.step == "order":
            self.do(PlaceOrder(choice.order) if choice.order else NoOrder(), choice.step)
        elif choice.order:
            raise self.fail(f"the reference does not let seat {choice.seat} place "
                            f"{choice.order}", choice.step)
        self.do(Draw(choice.source, choice.number), choice.step)
        if self.state.phase == "turn":
            check_turn(self.trace, self.state, choice.step + 1, self.fail)
        return True

    def _decide(self) -> None:
        revealed = self.pending_reveal[0]
        if self.state.step == "name_kind":
            if revealed.named is None:
                raise self.fail(f"the reference asks for a kind, the model names none for "
                                f"{revealed.order}", revealed.step)
            self.do(NameKind(revealed.named), revealed.step)
        elif self.state.step == "complete":
            if not revealed.baked:
                self.do(Decline(), revealed.step)
            else:
                self.do(Complete(revealed.from_hand), revealed.step)


def check_turn(trace: Trace, state: GameState, after: int, fail: Any) -> None:
    """After a turn that did not end the round: the hands, the supply, the Mamma Mia!
    holder and the quiet count must be those the model predicts."""
    m = trace.model
    s = m.S[after]
    v = trace.v
    problems = []
    for p in range(m.n):
        model_hand = tuple(v(x) for x in s.hand[p])
        if model_hand != state.hands[p].ingredients:
            problems.append(f"seat {p} hand {model_hand} vs {state.hands[p].ingredients}")
        orders = sorted(ORDERS_OF[m.colours[p]][o] for o in range(N_ORDERS)
                        if v(s.loc[p][o]) == HAND)
        if orders != sorted(state.hands[p].orders):
            problems.append(f"seat {p} orders {orders} vs {sorted(state.hands[p].orders)}")
        delivered = sum(v(x) == DELIVERED for x in s.loc[p])
        if delivered != len(state.delivered[p]):
            problems.append(f"seat {p} delivered {delivered} vs {len(state.delivered[p])}")
    supply = tuple(v(x) for x in s.supply)
    if supply != counts_of(state.supply):
        problems.append(f"supply {supply} vs {counts_of(state.supply)}")
    holder = v(s.mm)
    if (None if holder == -1 else holder) != state.mamma_mia:
        problems.append(f"Mamma Mia! holder {holder} vs {state.mamma_mia}")
    if v(s.quiet) != state.quiet_turns or v(s.cur) != state.current:
        problems.append(f"quiet/current {v(s.quiet)}/{v(s.cur)} vs "
                        f"{state.quiet_turns}/{state.current}")
    if problems:
        raise fail("after the turn: " + "; ".join(problems), after - 1)


__all__ = ["Disagreement", "Played", "Replay", "RevealChoice", "Trace", "TurnChoice",
           "decode", "replay"]
