"""The quick reference page: the flow of a turn and of a round (``spec/flow.yaml``)
drawn as pictures whose boxes link to their rules, each followed by a table that
states every rule a step names."""

from __future__ import annotations

from mammamia_ref.site import pictures as pic
from mammamia_ref.site.flow import Flow, FlowNode, node_rules, read_flow
from mammamia_ref.site.inputs import Corpus, Spec
from mammamia_ref.site.links import html_link, rule_link, rule_page
from mammamia_ref.site.text import first_sentence, md

SOURCE = "rules/quick-reference.md"


def _rule_cell(spec: Spec, rule_id: str) -> str:
    """One rule in a step's row: its link, its title, and its first sentence."""
    rule = spec.rule_by_id.get(rule_id)
    if rule is None:
        return f"`{rule_id}` (unknown rule)"
    variant = " *(variant)*" if spec.is_variant_rule(rule_id) else ""
    return (f"{rule_link(spec, SOURCE, rule_id)} {md(rule['title'])}{variant}:"
            f" {md(first_sentence(rule['statement']))}")


def _step_row(spec: Spec, number: int, node: FlowNode) -> str:
    caption = md(node.caption) + (f" / {md(node.side[0])}" if node.side else "")
    cells = [_rule_cell(spec, rule_id) for rule_id in node_rules(node)]
    return f"| {number}. {caption} | {'<br>'.join(cells)} |"


def flow_section(spec: Spec, flow: Flow) -> list[str]:
    """One flow: its picture, then its steps with their rules as a table (the picture's
    text is not searchable; the table is)."""

    def link(rule_id: str) -> str:
        return html_link(SOURCE, rule_page(spec, rule_id), rule_id)

    picture = pic.flow_svg(flow.name, flow.title, flow.nodes, flow.loops, link,
                           spec.is_variant_rule)
    rows = [_step_row(spec, number, node) for number, node in enumerate(flow.nodes, 1)]
    return [f"## {flow.title}", "", picture, "", "| Step | Rules |", "|---|---|", *rows, ""]


def quick_reference_page(corpus: Corpus) -> str:
    """The whole page; a flow that does not read (reported by the checks) is left out."""
    game_flow, _ = read_flow(corpus.spec.flow_doc)
    out = ["# Quick reference", "", game_flow.intro, ""]
    for flow in game_flow.flows:
        out += flow_section(corpus.spec, flow)
    return "\n".join(out)
