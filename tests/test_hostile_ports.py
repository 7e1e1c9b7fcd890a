"""A hostile port's hello (issue 44, items 14 to 17): its fields are type-checked at the
protocol's edge, and its words (name, version, protocol) reach the terminal, the
Markdown report and the HTML report cut short and inert."""

from __future__ import annotations

import pytest

from mammamia_ref.cli.conform import implementation_name
from mammamia_ref.kit import PROTOCOL
from mammamia_ref.kit.cases import CaseResult
from mammamia_ref.kit.client import hello_problem
from mammamia_ref.kit.port_report import render, run_document
from mammamia_ref.kit.report import summary
from mammamia_ref.kit.words import markdown_text, plain

GOOD = {"name": "p", "language": "x", "version": "1", "protocol": PROTOCOL,
        "features": ["load_state"], "variants": {"stall": ["cut"]}}
HOSTILE_NAME = ("\ud800# Owned\n<script>alert(1)</script><img src=x onerror=alert(1)>"
                "<svg onload=alert(1)>\x00\x1b]0;title\x07\x1b[2J\u202eevil")


@pytest.mark.parametrize("field,value", [("features", 5), ("features", [1, 2]),
                                         ("variants", ["stall"]), ("variants", "all"),
                                         ("variants", {"stall": "cut"}), ("name", {"a": 1}),
                                         ("parameters", "all")])
def test_a_hello_of_the_wrong_shape_is_one_line_before_any_case(field, value) -> None:
    problem = hello_problem({**GOOD, field: value})
    assert problem is not None and problem.startswith(f"hello: {field}")
    assert "\n" not in problem and len(problem) < 200
    assert hello_problem(GOOD) is None


def test_a_megabyte_protocol_is_refused_in_a_short_line() -> None:
    problem = hello_problem({**GOOD, "protocol": "x" * 1_000_000})
    assert problem is not None and len(problem) < 200 and "xxxxxxxxxx" not in problem


def test_the_summary_shows_a_hostile_name_inert_and_encodable() -> None:
    name = implementation_name({**GOOD, "name": HOSTILE_NAME * 100})
    line = summary([CaseResult("scenario", "a", "pass")], implementation=name,
                   interrupted=False, protocol=PROTOCOL)
    line.encode("utf-8")  # a lone surrogate would raise here
    assert not any(ch in line for ch in "\x00\x1b\x07\u202e\n" if ch != "\n") and \
        line.count("\n") == 1
    assert len(line.splitlines()[0]) < 400


def test_the_reports_carry_no_markup_of_the_ports_words() -> None:
    run = run_document([CaseResult("scenario", "a", "fail", ("turn.play",),
                                   their_rules=("<b>x</b>",), message="m")],
                       {**GOOD, "name": HOSTILE_NAME, "version": "<i>1</i>"}, [])
    md, page = render(run, ".md"), render(run, ".html")
    for text in (md, page):
        text.encode("utf-8")
        for raw in ("<script>", "<img", "<svg", "<b>x", "<i>1", "\x00", "\x1b", "\u202e"):
            assert raw not in text, (raw, text[:300])
    heading = md.splitlines()[0]
    assert heading.startswith("# Conformance of ") and "&lt;script&gt;" in heading
    assert not any(line.startswith("# Owned") for line in md.splitlines())


def test_plain_and_markdown_text() -> None:
    assert plain("a\x1bb") == "a\\x1bb" and plain("é") == "é"
    assert plain("x" * 100, 10) == "xxxxxxxxxx… (100 characters)"
    assert markdown_text("[a](javascript:x) *b* <c> | `d`") == \
        "\\[a\\](javascript:x) *b* &lt;c&gt; \\| \\`d\\`"
