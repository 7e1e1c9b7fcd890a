"""The flow of a turn and of a round (``spec/flow.yaml``) read into the shapes the
quick reference draws.

The flow is data so that its wording and its rule IDs are checked like the registers'
(the build fails on an unknown rule) and can change without touching the drawing.
:func:`read_flow` never raises: what it cannot read it reports, and the checks turn
the reports into build problems.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from mammamia_ref.formats.jsonform import schema_errors


@dataclass(frozen=True)
class FlowNode:
    """One box: what happens, the rules it follows, and perhaps a note beside it."""

    caption: str
    rules: tuple[str, ...] = ()
    side: tuple[str, tuple[str, ...]] | None = None   # a note to the right, with its rules
    decision: bool = False
    id: str = ""


@dataclass(frozen=True)
class FlowLoop:
    """An arrow back up the left margin; steps by position, as the drawing needs them."""

    source: int     # the node the arrow leaves (its left side)
    target: int     # the node it returns to
    label: str


@dataclass(frozen=True)
class Flow:
    name: str       # names the SVG's arrow marker, unique on the page
    title: str
    nodes: tuple[FlowNode, ...]
    loops: tuple[FlowLoop, ...]


@dataclass(frozen=True)
class GameFlow:
    intro: str
    flows: tuple[Flow, ...]


def _node(step: dict[str, Any]) -> FlowNode:
    aside = step.get("aside")
    side = (str(aside["caption"]), tuple(aside["rules"])) if aside else None
    return FlowNode(" ".join(str(step["caption"]).split()), tuple(step["rules"]), side,
                    bool(step.get("decision", False)), str(step["id"]))


def _loops(flow: dict[str, Any], nodes: tuple[FlowNode, ...]) -> tuple[list[FlowLoop], list[str]]:
    """The loops with their steps found by ID; a loop that names a missing step or does
    not go back up cannot be drawn, so it is reported and left out."""
    position = {node.id: i for i, node in enumerate(nodes)}
    loops, errors = [], []
    for loop in flow.get("loops") or []:
        where = f"spec/flow.yaml: flow {flow['id']}, loop {loop['label']!r}"
        missing = [loop[end] for end in ("from", "to") if loop[end] not in position]
        if missing:
            errors.append(f"{where} names unknown step {missing[0]!r}")
        elif position[loop["to"]] >= position[loop["from"]]:
            errors.append(f"{where} does not go back to an earlier step")
        else:
            loops.append(FlowLoop(position[loop["from"]], position[loop["to"]],
                                  str(loop["label"])))
    return loops, errors


def _duplicates(names: list[str]) -> list[str]:
    return sorted({name for name in names if names.count(name) > 1})


def read_flow(doc: Any) -> tuple[GameFlow, list[str]]:
    """The flows of ``doc`` and what is wrong with it: schema errors (then no flow at
    all), duplicate IDs, loops that cannot be drawn. Rule IDs are checked against the
    register by :func:`mammamia_ref.site.checks.problems`."""
    invalid = schema_errors(doc, "flow.schema.json")
    if invalid:
        return GameFlow("", ()), [f"spec/flow.yaml: {pointer}: {message}"
                                  for pointer, message in invalid]
    errors = [f"spec/flow.yaml: flow ID {name!r} is used twice"
              for name in _duplicates([f["id"] for f in doc["flows"]])]
    flows = []
    for flow in doc["flows"]:
        nodes = tuple(_node(step) for step in flow["steps"])
        errors += [f"spec/flow.yaml: flow {flow['id']} has two steps {name!r}"
                   for name in _duplicates([n.id for n in nodes])]
        loops, wrong = _loops(flow, nodes)
        errors += wrong
        flows.append(Flow(str(flow["id"]), str(flow["title"]), nodes, tuple(loops)))
    return GameFlow(" ".join(str(doc["intro"]).split()), tuple(flows)), errors


def node_rules(node: FlowNode) -> tuple[str, ...]:
    """Every rule a box names, its note's included, in the order drawn."""
    return (*node.rules, *(node.side[1] if node.side else ()))


def cited_rules(game_flow: GameFlow) -> Iterator[tuple[str, str]]:
    """(where, rule ID) for every rule the flow names, for the check against the register."""
    for flow in game_flow.flows:
        for node in flow.nodes:
            for rule_id in node_rules(node):
                yield f"spec/flow.yaml: flow {flow.name}, step {node.id}", rule_id
