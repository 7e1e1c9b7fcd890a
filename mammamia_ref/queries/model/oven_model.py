"""One opening of the oven as a z3 model: a revealed sequence chosen by the solver.

The oven of a round holds, in the order played, the cards of its turns: each turn
some ingredient cards of one kind and perhaps one order of the player whose turn it
was (``turn.play``, ``turn.place_order``); seats take turns clockwise. The model has
``turns`` such turns with symbolic kinds, counts and orders, the hands of the players
when the oven is opened, and the owners' decisions; :func:`.oven_rules.resolve_order`
judges each order as it turns up, the table carrying over (``oven.leftovers``).

The cards add up as in a game: no kind has more cards in the oven and the hands than
the game has (13, less the trimmed ones), and no hand holds more than 7 cards, the
last player's before the last turn included. Anything the model does not place is, in
the witness state, in the used pile.

A model becomes a scenario (:meth:`OvenModel.witness`) as the state just before the
last turn of round 1, that turn being played by the scenario's actions: its player
puts the last turn's cards in the oven and draws the Mamma Mia! card, the only card
left in the supply, which ends the round (``round_end.last_card``) and opens the oven.
The owners' decisions follow, as the reference asks for them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import z3

from mammamia_ref.errors import IllegalActionError
from mammamia_ref.formats.jsonform import parse_state
from mammamia_ref.formats.scenario import complete_state
from mammamia_ref.queries.model import num as N
from mammamia_ref.queries.model.decode import Disagreement
from mammamia_ref.queries.model.flags import FlagValues, flag_values, model_rules
from mammamia_ref.queries.model.oven_rules import (
    N_ORDERS,
    NK,
    NO_KIND,
    Decision,
    Outcome,
    oven_leftovers,
    oven_sort,
    resolve_order,
    select_order,
)
from mammamia_ref.rules.actions import Action, Complete, Decline, Draw, NameKind, PlaceOrder, Play
from mammamia_ref.rules.events import Event
from mammamia_ref.rules.game import apply
from mammamia_ref.rules.setup import trimmed_per_kind
from mammamia_ref.rules.state import GameState
from mammamia_ref.rules.vocabulary import (
    COLOURS,
    COPIES,
    KINDS,
    MAMMA_MIA,
    ORDERS_OF,
)

NO = -1


@dataclass
class Reveal:
    """Terms of one turn's reveal."""

    seat: int
    kind: Any
    count: Any
    order: Any
    decision: Decision
    terms: Any              # the order's OrderTerms
    table: list[Any]        # the table when its order turns up
    hand: list[Any]         # the owner's hand then
    outcome: Outcome
    baked: Any
    legal: Any


class OvenModel:
    """An opening of round 1 after ``turns`` turns of ``players`` players (seat 0
    first) under ``variants``; ``orders`` restricts, per seat, the orders that may be
    in the oven; ``decisions`` copies of the owners' decisions may be asked for, all
    judging the same oven and hands (to compare two choices)."""

    def __init__(self, players: int = 2, variants: FlagValues | None = None, *,
                 turns: int = 4, orders: Mapping[int, Sequence[str]] | None = None,
                 decisions: int = 1, name: str = "o", ctx: z3.Context | None = None) -> None:
        self.ctx = ctx if ctx is not None else N.current_or_new()
        with N.building(self.ctx):
            self._build(players, variants, turns, orders, decisions, name)

    def _build(self, players: int, variants: FlagValues | None, turns: int,
               orders: Mapping[int, Sequence[str]] | None, decisions: int, name: str) -> None:
        self.n, self.N, self.p = players, turns, name
        self.rules = model_rules("oven_model", variants)
        self.v = self.rules.flags
        self.hand_limit = self.rules.parameters.hand_limit
        self.colours = tuple(COLOURS[:players])
        trimmed = trimmed_per_kind(self.rules.parameters.trimming, players, self.v.trimming)
        self.in_play = [c - trimmed for c in COPIES]
        self.allowed = None if orders is None else {
            seat: tuple(ORDERS_OF[self.colours[seat]].index(o) for o in orders.get(seat, ()))
            for seat in range(players)}
        self.constraints: list[Any] = []
        i = N.Int
        self.kind = [i(f"{name}_kind{t}") for t in range(turns)]
        self.count = [i(f"{name}_count{t}") for t in range(turns)]
        self.order = [i(f"{name}_order{t}") for t in range(turns)]
        self.hands = [[i(f"{name}_hand{p}_{k}") for k in range(NK)] for p in range(players)]
        self.final = (turns - 1) % players
        self._cards()
        self.runs = [self._resolve(f"{name}_r{r}") for r in range(decisions)]

    def seat(self, t: int) -> int:
        return t % self.n

    def _cards(self) -> None:
        c = self.constraints
        for t in range(self.N):
            c.append(N.And(self.kind[t] >= 0, self.kind[t] < NK, self.count[t] >= 1,
                           self.count[t] <= self.hand_limit))
            allowed = range(N_ORDERS) if self.allowed is None else self.allowed[self.seat(t)]
            c.append(N.Or(self.order[t] == NO, *[self.order[t] == o for o in allowed]))
            for u in range(t):
                if self.seat(u) == self.seat(t):
                    c.append(N.Or(self.order[t] == NO, self.order[t] != self.order[u]))
        for p in range(self.n):
            c += [N.And(x >= 0, x <= top)
                  for x, top in zip(self.hands[p], self.in_play, strict=True)]
            c.append(N.Sum(self.hands[p]) <= self.hand_limit)
        last = self.N - 1
        c.append(N.Sum(self.hands[self.final]) + self.count[last]
                 + N.If(self.order[last] >= 0, 1, 0) <= self.hand_limit)
        for k in range(NK):
            in_oven = N.Sum([N.If(self.kind[t] == k, self.count[t], 0) for t in range(self.N)])
            held = N.Sum([self.hands[p][k] for p in range(self.n)])
            c.append(in_oven + held <= self.in_play[k])

    def _resolve(self, prefix: str) -> list[Reveal]:
        table: list[Any] = [N.Val(0) for _ in KINDS]
        hands = [list(h) for h in self.hands]
        out = []
        for t in range(self.N):
            seat = self.seat(t)
            table = oven_sort(table, self.kind[t], self.count[t])
            decision = Decision.fresh(f"{prefix}_d{t}")
            order = select_order(self.colours, seat, self.order[t], self.allowed)
            outcome = resolve_order(table, hands[seat], order, decision, self.rules)
            has = self.order[t] >= 0
            baked = N.And(has, outcome.baked)
            legal = z3.If(has, outcome.legal, N.And(*decision.canonical()))
            self.constraints.append(legal)
            out.append(Reveal(seat, self.kind[t], self.count[t], self.order[t], decision, order,
                              list(table), list(hands[seat]), outcome, baked, legal))
            table = oven_leftovers(table, [N.If(has, x, 0) for x in outcome.from_table])
            hands[seat] = [h - N.If(has, x, 0) for h, x in zip(hands[seat], outcome.from_hand,
                                                               strict=True)]
        self.tables_after = getattr(self, "tables_after", []) + [table]
        return out

    def solver(self) -> z3.Solver:
        s = z3.Solver(ctx=self.ctx)
        s.add(self.constraints)
        return s

    @N.in_model_context
    def baked_count(self, run: int = 0) -> Any:
        return N.Sum([N.If(r.baked, 1, 0) for r in self.runs[run]])

    # ------------------------------------------------------------------ witness

    def read(self, zm: z3.ModelRef) -> OvenRun:
        def v(term: Any) -> int:
            return N.value(zm, term)

        turns = []
        for t in range(self.N):
            index = v(self.order[t])
            order = None if index == NO else ORDERS_OF[self.colours[self.seat(t)]][index]
            turns.append((KINDS[v(self.kind[t])], v(self.count[t]), order))
        hands = [tuple(v(x) for x in h) for h in self.hands]
        runs = []
        for reveals in self.runs:
            decided = []
            for r in reveals:
                if N.value(zm, r.order) == NO:
                    continue
                named = v(r.decision.named)
                decided.append({
                    "named": None if named == NO_KIND else KINDS[named],
                    "baked": N.truth(zm, r.baked),
                    "from_hand": tuple(v(x) for x in r.outcome.from_hand),
                    "table": tuple(v(x) for x in r.table),
                    "choices": tuple(k for k in range(NK) if N.truth(zm, r.outcome.permitted[k])),
                })
            runs.append(decided)
        return OvenRun(self, turns, hands, runs)


@dataclass
class OvenRun:
    """An opening read from a model: the turns (kind, count, order), the hands when the
    oven opens and, per copy of the decisions, each revealed order's decision and
    outcome."""

    model: OvenModel
    turns: list[tuple[str, int, str | None]]
    hands: list[tuple[int, ...]]
    runs: list[list[dict[str, Any]]]

    def given_state(self) -> dict[str, Any]:
        """The state before the last turn, as a partial state of the scenario format."""
        m = self.model
        oven: list[str] = []
        for kind, count, order in self.turns[:-1]:
            oven += [kind] * count + ([order] if order else [])
        kind, count, order = self.turns[-1]
        players = []
        for p in range(m.n):
            hand = list(self.hands[p])
            orders = []
            if p == m.final:
                hand[KINDS.index(kind)] += count
                orders = [order] if order else []
            held = {k: x for k, x in zip(KINDS, hand, strict=True) if x}
            entry: dict[str, Any] = {"colour": m.colours[p], "hand": {"ingredients": held}}
            if orders:
                entry["hand"]["orders"] = orders
            players.append(entry)
        return {"round": 1, "current": m.final, "players": players, "supply": [MAMMA_MIA],
                "oven": oven}

    def last_turn(self) -> list[Action]:
        kind, count, order = self.turns[-1]
        return [Play(kind, count), *([PlaceOrder(order)] if order else []), Draw("supply")]

    def replay(self, run: int = 0, variants: FlagValues | None = None
               ) -> list[tuple[Action, tuple[Event, ...], GameState]]:
        """Play the last turn and the owners' decisions of copy ``run`` in the reference,
        checking every order's outcome against the model."""
        values = {**flag_values(self.model.v), **flag_values(variants)}
        state = parse_state(complete_state(self.given_state(), values,
                                           self.model.rules.non_default_parameters()))
        decisions = list(self.runs[run])
        pending: list[dict[str, Any]] = []
        played: list[tuple[Action, tuple[Event, ...], GameState]] = []

        def do(action: Action) -> None:
            nonlocal state
            try:
                state, events = apply(state, action)
            except IllegalActionError as exc:
                raise Disagreement(f"the reference rejects {action}: {exc}") from exc
            _check_events(events, decisions, pending)
            played.append((action, events, state))

        for action in self.last_turn():
            do(action)
        while state.phase == "oven":
            do(_decision(state, pending[0]))
        if decisions:
            raise Disagreement("the reference ended the opening before the model's last order")
        return played


def _check_events(events: tuple[Event, ...], decisions: list[dict[str, Any]],
                  pending: list[dict[str, Any]]) -> None:
    """Each order the reference reveals takes the model's next decisions (into
    ``pending``); the reference must bake or fail it as the model does."""
    for e in events:
        if e.name == "revealed" and e.get("owner") is not None:
            if not decisions:
                raise Disagreement(f"the reference reveals {e.get('card')} unexpectedly")
            pending[:] = [decisions.pop(0)]
        if e.name in ("baked", "failed") and pending and \
                (e.name == "baked") != pending[0]["baked"]:
            said = "baked" if pending[0]["baked"] else "failed"
            raise Disagreement(f"{e.get('order')}: the reference says {e.name}, "
                               f"the model {said}")


def _decision(state: GameState, choice: Mapping[str, Any]) -> Action:
    """The owner's decision the reference asks for, as the model made it."""
    if state.step == "name_kind":
        return NameKind(choice["named"])
    if choice["baked"]:
        return Complete(choice["from_hand"])
    return Decline()
