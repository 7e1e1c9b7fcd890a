"""Naming the rules behind a divergence: the decision the reference waits for, in words,
the parts of the state each event changes, a state difference reported position first,
and the rules ranked by the part that differs."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from mammamia_ref.formats.event_register import touches
from mammamia_ref.formats.jsonform import format_state
from mammamia_ref.kit.compare import short
from mammamia_ref.rules import scoring
from mammamia_ref.rules.game import (
    chance_pile,
    decision_rule,
    is_chance,
    is_over,
)
from mammamia_ref.rules.ruleset import parameter_specs
from mammamia_ref.rules.specdata import variant_flags
from mammamia_ref.rules.state import GameState, variant_defaults
from mammamia_ref.rules.typed_spec import CardCounts, OvenMemory, UsedPile
from mammamia_ref.rules.vocabulary import ORDERS


def pending_rule(state: GameState) -> str:
    """The rule of the decision the reference waits for: a Bombastica's completion is
    judged by ``oven.bombastica`` (its rule of refusal too), any other by the decision's
    own rule."""
    if state.phase == "oven" and state.step == "complete" and state.reveal is not None \
            and ORDERS[state.reveal.order].type == "bombastica":
        return "oven.bombastica"
    return decision_rule(state)


def pending_in_words(state: GameState) -> str:
    """What the reference waits for after a step, said in words."""
    if is_over(state):
        return "the game is over"
    if is_chance(state):
        return f"the {chance_pile(state)[0]} pile must be shuffled (the runner sends the order)"
    colour = state.colour(state.current)
    what = {"play": "play ingredients (or pass)", "order": "place an order (or not)",
            "draw": "draw", "name_kind": "name a kind for the revealed order",
            "complete": "complete the revealed order from hand (or decline)"}
    return f"{colour} must {what.get(state.step, state.step)} ({pending_rule(state)})"


def rules_in_force(rules: Iterable[str], variants: dict[str, str]) -> tuple[str, ...]:
    """``rules`` without those of a ruling not chosen: a non-default value's rule (in
    ``spec/disputes.yaml``) is in force only under that value."""
    chosen = {**variant_defaults(), **variants}
    idle = {value["rule"] for flag in variant_flags() for value in flag["values"]
            if value["value"] != flag["default"] and chosen.get(flag["flag"]) != value["value"]
            and value.get("rule")}
    return tuple(rule for rule in rules if rule not in idle)


# A state's position: where the game stands, what is pending. A report leads with these
# and never cuts them; a divergence of the position is named by the pending decision.
POSITION = ("phase", "step", "current", "reveal")
# The piles gathered anew at a round's end: not compared across different rounds.
ROUND_PILES = ("supply", "oven", "table", "used")
# The rules behind a part of the state that no event of the step explains (a new game's
# state, a finished game's result).
_PART_RULES = {"box": ("setup.trim",), "waiter": ("setup.waiter",),
               "mamma_mia": ("mamma_mia.dealt",), "supply": ("setup.supply",),
               "hand": ("setup.deal",)}
MAX_FIELDS = 12


def _part(problem: str) -> str:
    """The top-level part of the state a difference is in (``/players/red/waiter/..``
    is ``waiter``)."""
    steps = problem.split(":", 1)[0].strip("/").split("/")
    if steps[0] == "players" and len(steps) > 2:
        return steps[2]
    return steps[0]


def _rank(problem: str) -> int:
    part = _part(problem)
    return POSITION.index(part) if part in POSITION else \
        len(POSITION) if part == "result" else len(POSITION) + 1


def _position(doc: dict[str, Any]) -> tuple[Any, ...]:
    return tuple(doc.get(key) for key in POSITION)


def went_on(state: GameState, actual: dict[str, Any]) -> bool:
    """Whether the port went on past the decision (or shuffle) the reference waits for:
    its position differs, and it is not itself waiting at an oven decision (there it
    stopped short, and the reference's own steps name the rule)."""
    if is_over(state) or _position(actual) == _position(format_state(state)):
        return False
    return not (actual.get("phase") == "oven" and state.phase != "oven")


def stop_in_words(state: GameState, actual: dict[str, Any]) -> str:
    """The reference's stop and the port's going on, said in words."""
    where = ", ".join(f"{key} {short(actual.get(key))}" for key in POSITION[:3])
    if is_chance(state):
        return f"the reference stops here: {pending_in_words(state)}; the port went on " \
            f"({where})"
    who = "the owner's" if state.phase == "oven" else f"{state.colour(state.current)}'s"
    return (f"the reference stops here and waits for {who} decision: "
            f"{pending_in_words(state)}; the port went on without it ({where})")


def state_report(state: GameState, actual: dict[str, Any], expected: dict[str, Any],
                 problems: list[str]) -> list[str]:
    """A state difference as reported: the position first and never cut, the stop in
    words where the port went on past the reference's decision, no pile diffed across
    a round's end that the port skipped, then at most :data:`MAX_FIELDS` other fields."""
    ranked = sorted(problems, key=_rank)
    lines = [stop_in_words(state, actual)] if went_on(state, actual) else []
    lines += [f"state{p}" for p in ranked if _part(p) in POSITION]
    rest = [p for p in ranked if _part(p) not in POSITION]
    ours, theirs = expected.get("round"), actual.get("round")
    if ours != theirs and type(theirs) is int and type(ours) is int:
        skipped = [p for p in rest if _part(p) in ROUND_PILES]
        rest = [p for p in rest if _part(p) not in ROUND_PILES]
        how = f"the port skipped the end of round {theirs}" if theirs < ours else \
            f"the port ended round {ours}, which the reference has not ended"
        lines.append(f"the port is in round {theirs}, the reference in round {ours}: {how}; "
                     f"the piles of different rounds are not compared "
                     f"({len(skipped)} field{'s' if len(skipped) != 1 else ''}: "
                     f"{', '.join(dict.fromkeys(_part(p) for p in skipped)) or 'none'})")
    lines += [f"state{p}" for p in rest[:MAX_FIELDS]]
    if len(rest) > MAX_FIELDS:
        lines.append(f"and {len(rest) - MAX_FIELDS} more field"
                     f"{'s' if len(rest) - MAX_FIELDS > 1 else ''}")
    return lines


def ranked_rules(state: GameState, actual: dict[str, Any], problems: list[str],
                 rules: Iterable[str], events: Sequence[dict[str, Any]] = (), *,
                 fresh: bool = False) -> tuple[str, ...]:
    """The rules named for a state difference, by the part of the state that differs
    (the parts each event changes: ``touches`` of spec/events.yaml):
    the reference's pending decision first where the port went on past it, the deciding
    rule of a result, then for each differing part (in report order) the rules of the
    step's events that change it (in a ``fresh`` game, the rule that sets it up), then
    the step's rules."""
    named = [pending_rule(state)] if went_on(state, actual) else []
    for problem in sorted(problems, key=_rank):
        part = _part(problem)
        if part == "result" and is_over(state):
            named += [scoring.winners(state)[1], "game_end.three_resolutions"]
        if part == "parameters":  # the rules the differing numbers are numbers of
            ours = state.rules.non_default_parameters()
            named += [entry["rule"] for name, entry in parameter_specs().items()
                      if name in ours or name in problem]
        touching = [e["rule"] for e in events
                    if part in touches().get(e.get("event", ""), ())]
        named += touching or list(_PART_RULES.get(part, ()) if fresh else ())
    return tuple(dict.fromkeys((*named, *rules)))


def information_rules(problems: list[str], state: GameState) -> list[str]:
    """The information rules behind differences in an observation, by the keys named."""
    v = state.flags
    parts = {
        "/hand": ["information.hands"],
        "/oven": ["information.oven_seen" if v.oven_memory == OvenMemory.SEEN
                  else "information.oven_announced"],
        "_size": ["information.counts" if v.card_counts == CardCounts.PUBLIC
                  else "information.counts_hidden"],
        "/used": ["information.used_open" if v.used_pile == UsedPile.OPEN
                  else "information.used_closed"],
    }
    rules = [rule for part, named in parts.items() if any(part in p for p in problems)
             for rule in named]
    return list(dict.fromkeys(rules or ["information.face_up"]))
