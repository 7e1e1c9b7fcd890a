"""Checking the built site: every link in the HTML MkDocs wrote leads to a page that
exists and, with an anchor, to an element that has it. MkDocs checks the Markdown's
links; this also catches those inside raw HTML and SVG (cards, flow pictures).

The pages are read with regular expressions, not an HTML parser: the site is tens of
megabytes of HTML and only the tags' ``id``, ``name``, ``href`` and ``src`` matter. In
text a ``<`` is always written ``&lt;``, so every ``<`` followed by a letter opens a
tag; comments and the bodies of scripts and styles are left out first, as a parser
would. Each file's existence is looked up in one listing of the site, and a link is
resolved once per folder it appears in. Large sites are read by two processes.
"""

from __future__ import annotations

import os
import posixpath
import re
from concurrent.futures import ProcessPoolExecutor
from html import unescape
from pathlib import Path
from urllib.parse import unquote, urlsplit

# a comment, or a script or style element (its opening tag kept: a script has a src)
_HIDDEN = re.compile(r"<!--.*?-->|(<(script|style)\b(?:[^>\"']|\"[^\"]*\"|'[^']*')*>)"
                     r".*?</\2\s*>", re.S | re.I)
_TAG = re.compile(r"<([a-zA-Z][^\s/>]*)((?:[^>\"']|\"[^\"]*\"|'[^']*')*)>")
_ATTR = re.compile(r"([^\s\"'>/=]+)(?:\s*=\s*(?:\"([^\"]*)\"|'([^']*)'|([^\s>]+)))?")
_LINKING = {"a", "link", "img", "script"}
_WANTED = re.compile(r"(?<![\w-])(?:id|name|href|src)\s*=", re.I)

PARALLEL_FROM = 40   # pages: fewer are read in this process


def _attributes(text: str) -> dict[str, str]:
    """A tag's attributes, names in lower case and values unescaped (as HTMLParser
    gives them); the last of a repeated name wins, as in ``dict(attrs)``."""
    found: dict[str, str] = {}
    for match in _ATTR.finditer(text):
        value = match.group(2)
        if value is None:
            value = match.group(3)
        if value is None:
            value = match.group(4) or ""
        found[match.group(1).lower()] = unescape(value) if "&" in value else value
    return found


def page_links(text: str) -> tuple[set[str], list[str]]:
    """The anchors a page defines (``id`` of any element, ``name`` of an ``a``) and the
    links it makes (``href`` and ``src`` of ``a``, ``link``, ``img`` and ``script``), in
    the order of the page.

    >>> ids, links = page_links('<h1 id="top">A &lt;b id="no"&gt;</h1><!-- <a href="x"> -->'
    ...     '<a name=n href="b.html#c&amp;d">b</a><script src="s.js">"<a href=y>"</script>')
    >>> sorted(ids), links
    (['n', 'top'], ['b.html#c&d', 's.js'])
    """
    ids: set[str] = set()
    links: list[str] = []
    text = _HIDDEN.sub(lambda m: m.group(1) or "", text)
    for match in _TAG.finditer(text):
        rest = match.group(2)
        if not rest or not _WANTED.search(rest):
            continue
        values = _attributes(rest)
        tag = match.group(1).lower()
        if values.get("id"):
            ids.add(values["id"])
        if tag == "a" and values.get("name"):
            ids.add(values["name"])
        if tag in _LINKING:
            links += [values[key] for key in ("href", "src") if values.get(key)]
    return ids, links


def _read(path: str) -> tuple[set[str], list[str]]:
    with open(path, encoding="utf-8", errors="replace") as handle:
        return page_links(handle.read())


def _read_all(paths: list[str]) -> list[tuple[set[str], list[str]]]:
    if len(paths) < PARALLEL_FROM or (os.cpu_count() or 1) < 2:
        return [_read(p) for p in paths]
    with ProcessPoolExecutor(max_workers=2) as pool:
        return list(pool.map(_read, paths, chunksize=max(1, len(paths) // 16)))


def _listing(site: Path) -> tuple[set[str], set[str]]:
    """Every file and every folder of the site, as paths relative to it."""
    files: set[str] = set()
    folders: set[str] = {"."}
    for folder, subfolders, names in os.walk(site):
        base = os.path.relpath(folder, site).replace(os.sep, "/")
        prefix = "" if base == "." else base + "/"
        folders.update(prefix + d for d in subfolders)
        files.update(prefix + n for n in names)
    return files, folders


def _link_target(site: Path, files: set[str], folders: set[str], folder: str,
                 path: str) -> str | None:
    """The file a link's path leads to from ``folder`` (relative to the site), or None if
    there is none: a page of the site (a folder's ``index.html``), or a file outside it."""
    joined = posixpath.normpath(posixpath.join(folder, unquote(path)))
    if joined == ".." or joined.startswith("../"):   # outside the site
        outside = (site / joined).resolve()
        if path.endswith("/") or outside.is_dir():
            outside = outside / "index.html"
        return str(outside) if outside.exists() else None
    if path.endswith("/") or joined in folders:
        joined = "index.html" if joined == "." else joined + "/index.html"
    return joined if joined in files else None


def broken_links(site_dir: str | Path) -> list[str]:
    """Every link in the built site (``*.html``) to a missing file or a missing anchor.
    External links (with a scheme) are not followed."""
    site = Path(site_dir)
    files, folders = _listing(site)
    pages = sorted(site.rglob("*.html"))
    names = [page.relative_to(site).as_posix() for page in pages]
    sources = [(page, name) for page, name in zip(pages, names, strict=True)
               if page.name != "404.html"]
    parsed = dict(zip([name for _, name in sources],
                      _read_all([str(page) for page, _ in sources]), strict=True))

    def anchors(name: str) -> set[str]:
        if name not in parsed:
            parsed[name] = _read(str(site / name))
        return parsed[name][0]

    resolved: dict[tuple[str, str], str | None] = {}

    def target_of(folder: str, path: str) -> str | None:
        key = (folder, path)
        if key not in resolved:
            resolved[key] = _link_target(site, files, folders, folder, path)
        return resolved[key]

    broken: list[str] = []
    for _, name in sources:
        folder = posixpath.dirname(name) or "."
        for link in parsed[name][1]:
            parts = urlsplit(link)
            if parts.scheme or parts.netloc or link.startswith(("/", "data:")):
                continue
            target = name if not parts.path else target_of(folder, parts.path)
            if target is None:
                broken.append(f"{name}: link to missing {link}")
                continue
            anchor = unquote(parts.fragment)
            if anchor and target.endswith(".html") and anchor not in anchors(target):
                broken.append(f"{name}: link to missing anchor {link}")
    return broken



def unlinked_files(site_dir: str | Path, docs_dir: str | Path) -> list[str]:
    """The files of ``docs/`` (data, pictures: not the pages) that the build copied into
    the site and that no page links to: shipped, but no reader finds them. A file of
    the site is one of ``docs/`` when ``docs/`` holds it at the same path."""
    site, docs = Path(site_dir), Path(docs_dir)
    files, _ = _listing(site)
    copied = sorted(f for f in files if not f.endswith((".html", ".md"))
                    and (docs / f).is_file())
    if not copied:
        return []
    pages = sorted(site.rglob("*.html"))
    linked: set[str] = set()
    for page, (_, links) in zip(pages, _read_all([str(p) for p in pages]), strict=True):
        folder = posixpath.dirname(page.relative_to(site).as_posix())
        for link in links:
            parts = urlsplit(link)
            if parts.path and not (parts.scheme or parts.netloc or link.startswith("/")):
                linked.add(posixpath.normpath(posixpath.join(folder, unquote(parts.path))))
    return [f"{f}: shipped from docs/ but no page links to it" for f in copied
            if f not in linked]
