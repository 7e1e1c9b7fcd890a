"""The porter protocol (its version: :data:`mammamia_ref.kit.PROTOCOL`, from
``spec/protocol.yaml``): JSON lines over stdin and stdout.

The runner sends one request per line, ``{"id": N, "op": OP, ...}``; the implementation
answers each with one line ``{"id": N, "ok": true, ...}`` or
``{"id": N, "ok": false, "error": {"message": ...}}``. The implementation holds one
current game. Operations (schemas in ``spec/schemas/protocol-N.schema.json``):

- ``hello {protocol}`` → ``{name, language, version, protocol, variants, parameters,
  features}``: ``variants`` maps each supported flag to the values supported;
  ``parameters`` names the numbers of the rules it takes (version 3); ``features`` lists
  the optional operations and facts it supports (``load_state``, ``events``,
  ``observation``, ``perft``, ``seats``).
- ``new_game {players, colours, first_player, variants, parameters?}`` → ``{state}``:
  ``parameters`` (version 3) are the numbers of the rules that differ from
  ``spec/cards.yaml``, in the form a state carries them
- ``load_state {state}`` → ``{state}`` (feature ``load_state``)
- ``legal_actions`` → ``{actions}`` (empty at a chance node and at the end)
- ``apply {action, player?}`` → ``{state, events}``, or ``{rejected: {rule}}`` with the
  state unchanged; ``player`` (feature ``seats``) is the seat attempting the action,
  refused unless it is the seat to decide
- ``state`` → ``{state}``
- ``observation {player}`` → ``{observation}``: what seat ``player`` (null: a spectator)
  may know, in the canonical observation JSON (feature ``observation``)
- ``perft {depth}`` → ``{nodes}``: the counting-table count from the current state,
  counted by the implementation itself (feature ``perft``; without it the runner walks
  the tree with ``legal_actions``, ``apply`` and ``load_state``)
- ``stop`` → ``{}``, then the implementation exits.

This module also serves the reference implementation behind the protocol.
"""

from __future__ import annotations

import json
import math
import re
import sys
from collections.abc import Iterator
from typing import IO, Any

from mammamia_ref import __version__
from mammamia_ref.errors import IllegalActionError, MalformedError, VariantError
from mammamia_ref.formats.jsonform import format_state, parse_state
from mammamia_ref.kit import PROTOCOL
from mammamia_ref.kit.versions import current, refusal
from mammamia_ref.rules.actions import format_action, parse_action
from mammamia_ref.rules.events import format_event
from mammamia_ref.rules.game import apply, check_seat, legal_actions, new_game
from mammamia_ref.rules.observation import observation
from mammamia_ref.rules.ruleset import Rules, make_rules, parameter_specs
from mammamia_ref.rules.state import GameState, make_config, variant_values
from mammamia_ref.rules.typed_spec import PARAMETER_NAMES
from mammamia_ref.sim.perft import perft

FEATURES = current().features


class ParameterRefused(MalformedError):
    """A ``new_game`` parameter the rules cannot take (unknown, out of its range, or
    numbers the deck cannot serve): answered with the parameter and its rule named."""

    def __init__(self, message: str, *, rule: str | None, where: str, value: Any) -> None:
        named = rule is None or f"({rule})" in message or f"[{rule}]" in message
        super().__init__(message if named else f"{message} [{rule}]", where=where, value=value)
        self.rule = rule


def requested_rules(variants: Any, parameters: Any) -> Rules:
    """The rules a ``new_game`` request asks for: its flag values and its parameters
    over the spec's; a bad parameter is refused naming it and the rule it numbers."""
    if not isinstance(variants, dict):
        raise MalformedError("variants is a map of variant flags to values", value=variants)
    if not isinstance(parameters, dict):
        raise MalformedError("parameters is a map of parameter names to numbers "
                             "(trimming: a map from player count to a number)",
                             where="/parameters", value=parameters)
    rules = make_rules(variants)
    try:
        return make_rules(parameters=parameters, base=rules)
    except VariantError as exc:
        entry = parameter_specs().get(exc.flag or "")
        raise ParameterRefused(str(exc), rule=entry["rule"] if entry else None,
                               where=f"/parameters/{exc.flag}" if entry else "/parameters",
                               value=exc.value) from exc


class ReferenceSession:
    """The reference implementation's side of one protocol session."""

    def __init__(self) -> None:
        self.state: GameState | None = None
        self._loaded: dict[str, GameState] = {}

    def handle(self, request: dict[str, Any]) -> dict[str, Any]:
        op = request.get("op")
        handler = getattr(self, f"op_{op}", None) if isinstance(op, str) else None
        if handler is None:
            raise MalformedError(f"unknown op {op!r}", value=op)
        answer: dict[str, Any] = handler(request)
        return answer

    def op_hello(self, request: dict[str, Any]) -> dict[str, Any]:
        if request.get("protocol") != PROTOCOL:
            raise MalformedError(f"unsupported protocol: {refusal(request.get('protocol'))}",
                                 value=request.get("protocol"))
        return {"name": "mammamia_ref", "language": "Python", "version": __version__,
                "protocol": PROTOCOL,
                "variants": {flag: list(values) for flag, values in variant_values().items()},
                "parameters": list(PARAMETER_NAMES), "features": list(FEATURES)}

    def op_new_game(self, request: dict[str, Any]) -> dict[str, Any]:
        colours = request.get("colours")
        if colours is not None and not (isinstance(colours, list)
                                        and all(isinstance(c, str) for c in colours)):
            raise MalformedError("colours is a list of colours", value=colours)
        parameters = request.get("parameters")
        rules = requested_rules(request.get("variants") or {},
                                {} if parameters is None else parameters)
        players: Any = request.get("players")  # make_config checks it
        try:
            config = make_config(players,
                                 colours=tuple(colours) if colours is not None else None,
                                 first_player=request.get("first_player", 0), variants=rules)
        except VariantError as exc:
            served = re.search(r"cannot serve this game: .*\[([a-z_.]+)\]$", str(exc))
            if served is None:
                raise
            raise ParameterRefused(str(exc).removesuffix(f" [{served[1]}]"), rule=served[1],
                                   where="/parameters", value=parameters) from exc
        self.state = new_game(config)
        return {"state": format_state(self.state, result=True)}

    def op_load_state(self, request: dict[str, Any]) -> dict[str, Any]:
        """A counting run loads the same state before each of its children: checking it
        once is enough (states are immutable; the cache is keyed by the exact JSON)."""
        doc = request.get("state")
        key = json.dumps(doc, sort_keys=True, separators=(",", ":"))
        state = self._loaded.get(key)
        if state is None:
            state = parse_state(doc)
            if len(self._loaded) >= 256:
                self._loaded.clear()
            self._loaded[key] = state
        self.state = state
        return {"state": format_state(state, result=True)}

    def _current(self) -> GameState:
        if self.state is None:
            raise MalformedError("no game: send new_game or load_state first", value="state")
        return self.state

    def op_legal_actions(self, request: dict[str, Any]) -> dict[str, Any]:
        return {"actions": [format_action(a) for a in legal_actions(self._current())]}

    def op_apply(self, request: dict[str, Any]) -> dict[str, Any]:
        state = self._current()
        action = parse_action(request.get("action"))
        player = request.get("player")  # feature seats: who attempts it (default: to move)
        if player is not None and (type(player) is not int or not 0 <= player < state.players):
            raise MalformedError("player is a seat number or null", value=player)
        try:
            if player is not None:
                check_seat(state, player)
            self.state, events = apply(state, action)
        except IllegalActionError as exc:
            return {"rejected": {"rule": exc.rule, "message": str(exc)}}
        return {"state": format_state(self.state, result=True),
                "events": [format_event(e) for e in events]}

    def op_state(self, request: dict[str, Any]) -> dict[str, Any]:
        return {"state": format_state(self._current(), result=True)}

    def op_observation(self, request: dict[str, Any]) -> dict[str, Any]:
        """Feature ``observation``: what one seat (or, for null, a spectator) may know."""
        player = request.get("player")
        if player is not None and type(player) is not int:
            raise MalformedError("player is a seat number or null", value=player)
        return {"observation": observation(self._current(), player).to_json()}

    def op_perft(self, request: dict[str, Any]) -> dict[str, Any]:
        """Feature ``perft``: the implementation counts from its current state itself,
        as a chess engine does (the runner then walks only where a count differs)."""
        depth = request.get("depth")
        if type(depth) is not int or not 0 <= depth <= 12:
            raise MalformedError("depth is a whole number from 0 to 12", value=depth)
        return {"nodes": perft(self._current(), depth)}

    def op_stop(self, request: dict[str, Any]) -> dict[str, Any]:
        return {}


# The longest request line served (a state is a few kilobytes): a longer line is refused
# and skipped, never read into memory whole.
MAX_LINE = 1 << 20


def _lines(stream: IO[Any]) -> Iterator[bytes | str | None]:
    """The request lines of ``stream``, each at most :data:`MAX_LINE` long; None stands
    for a line that was longer (its rest is read and dropped)."""
    while line := stream.readline(MAX_LINE + 1):
        if len(line) > MAX_LINE and not line.endswith(b"\n" if isinstance(line, bytes) else "\n"):
            while (rest := stream.readline(MAX_LINE)) and not rest.endswith(
                    b"\n" if isinstance(rest, bytes) else "\n"):
                pass
            yield None
        else:
            yield line


def _not_json(word: str) -> Any:
    """``NaN`` and ``Infinity`` are not JSON: the line is refused, never echoed."""
    raise ValueError(f"not JSON: {word} is not a JSON number")


def _finite(text: str) -> float:
    """A number beyond a double (``1e400``) would be echoed as ``Infinity``: refused."""
    number = float(text)
    if not math.isfinite(number):
        raise ValueError(f"not JSON: {text[:40]} is beyond the numbers JSON can carry here")
    return number


def _error(exc: ValueError) -> dict[str, Any]:
    """A refusal as answered: its message, and the rule it breaks where there is one (a
    state that no game could reach, say: ``load_state``)."""
    rule = getattr(exc, "rule", None)
    return {"message": str(exc), **({"rule": rule} if isinstance(rule, str) else {})}


def serve(stdin: IO[str] = sys.stdin, stdout: IO[str] = sys.stdout) -> int:
    """Answer protocol requests line by line until ``stop`` or the end of input."""
    session = ReferenceSession()
    # read bytes where there are any, so that a line of invalid UTF-8 is answered, not fatal
    for line in _lines(getattr(stdin, "buffer", stdin)):
        request_id: Any = None
        if line is None:
            stdout.write(json.dumps({"id": None, "ok": False, "error": {
                "message": f"request line longer than {MAX_LINE:,} bytes"}}) + "\n")
            stdout.flush()
            continue
        if not line.strip():
            continue
        try:
            request = json.loads(line.decode("utf-8") if isinstance(line, bytes) else line,
                                 parse_constant=_not_json, parse_float=_finite)
            if not isinstance(request, dict):
                raise MalformedError("a request is a JSON object", value=request)
            request_id = request.get("id")
            answer = {"id": request_id, "ok": True, **session.handle(request)}
        except ValueError as exc:  # not UTF-8, not JSON, or refused (every MammamiaError)
            answer = {"id": request_id, "ok": False, "error": _error(exc)}
        except RecursionError:
            answer = {"id": request_id, "ok": False, "error": {"message": "nested too deeply"}}
        stdout.write(json.dumps(answer, separators=(",", ":"), allow_nan=False) + "\n")
        stdout.flush()
        if answer.get("ok") and request.get("op") == "stop":
            break
    return 0
