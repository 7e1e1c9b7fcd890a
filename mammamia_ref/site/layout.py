"""How the built pages fit a narrow column or a phone: identifiers break only at their
own joints, and a table too wide for its column is read as stacked rows.

- The theme lets inline code break anywhere (``word-break: break-word``), so a rule ID
  or a flag value in a table cell was cut mid-word (``oven.minimal|e``). The stylesheet
  forbids that; :func:`identifier_breaks` adds a break opportunity (``<wbr>``) after each
  ``.``, ``_``, ``=``, ``/`` and ``-`` of inline code that a letter follows, so
  ``oven.minimale_all_kinds`` wraps as ``oven.minimale_`` / ``all_kinds`` when it must.
  It runs on the finished page (after the search has read it), so the search index and
  copied text are unchanged.
- A table wider than the box that holds it (the theme scrolls it sideways, cutting off
  its right-hand columns) is made a list of stacked rows by :data:`FIT_TABLES_JS`, each
  cell under its column's heading; a table that fits stays a table.
"""

from __future__ import annotations

import re

FIT_TABLES_PATH = "assets/fit-tables.js"

# inline code: no attributes (highlighted blocks have them) and no markup inside
_INLINE_CODE = re.compile(r"<code>([^<]*)</code>")
_JOINT = re.compile(r"(?<=[A-Za-z0-9])([._=/-])(?=[A-Za-z])")
_PRE = re.compile(r"<pre\b.*?</pre\s*>", re.S | re.I)


def identifier_breaks(html: str) -> str:
    """``html`` with a ``<wbr>`` after each joint of the identifiers in inline code,
    code blocks left alone.

    >>> identifier_breaks("<p><code>oven.minimale_all_kinds</code> a.b</p>")
    '<p><code>oven.<wbr>minimale_<wbr>all_<wbr>kinds</code> a.b</p>'
    >>> identifier_breaks("<pre><code>a.b</code></pre><code>x=one</code>")
    '<pre><code>a.b</code></pre><code>x=<wbr>one</code>'
    >>> identifier_breaks("<code>-4.5</code> <code>turns=400</code>")
    '<code>-4.5</code> <code>turns=400</code>'
    """
    out: list[str] = []
    at = 0
    for match in _PRE.finditer(html):
        out.append(_breaks_outside_pre(html[at:match.start()]))
        out.append(match.group(0))
        at = match.end()
    out.append(_breaks_outside_pre(html[at:]))
    return "".join(out)


def _breaks_outside_pre(html: str) -> str:
    return _INLINE_CODE.sub(lambda m: "<code>" + _JOINT.sub(r"\1<wbr>", m.group(1))
                            + "</code>", html)


FIT_TABLES_JS = r"""
(function () {
  "use strict";
  // Each table of the article that is wider than the box that scrolls it is read as
  // stacked rows (the stylesheet's mm-stacked), each cell under its column's heading;
  // tables that fit stay tables. Tables the page already stacks (their cells carry
  // their heading, mm-col) are left alone.
  function label(table) {
    var heads = [].map.call(table.querySelectorAll("thead th"), function (th) {
      return th.textContent.trim();
    });
    table.querySelectorAll("tbody tr").forEach(function (tr) {
      [].forEach.call(tr.children, function (td, i) {
        if (heads[i] && !td.querySelector(".mm-col")) td.setAttribute("data-label", heads[i]);
      });
    });
  }
  function fit() {
    document.querySelectorAll("article .md-typeset__scrollwrap").forEach(function (box) {
      var table = box.querySelector("table");
      if (!table) return;
      box.classList.remove("mm-stacked");
      if (box.scrollWidth > box.clientWidth + 1) {
        label(table);
        box.classList.add("mm-stacked");
      }
    });
  }
  var waiting = null;
  function later() {
    if (waiting) clearTimeout(waiting);
    waiting = setTimeout(fit, 100);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", fit);
  else fit();
  window.addEventListener("load", fit);
  window.addEventListener("resize", later);
})();
"""

LAYOUT_CSS = """
/* identifiers break only where identifier_breaks put a <wbr>, never mid-word */
.md-typeset code { word-break: normal; overflow-wrap: normal; }
/* a table too wide for its column, stacked by fit-tables.js: a row a card, each cell
   under its column's heading */
.mm-stacked .md-typeset__table, .mm-stacked table, .mm-stacked tbody, .mm-stacked tr,
.md-typeset .mm-stacked table:not([class]) td { display: block; width: 100%;
  min-width: 0; box-sizing: border-box; }
.mm-stacked thead { display: none; }
.md-typeset .mm-stacked table:not([class]) tr { border-top: 1px solid
  var(--md-default-fg-color--lightest); padding: .3rem 0; }
.md-typeset .mm-stacked table:not([class]) td { border: none; padding: .1rem .6rem; }
.md-typeset .mm-stacked td:first-child { font-weight: bold; }
.mm-stacked td[data-label]::before { content: attr(data-label) ": "; font-weight: bold;
  color: var(--md-default-fg-color--light); }
.md-typeset .mm-stacked td:empty { display: none; }
.mm-stacked .mm-col { display: inline; font-weight: bold;
  color: var(--md-default-fg-color--light); }
"""


__all__ = ["FIT_TABLES_JS", "FIT_TABLES_PATH", "LAYOUT_CSS", "identifier_breaks"]
