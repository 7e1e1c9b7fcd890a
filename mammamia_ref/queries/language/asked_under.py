"""The rules a question is asked under: a count written as a number of the rules, and
what every answer reports of its rules.

A count may be written as a number of the rules instead of a number
(``at_least: {number: hand_limit, plus: 1}``: "more cards than the hand limit"), so that
a question about the hand limit stays the same question under a house rule that changes
the limit (``ask --house``, ``query run --house``). Such a count is read from the rules
the question is asked under (its house rule's numbers, or spec/cards.yaml's) before any
check or solving: the judge and the game model only ever see plain numbers.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mammamia_ref.formats.house import HouseRule
from mammamia_ref.rules.ruleset import Rules, default_rules, parameter_specs

NUMBERS: tuple[str, ...] = tuple(
    name for name in parameter_specs()
    if isinstance(getattr(default_rules().parameters, name), int))
"""The numbers of the rules a count may be written as: every parameter of
spec/cards.yaml that is one number (not the trimming, one a player count)."""


class NumberProblem(ValueError):
    """A count that is no whole number under the rules asked: its JSON pointer and why."""

    def __init__(self, pointer: str, message: str) -> None:
        super().__init__(message)
        self.pointer = pointer


def in_numbers(written: Any, rules: Rules, comparisons: tuple[str, ...],
               pointer: str = "") -> Any:
    """``written`` (a condition or a measure) with every comparison written as a number
    of the rules replaced by that number under ``rules``. The schema has checked the
    form (``number:`` one of :data:`NUMBERS`, ``plus:`` a whole number)."""
    if isinstance(written, list):
        return [in_numbers(v, rules, comparisons, f"{pointer}/{i}")
                for i, v in enumerate(written)]
    if not isinstance(written, Mapping):
        return written
    stated = {}
    for key, value in written.items():
        at = f"{pointer}/{key}"
        if key in comparisons and isinstance(value, Mapping) and "number" in value:
            name, plus = value["number"], value.get("plus", 0)
            if name not in NUMBERS:
                raise NumberProblem(f"{at}/number", f"number: {name!r} is not a number of "
                                    "the rules; the numbers: " + ", ".join(NUMBERS))
            if type(plus) is not int:
                raise NumberProblem(f"{at}/plus", f"plus: a whole number, not {plus!r}")
            stated[key] = getattr(rules.parameters, name) + plus
            if stated[key] < 0:
                raise NumberProblem(at, f"{key}: {name} ({getattr(rules.parameters, name)} "
                                    f"under these rules) plus {plus} is below 0")
        else:
            stated[key] = in_numbers(value, rules, comparisons, at)
    return stated


def rules_in_force(rules: Rules, house: HouseRule | None = None) -> dict[str, Any]:
    """What an answer reports of its rules: every flag value and every parameter, and
    where the parameters came from."""
    return {"flags": rules.as_dict(), "parameters": rules.parameters_dict(),
            "parameters_from": (f"house rule {house.name!r} ({house.file})" if house
                                else "defaults from spec/cards.yaml"),
            "house": house.file if house else None,
            "non_default": {**rules.non_default(), **rules.non_default_parameters()}}
