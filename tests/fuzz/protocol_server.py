"""Target: the reference behind the porter protocol (``mammamia serve``). Whatever
bytes a harness sends, every request line gets one JSON answer, ``ok`` true or false
with a message, and the server never dies."""

from __future__ import annotations

import io
import json

from mammamia_ref.kit.protocol import serve

from . import corpus

EXPECTED: tuple[type[BaseException], ...] = ()
FORMAT = "lines"  # how inputs encode documents, for structured mutations


def fuzz_one(data: bytes) -> None:
    out = io.StringIO()
    assert serve(io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"), out) == 0
    answers = [json.loads(line) for line in out.getvalue().splitlines()]
    requests = [line for line in data.split(b"\n") if line.strip()]
    assert len(answers) <= len(requests)
    for answer in answers:
        assert isinstance(answer, dict) and answer["ok"] in (True, False), answer
        if answer["ok"] is False:
            assert isinstance(answer["error"]["message"], str), answer


def seeds() -> list[bytes]:
    lines = [corpus.as_bytes(request) for request in corpus.session()]
    return [b"\n".join(lines) + b"\n", *lines]
