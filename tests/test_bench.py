"""``mammamia bench``: a smoke test of the measures (no timing is asserted), and the
pieces that must be exact: the seed split, the simulations and counting in several
processes giving the same games and counts as one, the model checker's budget."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from mammamia_ref.cli import bench as bench_command
from mammamia_ref.rules.state import make_config
from mammamia_ref.sim import fast, simulate
from mammamia_ref.tools import bench

PNG = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(scope="module")
def quick_results() -> dict:
    return bench.run_benchmarks(quick=True, jobs=1)


def test_quick_run_has_every_measure(quick_results: dict) -> None:
    results = quick_results
    for engine in ("reference", "fast"):
        for players in bench.PLAYER_COUNTS:
            figures = results["games"][engine][str(players)]
            assert figures["games"] > 0 and figures["games_per_s"] > 0
            assert figures["decisions_per_s"] > 0
        assert results["decisions_per_s"][engine] > 0
        assert results["legal_actions"][engine]["calls_per_s"] > 0
        assert results["oven_resolutions"][engine]["resolutions_per_s"] > 0
        assert results["perft"][engine]["nodes_per_s"] > 0
        assert results["perft"][engine]["tables"]
    players = results["players"]
    for name in ("random", "careful", "careful_reference", "random_engine_loop"):
        assert players[name]["games"] > 0 and players[name]["games_per_s"] > 0, name
        assert players[name]["decisions_per_s"] > 0, name
    assert players["careful_in_random_games"] > 0 and players["careful_in_engine_loop_games"] > 0
    assert players["search"]["games"] >= 1 and players["search"]["searched"] > 0
    assert players["search"]["cpu_ms_per_searched_decision"] > 0
    assert results["scenarios"]["available"]
    assert results["scenarios"]["runs"] == results["scenarios"]["passed"] > 0
    assert results["scenarios"]["cpu_seconds"] > 0
    assert results["conformance"]["available"] and results["conformance"]["ops_per_s"] > 0
    queries = results["queries"]
    assert queries["available"] and queries["methods"] == list(bench.QUICK_QUERY_METHODS)
    assert queries["queries"] and queries["not_run"] > 0 and queries["all_as_expected"]
    for row in queries["queries"]:
        assert row["error"] is None and row["method"] == "rules"
        assert 0 <= row["solve_seconds"] <= row["seconds"]
    bmc = results["model_checker"]
    assert bmc["available"] and bmc["budget_seconds"] == bench.QUICK_BMC_BUDGET
    assert bmc["deepest_bound"] >= 1 and bmc["holds_to_deepest"]
    assert [row["bound"] for row in bmc["bounds"]][:2] == [1, 2][:len(bmc["bounds"])]
    if not results["chess"]["available"]:
        assert results["chess"]["reason"]
    if results["chess"]["available"]:
        assert results["chess"]["random_moves_per_s"] > 0
        assert results["chess"]["perft_nodes_per_s"] > 0
    assert set(results["goals"]) == set(bench.GOALS)
    assert results["goals"]["fast_games_per_s_4p"]["value"] > 0
    assert "scaling" not in results  # only with --jobs N > 1
    json.dumps(results)  # JSON-ready


def test_the_table_names_every_measure(quick_results: dict) -> None:
    table = bench.format_table(quick_results)
    for words in ("games/s, 2 players", "games/s, 5 players", "decisions/s",
                  "legal_actions calls/s", "oven resolutions/s", "perft nodes/s",
                  "scenario suite", "conformance protocol", "z3 queries",
                  "Q14-bombastica-leaves-cards/hand_allowed", "bounded model checker: deepest",
                  "Q09 bounded", "goal fast_games_per_s_4p",
                  "4-player games/s, simulation loop: careful", "goal careful_game_cost",
                  "search player (search, one seat of four)"):
        assert words in table, words


def test_seeds_split_into_contiguous_ranges() -> None:
    for games in (1, 7, 100):
        for chunk in (1, 2, 3, 8, 250):
            jobs = simulate.make_jobs(4, games, 5, {}, ("random",) * 4, chunk)
            assert all(job.count <= chunk for job in jobs)
            seeds = [s for job in jobs for s in range(job.first, job.first + job.count)]
            assert seeds == list(range(5, 5 + games))


def test_several_processes_play_the_same_games() -> None:
    """The bench's games are simulate's (``tally``): the same totals in one process or
    two, and the same games as the fast engine's own loop plays one by one."""
    one = simulate.tally(3, 9, jobs=1, seed=40)
    two = simulate.tally(3, 9, jobs=2, seed=40)
    assert one["wins"] == two["wins"] and one["decisions"] == two["decisions"]
    assert sum(one["wins"]) >= 9  # every game has at least one winner
    games = [fast.play_random_game(make_config(3), seed) for seed in range(40, 49)]
    assert one["decisions"] == sum(game.decisions for game in games)


def test_scaling_rows(tmp_path: Path) -> None:
    tables = bench.perft_tables()[:2]
    for table in tables:  # keep it small: count to a shallow depth only
        table.counts = {d: n for d, n in table.counts.items() if d <= 4}
    scaling = bench.scaling(2, 8, tables, 0)
    assert [row["jobs"] for row in scaling["rows"]] == [1, 2]
    assert scaling["same_games"]
    assert scaling["rows"][0]["games_speedup"] == 1.0
    pytest.importorskip("matplotlib")
    written = bench.write_jobs_plot({"scaling": scaling}, tmp_path / "plot.png")
    assert written is not None and written.read_bytes()[:8] == PNG


def test_the_command_line() -> None:
    parser = argparse.ArgumentParser()
    bench_command.add_parser(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["bench", "--json", "--quick", "--jobs", "2", "--plots", "out"])
    assert (args.json, args.quick, args.jobs, args.plots) == (True, True, 2, "out")
    assert args.handler is bench_command.run_bench_command
    with pytest.raises(SystemExit):
        parser.parse_args(["bench", "--jobs", "0"])


def test_the_model_checker_stops_when_its_budget_is_spent(monkeypatch: pytest.MonkeyPatch
                                                            ) -> None:
    """Bounds 1, 2, ... in turn; the one z3 gives up on (its timeout: what is left of
    the budget) is listed but not counted."""
    from mammamia_ref.queries import timing

    timeouts = []

    def fake(bound: int, *, timeout: float | None = None) -> timing.BmcResult:
        timeouts.append(timeout)
        verdict = "unknown" if bound == 3 else "unsat"
        return timing.BmcResult(bound, verdict, bound, 10 * bound, 0.01, 0.02 * bound)

    monkeypatch.setattr(timing, "bmc_check", fake)
    found = bench.model_checker_depth(100.0)
    assert found["deepest_bound"] == 2 and found["holds_to_deepest"]
    assert [row["verdict"] for row in found["bounds"]] == ["unsat", "unsat", "unknown"]
    assert all(0 < t <= 100.0 for t in timeouts) and timeouts == sorted(timeouts, reverse=True)
    assert "(stopped: budget spent)" in "\n".join(bench.format_queries(
        {"queries": {"available": False, "reason": "-"}, "model_checker": found}))
    monkeypatch.setattr(timing, "bmc_check", lambda bound, timeout=None: timing.BmcResult(
        bound, "sat", bound, 1, 0.0, 0.0))
    assert bench.model_checker_depth(100.0)["deepest_bound"] == 1  # broken: no deeper


def test_the_real_model_checker_and_query_list() -> None:
    from mammamia_ref.queries import timing

    result = timing.bmc_check(2)
    assert (result.bound, result.steps, result.verdict, result.holds) == (2, 2, "unsat", True)
    assert result.seconds == result.build_seconds + result.solve_seconds
    with pytest.raises(ValueError):
        timing.bmc_check(0)
    every = timing.benchmark_queries(include_slow=True)
    names = [name for name, _ in every]
    assert len(names) == len(set(names)) == sum(
        len(q["answers"]) for q in timing.load_catalogue())
    assert all(callable(run) for _, run in every)


def test_the_model_checker_plot(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    rows = [{"bound": b, "verdict": "unsat", "holds": True, "seconds": 0.3 * 3 ** b,
             "build_seconds": 0.1, "solve_seconds": 0.3 * 3 ** b - 0.1} for b in (1, 2, 3)]
    rows.append({"bound": 4, "verdict": "unknown", "holds": False, "seconds": 20.0,
                 "build_seconds": 0.1, "solve_seconds": 19.9})
    results = {"model_checker": {"available": True, "budget_seconds": 30.0, "bounds": rows}}
    written = bench.write_plots(results, tmp_path)
    assert written == [tmp_path / "bench-bmc.png"]  # no --jobs run: no scaling plot
    assert written[0].read_bytes()[:8] == PNG
    assert bench.write_bmc_plot({"model_checker": {"available": False}}, tmp_path / "x.png") \
        is None
