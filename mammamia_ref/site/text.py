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


def raw_block(html: str) -> str:
    """HTML on a line of its own, blank lines around it, so Markdown leaves it alone."""
    return "\n" + html + "\n"
