"""Query Q07-round-forever (``spec/queries.yaml``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mammamia_ref.queries.catalogue.builders import game_doc, search_game, turn_end
from mammamia_ref.queries.catalogue.common import answer_flags, by_plan, players_of, red_only
from mammamia_ref.queries.catalogue.planned import repetition_planned
from mammamia_ref.queries.catalogue.registry import register
from mammamia_ref.queries.catalogue.results import Verdict
from mammamia_ref.queries.model import num as N
from mammamia_ref.queries.model.decode import Replay
from mammamia_ref.queries.model.game_model import GameModel
from mammamia_ref.queries.model.proofs import (
    first_rounds,
    prove_turns_terminate,
)
from mammamia_ref.rules.typed_spec import Stall


@register("Q07-round-forever")
def q07_round_forever(query: Mapping[str, Any], answer: Mapping[str, Any]) -> Verdict:
    v = answer_flags(answer)
    if v.stall == Stall.CUT:
        proof = prove_turns_terminate(int(answer.get("players", 2)), v)
        return Verdict("unsat" if proof.holds else "sat", evidence="ranking",
                       detail="ranking function (cards in hands, supply and waiters; cards in "
                              "supply and waiters; quiet turns left) decreases at every turn: "
                              + ", ".join(f"{k} {r}" for k, r in proof.cases.items()))

    if by_plan(answer):
        return repetition_planned(query, answer)

    def goal(m: GameModel) -> Any:
        t = len(m.S)
        return N.Or(*[N.And(*[x == y for x, y in zip(m.S[i].position(), m.S[j].position(),
                                                     strict=True)])
                      for i in range(1, t) for j in range(i + 1, t)])

    players = players_of(answer)
    found = search_game(players, v, [(t,) for t in first_rounds(players, 2)], goal,
                        orders=red_only(players), open_last=True)
    if found is None:
        return Verdict("unsat", detail=f"no repetition within {4 * players} turns")
    model, zm = found
    t = len(model.S)
    i, j = next((i, j) for i in range(1, t) for j in range(i + 1, t)
                if all(N.value(zm, x) == N.value(zm, y)
                       for x, y in zip(model.S[i].position(), model.S[j].position(), strict=True)))

    def expects(played: Replay) -> dict[int, dict[str, Any]]:
        from mammamia_ref.formats.jsonform import format_state

        a, b = turn_end(played, i - 1), turn_end(played, j - 1)
        state = format_state(played.played[a].state)
        keys = ("players", "phase", "step", "current", "round", "supply", "oven", "table",
                "used", "mamma_mia", "played", "quiet_turns", "reveal")
        projection = {k: state[k] for k in keys}
        return {a: {"state": projection}, b: {"state": projection}}

    def notes(played: Replay) -> dict[int, str]:
        return {turn_end(played, j - 1): "the position after turn "
                f"{i} has come back: these {j - i} turns can repeat for ever"}

    doc = game_doc(query, answer, model, zm, "A round that never ends (stall=letter)",
                   f"Both players empty their hands of ingredients and fill them with orders; "
                   f"from then on every turn is a pass that draws nothing. The position after "
                   f"turn {i} comes back after turn {j}, and under the letter of the rules "
                   "nothing ends the round.", ["turn.pass", "turn.draw_short",
                                               "round_end.last_card"], expects, notes)
    return Verdict("sat", witness=doc, detail=f"position after turn {i} = after turn {j}")
