"""Target: ``safeyaml.load_bytes``. Any bytes give JSON data with the line of every
pointer, or one :class:`YamlInputError` naming the file (and the line when there is one)."""

from __future__ import annotations

import json
import re

from mammamia_ref.formats.safeyaml import YamlInputError, load_bytes

from . import corpus

FILE = "fuzz/case.yaml"
EXPECTED: tuple[type[BaseException], ...] = (YamlInputError,)
FORMAT = "yaml"  # how inputs encode documents, for structured mutations


def fuzz_one(data: bytes) -> None:
    try:
        loaded = load_bytes(data, FILE)
    except YamlInputError as exc:
        assert exc.file == FILE and str(exc).startswith(FILE), str(exc)
        # the end of the input counts as the line after the last break
        assert exc.line is None or 1 <= exc.line <= _lines(data) + 1, (exc.line, str(exc))
        raise
    # only JSON comes out: it survives a JSON round trip unchanged (no floats, dates, sets)
    assert json.loads(json.dumps(loaded.data, allow_nan=False)) == loaded.data
    assert all(type(line) is int and line >= 1 for line in loaded.lines.values())
    assert "" in loaded.lines


def _lines(data: bytes) -> int:
    """The lines of ``data`` as YAML counts them ("\r\n", "\r", "\n", NEL, LS, PS)."""
    return len(re.findall(rb"\r\n|[\r\n]|\xc2\x85|\xe2\x80[\xa8\xa9]", data)) + 1


def seeds() -> list[bytes]:
    return list(corpus.yaml_bytes())
