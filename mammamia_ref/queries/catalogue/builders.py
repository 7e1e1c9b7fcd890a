"""The witness builders: games from the setup found by the z3 game model,
openings lifted to whole games, and position-level witnesses of the oven model."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import z3

from mammamia_ref.errors import InternalError
from mammamia_ref.queries.answering.witness import action_steps
from mammamia_ref.queries.catalogue.common import base_doc
from mammamia_ref.queries.model import num as N
from mammamia_ref.queries.model.decode import Replay, decode, replay
from mammamia_ref.queries.model.flags import FlagValues
from mammamia_ref.queries.model.game_model import GameModel
from mammamia_ref.queries.model.oven_rules import (
    NK,
    NO_KIND,
    Decision,
)
from mammamia_ref.queries.model.proofs import can_end
from mammamia_ref.rules.vocabulary import (
    KINDS,
)

# --------------------------------------------------------------- game witnesses


def search_game(players: int, variants: FlagValues, schedules: Iterable[Sequence[int]],
                goal: Callable[[GameModel], Any], *,
                orders: Mapping[int, Sequence[str]] | None = None, open_last: bool = False,
                **hints: Any) -> tuple[GameModel, z3.ModelRef] | None:
    """The first schedule (in the order given) under which a run reaches ``goal``.
    Schedules whose first round cannot end when they say are skipped at once (up to
    :data:`PRECHECKED` players: see :func:`can_end`)."""
    for schedule in schedules:
        if not (open_last and len(schedule) == 1) and \
                not can_end(players, variants, schedule[0]):
            continue
        model = GameModel(players, variants, schedule=tuple(schedule), open_last=open_last,
                          orders=orders, **hints)
        result, zm = N.check([*model.constraints, goal(model)])
        if zm is not None:
            return model, zm
        if result != z3.unsat:   # pragma: no cover - z3 gave up
            raise InternalError(f"z3 answered {result} for schedule {schedule}")
    return None


def game_doc(query: Mapping[str, Any], answer: Mapping[str, Any], model: GameModel,
             zm: z3.ModelRef, title: str, description: str, rules: Sequence[str],
             expects: Callable[[Replay], Mapping[int, Mapping[str, Any]]],
             notes: Callable[[Replay], Mapping[int, str]] | None = None,
             beyond: Mapping[str, str] | None = None) -> dict[str, Any]:
    """A witness from the setup: every shuffle and decision of the model's run
    (replayed with ``beyond``: values of flags the model leaves to the query)."""
    played = replay(decode(model, zm, beyond))
    doc = base_doc(query, answer, title, description, rules)
    doc["given"] = {"setup": {"players": model.n, "first_player": model.first}}
    doc["steps"] = action_steps(played.actions, expects(played),
                                notes(played) if notes else None)
    return doc


def turn_end(played: Replay, step: int) -> int:
    """The index of the last action of the model's turn step ``step``."""
    return max(i for i, p in enumerate(played.played) if p.model_step == step)


# ------------------------------------------------- openings lifted to whole games


@dataclass
class AltReveal:
    """One reveal of the first opening under a second set of owners' decisions."""

    step: Any            # the model's reveal step it shadows
    sel: Any
    facts: dict[str, Any]


def alternative_opening(model: GameModel) -> tuple[list[AltReveal], list[Any]]:
    """The first opening of ``model`` again, the same cards revealed in the same order,
    with decisions of its own: to compare two choices of the owners in one game."""
    from mammamia_ref.queries.model.game_model import Selectors

    out, constraints = [], []
    with N.building(model.ctx):
        reveals = [s for s in model.of("reveal") if s.round == 1]
        state = model.S[reveals[0].before]
        for step in reveals:
            sel = Selectors.fresh(f"{model.p}_alt{step.index}")
            state, facts, legal = model.reveal(state, sel, step.facts["block"])
            constraints.append(legal)
            out.append(AltReveal(step, sel, facts))
    return out, constraints


def same_decision(x: Decision, y: Decision) -> Any:
    return N.And(x.named == y.named, x.complete == y.complete,
                 *[p == q for p, q in zip(x.take, y.take, strict=True)])


def alternative_trace(trace: Any, alts: Sequence[AltReveal], zm: z3.ModelRef) -> Any:
    """``trace`` (round 1 only) with the owners' decisions of ``alts``."""
    import dataclasses

    from mammamia_ref.queries.model.decode import RevealChoice

    by_step = {a.step.index: a for a in alts}
    steps = []
    for choice in trace.steps:
        alt = by_step.get(choice.step) if isinstance(choice, RevealChoice) else None
        if alt is None:
            steps.append(choice)
            continue
        named = N.value(zm, alt.sel.decision.named)
        steps.append(dataclasses.replace(
            choice, named=None if named == NO_KIND else KINDS[named],
            complete=N.truth(zm, alt.sel.decision.complete),
            take=tuple(N.value(zm, x) for x in alt.sel.decision.take),
            baked=N.truth(zm, alt.facts["baked"]),
            from_hand=tuple(N.value(zm, x) for x in alt.facts["from_hand"])))
    return dataclasses.replace(trace, steps=steps, supplies=trace.supplies[:1])


def game_runs_doc(query: Mapping[str, Any], answer: Mapping[str, Any], model: GameModel,
                  traces: Sequence[tuple[str, Any]], title: str, description: str,
                  rules: Sequence[str], expects: Callable[[int, Replay], Mapping[int, Any]]
                  ) -> dict[str, Any]:
    """A witness from the setup with several runs: one game, the owners deciding
    differently at its first opening (each run stops when the round is resolved)."""
    doc = base_doc(query, answer, title, description, rules)
    doc["given"] = {"setup": {"players": model.n, "first_player": model.first}}
    variants = doc.pop("variants", {})
    doc["runs"] = []
    for r, (name, trace) in enumerate(traces):
        played = replay(trace)
        doc["runs"].append({"name": name, "variants": variants,
                            "steps": action_steps(played.actions, expects(r, played))})
    return doc


def first_round_only(trace: Any) -> Any:
    import dataclasses

    return dataclasses.replace(trace, supplies=trace.supplies[:1])


# --------------------------------------------------------------- oven witnesses


def all_hands_table(in_play: int = 13) -> tuple[list[Any], list[Any], Decision, list[Any]]:
    """Symbolic table, hand and decisions for statements about every opening."""
    table = [N.Int(f"all_table{k}") for k in range(NK)]
    hand = [N.Int(f"all_hand{k}") for k in range(NK)]
    decision = Decision.fresh("all")
    domain = [*[N.And(t >= 0, t <= in_play) for t in table],
              *[N.And(h >= 0, h + t <= in_play) for h, t in zip(hand, table, strict=True)],
              N.Sum(hand) <= 7]
    return table, hand, decision, domain


def two_decisions(players: int, v: FlagValues,
                  differs: Callable[..., Any], *,
                  orders: Mapping[int, Sequence[str]] | None, pairs: bool = False,
                  turns: Iterable[int] = range(1, 9), names: Sequence[str] = ("decline", "complete")
                  ) -> tuple[GameModel, z3.ModelRef, list[tuple[str, Any]], tuple[int, int]] | None:
    """One game to its first opening, resolved twice: the owners decide alike at every
    reveal but reveal ``t`` (and ``u``, with ``pairs``: ``differs(t, u, ...)`` then),
    where ``differs`` holds. Returns the model, z3's model, the two round-1 traces
    named by ``names`` (``None`` names: the named kinds), and (t, u)."""
    for n_turns in turns:
        if not can_end(players, v, n_turns):
            continue
        model = GameModel(players, v, schedule=(n_turns,), orders=orders)
        with N.building(model.ctx):
            alts, legal = alternative_opening(model)
            a = [step for step in model.of("reveal") if step.round == 1]
            b = [AltReveal(step, step.sel, step.facts) for step in a]
            options: list[Any] = []
            index: dict[int, tuple[int, int]] = {}
            for t in range(len(a)):
                for u in (range(t + 1, len(a)) if pairs else (t,)):
                    same = [same_decision(b[x].sel.decision, alts[x].sel.decision)
                            for x in range(len(a)) if x != t]
                    cond = differs(t, b, alts) if not pairs else differs(t, u, b, alts)
                    index[len(options)] = (t, u)
                    options.append(N.And(*same, cond))
        result, zm = N.check([*model.constraints, *legal, N.Or(*options)])
        if zm is not None:
            chosen = next(i for i, o in enumerate(options) if N.truth(zm, o))
            trace = first_round_only(decode(model, zm))
            traces = [(names[0], trace), (names[1], alternative_trace(trace, alts, zm))]
            return model, zm, traces, index[chosen]
        if result != z3.unsat:   # pragma: no cover - z3 gave up
            raise InternalError(f"z3 answered {result} for a first round of {n_turns} turns")
    return None
