"""Deliberately broken implementations for testing the conformance kit.

``python tests/impls/broken.py NAME`` serves the reference with one rule broken (or,
for the hostile ones, misbehaves at the protocol level). Each breakage names the rule
it breaks, so the tests can check that the kit names it too.
"""

from __future__ import annotations

import json
import os
import sys
import time
from dataclasses import replace

from mammamia_ref.errors import IllegalActionError
from mammamia_ref.kit import PROTOCOL, protocol
from mammamia_ref.kit.protocol import ReferenceSession, serve
from mammamia_ref.rules import oven, turn
from mammamia_ref.rules.ruleset import Rules, make_rules
from mammamia_ref.rules.vocabulary import KINDS, ORDERS

RULE_BREAKAGES: dict[str, str] = {
    "mixed_draw_sources": "turn.draw_short",
    "bombastica_keeps_table": "oven.bombastica",
    "minimale_names_personal": "oven.minimale",
    "draw_past_seven": "turn.draw",
    "failed_order_on_top": "oven.fail",
}


def mixed_draw_sources() -> None:
    """A short waiter is made up from the supply (the rules forbid switching)."""
    original = turn._draw_from_waiter

    def draw(state, wanted):
        state, events, moved = original(state, wanted)
        if moved < wanted and state.supply:
            state, more, extra = turn._draw_from_supply(state, wanted - moved)
            return state, events + more, moved + extra
        return state, events, moved

    turn._draw_from_waiter = draw


def bombastica_keeps_table() -> None:
    """A Bombastica takes only 15 cards and leaves the rest on the table."""
    original = oven.bake

    def bake(state, *, from_table, from_hand, completion_rule=None):
        if ORDERS[state.reveal.order].type == "bombastica" and sum(from_table) > 15:
            spare, counts = sum(from_table) - 15, list(from_table)
            for i in range(len(KINDS)):  # leave the spare cards on the table
                take = min(counts[i], spare)
                counts[i] -= take
                spare -= take
            from_table = tuple(counts)
        return original(state, from_table=from_table, from_hand=from_hand,
                        completion_rule=completion_rule)

    oven.bake = bake


def minimale_names_personal() -> None:
    """A Minimale may take the personal kind when it has the lowest count (the rules
    kernel's ``minimale_kinds``, over kind indices, is the one definition to break)."""
    original = oven.minimale_kinds

    def kinds(table, personal, minimale_lowest):
        present = [k for k in range(len(KINDS)) if table[k] > 0]
        if not present:
            return ()
        low = min(table[k] for k in present)
        choices = tuple(k for k in present if table[k] == low)
        return choices or original(table, personal, minimale_lowest)

    oven.minimale_kinds = kinds


def draw_past_seven() -> None:
    """Refills to eight cards."""
    turn.refill_allowance = lambda state: max(0, 8 - state.hands[state.current].size)
    turn.HAND_LIMIT = 8


def failed_order_on_top() -> None:
    """A failed order goes on top of its owner's waiter instead of the bottom."""

    def fail(state, rule):
        seat, order = state.current, state.reveal.order
        why = oven.failure_reason(rule, oven.ORDER_TYPE_OF[order],
                                  state.parameters.bombastica_total)
        state = state.with_waiter(seat, (order,) + state.waiters[seat])
        state = replace(state, reveal=None, step="reveal", current=state.mamma_mia)
        from mammamia_ref.rules.events import event

        return state, (event("failed", rule, seat=seat, order=order, why=why),)

    oven.fail = fail



def bombastica_table_only_state_only() -> None:
    """The porter of issue 32 in miniature: plays ``bombastica_hand=forbidden`` whatever
    the game's rulings, while claiming every ruling (its states carry the ruling asked
    for), and offers neither events nor observations: the kit sees its states alone."""
    protocol.FEATURES = tuple(f for f in protocol.FEATURES
                              if f not in ("events", "observation"))
    claimed = {"bombastica_hand": "allowed"}
    make_config, parse_state, format_state = (protocol.make_config, protocol.parse_state,
                                              protocol.format_state)

    def forced(variants):
        if isinstance(variants, Rules):  # new_game's rules, parameters and all
            claimed["bombastica_hand"] = variants.as_dict()["bombastica_hand"]
            return make_rules({"bombastica_hand": "forbidden"}, base=variants)
        claimed["bombastica_hand"] = (variants or {}).get("bombastica_hand", "allowed")
        return {**(variants or {}), "bombastica_hand": "forbidden"}

    protocol.make_config = lambda players, variants=None, **rest: make_config(
        players, variants=forced(variants), **rest)
    protocol.parse_state = lambda doc: parse_state(
        {**doc, "variants": forced(doc.get("variants"))} if isinstance(doc, dict) else doc)

    def shown(state, **options):
        doc = format_state(state, **options)
        return {**doc, "variants": {**doc["variants"], **claimed}}

    protocol.format_state = shown



def offers_few_rulings() -> None:
    """Offers only ``bombastica_hand=forbidden`` and ``stall=letter`` (it lacks the
    defaults of both), every other flag in full: the kit must skip every case that needs
    a default it lacks, not fail it."""
    values = protocol.variant_values
    protocol.variant_values = lambda: {**values(), "bombastica_hand": ("forbidden",),
                                       "stall": ("letter",)}


def takes_no_parameters() -> None:
    """A version 3 port that takes no parameter (its hello lists none): the kit must
    skip every case under a non-default number of the rules, and run the others."""
    protocol.PARAMETER_NAMES = ()


def ignores_parameters() -> None:
    """Lists every parameter but plays ``new_game`` under the spec's numbers (drops
    ``parameters``): the kit must find the state that differs."""
    original = ReferenceSession.op_new_game

    def op_new_game(self, request):
        return original(self, {k: v for k, v in request.items() if k != "parameters"})

    ReferenceSession.op_new_game = op_new_game


# Breakages of what a random game probes besides its moves (kit.cases.Probes): the
# kit must find each with no scenario and no counting table.
PROBED: dict[str, str] = {
    "ignores_seat": "turn.clockwise",
    "refuses_under_another_rule": "",
    "spectator_sees_a_hand": "",
}


def ignores_seat() -> None:
    """An action attempted by a seat not to move is played as if the right seat moved."""
    protocol.check_seat = lambda state, seat: None


def refuses_under_another_rule() -> None:
    """Refuses what the rules refuse, but always names the same rule."""
    original = protocol.apply

    def apply(state, action):
        try:
            return original(state, action)
        except IllegalActionError as exc:
            raise IllegalActionError(str(exc), rule="turn.play") from None

    protocol.apply = apply


def spectator_sees_a_hand() -> None:
    """A spectator is shown what the first seat sees."""
    original = protocol.observation
    protocol.observation = lambda state, player: original(state, 0 if player is None else player)


def leave_child() -> None:
    """Fork a child that keeps stdin, stdout and stderr open and sleeps; its pid goes to
    the file named by MAMMAMIA_CHILD_PIDS (so the tests can check that it was ended)."""
    child = os.fork()
    if child == 0:
        time.sleep(3600)
        os._exit(0)
    pid_file = os.environ.get("MAMMAMIA_CHILD_PIDS")
    if pid_file:
        with open(pid_file, "a", encoding="utf-8") as out:
            out.write(f"{child}\n")


def hostile(kind: str) -> int:
    """Protocol-level misbehaviour, after a proper hello (except where noted)."""
    out = sys.stdout.buffer
    if kind == "fork_keeps_pipes":  # no hello: the child holds the pipes, the parent exits
        leave_child()
        return 0
    session = ReferenceSession()
    requests = 0
    for raw in sys.stdin.buffer:
        requests += 1
        request = json.loads(raw)
        if kind == "exit_at_once":
            return 3
        if requests == 1 and kind != "wrong_protocol":
            answer = {"id": request["id"], "ok": True, "name": kind, "language": "Python",
                      "version": "0", "protocol": PROTOCOL, "variants": {},
                      "features": ["load_state"]}
            out.write(json.dumps(answer).encode() + b"\n")
            out.flush()
            if kind == "never_reads":  # after the hello: neither reads nor answers again
                time.sleep(3600)
            continue
        if kind == "wrong_protocol":
            out.write(json.dumps({"id": request["id"], "ok": True, "name": "old",
                                  "protocol": "mammamia-protocol/0"}).encode() + b"\n")
        elif kind == "never_answers":
            time.sleep(3600)
        elif kind == "exits_leaving_child":
            leave_child()
            return 0
        elif kind == "floods":
            out.write(b"x" * (20 * 1024 * 1024))
        elif kind == "invalid_json":
            out.write(b"{this is not json\n")
        elif kind == "invalid_utf8":
            out.write(b'{"id": 1, "ok": true, "name": "\xff\xfe"}\n')
        elif kind == "wrong_ids":
            out.write(json.dumps({"id": request["id"] + 1000, "ok": True}).encode() + b"\n")
        elif kind == "crashes_halfway":
            if requests > 4:
                raise RuntimeError("simulated crash halfway through a game")
            answer = {"id": request["id"], "ok": True, **session.handle(request)}
            out.write(json.dumps(answer).encode() + b"\n")
        out.flush()
    return 0


HOSTILE = ("exit_at_once", "wrong_protocol", "never_answers", "floods", "invalid_json",
           "invalid_utf8", "wrong_ids", "crashes_halfway", "fork_keeps_pipes", "never_reads",
           "exits_leaving_child")


if __name__ == "__main__":
    name = sys.argv[1]
    if name in HOSTILE:
        sys.exit(hostile(name))
    globals()[name]()
    sys.exit(serve())
