"""Plain text as the site's Markdown: the helpers every page uses and that need no
register, so that the page modules share one escaping and one way to embed HTML."""

from __future__ import annotations

import re
from typing import Any


def md(text: Any) -> str:
    """Plain text made safe for Markdown (and for a table cell).

    >>> md("1 | 2 <b>")
    '1 \\\\| 2 &lt;b&gt;'
    """
    value = " ".join(str(text).split())
    value = value.replace("\\", "\\\\").replace("<", "&lt;").replace(">", "&gt;")
    value = value.replace("*", "\\*").replace("`", "\\`").replace("|", "\\|")
    value = value.replace("[", "\\[").replace("]", "\\]")
    return value


def first_sentence(text: str) -> str:
    """The first sentence of a statement, for tables that summarise rules; the card's
    name ends in ``!`` but does not end a sentence.

    >>> first_sentence("Reveal the Mamma Mia! card. Then stop.")
    'Reveal the Mamma Mia! card.'
    """
    words = " ".join(text.split())
    match = re.match(r"(.+?[.!?])(\s|$)", words)
    sentence = match.group(1) if match else words
    if sentence.endswith("Mamma Mia!") and len(sentence) < len(words):
        rest = first_sentence(words[len(sentence):])
        return f"{sentence} {rest}"
    return sentence


# How much the search ranks a page's sections above those of other pages: the page of a
# rule or a dispute is the first result for its name or ID, before the scenarios that
# cite it (each section's title already weighs a thousand times its text).
SEARCH_BOOST = {"rule": 8.0, "dispute": 6.0}


def search_meta(*, boost: float | None = None, exclude: bool = False) -> str:
    """The front matter that tells the search plugin how to index a page: ranked
    ``boost`` times higher, or left out (a page that another lists and leads to).

    >>> search_meta(boost=8.0)
    '---\\nsearch:\\n  boost: 8.0\\n---\\n\\n'
    >>> search_meta(exclude=True)
    '---\\nsearch:\\n  exclude: true\\n---\\n\\n'
    """
    setting = "exclude: true" if exclude else f"boost: {boost}"
    return f"---\nsearch:\n  {setting}\n---\n\n"


def raw_block(html: str) -> str:
    """HTML on a line of its own, blank lines around it, so Markdown leaves it alone."""
    return "\n" + html + "\n"


# --- HTML that Markdown need not read ---------------------------------------------------

_ASIDE = re.compile(r"^<!-- mm-html( nosearch)? -->\n(.*)$", re.M)
_SLOT = re.compile(r"<!-- mm-html (\d+) -->")


def html_block(html: str, *, search: bool = True) -> str:
    """One line of finished HTML (a scenario's steps, a position), marked so that the
    build sets it aside before Markdown and puts it back after (:func:`set_aside`,
    :func:`put_back`): Markdown and MkDocs would read every tag of it, slowly, to pass
    it through unchanged. With ``search=False`` it is put back only once the search
    index has read the page: a position drawn as cards, or the hundreds of steps of a
    generated game, would only fill the index with noise. Read without the hook, the
    page is still right: the mark is a comment and the line a raw block.

    >>> text, kept = set_aside("# T" + html_block("<div>a</div>", search=False) + "after")
    >>> text, kept
    ('# T\\n\\n<!-- mm-html 0 -->\\n\\nafter', [('<div>a</div>', False)])
    >>> put_back("<h1>T</h1>\\n<!-- mm-html 0 -->\\n<p>after</p>", kept, search=False)
    ('<h1>T</h1>\\n<div>a</div>\\n<p>after</p>', 1)
    """
    if "\n" in html:
        raise ValueError("html_block takes one line of HTML")
    return f"\n\n<!-- mm-html{'' if search else ' nosearch'} -->\n{html}\n\n"


def set_aside(markdown: str) -> tuple[str, list[tuple[str, bool]]]:
    """The Markdown with each :func:`html_block` replaced by a numbered comment, and the
    blocks in that order, each with whether the search index is to read it."""
    kept: list[tuple[str, bool]] = []

    def keep(match: re.Match[str]) -> str:
        kept.append((match.group(2), not match.group(1)))
        return f"<!-- mm-html {len(kept) - 1} -->"

    return _ASIDE.sub(keep, markdown), kept


def put_back(html: str, kept: list[tuple[str, bool]], *, search: bool) -> tuple[str, int]:
    """The HTML Markdown made of :func:`set_aside`'s text with the blocks for the search
    index (``search``), or the others, back in place; and how many were put back (the
    hook checks that every block found its place)."""
    if not kept:
        return html, 0
    placed = 0

    def place(match: re.Match[str]) -> str:
        nonlocal placed
        block, searchable = kept[int(match.group(1))]
        if searchable != search:
            return match.group(0)
        placed += 1
        return block

    return _SLOT.sub(place, html), placed
