"""The queries page: every question of the catalogue and its answer per variant.

The page is generated from ``spec/queries.yaml`` (questions, rules, bounds, expected
verdicts) and the witness scenarios under ``scenarios/queries/`` (their titles and
descriptions), so it changes only when those do. :func:`render_markdown` returns the
text, with the links of :class:`Links`; the rules site (``mammamia_ref/site.py``) shows it
and ``mammamia query docs`` prints or writes it (:func:`write_docs`). With
query results (:func:`.run_catalogue`) the page also says, for each answer,
what the run found when it differs from the catalogue.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mammamia_ref.formats.output import write_atomically
from mammamia_ref.formats.safeyaml import load_file

if TYPE_CHECKING:
    from mammamia_ref.formats.scenario import Scenario

METHODS = {
    "oven": "one opening of the oven, with symbolic turns, hands and decisions",
    "game": "bounded unrolling of whole turns and rounds from the setup, the solver "
            "choosing every shuffle",
    "rules": "a statement about the oven rules for every table, hand and decision",
    "induction": "an invariant proved by induction over the transition relation",
    "ranking": "a ranking function that decreases at every turn",
    "plan": "a game a plan builds from a new game (every action through the reference), "
            "against an upper bound z3 proves for every game",
    "question": "its question file answered by the generic route of `mammamia ask` (the "
                "unbounded proof, the search and the z3 game model)",
}

VERDICTS = {"sat": "**possible**", "unsat": "**impossible**", "value": "**value**"}


@dataclass(frozen=True)
class Links:
    """How the page refers to rules, disputes and witness files: Markdown for a rule or a
    dispute ID, and the link target of a witness file (``None``: its title unlinked).
    By default nothing is linked; the rules site links its own pages."""

    rule: Callable[[str], str] = lambda rule_id: f"`{rule_id}`"
    dispute: Callable[[str], str] = str
    witness: Callable[[Path], str | None] | None = None
    # a witness file's document where the caller has it loaded already (the rules site
    # has every scenario), else None: the file is read
    witness_doc: Callable[[Path], Mapping[str, Any] | None] = lambda _path: None


def _variants(variants: Mapping[str, str]) -> str:
    return ", ".join(f"`{k}={v}`" for k, v in variants.items()) or "the defaults"


def _ruling(answer: Mapping[str, Any]) -> str:
    """An answer's ruling: its variant flags, and its player count where it sets one."""
    text = _variants(answer.get("variants", {}))
    return text + (f", {answer['players']} players" if answer.get("players") else "")


def _witness(root: Path, query: Mapping[str, Any], answer: Mapping[str, Any]) -> Path | None:
    from mammamia_ref.queries.answering.witness import scenario_file_id

    several = len(query["answers"]) > 1
    stem = scenario_file_id(query["id"], answer["name"] if several else None)
    path = root / "scenarios" / "queries" / f"{stem}.yaml"
    return path if path.exists() else None


EVIDENCE_SHORT = {
    "game": "witness game (from a new game, replayed by the reference)",
    "position": "position-level witness (not shown reachable: an upper bound only)",
    "bound": "bounded search (nothing within the bound)",
    "statement": "statement over every table, hand and decision (or state and step)",
    "induction": "induction over the transition relation",
    "ranking": "ranking function",
    "counting": "a count of what the game holds (the cards in play, the orders dealt)",
}

KINDS_OF_QUERY = {"question": "edge-case question",
                  "definition": "definition check (restates a rule)"}


def answer_kind(query: Mapping[str, Any], answer: Mapping[str, Any]) -> str:
    """``question`` or ``definition``: an answer may override its query's kind."""
    return str(answer.get("kind", query.get("kind", "question")))


def _verdict(exp: Mapping[str, Any]) -> str:
    """An answer's verdict; a value with a proved upper bound says whether it is exact
    (a witness reaches the bound) or only bounded on both sides."""
    verdict = VERDICTS[exp["verdict"]]
    if exp["verdict"] != "value":
        return verdict
    if "upper" not in exp:
        return f"{verdict} {exp['value']}"
    if exp["upper"] == exp["value"]:
        return f"{verdict} {exp['value']} (exact: reached, and proved the most)"
    return f"{verdict} between {exp['value']} (reached) and {exp['upper']} (proved the most)"


STORY_HEAD, STORY_TAIL = 120, 60   # lines of a long story the page shows


def story(path: Path, scenario: Scenario | None = None) -> list[str]:
    """The witness scenario told step by step, each event with its rule ID (the
    reference replays it to tell it); a run per decision the owners compare. A story
    longer than :data:`STORY_HEAD` + :data:`STORY_TAIL` lines (the games of hundreds of
    turns the "most" questions build) shows its beginning and its end, saying how many
    lines it leaves out; the scenario file holds every step. ``scenario``: the file
    loaded already."""
    from mammamia_ref.formats.narrate import step_lines
    from mammamia_ref.formats.scenario import load_scenario
    from mammamia_ref.sim.scenario_run import run_scenario

    out = []
    scenario = scenario if scenario is not None else load_scenario(path)
    for result in run_scenario(scenario):
        if len(scenario.runs) > 1:
            out.append(f"run {result.run}:")
        for step in result.trace:
            out += step_lines(step.action, step.events, step.actor, result.config)
    if len(out) > STORY_HEAD + STORY_TAIL:
        left = len(out) - STORY_HEAD - STORY_TAIL
        out = [*out[:STORY_HEAD], f"... ({left} lines left out: every step is in "
               f"{path.name})", *out[-STORY_TAIL:]]
    return out


_INTRO = [
    "# What the rules make possible: z3 queries\n",
    "<!-- Generated from spec/queries.yaml and scenarios/queries/; do not edit. -->\n",
    "Each question below is answered by the z3 SMT solver over an encoding of the "
    "rules (`mammamia_ref/queries/`), once per ruling that could change the answer "
    "(the variant flags of the disputes). A *possible* answer comes with a witness "
    "game: a scenario, under `scenarios/queries/`, that starts from a new game with "
    "the deal given as explicit chance and that the reference implementation replays; "
    "a witness that starts from a position no game is shown to reach says so "
    "(*position-level*) and proves an upper bound only. An *impossible* answer holds "
    "within the bound stated, or for games of every length where the bound says so. "
    "Every answer holds under the default of each flag its query lists, unless its "
    "ruling says otherwise. Run them with `mammamia query run`.\n",
    "*Questions* are the edge cases designers ask about; *definition checks* restate a "
    "rule's definition and check the encoding against it.\n",
]


def render_markdown(catalogue: Sequence[Mapping[str, Any]], *, root: Path,
                    results: Sequence[Any] | None = None, links: Links = Links(),
                    stories: bool = True) -> str:
    """The page for ``catalogue`` (the queries of ``spec/queries.yaml``); ``links``
    says how rules, disputes and witnesses are referred to; ``stories`` tells each
    witness step by step."""
    found = {(r.id, a.name): a for r in results or () for a in r.answers}
    out = list(_INTRO)
    for kind, title in (("question", "Questions"), ("definition", "Definition checks")):
        out += _summary(catalogue, kind, title)
    for query in catalogue:
        out += _query_section(query, root, found, links, stories)
    return "\n".join(out).rstrip() + "\n"


def _summary(catalogue: Sequence[Mapping[str, Any]], kind: str, title: str) -> list[str]:
    """The table of the answers of one kind (none if there are none)."""
    rows = [(q, a) for q in catalogue for a in q["answers"] if answer_kind(q, a) == kind]
    if not rows:
        return []
    out = [f"## {title}\n", "| query | ruling | answer | evidence |", "|---|---|---|---|"]
    for query, answer in rows:
        exp = answer["expected"]
        out.append(f"| [{query['id']}](#{query['id'].lower()}) | "
                   f"{_ruling(answer)} | {_verdict(exp)} | "
                   f"{exp.get('evidence', '')}"
                   f"{' + ' + exp['upper_evidence'] if exp.get('upper_evidence') else ''} |")
    out.append("")
    return out


def _query_section(query: Mapping[str, Any], root: Path, found: Mapping[Any, Any],
                   links: Links, stories: bool) -> list[str]:
    """One query: what it asks, how, each answer with its witness, its costs."""
    out = [f"## {query['id']}\n", " ".join(query["question"].split()) + "\n"]
    kinds = sorted({answer_kind(query, a) for a in query["answers"]})
    out.append(f"- Kind: {', '.join(KINDS_OF_QUERY[k] for k in kinds)}")
    out.append(f"- Rules: {', '.join(links.rule(r) for r in query['rules'])}")
    if query.get("disputes"):
        out.append(f"- Disputes: {', '.join(links.dispute(d) for d in query['disputes'])}")
    out.append(f"- Flags fixed (each at its default unless the ruling says): "
               f"{', '.join(f'`{f}`' for f in query.get('flags', ()))}")
    out.append(f"- Method: {METHODS.get(query['method'], query['method'])}")
    out.append(f"- Bound: {' '.join(query['bound'].split())}\n")
    for answer in query["answers"]:
        out.append(_answer_line(answer, found.get((query["id"], answer["name"]))))
        path = _witness(root, query, answer)
        if path is not None:
            out += _witness_lines(path, root, links, stories)
    for cost in query.get("search_costs", ()):
        outcome = {"found": "found a witness", "none": "found none",
                   "stopped": "stopped, out of reach"}[cost["outcome"]]
        out.append(f"- The bounded search for {cost['players']} players: {outcome} "
                   f"after {cost['cpu_seconds']:g} s of CPU. {' '.join(cost['why'].split())}")
    for missing in query.get("unanswered", ()):
        out.append(f"- Not answered under {_variants(missing['variants'])}: "
                   f"{' '.join(missing['why'].split())}")
    out.append("")
    return out


def _answer_line(answer: Mapping[str, Any], got: Any) -> str:
    """One answer as expected, with its evidence, method and bound, and ``got``, the
    last run's result, where it disagrees."""
    exp = answer["expected"]
    line = f"- Under {_ruling(answer)} ({answer['name']}): {_verdict(exp)}."
    if exp.get("evidence"):
        line += f" Evidence: {EVIDENCE_SHORT[exp['evidence']]}."
    if exp.get("upper_evidence"):
        line += f" Upper bound: {EVIDENCE_SHORT[exp['upper_evidence']]}."
    if answer.get("method"):
        line += f" Method: {METHODS.get(answer['method'], answer['method'])}."
    if answer.get("bound"):
        line += f" Bound: {' '.join(answer['bound'].split())}"
    if answer.get("full_search"):
        full = answer["full_search"]
        line += (f" Certified: the full search took {full['cpu_seconds']:g} s of "
                 f"CPU ({' '.join(str(full['measured']).split())}); by default the "
                 "committed witness is replayed instead.")
    if got is not None and not got.matches_expected:
        line += f" **The last run disagrees: {got.verdict}, reference {got.reference}.**"
    return line


def _witness_lines(path: Path, root: Path, links: Links, stories: bool) -> list[str]:
    """An answer's witness scenario, and (``stories``) its story step by step. The file
    is read once: loaded as a scenario for a story, else its document taken from
    ``links`` where the caller has it."""
    from mammamia_ref.formats.scenario import load_scenario

    scenario = load_scenario(path) if stories else None
    doc = scenario.doc if scenario is not None else links.witness_doc(path) or \
        load_file(path).data
    href = links.witness(path) if links.witness else None
    title = f"[{doc['title']}]({href})" if href else str(doc["title"])
    out = [f"  Witness {title} (`{path.relative_to(root).as_posix()}`): "
           f"{' '.join(doc.get('description', '').split())}"]
    if stories:
        out += ["", "  <details><summary>The witness step by step</summary>\n", "  ```text"]
        out += [f"  {line}" for line in story(path, scenario)]
        out += ["  ```\n", "  </details>\n"]
    return out


def write_docs(path: Path | None = None, *, root: Path | None = None,
               results: Sequence[Any] | None = None) -> str:
    """The page for the whole catalogue, written to ``path`` when one is given (through
    a temporary file renamed into place: see :mod:`mammamia_ref.formats.output`; the
    rules site renders its own copy, with its links); returns the text."""
    from mammamia_ref.queries.catalogue.common import load_catalogue
    from mammamia_ref.queries.catalogue.results import ROOT

    text = render_markdown(load_catalogue(), root=root or ROOT, results=results)
    if path is not None:
        write_atomically(path, text)   # an interrupted write leaves the old page whole
    return text
