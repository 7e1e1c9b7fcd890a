"""A conformance report per implementation (``mammamia conform --report FILE``): the
implementation, its version and features, the results by chapter of the rules, each
first divergence with its step and rule, and what was skipped and why.

A run is kept as data (``FILE.json``, :func:`run_document`: the hello, the options and
every case's record without its timing), from which the Markdown (``FILE.md``) and the
HTML (``FILE.html``) are rendered, so that a committed run renders the same report
whenever it is read: the site's Ports page is rendered from the committed runs of the
known ports, and a test replays each run and compares."""

from __future__ import annotations

import html
import json
import re
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from mammamia_ref import __version__
from mammamia_ref.errors import MalformedError
from mammamia_ref.formats.output import write_atomically
from mammamia_ref.kit import PROTOCOL
from mammamia_ref.kit.cases import CaseResult
from mammamia_ref.kit.report import STATUSES, rules_ranking, run_as, skip_groups
from mammamia_ref.kit.words import PortWords, markdown_text, plain
from mammamia_ref.rules.specdata import load_yaml, rule_ids
from mammamia_ref.rules.state import variant_defaults

RUN_FORMAT = "mammamia-conformance-run/1"
KINDS = {"perft": "Counting tables", "random": "Random games"}
REPORT_SUFFIXES = (".md", ".html", ".json")
# A block of a report: ("title", level, the port's name), ("h", level, text), ("p", text),
# ("pre", text), ("table", head, rows) of plain text (PortWords: the port's), ("md-table",
# head, rows) of the kit's own Markdown (linked rules)
Block = tuple[Any, ...]


def run_document(results: Sequence[CaseResult], info: dict[str, Any],
                 arguments: Sequence[str]) -> dict[str, Any]:
    """A run as data: what the port said of itself, the options, every case's record
    (its timing left out: a report says what happened, not how fast the machine was)."""
    offered = info.get("variants") if isinstance(info.get("variants"), dict) else {}
    return {
        "format": RUN_FORMAT,
        "kit": {"version": __version__, "protocol": PROTOCOL},
        "implementation": {key: info.get(key) for key in
                           ("name", "language", "version", "protocol", "features")}
        | {"variants": offered},
        "arguments": list(arguments),
        "results": [{k: v for k, v in r.as_json().items() if k != "seconds"} for r in results],
    }


def load_run(path: Path) -> dict[str, Any]:
    """A committed run; anything but a run of this format is one MalformedError."""
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise MalformedError(f"{path}: not a conformance run: {exc}") from None
    if not isinstance(doc, dict) or doc.get("format") != RUN_FORMAT or \
            not isinstance(doc.get("results"), list):
        raise MalformedError(f"{path}: not a conformance run (format {RUN_FORMAT})")
    return doc


def chapter_titles() -> dict[str, str]:
    return {c["id"]: c["title"] for c in load_yaml("rules.yaml")["chapters"]}


def chapter_of(record: dict[str, Any]) -> str:
    """A case's chapter: a scenario's own (of the first rule it cites, recorded with the
    case, so that a case counts in one chapter whether it passes or fails; a run kept
    before it was recorded goes by the first rule named), the counting tables and the
    random games each a part of their own."""
    if record.get("kind") in KINDS:
        return KINDS[record["kind"]]
    titles, known = chapter_titles(), rule_ids()
    if isinstance(record.get("chapter"), str):
        return titles.get(record["chapter"], "Other")
    rule = next((r for r in record.get("rules") or [] if r in known), None)
    return titles.get(rule.split(".")[0], "Other") if rule else "Other"


def _title(impl: dict[str, Any]) -> str:
    """The port as a report names it: its own words, made safe and cut short."""
    return f"{plain(impl.get('name') or '?')} {plain(impl.get('version') or '')} " \
        f"({plain(impl.get('language') or '?')})".replace("  ", " ")


# A report's links to the rules site: a rule's anchor on its chapter's page, a scenario's
# page; ``site`` is where the site is (a URL or a path; None: nothing is linked).
Links = tuple[str, str]   # (the site's address, the pages' suffix: .html or .md)


def rule_link(rule: str, links: Links | None) -> str:
    """A rule as a report names it: a code span, linked to its anchor on the site."""
    if links is None or rule not in rule_ids():
        return f"`{plain(rule)}`"
    site, suffix = links
    return f"[`{rule}`]({site}rules/{rule.split('.', 1)[0]}{suffix}#{rule})"


def scenario_link(record: dict[str, Any], links: Links | None) -> str:
    """A scenario case's name, linked to its page on the site (by the folder of its file
    under ``scenarios/``, as the site places it)."""
    name = str(record.get("name", ""))
    parts = Path(str(record.get("file") or "")).parts
    if links is None or record.get("kind") != "scenario" or "scenarios" not in parts:
        return name
    at = len(parts) - 1 - parts[::-1].index("scenarios")
    scenario, run = name.split("[", 1)[0], name[len(name.split("[", 1)[0]):]
    page = "/".join([*parts[at + 1:-1], scenario])
    return f"[{scenario}]({links[0]}scenarios/{page}{links[1]}){run}"


def report_blocks(run: dict[str, Any], level: int = 1,
                  links: Links | None = None) -> list[Block]:
    """The report's content, rendered by :func:`markdown` or :func:`html_page`: the
    rules involved first (as the terminal's summary ranks them), then the port, the
    results by the scenarios' own chapters, each first divergence and the skips; with
    ``links``, every rule and scenario linked to the rules site."""
    impl, records = run.get("implementation") or {}, run["results"]
    counts = Counter(r.get("status") for r in records)
    ranking = rules_ranking([_as_result(r) for r in records])
    blocks: list[Block] = [
        ("title", level, PortWords(_title(impl))),
        ("p", f"Run by `{' '.join(['mammamia conform', *run.get('arguments', []), '--'])} "
              f"COMMAND` (kit {run['kit']['version']}, {run['kit']['protocol']}; "
              f"{run_as(plain(impl.get('protocol') or run['kit']['protocol']))}): " +
         ", ".join(f"{counts[s]} {s}" for s in STATUSES if counts[s]) + "."),
        ("h", level + 1, "Rules involved in unexpected failures"),
        ("md-table", ("rule", "cases", "named first", "the port said"),
         [(rule_link(rule, links), cases, first, ", ".join(markdown_text(r) for r in said))
          for rule, cases, first, said in ranking])
        if ranking else ("p", "None: no case failed unexpectedly."),
        ("h", level + 1, "Implementation"),
        ("table", ("about", "the implementation's answer to hello"), [
            *((key, PortWords(plain(impl.get(key))))
              for key in ("name", "language", "version", "protocol")),
            ("features", PortWords(", ".join(plain(f) for f in impl.get("features") or [])
                                   or "none")),
            ("rulings offered", PortWords(_offered(impl.get("variants") or {})))]),
        ("h", level + 1, "Results by chapter"),
    ]
    order = [*chapter_titles().values(), "Other", *KINDS.values()]
    by_chapter: dict[str, Counter[str]] = {}
    for record in records:
        by_chapter.setdefault(chapter_of(record), Counter())[record.get("status", "?")] += 1
    shown = [s for s in STATUSES if counts[s]]
    blocks.append(("table", ("chapter", *shown, "cases"),
                   [(chapter, *(by_chapter[chapter][s] for s in shown),
                     sum(by_chapter[chapter].values()))
                    for chapter in order if chapter in by_chapter]))
    failures = [r for r in records if r.get("status") in ("fail", "error", "xpass")]
    blocks.append(("h", level + 1, "First divergences"))
    if not failures:
        blocks.append(("p", "None: every case run agrees with the reference."))
    for record in failures:
        at = f"at step {record['step']}" if record.get("step") is not None else "at the start"
        rule = (record.get("rules") or [None])[0]
        blocks += [("h", level + 2, f"{record['status'].upper()} {record['kind']} "
                    f"{record['name']}"),
                   ("p", f"{at}; rule {rule_link(rule, links) if rule else 'none named'}"
                    + (f"; scenario {scenario_link(record, links)}"
                       if links and record.get("kind") == "scenario" else "")
                    + (f" (file `{record['file']}`)" if record.get("file") else "")
                    + (f"; replay: `mammamia conform {record['replay']} -- COMMAND`"
                       if record.get("replay") else "")),
                   ("pre", record.get("message") or record["status"])]
    blocks.append(("h", level + 1, "Skipped"))
    skips = skip_groups([_as_result(r) for r in records])
    blocks.append(("table", ("why", "cases"), sorted(skips.items(), key=lambda i: (-i[1], i[0])))
                  if skips else ("p", "Nothing: every case was run."))
    return blocks


def _as_result(record: dict[str, Any]) -> CaseResult:
    return CaseResult(record.get("kind", ""), record.get("name", ""),
                      record.get("status", ""), tuple(record.get("rules") or ()),
                      message=record.get("message") or "",
                      their_rules=tuple(r for r in record.get("their_rules") or ()
                                        if isinstance(r, str)))


def _offered(variants: dict[str, Any]) -> str:
    defaults = variant_defaults()
    listed = [f"{plain(flag)}: {', '.join(plain(v) for v in values)}"
              for flag, values in sorted(variants.items()) if isinstance(values, list)]
    left = sorted(set(defaults) - set(variants))
    return "; ".join(listed + ([f"the default of {', '.join(left)}"] if left else [])) or \
        "the defaults only"


def _cell(value: Any) -> str:
    """A table cell of plain text: the port's words made Markdown-inert, the kit's own
    with ``|`` escaped."""
    if isinstance(value, PortWords):
        return markdown_text(value, limit=10_000)
    return str(value).replace("|", "\\|").replace("\n", " ")


def _md_cell(value: Any) -> str:
    """A table cell of the kit's own Markdown (a linked rule): only ``|`` escaped."""
    return str(value).replace("|", "\\|").replace("\n", " ")


def markdown(blocks: list[Block]) -> str:
    out = []
    for block in blocks:
        if block[0] == "title":
            out.append(f"{'#' * block[1]} Conformance of {markdown_text(block[2], 10_000)}")
        elif block[0] == "h":
            out.append(f"{'#' * block[1]} {block[2]}")
        elif block[0] == "p":
            out.append(block[1])
        elif block[0] == "pre":
            fence = "````" if "```" in block[1] else "```"
            out.append(f"{fence}text\n{block[1]}\n{fence}")
        else:
            head, rows, cell = block[1], block[2], _md_cell if block[0] == "md-table" else _cell
            out.append("\n".join([f"| {' | '.join(map(_cell, head))} |",
                                  f"|{'|'.join('---' for _ in head)}|",
                                  *(f"| {' | '.join(map(cell, row))} |" for row in rows)]))
    return "\n\n".join(out) + "\n"


_LINK = re.compile(r"\[([^\]]*)\]\(([^)\s]*)\)")


def _inline(text: str) -> str:
    """The kit's own Markdown as HTML: code spans and links; everything else escaped."""
    out, at = [], 0
    for match in _LINK.finditer(text):
        out += [_spans(text[at:match.start()]),
                f'<a href="{html.escape(match[2])}">{_spans(match[1])}</a>']
        at = match.end()
    return "".join([*out, _spans(text[at:])])


def _spans(text: str) -> str:
    parts = html.escape(text).split("`")
    return "".join(f"<code>{p}</code>" if i % 2 else p for i, p in enumerate(parts))


def html_page(blocks: list[Block]) -> str:
    title = next((f"Conformance of {b[2]}" for b in blocks if b[0] == "title"),
                 "Conformance report")
    body = []
    for block in blocks:
        if block[0] == "title":
            body.append(f"<h{block[1]}>Conformance of {html.escape(block[2])}</h{block[1]}>")
        elif block[0] == "h":
            body.append(f"<h{block[1]}>{html.escape(block[2])}</h{block[1]}>")
        elif block[0] == "p":
            body.append(f"<p>{_inline(block[1])}</p>")
        elif block[0] == "pre":
            body.append(f"<pre>{html.escape(block[1])}</pre>")
        else:
            cell = _inline if block[0] == "md-table" else (lambda c: html.escape(str(c)))
            head = "".join(f"<th>{html.escape(str(h))}</th>" for h in block[1])
            rows = "".join("<tr>" + "".join(f"<td>{cell(str(c))}</td>" for c in row)
                           + "</tr>" for row in block[2])
            body.append(f"<table><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>")
    style = ("body{font-family:sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem}"
             "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.2rem .5rem;"
             "text-align:left}pre{white-space:pre-wrap;background:#f6f6f6;padding:.5rem}")
    return (f"<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<meta name=\"viewport\" content=\"width=device-width\">"
            f"<title>{html.escape(title)}</title><style>{style}</style></head>\n<body>\n"
            + "\n".join(body) + "\n</body></html>\n")


def site_links(site: str | None) -> Links | None:
    """The links of a report to the built rules site at ``site`` (``mammamia conform
    --rules-site``: its address, or the folder ``mkdocs build`` wrote), None for none."""
    return None if not site else (site.rstrip("/") + "/", ".html")


def render(run: dict[str, Any], suffix: str, links: Links | None = None) -> str:
    """The report of ``run`` for a file ending in ``suffix`` (.md, .html or .json)."""
    if suffix == ".json":  # one case a line: a committed run diffs case by case
        head = json.dumps({k: v for k, v in run.items() if k != "results"}, ensure_ascii=False)
        cases = ",\n".join(json.dumps(r, ensure_ascii=False) for r in run["results"])
        return f"{head[:-1]}, \"results\": [\n{cases}\n]}}\n"
    blocks = report_blocks(run, links=links)
    return html_page(blocks) if suffix == ".html" else markdown(blocks)


def report_suffix(path: str) -> str:
    """The report's form from its file name: ``.html`` and ``.json`` as named, any other
    name Markdown."""
    suffix = Path(path).suffix.lower()
    return suffix if suffix in (".html", ".json") else ".md"


def write_report(path: Path, run: dict[str, Any], site: str | None = None) -> None:
    write_atomically(path, render(run, report_suffix(str(path)), site_links(site)))
