"""MkDocs hook: generates the rules site from spec/ and scenarios/ at build time.

The pages never exist in docs/: they are added to the build as generated files. What
must fail the build (an unknown rule ID, a scenario that does not load or diverges, a
rule that no scenario exercises, a broken link in the built HTML) is logged as an
error, so that ``mkdocs build --strict`` fails.

Environment (for tests and for work in progress):

- ``MAMMAMIA_SITE_SCENARIOS``: scenario folders or files, separated by the path
  separator (default: ``scenarios`` beside mkdocs.yml);
- ``MAMMAMIA_SITE_ALLOW``: kinds of problem (see ``mammamia_ref.site.checks.Problem``),
  separated by commas, reported as information instead of errors; for example
  ``uncovered-rule`` while the scenarios are still being written.

The hook hands the ``mammamia`` argument parser to the generator for the command line
page: the site package sits below the command line and does not import it. It also puts
the package's version after the site's name in the header.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import Any

from mkdocs.structure.files import File, Files

from mammamia_ref.cli.app import build_parser, package_version
from mammamia_ref.site import build as site

log = logging.getLogger("mkdocs.hooks.mammamia")

_state: dict[str, Any] = {}


def _scenario_paths(config: Any) -> list[Path]:
    root = Path(config.config_file_path).resolve().parent
    raw = os.environ.get("MAMMAMIA_SITE_SCENARIOS")
    if raw:
        return [Path(p) if Path(p).is_absolute() else root / p for p in raw.split(os.pathsep)
                if p]
    return [root / "scenarios"]


def on_config(config: Any) -> Any:
    paths = _scenario_paths(config)
    corpus = site.load_corpus(paths, impact=Path(config["docs_dir"]) / "impact")
    allowed = {k.strip() for k in os.environ.get("MAMMAMIA_SITE_ALLOW", "").split(",")}
    for problem in site.problems(corpus, require_coverage=True):
        if problem.kind in allowed:
            log.info("mammamia: %s (allowed by MAMMAMIA_SITE_ALLOW)", problem)
        else:
            log.error("mammamia: %s", problem)
    handwritten = site.handwritten_pages(config["docs_dir"])
    _state["corpus"] = corpus
    _state["pages"] = site.generate(corpus, handwritten, parser=build_parser())
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
    return files


def on_post_build(config: Any) -> None:
    for problem in site.broken_links(config["site_dir"]):
        log.error("mammamia: broken link: %s", problem)


def on_serve(server: Any, config: Any, builder: Any) -> Any:
    root = Path(config.config_file_path).resolve().parent
    for path in [root / "spec", root / "mammamia_ref", *_state.get("paths", [])]:
        if path.exists():
            server.watch(str(path))
    return server
