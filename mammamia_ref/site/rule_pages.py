"""The rule pages: the index of the register and one page per chapter."""

from __future__ import annotations

from typing import Any

from mammamia_ref.rules.vocabulary import ORDERS
from mammamia_ref.site import pictures as pic
from mammamia_ref.site.card_pages import ORDER_TYPE_RULES
from mammamia_ref.site.inputs import Corpus, Spec
from mammamia_ref.site.links import (
    dispute_link,
    flag_link,
    prose,
    rel,
    rule_link,
    rule_page,
    scenario_link,
)
from mammamia_ref.site.scenario_pages import is_witness, witness_query
from mammamia_ref.site.text import SEARCH_BOOST, html_block, md, raw_block, search_meta


def rules_index_page(corpus: Corpus) -> str:
    """Every rule in a table per chapter, with how many scenarios exercise it."""
    spec = corpus.spec
    source = "rules/index.md"
    out = ["# The rules", "",
           "Every rule of the register, chapter by chapter, in the order of play. A rule's "
           "anchor is its ID. The [quick reference](quick-reference.md) shows a whole turn "
           "and a whole round on one page.", ""]
    for chapter in spec.chapters:
        out += [f"## [{md(chapter['title'])}]({chapter['id']}.md)", "",
                "| Rule | Title | Applies when | Scenarios |", "|---|---|---|---|"]
        for rule in spec.rules:
            if rule["chapter"] != chapter["id"]:
                continue
            out.append(f"| {rule_link(spec, source, rule['id'])} | {md(rule['title'])} | "
                       f"{_when_text(spec, source, rule) or 'always'} | "
                       f"{len(corpus.scenarios_citing(rule['id']))} |")
        out.append("")
    out += ["## Editions", "", "| ID | Edition | Language | File |", "|---|---|---|---|"]
    for edition in spec.editions.values():
        out.append(f"| {md(edition['id'])} | {md(edition['title'])} | "
                   f"{md(edition.get('language', ''))} | `{md(edition.get('file', ''))}` |")
    return "\n".join(out) + "\n"


def _sources_md(spec: Spec, source: str, sources: list[dict[str, Any]]) -> list[str]:
    """The editions that state a rule; a Note column when one of them carries a note
    (a misprint, a copy of another edition's text)."""
    noted = any(s.get("note") for s in sources)
    out = ["| Edition | Section |" + (" Note |" if noted else ""),
           "|---|---|" + ("---|" if noted else "")]
    out += [f"| {md(spec.edition_title(s['edition']))} | {md(s['section'])} |"
            + (f" {prose(spec, source, s.get('note') or '')} |" if noted else "")
            for s in sources]
    return [*out, ""]


def is_variant(spec: Spec, rule: dict[str, Any]) -> bool:
    """A rule that holds only under a flag value other than the project's ruling."""
    return any(spec.flags.get(flag, {}).get("default") != value
               for flag, value in (rule.get("when") or {}).items())


VARIANT_BOOST = 0.25
"""How much a variant rule's section weighs in the search against its page's other
sections: searching a rule's name finds the project's ruling first, the variant after."""


def rank_variants_in_search(index: dict[str, Any], spec: Spec) -> dict[str, Any]:
    """The search index (``search/search_index.json``) with each variant rule's section
    ranked below the default's: the page's boost times :data:`VARIANT_BOOST`."""
    variants = {f"{rule_page(spec, r['id'])[:-3]}.html#{r['id']}" for r in spec.rules
                if is_variant(spec, r)}
    docs = [{**doc, "boost": float(doc.get("boost", 1.0)) * VARIANT_BOOST}
            if doc.get("location") in variants else doc for doc in index.get("docs", [])]
    return {**index, "docs": docs}


def _when_text(spec: Spec, source: str, rule: dict[str, Any]) -> str:
    """The flag values a rule holds under, each marked default or variant."""
    parts = []
    for flag, value in (rule.get("when") or {}).items():
        default = spec.flags.get(flag, {}).get("default")
        mark = " (default)" if default == value else " (variant)"
        parts.append(flag_link(spec, source, flag, value) + mark)
    return ", ".join(parts)


def _scenarios_md(corpus: Corpus, source: str, rule_id: str) -> list[str]:
    """The scenarios that cite a rule, then its query witnesses by query, each query
    once with how many of its witnesses cite the rule: a query's witnesses are many
    games with one title, and would hide the scenarios written about the rule."""
    citing = corpus.scenarios_citing(rule_id)
    written = [v for v in citing if not is_witness(v)]
    by_query: dict[str, int] = {}
    for view in citing:
        if is_witness(view):
            query = witness_query(view) or "other"
            by_query[query] = by_query.get(query, 0) + 1
    out = ["**Scenarios:** " + (", ".join(scenario_link(source, v) for v in written)
                                if written else "none yet") + "."]
    if by_query:
        out.append("**Query witnesses:** " + ", ".join(
            f"[{md(query)}]({rel(source, 'queries.md', query.lower())}) ({count})"
            for query, count in by_query.items()) + ".")
    return out


def order_cards_md(rule_id: str) -> list[str]:
    """The order cards a rule is about, drawn as the cards page draws them: a kind of
    order's rule shows that kind's card in every colour (a standard order, the first
    colour's four); any other rule, none."""
    kind = next((k for k, r in ORDER_TYPE_RULES.items() if r == rule_id), None)
    if kind is None:
        return []
    orders = [ORDERS[o] for o in ORDERS if ORDERS[o].type == kind]
    if kind == "standard":
        orders = [o for o in orders if o.colour == orders[0].colour]
    figures = "".join(f"<figure>{pic.order_card_svg(o)}</figure>" for o in orders)
    return [html_block(f'<div class="mm-card-grid mm-rule-cards">{figures}</div>',
                       search=False)]


def chapter_page(corpus: Corpus, chapter: dict[str, Any]) -> str:
    """One chapter: each rule under a heading whose anchor is its ID, so that every
    rule link in the site lands on it."""
    spec = corpus.spec
    source = f"rules/{chapter['id']}.md"
    out = [search_meta(boost=SEARCH_BOOST["rule"]) + f"# {md(chapter['title'])}", ""]
    if any(order_cards_md(r["id"]) for r in spec.rules if r["chapter"] == chapter["id"]):
        out += [raw_block(pic.icon_sprite())]  # the cards' icons, once a page
    rules = [r for r in spec.rules if r["chapter"] == chapter["id"]]
    out += ["Rules of this chapter: " + ", ".join(rule_link(spec, source, r["id"])
                                                   for r in rules) + ".", ""]
    for rule in rules:
        # a variant says so in its heading, which the search shows above its snippet
        variant = " (variant)" if is_variant(spec, rule) else ""
        out += [f"## {md(rule['id'])} — {md(rule['title'])}{variant} {{ #{rule['id']} }}",
                ""]
        when = _when_text(spec, source, rule)
        if when:
            out += [f'<p class="mm-when" markdown>**Applies when** {when}.</p>', ""]
        out += [prose(spec, source, rule["statement"]), ""]
        out += order_cards_md(rule["id"])
        sources = rule.get("sources") or []
        if sources:
            out += _sources_md(spec, source, sources)
        else:
            out += ["*No edition states this rule.*", ""]
        meta = []
        if rule.get("ruling"):
            meta.append(f"**Ruling of** {dispute_link(spec, source, rule['ruling'])}.")
        disputes = rule.get("disputes") or []
        touching = [d["id"] for d in spec.disputes if rule["id"] in (d.get("rules") or [])]
        all_disputes = list(dict.fromkeys([*disputes, *touching]))
        if all_disputes:
            meta.append("**Disputes:** " + "; ".join(dispute_link(spec, source, d)
                                                      for d in all_disputes) + ".")
        meta += _scenarios_md(corpus, source, rule["id"])
        out += ["  \n".join(meta), ""]
    return "\n".join(out)
