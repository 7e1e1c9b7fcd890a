"""The queries page: the register of questions answered by a solver
(``spec/queries.yaml``), rendered by :mod:`mammamia_ref.queries.docs` with the site's links."""

from __future__ import annotations

from pathlib import Path

from mammamia_ref.site.inputs import Corpus
from mammamia_ref.site.links import dispute_link, rel, rule_link


def queries_page(corpus: Corpus) -> str:
    """The queries register (``spec/queries.yaml``), each witness linked to its scenario
    page, or a placeholder while there is no register."""
    from mammamia_ref.queries.catalogue import ROOT
    from mammamia_ref.queries.docs import Links, render_markdown

    doc = corpus.spec.queries_doc
    if not isinstance(doc, dict) or not doc.get("queries"):
        return "# Queries\n\n*No queries yet: `spec/queries.yaml` does not exist.*\n"
    pages = {Path(v.scenario.file).resolve(): v.page for v in corpus.scenarios}

    def witness_page(path: Path) -> str | None:
        page = pages.get(path.resolve())
        return rel("queries.md", page) if page else None

    links = Links(rule=lambda rule_id: rule_link(corpus.spec, "queries.md", rule_id),
                  dispute=lambda d: dispute_link(corpus.spec, "queries.md", d, title=False),
                  witness=witness_page)
    # each witness links to its scenario page, which tells the game step by step: the
    # page does not tell it a second time (nor replay it to do so)
    page = str(render_markdown(doc["queries"], root=ROOT, links=links, stories=False))
    return page.rstrip("\n") + "\n\n" + question_files(ROOT / "spec" / "questions")


def question_files(folder: Path) -> str:
    """The question files ``mammamia ask`` answers (``spec/questions/``): each file, its
    question and what it asks (see the page *Asking your own questions*)."""
    from mammamia_ref.formats.safeyaml import load_file

    rows = []
    for path in sorted(folder.glob("*.yaml")):
        doc = load_file(path).data
        goal = next((f"{g}: {doc[g]}" if g != "find" else "find" for g in
                     ("find", "most", "fewest") if g in doc), "?")
        restates = f" (restates {doc['restates']})" if doc.get("restates") else ""
        rows.append(f"| `spec/questions/{path.name}` | {doc.get('title', '')}{restates} "
                    f"| {goal} | {', '.join(map(str, doc.get('players', [2])))} |")
    return ("## Question files\n\nAsked with `mammamia ask FILE...` (the format: "
            "[Asking your own questions](questions.md)).\n\n"
            "| File | Question | Goal | Players |\n|---|---|---|---|\n"
            + "\n".join(rows) + "\n")
