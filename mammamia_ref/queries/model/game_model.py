"""A bounded unrolling of whole turns and rounds in z3 (bounded model checking).

The model keeps the state abstract where the rules allow: hands, the table, the used
pile, the oven and the supply are counts per kind, and an order card is a pair (seat,
index of the card in its colour's eight, in manifest order) with a location (waiter,
hand, oven, delivered, or under the waiter after failing, with the time it failed).
Chance is part of the run: the solver picks the starting hands (``setup.deal``), the
first order of each waiter and the orders each later waiter draw turns up
(``setup.waiter``), and the cards each supply draw turns up, with where the Mamma Mia!
card lies among them. Any such choice is the effect of one explicit shuffle of each
pile, which the decoder rebuilds (:mod:`.decode`): the cards in the order the run
draws them, then whatever was never drawn. (A symbolic card sequence with a pointer
into it is the literal encoding; it made z3 a hundred times slower.) Every step has a
fresh state, constrained equal to what the step makes of the state before, and its
own selector variables, so a model decodes straight into actions.

The unrolling follows a **schedule**: how many turns each round lasts. Round ``r``
has

- ``schedule[r-1]`` **turn steps**: each is one whole turn of the player to move, with
  the per-step selectors ``kind``/``count`` (or a pass), ``order`` (an order index, or
  -1), ``source``/``number`` for the draw and, as chance outcomes, the cards a supply
  draw turns up, where the Mamma Mia! card lies among them and which orders a waiter
  draw turns up (``turn.*``, ``mamma_mia.draw``, ``round_end.*``, each rule one function
  of :mod:`.turn_rules`). The round must end exactly with its last turn (supply run out,
  or a stalled cycle);
- as many **reveal steps**: reveal step ``j`` turns up the cards that turn ``j`` put in
  the oven (``oven.open`` reveals a round's cards in the order they were played),
  sorts its ingredients onto the table and judges its order, if any, with the owner's
  decisions (:mod:`.oven_rules`);
- one **transition step**: after the third resolution the game ends
  (``game_end.three_resolutions``); otherwise the used cards, any supply cards left by
  a stall and the Mamma Mia! card form the next round's supply
  (``next_round.supply``), which the holder starts (``next_round.first_player``).

With ``open_last`` the last round of the schedule does not end: its turns are played
and nothing else (for questions about a round that goes on); with ``end_last`` too, it
ends with its last turn but is not resolved. A schedule entry of 0
is a round that ends as it starts (``round_end.last_ingredient`` with a supply holding
no ingredient card). Since the kind of every step is fixed, the solver only searches
decisions and chance; the queries search schedules by iterative deepening (shortest
first rounds first). Leftovers stay on the table
(``next_round.leftovers_on_table``); under ``next_round.oven`` they would be revealed
first at the next opening, before any new card, which every order sees the same way
(dispute D10), so one model serves both values of ``leftovers``.

The flags the model follows are those whose ``models:`` list in
``spec/disputes.yaml`` names ``game_model`` (:mod:`.flags`); asked for another value of
any other flag (``final_tie``, say: the model does not score) it refuses. Under
``mamma_mia_shuffle=before_deal`` the deal may hand the Mamma Mia! card to any player
(``mamma_mia.dealt``), who then holds it from the start; otherwise it starts in the
supply.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import z3

from mammamia_ref.queries.model import num as N
from mammamia_ref.queries.model.errors import ModelBoundError
from mammamia_ref.queries.model.flags import FlagValues, model_rules
from mammamia_ref.queries.model.game_terms import (
    DELIVERED,
    HAND,
    IN_OVEN,
    MM,
    NO,
    OVEN,
    OVER,
    SUPPLY,
    TURN,
    UNDER,
    WAITER,
    WAITER_SOURCE,
    Block,
    DrawTerms,
    Mover,
    Selectors,
    State,
    Step,
    TurnEnd,
    _is,
    _sel,
)
from mammamia_ref.queries.model.oven_rules import (
    N_ORDERS,
    NK,
    oven_leftovers,
    oven_sort,
    resolve_order,
    select_order,
)
from mammamia_ref.queries.model.turn_rules import (
    game_end,
    mamma_mia_draw,
    mamma_mia_holder,
    mamma_mia_taken,
    next_round_supply,
    oven_fail_oldest_first,
    round_end_quiet,
    round_end_stall,
    round_end_supply,
    round_ends_at_once,
    turn_clockwise,
    turn_draw,
    turn_draw_fewer,
    turn_draw_short,
    turn_draw_source,
    turn_onto_oven,
    turn_place_order,
    turn_play_or_pass,
    turn_played_from_hand,
    waiter_draw,
)
from mammamia_ref.rules.setup import mamma_mia_dealt_with_deck, trimmed_per_kind
from mammamia_ref.rules.typed_spec import DrawAmount, Stall
from mammamia_ref.rules.vocabulary import (
    COLOURS,
    COPIES,
    ORDERS_OF,
)


class GameModel:
    """A game of ``players`` players under ``variants`` (defaults for the flags not
    given), from the setup (the solver choosing every shuffle), unrolled along
    ``schedule`` (turns per round)."""

    def __init__(self, players: int = 2, variants: FlagValues | None = None, *,
                 schedule: Sequence[int] = (4,), open_last: bool = False,
                 end_last: bool = False,
                 first_player: int = 0, colours: Sequence[str] | None = None,
                 orders: Mapping[int, Sequence[str]] | None = None,
                 starts: Sequence[int] | None = None,
                 plan: Mapping[tuple[int, int], str | None] | None = None,
                 name: str = "m", ctx: z3.Context | None = None) -> None:
        self.ctx = ctx if ctx is not None else N.current_or_new()
        self.n = players
        self._rules_of(variants)
        if not 1 <= len(schedule) <= self.rounds:
            raise ModelBoundError(f"a schedule has 1 to {self.rounds} rounds",
                                  value=tuple(schedule))
        self.schedule = tuple(schedule)
        self.R = len(self.schedule)
        self.open_last = open_last
        self.end_last = end_last
        self.first = first_player
        self.colours = tuple(colours or COLOURS[:players])
        self.p = name
        # search hints for existence questions: who starts each round, and which order
        # (or none) the turn in slot j of round r places
        self.fixed_starts = tuple(starts) if starts else None
        self.plan = dict(plan or {})
        # the orders each seat may place: a search restriction for existence questions
        self.allowed: dict[int, tuple[int, ...]] | None = None
        if orders is not None:
            self.allowed = {seat: tuple(ORDERS_OF[self.colours[seat]].index(o)
                                        for o in orders.get(seat, ()))
                            for seat in range(players)}
        self.constraints: list[Any] = []
        self.S: list[State] = []
        self.steps: list[Step] = []
        self.starts: list[Any] = []
        with N.building(self.ctx):
            self._build()

    def _rules_of(self, variants: FlagValues | None) -> None:
        """The game's rules (refused where the model does not follow them) and the
        numbers the model reads from them: the hand limit, the deal, the rounds, the
        cards in play after the trimming."""
        self.rules = model_rules("game_model", variants)
        self.v = self.rules.flags
        numbers = self.rules.parameters
        self.hand_limit, self.rounds = numbers.hand_limit, numbers.rounds
        self.starting_ingredients = numbers.starting_ingredients
        self.starting_orders = numbers.starting_orders
        self.box = trimmed_per_kind(numbers.trimming, self.n, self.v.trimming)
        self.in_play = [c - self.box for c in COPIES]

    # ------------------------------------------------------------------ unrolling

    def _build(self) -> None:
        c = self.constraints
        s = State.fresh(f"{self.p}_s0", self.n)
        self.S.append(s)
        c.extend(self.domain(s))
        c.extend(self.setup(s))
        for r, turns in enumerate(self.schedule, start=1):
            open_round = self.open_last and r == self.R
            if r == 1:
                start: Any = self.first
            elif self.fixed_starts:
                start = self.fixed_starts[r - 1]
                c.append(s.cur == start)
            else:
                start = N.Int(f"{self.p}_start{r}")
                c.append(start == s.cur)
            self.starts.append(start)
            blocks: list[Block] = []
            for j in range(turns):
                who = (start + j) % self.n if isinstance(start, int) else \
                    _sel([(first + j) % self.n for first in range(self.n)], start)
                ends = N.BoolVal(j == turns - 1 and (not open_round or self.end_last))
                s = self._add("turn", r, j, s, blocks, who=who, ends=ends)
            if open_round:
                break
            for j in range(turns):
                s = self._add("reveal", r, j, s, blocks)
            s = self._add("transition", r, 0, s, blocks)
            if r < self.rounds and self.steps[-1].facts:
                at_once = self.steps[-1].facts["ends_at_once"]
                later = self.schedule[r] if r < self.R else None
                if later == 0:
                    c.append(at_once)
                elif later is not None:
                    c.append(z3.Not(at_once))

    def _add(self, what: str, r: int, j: int, s: State, blocks: list[Block], *,
             who: Any = None, ends: Any = None) -> State:
        t = len(self.steps)
        a = Selectors.fresh(f"{self.p}_a{t}")
        c = self.constraints
        if what == "turn":
            new, facts, legal = self.turn(s, a, who)
            facts["who"] = who
            if (r, j) in self.plan:
                wanted = self.plan[r, j]
                c.append(a.order == (NO if wanted is None else
                                     ORDERS_OF[self.colours[who]].index(wanted)))
            c.append(facts["round_end"] == ends)
            blocks.append(Block(N.BoolVal(True), a.kind, a.count, a.order, who))
        elif what == "reveal":
            new, facts, legal = self.reveal(s, a, blocks[j])
            facts["block"] = blocks[j]
        else:
            new, facts, legal = self.transition(s)
            c.append(a.idle())
        c.append(legal)
        # a fresh state per step, equal to what the step makes of the one before
        fresh = State.fresh(f"{self.p}_s{t + 1}", self.n)
        c.extend(x == y for x, y in zip(fresh.fields(), new.fields(), strict=True))
        self.S.append(fresh)
        self.steps.append(Step(t, what, r, j, N.BoolVal(True), a, facts))
        return fresh

    # --------------------------------------------------------------- constraints

    @N.in_model_context
    def domain(self, s: State) -> list[Any]:
        n = self.n
        out = [N.And(s.ph >= TURN, s.ph <= OVER), N.And(s.cur >= 0, s.cur < n),
               N.And(s.rnd >= 1, s.rnd <= self.rounds), N.And(s.res >= 0, s.res <= self.rounds),
               N.And(s.mm >= -1, s.mm < n), N.And(s.quiet >= 0, s.quiet <= n), s.ovl >= 0]
        for p in range(n):
            out += [N.And(x >= 0, x <= top)
                    for x, top in zip(s.hand[p], self.in_play, strict=True)]
            out += [N.And(x >= WAITER, x <= UNDER) for x in s.loc[p]]
            out += [N.And(x >= 0, x <= 3 * N_ORDERS) for x in s.pos[p] + [s.wt[p]]]
        for pile in (s.table, s.used, s.supply, s.oven):
            out += [N.And(x >= 0, x <= top) for x, top in zip(pile, self.in_play, strict=True)]
        out.append(s.ovl <= sum(self.in_play) + N_ORDERS * n)
        return out

    @N.in_model_context
    def setup(self, s: State) -> list[Any]:
        """``setup.*``: the solver picks the starting hands (``starting_ingredients``
        each, ``setup.deal``) and the order of every waiter, whose top orders
        (``starting_orders``) go to hand (``setup.waiter``); the rest
        of the ingredient cards and the Mamma Mia! card form the supply
        (``setup.supply``); the first player begins (``setup.first_player``). Under
        ``setup.supply_before_deal`` the Mamma Mia! card is shuffled into the deck
        before the deal: it stays in the supply or is dealt to any seat, whose player
        lays it out and is dealt another card (``mamma_mia.dealt``), so the hands are
        the same; the solver picks which (``mm`` is -1 or that seat)."""
        n = self.n
        out = [s.ph == TURN, s.cur == self.first, s.rnd == 1, s.res == 0,
               s.quiet == 0, s.ovl == 0]
        if not mamma_mia_dealt_with_deck(self.v.mamma_mia_shuffle):
            out.append(s.mm == -1)
        out += [x == 0 for x in s.table + s.used + s.oven]
        for k in range(NK):
            out.append(s.supply[k] == self.in_play[k] - N.Sum([s.hand[p][k] for p in range(n)]))
        for p in range(n):
            out.append(N.Sum(s.hand[p]) == self.starting_ingredients)
            out.append(self.held_orders(s, p) == self.starting_orders)
            out += [N.Or(x == HAND, x == WAITER) for x in s.loc[p]]
            out += [x == 0 for x in s.pos[p]]
            out.append(s.wt[p] == 0)
        return out

    @N.in_model_context
    def well_formed(self, s: State) -> list[Any]:
        """What the setup establishes and every step preserves, used as the hypothesis
        of induction proofs: the phase fits the round and the resolution count, an
        opening has a Mamma Mia! holder, a round in progress has not yet run out
        (``round_end.*``), a stalled cycle has ended its round (``round_end.stall``),
        no card is counted twice, and every waiting order has its own place in its
        waiter's queue."""
        n = self.n
        out = [z3.Implies(s.ph == OVEN, s.mm >= 0),
               z3.Implies(s.ph == TURN, z3.Not(self.run_out(s.supply, s.mm))),
               s.res == s.rnd - 1 + N.If(s.ph == OVER, 1, 0)]
        if self.v.stall == Stall.CUT:
            out.append(z3.Implies(s.ph == TURN, s.quiet < n))
        for k in range(NK):   # setup.components: every card is in exactly one place
            held = N.Sum([s.hand[p][k] for p in range(n)])
            out.append(held + s.table[k] + s.used[k] + s.supply[k] + s.oven[k] == self.in_play[k])
        for p in range(n):
            under: dict[int, Any] = {}  # made once each, in the order first needed

            def waits(o: int, p: int = p, under: dict[int, Any] = under) -> Any:
                if o not in under:
                    under[o] = s.loc[p][o] == UNDER
                return under[o]

            for o in range(N_ORDERS):
                out.append(z3.Implies(waits(o), s.pos[p][o] < s.wt[p]))
                for o2 in range(o + 1, N_ORDERS):
                    out.append(z3.Implies(N.And(waits(o), waits(o2)),
                                          s.pos[p][o] != s.pos[p][o2]))
        return out

    @N.in_model_context
    def run_out(self, supply: Sequence[Any], mm: Any) -> Any:
        """Whether a supply holding ``supply`` (and the Mamma Mia! card while ``mm`` is
        -1) has run out: ``round_end.last_card`` when no card is left,
        ``round_end.last_ingredient`` when no ingredient card is."""
        return round_end_supply(self.v.round_end, supply, mm)

    # ------------------------------------------------------------------ the steps

    @N.in_model_context
    def turn(self, s: State, a: Selectors, who: Any = None) -> tuple[State, dict[str, Any], Any]:
        """One whole turn, rule by rule (:mod:`.turn_rules`): ``turn.play`` or
        ``turn.pass``, ``turn.place_order``, the draw (``turn.draw``/``turn.draw_as_played``,
        ``turn.draw_short``, ``turn.draw_fewer``, ``mamma_mia.draw``), the round's end
        (``round_end.*``) or ``turn.clockwise``. ``who`` is the player to move when the
        unrolling knows it (``s.cur`` else). Returns the next state, facts and the
        legality of the selectors."""
        me = self._mover(s, s.cur if who is None else who)
        play_ok, after_play, is_pass = self._play(me, a)
        order_ok, placed = self._order(me, a, is_pass)
        played = a.count + N.If(placed, 1, 0)
        size = N.Sum(after_play) + me.held - N.If(placed, 1, 0)
        d = self._draw(s, a, me, turn_draw(self.v.refill, self.hand_limit, size, played))
        end = self._end(s, a, me.seat, played, d)
        nx = self._after_turn(s, a, me.seat, after_play, placed, played, d, end)
        legal = N.And(play_ok, order_ok, d.source_ok, d.amount_ok, d.drawn_ok, d.pop_ok,
                      d.last_ok, d.picks_ok, s.cur == me.seat,
                      z3.Implies(d.from_waiter, N.And(z3.Not(a.mm_pop), z3.Not(a.mm_last))))
        facts = {"round_end": end.round_end, "stall": end.stall, "exhausted": d.exhausted,
                 "took": d.took, "held_after": me.held - N.If(placed, 1, 0) + d.took,
                 "ingredients_after": N.Sum(after_play) + N.Sum(a.drawn),
                 "mm_drawn": a.mm_pop, "mm_taken": d.mm_taken, "played": played,
                 "moved": d.moved, "wanted": d.wanted,
                 "mm_last_card": N.And(d.exhausted, a.mm_pop, a.mm_last),
                 "after_play": after_play, "placed": placed}
        return nx, facts, legal

    def _mover(self, s: State, seat: Any) -> Mover:
        """The player to move (``seat``, perhaps symbolic) as the turn's rules see them."""
        n = self.n
        hand = [_sel([s.hand[p][k] for p in range(n)], seat) for k in range(NK)]
        locs = [_sel([s.loc[p][o] for p in range(n)], seat) for o in range(N_ORDERS)]
        in_hand = [x == HAND for x in locs]
        shuffled = [x == WAITER for x in locs]
        under = [x == UNDER for x in locs]
        held = N.Sum([N.If(h, 1, 0) for h in in_hand])
        return Mover(seat, hand, in_hand, shuffled, under, held)

    def _play(self, me: Mover, a: Selectors) -> tuple[Any, list[Any], Any]:
        """``turn.play`` or ``turn.pass``: (legal, the hand after it, a pass)."""
        ingredients = N.Sum(me.hand)
        is_pass = a.kind == NO
        ok = turn_play_or_pass(me.hand, ingredients, a.kind, a.count)
        return ok, turn_played_from_hand(me.hand, a.kind, a.count), is_pass

    def _order(self, me: Mover, a: Selectors, is_pass: Any) -> tuple[Any, Any]:
        """``turn.place_order``, within the orders the search allows each seat (a
        restriction of existence questions, not a rule): (legal, an order placed)."""
        ok, placed = turn_place_order(me.in_hand, me.held, is_pass, a.order, self.v.pass_order)
        allowed = getattr(self, "allowed", None)
        if allowed is not None:
            ok = N.And(ok, N.Or(a.order == NO, *[
                N.And(_is(me.seat, seat), a.order == i)
                for seat, indices in allowed.items() for i in indices]))
        return ok, placed

    def _draw(self, s: State, a: Selectors, me: Mover, allowance: Any) -> DrawTerms:
        """The draw of up to ``allowance`` cards from the source chosen: how many
        (``turn.draw_fewer``), from the supply with the Mamma Mia! card
        (``turn.draw_short``, ``mamma_mia.draw``, ``round_end.*``) or from the waiter."""
        d = DrawTerms(from_supply=a.source == SUPPLY)
        d.from_waiter = z3.Not(d.from_supply)
        waiting = N.Sum([N.If(x, 1, 0) for x in me.shuffled])
        failed = N.Sum([N.If(x, 1, 0) for x in me.under])
        left = N.Sum(s.supply)
        d.mm_there = s.mm == -1
        if self.v.draw_amount == DrawAmount.ANY:
            there = N.If(d.from_supply, left + N.If(d.mm_there, 1, 0), waiting + failed)
            d.wanted, d.amount_ok = a.number, turn_draw_fewer(a.number, allowance, there)
        else:
            d.wanted, d.amount_ok = allowance, a.number == 0
        d.source_ok = turn_draw_source(a.source)
        self._supply_draw(s, a, me.seat, left, d)
        d.took = N.If(d.from_waiter, turn_draw_short(d.wanted, waiting + failed), 0)
        d.picks_ok = waiter_draw(d.took, waiting, a.picks, me.shuffled, me.under)
        if self.R != 1:   # failed orders come back oldest first; only after an opening
            since = [_sel([s.pos[p][o] for p in range(self.n)], me.seat)
                     for o in range(N_ORDERS)]
            d.picks_ok = N.And(d.picks_ok, *oven_fail_oldest_first(a.picks, me.under, since))
        else:
            d.picks_ok = N.And(d.picks_ok, *[z3.Not(u) for u in me.under])
        d.moved = N.If(d.from_supply, d.got + N.If(a.mm_pop, 1, 0), d.took)
        return d

    def _supply_draw(self, s: State, a: Selectors, seat: Any, left: Any, d: DrawTerms) -> None:
        """A supply draw: the ingredient cards it turns up (chance, ``turn.draw_short``),
        the Mamma Mia! card met (``mamma_mia.draw``) and the supply running out
        (``round_end.last_card``/``round_end.last_ingredient``)."""
        d.got = N.If(d.from_supply, turn_draw_short(d.wanted, left), 0)
        d.drawn_ok = N.And(N.Sum(a.drawn) == d.got, *[
            N.And(x >= 0, x <= y) for x, y in zip(a.drawn, s.supply, strict=True)])
        d.after = [x - y for x, y in zip(s.supply, a.drawn, strict=True)]
        d.ran_dry = d.got < d.wanted
        can_meet = N.And(d.from_supply, d.mm_there, d.wanted > 0)
        d.pop_ok, d.last_ok = mamma_mia_draw(self.v.round_end, can_meet, d.ran_dry, a.mm_pop,
                                             a.mm_last)
        d.exhausted = N.And(d.from_supply, self.run_out(d.after, N.If(a.mm_pop, seat, s.mm)))
        d.mm_taken = mamma_mia_taken(d.exhausted, d.mm_there, a.mm_pop)

    def _end(self, s: State, a: Selectors, seat: Any, played: Any, d: DrawTerms) -> TurnEnd:
        """After the draw: the quiet turns counted, a stall (``round_end.stall``), the
        round's end, the next player (``turn.clockwise``) and the Mamma Mia! holder."""
        n = self.n
        quiet = round_end_quiet(N.And(played == 0, d.moved == 0), s.quiet, n)
        stall = round_end_stall(self.v.stall, d.exhausted, quiet, n)
        round_end = N.Or(d.exhausted, stall)
        following = turn_clockwise(seat, n)
        holder = mamma_mia_holder(seat, following, s.mm, a.mm_pop, d.mm_taken, stall,
                                  d.mm_there)
        return TurnEnd(quiet, stall, round_end, following, holder)

    def _after_turn(self, s: State, a: Selectors, seat: Any, after_play: list[Any],
                    placed: Any, played: Any, d: DrawTerms, end: TurnEnd) -> State:
        """The state after the turn: the mover's hand and orders, the supply, the oven,
        and who plays next (the Mamma Mia! holder opens the oven when the round ends)."""
        nx = self.inside_turn(s, a, seat, after_play, placed, drawn=True)
        nx.supply = d.after
        nx.mm = end.holder
        nx.quiet = end.quiet
        nx.ph = N.If(end.round_end, OVEN, TURN)
        nx.cur = N.If(end.round_end, end.holder, end.following)
        nx.ovl = s.ovl + played
        return nx

    @N.in_model_context
    def inside_turn(self, s: State, a: Selectors, seat: Any, after_play: list[Any],
                    placed: Any, *, drawn: bool = False) -> State:
        """The state inside a turn, before its draw: after its play or pass (the mover's
        hand ``after_play``, the cards played on the oven) and, where ``placed``, its
        order put on the oven. The reference stops there, right after ``played``,
        ``passed`` and ``placed_order`` (:func:`mammamia_ref.rules.game.apply_in_parts`).
        With ``drawn``, the mover's hand after the draw too (:meth:`_after_turn`): the
        cards drawn, the orders taken from the waiter (never one placed)."""
        nx = s.copy()
        for p in range(self.n):
            mine = _is(seat, p)
            nx.hand[p] = [N.If(mine, after_play[k] + a.drawn[k] if drawn else after_play[k],
                               s.hand[p][k]) for k in range(NK)]
            nx.loc[p] = [N.If(N.And(mine, placed, a.order == o), IN_OVEN,
                              N.If(N.And(mine, a.picks[o]), HAND, s.loc[p][o]) if drawn
                              else s.loc[p][o]) for o in range(N_ORDERS)]
        nx.oven = turn_onto_oven(s.oven, a.kind, a.count)
        return nx

    @N.in_model_context
    def reveal(self, s: State, a: Selectors, block: Block,
               contract: Any = None) -> tuple[State, dict[str, Any], Any]:
        """``oven.open``: the cards of one turn are revealed; its ingredients go to the
        table (``oven.sort``) and its order is judged (:func:`.oven_rules.resolve_order`);
        a baked order is delivered, a failed one goes under its owner's waiter
        (``oven.fail``), unused cards stay (``oven.leftovers``). With ``contract`` (a
        function of the table and the hand), the order's outcome is any that the
        contract allows instead (for induction proofs; see :mod:`.proofs`)."""
        n = self.n
        nx = s.copy()
        table, nx.oven = self.turned_up(s, block)
        has_order = block.order >= 0
        hand = self.hand_of(s, block.owner)
        if contract is None:
            order = select_order(self.colours, block.owner, block.order,
                                 getattr(self, "allowed", None))
            out = resolve_order(table, hand, order, a.decision, self.rules)
            typ = order.type
        else:
            out = contract(table, hand)
            typ = None
        baked = N.And(has_order, out.baked)
        from_table = [N.If(has_order, x, 0) for x in out.from_table]
        from_hand = [N.If(has_order, x, 0) for x in out.from_hand]
        nx.table = oven_leftovers(table, from_table)
        nx.used = [s.used[k] + from_table[k] + from_hand[k] for k in range(NK)]
        for p in range(n):
            mine = N.And(has_order, _is(block.owner, p))
            for k in range(NK):
                nx.hand[p][k] = N.If(mine, s.hand[p][k] - from_hand[k], s.hand[p][k])
            for o in range(N_ORDERS):
                this = N.And(mine, block.order == o)
                nx.loc[p][o] = N.If(this, N.If(baked, DELIVERED, UNDER), s.loc[p][o])
                nx.pos[p][o] = N.If(N.And(this, z3.Not(baked)), s.wt[p], s.pos[p][o])
            nx.wt[p] = N.If(N.And(mine, z3.Not(baked)), s.wt[p] + 1, s.wt[p])
        legal = N.And(N.And(*a.canonical_turn()),
                      N.If(has_order, out.legal, N.And(*a.decision.canonical())))
        facts = {"baked": baked, "has_order": has_order, "owner": block.owner,
                 "order": block.order, "table": table, "outcome": out, "type": typ,
                 "from_table": from_table, "from_hand": from_hand}
        return nx, facts, legal

    @staticmethod
    def turned_up(s: State, block: Block) -> tuple[list[Any], list[Any]]:
        """``oven.sort``: the table and the oven once one turn's cards are turned up."""
        table = oven_sort(s.table, block.kind, block.count)
        return table, [s.oven[k] - N.If(block.kind == k, block.count, 0) for k in range(NK)]

    @N.in_model_context
    def transition(self, s: State) -> tuple[State, dict[str, Any], Any]:
        """The resolution is over. ``game_end.three_resolutions`` after the third;
        otherwise ``next_round.supply`` (used cards, supply cards a stall left, the Mamma
        Mia! card) and ``next_round.first_player``; under ``round_end.last_ingredient`` a
        supply without ingredients ends the new round at once, its Mamma Mia! card going
        to the starting player."""
        nx = s.copy()
        res = s.res + 1
        final = game_end(res, self.rounds)
        supply = next_round_supply(s.used, s.supply)
        at_once = round_ends_at_once(self.v.round_end, supply, final)
        nx.res = res
        nx.ph = N.If(final, OVER, N.If(at_once, OVEN, TURN))
        nx.rnd = N.If(final, s.rnd, s.rnd + 1)
        nx.cur = N.If(final, s.cur, s.mm)
        nx.mm = N.If(N.Or(final, at_once), s.mm, -1)
        nx.supply = [N.If(final, s.supply[k], supply[k]) for k in range(NK)]
        nx.used = [N.If(final, s.used[k], 0) for k in range(NK)]
        nx.quiet = N.If(final, s.quiet, 0)
        nx.ovl = N.If(final, s.ovl, 0)
        return nx, {"final": final, "ends_at_once": at_once}, N.BoolVal(True)

    # ------------------------------------------------------------------- helpers

    @N.in_model_context
    def hand_of(self, s: State, seat: Any) -> list[Any]:
        """The ingredient cards in the hand of ``seat`` (a term), kind by kind."""
        return [_sel([s.hand[p][k] for p in range(self.n)], seat) for k in range(NK)]

    @N.in_model_context
    def orders_at(self, s: State, p: int, *where: int) -> Any:
        """The orders of seat ``p`` at any of the locations ``where`` (in hand, under a
        waiter, delivered, ...)."""
        return N.Sum([N.If(x == where[0] if len(where) == 1 else N.Or(*[x == w for w in where]),
                           1, 0) for x in s.loc[p]])

    @N.in_model_context
    def supply_cards(self, s: State) -> Any:
        """The cards of the supply, the Mamma Mia! card among them while it lies there."""
        return N.Sum(s.supply) + N.If(s.mm == -1, 1, 0)

    @N.in_model_context
    def held_orders(self, s: State, p: int) -> Any:
        return self.orders_at(s, p, HAND)

    @N.in_model_context
    def hand_size(self, s: State, p: int) -> Any:
        return N.Sum(s.hand[p]) + self.held_orders(s, p)

    @N.in_model_context
    def delivered(self, s: State, p: int) -> Any:
        return self.orders_at(s, p, DELIVERED)

    def of(self, what: str) -> list[Step]:
        return [step for step in self.steps if step.what == what]

    def solver(self) -> z3.Solver:
        solver = z3.Solver(ctx=self.ctx)
        solver.add(self.constraints)
        return solver


__all__ = ["DELIVERED", "HAND", "IN_OVEN", "MM", "NO", "OVEN", "OVER", "SUPPLY", "TURN",
           "UNDER", "WAITER", "WAITER_SOURCE", "Block", "GameModel", "Selectors", "State",
           "Step"]
