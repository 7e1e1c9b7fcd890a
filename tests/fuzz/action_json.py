"""Target: ``parse_action`` on a JSON document, then the action applied in a spread of
states. A malformed action gives one :class:`MalformedError`; a well-formed one
round-trips, and ``apply`` either takes it or rejects it under a rule, leaving the
state as it was."""

from __future__ import annotations

import json
from functools import cache

from mammamia_ref import IllegalActionError, apply, format_action, format_state, parse_action
from mammamia_ref.errors import MalformedError
from mammamia_ref.rules.actions import check_action
from mammamia_ref.rules.game import legal_actions
from mammamia_ref.rules.specdata import rule_ids

from . import corpus

EXPECTED: tuple[type[BaseException], ...] = (MalformedError,)
FORMAT = "json"  # how inputs encode documents, for structured mutations


@cache
def _states() -> tuple:
    """One state of each (phase, step), to apply the action in."""
    found = {}
    for state, _ in corpus.games():
        found.setdefault((state.players, state.phase, state.step), state)
    return tuple(found.values())


def fuzz_one(data: bytes) -> None:
    try:
        doc = json.loads(data)
    except (ValueError, RecursionError):
        return
    action = parse_action(doc)
    assert parse_action(format_action(action)) == action
    check_action(action)
    for state in _states():
        before = format_state(state)
        try:
            apply(state, action)
        except IllegalActionError as exc:
            assert exc.rule in rule_ids(), exc.rule
            assert action not in legal_actions(state)
        assert format_state(state) == before


def seeds() -> list[bytes]:
    return [corpus.as_bytes(doc) for doc in corpus.actions()]
