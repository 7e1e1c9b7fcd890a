"""MkDocs hook: generates the rules site from spec/ and scenarios/ at build time.

The pages never exist in docs/: they are added to the build as generated files. What
must fail the build (an unknown rule ID, a scenario that does not load or diverges, a
rule that no scenario exercises, a broken link in the built HTML, a file of docs/ shipped
that no page links) is logged as an error, so that ``mkdocs build --strict`` fails.

Environment (for tests and for work in progress):

- ``MAMMAMIA_SITE_SCENARIOS``: scenario folders or files, separated by the path
  separator (default: ``scenarios`` beside mkdocs.yml);
- ``MAMMAMIA_SITE_ALLOW``: kinds of problem (see ``mammamia_ref.site.checks.Problem``),
  separated by commas, reported as information instead of errors; for example
  ``uncovered-rule`` while the scenarios are still being written.

The hook hands the ``mammamia`` argument parser to the generator for the command line
page: the site package sits below the command line and does not import it. It also puts
the package's version after the site's name in the header, writes the pages without the
theme's indentation (``mammamia_ref.site.compact``) and with break points in the
identifiers of inline code (``mammamia_ref.site.layout``) and logs each stage of the build as
it ends, with its time ("mammamia: ... 3.2 s"), so that a reader sees the build go on.
"""

from __future__ import annotations

import logging
import os
import time
from pathlib import Path
from typing import Any

from mkdocs.plugins import event_priority
from mkdocs.structure.files import File, Files

from mammamia_ref.cli.app import build_parser, package_version
from mammamia_ref.site import build as site
from mammamia_ref.site.compact import compact_html
from mammamia_ref.site.text import put_back, set_aside

log = logging.getLogger("mkdocs.hooks.mammamia")

_state: dict[str, Any] = {}


def _stage(what: str) -> None:
    """Log a stage that has just ended, with the time since the previous one ended."""
    now = time.perf_counter()
    log.info("mammamia: %s ... %.1f s", what, now - _state.get("clock", now))
    _state["clock"] = now


def _scenario_paths(config: Any) -> list[Path]:
    root = Path(config.config_file_path).resolve().parent
    raw = os.environ.get("MAMMAMIA_SITE_SCENARIOS")
    if raw:
        return [Path(p) if Path(p).is_absolute() else root / p for p in raw.split(os.pathsep)
                if p]
    return [root / "scenarios"]


def on_config(config: Any) -> Any:
    _state["clock"] = time.perf_counter()
    paths = _scenario_paths(config)
    corpus = site.load_corpus(paths, impact=Path(config["docs_dir"]) / "impact",
                              house=Path(config["docs_dir"]) / "house-rules")
    runs = [run for view in corpus.scenarios for run in view.runs]
    _stage(f"scenarios loaded and played: {len(corpus.scenarios)} scenarios, {len(runs)} runs, "
           f"{sum(len(run.frames) for run in runs):,} steps")
    allowed = {k.strip() for k in os.environ.get("MAMMAMIA_SITE_ALLOW", "").split(",")}
    found = site.problems(corpus, require_coverage=True)
    for problem in found:
        if problem.kind in allowed:
            log.info("mammamia: %s (allowed by MAMMAMIA_SITE_ALLOW)", problem)
        else:
            log.error("mammamia: %s", problem)
    _stage(f"checks: {len(found)} problem{'' if len(found) == 1 else 's'}")
    handwritten = site.handwritten_pages(config["docs_dir"])
    _state["corpus"] = corpus
    _state["pages"] = site.generate(corpus, handwritten, parser=build_parser(), progress=_stage)
    _state["paths"] = paths
    config["nav"] = site.nav(corpus, handwritten)
    # the version in the header (there is no public repository yet to link to)
    if not config["site_name"].endswith(package_version()):
        config["site_name"] = f"{config['site_name']} {package_version()}"
    return config


def on_files(files: Files, config: Any) -> Files:
    for name, content in _state["pages"].items():
        existing = files.get_file_from_path(name)
        if existing is not None:
            log.error("mammamia: docs/%s would hide a generated page; remove it", name)
            files.remove(existing)
        files.append(File.generated(config, name, content=content))
    _stage(f"site folder cleaned, files gathered: {len(files)} (generated, hand-written, "
           "the theme's)")
    return files


def on_nav(nav: Any, config: Any, files: Files) -> Any:
    _state["converted"] = 0
    return nav


def on_page_markdown(markdown: str, page: Any, config: Any, files: Files) -> str:
    # the finished HTML of the stories and positions skips Markdown (see html_block)
    markdown, kept = set_aside(markdown)
    _state.setdefault("aside", {})[page.file.src_uri] = kept
    return markdown


def on_page_content(html: str, page: Any, config: Any, files: Files) -> str:
    _state["converted"] = _state.get("converted", 0) + 1
    html, placed = put_back(html, _state["aside"].get(page.file.src_uri, []), search=True)
    _state.setdefault("placed", {})[page.file.src_uri] = placed
    return html


@event_priority(-100)  # after the search plugin has read the page
def on_page_context(context: Any, page: Any, config: Any, nav: Any) -> Any:
    kept = _state["aside"].pop(page.file.src_uri, [])
    page.content, placed = put_back(page.content, kept, search=False)
    if placed + _state["placed"].pop(page.file.src_uri, 0) != len(kept):
        log.error("mammamia: %s: Markdown lost the place of a block of HTML (html_block)",
                  page.file.src_uri)
    return context


def on_env(env: Any, config: Any, files: Files) -> Any:
    _stage(f"pages converted from Markdown: {_state.get('converted', 0)}")
    _state["written"] = 0
    return env


def on_post_page(output: str, page: Any, config: Any) -> str:
    _state["written"] = _state.get("written", 0) + 1
    return site.identifier_breaks(compact_html(output))


def on_post_build(config: Any) -> None:
    # hooks run after the plugins: the search and offline plugins have written the index
    ranked = site.rank_search_index(config["site_dir"], _state["corpus"].spec)
    _stage(f"pages written: {_state.get('written', 0)} (theme, search index, static files); "
           f"{ranked} variant rules ranked below their defaults in the search")
    broken = site.broken_links(config["site_dir"])
    for problem in broken:
        log.error("mammamia: broken link: %s", problem)
    unlinked = site.unlinked_files(config["site_dir"], config["docs_dir"])
    for problem in unlinked:
        log.error("mammamia: %s (link it from a page, or add it to exclude_docs)", problem)
    _stage(f"link check: {len(broken)} broken link{'' if len(broken) == 1 else 's'}, "
           f"{len(unlinked)} file{'' if len(unlinked) == 1 else 's'} of docs/ unlinked")


def on_serve(server: Any, config: Any, builder: Any) -> Any:
    root = Path(config.config_file_path).resolve().parent
    for path in [root / "spec", root / "mammamia_ref", *_state.get("paths", [])]:
        if path.exists():
            server.watch(str(path))
    return server
