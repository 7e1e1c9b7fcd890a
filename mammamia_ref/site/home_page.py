"""The home page: what the site holds, in figures taken from the corpus."""

from __future__ import annotations

from mammamia_ref.rules.vocabulary import ORDERS
from mammamia_ref.site.inputs import Corpus
from mammamia_ref.site.links import HOUSE_PAGE
from mammamia_ref.site.text import md


def home_page(corpus: Corpus) -> str:
    """The landing page: what the site is, and each section with its size; what a
    designer looks for (house rules, asking a question) as much as a reader's rules."""
    spec = corpus.spec
    runs = sum(len(v.runs) for v in corpus.scenarios)
    passing = sum(r.passed for v in corpus.scenarios for r in v.runs)
    cited = {r for v in corpus.scenarios for r in v.scenario.rules}
    covered = len(cited & set(spec.rule_by_id))
    doc = spec.queries_doc
    queries = len(doc.get("queries") or []) if isinstance(doc, dict) else 0
    editions = "\n".join(f"- **{md(e['id'])}**: {md(e['title'])} ({md(e.get('language', ''))})"
                         for e in spec.editions.values())
    return f"""# Mamma Mia! — the executable rulebook

The rules of Uwe Rosenberg's card game *Mamma Mia!* as data, as a reference
implementation and as scenarios. Every page of this site is generated from the
project's `spec/` registers and its `scenarios/` when the site is built; every rule has
a stable ID, and every event the reference implementation reports names the rule that
decided it.

| Section | What it holds |
|---|---|
| [Rules](rules/index.md) | {len(spec.rules)} rules in {len(spec.chapters)} chapters, \
and a [quick reference](rules/quick-reference.md) of a turn and a round |
| [Disputes](disputes/index.md) | {len(spec.disputes)} places where the editions \
disagree or are silent, with {len(spec.flags)} variant flags |
| [House rules]({HOUSE_PAGE}) | your own numbers or flags, and what they do to play \
([how to write one](house-rules.md)) |
| [Cards](cards.md) | the {len(ORDERS)} order cards, the ingredients and the trimming table |
| [Scenarios](scenarios/index.md) | {len(corpus.scenarios)} scenarios, {runs} runs \
({passing} passing), exercising {covered} of {len(spec.rules)} rules |
| [Queries](queries.md) | {queries} questions about the rules, answered by a solver |
| [Ask your own questions](questions.md) | a question about the game in a file, \
answered with a game or a proof: `mammamia ask FILE` |
| [For porters](porting/index.md) | the porting guide, the formats, the command line, the API |

## How to read a rule reference

A rule ID such as [`oven.minimale`](rules/oven.md#oven.minimale) names its chapter and
the rule. Rules that hold only under a variant flag say so (*applies when*); the
default of every flag is the project's ruling on a [dispute](disputes/index.md).

## The editions

{editions}
"""
