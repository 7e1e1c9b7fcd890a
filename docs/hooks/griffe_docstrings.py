"""A griffe extension for the API pages: the package's docstrings are reST-flavoured
(``code``, :func:`name`, bare doctests), mkdocstrings reads Markdown. Before rendering,
doctests become ``pycon`` code blocks (else ``[1, 2]`` in an output line reads as a
link) and the reST roles become inline code."""

from __future__ import annotations

import re
from typing import Any

import griffe

_ROLE = re.compile(r":(?:func|class|mod|meth|data|attr|exc):`~?([^`]+)`")


def markdown_docstring(text: str) -> str:
    """A docstring's text with its doctests fenced and its roles as code.

    >>> markdown_docstring("Add.\\n\\n>>> 1 + 1\\n2\\n\\nSee :func:`add`.")
    'Add.\\n\\n```pycon\\n>>> 1 + 1\\n2\\n```\\n\\nSee `add`.'
    """
    out: list[str] = []
    in_code = False
    for line in _ROLE.sub(r"`\1`", text).splitlines():
        if line.lstrip().startswith(">>>") and not in_code:
            if out and out[-1].strip():
                out.append("")
            out += ["```pycon", line.strip()]
            in_code = True
        elif in_code and not line.strip():
            out += ["```", ""]
            in_code = False
        elif in_code:
            out.append(line.strip())
        else:
            out.append(line)
    if in_code:
        out.append("```")
    return "\n".join(out)


class DocstringsAsMarkdown(griffe.Extension):
    """Rewrites every docstring once, as griffe loads the object."""

    def on_instance(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = markdown_docstring(obj.docstring.value)
