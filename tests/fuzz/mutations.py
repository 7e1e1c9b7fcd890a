"""Mutations of real inputs: bytes spliced with the punctuation of our formats, and
documents with a value replaced, removed, added, wrapped or moved. Inputs near the
valid ones reach deeper than random bytes do.

The mutations take their choices from a *picker*, so that the same code serves
hypothesis (choices drawn, so failures shrink) and atheris (choices from a seeded
generator, in a custom libFuzzer mutator).
"""

from __future__ import annotations

import copy
import json
import random
from typing import Any, Protocol

import yaml

from mammamia_ref.formats.safeyaml import load_bytes

from .corpus import TOKENS, WORDS

EDGE_INTEGERS = (-1, 0, 1, 2, 3, 5, 7, 8, 2**53, 2**53 + 1, 10**30)


class Picker(Protocol):
    def integer(self, low: int, high: int) -> int: ...
    def value(self) -> Any: ...         # a JSON-ish value (NaN and floats included)
    def blob(self) -> bytes: ...


class RandomPicker:
    """Choices from a seeded generator (for atheris' custom mutator)."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def integer(self, low: int, high: int) -> int:
        return self.rng.randint(low, high)

    def value(self, depth: int = 0) -> Any:
        match self.rng.randint(0, 9 if depth < 2 else 6):
            case 0:
                return None
            case 1:
                return self.rng.random() < 0.5
            case 2 | 3:
                return self.rng.choice(WORDS)
            case 4:
                return self.rng.choice(EDGE_INTEGERS)
            case 5:
                return self.rng.choice([0.5, 1.0, float("nan"), -(2**63), "", "\x00", "é"])
            case 6:
                return self.rng.randint(-10, 10)
            case 7 | 8:
                return [self.value(depth + 1) for _ in range(self.rng.randint(0, 3))]
            case _:
                return {self.rng.choice(WORDS): self.value(depth + 1)
                        for _ in range(self.rng.randint(0, 3))}

    def blob(self) -> bytes:
        return bytes(self.rng.randrange(256) for _ in range(self.rng.randint(1, 8)))


def choose(pick: Picker, items: Any) -> Any:
    items = list(items)
    return items[pick.integer(0, len(items) - 1)]


def mutate_bytes(data: bytes, pick: Picker) -> bytes:
    """A few byte-level edits: cut, splice a token or random bytes, duplicate, truncate,
    swap two lines."""
    out = bytearray(data)
    for _ in range(pick.integer(1, 4)):
        at = pick.integer(0, len(out))
        end = pick.integer(at, min(len(out), at + 64))
        match pick.integer(0, 5):
            case 0:
                out[at:end] = b""
            case 1:
                out[at:at] = choose(pick, TOKENS)
            case 2:
                out[at:at] = pick.blob()
            case 3:
                out[at:at] = bytes(out[at:end])
            case 4:
                del out[at:]
            case _:
                lines = bytes(out).split(b"\n")
                i, j = pick.integer(0, len(lines) - 1), pick.integer(0, len(lines) - 1)
                lines[i], lines[j] = lines[j], lines[i]
                out = bytearray(b"\n".join(lines))
    return bytes(out)


def _places(doc: Any, path: tuple = ()) -> list[tuple]:
    """The path of every value in ``doc`` (the root is ``()``)."""
    found = [path]
    items = doc.items() if isinstance(doc, dict) else enumerate(doc) \
        if isinstance(doc, list) else ()
    for key, value in items:
        found += _places(value, (*path, key))
    return found


def _get(doc: Any, path: tuple) -> Any:
    for key in path:
        doc = doc[key]
    return doc


def mutate_json(doc: Any, pick: Picker) -> Any:
    """A few edits of a document: replace a value (by a new one or by another part of
    the document), remove it, add a sibling, or wrap it in a list."""
    doc = copy.deepcopy(doc)
    for _ in range(pick.integer(1, 3)):
        places = _places(doc)
        path = choose(pick, places)
        operation = pick.integer(0, 4)
        new = copy.deepcopy(_get(doc, choose(pick, places))) if operation == 0 else pick.value()
        if not path:
            doc = [doc] if operation == 4 else new
            continue
        parent, key = _get(doc, path[:-1]), path[-1]
        if operation == 1:
            del parent[key]
        elif operation == 2 and isinstance(parent, dict):
            parent[choose(pick, WORDS)] = new
        elif operation == 2:
            parent.insert(key, new)
        elif operation == 4:
            parent[key] = [parent[key]]
        else:
            parent[key] = new
    return doc


# how a target's input encodes a document: decode (raising ValueError), encode
def _lines_decode(data: bytes) -> list[Any]:
    return [json.loads(line) for line in data.split(b"\n") if line.strip()]


def _lines_encode(doc: Any) -> bytes:
    lines = doc if isinstance(doc, list) else [doc]
    return b"".join(json.dumps(line).encode() + b"\n" for line in lines)


CODECS = {
    "json": (json.loads, lambda doc: json.dumps(doc).encode()),
    "yaml": (lambda data: load_bytes(data, "seed.yaml").data,
             lambda doc: yaml.safe_dump(doc, sort_keys=False, allow_unicode=True).encode()),
    "lines": (_lines_decode, _lines_encode),
}


def decode(form: str, data: bytes) -> Any:
    """The document ``data`` encodes, or None."""
    try:
        return CODECS[form][0](data)
    except (ValueError, RecursionError):
        return None


def encode(form: str, doc: Any) -> bytes:
    return CODECS[form][1](doc)
