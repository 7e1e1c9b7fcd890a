"""The queries page: the register of questions answered by a solver
(``spec/queries.yaml``), a row per question in words with its answers grouped by player
count, then each query in detail as :mod:`mammamia_ref.queries.catalogue.docs` renders it (with
the site's links), then the question files ``mammamia ask`` answers."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from mammamia_ref.site.inputs import Corpus, Spec
from mammamia_ref.site.links import dispute_link, rel, rule_link
from mammamia_ref.site.text import md

SOURCE = "queries.md"
SUMMARIES = ("Questions", "Definition checks")
"""The headings of the per-answer tables :func:`render_markdown` writes: the page
replaces them with a row per question."""


def queries_page(corpus: Corpus) -> str:
    """The queries register (``spec/queries.yaml``): a row per question, in words, its
    answers grouped by player count, each answer's game linked to its scenario page;
    then each query in detail; or a placeholder while there is no register."""
    from mammamia_ref.queries.catalogue import ROOT
    from mammamia_ref.queries.catalogue.docs import Links, render_markdown

    doc = corpus.spec.queries_doc
    if not isinstance(doc, dict) or not doc.get("queries"):
        return "# Queries\n\n*No queries yet: `spec/queries.yaml` does not exist.*\n"
    catalogue = doc["queries"]
    pages = {Path(v.scenario.file).resolve(): v.page for v in corpus.scenarios}

    def witness_page(path: Path) -> str | None:
        page = pages.get(path.resolve())
        return rel(SOURCE, page) if page else None

    docs = {Path(v.scenario.file).resolve(): v.doc for v in corpus.scenarios}
    links = Links(rule=lambda rule_id: rule_link(corpus.spec, SOURCE, rule_id),
                  dispute=lambda d: dispute_link(corpus.spec, SOURCE, d, title=False),
                  witness=witness_page, witness_doc=lambda path: docs.get(path.resolve()))
    # each witness links to its scenario page, which tells the game step by step: the
    # page does not tell it a second time (nor replay it to do so)
    rendered = str(render_markdown(catalogue, root=ROOT, links=links, stories=False))
    head, sections = _sections(rendered)
    details = [s for s in sections if s.split("\n", 1)[0][3:].strip() not in SUMMARIES]

    def witness(query: Mapping[str, Any], answer: Mapping[str, Any]) -> str | None:
        return witness_page(witness_file(ROOT, query, answer))

    out = [head.rstrip("\n"), ""]
    for kind, title in (("question", SUMMARIES[0]), ("definition", SUMMARIES[1])):
        rows = [q for q in catalogue if q.get("kind", "question") == kind]
        if rows:
            out += [f"## {title}", "", *summary_table(corpus.spec, rows, witness), ""]
    out += ["## Each query in detail", "",
            "The rules and flags each query touches, how it is answered, its bound, and "
            "every answer with its evidence.", "",
            *[folded(s) for s in details]]
    return "\n".join(out).rstrip("\n") + "\n\n" + question_files(ROOT / "spec" / "questions")


def _sections(text: str) -> tuple[str, list[str]]:
    """A page cut at its second-level headings: what precedes the first, and each
    section from its heading on."""
    parts = ("\n" + text).split("\n## ")
    return parts[0].lstrip("\n"), ["## " + part for part in parts[1:]]


def folded(section: str) -> str:
    r"""A query's section under "Each query in detail" (a level down): its heading and
    question shown, the rest (rules, method, bound, every answer) folded away, so that
    the page is the questions and their answers, with the details a click away.

    >>> print(folded("## Q01-x\n\nCan it?\n\n- Rules: a\n- Bound: b\n"), end="")
    ### Q01-x
    <BLANKLINE>
    Can it?
    <BLANKLINE>
    <details markdown>
    <summary>Rules, method, bound and every answer</summary>
    <BLANKLINE>
    - Rules: a
    - Bound: b
    <BLANKLINE>
    </details>
    """
    heading, _, body = section.strip("\n").partition("\n\n")
    question, _, rest = body.partition("\n\n")
    if not rest.strip():
        return "#" + section.rstrip("\n") + "\n"
    return (f"#{heading}\n\n{question}\n\n<details markdown>\n"
            "<summary>Rules, method, bound and every answer</summary>\n\n"
            f"{rest.strip(chr(10))}\n\n</details>\n")


def witness_file(root: Path, query: Mapping[str, Any], answer: Mapping[str, Any]) -> Path:
    """Where ``mammamia query run --write-witnesses`` writes an answer's game."""
    from mammamia_ref.queries.answering.witness import scenario_file_id

    several = len(query["answers"]) > 1
    stem = scenario_file_id(query["id"], answer["name"] if several else None)
    return root / "scenarios" / "queries" / f"{stem}.yaml"


def answer_players(answer: Mapping[str, Any]) -> int:
    """The table size an answer holds for (two players unless it says)."""
    return int(answer.get("players", 2))


def verdict_words(expected: Mapping[str, Any]) -> str:
    """An answer in a word or a figure: possible, impossible, or the value found (with
    the most z3 proves possible when that is more).

    >>> verdict_words({"verdict": "value", "value": 10, "upper": 12})
    '10 (at most 12)'
    >>> verdict_words({"verdict": "value", "value": 8, "upper": 8}), verdict_words(
    ...     {"verdict": "unsat"})
    ('8 (exact)', 'impossible')
    """
    verdict = expected["verdict"]
    if verdict != "value":
        return {"sat": "possible", "unsat": "impossible"}.get(verdict, str(verdict))
    upper = expected.get("upper")
    if upper is None:
        return str(expected["value"])
    return f"{expected['value']} (exact)" if upper == expected["value"] else \
        f"{expected['value']} (at most {upper})"


def ruling_words(spec: Spec, variants: Mapping[str, str]) -> str:
    """The flag values an answer holds under, the project's ruling named as such."""
    if not variants:
        return "our rulings"
    ours = all(spec.flags.get(f, {}).get("default") == v for f, v in variants.items())
    text = ", ".join(f"`{md(f)}={md(v)}`" for f, v in variants.items())
    return text + (" (ours)" if ours else "")


def grouped_answers(spec: Spec, query: Mapping[str, Any],
                    witness: Callable[[Mapping[str, Any], Mapping[str, Any]], str | None]
                    ) -> list[str]:
    """A query's answers a line per player count: each verdict with the rulings it holds
    under, each ruling linked to its game where one was written."""
    by_count: dict[int, dict[str, list[str]]] = {}
    for answer in query["answers"]:
        ruling = ruling_words(spec, answer.get("variants") or {})
        page = witness(query, answer)
        shown = f"[{ruling}]({page})" if page else ruling
        verdicts = by_count.setdefault(answer_players(answer), {})
        verdicts.setdefault(verdict_words(answer["expected"]), []).append(shown)
    return [f"**{count} players:** " + "; ".join(
        f"{verdict} under {', '.join(rulings)}" for verdict, rulings in verdicts.items())
        for count, verdicts in sorted(by_count.items())]


def summary_table(spec: Spec, queries: Sequence[Mapping[str, Any]],
                  witness: Callable[[Mapping[str, Any], Mapping[str, Any]], str | None]
                  ) -> list[str]:
    """A row per query: the question in words (after its number, linked to its
    details) and its answers by player count."""
    rows = ["| Question | Answers, by player count |", "|---|---|"]
    for query in queries:
        answers = "<br>".join(grouped_answers(spec, query, witness))
        number = md(query["id"].split("-", 1)[0])
        rows.append(f"| [{number}](#{query['id'].lower()}): {md(query['question'])} | "
                    f"{answers} |")
    # on a phone the rows are stacked: the question, then its answers
    return ['<div class="mm-stack mm-queries" markdown>', "", *rows, "", "</div>"]


def question_files(folder: Path) -> str:
    """The question files ``mammamia ask`` answers (``spec/questions/``): each file's
    question in words, what it asks and at which table sizes (see the page *Ask your own
    questions*)."""
    from mammamia_ref.formats.safeyaml import load_file

    rows = []
    for path in sorted(folder.glob("*.yaml")):
        doc = load_file(path).data
        goal = next((f"{g}: {doc[g]}" if g != "find" else "find a game" for g in
                     ("find", "most", "fewest") if g in doc), "?")
        qid = str(doc.get("question", ""))
        catalogue = f" (the catalogue's {qid[:3]}, by its condition)" \
            if re.match(r"Q[0-9]{2}-", qid) else ""
        asked = doc.get("text") or doc.get("title", "")
        rows.append(f"| {md(asked)}{md(catalogue)} | {md(goal)} "
                    f"| {', '.join(map(str, doc.get('players', [2])))} "
                    f"| `spec/questions/{md(path.name)}` |")
    return ("## Question files\n\nAsked with `mammamia ask FILE...` (the format: "
            "[Ask your own questions](questions.md)).\n\n"
            "| Question | Asks | Players | File |\n|---|---|---|---|\n"
            + "\n".join(rows) + "\n")
