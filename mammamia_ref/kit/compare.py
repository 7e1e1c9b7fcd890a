"""What the kit compares of a port's answers, and how a difference is said: field by
field, a pile as a short diff, free text never (the declaration of what is compared,
``COMPARED``, is protocol data: :mod:`mammamia_ref.kit.versions`)."""

from __future__ import annotations

import difflib
import json
from collections import Counter
from typing import Any

from mammamia_ref.kit.versions import FREE_TEXT


def comparable_event(item: Any) -> Any:
    """An event as compared: every field but the free text."""
    if not isinstance(item, dict):
        return item
    return {k: v for k, v in item.items() if k not in FREE_TEXT}


def comparable_state(doc: Any) -> Any:
    """A state as compared: at a chance node the pile about to be shuffled is compared
    as a multiset (the shuffle that follows hands over its whole new order)."""
    if not isinstance(doc, dict) or doc.get("phase") != "shuffle":
        return doc
    doc = json.loads(json.dumps(doc))
    step = doc.get("step")
    if isinstance(step, str) and step.startswith("waiter."):
        for player in doc.get("players") or []:
            if isinstance(player, dict) and player.get("colour") == step.removeprefix("waiter.") \
                    and isinstance(player.get("waiter"), list):
                player["waiter"] = sorted(player["waiter"], key=str)
    elif isinstance(doc.get("supply"), list):
        doc["supply"] = sorted(doc["supply"], key=str)
    return doc


def differences(actual: Any, expected: Any, pointer: str = "") -> list[str]:
    """Only the fields that differ, each on one line; a pile as a short diff."""
    if isinstance(expected, dict) and isinstance(actual, dict):
        out = []
        for key in expected:
            if key not in actual:
                out.append(f"{pointer}/{key}: missing (expected {short(expected[key])})")
            else:
                out += differences(actual[key], expected[key], f"{pointer}/{key}")
        out += [f"{pointer}/{key}: not expected (got {short(actual[key])})"
                for key in actual if key not in expected]
        return out
    if isinstance(expected, list) and isinstance(actual, list):
        if actual == expected:
            return []
        if all(isinstance(x, dict) for x in expected + actual) and len(actual) == len(expected):
            out = []
            for i, (a, e) in enumerate(zip(actual, expected, strict=True)):
                label = e.get("colour", i) if isinstance(e, dict) else i
                out += differences(a, e, f"{pointer}/{label}")
            return out
        noun = "colours" if pointer.endswith("/winners") else "cards"
        return [f"{pointer}: {pile_diff(actual, expected, noun)}"]
    if actual != expected or type(actual) is not type(expected):
        return [f"{pointer}: expected {short(expected)}, got {short(actual)}"]
    return []


def pile_diff(actual: list[Any], expected: list[Any], noun: str = "cards") -> str:
    """A pile difference in a few words: what is missing or extra, else where the order
    parts (positions from the first card listed)."""
    if Counter(map(_hashable, actual)) != Counter(map(_hashable, expected)):
        missing = Counter(map(_hashable, expected)) - Counter(map(_hashable, actual))
        extra = Counter(map(_hashable, actual)) - Counter(map(_hashable, expected))
        parts = [f"{len(expected)} {noun} expected, {len(actual)} got"]
        if missing:
            parts.append("missing " + _tally(missing))
        if extra:
            parts.append("extra " + _tally(extra))
        return "; ".join(parts)
    matcher = difflib.SequenceMatcher(None, [_hashable(x) for x in expected],
                                      [_hashable(x) for x in actual], autojunk=False)
    changes = [f"at {i1}: expected {short(expected[i1:i2])}, got {short(actual[j1:j2])}"
               for tag, i1, i2, j1, j2 in matcher.get_opcodes() if tag != "equal"]
    return f"same {noun}, other order: " + "; ".join(changes[:3]) + \
        (f"; {len(changes) - 3} more" if len(changes) > 3 else "")


def _hashable(item: Any) -> str:
    return item if isinstance(item, str) else json.dumps(item, sort_keys=True)


def _tally(counts: Counter[str]) -> str:
    return ", ".join(f"{n} {card}" if n > 1 else card for card, n in sorted(counts.items()))


def short(value: Any, limit: int = 120) -> str:
    text = json.dumps(value, separators=(",", ":"))
    return text if len(text) <= limit else text[:limit - 1] + "…"
