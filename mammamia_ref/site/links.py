"""Where every page lives and how one page links to another: one place for the site's
addresses, so a page never spells out another page's path.

>>> rel("rules/oven.md", "disputes/D4.md", "flag-minimale_lowest")
'../disputes/D4.md#flag-minimale_lowest'
"""

from __future__ import annotations

import posixpath
import re
from functools import lru_cache
from html import escape
from typing import Any

from mammamia_ref.site.inputs import ScenarioView, Spec
from mammamia_ref.site.text import md


@lru_cache(maxsize=1 << 16)  # the same links over and over: a story names a rule a step
def rel(source: str, target: str, anchor: str | None = None) -> str:
    """The relative link from page ``source`` to page ``target`` (paths under docs/)."""
    path = posixpath.relpath(target, posixpath.dirname(source) or ".")
    return path + (f"#{anchor}" if anchor else "")


def html_link(source: str, target: str, anchor: str | None = None) -> str:
    """The same link in the built site (``use_directory_urls: false``), for raw HTML.

    >>> html_link("rules/quick-reference.md", "rules/oven.md", "oven.open")
    'oven.html#oven.open'
    """
    path = rel(source, target)
    if path.endswith(".md"):
        path = path[:-3] + ".html"
    return path + (f"#{anchor}" if anchor else "")


def rule_page(spec: Spec, rule_id: str) -> str:
    """The chapter page of a rule; an unknown rule goes by the chapter its ID names."""
    rule = spec.rule_by_id.get(rule_id)
    chapter = rule["chapter"] if rule else rule_id.split(".", 1)[0]
    return f"rules/{chapter}.md"


def rule_link(spec: Spec, source: str, rule_id: str, text: str | None = None) -> str:
    """A link to a rule's anchor; an unknown rule is shown, not linked (the checks report
    it), so that a page never holds a broken link."""
    if rule_id not in spec.rule_by_id:
        return f"`{rule_id}` (unknown rule)"
    return f"[`{text or rule_id}`]({rel(source, rule_page(spec, rule_id), rule_id)})"


def rule_link_html(spec: Spec, source: str, rule_id: str) -> str:
    """:func:`rule_link` for raw HTML: the built page's address.

    >>> rule_link_html(Spec({"rules": [{"id": "turn.play", "chapter": "turn"}]}, {}, {}, None,
    ...                     None), "scenarios/turn/x.md", "turn.play")
    '<a href="../../rules/turn.html#turn.play"><code>turn.play</code></a>'
    """
    if rule_id not in spec.rule_by_id:
        return f"<code>{escape(rule_id)}</code> (unknown rule)"
    href = html_link(source, rule_page(spec, rule_id), rule_id)
    return f'<a href="{escape(href)}"><code>{escape(rule_id)}</code></a>'


HOUSE_PAGE = "house/index.md"
"""The page of the house rules: a flag no dispute owns has its table there."""


def dispute_page(dispute_id: str) -> str:
    return f"disputes/{dispute_id}.md"


def dispute_link(spec: Spec, source: str, dispute_id: str, *, title: bool = True) -> str:
    dispute = spec.dispute_by_id.get(dispute_id)
    if dispute is None:
        return f"{dispute_id} (unknown dispute)"
    text = f"{dispute_id}: {dispute['title']}" if title else dispute_id
    return f"[{md(text)}]({rel(source, dispute_page(dispute_id))})"


def flag_link(spec: Spec, source: str, flag: str, value: str | None = None) -> str:
    """A flag (with a value, if given) linked to its table on its dispute's page, or on
    the house rules page for a house rule's flag (one no dispute owns)."""
    entry = spec.flags.get(flag)
    text = f"`{flag}={value}`" if value is not None else f"`{flag}`"
    if entry is None:
        return text
    page = HOUSE_PAGE if entry.get("dispute") is None else dispute_page(entry["dispute"])
    return f"[{text}]({rel(source, page, f'flag-{flag}')})"


def scenario_link(source: str, view: ScenarioView, *, title: bool = False) -> str:
    text = f"{view.id}: {view.scenario.title}" if title else view.id
    return f"[{md(text)}]({rel(source, view.page)})"


def prose(spec: Spec, source: str, text: Any) -> str:
    """Register prose as Markdown, every rule ID it names linked to its anchor."""
    value = md(text)
    ids = sorted(spec.rule_by_id, key=len, reverse=True)
    if not ids:
        return value
    pattern = re.compile(r"(?<![\w.`/#-])(" + "|".join(re.escape(i) for i in ids) + r")(?![\w])")
    return pattern.sub(lambda m: rule_link(spec, source, m.group(1)), value)
