"""What a query finds: the verdict of an implementation, the answer as run and
checked against the catalogue, a query's answers, and the kinds of evidence."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent.parent.parent
WITNESS_DIR = "scenarios/queries"
DISAGREEMENT_DIR = "scenarios/queries/_disagreements"


# ----------------------------------------------------------------------- results


@dataclass
class Verdict:
    """What a query implementation found for one answer."""

    verdict: str                          # "sat", "unsat" or "value"
    value: int | None = None
    witness: dict[str, Any] | None = None  # a scenario document
    detail: str = ""
    evidence: str | None = None           # see EVIDENCE; derived when not given
    upper: int | None = None              # a value's proved upper bound, where apart
    upper_evidence: str | None = None     # ... and how it is proved (see EVIDENCE)


@dataclass
class Answer:
    """One answer of a query (one variant assignment)."""

    query: str
    name: str
    variants: dict[str, str]
    expected: dict[str, Any]
    bound: str
    method: str
    verdict: str = "unknown"
    value: int | None = None
    upper: int | None = None           # a value's proved upper bound (see Verdict)
    upper_evidence: str | None = None
    seconds: float = 0.0
    detail: str = ""
    witness_file: str | None = None    # where the witness scenario is (to be) written
    reference: str = "not run"         # "agrees", "disagrees" or "not run"
    reference_detail: str = ""
    evidence: str = "none"
    rulings: list[str] = field(default_factory=list)   # flags whose rules the witness fires
    also: dict[str, list[str]] = field(default_factory=dict)  # other rulings it holds under
    cpu: float = 0.0                   # CPU seconds of this process (time.process_time)
    # a certified answer's full search, as the catalogue records it (``full_search``:
    # its measured cpu_seconds, when and how), and whether this run searched in full
    # (``ran``) or replayed the certificate
    full_search: dict[str, Any] | None = None
    scenario: dict[str, Any] | None = field(default=None, repr=False)
    parameters: dict[str, Any] = field(default_factory=dict)  # not the spec's (a house rule's)
    house: str | None = None           # the house rule answered under (query run --house)

    def in_force(self) -> tuple[dict[str, str], dict[str, Any]]:
        """Every flag's value and every parameter the answer was given under (those it
        names over the defaults), so that no answer, proofs included, leaves a ruling
        it assumes unsaid."""
        from mammamia_ref.rules.ruleset import make_rules

        rules = make_rules(self.variants, self.parameters)
        return rules.as_dict(), rules.parameters_dict()

    @property
    def answered(self) -> bool:
        """An answer under a house rule has no expectation to meet: it counts when the
        models gave one and its witness, if any, replays."""
        return self.verdict in ("sat", "unsat", "value") and self.reference != "disagrees"

    @property
    def matches_expected(self) -> bool:
        if self.verdict != self.expected.get("verdict"):
            return False
        if self.evidence != self.expected.get("evidence", self.evidence):
            return False
        if "value" in self.expected and self.value != self.expected["value"]:
            return False
        if self.upper != self.expected.get("upper") or \
                self.upper_evidence != self.expected.get("upper_evidence"):
            return False
        wanted = self.expected.get("reference", "agrees")
        return self.scenario is None or self.reference == wanted

    def as_json(self) -> dict[str, Any]:
        return {"answer": self.name, "variants": self.variants, "verdict": self.verdict,
                "value": self.value, "upper": self.upper,
                "upper_evidence": self.upper_evidence, "expected": self.expected,
                "matches_expected": self.matches_expected, "seconds": round(self.seconds, 3),
                "bound": self.bound, "method": self.method, "detail": self.detail,
                "evidence": self.evidence, "cpu_seconds": round(self.cpu, 3),
                "rulings_used": self.rulings, "also_holds_under": self.also,
                "full_search": self.full_search, "witness": self.witness_file,
                "reference": self.reference, "reference_detail": self.reference_detail,
                "parameters": self.parameters, "house": self.house,
                "flags_in_force": self.in_force()[0],
                "parameters_in_force": self.in_force()[1]}


def full_search_line(full: dict[str, Any], cpu: float) -> str:
    """What a certified answer's run cost and what its full search costs (the
    catalogue's record), in one line."""
    cost = f"{full['cpu_seconds']:g} s of CPU ({' '.join(str(full['measured']).split())})"
    if full.get("ran"):
        return f"certified, searched in full this time; the recorded full search: {cost}"
    return (f"certified: the committed witness replayed in {cpu:.2f} s of CPU; the full "
            f"search (--slow) took {cost}")


@dataclass
class QueryResult:
    id: str
    question: str
    rules: list[str]
    answers: list[Answer]
    seconds: float = 0.0

    @property
    def matches_expected(self) -> bool:
        return all(a.matches_expected for a in self.answers)

    def as_json(self) -> dict[str, Any]:
        return {"id": self.id, "question": self.question, "rules": self.rules,
                "matches_expected": self.matches_expected, "seconds": round(self.seconds, 3),
                "answers": [a.as_json() for a in self.answers]}


# ----------------------------------------------------------------------- evidence


EVIDENCE = {
    "game": "a witness game: from a new game, the deal given as explicit chance, every "
            "action legal, replayed by the reference",
    "position": "a position-level witness: a position the model allows but no game is "
                "shown to reach (the model over-approximates the game); sound for upper "
                "bounds and 'impossible' answers only",
    "bound": "a bounded search that finds nothing within the bound stated",
    "statement": "a statement about every table, hand and decision (or every state and "
                 "step), unsatisfiable for all of them",
    "induction": "an invariant proved by induction over the transition relation",
    "ranking": "a ranking function that decreases at every turn",
    "counting": "a count of what the game holds (the ingredient cards in play, the "
                "orders dealt): no game can pass it",
}


def evidence_of(verdict: Verdict, method: str) -> str:
    """What kind of evidence backs an answer: a witness is a game when it starts from
    the setup, else position-level; without a witness the method says."""
    if verdict.evidence:
        return verdict.evidence
    if verdict.witness is not None:
        return "game" if "setup" in verdict.witness["given"] else "position"
    return {"induction": "induction", "ranking": "ranking", "rules": "statement"}.get(
        method, "bound")
