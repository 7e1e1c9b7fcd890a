"""The by-skill reading of the dispute sweeps (sim.skill) and its section on the site."""

from __future__ import annotations

from typing import Any

from mammamia_ref.sim.skill import by_skill, planner_edge, skill_of, trend, verdict
from mammamia_ref.site.dispute_pages import _by_skill


def _sweep(policy: str, games: int, difference: float, half: float,
           base: dict[str, str] | None = None) -> dict[str, Any]:
    """A minimal sweep document: D3, one flag, two rulings, one measure."""
    entry = {"difference": difference, "ci95": [difference - half, difference + half],
             "p": 0.01}
    return {"policies": [policy] * 4, "base_variants": base or {}, "games_per_ruling": games,
            "disputes": [{"dispute": "D3", "rulings": [
                {"flag": "refill", "value": "up_to_seven", "default": True,
                 "measures": {"pizzas_per_player": 2.0}},
                {"flag": "refill", "value": "as_many_as_played", "default": False,
                 "measures": {"pizzas_per_player": 2.0 + difference},
                 "versus_default": {"pizzas_per_player": entry}}]}]}


def test_skill_of_reads_only_uniform_sweeps_on_the_defaults() -> None:
    assert skill_of(_sweep("careful", 10, 0.1, 0.05)) == "careful"
    assert skill_of(_sweep("search:32", 10, 0.1, 0.05)) == "search"
    assert skill_of(_sweep("careful", 10, 0.1, 0.05, {"refill": "x"})) is None
    mixed = _sweep("careful", 10, 0.1, 0.05) | {"policies": ["careful", "random"]}
    assert skill_of(mixed) is None
    one_search = ["search:8", "careful", "careful", "careful"]
    assert skill_of(mixed | {"policies": one_search}) == "search"
    for other in (["search", "search", "careful"], ["search", "random", "random"],
                  ["careful", "search", "careful", "careful"]):
        assert skill_of(mixed | {"policies": other}) is None


def test_rows_follow_skill_order_and_keep_the_largest_sweep() -> None:
    sweeps = [_sweep("careful", 100, -0.7, 0.1), _sweep("random", 50, -0.1, 0.02),
              _sweep("random", 500, -0.2, 0.02)]
    (row,) = by_skill(sweeps, "D3")
    assert [(e.skill, e.games, e.difference) for e in row.effects] == [
        ("random", 500, -0.2), ("careful", 100, -0.7)]
    assert by_skill(sweeps, "D4") == []


def test_trend_needs_a_significant_change_in_size() -> None:
    small = {"difference": 0.10, "ci95": [0.0, 0.2]}
    close = {"difference": 0.15, "ci95": [0.05, 0.25]}
    big = {"difference": -0.9, "ci95": [-1.0, -0.8]}
    assert trend([("random", small), ("careful", close)]) == "same"
    assert trend([("random", small), ("careful", big)]) == "more"
    assert trend([("random", big), ("careful", small)]) == "less"


def test_verdict_sentence() -> None:
    rows = by_skill([_sweep("random", 500, 0.15, 0.02), _sweep("careful", 100, -0.7, 0.1)],
                    "D3")
    text = verdict(rows, "refill=as_many_as_played")
    assert text is not None
    assert "+0.150 with random players, -0.700 with careful players" in text
    assert "matters more as skill grows" in text and "opposite direction" in text
    unclear = by_skill([_sweep("random", 500, 0.01, 0.02), _sweep("careful", 100, 0.0, 0.1)],
                       "D3")
    assert "no clear effect" in (verdict(unclear, "refill=as_many_as_played") or "")
    assert verdict(by_skill([_sweep("random", 5, 0.1, 0.01)], "D3"),
                   "refill=as_many_as_played") is None
    still = [_sweep("random", 5, 0.0, 0.0), _sweep("careful", 5, 0.0, 0.0)]
    for sweep in still:  # the score never moves; the turns do
        default, other = sweep["disputes"][0]["rulings"]
        default["measures"]["turns_per_game"] = 90.0
        other["versus_default"]["turns_per_game"] = {"difference": 2.0, "ci95": [1.0, 3.0]}
    assert "leaves the score unchanged" in (verdict(by_skill(still, "D3"),
                                                    "refill=as_many_as_played") or "")


def test_the_dispute_page_shows_the_skills_side_by_side() -> None:
    sweeps = [_sweep("random", 500, 0.15, 0.02), _sweep("careful", 100, -0.7, 0.1)]
    lines = _by_skill(sweeps, "D3")
    assert "### By skill" in lines
    header = next(line for line in lines if line.startswith("| Ruling (against ours) |"))
    assert "random (500 games)" in header and "careful (100 games)" in header
    # two significant digits, the interval with the same decimals
    assert any("**+0.15 (+0.13 to +0.17)**" in line and "**-0.70 (-0.80 to -0.60)**" in line
               for line in lines)
    assert _by_skill(sweeps[:1], "D3") == []
    search = _sweep("search:8", 40, -0.9, 0.3) | {
        "policies": ["search:8", "careful", "careful", "careful"]}
    header = next(line for line in _by_skill([*sweeps, search], "D3")
                  if line.startswith("| Ruling (against ours) |"))
    assert header.endswith("| search (1 search:8, 3 careful; 40 games) |")


def _wins_sweep(policies: list[str], default: float, difference: float,
                half: float) -> dict[str, Any]:
    """D3 again, with the first seat's wins as its one measure."""
    entry = {"difference": difference, "ci95": [difference - half, difference + half]}
    return {"policies": policies, "base_variants": {}, "games_per_ruling": 1000,
            "disputes": [{"dispute": "D3", "rulings": [
                {"flag": "refill", "value": "up_to_seven", "default": True,
                 "measures": {"first_seat_wins": default}},
                {"flag": "refill", "value": "as_many_as_played", "default": False,
                 "measures": {"first_seat_wins": default + difference},
                 "versus_default": {"first_seat_wins": entry}}]}]}


def test_planner_edge_is_the_search_seat_against_the_first_careful_seat() -> None:
    careful = _wins_sweep(["careful"] * 4, 0.27, -0.01, 0.03)
    ruling = "refill=as_many_as_played"
    for search_difference, said in ((0.20, "rewards planning"), (-0.20, "costs the planner"),
                                    (0.0, "leaves the planner's edge about where it was")):
        search = _wins_sweep(["search", "careful", "careful", "careful"], 0.38,
                             search_difference, 0.04)
        sentence = planner_edge(by_skill([careful, search], "D3"), ruling)
        assert sentence is not None and sentence.startswith(f"`{ruling}` {said}:"), sentence
        assert "wins 38.0% of the games under the default" in sentence
        assert "goes from 27.0% to 26.0%" in sentence
    assert planner_edge(by_skill([careful], "D3"), ruling) is None
