"""``mammamia bench``: a smoke test of the measures (no timing is asserted), and the
pieces that must be exact: the seed split, the simulations and counting in several
processes giving the same games and counts as one."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from mammamia_ref import bench, fast
from mammamia_ref.jsonform import parse_state


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
    assert results["scenarios"]["available"]
    assert results["scenarios"]["runs"] == results["scenarios"]["passed"] > 0
    assert results["scenarios"]["cpu_seconds"] > 0
    assert results["conformance"]["available"] and results["conformance"]["ops_per_s"] > 0
    for optional in ("queries", "model_checker", "chess"):
        assert isinstance(results[optional]["available"], bool)
        if not results[optional]["available"]:
            assert results[optional]["reason"]
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
                  "scenario suite", "conformance protocol", "z3 quer", "model checker",
                  "goal fast_games_per_s_4p"):
        assert words in table, words


def test_seeds_split_into_contiguous_ranges() -> None:
    for games in (0, 1, 7, 100):
        for jobs in (1, 2, 3, 8):
            ranges = bench.split_seeds(games, jobs, seed=5)
            assert len(ranges) == jobs
            seeds = [s for first, count in ranges for s in range(first, first + count)]
            assert seeds == list(range(5, 5 + games))


def test_several_processes_play_the_same_games_and_count_the_same() -> None:
    one = bench.simulate(3, 9, jobs=1, seed=40)
    two = bench.simulate(3, 9, jobs=2, seed=40)
    assert one["wins"] == two["wins"] and one["decisions"] == two["decisions"]
    assert sum(one["wins"]) >= 9  # every game has at least one winner
    table = bench.perft_tables()[0]
    depth = min(max(table.counts), 6)
    expected = fast.perft(fast.from_state(parse_state(table.state)), depth)
    assert expected == table.counts[depth]
    assert bench.perft_parallel(table.state, depth, jobs=2) == expected
    assert bench.perft_parallel(table.state, depth, jobs=1) == expected


def test_scaling_rows(tmp_path: Path) -> None:
    tables = bench.perft_tables()[:2]
    for table in tables:  # keep it small: count to a shallow depth only
        table.counts = {d: n for d, n in table.counts.items() if d <= 4}
    scaling = bench.scaling(2, 8, tables, 0)
    assert [row["jobs"] for row in scaling["rows"]] == [1, 2]
    assert scaling["same_games"]
    assert scaling["rows"][0]["games_speedup"] == 1.0
    pytest.importorskip("matplotlib")
    written = bench.write_plot({"scaling": scaling}, tmp_path / "plot.png")
    assert written is not None and written.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_command_line() -> None:
    parser = argparse.ArgumentParser()
    bench.add_bench_parser(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["bench", "--json", "--quick", "--jobs", "2"])
    assert (args.json, args.quick, args.jobs) == (True, True, 2)
    assert args.handler is bench.run_bench_command
    with pytest.raises(SystemExit):
        parser.parse_args(["bench", "--jobs", "0"])


def test_queries_are_looked_for_without_failing() -> None:
    queries, bmc, why = bench.find_queries()
    assert queries or bmc or why
