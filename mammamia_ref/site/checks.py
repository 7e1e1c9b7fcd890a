"""What must fail the build, found before any page is written: a reference to a rule,
dispute, edition or flag the registers lack, a flow that cannot be drawn, a scenario that
does not load or whose run diverges, a rule that no scenario exercises.

The checks only report; the hook decides which kinds fail the build
(``MAMMAMIA_SITE_ALLOW`` tolerates some while scenarios are being written).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from mammamia_ref.site.flow import cited_rules, read_flow
from mammamia_ref.site.inputs import Corpus, RunView, Spec


@dataclass(frozen=True)
class Problem:
    """Something that fails the build. ``kind`` is one of ``unknown-rule``,
    ``unknown-dispute``, ``unknown-edition``, ``unknown-flag``, ``flow-invalid``,
    ``scenario-invalid``, ``scenario-failed``, ``uncovered-rule``."""

    kind: str
    message: str

    def __str__(self) -> str:
        return f"{self.kind}: {self.message}"


def _unknown(kind: str, known: Iterable[Any], value: Any, message: str) -> list[Problem]:
    """One problem if ``value`` is not among ``known`` (``None`` is never cited)."""
    return [] if value is None or value in known else [Problem(kind, message)]


def _rule_ref(spec: Spec, rule_id: Any, where: str) -> list[Problem]:
    return _unknown("unknown-rule", spec.rule_by_id, rule_id,
                    f"{where} cites unknown rule ID {rule_id!r}")


def _edition_ref(spec: Spec, source: dict[str, Any], where: str) -> list[Problem]:
    edition = source.get("edition")
    return [] if edition in spec.editions else [
        Problem("unknown-edition", f"{where} cites unknown edition {edition!r}")]


def _rule_problems(spec: Spec) -> list[Problem]:
    """Every rule in a known chapter, citing known disputes, editions and flags."""
    chapters = {c["id"] for c in spec.chapters}
    disputes = spec.dispute_by_id
    found: list[Problem] = []
    for rule in spec.rules:
        where = f"rules.yaml: rule {rule['id']}"
        if rule.get("chapter") not in chapters:
            found.append(Problem("unknown-rule", f"{where} is in unknown chapter "
                                                 f"{rule.get('chapter')!r}"))
        for dispute in rule.get("disputes") or []:
            found += _unknown("unknown-dispute", disputes, dispute,
                              f"{where} cites unknown dispute {dispute!r}")
        if rule.get("ruling"):
            found += _unknown("unknown-dispute", disputes, rule["ruling"],
                              f"{where} is the ruling of unknown dispute {rule['ruling']!r}")
        for source in rule.get("sources") or []:
            found += _edition_ref(spec, source, where)
        for flag in rule.get("when") or {}:
            found += _unknown("unknown-flag", spec.flags, flag,
                              f"{where} applies under unknown flag {flag!r}")
    return found


def _dispute_problems(spec: Spec) -> list[Problem]:
    """Every dispute and every flag citing known rules, editions, flags and disputes."""
    found: list[Problem] = []
    for dispute in spec.disputes:
        where = f"disputes.yaml: dispute {dispute['id']}"
        for rule_id in dispute.get("rules") or []:
            found += _rule_ref(spec, rule_id, where)
        for position in dispute.get("positions") or []:
            found += _edition_ref(spec, position, where)
        for flag in dispute.get("flags") or []:
            found += _unknown("unknown-flag", spec.flags, flag,
                              f"{where} names unknown flag {flag!r}")
    for flag, entry in spec.flags.items():
        for value in entry.get("values", []):
            found += _rule_ref(spec, value.get("rule"),
                               f"disputes.yaml: flag {flag}={value.get('value')}")
        if entry.get("dispute") is not None and entry["dispute"] not in spec.dispute_by_id:
            found.append(Problem("unknown-dispute", f"disputes.yaml: flag {flag} cites unknown "
                                                    f"dispute {entry.get('dispute')!r}"))
    return found


def flow_problems(spec: Spec) -> list[Problem]:
    """The game flow readable and drawable, and every rule it names in the register."""
    game_flow, errors = read_flow(spec.flow_doc)
    found = [Problem("flow-invalid", message) for message in errors]
    for where, rule_id in cited_rules(game_flow):
        found += _rule_ref(spec, rule_id, where)
    return found


def _run_problems(spec: Spec, run: RunView, name: str) -> list[Problem]:
    """A run that cannot start or diverges, and every rule ID its steps or the
    reference's events name."""
    if run.error is not None:
        return [Problem("scenario-invalid", f"{name} cannot start: {run.error}")]
    found: list[Problem] = []
    if run.result is not None and not run.result.passed:
        found.append(Problem("scenario-failed", f"{name} diverges at step {run.result.step} "
                                                f"(line {run.result.line}): "
                                                f"{run.result.failure}"))
    for frame in run.frames:
        where = f"{name} step {frame.index}"
        expect = frame.raw.get("expect", {})
        found += _rule_ref(spec, frame.raw.get("reject", {}).get("rule"), where)
        for item in expect.get("events", []):
            found += _rule_ref(spec, item.get("rule"), where)
        found += _rule_ref(spec, expect.get("winner_rule"), where)
        for event in frame.events:
            found += _rule_ref(spec, event.rule, f"{where} (the reference's events)")
    return found


def _scenario_problems(corpus: Corpus) -> list[Problem]:
    spec = corpus.spec
    found = [Problem("scenario-invalid", message) for message in corpus.load_errors]
    for view in corpus.scenarios:
        where = f"scenario {view.id} ({view.scenario.file})"
        for rule_id in view.scenario.rules:
            found += _rule_ref(spec, rule_id, where)
        for dispute in view.doc.get("disputes") or []:
            found += _unknown("unknown-dispute", spec.dispute_by_id, dispute,
                              f"{where} cites unknown dispute {dispute!r}")
        for source in view.doc.get("sources") or []:
            found += _edition_ref(spec, source, where)
        for run in view.runs:
            name = where if run.name == "default" else f"{where}, run {run.name}"
            found += _run_problems(spec, run, name)
    return found


def _coverage_problems(corpus: Corpus) -> list[Problem]:
    cited = {rule for view in corpus.scenarios for rule in view.scenario.rules}
    return [Problem("uncovered-rule", f"rule {rule['id']} has no scenario that exercises it")
            for rule in corpus.spec.rules if rule["id"] not in cited]


def problems(corpus: Corpus, *, require_coverage: bool = True) -> list[Problem]:
    """Everything that must fail the build (see :class:`Problem`)."""
    spec = corpus.spec
    return [*_rule_problems(spec), *_dispute_problems(spec), *flow_problems(spec),
            *_scenario_problems(corpus),
            *(_coverage_problems(corpus) if require_coverage else [])]
