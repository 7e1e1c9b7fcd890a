"""mammamia_ref.formats.safeyaml: untrusted YAML, the JSON-compatible subset only, with the file
and line of every refusal."""

from __future__ import annotations

import time

import pytest

from mammamia_ref.errors import MalformedError
from mammamia_ref.formats import safeyaml
from mammamia_ref.formats.safeyaml import (
    MAX_BYTES,
    MAX_DEPTH,
    Loaded,
    YamlInputError,
    load_bytes,
    load_file,
)

FILE = "some/dir/case.yaml"


def refused(raw: bytes, line: int | None, *needles: str) -> YamlInputError:
    with pytest.raises(YamlInputError) as info:
        load_bytes(raw, FILE)
    error = info.value
    assert isinstance(error, MalformedError) and isinstance(error, ValueError)
    assert error.file == FILE
    assert error.line == line, str(error)
    assert str(error).startswith(f"{FILE}:{line}:" if line else f"{FILE}:")
    for needle in needles:
        assert needle in str(error)
    return error


BILLION_LAUGHS = b"""\
a: &a ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]
b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]
c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]
d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]
e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d]
f: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e]
g: &g [*f, *f, *f, *f, *f, *f, *f, *f, *f]
h: &h [*g, *g, *g, *g, *g, *g, *g, *g, *g]
i: &i [*h, *h, *h, *h, *h, *h, *h, *h, *h]
"""


def test_billion_laughs_is_refused_quickly() -> None:
    started = time.process_time()  # CPU time: a busy machine does not stretch it
    refused(BILLION_LAUGHS, 1, "anchors and aliases")
    assert time.process_time() - started < 1.0


def test_a_lone_alias_is_refused() -> None:
    refused(b"a: 1\nb: *x\n", 2, "anchors and aliases")


def test_an_anchor_late_in_the_file() -> None:
    refused(b"a: 1\nb:\n  c: 2\n  d: &x 3\n", 4, "anchors and aliases")


@pytest.mark.parametrize("raw, line", [
    (b"a: !!python/object/apply:os.system ['echo hi']\n", 1),
    (b"a: 1\nb: !!python/object:builtins.dict {}\n", 2),
    (b"x: !!str 3\n", 1),
    (b"x: !!binary aGVsbG8=\n", 1),
    (b"x: !custom 3\n", 1),
    (b"- 1\n- !!set {a, b}\n", 2),
    (b"--- !!map\na: 1\n", 1),
])
def test_tags_are_refused(raw, line) -> None:
    refused(raw, line, "tags are not allowed")


def test_duplicate_key_reports_the_second_key() -> None:
    raw = b"id: x\nplayers:\n  red: 1\n  green: 2\n  red: 3\ntitle: t\n"
    refused(raw, 5, "duplicate key 'red'")
    refused(b"a: 1\nb: 2\na: 3\n", 3, "duplicate key 'a'")
    refused(b"m: {k: 1, j: 2,\n   k: 3}\n", 2, "duplicate key 'k'")


@pytest.mark.parametrize("raw, line", [
    (b"1: one\n", 1),
    (b"a: 1\ntrue: yes\n", 2),
    (b"a:\n  ~: 1\n", 2),
    (b"a: 1\n? [x, y]\n: 2\n", 2),
    (b"? {x: 1}\n: 2\n", 1),
])
def test_non_string_keys_are_refused(raw, line) -> None:
    refused(raw, line, "every key must be a string")


@pytest.mark.parametrize("raw, line", [
    (b"a: 1\nwhen: 2020-01-02\n", 2),
    (b"when: 2001-12-14t21:59:43.10-05:00\n", 1),
    (b"list:\n  - x\n  - 2002-12-14\n", 3),
])
def test_dates_are_refused(raw, line) -> None:
    refused(raw, line, "not JSON", "quote it")


def test_date_key_is_refused() -> None:
    refused(b"a: 1\n2020-01-01: new year\n", 2, "not JSON")


def test_quoted_date_is_text() -> None:
    assert load_bytes(b'when: "2020-01-02"\n', FILE).data == {"when": "2020-01-02"}


@pytest.mark.parametrize("raw, line", [
    (b"a: 1.5\n", 1),
    (b"a: 1\nb: 1.0\n", 2),
    (b"a: [1, 2, 3.25]\n", 1),
    (b"a: .inf\n", 1),
    (b"a: -.inf\n", 1),
    (b"a: .nan\n", 1),
    (b"a:\n  b:\n    c: 6.02e+23\n", 3),
])
def test_floats_are_refused(raw, line) -> None:
    refused(raw, line, "integers only")


@pytest.mark.parametrize("value", [2**53 + 1, -(2**53) - 1, 10**20, -(10**30)])
def test_integers_beyond_2_to_the_53_are_refused(value) -> None:
    refused(f"a: 1\nb: {value}\n".encode(), 2, "too large")


def test_integers_up_to_2_to_the_53_are_accepted() -> None:
    data = load_bytes(f"a: {2**53}\nb: {-(2**53)}\nc: 0\nd: -7\n".encode(), FILE).data
    assert data == {"a": 2**53, "b": -(2**53), "c": 0, "d": -7}


def test_hex_integer_is_refused() -> None:
    refused(b"a: 0x" + b"f" * 20 + b"\n", 1, "plain decimal")


def test_non_utf8_is_refused_with_its_line() -> None:
    refused(b"a: 1\nb: 2\nc: caf\xe9\n", 3, "not UTF-8")
    refused(b"\xff\xfe\x00a", 1, "not UTF-8")


@pytest.mark.parametrize("raw", [b"", b"   \n\n\t\n"])
def test_empty_file_is_refused(raw) -> None:
    refused(raw, None, "empty")


def test_a_file_of_comments_holds_no_document() -> None:
    refused(b"# nothing here\n# really\n", None, "no document")


def test_file_over_the_size_limit() -> None:
    raw = b"a: " + b"x" * MAX_BYTES + b"\n"
    started = time.process_time()  # CPU time: a busy machine does not stretch it
    refused(raw, None, "limit", str(MAX_BYTES))
    assert time.process_time() - started < 1.0


def test_size_limit_boundary(monkeypatch) -> None:
    monkeypatch.setattr(safeyaml, "MAX_BYTES", 100)
    raw = b"a: '" + b"x" * 94 + b"'\n"
    assert len(raw) == 100
    assert len(load_bytes(raw, FILE).data["a"]) == 94
    refused(raw + b"\n", None, "101 bytes", "limit is 100")


def nested_flow(depth: int) -> bytes:
    return b"a: " + b"[" * depth + b"]" * depth + b"\n"


def nested_block(depth: int) -> bytes:
    return b"".join(b"  " * i + b"k:\n" for i in range(depth)) + b"  " * depth + b"v\n"


def test_nesting_deeper_than_the_limit_is_refused() -> None:
    refused(nested_flow(MAX_DEPTH + 5), 1, f"deeper than {MAX_DEPTH}")
    refused(nested_block(MAX_DEPTH + 5), MAX_DEPTH + 1, f"deeper than {MAX_DEPTH}")


def test_nesting_at_the_limit_is_accepted() -> None:
    data = load_bytes(nested_flow(MAX_DEPTH - 1), FILE).data
    depth = 0
    while isinstance(data, (dict, list)) and data:
        data = data["a"] if isinstance(data, dict) else data[0]
        depth += 1
    assert depth >= MAX_DEPTH - 1


@pytest.mark.parametrize("raw, line, needle", [
    (b"a: [1, 2\nb: 3\n", 2, "not valid YAML"),
    (b"a: {x: 1\n", 2, "not valid YAML"),
    (b"a: 1\nb: 'open\n", 3, "not valid YAML"),
    (b"a: 1\n  b: 2\n", 2, "not valid YAML"),
    (b"a: 1\n- 2\n", 2, "not valid YAML"),
    (b"a: 1\n---\nb: 2\n", 2, "not valid YAML"),
    (b"a: 1\n\tb: 2\n", 2, "not valid YAML"),
])
def test_invalid_yaml(raw, line, needle) -> None:
    refused(raw, line, needle)


# --- acceptance ---------------------------------------------------------------------


ORDINARY = b"""\
# a scenario-like document
id: alberto-turn
title: "Alberto's turn"
rules: [turn.play, turn.draw]
flags:
  on_text: "on"
  yes_text: 'yes'
given:
  state:
    round: 2
    players:
      - colour: green
        hand:
          ingredients: {salami: 3, mushroom: 2}
          orders: [green.salami4]
      - colour: red
nothing: null
truth: true
text: >-
  folded
  text
negative: -3
unicode: "caf\xc3\xa9 \xe5\x85\xa7\xe5\xae\xb9"
"""


def test_ordinary_document_is_accepted() -> None:
    loaded = load_bytes(ORDINARY, FILE)
    assert isinstance(loaded, Loaded) and loaded.file == FILE
    assert loaded.data == {
        "id": "alberto-turn",
        "title": "Alberto's turn",
        "rules": ["turn.play", "turn.draw"],
        "flags": {"on_text": "on", "yes_text": "yes"},
        "given": {"state": {"round": 2, "players": [
            {"colour": "green", "hand": {"ingredients": {"salami": 3, "mushroom": 2},
                                         "orders": ["green.salami4"]}},
            {"colour": "red"}]}},
        "nothing": None,
        "truth": True,
        "text": "folded text",
        "negative": -3,
        "unicode": "caf\u00e9 \u5167\u5bb9",
    }


def test_lines_of_json_pointers() -> None:
    loaded = load_bytes(ORDINARY, FILE)
    assert loaded.lines["/id"] == 2
    assert loaded.lines["/rules"] == 4
    assert loaded.lines["/rules/1"] == 4
    assert loaded.lines["/given"] == 8
    assert loaded.lines["/given/state/round"] == 10
    assert loaded.lines["/given/state/players"] == 11
    assert loaded.lines["/given/state/players/0"] == 12
    assert loaded.lines["/given/state/players/0/hand/ingredients"] == 14
    assert loaded.lines["/given/state/players/0/hand/ingredients/mushroom"] == 14
    assert loaded.lines["/given/state/players/1/colour"] == 16
    assert loaded.lines["/negative"] == 22
    assert loaded.line_of("/given/state/players/1/colour") == 16
    # a pointer with no line of its own takes its nearest ancestor's
    assert loaded.line_of("/given/state/players/1/hand/orders/3") == 16
    assert loaded.line_of("/given/state/players/7") == 11
    assert loaded.line_of("/nowhere") == loaded.line_of("") == 2  # the first node's line


def test_root_line_is_the_first_node() -> None:
    loaded = load_bytes(b"\n\n# comment\nkey: value\n", FILE)
    assert loaded.line_of("") == 4 and loaded.line_of("/key") == 4


def test_top_level_list_and_scalar() -> None:
    assert load_bytes(b"- 1\n- two\n", FILE).data == [1, "two"]
    assert load_bytes(b"just text\n", FILE).data == "just text"


def test_utf8_bom_is_accepted() -> None:
    assert load_bytes(b"\xef\xbb\xbfa: 1\n", FILE).data == {"a": 1}


def test_load_file(tmp_path) -> None:
    path = tmp_path / "x.yaml"
    path.write_bytes(b"a: 1\nb: [2, 3]\n")
    loaded = load_file(path)
    assert loaded.data == {"a": 1, "b": [2, 3]} and loaded.file == str(path)
    path.write_bytes(b"a: 1\na: 2\n")
    with pytest.raises(YamlInputError) as info:
        load_file(path)
    assert (info.value.file, info.value.line) == (str(path), 2)
    with pytest.raises(YamlInputError) as info:
        load_file(tmp_path / "missing.yaml")
    assert info.value.file == str(tmp_path / "missing.yaml") and "cannot read" in str(info.value)


# --- bugs -----------------------------------------------------------------------------


def _must_refuse(raw: bytes) -> YamlInputError:
    """The YamlInputError for ``raw``, with a line; anything else fails the test briefly."""
    try:
        load_bytes(raw, FILE)
    except YamlInputError as exc:
        assert exc.file == FILE and exc.line is not None, str(exc)
        return exc
    except Exception as exc:  # the point is to show what escaped
        pytest.fail(f"{type(exc).__module__}.{type(exc).__name__} escaped: {exc}", pytrace=False)
    pytest.fail("accepted", pytrace=False)


def test_integer_with_thousands_of_digits_is_refused() -> None:
    assert _must_refuse(b"a: 1\nb: 1" + b"0" * 5000 + b"\n").line == 2


def test_impossible_date_is_refused() -> None:
    assert _must_refuse(b"a: 1\nwhen: 2020-13-45\n").line == 2


@pytest.mark.parametrize("raw", [b"a: 1\n<<: {b: 2}\n", b"a: 1\n=: 2\n"])
def test_merge_and_value_keys_are_refused(raw) -> None:
    assert _must_refuse(raw).line == 2


def test_very_deep_nesting_is_refused() -> None:
    try:
        load_bytes(nested_flow(600), FILE)
    except YamlInputError as exc:
        assert "deeper" in str(exc) and exc.line == 1
    except RecursionError:  # fail without a 1000-frame traceback to format
        pytest.fail("RecursionError instead of YamlInputError", pytrace=False)
    else:
        pytest.fail("accepted", pytrace=False)


def test_control_character_is_refused_with_its_line() -> None:
    assert _must_refuse(b"a: 1\nb: \x00\n").line == 2
