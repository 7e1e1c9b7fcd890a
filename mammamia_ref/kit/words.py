"""The port's words (its name, version, protocol, error messages, rule labels) as the
kit shows them: the port is someone else's program, so what it says is cut short and
made inert before it reaches a terminal, a Markdown report or an HTML page. One function
per medium, all starting from :func:`plain`."""

from __future__ import annotations

import html
import json
import re
from typing import Any

# Characters shown as escapes: every control character (C0, DEL, C1, which carry
# terminal escape sequences and bells), the bidirectional and zero-width formatting
# characters (U+202E reverses what follows), line and paragraph separators, lone
# surrogates (not encodable: printing one is a UnicodeEncodeError), and U+FFFE, U+FFFF.
_INERT = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u206f"
                    "\ufeff\ufff9-\ufffb\ufffe\uffff\ud800-\udfff]")
WORDS = 80  # characters of a port's word shown, at most


def _escaped(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def plain(value: Any, limit: int = WORDS) -> str:
    r"""A port's word as one safe line of text: anything but a string as JSON, every
    character a terminal or an encoder would act on written as an escape, and at most
    ``limit`` characters (a longer one cut, saying how long it was).

    >>> plain("port\x1b]0;owned\x07\ud800")
    'port\\x1b]0;owned\\x07\\ud800'
    >>> plain("x" * 100, 10)
    'xxxxxxxxxx… (100 characters)'
    """
    text = value if isinstance(value, str) else json.dumps(value, default=str)
    cut = text if len(text) <= limit else text[:limit]
    shown = _INERT.sub(_escaped, cut)
    return shown if cut == text else f"{shown}… ({len(text):,} characters)"


# What could make a word of the port Markdown of its own, escaped: the backslash itself,
# a code span, a link or an image (brackets), a table's column (pipe). HTML's ``<``,
# ``>`` and ``&`` become entities (no tag, no autolink). A ``#`` or an emphasis mark in
# the middle of a line does nothing harmful and is kept as the port wrote it.
_MARKDOWN = re.compile(r"([\\`\[\]|])")


class PortWords(str):
    """A port's own words inside a report's block: each renderer makes them inert in
    its own way (:func:`markdown_text`, or HTML's escaping)."""


def markdown_text(value: Any, limit: int = WORDS) -> str:
    """A port's word inside Markdown text (a heading, a table cell): :func:`plain`, with
    HTML's ``<``, ``>`` and ``&`` as entities and what could open a link, an image, a
    code span or a new table column escaped, so that nothing can be injected."""
    return _MARKDOWN.sub(r"\\\1", html.escape(plain(value, limit), quote=False))
