"""Checking the built site: every link in the HTML MkDocs wrote leads to a page that
exists and, with an anchor, to an element that has it. MkDocs checks the Markdown's
links; this also catches those inside raw HTML and SVG (cards, flow pictures).
"""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit


class _LinkParser(HTMLParser):
    """The anchors a page defines and the links it makes."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.ids: set[str] = set()
        self.links: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if values.get("id"):
            self.ids.add(str(values["id"]))
        if tag == "a" and values.get("name"):
            self.ids.add(str(values["name"]))
        for key in ("href", "src"):
            if tag in ("a", "link", "img", "script") and values.get(key):
                self.links.append(str(values[key]))


def broken_links(site_dir: str | Path) -> list[str]:
    """Every link in the built site (``*.html``) to a missing file or a missing anchor.
    External links (with a scheme) are not followed."""
    site = Path(site_dir)
    parsed: dict[Path, _LinkParser] = {}

    def parse(path: Path) -> _LinkParser:
        if path not in parsed:
            parser = _LinkParser()
            parser.feed(path.read_text(encoding="utf-8", errors="replace"))
            parsed[path] = parser
        return parsed[path]

    broken: list[str] = []
    for page in sorted(site.rglob("*.html")):
        if page.name == "404.html":
            continue
        for link in parse(page).links:
            parts = urlsplit(link)
            if parts.scheme or parts.netloc or link.startswith(("/", "data:")):
                continue
            target = page if not parts.path else (page.parent / unquote(parts.path)).resolve()
            if parts.path.endswith("/") or target.is_dir():
                target = target / "index.html"
            name = page.relative_to(site).as_posix()
            if not target.exists():
                broken.append(f"{name}: link to missing {link}")
                continue
            anchor = unquote(parts.fragment)
            if anchor and target.suffix == ".html" and anchor not in parse(target).ids:
                broken.append(f"{name}: link to missing anchor {link}")
    return broken
