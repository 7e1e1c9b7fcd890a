"""Reports of a conformance run: a human summary (by status and by rule), JSON lines
with one record per case written as each case finishes (a killed run keeps what it
did), JUnit XML at the end for CI systems, and a progress bar on a terminal."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from collections import Counter, defaultdict
from pathlib import Path
from typing import IO

from mammamia_ref.formats.output import OutputStream, write_atomically
from mammamia_ref.formats.safeyaml import InputFileError, read_bounded
from mammamia_ref.kit.cases import CaseResult
from mammamia_ref.kit.versions import current
from mammamia_ref.kit.words import plain

STATUSES = ("pass", "fail", "skip", "error", "xfail", "xpass")
UNEXPECTED = ("fail", "error", "xpass")


def load_expected_failures(path: Path) -> set[str]:
    """Case names expected to fail, one per line (``#`` starts a comment). The file is
    read with the size bound and timeout of every input file; a missing, endless or
    non-UTF-8 file is one ``InputFileError``."""
    raw = read_bounded(path)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputFileError("not UTF-8 text", file=str(path),
                             line=raw[:exc.start].count(b"\n") + 1) from None
    names = set()
    for line in text.splitlines():
        name = line.split("#", 1)[0].strip()
        if name:
            names.add(name)
    return names


def apply_expected_failures(results: list[CaseResult], expected: set[str]) -> None:
    for result in results:
        base = result.name.split("[", 1)[0]
        if result.name in expected or base in expected:
            if result.status in ("fail", "error"):
                result.status = "xfail"
            elif result.status == "pass":
                result.status = "xpass"
                result.message = "expected to fail, but passed: remove it from the file"


def run_as(protocol: str) -> str:
    """The version a run was run as, in the words of a summary and a report."""
    ours = current().id
    return f"run as {protocol}" + ("" if protocol == ours else
                                   f" (this kit speaks {ours}: what needs a later change "
                                   "is skipped, one line per change, or not compared)")


def summary(results: list[CaseResult], *, implementation: str, interrupted: bool,
            protocol: str | None = None) -> str:
    """The summary printed at the end of a run; ``implementation`` is shown through
    :func:`mammamia_ref.kit.words.plain` by the caller, the port's labels here."""
    counts = Counter(r.status for r in results)
    lines = [f"conformance of {implementation}"
             + (f", {run_as(protocol)}" if protocol else "") + ": "
             + ", ".join(f"{counts[s]} {label}" for s, label in
                         (("pass", "passed"), ("fail", "failed"), ("skip", "skipped"),
                          ("error", "errored"), ("xfail", "expected failures"),
                          ("xpass", "unexpected passes")) if counts[s] or s in ("pass", "fail"))]
    # the split by kind, a kind with no case named too: a pass on random games alone is
    # not a pass on the scenarios
    parts = []
    for kind, label in (("scenario", "scenarios"), ("perft", "counting tables"),
                        ("random", "random games")):
        by_status = Counter(r.status for r in results if r.kind == kind)
        parts.append(f"{label}: " + (", ".join(f"{n} {status}" for status, n
                                               in sorted(by_status.items())) or "none run"))
    lines.append("  " + "; ".join(parts))
    if interrupted:
        lines.append("interrupted: the figures cover the cases finished before the interrupt")
    lines += skipped_lines(results)
    ranking = rules_ranking(results)
    if ranking:
        lines.append("rules involved in unexpected failures:")
        lines += [f"  {rule}: {cases}"
                  + (f" (named first in {first})" if 0 < first < cases else "")
                  + (f"  (the port said: {', '.join(plain(r) for r in said)})" if said else "")
                  for rule, cases, first, said in ranking]
    for result in results:
        if result.status in UNEXPECTED:
            where = f" ({result.file})" if result.file else ""
            at = f" at step {result.step}" if result.step is not None else ""
            lines.append(f"{result.status.upper()} {result.kind} {result.name}{where}{at}")
            lines += [f"  {row}" for row in result.message.splitlines()]
            if result.replay:
                lines.append(f"  replay: mammamia conform {result.replay} -- COMMAND")
            if result.written:
                lines.append(f"  reproduced by {result.written}")
    return "\n".join(lines)


def rules_ranking(results: list[CaseResult]) -> list[tuple[str, int, int, list[str]]]:
    """The reference's rules involved in unexpected failures, ranked by how often each
    is the one named first: (rule, cases naming it, cases naming it first, the port's
    own labels for it). The summary and the reports lead with it."""
    by_rule: Counter[str] = Counter()
    first: Counter[str] = Counter()
    labels: defaultdict[str, set[str]] = defaultdict(set)
    for result in results:
        if result.status in ("fail", "xpass"):
            by_rule.update(result.rules[:3])
            first.update(result.rules[:1])
            if result.rules:  # the port's own label, beside the reference's rule
                labels[result.rules[0]].update(r for r in result.their_rules
                                               if r != result.rules[0])
    return [(rule, by_rule[rule], first[rule], sorted(labels[rule]))
            for rule in sorted(by_rule, key=lambda r: (-first[r], -by_rule[r], r))]


def skip_groups(results: list[CaseResult]) -> Counter[str]:
    """The skipped cases by why: a ruling the port does not offer counts under what it
    offers of that flag ("your implementation offers stall=letter only"), a missing
    feature under the feature."""
    return Counter(r.message.split(": ", 1)[1] if r.message.startswith("needs ") and
                   ": " in r.message else r.message for r in results if r.status == "skip")


def skipped_lines(results: list[CaseResult]) -> list[str]:
    return [f"skipped {count}: {why}" for why, count in
            sorted(skip_groups(results).items(), key=lambda item: (-item[1], item[0]))]


class JsonlReport:
    """One JSON record per case, written whole as each case finishes, through the one
    output writer (opened before the implementation starts, so that a destination that
    cannot be written costs nothing; a pipe nobody reads is given up, not waited on)."""

    def __init__(self, path: Path) -> None:
        self.stream = OutputStream(path)

    def add(self, result: CaseResult) -> None:
        self.stream.write(json.dumps(result.as_json()) + "\n")

    def close(self) -> None:
        self.stream.close()


class Progress:
    """A one-line progress bar on a terminal (stderr), redrawn as each case finishes."""

    def __init__(self, total: int, stream: IO[str], width: int = 30) -> None:
        self.total, self.stream, self.width = max(total, 1), stream, width
        self.done = self.unexpected = 0

    def add(self, result: CaseResult) -> None:
        self.done += 1
        self.unexpected += result.status in UNEXPECTED
        filled = self.width * self.done // self.total
        self.stream.write(f"\r[{'#' * filled}{'.' * (self.width - filled)}] "
                          f"{self.done}/{self.total} cases, {self.unexpected} failed  "
                          f"{result.name[:40]:40}")
        self.stream.flush()

    def close(self) -> None:
        self.stream.write("\r" + " " * (self.width + 80) + "\r")
        self.stream.flush()


def write_jsonl(results: list[CaseResult], path: Path) -> None:
    write_atomically(path, "".join(json.dumps(r.as_json()) + "\n" for r in results))


def write_junit(results: list[CaseResult], path: Path, *, implementation: str) -> None:
    write_atomically(path, junit_text(results, implementation=implementation))


# Characters XML 1.0 cannot hold, even escaped: control characters but tab, line feed
# and carriage return; lone surrogates; U+FFFE and U+FFFF.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def xml_safe(text: str) -> str:
    r"""``text`` with each character XML cannot hold written as ``\\xNN`` (or
    ``\\uNNNN``): a port's answer may hold a NUL, and the report must still parse.

    >>> xml_safe("a\x00b")
    'a\\x00b'
    """
    def escaped(match: re.Match[str]) -> str:
        code = ord(match.group())
        return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"

    return _NOT_XML.sub(escaped, text)


def junit_text(results: list[CaseResult], *, implementation: str) -> str:
    """JUnit XML of the results; every text from the implementation made XML-safe."""
    safe = xml_safe
    suite = ET.Element("testsuite", name=safe(f"mammamia conformance: {implementation}"),
                       tests=str(len(results)),
                       failures=str(sum(r.status in ("fail", "xpass") for r in results)),
                       errors=str(sum(r.status == "error" for r in results)),
                       skipped=str(sum(r.status in ("skip", "xfail") for r in results)))
    for result in results:
        message = safe(result.message)
        case = ET.SubElement(suite, "testcase", classname=safe(f"mammamia.{result.kind}"),
                             name=safe(result.name), time=f"{result.seconds:.4f}")
        if result.status in ("fail", "xpass"):
            ET.SubElement(case, "failure", message=message.splitlines()[0]
                          if message else result.status).text = message
        elif result.status == "error":
            ET.SubElement(case, "error", message=message).text = message
        elif result.status in ("skip", "xfail"):
            ET.SubElement(case, "skipped", message=message or result.status)
    return ET.tostring(suite, encoding="unicode", xml_declaration=True) + "\n"
