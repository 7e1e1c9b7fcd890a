"""A question's sketch: part of a game, given, for the game model to fill in.

A designer who believes a game exists often knows its outline: "red starts every round
and places an order on each of its turns; the others place none; rounds of 6, 6 and 4
turns". Said as ``sketch:``, that outline narrows what z3 looks for (as a partial
instance narrows an Alloy or Kodkod search): the game model is asked for the question's
condition on the sketch's rounds, seats and orders alone, and fills in the shuffles, the
plays, the draws and the rest. A sketch is a lead, never a bound: a game it finds is
replayed by the reference and judged by the question like any other, and "no game of
the sketch" says nothing about the question (the answer never turns it into "none").

    sketch:
      - players: 2
        rounds: [6, 6, 4]            # the turns of each round; every round ends
        starts: [red, red, red]      # who starts each round (optional)
        places:                      # a colour's orders, round by round, one on each
          red: [[minimale, pineapple4, bombastica], [mushroom4, pepper4, one_of_each],
                [olive4, monotoni]]  # of its first turns of the round (none: no order
                                     # that turn), none on the rest
        may_place: {yellow: []}      # the only orders a colour may place (optional)
        aim: 8                       # a most: / fewest:'s value to ask the sketch for
                                     # (optional: the proved bound by default)
        variants: {round_end: last_card}   # the cells it is one of (optional: every one)

A sketch may also say what its rounds must make (``holds:``, a condition as a
``find:``'s, asked of the game model instead of the question's condition or aim) and
how the game goes on after them (``then:``, a policy, ``random`` by default): Q24's
longest round is a first round in which a Pizza Bombastica takes every card and red
keeps five orders, found by z3 with the next round's supply, then a round that
``slow:red`` plays (:mod:`mammamia_ref.sim.slowing`).

``seated:`` (optional) gives the colours clockwise (the player count's first colours by
default); the first player is ``starts:``' first colour, else the first seated.
``places:`` needs ``starts:``, since a colour's turns are counted from each round's
first; a round it does not reach (``places:`` shorter than ``rounds:``) places none.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from mammamia_ref.formats.limits import excerpt
from mammamia_ref.rules.ruleset import Rules
from mammamia_ref.rules.vocabulary import COLOURS, ORDERS_OF

Fail = Callable[[str, str], Exception]
"""How a check refuses a sketch: (JSON pointer, message) to the question's error."""

CheckCondition = Callable[[Any, str], None]
"""How a check reads a condition of the question language (``holds:``): the question's
own checks, raising its error at the condition's line."""

CheckVariants = Callable[[Any, str], dict[str, tuple[str, ...]]]
"""How a check reads flag values (``variants:``): the question's own check of its
``variants:``, at the sketch's pointer."""


NONE = "none"
"""In ``places:``, the turn on which the colour places no order."""

TURNS_MOST = 100
"""The most turns a sketch's rounds may add up to: the game model's work grows with
them (a first round of 36 turns at 5 players takes minutes of CPU)."""


@dataclass(frozen=True)
class Sketch:
    """One sketch of a question, for one player count (see the module's docstring)."""

    players: int
    rounds: tuple[int, ...]
    seated: tuple[str, ...]
    starts: tuple[str, ...] | None = None
    places: Mapping[str, tuple[tuple[str, ...], ...]] | None = None
    may_place: Mapping[str, tuple[str, ...]] | None = None
    aim: int | None = None
    variants: Mapping[str, tuple[str, ...]] | None = None
    holds: Mapping[str, Any] | None = None
    then: str = "random"

    def applies(self, rules: Rules) -> bool:
        """Whether the sketch is one of a cell under ``rules``: every flag it names has
        one of its values (a sketch without ``variants:`` is one of every cell)."""
        flags = rules.as_dict()
        return all(flags.get(flag) in values for flag, values in (self.variants or {}).items())

    def turns_of(self, colour: str, r: int) -> list[int]:
        """The turns (0 on) of round ``r`` (1 on) that ``colour`` takes: only where the
        sketch says who starts the round."""
        if self.starts is None:
            return []
        first, seat = self.seated.index(self.starts[r - 1]), self.seated.index(colour)
        return [j for j in range(self.rounds[r - 1]) if (first + j) % self.players == seat]

    def model_hints(self) -> dict[str, Any]:
        """The game model's arguments (:class:`..model.game_model.GameModel`): the
        schedule, the seating, who starts each round, the orders each seat may place
        and which one (or none) each turn the sketch fixes places."""
        places = self.places or {}
        allowed = {s: list(ORDERS_OF[c]) for s, c in enumerate(self.seated)}
        plan: dict[tuple[int, int], str | None] = {}
        for colour, by_round in places.items():
            seat = self.seated.index(colour)
            allowed[seat] = sorted({f"{colour}.{k}" for keys in by_round for k in keys
                                    if k != NONE})
            for r in range(1, len(self.rounds) + 1):
                keys = by_round[r - 1] if r <= len(by_round) else ()
                for i, j in enumerate(self.turns_of(colour, r)):
                    plan[r, j] = f"{colour}.{keys[i]}" if i < len(keys) and \
                        keys[i] != NONE else None
        for colour, keys in (self.may_place or {}).items():
            allowed[self.seated.index(colour)] = [f"{colour}.{k}" for k in keys]
            for r in range(1, len(self.rounds) + 1):   # none: said turn by turn too
                plan.update({(r, j): None for j in self.turns_of(colour, r) if not keys})
        starts = None if self.starts is None else \
            tuple(self.seated.index(c) for c in self.starts)
        return {"schedule": self.rounds, "colours": self.seated,
                "first_player": starts[0] if starts else 0, "starts": starts,
                "orders": allowed, "plan": plan}

    def text(self) -> str:
        """The sketch in words, for an answer's ``found by`` and ``tried``."""
        parts = ["rounds of " + ", ".join(str(t) for t in self.rounds) + " turns",
                 ", ".join(self.seated) + " clockwise"]
        if self.starts is not None:
            parts.append("starting: " + ", ".join(self.starts))
        for colour, by_round in (self.places or {}).items():
            parts.append(f"{colour} places " + " / ".join(", ".join(keys) or "none"
                                                         for keys in by_round))
        for colour, keys in (self.may_place or {}).items():
            parts.append(f"{colour} may place " + (", ".join(keys) or "none"))
        if self.aim is not None:
            parts.append(f"aimed at {self.aim}")
        if self.holds is not None:
            parts.append("its rounds as its holds: says")
        if self.then != "random":
            parts.append(f"then {self.then}")
        for flag, values in (self.variants or {}).items():
            parts.append(f"{flag}={'/'.join(values)}")
        return "; ".join(parts)


def check_sketches(raw: Any, fail: Fail, goal: str = "find",
                   check_condition: CheckCondition | None = None,
                   check_variants: CheckVariants | None = None
                   ) -> dict[int, tuple[Sketch, ...]]:
    """The ``sketch:`` list of a question file, checked, by player count (every sketch
    of a count is tried in the order written; one of a count the question does not ask
    is never used, so that narrowing ``players:`` needs no other edit); ``fail`` makes
    the question's error."""
    if raw is None:
        return {}
    if not isinstance(raw, list) or not raw:
        raise fail("/sketch", "sketch: a list of sketches, each with players: and rounds:")
    out: dict[int, list[Sketch]] = {}
    for i, each in enumerate(raw):
        sketch = _check_one(each, f"/sketch/{i}", fail, check_variants)
        if sketch.holds is not None and check_condition is not None:
            check_condition(sketch.holds, f"/sketch/{i}/holds")
        if sketch.aim is not None and goal == "find":
            raise fail(f"/sketch/{i}/aim", "aim: is a most:'s or fewest:'s value to ask "
                       "the sketch for; a find: asks for its condition")
        out.setdefault(sketch.players, []).append(sketch)
    return {n: tuple(sketches) for n, sketches in out.items()}


_KEYS = ("players", "rounds", "seated", "starts", "places", "may_place", "aim", "variants",
         "holds", "then")


def _check_one(raw: Any, at: str, fail: Fail, check_variants: CheckVariants | None
               ) -> Sketch:
    if not isinstance(raw, dict):
        raise fail(at, "a sketch is a mapping: players:, rounds: and the optional "
                   + ", ".join(_KEYS[2:]))
    for key in raw:
        if key not in _KEYS:
            raise fail(f"{at}/{key}", f"unknown key {excerpt(key)}; a sketch has "
                       + ", ".join(_KEYS))
    players = raw.get("players")   # a count the question does not ask is kept unused
    if "players" not in raw:
        raise fail(at, "players: missing: the player count the sketch is for (2 to 5)")
    if type(players) is not int or not 2 <= players <= 5:
        raise fail(f"{at}/players", f"players: {excerpt(players)} is not a player count "
                   "(2 to 5)")
    rounds = raw.get("rounds")
    if not isinstance(rounds, list) or not rounds or \
            any(type(t) is not int or t < (1 if k == 0 else 0) for k, t in enumerate(rounds)):
        raise fail(f"{at}/rounds", "rounds: a list of the turns of each round, the first "
                   "1 or more (a later round may have none where the rules allow it)")
    if sum(rounds) > TURNS_MOST:
        raise fail(f"{at}/rounds", f"rounds: {sum(rounds)} turns in all, more than the "
                   f"{TURNS_MOST} a sketch may ask the game model for")
    seated = _colours(raw.get("seated", list(COLOURS[:players])), f"{at}/seated", fail)
    if len(seated) != players or len(set(seated)) != players:
        raise fail(f"{at}/seated", f"seated: {players} different colours, clockwise")
    starts = None
    if "starts" in raw:
        starts = _colours(raw["starts"], f"{at}/starts", fail, seated)
        if len(starts) != len(rounds):
            raise fail(f"{at}/starts", f"starts: one colour for each of the {len(rounds)} "
                       "rounds")
    places = _orders(raw.get("places"), f"{at}/places", seated, fail, nested=True)
    if places and starts is None:
        raise fail(f"{at}/places", "places: needs starts: (a colour's turns are counted "
                   "from each round's first)")
    may = _orders(raw.get("may_place"), f"{at}/may_place", seated, fail, nested=False)
    both = sorted(set(places or {}) & set(may or {}))
    if both:
        raise fail(f"{at}/may_place/{both[0]}", f"{both[0]}'s orders are already fixed by "
                   "places:")
    aim = raw.get("aim")
    if aim is not None and (type(aim) is not int or aim < 0):
        raise fail(f"{at}/aim", "aim: a whole number, the measure a most: or fewest: asks "
                   "the sketch to reach (the proved bound by default)")
    then = raw.get("then", "random")
    _check_table(then, f"{at}/then", fail)
    if "holds" in raw and not isinstance(raw["holds"], dict):
        raise fail(f"{at}/holds", "holds: a condition (as a find:'s) the sketch's rounds meet")
    sketch = Sketch(players, tuple(rounds), seated, starts,
                    {c: tuple(tuple(r) for r in v) for c, v in (places or {}).items()} or None,
                    {c: tuple(v) for c, v in (may or {}).items()} or None, aim,
                    None if raw.get("variants") is None or check_variants is None
                    else check_variants(raw["variants"], f"{at}/variants"), raw.get("holds"),
                    then)
    for colour, by_round in (sketch.places or {}).items():
        if len(by_round) > len(rounds):
            raise fail(f"{at}/places/{colour}", f"places: {len(by_round)} rounds of orders "
                       f"for a sketch of {len(rounds)} rounds")
        for r, keys in enumerate(by_round, start=1):
            twice = sorted({k for k in keys if k != NONE and keys.count(k) > 1})
            if twice:   # an order on the oven stays there until the opening
                raise fail(f"{at}/places/{colour}/{r - 1}", f"{colour}.{twice[0]} twice in "
                           f"round {r}: an order placed stays on the oven until it opens")
            turns = len(sketch.turns_of(colour, r))
            if len(keys) > turns:
                raise fail(f"{at}/places/{colour}/{r - 1}", f"{len(keys)} orders for "
                           f"{colour} in round {r}, which gives it {turns} turns")
    return sketch


def _check_table(name: Any, at: str, fail: Fail) -> None:
    """``then:``: a policy the reference plays on with (``mammamia simulate``'s names)."""
    from mammamia_ref.sim.policies import UnknownPolicyError, get_policy

    if not isinstance(name, str):
        raise fail(at, "then: the name of a policy (random, careful, slow:COLOUR, ...)")
    try:
        get_policy(name)
    except UnknownPolicyError as exc:
        raise fail(at, f"then: {exc}") from None


def sketches_for(question_sketches: Mapping[int, tuple[Sketch, ...]], players: int,
                 rules: Rules) -> tuple[Sketch, ...]:
    """A cell's sketches: those of its player count that apply under its rules."""
    return tuple(s for s in question_sketches.get(players, ()) if s.applies(rules))


def _colours(raw: Any, at: str, fail: Fail, seated: Sequence[str] = COLOURS
             ) -> tuple[str, ...]:
    if not isinstance(raw, list) or any(c not in seated for c in raw):
        raise fail(at, "a list of colours, each one of " + ", ".join(seated))
    return tuple(raw)


def _orders(raw: Any, at: str, seated: Sequence[str], fail: Fail, nested: bool
            ) -> dict[str, Any] | None:
    """A map of colour to its orders' keys (``places:`` round by round)."""
    if raw is None:
        return None
    if not isinstance(raw, dict):
        raise fail(at, "a map of colour to " + ("a list, round by round, of lists of "
                                                "order keys" if nested else "order keys"))
    for colour, lists in raw.items():
        if colour not in seated:
            raise fail(f"{at}/{colour}", f"{excerpt(colour)} is not seated: "
                       + ", ".join(seated))
        if nested and not isinstance(lists, list):
            raise fail(f"{at}/{colour}", "a list, round by round, of lists of order keys")
        keys = {o.split(".", 1)[1] for o in ORDERS_OF[colour]} | ({NONE} if nested else set())
        for k, each in enumerate(lists if nested else [lists]):
            where = f"{at}/{colour}/{k}" if nested else f"{at}/{colour}"
            if not isinstance(each, list) or any(o not in keys for o in each):
                raise fail(where, f"a list of {colour}'s order keys: " + ", ".join(sorted(keys)))
    return raw


__all__ = ["NONE", "TURNS_MOST", "Sketch", "check_sketches", "sketches_for"]
