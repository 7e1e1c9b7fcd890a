"""The built pages without the theme's indentation: MkDocs' templates indent every line
of the navigation, header and footer, and a run of blank space a line break or more long
is, outside preformatted text, the same to a browser as one line break.

>>> compact_html('<ul>\\n    \\n  <li>a  b</li>\\n</ul><pre>x\\n\\n    y</pre>')
'<ul>\\n<li>a  b</li>\\n</ul><pre>x\\n\\n    y</pre>'
"""

from __future__ import annotations

import re

# where blank space means what it says: preformatted text, code, scripts and styles
_KEPT = re.compile(r"<(pre|textarea|script|style|code)\b.*?</\1\s*>", re.S | re.I)
# blank space with a line break in it (ASCII only: a no-break space is text)
_BREAK = re.compile(r"[ \t\r\f]*\n[ \t\r\n\f]*")


def compact_html(html: str) -> str:
    """``html`` with every run of blank space that holds a line break made one line
    break, except inside ``pre``, ``textarea``, ``script``, ``style`` and ``code``."""
    out: list[str] = []
    at = 0
    for match in _KEPT.finditer(html):
        out.append(_BREAK.sub("\n", html[at:match.start()]))
        out.append(match.group(0))
        at = match.end()
    out.append(_BREAK.sub("\n", html[at:]))
    return "".join(out)


__all__ = ["compact_html"]
