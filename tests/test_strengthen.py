"""A count of events bounded by an invariant found automatically
(:mod:`mammamia_ref.queries.model.strengthen`, through the unbounded proof): what it
proves, names, refuses and leaves to the search. That each bound it proves holds on
random reference games is :mod:`tests.test_unbounded`'s (``NEVER``); that it claims no
count a game reaches, its ``REACHED``."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("z3")

from mammamia_ref.queries.answering.unbounded import prove_never
from mammamia_ref.queries.language.questions import load_question
from mammamia_ref.queries.model import strengthen
from mammamia_ref.rules.ruleset import make_rules

pytestmark = pytest.mark.z3

SHIPPED = Path(__file__).resolve().parent.parent / "spec" / "questions"


def _condition(name: str) -> dict[str, Any]:
    question = load_question(SHIPPED / f"{name}.yaml")
    assert question.condition is not None
    return dict(question.condition)


@pytest.mark.parametrize(("name", "bound", "because"), [
    ("new-fourth-opening", 3, "at most the rounds resolved + an opening in progress"),
    ("new-mamma-mia-drawn-four-times", 3, "at most the rounds resolved + the Mamma Mia! "
                                          "card held"),
    ("new-orders-bake-nine-times", 8, "at most red's orders delivered"),
])
def test_a_count_of_events_is_bounded_by_the_invariant_found(
        name: str, bound: int, because: str) -> None:
    """The answer says the bound, the invariant found in the game's words, and its
    proof's cases: the setup and each kind of step, all unsatisfiable."""
    never = prove_never(_condition(name), 2, make_rules({}))
    assert never.proved, never.how
    assert f"at most {bound} " in never.how and because in never.how, never.how
    assert "found automatically" in never.how
    invariant = [case for case in never.cases if "the count's invariant" in case]
    assert {case.rsplit(", ", 1)[1] for case in invariant} == {
        "setup", "turn", "reveal", "transition"}
    assert all(never.cases[case] == "unsat" for case in invariant)


def test_the_bound_follows_the_rounds_of_a_house_rule() -> None:
    """Under four rounds the oven can open four times: no bound below five is claimed
    (the bound asked is dropped), and five is proved out of reach."""
    four = make_rules({}, parameters={"rounds": 4})
    cond = _condition("new-fourth-opening")
    refused = prove_never(cond, 2, four)
    assert not refused.proved
    assert "no invariant among the candidates" in refused.how, refused.how
    assert prove_never({**cond, "at_least": 5}, 2, four).proved


def test_without_the_game_quantities_nothing_is_found(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The quantities are what proves it: with none of the seats' and only the quiet
    turns of the game's own, the count of openings is not bounded (the proof without a
    strengthening answered so)."""
    monkeypatch.setattr(strengthen, "QUANTITIES",
                        {"the quiet turns": strengthen.QUANTITIES["the quiet turns"]})
    monkeypatch.setattr(strengthen, "PER_SEAT", {})
    never = prove_never(_condition("new-fourth-opening"), 2, make_rules({}))
    assert not never.proved and "no invariant among the candidates" in never.how


def test_a_proof_out_of_cpu_says_so() -> None:
    """No CPU for the search of an invariant: not proved, and the answer says why."""
    never = prove_never(_condition("new-fourth-opening"), 2, make_rules({}), seconds=0)
    assert not never.proved
    assert "the CPU the proof was given ran out" in never.how, never.how


def test_the_invariant_found_is_said_without_what_it_implies() -> None:
    """Every quantity is at least 0, so a bound by one quantity implies its bound by the
    sum with any other, and a seat's bound implies the game's of the same quantity: only
    the bounds no other implies are said."""
    found = ("count <= the round", "count <= the round + the supply",
             "count <= the rounds resolved + an opening in progress")
    assert strengthen.essential(found) == [
        "count <= the round", "count <= the rounds resolved + an opening in progress"]
    # a seat's orders delivered are at most the game's: the game's bound is implied
    seat = ("count <= the orders delivered", "count <= red's orders delivered",
            "count <= the orders delivered + the round", "count <= the round + the supply")
    assert strengthen.essential(seat) == ["count <= red's orders delivered",
                                          "count <= the round + the supply"]


def test_each_seats_count_is_proved_and_the_next_starts_from_the_bounds_found() -> None:
    """"Some player's orders bake nine times" is one count a seat: each is a case of its
    own, bounded by its own seat's orders delivered, and the seats after the first start
    from the kinds of bound found before (fewer checks than the first)."""
    never = prove_never(_condition("new-orders-bake-nine-times"), 3, make_rules({}))
    assert never.proved, never.how
    for colour in ("red", "yellow", "green"):
        assert f"at most {colour}'s orders delivered" in never.how, never.how
        assert {case.rsplit(", ", 1)[1] for case in never.cases
                if f"baked seat={colour}, the count's invariant" in case} == {
            "setup", "turn", "reveal", "transition"}, never.cases
    checks = [int(n) for n in re.findall(r"(\d+) checks", never.how)]
    assert len(checks) == 3 and max(checks[1:]) < checks[0], never.how


def test_a_bound_found_before_is_only_a_first_guess(monkeypatch: pytest.MonkeyPatch) -> None:
    """Bounds that do not hold for this count (here the quiet turns) are dropped by the
    checks, and the search goes on among every candidate: the proof still holds."""
    real = strengthen.bound_events

    def misled(*args: Any, **kwargs: Any) -> strengthen.Bound:
        return real(*args[:5], ["count <= the quiet turns"])

    monkeypatch.setattr(strengthen, "bound_events", misled)
    never = prove_never(_condition("new-fourth-opening"), 2, make_rules({}))
    assert never.proved, never.how
    assert "the quiet turns" not in never.how
