"""Judging a game by a question (:mod:`.questions`' grammar): a condition's events and
states, the part of a game within the bound, and the measures of ``most:`` / ``fewest:``.
Both of ``ask``'s routes judge a game here: the search (:mod:`..answering.searching`) and the z3
game model's runs once the reference has played them (:mod:`..answering.bounded`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from mammamia_ref.errors import InternalError
from mammamia_ref.queries.language.questions import SEAT_FIELDS
from mammamia_ref.queries.language.turning import Key, turnings
from mammamia_ref.queries.language.variables import QUANTIFIERS, RELATIONS
from mammamia_ref.rules import specdata
from mammamia_ref.rules.actions import Action
from mammamia_ref.rules.events import Event
from mammamia_ref.rules.ruleset import Rules
from mammamia_ref.rules.state import GameConfig, GameState, Phase


@dataclass(frozen=True)
class PartOf:
    """The action of a part of it but its last (:func:`in_parts`): the reference does not
    stop in the state such a part leaves (no decision is asked there)."""

    action: Action


@dataclass(frozen=True)
class Played:
    """A game as the reference played it: each action, its events, the state after."""

    config: GameConfig
    steps: tuple[tuple[Action | PartOf, tuple[Event, ...], GameState], ...]
    seed: int | str = 0
    policy: str = ""
    found_by: str = ""     # how the game was found, where not by a seeded search


def actions(steps: Sequence[tuple[Action | PartOf, Any, Any]]) -> list[Action]:
    """Each action of a game's ``steps`` once (of an action in parts, its last part's)."""
    return [a for a, _e, _s in steps if not isinstance(a, PartOf)]


def as_parts(action: Action, split: Sequence[tuple[GameState, tuple[Event, ...]]]
             ) -> list[tuple[Action | PartOf, tuple[Event, ...], GameState]]:
    """An action's parts (:func:`..rules.game.apply_in_parts`) as the steps of a game in
    parts: each but the last with :class:`PartOf` the action."""
    last = len(split) - 1
    return [(action if i == last else PartOf(action), events, state)
            for i, (state, events) in enumerate(split)]


def states_at(played: Played, at: str) -> list[GameState]:
    """The states a condition ``at`` looks at: every state the reference stops at (after
    each action, not after a part of one), after each step that ends a round, or the
    game's last (where the part holds the game's end)."""
    if at == "game_end":
        return [played.steps[-1][2]] if ended(played) else []
    if at == "round_end":
        return [s for _a, events, s in played.steps
                if any(e.name == "round_ended" for e in events)]
    return [s for a, _e, s in played.steps if not isinstance(a, PartOf)]


def kept_once_met(cond: Mapping[str, Any]) -> bool:
    """Whether a condition, once met by the first steps of a game, is met by every
    longer part of it: no ``not:``, no ``at_most:``, ``equals:`` or relation on an
    event, no state at the game's end, no ``game_ended``, no result (a position that
    came back stays so). A quantifier or a span keeps what its condition keeps (a
    span's part only grows). Any other is judged on whole games only."""
    if "all" in cond or "any" in cond:
        return all(kept_once_met(c) for c in cond.get("all") or cond.get("any") or ())
    if "not" in cond or "result" in cond:
        return False
    if "within" in cond or any(q in cond for q in QUANTIFIERS):
        return kept_once_met(cond["holds"])
    if "event" in cond:
        return "at_most" not in cond and "equals" not in cond and \
            not any(r in cond for r in RELATIONS) and cond["event"] != "game_ended"
    return "position_returns" in cond or bool(cond["state"].get("at") != "game_end")


def within(game: Played, bound: Mapping[str, Any], whole: bool = False) -> Played | None:
    """The part of a game a question judges: its first ``rounds`` rounds and ``turns``
    turns (the opening a last turn starts included; with ``seat``, a span's, that seat's
    own turns, none if it is not seated), cut where the next turn begins (the state the
    turn begins in, or before a round that ends as it starts); with
    ``whole`` (a condition judged on whole games), the game itself if it fits and
    has ended (a position, or a game a search cut short, is no whole game), else
    None."""
    rounds, turns, seat = bound.get("rounds"), bound.get("turns"), bound.get("seat")
    colours = game.config.colours
    mine = None if seat is None else colours.index(seat) if seat in colours else -1
    begun = 0
    for i, (action, events, state) in enumerate(game.steps):
        for j, e in enumerate(events):
            if e.name != "turn_begins":
                continue
            begun += mine is None or e.get("seat") == mine
            if (turns is not None and begun > turns) or \
                    (rounds is not None and e.get("round") > rounds):
                if whole:
                    return None
                if state.phase != Phase.TURN and i:   # a round ended as it started: the
                    state = game.steps[i - 1][2]      # state before it, its turn not begun
                return replace(game, steps=(*game.steps[:i], (action, events[:j], state)))
    if whole and not ended(game):
        return None
    return game


def ended(game: Played) -> bool:
    """Whether ``game`` is a whole game: its last action ends it (``game_ended``; a game
    the fast engine told carries the event too, :func:`..answering.searching.judged_events`)."""
    return bool(game.steps) and any(e.name == "game_ended" for e in game.steps[-1][1])


def meets(cond: Mapping[str, Any], game: Played, bound: Mapping[str, int]) -> bool:
    """Whether ``game`` meets a ``find:`` condition within a question's bound: on the part
    :func:`within` keeps, a whole game for a condition not kept once met
    (:func:`kept_once_met`). The condition is written out for the game's
    seating first (:func:`.variables.expand`)."""
    found = judged(cond, game, bound)
    return found is not None and holds(*found)


def judged(cond: Mapping[str, Any], game: Played, bound: Mapping[str, int]
           ) -> tuple[dict[str, Any], Played] | None:
    """What :func:`meets` judges: ``cond`` written out for ``game``'s seating, and the
    part of ``game`` within the bound, annotated as the condition needs (None where the
    game has no such part)."""
    part = within(game, bound, not kept_once_met(cond))
    if part is None:
        return None
    return core(cond, game), annotate(part, parts=needs_parts(cond),
                                      turned=needs_turning(cond))


BEFORE_FIELDS = frozenset({"on_table", "last_card", "first_card_of_round", "could_bake"})
"""The worked-out fields read from the state right before the event's part."""


def needs_turning(cond: Any) -> bool:
    """Whether a condition tests ``turned_by``, which replays openings (:mod:`.turning`)
    from the reference's states, so a game the fast engine told cannot answer it."""
    if isinstance(cond, Mapping):
        return "turned_by" in cond or any(needs_turning(v) for v in cond.values())
    return isinstance(cond, list) and any(needs_turning(v) for v in cond)


def needs_parts(cond: Any) -> bool:
    """Whether a condition reads the state right after an event (``then:``), at a
    round's end, or right before an event (:data:`BEFORE_FIELDS`), which only
    :func:`in_parts` tells apart: an action may reveal several cards and judge several
    orders before the reference stops."""
    if isinstance(cond, Mapping):
        return "then" in cond or cond.get("at") == "round_end" or \
            bool(BEFORE_FIELDS & set(cond)) or any(needs_parts(v) for v in cond.values())
    return isinstance(cond, list) and any(needs_parts(v) for v in cond)


_PARTS: dict[int, tuple[Played, Played]] = {}
"""The parts of the last games played (:func:`keep_parts`), by identity."""

_PARTS_KEPT = 4


def keep_parts(played: Played, parts: Played) -> Played:
    """``played``, its parts (:func:`in_parts`) kept as its player made them
    (:func:`..answering.searching.playout` plays each action in parts): a game judged
    right after it is played is then not replayed in parts (the replay took as long as
    the reference's moves of the game)."""
    _PARTS[id(played)] = (played, parts)
    while len(_PARTS) > _PARTS_KEPT:
        del _PARTS[next(iter(_PARTS))]
    return played


def in_parts(played: Played) -> Played:
    """The game with each action split into its parts (:func:`.game.apply_in_parts`):
    the action's own transition, then each step that needed no decision (the oven
    opened, each card revealed, the next round prepared), each with the state it left.
    So the state right after an event is the state of its step, and a round's end is
    the state in which its oven opens; a part but the last has :class:`PartOf` for its
    action, since the reference does not stop there. The parts its player kept (:func:`keep_parts`)
    where it has them, else the game replayed."""
    from dataclasses import replace

    from mammamia_ref.rules.game import apply_in_parts, new_game

    kept = _PARTS.get(id(played))
    if kept is not None and kept[0] is played:
        return kept[1]
    state, steps = new_game(played.config), []
    for action, events, _after in played.steps:
        if isinstance(action, PartOf):
            raise InternalError("a game already in parts split again")
        parts = apply_in_parts(state, action)
        left = len(events)   # a part (within:) may end partway into an action
        for i, (part_action, part_events, part_state) in enumerate(as_parts(action, parts)):
            if i and left <= 0 < sum(len(e) for _s, e in parts[i:]):
                break   # cut before these events: the part has none of them
            steps.append((part_action, part_events[:left], part_state))
            left -= len(part_events)
        state = parts[-1][0]
    return replace(played, steps=tuple(steps))


def core(cond: Mapping[str, Any], game: Played) -> dict[str, Any]:
    """``cond`` in the core grammar for ``game``'s colours and rounds."""
    from mammamia_ref.queries.language.variables import expand

    return expand(cond, game.config.colours, game.config.rules.parameters.rounds)


def judged_on(bound: Mapping[str, int], rules: Rules, cond: Mapping[str, Any]) -> str:
    """The part of a game :func:`meets` judges ``cond`` on, in words."""
    whole = not kept_once_met(cond)
    rounds, turns = bound.get("rounds", rules.parameters.rounds), bound.get("turns")
    if whole:
        return "whole games" + (f" of at most {turns} turns" if turns else "")
    if rounds >= rules.parameters.rounds and not turns:
        return "whole games (a condition kept once met: any part of the game)"
    return f"the first {rounds} round(s) of a game" + (f" and its first {turns} turns"
                                                       if turns else "")


def state_count(state: GameState, cond: Mapping[str, Any]) -> list[int]:
    """The counts a state condition compares: one per seat for hand, ingredients,
    delivered, waiter and mamma_mia (1 for the seat holding the Mamma Mia! card)."""
    from mammamia_ref.rules.vocabulary import KINDS

    what, kind = cond["count"], cond.get("kind")

    def cards(pile: Sequence[str]) -> int:     # the supply and the oven: cards in order
        return sum(1 for c in pile if kind is None or c == kind)

    def counts(pile: Sequence[int]) -> int:    # the table and the used pile: per kind
        return pile[KINDS.index(kind)] if kind else sum(pile)

    if what == "round":
        return [state.round]
    if what in ("supply", "oven"):
        return [cards(getattr(state, what))]
    if what in ("used", "table"):
        return [counts(getattr(state, what))]
    per_seat = per_seat_counts(state, what, kind)
    seat = cond.get("seat", "any")
    if seat in ("any", "all"):
        return per_seat
    colours = state.config.colours   # a colour not in play holds nothing to compare
    return [per_seat[colours.index(seat)]] if seat in colours else []


def per_seat_counts(state: GameState, what: str, kind: str | None) -> list[int]:
    """A count per seat, in seat order."""
    from mammamia_ref.rules.vocabulary import KINDS

    if what == "delivered":
        return [len(d) for d in state.delivered]
    if what == "waiter":
        return [len(w) for w in state.waiters]
    if what == "mamma_mia":
        return [int(state.mamma_mia == seat) for seat in range(state.players)]
    if kind:   # a hand's (or its ingredients') cards of one kind
        return [h.ingredients[KINDS.index(kind)] for h in state.hands]
    # ingredients: the ingredient cards alone (the tie-break's count); hand: orders too
    return [sum(h.ingredients) if what == "ingredients" else h.size for h in state.hands]


def compare(n: int, cond: Mapping[str, Any], default_least: int = 0) -> bool:
    """Whether ``n`` meets a condition's ``at_least`` / ``at_most`` / ``equals``."""
    if "equals" in cond:
        return n == int(cond["equals"])
    return int(cond.get("at_least", default_least)) <= n <= int(cond.get("at_most", n))


def related(n: Any, other: Any, relation: str) -> Any:
    """``n`` ``more_than`` / ``fewer_than`` / ``same_as`` ``other``: numbers (a bool), or
    z3 terms (a term: :mod:`.conditions` states the relation with this function too)."""
    return n > other if relation == "more_than" else \
        n < other if relation == "fewer_than" else n == other


def relation_of(cond: Mapping[str, Any]) -> str | None:
    from mammamia_ref.queries.language.variables import RELATIONS

    return next((r for r in RELATIONS if r in cond), None)


def holds(cond: Mapping[str, Any], played: Played) -> bool:
    """Whether a game (or a part of one, annotated: :func:`annotate`) meets a condition of the
    core grammar (:func:`.variables.expand` writes the variables out)."""
    if "all" in cond:
        return all(holds(c, played) for c in cond["all"])
    if "any" in cond:
        return any(holds(c, played) for c in cond["any"])
    if "not" in cond:
        return not holds(cond["not"], played)
    if "within" in cond:
        part = span(played, cond["within"])
        return part is not None and holds(cond["holds"], part)
    if "result" in cond:
        return result_holds(cond["result"], played)
    if "position_returns" in cond:
        return comes_back(played) is not None
    if "event" in cond:
        n = event_count(cond, played)
        rel = relation_of(cond)
        if rel is None:
            return compare(n, cond, 1)
        return bool(related(n, event_count(compared_event(cond, rel), played), rel))
    state = cond["state"]
    return any(state_holds(state, s) for s in states_at(played, state.get("at", "any_step")))


def compared_event(cond: Mapping[str, Any], relation: str) -> dict[str, Any]:
    """The events an event condition's count is compared with (``more_than: {...}``):
    the condition with what the relation names over it, ``where:`` merged."""
    return {**cond, **cond[relation], "where": {**(cond.get("where") or {}),
                                                **(cond[relation].get("where") or {})}}


def comes_back(played: Played) -> tuple[int, int] | None:
    """The first two whole actions (earlier, later; 0-based) after which the game is in
    the same state, every card in the same place and the same player to act, so the
    actions between could be played again without end; None if no state comes back."""
    seen: dict[GameState, int] = {}
    for i, state in enumerate(states_at(played, "any_step")):
        if state in seen:
            return seen[state], i
        seen[state] = i
    return None


def state_holds(state: Mapping[str, Any], s: GameState) -> bool:
    """Whether one state meets a state condition (its ``at`` aside)."""
    if state.get("same_for_every_seat"):
        counts = per_seat_counts(s, state["count"], state.get("kind"))
        return len(set(counts)) == 1
    rel = relation_of(state)
    if rel is not None:
        other = {**state, **state[rel]}
        mine, theirs = state_count(s, state), state_count(s, other)
        return any(related(a, b, rel) for a in mine for b in theirs)
    counts = [compare(n, state) for n in state_count(s, state)]
    return all(counts) if state.get("seat") == "all" else any(counts)


def event_count(cond: Mapping[str, Any], played: Played) -> int:
    """The events of ``cond``'s name, rule and fields (and, with ``then:``, whose step
    leaves a state that meets it)."""
    then = cond.get("then")
    return sum(1 for _a, events, s in played.steps for e in events
               if event_matches(e, cond, played.config)
               and (then is None or state_holds(then, s)))


KIND_COUNTS: dict[str, frozenset[str]] = {
    name: frozenset(fields)
    for name, fields in specdata.load_yaml("question_vocabulary.yaml")["kind_counts"].items()}
"""The event fields that count each ingredient kind (``baked``'s ``used``, ...): a
condition names some kinds, each with a number or a comparison
(``spec/question_vocabulary.yaml``)."""


def event_matches(event: Event, cond: Mapping[str, Any], config: GameConfig) -> bool:
    if event.name != cond["event"] or cond.get("rule", event.rule) != event.rule:
        return False
    counted = KIND_COUNTS.get(event.name, frozenset())
    for key, want in (cond.get("where") or {}).items():
        got = event.get(key)
        if key in SEAT_FIELDS and isinstance(got, int):
            got = config.colours[got]
        if key == "turned_by":   # some deciding event that turns it meets that condition
            if not any(event_matches(d, want, config) for d in got or ()):
                return False
        elif key in counted:   # each kind named: its number, or a comparison
            if not isinstance(got, Mapping) or \
                    not all(count_holds(int(got.get(k, 0)), w) for k, w in want.items()):
                return False
        elif isinstance(want, Mapping):   # a comparison (a number: taken, cards)
            if not isinstance(got, int) or not compare(got, want):
                return False
        elif got != want:
            return False
    return True


def count_holds(n: int, want: Any) -> bool:
    """A number a condition gives as a number or as a comparison."""
    return compare(n, want) if isinstance(want, Mapping) else n == int(want)


def result_holds(result: Mapping[str, Any], played: Played) -> bool:
    """The game's result (the ``winners`` event at its end), if the part holds it."""
    won = next((e for _a, events, _s in played.steps for e in events
                if e.name == "winners"), None)
    if won is None:
        return False
    seats = [played.config.colours[seat] for seat in won.get("seats")]
    if "winner" in result and result["winner"] not in seats:
        return False
    if "decided_by" in result and result["decided_by"] != won.rule:
        return False
    return "winners" not in result or compare(len(seats), result["winners"])


# ------------------------------------------------------------------- parts


def span(played: Played, where: Mapping[str, Any]) -> Played | None:
    """The part of ``played`` a ``within:`` judges on (None where the game has no such
    part: a round it never reaches, an ``after:`` event that never happens). A round
    runs from its preparation to the next's (:func:`_rounds`); ``turns`` cuts as
    :func:`within`; ``after`` starts right after the first event it names; ``before``
    stops right before it (its step's state, which follows the event, left out)."""
    from dataclasses import replace

    from mammamia_ref.rules.game import new_game

    part: Played | None = played
    if "turns" in where:
        part = within(played, {k: where[k] for k in ("turns", "seat") if k in where})
    if part is not None and ("round" in where or "from_round" in where or "to_round" in where):
        low = where.get("round", where.get("from_round", 1))
        high = where.get("round", where.get("to_round"))
        part = _rounds(part, low, high)
    if part is not None and "after" in where:
        at = _first(where["after"], part)
        part = None if at is None else replace(part, steps=(
            (part.steps[at[0]][0], part.steps[at[0]][1][at[1] + 1:], part.steps[at[0]][2]),
            *part.steps[at[0] + 1:]))
    if part is not None and "before" in where:
        at = _first(where["before"], part)
        if at is not None:
            i, j = at
            # the step's own state follows the event: the part keeps the one before it
            before = part.steps[i - 1][2] if i else new_game(part.config)
            part = replace(part, steps=(*part.steps[:i],
                                        (part.steps[i][0], part.steps[i][1][:j], before)))
    return part


def _rounds(played: Played, low: int, high: int | None) -> Played | None:
    """The events and states of rounds ``low`` to ``high``: a round runs from its
    preparation (the game's setup for the first) to the next round's; the game's end
    belongs to the last."""
    from dataclasses import replace

    from mammamia_ref.rules.game import new_game

    def inside(r: int) -> bool:
        return low <= r and (high is None or r <= high)

    starts = ("leftovers_to_oven", "leftovers_stay")
    r = 1
    if played.steps:
        r = played.steps[0][2].round - any(e.name in starts for e in played.steps[0][1])
    steps: list[tuple[Action | PartOf, tuple[Event, ...], GameState]] = []
    last = new_game(played.config)   # the part's latest state (in the rounds)
    for action, events, state in played.steps:
        kept = []
        for e in events:
            r += e.name in starts
            if inside(r):
                kept.append(e)
        r = state.round
        if inside(state.round):
            last = state
        if kept or inside(state.round):
            # an action that ends a round and prepares the next leaves a state of the next
            # round: the part keeps the one before it
            steps.append((action, tuple(kept), last))
    return replace(played, steps=tuple(steps)) if steps else None


def _first(cond: Mapping[str, Any], played: Played) -> tuple[int, int] | None:
    """Where the first event that meets an event condition stands: (step, event)."""
    then = cond.get("then")
    for i, (_a, events, s) in enumerate(played.steps):
        for j, e in enumerate(events):
            if event_matches(e, cond, played.config) and \
                    (then is None or state_holds(then, s)):
                return i, j
    return None


_ANNOTATED: dict[tuple[int, bool, bool], tuple[Played, Played]] = {}
"""The last games annotated, by identity: a game judged by several conditions (a
question's ``any:`` parts, the conditions of one ruling) is annotated, and replayed in
parts, once."""

_ANNOTATED_KEPT = 4


def annotate(played: Played, *, parts: bool = False, turned: bool = False) -> Played:
    """The game with the fields the language works out added to its events (the
    vocabulary's ``derived_fields``): an order's type, the cards a baked order took, the
    named kind's cards on the table, whether a failed order could have baked, whether
    the Mamma Mia! card drawn was the supply's last card or the round's first card
    drawn. Only judging sees them: the reference's events never carry them. With
    ``parts``, each action is first split into its parts (:func:`in_parts`). With
    ``turned``, a baked or failed order's ``turned_by`` too (:mod:`.turning`: the
    opening replayed with each decision taken otherwise, so only where asked). The same
    game object annotated again is the answer kept (:data:`_ANNOTATED`; games are
    immutable)."""
    key = (id(played), parts, turned)
    kept = _ANNOTATED.get(key)
    if kept is not None and kept[0] is played:
        return kept[1]
    turns = turnings(played.steps, played.config) if turned else None
    out = _annotated(in_parts(played) if parts else played, turns)
    _ANNOTATED[key] = (played, out)
    while len(_ANNOTATED) > _ANNOTATED_KEPT:
        del _ANNOTATED[next(iter(_ANNOTATED))]
    return out


def _annotated(played: Played, turns: Mapping[Key, tuple[Event, ...]] | None) -> Played:
    """:func:`annotate`'s work on one game (``turns``: :func:`.turning.turnings` of it)."""
    from dataclasses import replace

    from mammamia_ref.rules.game import new_game
    from mammamia_ref.rules.oven import could_bake
    from mammamia_ref.rules.vocabulary import KINDS, MAMMA_MIA, ORDERS

    before = new_game(played.config)
    drawn_in_round, steps, opening = 0, [], 0   # supply cards drawn in the round so far
    for action, events, state in played.steps:
        if state.round != before.round:
            drawn_in_round = 0
        out, drawn = [], 0
        for e in events:
            extra: dict[str, Any] = {}
            order = e.get("order")
            if isinstance(order, str) and order in ORDERS:
                extra["order_type"] = ORDERS[order].type
            if e.name == "oven_opened":
                opening += 1
            elif e.name in ("baked", "failed") and turns is not None:
                extra["turned_by"] = turns.get((opening, order), ())
            if e.name == "baked":
                extra["taken"] = taken(e)
            elif e.name == "named_kind":
                extra["on_table"] = before.table[KINDS.index(e.get("kind"))]
            elif e.name == "failed":
                extra["could_bake"] = could_bake(before, e.get("order"))
            elif e.name == "mamma_mia_drawn":
                supply = before.supply
                at = supply.index(MAMMA_MIA) if MAMMA_MIA in supply else -1
                extra["last_card"] = at == len(supply) - 1
                extra["first_card_of_round"] = at == 0 and drawn_in_round == 0
            elif e.name == "drew" and e.get("source") == "supply":
                drawn += int(e.get("count") or 0)
            out.append(replace(e, data=e.data + tuple(extra.items())) if extra else e)
        steps.append((action, tuple(out), state))
        drawn_in_round += drawn
        before = state
    return replace(played, steps=tuple(steps))


def taken(baked: Event) -> int:
    """The ingredient cards a baked order took, from the table and the hand (the
    derived field ``taken``; the measure ``bombastica_cards``)."""
    return sum(baked.get("used").values())


__all__ = [
    "KIND_COUNTS",
    "PartOf",
    "Played",
    "actions",
    "annotate",
    "as_parts",
    "comes_back",
    "compare",
    "compared_event",
    "core",
    "count_holds",
    "event_matches",
    "holds",
    "judged",
    "judged_on",
    "kept_once_met",
    "meets",
    "needs_turning",
    "per_seat_counts",
    "related",
    "result_holds",
    "span",
    "state_count",
    "state_holds",
    "states_at",
    "taken",
    "within",
]
