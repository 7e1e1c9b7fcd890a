"""The hand-written pages read as written: a paragraph is not swallowed by the table
before it (Markdown continues a table on any following line that is not blank)."""

from __future__ import annotations

from itertools import pairwise
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = sorted([*(ROOT / "docs").glob("*.md"), ROOT / "README.md", ROOT / "CONTRIBUTING.md"])


def glued_to_a_table(text: str) -> list[int]:
    """The lines (from 1) that follow a table row without a blank line between, and are
    not rows themselves: Markdown renders them inside the table.

    >>> glued_to_a_table("| a | b |\\n|---|---|\\n| 1 | 2 |\\nA paragraph.\\n")
    [4]
    >>> glued_to_a_table("| a | b |\\n|---|---|\\n\\nA paragraph.\\n")
    []
    """
    lines = text.splitlines()
    fenced, found = False, []
    for number, (before, line) in enumerate(pairwise(lines), start=2):
        if before.lstrip().startswith("```"):
            fenced = not fenced
        if not fenced and before.lstrip().startswith("|") and line.strip() \
                and not line.lstrip().startswith("|"):
            found.append(number)
    return found


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_no_paragraph_is_glued_to_a_table(page: Path) -> None:
    assert glued_to_a_table(page.read_text(encoding="utf-8")) == []
