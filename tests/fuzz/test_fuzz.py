"""The fuzz targets under hypothesis: random bytes, byte-level mutations of real files,
structured mutations of real documents, and the inputs that once found a bug. A target
may raise only its documented errors (``EXPECTED``); anything else fails the test."""

from __future__ import annotations

import contextlib
import importlib
import json
from functools import cache
from types import ModuleType
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from . import TARGETS
from .mutations import decode, encode, mutate_bytes, mutate_json

pytestmark = pytest.mark.fuzz


def json_bytes(doc: Any) -> bytes:
    return json.dumps(doc).encode()


@cache
def target(name: str) -> ModuleType:
    return importlib.import_module(f"{__package__}.{name}")


@cache
def seeds(name: str) -> list[bytes]:
    return target(name).seeds()


@cache
def documents(name: str) -> list[Any]:
    form = target(name).FORMAT
    return [doc for doc in (decode(form, seed) for seed in seeds(name)) if doc is not None]


def check(name: str, data: bytes) -> None:
    module = target(name)
    with contextlib.suppress(module.EXPECTED):
        module.fuzz_one(data)


class Drawn:
    """Mutation choices drawn by hypothesis, so that a failure shrinks."""

    def __init__(self, data: st.DataObject) -> None:
        self.data = data

    def integer(self, low: int, high: int) -> int:
        return self.data.draw(st.integers(low, high))

    def value(self) -> Any:
        scalars = st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8)
        return self.data.draw(st.recursive(scalars, lambda inner: st.lists(inner, max_size=3)
                                           | st.dictionaries(st.text(max_size=8), inner,
                                                             max_size=3), max_leaves=8))

    def blob(self) -> bytes:
        return self.data.draw(st.binary(min_size=1, max_size=8))


@pytest.mark.parametrize("name", TARGETS)
def test_every_seed_is_handled(name: str) -> None:
    assert documents(name), "the seeds decode"
    for data in seeds(name):
        check(name, data)


@pytest.mark.parametrize("name", TARGETS)
@given(data=st.binary(max_size=4000))
def test_random_bytes(name: str, data: bytes) -> None:
    check(name, data)


@pytest.mark.parametrize("name", TARGETS)
@given(choices=st.data())
def test_mutated_files(name: str, choices: st.DataObject) -> None:
    pick = Drawn(choices)
    seed = seeds(name)[pick.integer(0, len(seeds(name)) - 1)]
    check(name, mutate_bytes(seed, pick))


@pytest.mark.parametrize("name", TARGETS)
@given(choices=st.data())
def test_mutated_documents(name: str, choices: st.DataObject) -> None:
    pick = Drawn(choices)
    doc = documents(name)[pick.integer(0, len(documents(name)) - 1)]
    check(name, encode(target(name).FORMAT, mutate_json(doc, pick)))


@pytest.mark.parametrize("name", TARGETS)
@given(choices=st.data())
def test_mutated_documents_with_words(name: str, choices: st.DataObject) -> None:
    """The same with the words and edge values of our formats as new values."""
    from .mutations import RandomPicker

    pick = RandomPicker(choices.draw(st.integers(0, 2**32)))
    doc = documents(name)[pick.integer(0, len(documents(name)) - 1)]
    check(name, encode(target(name).FORMAT, mutate_json(doc, pick)))


# --- inputs that found bugs (each crashed before its fix) ------------------------------

_LOADED = {"ok": True, "state": {}}
_SIX = {"ok": True, "actions": [{"type": "pass"}] * 6}
REGRESSIONS = {
    "scenario: an unknown key holding '/' (found by atheris)": (
        "scenario_file", b"id: x\ntitle: t\nrules: [turn.play]\ngiven: {setup: {players: 2}}\n"
                         b"steps: []\na/b: 1\n"),
    "server: a line of invalid UTF-8 ended the server": ("protocol_server", b"\x80\n"),
    "server: variants as a list": (
        "protocol_server", b'{"id":1,"op":"new_game","players":2,"variants":[1]}\n'),
    "server: colours as a number": (
        "protocol_server", b'{"id":1,"op":"new_game","players":2,"colours":5}\n'),
    "server: colours as lists": (
        "protocol_server", b'{"id":1,"op":"new_game","players":2,"colours":[[1],[2]]}\n'),
    "server: JSON nested too deeply": ("protocol_server", b"[" * 5000 + b"\n"),
    "runner: an answer nested too deeply": ("conform_answers", b"[" * 5000),
    "runner: perft, a listed action rejected (the divergence escaped the case)": (
        "conform_answers", json_bytes(["perft", _LOADED, {"ok": True, "actions": [{}]},
                                       _LOADED, {"ok": True, "actions": [{}]}, {"ok": True}])),
    "runner: perft, actions not a list": (
        "conform_answers", json_bytes(["perft", _LOADED, {"ok": True, "actions": 5}])),
    "cli: a --variant flag with a line break, given twice, made two lines (hypothesis)": (
        "cli_values", b"\x00\n\x00="),
    "runner: perft, a state that is not a map": (
        "conform_answers", json_bytes(["perft", _LOADED, _SIX, _LOADED, _SIX,
                                       {"ok": True, "state": []}])),
}


@pytest.mark.parametrize("name, data", list(REGRESSIONS.values()), ids=list(REGRESSIONS))
def test_regression(name: str, data: bytes) -> None:
    check(name, data)


def test_regression_rejected_under_a_rule_that_is_not_text() -> None:
    """A rejection naming a list as its rule broke the run's summary (unhashable)."""
    answers = json.loads(seeds("conform_answers")[0])
    assert answers[0] == "scenario" and "events" in answers[4]  # the first apply
    answers[4] = {"ok": True, "rejected": {"rule": [1]}}
    check("conform_answers", json_bytes(answers))
