"""The rules site, generated from ``spec/`` and ``scenarios/``: this module only puts
the pages together; each kind of page, the inputs and the checks have a module of
their own in this package.

The MkDocs hook ``docs/hooks/generate.py`` calls this module at build time; nothing
here imports MkDocs, so the generator and its checks can be tested on their own, and
nothing here imports the command line (a higher layer): the hook hands its argument
parser to :func:`generate`.

- :func:`load_corpus` reads the registers and loads and runs every scenario;
- :func:`problems` lists what must fail the build (see :class:`Problem`);
- :func:`generate` returns every page (path under ``docs/`` to Markdown, SVG or CSS);
- :func:`nav` returns the navigation in the order of the registers;
- :func:`broken_links` checks the built HTML for links to missing pages or anchors.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path
from typing import Any

from mammamia_ref.site import pictures as pic
from mammamia_ref.site.api_page import PUBLIC_MODULES, api_page_path, api_pages
from mammamia_ref.site.card_pages import cards_page
from mammamia_ref.site.checks import Problem, problems
from mammamia_ref.site.cli_page import cli_page
from mammamia_ref.site.dispute_pages import dispute_page_md, disputes_index_page
from mammamia_ref.site.file_worker import FILE_WORKER_JS, FILE_WORKER_PATH
from mammamia_ref.site.home_page import home_page
from mammamia_ref.site.house_pages import house_page
from mammamia_ref.site.inputs import Corpus, ScenarioView, Spec, load_corpus
from mammamia_ref.site.layout import FIT_TABLES_JS, FIT_TABLES_PATH, identifier_breaks
from mammamia_ref.site.link_check import broken_links, unlinked_files
from mammamia_ref.site.links import HOUSE_PAGE, dispute_page, rel
from mammamia_ref.site.porting_pages import by_audience, handwritten_pages, porting_page
from mammamia_ref.site.ports_page import ports_nav, ports_pages
from mammamia_ref.site.queries_page import queries_page
from mammamia_ref.site.quick_reference import quick_reference_page
from mammamia_ref.site.rule_pages import chapter_page, rank_variants_in_search, rules_index_page
from mammamia_ref.site.scenario_pages import (
    group_page,
    group_title,
    is_witness,
    scenario_page,
    scenarios_index_page,
)


def _fixed_pages(corpus: Corpus, handwritten: dict[str, str],
                 parser: argparse.ArgumentParser | None) -> dict[str, str]:
    """The pages every site has, whatever the registers and scenarios hold."""
    return {
        "index.md": home_page(corpus),
        "assets/mammamia.css": pic.stylesheet(),
        FILE_WORKER_PATH: FILE_WORKER_JS,
        FIT_TABLES_PATH: FIT_TABLES_JS,
        "rules/index.md": rules_index_page(corpus),
        "rules/quick-reference.md": quick_reference_page(corpus),
        "disputes/index.md": disputes_index_page(corpus),
        HOUSE_PAGE: house_page(corpus, corpus.house),
        "cards.md": cards_page(corpus),
        "scenarios/index.md": scenarios_index_page(corpus),
        "queries.md": queries_page(corpus),
        "porting/index.md": porting_page(handwritten),
        "porting/cli.md": cli_page(parser),
        **api_pages(),
        **ports_pages(),
    }


def generate(corpus: Corpus, handwritten: dict[str, str] | None = None, *,
             parser: argparse.ArgumentParser | None = None,
             progress: Callable[[str], None] | None = None) -> dict[str, str]:
    """Every generated file: its path under docs/ and its content. ``handwritten`` are
    the hand-written pages (see :func:`handwritten_pages`), listed in the porting guide;
    ``parser`` is the ``mammamia`` argument parser, documented on the command line page;
    ``progress`` is told what each stage made, as it ends (the hook logs it, timed)."""
    spec = corpus.spec
    done = progress or (lambda what: None)
    pages = _fixed_pages(corpus, handwritten or {}, parser)
    done(f"fixed pages written: {len(pages)} (home, cards, queries, command line, API)")
    for chapter in spec.chapters:
        pages[f"rules/{chapter['id']}.md"] = chapter_page(corpus, chapter)
    done(f"rule pages written: {len(spec.chapters)} chapters")
    for dispute in spec.disputes:
        pages[dispute_page(dispute["id"])] = dispute_page_md(corpus, dispute)
    done(f"scenarios replayed under rulings, dispute pages written: {len(spec.disputes)}")
    count = 0
    for group, views in corpus.groups().items():
        if group:
            pages[f"scenarios/{group}/index.md"] = group_page(corpus, group, views)
        for view in views:
            pages[view.page] = scenario_page(corpus, view)
            count += 1
    done(f"scenario pages written: {count}, "
         f"{sum(len(p) for p in pages.values()) / 1e6:.1f} MB of pages in all")
    return pages


def _scenario_nav(corpus: Corpus) -> list[Any]:
    """The scenarios by folder, a folder's index first; top-level ones without a folder.
    Each is listed by its title (which is also its page's title), not its file name. A
    folder's query witnesses go by query, a section each: a page's navigation shows its
    own query's witnesses, not the hundred and more of every query."""
    entries: list[Any] = ["scenarios/index.md"]
    queries = _query_ids(corpus)
    for group, views in corpus.groups().items():
        pages: list[Any] = []
        sections: dict[str, list[Any]] = {}
        for view in views:
            entry = {view.scenario.title: view.page}
            query = next((t for t in view.doc.get("tags") or [] if t in queries), None) \
                if is_witness(view) else None
            if query is None:
                pages.append(entry)
            else:
                if query not in sections:
                    sections[query] = []
                    pages.append({query: sections[query]})
                sections[query].append(entry)
        if group:
            entries.append({group_title(group): [f"scenarios/{group}/index.md", *pages]})
        else:
            entries += pages
    return entries


def _query_ids(corpus: Corpus) -> set[str]:
    doc = corpus.spec.queries_doc
    if not isinstance(doc, dict):
        return set()
    return {str(q["id"]) for q in doc.get("queries") or [] if isinstance(q, dict) and "id" in q}


DESIGNER_GUIDES = {"house-rules.md": "Writing a house rule",
                   "questions.md": "Ask your own questions"}
"""The designers' hand-written guides the navigation places by name: the house rules
guide under the House rules section, Ask beside the Queries."""


def nav(corpus: Corpus, handwritten: dict[str, str] | None = None) -> list[Any]:
    """The navigation by audience, a tab each: players and designers (the rules, the
    disputes, the house rules and how to write one, the cards, the scenarios, the
    queries, asking one's own questions, what a ruling does to play),
    porters (the porting guide, the formats, the ports, the command line and the API)
    and maintainers (how the project tests and measures itself). Hand-written pages go
    where :data:`AUDIENCES` says."""
    spec = corpus.spec
    pages = by_audience(handwritten or {})
    placed = {page: title for entry in pages["designers"] for title, page in entry.items()
              if page in DESIGNER_GUIDES}
    designers = [entry for entry in pages["designers"] if not set(entry.values()) & set(placed)]
    house: list[Any] = [HOUSE_PAGE]
    if "house-rules.md" in placed:
        house.append({DESIGNER_GUIDES["house-rules.md"]: "house-rules.md"})
    return [
        {"Home": "index.md"},
        {"Players and designers": [
            {"Rules": ["rules/index.md", {"Quick reference": "rules/quick-reference.md"},
                       *[{c["title"]: f"rules/{c['id']}.md"} for c in spec.chapters]]},
            {"Disputes": ["disputes/index.md",
                          *[{f"{d['id']}: {d['title']}": dispute_page(d["id"])}
                            for d in spec.disputes]]},
            {"House rules": house},
            {"Cards": "cards.md"},
            {"Scenarios": _scenario_nav(corpus)},
            {"Queries": "queries.md"},
            *([{DESIGNER_GUIDES["questions.md"]: "questions.md"}] if "questions.md" in placed
              else []),
            *designers]},
        {"Porters": ["porting/index.md", *pages["porters"], ports_nav(),
                     {"Command line": "porting/cli.md"},
                     {"Python API": ["porting/api.md",
                                     *[{m: api_page_path(m)} for m in PUBLIC_MODULES]]}]},
        *([{"Maintainers": pages["maintainers"]}] if pages["maintainers"] else []),
    ]


def rank_search_index(site_dir: str | Path, spec: Spec) -> int:
    """Rank each variant rule's section below its default's in the built site's search
    index (the JSON, and the script the offline plugin made of it); returns how many
    sections were ranked down."""
    import json

    folder = Path(site_dir) / "search"
    path = folder / "search_index.json"
    if not path.exists():
        return 0
    index = json.loads(path.read_text(encoding="utf-8"))
    ranked = rank_variants_in_search(index, spec)
    text = json.dumps(ranked, ensure_ascii=False, separators=(",", ":"))
    path.write_text(text, encoding="utf-8")
    script = folder / "search_index.js"
    if script.exists():
        script.write_text("var __index = " + text, encoding="utf-8")
    return sum(a is not b for a, b in zip(index["docs"], ranked["docs"], strict=True))


def write_pages(pages: dict[str, str], out_dir: str | Path) -> None:
    """Write generated pages to a folder (for looking at them without MkDocs)."""
    for name, content in pages.items():
        path = Path(out_dir) / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(content, encoding="utf-8")


__all__ = ["Corpus", "Problem", "ScenarioView", "Spec", "broken_links", "generate",
           "handwritten_pages", "identifier_breaks", "load_corpus", "nav", "problems",
           "queries_page", "rank_search_index", "rel", "unlinked_files", "write_pages"]
