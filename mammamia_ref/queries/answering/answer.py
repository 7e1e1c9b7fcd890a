"""One cell's answer to a question (:mod:`.ask`): what was found or proved, the bound,
the witness, what was tried and at what cost, in words (:meth:`AskAnswer.text`) and as
JSON (:meth:`AskAnswer.as_json`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class AskAnswer:
    """One cell's answer."""

    question: str
    players: int
    variants: dict[str, str]
    answer: str = "unknown"           # found, none in any game / within the bound, value,
    #                                   unbounded (a most: with none), unknown
    evidence: str | None = None       # how "none in any game" was proved: induction, ranking
    value: int | None = None
    upper: int | None = None
    upper_evidence: str | None = None
    lower: int | None = None          # for fewest: a proved lower bound, where one is known
    lower_evidence: str | None = None
    bound_how: str = ""               # the proved bound's proof in words
    exact: bool = False
    witness_file: str | None = None
    reference: str = "not run"
    detail: str = ""
    tried: str = ""
    cpu: float = 0.0
    in_force: dict[str, Any] = field(default_factory=dict)
    condition_holds: bool | None = None   # the question's condition on the witness
    judged_on: str = ""                   # the part of a game the condition is judged on
    title: str = ""                       # the question in words
    first_held: str = ""                  # where in the witness the condition first held
    seated: tuple[str, ...] = ()          # the witness's colours, clockwise, the first to start
    not_seated: tuple[str, ...] = ()      # colours the question names that it does not seat
    turned: str = ""                      # the witness's first order turned (turned_by)
    found_by: str = ""                    # how the witness was found (a known game's file)
    scenario: dict[str, Any] | None = field(default=None, repr=False)

    def as_json(self) -> dict[str, Any]:
        return {"question": self.question, "players": self.players, "variants": self.variants,
                "answer": self.answer, "evidence": self.evidence, "value": self.value,
                "upper": self.upper, "upper_evidence": self.upper_evidence,
                "lower": self.lower, "lower_evidence": self.lower_evidence,
                "bound_how": self.bound_how or None,
                "exact": self.exact, "witness": self.witness_file, "reference": self.reference,
                "condition_holds_on_witness": self.condition_holds,
                "judged_on": self.judged_on or None, "detail": self.detail, "title": self.title,
                "first_held": self.first_held or None, "turned": self.turned or None,
                "seated": list(self.seated) or None,
                "not_seated": list(self.not_seated) or None,
                "found_by": self.found_by or None,
                "tried": self.tried, "cpu_seconds": round(self.cpu, 3),
                "flags": self.in_force.get("flags"), "parameters": self.in_force.get("parameters"),
                "parameters_from": self.in_force.get("parameters_from"),
                "house": self.in_force.get("house"),
                "not_the_spec": self.in_force.get("non_default")}

    def text(self, written: bool = False) -> str:
        """The answer in words: the question, the answer and its bound, where the
        condition first held, the witness (``written`` by ``--write-witnesses`` or not)
        and only what of the rules is not the spec's (``--json`` has every value)."""
        cell = "".join(f", {k}={v}" for k, v in sorted(self.variants.items()))
        head = f"{self.question} ({self.players} players{cell}): {self.answer}"
        if self.value is not None:
            head += f" {self.value}"
            if self.exact:
                evidence = self.upper_evidence if self.upper is not None else self.lower_evidence
                head += f" (exact: the proved bound, {evidence})"
            elif self.upper is not None:
                head += f", proved at most {self.upper} ({self.upper_evidence})"
            elif self.lower is not None:
                head += f", proved at least {self.lower} ({self.lower_evidence})"
            else:
                head += ", no proved bound"
        witness = "" if not self.witness_file else \
            f"{self.witness_file} (reference {self.reference})" if written else \
            (f"replayed by the reference ({self.reference}), not written: "
             f"--write-witnesses keeps it as {self.witness_file}")
        said = (("", self.title), ("bound: ", self.bound_how), ("judged on ", self.judged_on),
                ("", self.detail), ("seated: ", self.seating()), ("", self.first_held),
                ("turned: ", self.turned),
                ("witness: ", witness), ("found by: ", self.found_by), ("tried: ", self.tried))
        lines = [head + f"  [{self.cpu:.1f} s CPU]",
                 *(f"  {label}{text}" for label, text in said if text)]
        differs = self.in_force.get("non_default") or {}
        house = self.in_force.get("house")
        lines.append("  rules: " + (("not the spec's: " + ", ".join(
            f"{k}={v}" for k, v in differs.items())) if differs else "the spec's")
            + (f" (house rule {house})" if house else "")
            + "; every value in --json")
        return "\n".join(lines)

    def seating(self) -> str:
        """The witness's seats in words: a condition naming a colour or a seat is judged
        on the game as it is seated (a colour not seated there takes no turn in it)."""
        if not self.seated:
            return ""
        absent = "" if not self.not_seated else \
            f" ({' and '.join(self.not_seated)}, named by the question, not seated: no turn)"
        return f"{', '.join(self.seated)} clockwise, {self.seated[0]} starting{absent}"


__all__ = ["AskAnswer"]
