"""The witness builders: games from the setup found by the z3 game model, and
position-level witnesses of the oven model."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
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
    Decision,
)
from mammamia_ref.queries.model.proofs import can_end

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
