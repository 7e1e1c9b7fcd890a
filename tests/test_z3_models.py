"""The z3 encodings against the one definition of each rule, and the z3 models' flags.

- Every function of :mod:`mammamia_ref.queries.model.oven_rules` with a counterpart over plain
  counts in :mod:`mammamia_ref.rules` (the kinds a Monotoni or Minimale may name, an
  order's requirement, the shortfall and the bake test, the hand cards that complete a
  Pizza Bombastica) is evaluated on concrete inputs and compared with that function,
  exhaustively over small count ranges, under every value of the flags it reads; so is
  the game model's end-of-supply test (``round.supply_exhausted``).
- The flags a z3 model follows are those ``spec/disputes.yaml`` lists it under: for
  each flag it claims some question gets another answer under another value; for each
  flag it does not claim, any other value is refused.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import pytest

z3 = pytest.importorskip("z3")

pytestmark = pytest.mark.z3

from mammamia_ref.errors import VariantError  # noqa: E402
from mammamia_ref.queries.model import num as N  # noqa: E402
from mammamia_ref.queries.model.flags import Z3_MODELS, implemented_flags  # noqa: E402
from mammamia_ref.queries.model.free_steps import free_step, stub  # noqa: E402
from mammamia_ref.queries.model.game_model import IN_OVEN, NO, GameModel  # noqa: E402
from mammamia_ref.queries.model.oven_model import OvenModel  # noqa: E402
from mammamia_ref.queries.model.oven_rules import (  # noqa: E402
    NK,
    fixed_requirement,
    kind_choices,
    order_terms_of,
    oven_bake,
    oven_bombastica,
    oven_bombastica_table_only,
    shortfall,
)
from mammamia_ref.rules.oven import (  # noqa: E402
    pizza_minimale_kinds,
    pizza_monotoni_kinds,
    ways_to_take,
)
from mammamia_ref.rules.round import supply_exhausted  # noqa: E402
from mammamia_ref.rules.ruleset import default_rules  # noqa: E402
from mammamia_ref.rules.state import make_variants, variant_defaults, variant_values  # noqa: E402
from mammamia_ref.rules.vocabulary import (  # noqa: E402
    COLOURS,
    COPIES,
    KIND_INDEX,
    KINDS,
    MAMMA_MIA,
    ORDER_TYPES,
    ORDERS,
    ORDERS_OF,
    PERSONAL,
    covers,
)
from mammamia_ref.rules.vocabulary import shortfall as plain_shortfall  # noqa: E402

BOMBASTICA_TOTAL = ORDER_TYPES["bombastica"]["total"]


@pytest.fixture(autouse=True)
def no_default_context(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Nothing here may fall back on z3's default context."""
    def refuse(*args: Any) -> Any:
        raise AssertionError("z3's default context used")
    monkeypatch.setattr(z3.z3, "main_ctx", refuse)
    with N.building():
        yield


def is_true(term: Any) -> bool:
    """A closed boolean term's value."""
    got = z3.simplify(term)
    assert z3.is_true(got) or z3.is_false(got), got
    return bool(z3.is_true(got))


def number(term: Any) -> int:
    got = z3.simplify(N.lift(term))
    assert z3.is_int_value(got), got
    return int(got.as_long())


def terms(counts: Sequence[int]) -> list[Any]:
    return [N.Val(c) for c in counts]


# ------------------------------------------------------ encodings vs the rule functions

SMALL_TABLES = list(itertools.product(range(3), repeat=NK))   # 243 tables


def named_order(colour: str, kind_type: str) -> str:
    return next(o for o in ORDERS_OF[colour] if ORDERS[o].type == kind_type)


@pytest.mark.parametrize("value", variant_values()["monotoni_kind"])
def test_monotoni_kinds_are_the_rule_functions(value: str) -> None:
    """``oven.monotoni``/``oven.monotoni_on_table`` (through :func:`kind_choices`, as the
    models use them) name exactly ``pizza_monotoni_kinds`` on every table of 0 to 2 cards
    a kind, for every colour: 5 x 243 tables."""
    variants = {**variant_defaults(), "monotoni_kind": value}
    compared = 0
    for colour in COLOURS:
        order = order_terms_of(named_order(colour, "monotoni"))
        for table in SMALL_TABLES:
            choices = kind_choices(terms(table), order, variants)
            encoded = tuple(k for k in KINDS if is_true(choices[KIND_INDEX[k]]))
            assert encoded == pizza_monotoni_kinds(table, PERSONAL[colour], value), table
            compared += 1
    assert compared == len(COLOURS) * len(SMALL_TABLES)


@pytest.mark.parametrize("value", variant_values()["minimale_lowest"])
def test_minimale_kinds_are_the_rule_functions(value: str) -> None:
    """``oven.minimale``/``oven.minimale_all_kinds`` name exactly
    ``pizza_minimale_kinds`` on every table of 0 to 2 cards a kind (every tie among
    them), for every colour: 5 x 243 tables."""
    variants = {**variant_defaults(), "minimale_lowest": value}
    for colour in COLOURS:
        order = order_terms_of(named_order(colour, "minimale"))
        for table in SMALL_TABLES:
            choices = kind_choices(terms(table), order, variants)
            encoded = tuple(k for k in KINDS if is_true(choices[KIND_INDEX[k]]))
            assert encoded == pizza_minimale_kinds(table, PERSONAL[colour], value), table


def test_requirements_are_the_manifests() -> None:
    """``oven.standard``, ``oven.one_of_each`` and the named requirement of
    ``oven.monotoni``/``oven.minimale`` give ``Order.requirement`` for every order of the
    manifest but the Bombastica and every kind named: 40 orders x 5 kinds."""
    compared = 0
    for order_id, order in ORDERS.items():
        if order.type == "bombastica":
            continue
        for kind in KINDS:
            encoded = fixed_requirement(order_terms_of(order_id), N.Val(KIND_INDEX[kind]))
            assert tuple(number(x) for x in encoded) == order.requirement(ORDER_TYPES, kind), \
                (order_id, kind)
            compared += 1
    assert compared == sum(ORDERS[o].type != "bombastica" for o in ORDERS) * NK


def test_shortfall_and_bake_are_the_rule_functions() -> None:
    """``shortfall`` and ``oven.bake`` are ``vocabulary.shortfall`` and ``covers``, kind by
    kind for every need and table count of 0 to 7 (the encodings are kind-wise), and on
    every pair of small count maps of 0 to 2 cards a kind over three kinds."""
    for need, have in itertools.product(range(8), repeat=2):
        needs, table = (need, 0, 0, 0, 0), (have, 0, 0, 0, 0)
        got = [number(x) for x in shortfall(terms(needs), terms(table))]
        assert tuple(got) == plain_shortfall(needs, table)
        met, taken = oven_bake(terms(table), terms(needs))
        assert is_true(met) == covers(table, needs)
        assert tuple(number(x) for x in taken) == needs
    small = list(itertools.product(range(3), repeat=3))
    for n3, t3 in itertools.product(small, repeat=2):
        needs, table = (*n3, 1, 0), (*t3, 0, 1)
        assert tuple(number(x) for x in shortfall(terms(needs), terms(table))) == \
            plain_shortfall(needs, table)
        assert is_true(oven_bake(terms(table), terms(needs))[0]) == covers(table, needs)


SMALL_HANDS = [h for h in itertools.product(range(3), repeat=NK) if sum(h) <= 3]


@pytest.mark.parametrize("mandatory", [False, True])
def test_bombastica_takes_are_the_rule_functions(mandatory: bool) -> None:
    """``oven.bombastica``: asked exactly when ``ways_to_take`` offers a way to make up
    the shortfall, and the hand cards it accepts are exactly those ways, for every hand
    of 0 to 2 cards a kind (at most 3) and every shortfall of 0 to 4."""
    complete = N.BoolVal(True)
    for hand, short in itertools.product(SMALL_HANDS, range(5)):
        table = (BOMBASTICA_TOTAL - short, 0, 0, 0, 0)
        ways = set(ways_to_take(hand, short)) if short else set()
        asked_once = None
        for take in itertools.product(*[range(h + 1) for h in hand]):
            baked, asked, take_ok = oven_bombastica(terms(table), terms(hand), complete,
                                                    terms(take), mandatory)
            asked_once = is_true(asked)
            if short and any(take):
                assert is_true(take_ok) == (take in ways), (hand, short, take)
            assert is_true(baked) == (not short or bool(ways)), (hand, short)
        assert asked_once == bool(ways), (hand, short)
    for total in range(BOMBASTICA_TOTAL - 3, BOMBASTICA_TOTAL + 2):
        assert is_true(oven_bombastica_table_only(terms((total, 0, 0, 0, 0)))) == \
            (total >= BOMBASTICA_TOTAL)


@pytest.mark.parametrize("value", variant_values()["round_end"])
def test_run_out_is_supply_exhausted(value: str) -> None:
    """The game model's end of the supply (``round_end.*``) is
    ``round.supply_exhausted`` for every supply of 0 or 1 card a kind, with and without
    the Mamma Mia! card: 64 supplies."""
    model = stub(2, {"round_end": value})
    variants = make_variants({"round_end": value})
    for supply in itertools.product(range(2), repeat=NK):
        for mm_there in (True, False):
            cards = tuple(k for k, n in zip(KINDS, supply, strict=True) for _ in range(n))
            cards += (MAMMA_MIA,) if mm_there else ()
            encoded = model.run_out(terms(supply), N.Val(-1 if mm_there else 0))
            assert is_true(encoded) == supply_exhausted(variants, cards), (supply, mm_there)


# --------------------------------------------------------------- the flag registry

Probe = Callable[[str, dict[str, str]], bool]


def _sat(constraints: Sequence[Any]) -> bool:
    solver = N.Solver()
    solver.add(list(constraints))
    result = solver.check()
    assert result in (z3.sat, z3.unsat), result
    return bool(result == z3.sat)


def _opening(model_name: str, variants: dict[str, str], turns: Sequence[tuple[str, int]],
             order_type: str, other: str | None, hand: dict[str, int],
             goal: Callable[[Any, Any, str], Any]) -> bool:
    """Whether an opening can reach ``goal``: the turns put ``(kind, count)`` in the oven,
    the last one with an order of ``order_type`` (``other`` for a standard order) of
    its player, who holds ``hand``. ``goal(baked, named_term, colour)``."""
    table = [0] * NK
    for kind, count in turns:
        table[KIND_INDEX[kind]] += count
    held = [hand.get(k, 0) for k in KINDS]
    if model_name == "oven_model":
        seat = (len(turns) - 1) % 2
        colour = COLOURS[seat]
        order = next(o for o in ORDERS_OF[colour] if ORDERS[o].type == order_type
                     and ORDERS[o].other == other)
        m = OvenModel(2, variants, turns=len(turns), orders={seat: [order]})
        fixed = [m.hands[1 - seat][k] == 0 for k in range(NK)]
        fixed += [m.hands[seat][k] == held[k] for k in range(NK)]
        for t, (kind, count) in enumerate(turns):
            fixed += [m.kind[t] == KIND_INDEX[kind], m.count[t] == count,
                      m.order[t] == (ORDERS_OF[colour].index(order) if t == len(turns) - 1
                                     else NO)]
        last = m.runs[0][-1]
        return _sat([*m.constraints, *fixed, goal(last.baked, last.decision.named, colour)])
    # the game model: one reveal step from a state whose table and hand are the probe's
    _, before, _, facts, constraints = free_step(2, variants, "reveal", name="probe")
    colour, seat = COLOURS[0], 0
    order = next(o for o in ORDERS_OF[colour] if ORDERS[o].type == order_type
                 and ORDERS[o].other == other)
    block_order = ORDERS_OF[colour].index(order)
    owner = facts["owner"]
    fixed = [owner == seat, facts["order"] == block_order,
             before.loc[seat][block_order] == IN_OVEN,
             *[x == t for x, t in zip(before.table, table, strict=True)],
             *[x == h for x, h in zip(before.hand[seat], held, strict=True)],
             # no ingredient card revealed with the order: the table is the probe's
             *[x == t for x, t in zip(facts["table"], table, strict=True)]]
    named = facts["selectors"].decision.named
    return _sat([*constraints, *fixed, goal(facts["baked"], named, colour)])


def _oven_probe(turns: Sequence[tuple[str, int]], order_type: str, other: str | None,
                hand: dict[str, int], goal: Callable[[Any, Any, str], Any]) -> Probe:
    def probe(model_name: str, variants: dict[str, str]) -> bool:
        return _opening(model_name, variants, turns, order_type, other, hand, goal)
    return probe


RED_P = PERSONAL["red"]
YELLOW_P = PERSONAL["yellow"]
A, B = [k for k in KINDS if k not in (RED_P, YELLOW_P)][:2]


def _can_bake(baked: Any, named: Any, colour: str) -> Any:
    return baked


def _can_fail(baked: Any, named: Any, colour: str) -> Any:
    return z3.Not(baked)


def _can_name_b(baked: Any, named: Any, colour: str) -> Any:
    return named == KIND_INDEX[B]


def _turns(*turns: tuple[str, int]) -> list[tuple[str, int]]:
    """Turns ending with the order of seat 0 (red): an odd number of turns."""
    assert len(turns) % 2 == 1
    return list(turns)


def _trimming_probe(model_name: str, variants: dict[str, str]) -> bool:
    """Can one kind have more cards in play than a trimmed two-player game keeps?"""
    over = COPIES[0] - default_rules().parameters.trimming[2] + 1
    if model_name == "oven_model":
        m = OvenModel(2, variants, turns=3, orders={0: [], 1: []})
        in_oven = N.Sum([N.If(m.kind[t] == 0, m.count[t], 0) for t in range(3)])
        return _sat([*m.constraints, in_oven + m.hands[0][0] + m.hands[1][0] >= over])
    _, before, _, _, constraints = free_step(2, variants, "transition", name="probe")
    return _sat([*constraints, before.used[0] >= over])


def _turn_probe(goal: Callable[[GameModel, Any, dict[str, Any]], Any]) -> Probe:
    """A question about one turn of seat 0, holding at most 7 cards, from any
    well-formed state (game model)."""
    def probe(model_name: str, variants: dict[str, str]) -> bool:
        assert model_name == "game_model"
        model, before, _, facts, constraints = free_step(2, variants, "turn", name="probe",
                                                         who=0)
        return _sat([*constraints, model.hand_size(before, 0) <= 7,
                     goal(model, before, facts)])
    return probe


OVEN_PROBES: dict[str, Probe] = {
    # one card short, the owner holding it: may the order fail?
    "completion": _oven_probe(_turns((RED_P, 1), (A, 2), (A, 1)), "standard", A, {A: 1},
                              _can_fail),
    # a table of 14, one card in hand: may the Bombastica bake?
    "bombastica_hand": _oven_probe(_turns((A, 7), (B, 6), (RED_P, 1)), "bombastica", None,
                                   {A: 1}, _can_bake),
    # may a kind absent from the table be named?
    "monotoni_kind": _oven_probe(_turns((RED_P, 1), (A, 1), (A, 1)), "monotoni", None,
                                 {B: 2}, _can_name_b),
    # the personal kind alone at the lowest count: may the Minimale bake?
    "minimale_lowest": _oven_probe(_turns((RED_P, 1), (A, 1), (A, 1)), "minimale", None,
                                   {A: 1}, _can_bake),
    "trimming": _trimming_probe,
}
TURN_PROBES: dict[str, Probe] = {
    # drawing more than one card beyond those played
    "refill": _turn_probe(lambda m, s, f: f["moved"] > f["played"] + 1),
    # cards played, a draw from a full supply, and nothing drawn
    "draw_amount": _turn_probe(lambda m, s, f: z3.And(
        N.Sum(s.supply) >= 7, f["played"] >= 1, f["selectors"].source == 0, f["moved"] == 0)),
    # a pass that places an order
    "pass_order": _turn_probe(lambda m, s, f: z3.And(
        f["selectors"].kind == NO, f["selectors"].order >= 0)),
    # a cycle of quiet turns ending the round
    "stall": _turn_probe(lambda m, s, f: f["stall"]),
    # the supply runs out with the Mamma Mia! card still in it
    "round_end": _turn_probe(lambda m, s, f: f["mm_taken"]),
}


def _dealt_probe(model_name: str, variants: dict[str, str]) -> bool:
    """Can a player hold the Mamma Mia! card when the first turn begins?"""
    from mammamia_ref.queries.model.free_steps import setup_state

    assert model_name == "game_model"
    _model, start, constraints = setup_state(2, variants)
    return _sat([*constraints, start.mm >= 0])


def _shared_probe(model_name: str, variants: dict[str, str]) -> bool:
    """Can a tie that survives the tie-break be a shared win at a game's end? (The game
    model scores only a question's ``result:``.)"""
    from mammamia_ref.queries.model.game_model import OVER, State
    from mammamia_ref.queries.model.scoring_model import scoring_terms

    assert model_name == "game_model"
    model = stub(2, variants)
    s = State.fresh("end", 2)
    _wins, decided = scoring_terms(s, model)
    return _sat([*model.domain(s), *model.well_formed(s), s.ph == OVER,
                 decided["game_end.shared_win"]])


SETUP_PROBES: dict[str, Probe] = {"mamma_mia_shuffle": _dealt_probe,
                                  "final_tie": _shared_probe}
PROBES: dict[str, dict[str, Probe]] = {
    "oven_model": OVEN_PROBES, "game_model": {**OVEN_PROBES, **TURN_PROBES, **SETUP_PROBES}}


def _claimed() -> list[Any]:
    return [pytest.param(model, flag, id=f"{model}-{flag}")
            for model in Z3_MODELS for flag in sorted(implemented_flags(model))]


def _not_claimed() -> list[Any]:
    values = variant_values()
    defaults = variant_defaults()
    return [pytest.param(model, flag, value, id=f"{model}-{flag}={value}")
            for model in Z3_MODELS for flag in sorted(values)
            if flag not in implemented_flags(model)
            for value in values[flag] if value != defaults[flag]]


def test_every_z3_model_claims_flags() -> None:
    """The registry is read: both models follow the oven's flags, the game model more."""
    oven, game = implemented_flags("oven_model"), implemented_flags("game_model")
    assert {"completion", "minimale_lowest", "monotoni_kind", "bombastica_hand"} <= oven
    assert oven < game


@pytest.mark.parametrize(("model", "flag"), _claimed())
def test_a_claimed_flag_changes_an_answer(model: str, flag: str) -> None:
    """Some question about the model gets two answers under two values of the flag."""
    probe = PROBES[model].get(flag)
    assert probe is not None, f"{model} claims {flag}: give it a probe here"
    answers = {value: probe(model, {flag: value}) for value in variant_values()[flag]}
    assert len(set(answers.values())) > 1, answers


@pytest.mark.parametrize(("model", "flag", "value"), _not_claimed())
def test_an_unclaimed_flag_is_refused(model: str, flag: str, value: str) -> None:
    with pytest.raises(VariantError, match=rf"{model} .*{flag}={value}"):
        if model == "oven_model":
            OvenModel(2, {flag: value}, turns=1)
        else:
            GameModel(2, {flag: value}, schedule=(1,), open_last=True)


def test_the_default_of_an_unclaimed_flag_is_accepted() -> None:
    for model in Z3_MODELS:
        unclaimed = {f: v for f, v in variant_defaults().items()
                     if f not in implemented_flags(model)}
        assert unclaimed, model
        built = OvenModel(2, unclaimed, turns=1) if model == "oven_model" else \
            GameModel(2, unclaimed, schedule=(1,), open_last=True)
        assert all(getattr(built.v, f) == v for f, v in unclaimed.items())



# Every answer of the catalogue is computed with the default context refused: see
# answered() in tests/test_queries.py.


# ------------------------------------------- the game model's turn against the engine


def _random_turn_states(variants: dict[str, str], seed: int, count: int,
                        players: int = 2) -> list[tuple[Any, frozenset[str]]]:
    """States at the start of a turn, reached by random legal play from a new game (every
    shuffle random too), with the orders that have failed so far (under a waiter)."""
    import random

    from mammamia_ref.rules.actions import Shuffle
    from mammamia_ref.rules.game import (
        apply,
        chance_pile,
        is_chance,
        is_over,
        legal_actions,
        new_game,
    )
    from mammamia_ref.rules.state import make_config

    rng = random.Random(seed)
    found: list[tuple[Any, frozenset[str]]] = []
    while len(found) < count:
        state = new_game(make_config(players, variants=variants))
        failed: set[str] = set()
        taken = 0
        while not is_over(state) and len(found) < count:
            if is_chance(state):
                pile, cards = chance_pile(state)
                order = list(cards)
                rng.shuffle(order)
                state, _events = apply(state, Shuffle(pile, tuple(order)))
                continue
            if state.phase == "turn" and state.step == "play" and rng.random() < 0.08:
                found.append((state, frozenset(failed)))
                taken += 1
                if taken == 2:   # at most two states a game, spread over its rounds
                    break
            state, events = apply(state, rng.choice(legal_actions(state)))
            failed |= {e.get("order") for e in events if e.name == "failed"}
    return found


def _abstract(state: Any, failed: frozenset[str]) -> dict[str, Any]:
    """The engine's state in the game model's terms (leftovers stay on the table)."""
    from mammamia_ref.queries.model.game_model import (
        DELIVERED,
        HAND,
        OVEN,
        OVER,
        TURN,
        UNDER,
        WAITER,
    )

    n = state.players
    loc, pos = [], []
    for p in range(n):
        row, where = [], []
        waiter = state.waiters[p]
        for o in ORDERS_OF[state.colour(p)]:
            if o in state.hands[p].orders:
                row.append(HAND)
            elif o in state.oven:
                row.append(IN_OVEN)
            elif o in state.delivered[p]:
                row.append(DELIVERED)
            else:
                row.append(UNDER if o in failed else WAITER)
            where.append(waiter.index(o) if o in waiter else 0)
        loc.append(row)
        pos.append(where)
    ph = {"turn": TURN, "over": OVER}.get(state.phase, OVEN)
    return {"ph": ph, "cur": state.current, "rnd": state.round, "res": state.resolutions,
            "hand": [list(h.ingredients) for h in state.hands], "loc": loc, "pos": pos,
            "wt": [N_WAITER] * n, "table": list(state.table), "used": list(state.used),
            "supply": [sum(1 for c in state.supply if c == k) for k in KINDS],
            "oven": [sum(1 for c in state.oven if c == k) for k in KINDS],
            "mm": -1 if state.mamma_mia is None else state.mamma_mia,
            "quiet": state.quiet_turns, "ovl": len(state.oven)}


N_WAITER = 8
HAND_LOC = 1   # game_model.HAND


def _equal(s: Any, values: dict[str, Any], keys: Sequence[str]) -> list[Any]:
    out = []
    for key in keys:
        term, value = getattr(s, key), values[key]
        if isinstance(value, list):
            for t, v in zip(term, value, strict=True):
                out += [x == y for x, y in zip(t, v, strict=True)] if isinstance(v, list) \
                    else [t == v]
        else:
            out.append(term == value)
    return out


def _engine_turns(state: Any) -> dict[tuple[Any, ...], Any]:
    """Every whole turn the engine allows from ``state``, keyed as the model's decision
    selectors (kind, count, order, source, number), with the state after it."""
    from mammamia_ref.rules.actions import Draw, NoOrder, Pass, PlaceOrder, Play
    from mammamia_ref.rules.game import apply, legal_actions

    out: dict[tuple[Any, ...], Any] = {}
    colour = state.colour(state.current)

    def walk(s: Any, key: list[Any]) -> None:
        for action in legal_actions(s):
            after, _events = apply(s, action)
            if isinstance(action, Pass):
                walk(after, [NO, 0, NO])
            elif isinstance(action, Play):
                walk(after, [KIND_INDEX[action.kind], action.count, NO])
            elif isinstance(action, PlaceOrder):
                walk(after, [*key[:2], ORDERS_OF[colour].index(action.order)])
            elif isinstance(action, NoOrder):
                walk(after, key)
            elif isinstance(action, Draw):
                source = 0 if action.source == "supply" else 1
                # asking for more cards than the source holds takes them all, as asking
                # for exactly those does: the model keeps one name for the two draws
                there = len(s.supply) if source == 0 else len(s.waiters[s.current])
                number = min(action.count, there) if action.count is not None else 0
                out.setdefault((*key, source, number), after)
            else:   # pragma: no cover - a turn holds nothing else
                raise AssertionError(action)

    walk(state, [])
    return out


AFTER_KEYS = ("ph", "rnd", "res", "hand", "loc", "table", "used", "supply", "oven", "mm",
              "quiet", "ovl")


def _turn_flag_values() -> list[Any]:
    """The default, and each other value of each flag the game model claims that a turn
    reads (the oven's flags act at reveals, not turns)."""
    values = variant_values()
    claimed = implemented_flags("game_model") - {"minimale_lowest", "completion",
                                                  "monotoni_kind", "bombastica_hand"}
    defaults = variant_defaults()
    out = [pytest.param({}, id="defaults")]
    for flag in sorted(claimed):
        for value in values[flag]:
            if value != defaults[flag]:
                out.append(pytest.param({flag: value}, id=f"{flag}={value}"))
    return out


@pytest.mark.parametrize("variants", _turn_flag_values())
def test_the_game_models_turn_is_the_engines(variants: dict[str, str]) -> None:
    """On random reachable states (every round, orders under waiters included), the
    game model's turn relation allows exactly the engine's whole turns (play or pass,
    order or none, draw source and amount), and each engine turn's result is one of
    the model's successors for some chance outcome."""
    engine_variants = {**variants, "leftovers": "table"}   # the model keeps them there
    for state, failed in _random_turn_states(engine_variants, seed=16, count=6):
        _check_turn_relation(state, failed, variants)


def _check_turn_relation(state: Any, failed: frozenset[str], variants: dict[str, str]) -> None:
    """The model's turns from ``state`` are the engine's, with the engine's results."""
    with N.building():
        model = stub(state.players, variants, "eng")
        from mammamia_ref.queries.model.game_model import Selectors, State

        before = State.fresh("eng_before", state.players)
        sel = Selectors.fresh("eng_a")
        new, _facts, legal = model.turn(before, sel)
        given = _abstract(state, failed)
        base = [*model.domain(before), *_equal(before, given, list(given)), legal]
        engine = _engine_turns(state)
        decision = (sel.kind, sel.count, sel.order, sel.source, sel.number)
        solver = z3.Solver(ctx=N.current())
        solver.add(base)
        model_turns = set()
        while solver.check() == z3.sat:
            key = tuple(N.value(solver.model(), x) for x in decision)
            model_turns.add(key)
            solver.add(z3.Or(*[x != v for x, v in zip(decision, key, strict=True)]))
            assert len(model_turns) <= len(engine) + 1, "the model allows more turns"
        assert model_turns == set(engine), (sorted(model_turns - set(engine)),
                                            sorted(set(engine) - model_turns), str(given))
        for key, after in engine.items():
            want = _abstract(after, failed)
            keys: Sequence[str] = (*AFTER_KEYS, "cur")
            extra: list[Any] = []
            if want["ph"] != 0:
                # the round ended: the engine opens the oven at once, revealing cards
                # up to the first decision (and, with none to take, resolves it and
                # goes on): compare what the opening has not touched
                keys = ("hand", "mm")
                extra = [new.ph == 1]
                if after.resolutions == state.resolutions:
                    keys = ("rnd", "res", "hand", "supply", "mm")
                    extra += [new.oven[k] + new.table[k] + new.used[k]
                              == want["oven"][k] + want["table"][k] + want["used"][k]
                              for k in range(NK)]
                    extra += [(x == HAND_LOC) == (w == HAND_LOC)
                              for row, wrow in zip(new.loc, want["loc"], strict=True)
                              for x, w in zip(row, wrow, strict=True)]
            check = z3.Solver(ctx=N.current())
            check.add([*base, *[x == v for x, v in zip(decision, key, strict=True)],
                       *_equal(_as_state(new), want, keys), *extra])
            if check.check() != z3.sat:
                wrong = [k for k in keys if not _agrees(base, decision, key, new, want, k)]
                raise AssertionError(f"turn {key}: the model differs on {wrong}: {want}")


def _as_state(state: Any) -> Any:
    return state


def _agrees(base: list[Any], decision: Sequence[Any], key: Sequence[int], new: Any,
            want: dict[str, Any], field: str) -> bool:
    check = z3.Solver(ctx=N.current())
    check.add([*base, *[x == v for x, v in zip(decision, key, strict=True)],
               *_equal(new, want, [field])])
    return bool(check.check() == z3.sat)


def _engine_setups(players: int, variants: dict[str, str]) -> list[Any]:
    """The states in which the engine's first turn begins, one for each place of the
    Mamma Mia! card: under ``setup.supply_before_deal`` at each of the first ``players``
    places of the ingredient deck (dealt to each seat) and under the deal (left in the
    supply); under ``setup.supply`` on top of the supply and at its bottom."""
    from mammamia_ref.rules.actions import Shuffle
    from mammamia_ref.rules.game import apply, chance_pile, is_chance, new_game
    from mammamia_ref.rules.state import make_config

    config = make_config(players, variants=variants)
    _pile, cards = chance_pile(new_game(config))
    kinds = sorted((c for c in cards if c != MAMMA_MIA), key=lambda c: (KINDS.index(c) * 7) % 5)
    deals = [kinds[:i] + [MAMMA_MIA] + kinds[i:] for i in (*range(players), 6 * players + 3)] \
        if MAMMA_MIA in cards else [kinds, kinds]
    out = []
    for place, deck in enumerate(deals):
        state = new_game(config)
        state, _events = apply(state, Shuffle("ingredients", tuple(deck)))
        while is_chance(state):
            pile, left = chance_pile(state)
            order = sorted(left, key=lambda c: c == MAMMA_MIA)   # the card at the bottom
            if pile == "supply" and place == 0:
                order.reverse()                                  # ... or on top
            state, _events = apply(state, Shuffle(pile, tuple(order)))
        out.append(state)
    return out


@pytest.mark.parametrize("players", [2, 3])
@pytest.mark.parametrize("value", variant_values()["mamma_mia_shuffle"])
def test_the_game_models_setup_is_the_engines(value: str, players: int) -> None:
    """``mamma_mia_shuffle`` in the game model: every state the engine's setup reaches
    (the Mamma Mia! card at each place it can take) is one the model's setup allows;
    the seats that may hold the card when the first turn begins are the same in both
    (any seat or none under before_deal, none under after_deal); and the first turn
    from each of these states is the engine's (:func:`_check_turn_relation`)."""
    from mammamia_ref.queries.model.free_steps import setup_state

    variants = {"mamma_mia_shuffle": value}
    engine = _engine_setups(players, {**variants, "leftovers": "table"})
    holders = {-1 if s.mamma_mia is None else s.mamma_mia for s in engine}
    assert holders == ({-1, *range(players)} if value == "before_deal" else {-1})
    with N.building():
        _model, start, constraints = setup_state(players, variants)
        for state in engine:
            given = _abstract(state, frozenset())
            given.pop("pos"), given.pop("wt")   # the model's queue places, not the engine's
            assert _sat([*constraints, *_equal(start, given, list(given))]), given
        solver = N.Solver()
        solver.add(constraints)
        allowed = set()
        while solver.check() == z3.sat:
            allowed.add(N.value(solver.model(), start.mm))
            solver.add(start.mm != N.value(solver.model(), start.mm))
        assert allowed == holders
    for state in engine:
        _check_turn_relation(state, frozenset(), variants)


def test_terms_built_directly_are_z3s_own(monkeypatch: pytest.MonkeyPatch) -> None:
    """``num.If``, ``And``, ``Or`` and ``Sum`` build their terms through z3's C API where
    they can; the terms are the very ones z3's own functions build (z3 shares equal
    terms), which is also what a z3 without the private helpers gets."""
    import z3

    def build() -> list[Any]:
        x, y, b = N.Int("x"), N.Int("y"), N.Bool("b")
        return [N.If(b, x, 1), N.If(x > y, b, N.BoolVal(False)), N.And(b, x > y),
                N.And([b, x > 0]), N.Or(b, x == y), N.Sum([x, y, 2])]

    with N.building():
        direct = build()
        assert N._direct(N.current(), direct[:1], z3.ArithRef)
        monkeypatch.setattr(N, "_HELPERS", False)
        assert not N._direct(N.current(), direct[:1], z3.ArithRef)
        through_z3 = build()
        assert all(isinstance(t, z3.ExprRef) for t in direct)
        assert [d.eq(t) for d, t in zip(direct, through_z3, strict=True)] == [True] * 6


# ----------------------------------------------------------- the numbers of the rules
#
# A z3 model that takes a parameter (its ``models:`` in spec/cards.yaml) reads it from
# the game's rules value: each claim has a probe whose answer the parameter changes,
# the encodings follow the kernel's functions at other numbers, and the game model's
# turn and setup are the engine's under a house rule's numbers.


def _rules(**numbers: Any) -> Any:
    from mammamia_ref.rules.ruleset import make_rules

    return make_rules(parameters=numbers)


def test_requirements_follow_the_order_counts() -> None:
    """``fixed_requirement`` under other counts is ``Order.requirement`` with the game's
    order shapes, for every order but the Bombastica and every kind named."""
    from mammamia_ref.rules.ruleset import order_shapes

    rules = _rules(standard_count=5, monotoni_count=4, minimale_count=2)
    shapes = order_shapes(rules.parameters)
    for order_id, order in ORDERS.items():
        if order.type == "bombastica":
            continue
        for kind in KINDS:
            encoded = fixed_requirement(order_terms_of(order_id), N.Val(KIND_INDEX[kind]),
                                        shapes)
            assert tuple(number(x) for x in encoded) == order.requirement(shapes, kind)


@pytest.mark.parametrize("total", [12, 18])
def test_the_bombastica_total_is_the_games(total: int) -> None:
    """``oven.bombastica`` and ``oven.bombastica_table_only`` at another total: a table of
    ``total`` bakes, one card fewer needs a hand card (and none in hand fails)."""
    complete, nothing = N.BoolVal(True), terms((0,) * NK)
    for short in range(3):
        table = terms((total - short, 0, 0, 0, 0))
        baked, asked, _ok = oven_bombastica(table, nothing, complete, nothing, False, total)
        assert is_true(baked) == (short == 0) and not is_true(asked)
        assert is_true(oven_bombastica_table_only(table, total)) == (short == 0)


def _bombastica_of_twelve(model_name: str, rules: Any) -> bool:
    """A table of 12, an empty hand: may red's Bombastica bake?"""
    return _opening(model_name, rules, _turns((A, 4), (B, 4), (A, 4)), "bombastica", None,
                    {}, _can_bake)


def _standard_of_three(model_name: str, rules: Any) -> bool:
    """The personal card and three of the other kind, an empty hand: may it bake?"""
    return _opening(model_name, rules, _turns((RED_P, 1), (A, 2), (A, 1)), "standard", A,
                    {}, _can_bake)


def _monotoni_of_three(model_name: str, rules: Any) -> bool:
    return _opening(model_name, rules, _turns((RED_P, 1), (A, 2), (A, 1)), "monotoni", None,
                    {}, _can_bake)


def _minimale_of_one(model_name: str, rules: Any) -> bool:
    return _opening(model_name, rules, _turns((RED_P, 1), (B, 2), (A, 1)), "minimale", None,
                    {}, _can_bake)


def _hand_of_eight(model_name: str, rules: Any) -> bool:
    """May a player hold eight cards (the oven model: when the oven opens; the game
    model: after a turn's draw)?"""
    if model_name == "oven_model":
        m = OvenModel(2, rules, turns=1)
        return _sat([*m.constraints, N.Sum(m.hands[1]) == 8])
    model, before, after, _facts, constraints = free_step(2, rules, "turn", name="probe",
                                                          who=0)
    return _sat([*constraints, model.hand_size(before, 0) <= 7,
                 model.hand_size(after, 0) >= 8])


def _deal_of_five(model_name: str, rules: Any) -> bool:
    from mammamia_ref.queries.model.free_steps import setup_state

    _model, start, constraints = setup_state(2, rules)
    return _sat([*constraints, N.Sum(start.hand[0]) == 5])


def _two_orders_dealt(model_name: str, rules: Any) -> bool:
    from mammamia_ref.queries.model.free_steps import setup_state
    from mammamia_ref.queries.model.game_model import HAND as HAND_LOC

    _model, start, constraints = setup_state(2, rules)
    return _sat([*constraints, N.Sum([N.If(x == HAND_LOC, 1, 0) for x in start.loc[0]]) == 2])


def _four_rounds(model_name: str, rules: Any) -> bool:
    """May a game go on after its third oven opening?"""
    _, before, after, _, constraints = free_step(2, rules, "transition", name="probe")
    return _sat([*constraints, before.res == 2, after.ph != 2])


# (probe, a value under which its answer is not the spec's)
PARAMETER_PROBES: dict[str, tuple[Probe, Any]] = {
    "hand_limit": (_hand_of_eight, 8),
    "bombastica_total": (_bombastica_of_twelve, 12),
    "standard_count": (_standard_of_three, 3),
    "monotoni_count": (_monotoni_of_three, 2),
    "minimale_count": (_minimale_of_one, 1),
    "trimming": (_trimming_probe, {"2": 0}),
    "starting_ingredients": (_deal_of_five, 5),
    "starting_orders": (_two_orders_dealt, 2),
    "rounds": (_four_rounds, 4),
}


def _parameter_models(name: str) -> tuple[str, ...]:
    from mammamia_ref.rules import specdata

    return specdata.parameter_models(name)


def _claimed_parameters() -> list[Any]:
    from mammamia_ref.rules.ruleset import parameter_specs

    return [pytest.param(model, name, id=f"{model}-{name}") for model in Z3_MODELS
            for name in sorted(parameter_specs()) if model in _parameter_models(name)]


@pytest.mark.parametrize(("model", "name"), _claimed_parameters())
def test_a_claimed_parameter_changes_an_answer(model: str, name: str) -> None:
    """Every parameter a z3 model claims is read: a probe's answer differs between the
    spec's number and another (a claim without a probe fails here)."""
    assert name in PARAMETER_PROBES, f"{model} claims {name}: give it a probe here"
    probe, other = PARAMETER_PROBES[name]
    assert probe(model, _rules()) != probe(model, _rules(**{name: other}))


def test_the_z3_models_claim_the_numbers_they_read() -> None:
    """The oven model takes the hand limit, the trimming and the orders' counts; the game
    model every parameter; the deal and the rounds the oven model refuses."""
    claimed = {m: {p for p in PARAMETER_PROBES if m in _parameter_models(p)}
               for m in Z3_MODELS}
    assert claimed["game_model"] == set(PARAMETER_PROBES)
    assert claimed["oven_model"] == set(PARAMETER_PROBES) - {
        "starting_ingredients", "starting_orders", "rounds"}
    with pytest.raises(VariantError, match=r"oven model.*rounds"):
        OvenModel(2, _rules(rounds=4), turns=1)


@pytest.mark.parametrize("numbers", [{"hand_limit": 6}, {"hand_limit": 8},
                                     {"trimming": {"2": 0}}],
                         ids=["hand_limit=6", "hand_limit=8", "no-trimming-at-2"])
def test_the_game_models_turn_is_the_engines_under_other_numbers(numbers: dict[str, Any]
                                                                 ) -> None:
    """:func:`test_the_game_models_turn_is_the_engines` under a house rule's numbers."""
    from mammamia_ref.rules.ruleset import make_rules

    engine = make_rules({"leftovers": "table"}, numbers)   # the model keeps them there
    for state, failed in _random_turn_states(engine, seed=17, count=4):
        _check_turn_relation(state, failed, make_rules(parameters=numbers))


def test_the_game_models_setup_is_the_engines_under_another_deal() -> None:
    """Five ingredient cards and two orders dealt: the engine's first state is one the
    model's setup allows under those numbers, and not under the spec's."""
    from mammamia_ref.queries.model.free_steps import setup_state
    from mammamia_ref.rules.ruleset import make_rules

    numbers = {"starting_ingredients": 5, "starting_orders": 2}
    (engine, *_rest) = _engine_setups(2, make_rules({"leftovers": "table"}, numbers))
    assert engine.hands[0].size == 7
    given = _abstract(engine, frozenset())
    given.pop("pos"), given.pop("wt")
    house = make_rules(parameters=numbers)
    for rules, allowed in ((house, True), (make_rules(), False)):
        with N.building():
            _model, start, constraints = setup_state(2, rules)
            assert _sat([*constraints, *_equal(start, given, list(given))]) == allowed
    _check_turn_relation(engine, frozenset(), house)


def test_an_oven_model_opening_under_a_house_rule_replays_in_the_reference() -> None:
    """Under ``bombastica_total=12`` the oven model finds red's Bombastica baking from a
    table of 12 with an empty hand; the reference, given the same house rule, agrees
    at every reveal (:meth:`OvenRun.replay` raises on any difference)."""
    rules = _rules(bombastica_total=12)
    with N.building():
        m = OvenModel(2, rules, turns=3, orders={0: ["red.bombastica"], 1: []})
        solver = m.solver()
        solver.add(*[m.hands[p][k] == 0 for p in range(2) for k in range(NK)],
                   N.Sum([m.count[t] for t in range(3)]) == 12, m.baked_count() == 1)
        assert solver.check() == z3.sat
        run = m.read(solver.model())
        played = run.replay()
    baked = [e for _a, events, _s in played for e in events if e.name == "baked"]
    assert [e.get("order") for e in baked] == ["red.bombastica"]
    assert played[-1][2].parameters.bombastica_total == 12
