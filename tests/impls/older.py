"""Ports of an older protocol version, built from the reference: ``python
tests/impls/older.py N [answers]`` serves the reference as a port written for
``mammamia-protocol/N`` (1 or 2) would, untouched since: it knows only the flags of its
version (a later flag, in ``new_game`` or in a state, is an unknown flag), takes no
parameters, answers states without what later versions added (``result`` before /2),
refuses a second play in a turn under the rule of the step pending (before /2) and has
no feature ``seats`` (before /2). It refuses a hello of another version naming its own,
as a strict port does (``answers``: it answers any hello with its own version instead;
``noevents``: it does not offer the feature ``events``).

The kit must run it in its version's terms with nothing reported where it follows the
rules (tests/test_protocol_versions.py)."""

from __future__ import annotations

import sys
from typing import Any

from mammamia_ref.errors import MalformedError
from mammamia_ref.kit.protocol import ReferenceSession, serve
from mammamia_ref.kit.versions import registered, versions
from mammamia_ref.rules.game import decision_rule
from mammamia_ref.rules.state import variant_defaults, variant_values

# the port's options when run as a program (imported, as pytest's doctest collection
# does, it is the /1 port: the arguments are then pytest's)
ARGS = sys.argv[1:] if __name__ == "__main__" else []
NUMBER = int(ARGS[0]) if ARGS else 1
VERSION = versions()[NUMBER - 1]
STRICT = "answers" not in ARGS[1:]
EVENTS = "noevents" not in ARGS[1:]  # noevents: a port without the events feature
# the flags of the port's version: those the versions up to it added
FLAGS = [flag for v in versions()[:NUMBER] for flag in v.adds["flags"]]


def _check_flags(variants: Any) -> None:
    for flag in variants if isinstance(variants, dict) else ():
        if flag not in FLAGS:
            raise MalformedError(f"unknown variant flag {flag!r}", value=flag)


def _older(state: Any) -> Any:
    """A state as this port writes it: without what later versions added."""
    if not isinstance(state, dict):
        return state
    if NUMBER < 2:
        state.pop("result", None)
    if isinstance(state.get("variants"), dict):
        state["variants"] = {k: v for k, v in state["variants"].items() if k in FLAGS}
    return state


class OlderSession(ReferenceSession):
    """The reference, answering as a port of ``VERSION`` would."""

    def op_hello(self, request: dict[str, Any]) -> dict[str, Any]:
        if STRICT and request.get("protocol") != VERSION.id:
            raise MalformedError(f"this port speaks {VERSION.id} only",
                                 value=request.get("protocol"))
        return {"name": f"older-{NUMBER}", "language": "Python", "version": "1.0",
                "protocol": VERSION.id,
                "features": [f for f in VERSION.features if EVENTS or f != "events"],
                "variants": {flag: list(values) for flag, values in variant_values().items()
                             if flag in FLAGS}}

    def op_new_game(self, request: dict[str, Any]) -> dict[str, Any]:
        _check_flags(request.get("variants"))
        if "parameters" in request:
            raise MalformedError("unknown field parameters", value="parameters")
        return {"state": _older(super().op_new_game(request)["state"])}

    def op_load_state(self, request: dict[str, Any]) -> dict[str, Any]:
        state = request.get("state")
        if isinstance(state, dict) and isinstance(state.get("variants"), dict):
            _check_flags(state["variants"])  # a later flag is at its default for this port
            state["variants"] = {**variant_defaults(), **state["variants"]}
        return {"state": _older(super().op_load_state(request)["state"])}

    def op_apply(self, request: dict[str, Any]) -> dict[str, Any]:
        if "player" in request and NUMBER < 2:
            raise MalformedError("unknown field player", value="player")
        before = self.state
        answer = super().op_apply(request)
        rejected = answer.get("rejected")
        if NUMBER < 2 and before is not None and isinstance(rejected, dict) and \
                rejected.get("rule") == "turn.play" and before.played > 0:
            rejected["rule"] = decision_rule(before)  # as the rules read before /2
        if "state" in answer:
            answer["state"] = _older(answer["state"])
        return answer

    def op_state(self, request: dict[str, Any]) -> dict[str, Any]:
        return {"state": _older(super().op_state(request)["state"])}

    def op_observation(self, request: dict[str, Any]) -> dict[str, Any]:
        seen = super().op_observation(request)["observation"]
        seen["variants"] = {k: v for k, v in seen["variants"].items() if k in FLAGS}
        return {"observation": seen}


def main() -> int:
    import mammamia_ref.kit.protocol as protocol

    assert set(FLAGS) <= set(registered("flags"))
    protocol.ReferenceSession = OlderSession  # type: ignore[misc]
    return serve()


if __name__ == "__main__":
    sys.exit(main())
