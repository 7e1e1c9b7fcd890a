"""Query Q24-longest-round (``spec/queries.yaml``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mammamia_ref.queries.catalogue.common import (
    a_game,
    answer_flags,
    built_doc,
    plan_variants,
    players_of,
)
from mammamia_ref.queries.catalogue.construct import Builder, build
from mammamia_ref.queries.catalogue.plans import (
    long_round,
)
from mammamia_ref.queries.catalogue.registry import register
from mammamia_ref.queries.catalogue.results import Verdict
from mammamia_ref.queries.model.proofs import (
    round_length_bound,
)
from mammamia_ref.rules.typed_spec import Stall


def turns_per_round(built: Builder) -> dict[int, int]:
    """How many turns each round of a built game has (a turn: a play or a pass)."""
    from mammamia_ref.rules.actions import Pass, Play

    out: dict[int, int] = {}
    for entry in built.played:
        if isinstance(entry.action, Play | Pass):
            out[entry.state.round] = out.get(entry.state.round, 0) + 1
    return out


@register("Q24-longest-round")
def q24_longest_round(query: Mapping[str, Any], answer: Mapping[str, Any]) -> Verdict:
    """stall=cut: a plan's long round against the potential bound of
    :func:`.proofs.round_length_bound`; stall=letter: no longest round, answered by
    Q24's question file (a position comes back and the round's turns rise each time the
    actions between are played again: :mod:`..answering.unending`)."""
    v = answer_flags(answer)
    players = players_of(answer)
    if v.stall == Stall.LETTER:   # its question file's: "unbounded", a round for ever
        from mammamia_ref.queries.catalogue.by_question import answer_by_question

        return answer_by_question(query, answer)
    built = build(long_round, players, plan_variants(answer))
    lengths = turns_per_round(built)
    longest = max(lengths, key=lambda r: (lengths[r], -r))
    upper, proof = round_length_bound(players, v)
    ends = [i for i, e in built.events("round_ended") if e.get("round") == longest]
    doc = built_doc(query, answer, built, f"A round of {lengths[longest]} turns "
                    f"({players} players)",
                    f"{a_game(players)}. In the first round red's Bombastica takes every "
                    "ingredient card (as in Q22), so the second round's supply holds them "
                    "all and no hand holds one. In the second round red alone moves cards, "
                    "one a turn: it passes and draws one card from the supply, then plays "
                    "it and draws from its empty waiter, nothing; every other turn is a "
                    "quiet pass, one short of a stalled cycle. Each supply card so takes "
                    f"{2 * players} turns; the round lasts {lengths[longest]} turns and ends "
                    "by the stall rule when only the Mamma Mia! card is left.",
                    ["round_end.stall", "turn.pass", "turn.draw_short", "oven.bombastica"],
                    {ends[0]: {"events": [{"event": "round_ended", "rule": "round_end.stall",
                                           "round": longest}]}})
    return Verdict("value", value=lengths[longest], upper=upper if proof.holds else None,
                   witness=doc, evidence="game", upper_evidence="ranking",
                   detail=f"rounds of {', '.join(str(lengths[r]) for r in sorted(lengths))} "
                   f"turns; proved the most: {upper} ("
                   + ", ".join(f"{k} {r}" for k, r in proof.cases.items()) + ")")
