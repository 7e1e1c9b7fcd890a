"""Real inputs to start fuzzing from: the project's own YAML files, states and actions
met in seeded games, and a recorded protocol session."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from mammamia_ref.rules.vocabulary import COLOURS, KINDS, ORDERS

ROOT = Path(__file__).resolve().parents[2]

# punctuation and words of our formats: mutations splice them in, atheris gets them as -dict
TOKENS = (b"&a ", b"*a", b"!!str ", b"!x ", b"{", b"}", b"[", b"]", b"- ", b": ", b"? ", b"\t",
          b"\xff", b"\x00", b"\xef\xbb\xbf", b"'", b'"', b"#", b"---\n", b"...\n", b"<<: ",
          b"%YAML 1.1\n", b"\n  ", b"9007199254740993", b"1.5", b"2001-01-01", b"yes", b"~",
          b"0x10", b"\\u0000", b"\r", b"\xe2\x80\xa8", b"[" * 70, b"null", b"{}", b"[]")
WORDS = ("format", "players", "colour", "hand", "ingredients", "orders", "waiter", "delivered",
         "phase", "step", "turn", "oven", "over", "shuffle", "supply", "table", "used", "box",
         "mamma_mia", "reveal", "order", "kind", "type", "count", "source", "cards", "id", "op",
         "ok", "state", "rejected", "rule", "events", "event", "actions", "steps", "runs",
         "expect", "do", "given", "setup", "variants", "legal", "winners", "play", "draw",
         "mammamia-state/1", "turn.play", "observation", "player", *KINDS, *COLOURS,
         *list(ORDERS)[:12])


@cache
def yaml_files() -> tuple[Path, ...]:
    """Every scenario and spec file (the perft tables and queries included)."""
    return tuple(sorted((ROOT / "scenarios").rglob("*.yaml"))) + \
        tuple(sorted((ROOT / "spec").glob("*.yaml")))


@cache
def yaml_bytes() -> tuple[bytes, ...]:
    return tuple(path.read_bytes() for path in yaml_files())


@cache
def scenario_bytes() -> tuple[bytes, ...]:
    return tuple(path.read_bytes() for path in yaml_files()
                 if "scenarios" in path.parts and "perft" not in path.parts)


@cache
def games() -> tuple[tuple[Any, Any], ...]:
    """(state, action) pairs along seeded games: every player count, some variants,
    shuffles, turns, oven decisions and the end."""
    from mammamia_ref import (
        ChanceSource,
        apply,
        is_chance,
        is_over,
        legal_actions,
        make_config,
        new_game,
    )

    pairs = []
    settings = [(2, {}), (3, {"trimming": "on"}), (4, {"draw_amount": "any"}), (5, {})]
    for seed, (players, variants) in enumerate(settings):
        state = new_game(make_config(players, variants=variants))
        chance = ChanceSource(seed)
        step = 0
        while not is_over(state):
            actions = legal_actions(state)
            action = chance.shuffle(state) if is_chance(state) else actions[step % len(actions)]
            pairs.append((state, action))
            state, _ = apply(state, action)
            step += 1
        pairs.append((state, None))
    return tuple(pairs)


@cache
def states() -> tuple[dict[str, Any], ...]:
    """Canonical JSON states, a spread of every kind of position."""
    from mammamia_ref import format_state

    pairs = games()
    return tuple(format_state(state) for state, _ in pairs[:: max(1, len(pairs) // 60)]) + \
        (format_state(pairs[-1][0]),)


@cache
def actions() -> tuple[dict[str, Any], ...]:
    """Canonical JSON actions, one of each kind at least."""
    from mammamia_ref import format_action
    from mammamia_ref.rules.game import legal_actions

    found: dict[str, dict[str, Any]] = {}
    for state, action in games():
        if action is not None:
            for candidate in (action, *legal_actions(state)):
                doc = format_action(candidate)
                found.setdefault(json.dumps(doc, sort_keys=True), doc)
    return tuple(found.values())[:400]


def session() -> list[dict[str, Any]]:
    """A protocol session that uses every operation."""
    from mammamia_ref.kit import PROTOCOL

    state = states()[len(states()) // 2]
    return [
        {"id": 1, "op": "hello", "protocol": PROTOCOL},
        {"id": 2, "op": "new_game", "players": 3, "colours": ["red", "yellow", "green"],
         "first_player": 1, "variants": {"trimming": "on"}},
        {"id": 3, "op": "legal_actions"},
        {"id": 4, "op": "apply", "action": {"type": "pass"}},
        {"id": 5, "op": "load_state", "state": state},
        {"id": 6, "op": "legal_actions"},
        {"id": 7, "op": "apply", "action": actions()[3]},
        {"id": 8, "op": "state"},
        {"id": 9, "op": "observation", "player": 1},
        {"id": 10, "op": "observation", "player": None},
        {"id": 11, "op": "stop"},
    ]


def as_bytes(doc: Any) -> bytes:
    return json.dumps(doc, separators=(",", ":")).encode("utf-8")
