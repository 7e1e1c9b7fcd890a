"""Target: ``parse_state`` on a JSON document. A state is refused with one
:class:`MalformedError` (an :class:`InvalidStateError` when well formed but impossible),
or accepted; an accepted state round-trips and the engine can play on from it."""

from __future__ import annotations

import json

from mammamia_ref import (
    Shuffle,
    apply,
    chance_pile,
    format_state,
    is_chance,
    is_over,
    legal_actions,
    parse_state,
)
from mammamia_ref.errors import MalformedError

from . import corpus

EXPECTED: tuple[type[BaseException], ...] = (MalformedError,)
FORMAT = "json"  # how inputs encode documents, for structured mutations


def fuzz_one(data: bytes) -> None:
    try:
        doc = json.loads(data)
    except (ValueError, RecursionError):
        return  # not JSON at all: the JSON layer refuses it (see protocol_server)
    state = parse_state(doc)
    assert parse_state(format_state(state)) == state
    if is_over(state):
        return
    if is_chance(state):
        pile, cards = chance_pile(state)
        apply(state, Shuffle(pile, cards))
        return
    actions = legal_actions(state)
    assert actions, "a decision with no legal action"
    for action in actions[:40]:
        apply(state, action)


def seeds() -> list[bytes]:
    return [corpus.as_bytes(doc) for doc in corpus.states()]
