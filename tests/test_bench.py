"""``mammamia bench``: a smoke test of the measures (no timing is asserted), and the
pieces that must be exact: the seed split, the simulations and counting in several
processes giving the same games and counts as one, the model checker's budget."""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest

from mammamia_ref.cli import bench as bench_command
from mammamia_ref.rules.state import make_config
from mammamia_ref.sim import fast, simulate
from mammamia_ref.tools import bench
from mammamia_ref.tools.bench import loop

# The measures are run once (quick_results), by one worker.
pytestmark = [pytest.mark.bench, pytest.mark.xdist_group("bench")]

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
    assert queries["available"] and queries["only"] == list(bench.QUICK_QUERIES)
    assert queries["queries"] and queries["not_run"] > 0 and queries["all_as_expected"]
    for row in queries["queries"]:
        assert row["error"] is None and row["query"].startswith("Q24-longest-round/")
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
                  "Q24-longest-round/cut_2p", "bounded model checker: deepest",
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
    from mammamia_ref.queries.catalogue import timing

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
    from mammamia_ref.queries.catalogue import timing

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


# --loop: the commands run through a fake runner (no real verify, site or suite run).

SUITE_OUT = "........ [100%]\n2230 passed, 3 skipped in 612.34s (0:10:12)\n"


class FakeRunner:
    """Answers each command at once: exit code 0 (or ``fail``'s for a command whose
    words contain one of its keys), wall seconds counting up from 0.1, and pytest's
    closing line for pytest."""

    def __init__(self, fail: dict[str, int | None] | None = None) -> None:
        self.fail = fail or {}
        self.calls: list[tuple[list[str], Path, float]] = []

    def __call__(self, argv: Sequence[str], cwd: Path, timeout: float) -> loop.Finished:
        self.calls.append((list(argv), cwd, timeout))
        words = " ".join(argv)
        code = next((code for key, code in self.fail.items() if key in words), 0)
        out = SUITE_OUT if "pytest" in words else "verify: all good\n"
        if code != 0:
            out = "3 failed, 2227 passed in 600.0s\n"
        wall = 0.1 * len(self.calls)
        return loop.Finished(code, wall, wall / 2, out,
                             "Traceback ...\nboom\n" if code != 0 else "")


@pytest.fixture
def checkout(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A source checkout, as far as --loop looks (mkdocs, pytest and xdist installed)."""
    for name in ("pyproject.toml", "mkdocs.yml"):
        (tmp_path / name).write_text("")
    (tmp_path / "tests").mkdir()
    monkeypatch.setattr(loop, "_have", lambda module: True)
    return tmp_path


def test_the_loop_rows_and_json(checkout: Path) -> None:
    fake = FakeRunner()
    results = loop.run_loop(list(reversed(loop.MEASURES)), runs=3, runner=fake, root=checkout)
    assert results["measures"] == list(loop.MEASURES)  # run in the table's order
    assert results["all_ok"] and results["checkout"] == str(checkout)
    rows = results["rows"]
    assert [row["name"] for row in rows] == [
        "mammamia --version", "mammamia --help", "mammamia verify", "mkdocs build --strict",
        "pytest -m quick", "pytest -n 1", "pytest -n 2"]
    for row in rows:
        assert row["status"] == "ok" and row["returncode"] == 0, row
        assert row["wall_seconds"] > 0 and row["cpu_seconds"] > 0
        assert row["argv"][0] == sys.executable and row["cwd"] == str(checkout)
        assert row["command"].startswith("python -m ")
        assert "load_before" in row
    version = rows[0]  # one warm-up run, then 3 timed: calls 2, 3, 4 of the fake
    assert version["runs"] == 3 and version["all_wall_seconds"] == [0.2, 0.3, 0.4]
    assert (version["min_seconds"], version["wall_seconds"], version["max_seconds"]) == \
        (0.2, 0.3, 0.4)
    assert version["cpu_seconds"] == statistics.median([0.1, 0.15, 0.2])
    assert len(fake.calls) == 2 * 4 + 5
    assert [argv[3:] for argv, _, _ in fake.calls[-3:]] == [
        ["-q", "-p", "no:cacheprovider", "-m", "quick"],
        ["-q", "-p", "no:cacheprovider", "-n", "1"], ["-q", "-p", "no:cacheprovider", "-n", "2"]]
    assert [row.get("workers") for row in rows[-2:]] == [1, 2]
    assert all(row["summary"] == "2230 passed, 3 skipped" for row in rows[-3:])
    assert rows[2]["summary"] == "verify: all good"
    site = rows[3]["argv"]
    assert site[1:6] == ["-m", "mkdocs", "build", "--strict", "-d"]
    assert set(results) == {"loop", "measures", "machine", "checkout", "timing", "rows",
                            "measured", "all_ok"}
    assert {"python", "cpu_count", "usable_cpus", "load_average"} <= set(results["machine"])
    json.loads(json.dumps(results))  # JSON-ready
    table = loop.format_loop_table(results)
    for words in ("loop measure", "mammamia --version", "median of 3 (min 0.200, max 0.400)",
                  "pytest -n 2", "2230 passed, 3 skipped", "python -m pytest -q -p "
                  "no:cacheprovider -n 1", f"run in {checkout}", "load average"):
        assert words in table, words
    assert "FAILED" not in table


def test_a_failed_command_is_reported_as_failed(checkout: Path) -> None:
    fake = FakeRunner(fail={"-n 2": 1, "verify": None, "--help": 3})
    results = loop.run_loop(["startup", "verify", "suite"], runs=2, runner=fake, root=checkout)
    rows = {row["name"]: row for row in results["rows"]}
    assert not results["all_ok"]
    assert rows["mammamia --version"]["status"] == rows["pytest -n 1"]["status"] == "ok"
    for name, reason in (("pytest -n 2", "exit code 1"), ("mammamia --help", "exit code 3"),
                         ("mammamia verify", "stopped after 10800 s (its time limit)")):
        row = rows[name]
        assert row["status"] == "failed" and row["reason"] == reason, row
        assert row["wall_seconds"] is None and row["cpu_seconds"] is None  # never a time
        assert row["error"] == "boom"
    assert rows["pytest -n 2"]["summary"] == "3 failed, 2227 passed"
    assert "min_seconds" not in rows["mammamia --help"]
    assert len([argv for argv, _, _ in fake.calls if "--help" in argv]) == 1  # stops at once
    lines = loop.format_loop_table(results).splitlines()
    failed = next(line for line in lines if line.startswith("pytest -n 2"))
    assert "FAILED" in failed and "exit code 1: 3 failed, 2227 passed" in failed
    assert failed.split()[4:6] == ["-", "-"]  # no wall, no CPU seconds
    assert "some commands FAILED" in lines[-1]


def test_a_measure_without_its_tools_is_skipped_with_the_reason(
        tmp_path: Path, checkout: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    installed = tmp_path / "installed"  # no pyproject.toml, tests/ nor mkdocs.yml
    installed.mkdir()
    fake = FakeRunner()
    results = loop.run_loop(["site", "quick", "suite", "verify"], runner=fake, root=installed)
    rows = results["rows"]
    assert results["all_ok"] and results["checkout"] is None
    assert [row["status"] for row in rows] == ["ok", "skipped", "skipped", "skipped", "skipped"]
    assert rows[0]["name"] == "mammamia verify" and rows[0]["cwd"] != str(installed)
    assert "no mkdocs.yml" in rows[1]["reason"]
    assert all("no tests/ folder" in row["reason"] for row in rows[2:])
    assert [argv[1:3] for argv, _, _ in fake.calls] == [["-m", "mammamia_ref"]]  # verify only
    assert "skipped: no tests/ folder here" in loop.format_loop_table(results)
    nothing = loop.run_loop(["site", "quick", "suite"], runner=fake, root=installed)
    assert nothing["measured"] == 0 and not nothing["all_ok"]  # never a pass on nothing
    assert loop.format_loop_table(nothing).endswith("every measure was skipped")
    monkeypatch.setattr(loop, "_have", lambda module: module not in ("mkdocs", "xdist"))
    rows = loop.run_loop(["site", "suite"], runner=fake, root=checkout)["rows"]
    assert [row["reason"] for row in rows] == [
        "mkdocs is not installed (pip install -e '.[docs]')",
        *["pytest-xdist is not installed (pip install -e '.[test]')"] * 2]


def test_the_pytest_summary() -> None:
    assert loop.pytest_summary(SUITE_OUT) == "2230 passed, 3 skipped"
    assert loop.pytest_summary("x\n==== 1 failed, 2 passed, 1 warning in 3.21s ====\n") == \
        "1 failed, 2 passed, 1 warning"
    assert loop.pytest_summary("no tests ran in 0.01s") == "no tests ran"
    assert loop.pytest_summary("collecting ...\n") is None


def test_the_loop_option(capsys: pytest.CaptureFixture[str]) -> None:
    assert tuple(loop.MEASURES) == bench_command.LOOP_MEASURES
    parser = argparse.ArgumentParser()
    bench_command.add_parser(parser.add_subparsers(dest="command"))
    assert parser.parse_args(["bench"]).loop is None
    assert parser.parse_args(["bench", "--loop"]).loop == tuple(loop.MEASURES)
    assert parser.parse_args(["bench", "--loop", "suite,startup,suite", "--json"]).loop == \
        ("suite", "startup")
    capsys.readouterr()
    with pytest.raises(SystemExit):
        parser.parse_args(["bench", "--loop", "startup,sweet"])
    error = capsys.readouterr().err.strip().splitlines()[-1]
    assert "unknown measure 'sweet'" in error
    assert "startup, verify, site, quick, suite" in error
    with pytest.raises(ValueError, match="the measures: startup"):
        loop.run_loop(["sweet"], runner=FakeRunner())


def test_the_loop_command(checkout: Path, monkeypatch: pytest.MonkeyPatch,
                          capsys: pytest.CaptureFixture[str]) -> None:
    parser = argparse.ArgumentParser()
    bench_command.add_parser(parser.add_subparsers(dest="command"))

    def run(words: list[str]) -> int:
        args = parser.parse_args(["bench", *words])
        code: int = args.handler(args)
        return code

    fake = FakeRunner()
    monkeypatch.setattr(loop, "run_command", fake)
    monkeypatch.setattr(loop, "ROOT", checkout)
    assert run(["--loop", "startup,quick", "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert [row["measure"] for row in printed["rows"]] == ["startup", "startup", "quick"]
    assert printed["rows"][0]["runs"] == loop.STARTUP_RUNS
    monkeypatch.setattr(fake, "fail", {"quick": 1})
    assert run(["--loop", "quick"]) == 1  # a failed command: exit code 1
    assert "FAILED" in capsys.readouterr().out
    assert run(["--loop", "--quick", "--jobs", "2"]) == 2
    assert "not with --quick, --jobs" in capsys.readouterr().err


def test_a_real_start_up_measure() -> None:
    """The one real loop measure: start-up, 2 runs each (a second or two)."""
    results = loop.run_loop(["startup"], runs=2)
    assert results["all_ok"], results
    for row, flag in zip(results["rows"], ("--version", "--help"), strict=True):
        assert row["argv"] == [sys.executable, "-m", "mammamia_ref", flag]
        assert 0 < row["min_seconds"] <= row["wall_seconds"] <= row["max_seconds"]
        assert row["cpu_seconds"] is None or row["cpu_seconds"] > 0
    assert "mammamia --help" in loop.format_loop_table(results)


def test_a_command_past_its_time_limit_is_stopped(tmp_path: Path) -> None:
    finished = loop.run_command([sys.executable, "-c", "import time; time.sleep(60)"],
                                tmp_path, 0.5)
    assert finished.returncode is None and finished.wall_seconds < 30
