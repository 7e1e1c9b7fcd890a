"""z3's Horn-clause engine (Spacer) on the game model's transition relation, beside the
unbounded proof's 1-induction (:mod:`..queries.answering.unbounded`): the measurement
behind docs/questions.md's choice of 1-induction.

The clauses: the state after the setup is reachable (:func:`..queries.model.free_steps
.setup_state`); a turn, a reveal or a round's preparation from a reachable state
(:func:`..queries.model.free_steps.free_step`, well-formed, as the proof assumes, since
well-formedness is proved inductive) reaches its state after; the query: a reachable
state whose count reaches ``at_least`` (both readings of a round's leftovers, as the
proof). Spacer looks for the strengthening itself; the states inside a step, which the
proof covers too, are left out here.

    python -m mammamia_ref.tools.horn_trial --count waiter --at-least 9 --seconds 120
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import z3

from mammamia_ref.queries.language.conditions import state_counts
from mammamia_ref.queries.language.questions import STATE_KEYS
from mammamia_ref.queries.model import num as N
from mammamia_ref.queries.model.free_steps import free_step, setup_state
from mammamia_ref.queries.model.game_terms import State
from mammamia_ref.rules.ruleset import Rules, make_rules
from mammamia_ref.rules.typed_spec import Leftovers


@dataclass(frozen=True)
class HornResult:
    """Spacer's answer: ``unsat`` (no reachable state reaches the count: proved),
    ``sat`` (one does), or ``unknown`` (its time ran out), and the CPU it took."""

    verdict: str
    cpu: float


def horn_trial(count: str, at_least: int, players: int, rules: Rules,
               seconds: float) -> HornResult:
    """Ask Spacer whether a reachable state between steps holds ``at_least`` of
    ``count`` (every seat's, all kinds), within ``seconds`` of CPU time."""
    with N.building() as ctx:
        fp = z3.Fixedpoint(ctx=ctx)
        fp.set(engine="spacer")
        model, start, init = setup_state(players, rules, "horn_init")
        reachable = z3.Function("reachable", *([z3.IntSort(ctx)] * len(start.fields())),
                                z3.BoolSort(ctx))
        fp.register_relation(reachable)
        _rule(fp, reachable(*start.fields()), init)
        for what in ("turn", "reveal", "transition"):
            _m, before, after, _facts, step = free_step(players, rules, what, f"horn_{what}")
            _rule(fp, reachable(*after.fields()), [reachable(*before.fields()), *step])
        x = State.fresh("horn_bad", players)
        readings = (True, False) if rules.flags.leftovers == Leftovers.OVEN else (True,)
        counts = [c for in_round in readings
                  for c in state_counts(x, {"count": count, "seat": "any"}, model,
                                        in_round=in_round)]
        bad = N.And(reachable(*x.fields()), z3.Or(*[c >= at_least for c in counts]))
        fp.declare_var(*_constants([bad]))
        began = time.process_time()
        try:
            with N.cpu_capped(ctx, seconds):   # CPU seconds, whatever runs beside it
                verdict = str(fp.query(bad))
        except z3.Z3Exception:   # the cap's interrupt ends the query with "canceled"
            verdict = "unknown"
        return HornResult(verdict, time.process_time() - began)


def _rule(fp: z3.Fixedpoint, head: Any, body: Sequence[Any]) -> None:
    """One clause, every constant in it a variable of the clause."""
    fp.declare_var(*_constants([head, *body]))
    fp.rule(head, list(body))


def _constants(terms: Iterable[Any]) -> list[Any]:
    """The uninterpreted constants of ``terms`` (the states, selectors and facts)."""
    seen: set[int] = set()
    out: list[Any] = []
    todo = list(terms)
    while todo:
        term = todo.pop()
        if not z3.is_expr(term) or term.get_id() in seen:
            continue
        seen.add(term.get_id())
        if z3.is_const(term) and term.decl().kind() == z3.Z3_OP_UNINTERPRETED:
            out.append(term)
        else:
            todo.extend(term.children())
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m mammamia_ref.tools.horn_trial",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--count", required=True, choices=sorted(STATE_KEYS))
    parser.add_argument("--at-least", type=int, required=True)
    parser.add_argument("--players", type=int, default=2, choices=(2, 3, 4, 5))
    parser.add_argument("--seconds", type=float, default=60.0)
    args = parser.parse_args(argv)
    got = horn_trial(args.count, args.at_least, args.players, make_rules({}), args.seconds)
    print(f"{args.count} >= {args.at_least}, {args.players} players: {got.verdict} "
          f"in {got.cpu:.1f} s of CPU")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
