"""The compiled fast core plays the pure-Python core's games, step for step.

When the compiled core (mypyc: ``python -m mammamia_ref.tools.compile``) is built and
current, this process runs it; a child process of this same file runs the pure-Python
core (``MAMMAMIA_PURE=1``), and each says which core it ran. Both play the same seeded
games, random and careful players in every seat and a search player among careful ones,
for 2 to 5 players under the default rulings, every value of every variant flag and
mixtures, and count the perft tables; every step's legal actions, the action chosen and
the state after it (canonical JSON) are hashed into each game's stream, which must be the
same, as must the simulation's counts of each game (what sweeps add up) and the events
the fast engine tells when asked (``ask``'s search judges them). Without a build the
comparison is skipped, with the reason. The loader's refusal of a stale build is
tested either way, on a build of files in a scratch folder.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import subprocess
import sys
import warnings
from dataclasses import astuple
from pathlib import Path
from typing import Any

import pytest

from mammamia_ref.formats.jsonform import parse_state
from mammamia_ref.formats.perft_table import load_perft_tables
from mammamia_ref.rules.state import make_config, variant_defaults, variant_values
from mammamia_ref.sim import compiled, fast, simulate
from mammamia_ref.sim.policies import get_fast_chooser

ROOT = Path(__file__).resolve().parent.parent
SEEDS = int(os.environ.get("MAMMAMIA_COMPILED_SEEDS", "2"))


def rulings() -> list[dict[str, str]]:
    """The defaults, every other value of every flag alone, and six mixtures."""
    defaults = variant_defaults()
    found: list[dict[str, str]] = [{}]
    for flag, values in sorted(variant_values().items()):
        found += [{flag: value} for value in values if value != defaults[flag]]
    rng = random.Random("compiled-core")
    for _ in range(6):
        found.append({flag: rng.choice(values) for flag, values in variant_values().items()})
    return found


def _digest(*parts: Any) -> str:
    return hashlib.sha256(json.dumps(parts, sort_keys=True, default=str).encode()).hexdigest()


def stream(players: int, seed: int, variants: dict[str, str], policies: list[str]) -> list[str]:
    """One game's stream, simulate.play's loop written out: a short hash of each step
    (the legal actions, the action, the state after it) and the winners at the end."""
    config = make_config(players, colours=simulate.seat_colours(players, seed),
                         variants=variants)
    state = fast.new_game(config)
    chance = random.Random(f"mammamia-chance:{seed}")
    rng = random.Random(f"mammamia-policy:{seed}")
    choosers = [get_fast_chooser(name) for name in policies]
    steps: list[str] = []
    while state.phase != "over" and len(steps) < simulate.MAX_DECISIONS:
        if state.phase == "shuffle":
            order = fast.shuffled(chance, fast.chance_pile(state)[1])
            fast.apply_shuffle(state, order)
            steps.append(_digest("shuffle", order, state.to_json())[:16])
            continue
        if state.rules.stall_letter and state.phase == "turn" and \
                state.quiet_turns >= players:
            break
        legal = list(fast.legal_actions(state))
        chooser = choosers[state.current]
        assert chooser is not None
        action = chooser(state, legal, rng)
        fast.apply(state, action)
        steps.append(_digest(legal, action, state.to_json())[:16])
    steps.append(_digest("end", state.phase, fast.winners(state) if state.phase == "over"
                         else None))
    return steps


def games() -> list[tuple[int, int, dict[str, str], list[str]]]:
    """(players, seed, variants, policies) of every game compared."""
    found = []
    for index, variants in enumerate(rulings()):
        for players in (2, 3, 4, 5):
            for seed in range(SEEDS):
                game_seed = 100 * index + 10 * players + seed
                found.append((players, game_seed, variants, ["random"] * players))
                if seed == 0:  # careful games cost ten random ones: one per player count
                    found.append((players, game_seed, variants, ["careful"] * players))
    for seed in range(2):  # a search seat among careful ones, a small budget
        policies = ["careful"] * 3
        policies[seed % 3] = "search:4"
        found.append((3, 7000 + seed, {}, policies))
    return found


def trace() -> dict[str, Any]:
    """Everything compared, from the core this process runs."""
    import mammamia_ref.sim.careful
    import mammamia_ref.sim.search  # noqa: F401  (loaded: their core is reported)

    streams = [stream(*game) for game in games()]
    random_games = []  # the fast engine's own loop, play_random_game
    for players in (2, 3, 4, 5):
        for seed in range(25):
            played = fast.play_random_game(make_config(players), seed)
            random_games.append([played.decisions, played.turns, played.shuffles,
                                 played.stalled, list(played.winners),
                                 _digest(played.state.to_json())])
    stats = [astuple(simulate.play(players, seed, variants, policies))
             for players, seed, variants, policies in games()[::7]]
    perft = {}
    for table in load_perft_tables(ROOT / "scenarios" / "perft"):
        depths = [d for d, n in sorted(table.counts.items()) if n <= 200_000]
        if depths:
            perft[table.id] = fast.perft(fast.from_state(parse_state(table.state)), depths[-1])
    from mammamia_ref.sim.fast_events import games_with_events

    events = [_digest([str(e) for _seed, told in games_with_events(
        make_config(players, variants=variants), range(3), policy) for e in told])
        for variants in rulings()[::5] for players in (2, 5) for policy in ("random", "careful")
        if policy == "random" or not variants]
    return {"core": compiled.core_line(), "loaded": compiled.loaded(), "streams": streams,
            "events": events,
            "random_games": random_games, "stats": stats, "perft": perft}


def pure_trace() -> dict[str, Any]:
    done = subprocess.run([sys.executable, __file__, "--trace"], capture_output=True,
                          text=True, check=False, cwd=ROOT,
                          env={**os.environ, compiled.PURE_ENV: "1"})
    assert done.returncode == 0, done.stderr[-3000:]
    result: dict[str, Any] = json.loads(done.stdout)
    return result


needs_build = pytest.mark.skipif(
    compiled.status().kind != "compiled",
    reason=f"the compiled core is not in use here ({compiled.status().label}): "
           "python -m mammamia_ref.tools.compile builds it")


@pytest.mark.slow
@needs_build
def test_the_compiled_core_plays_the_pure_python_games() -> None:
    here = json.loads(json.dumps(trace()))  # the same JSON round trip as the child's
    there = pure_trace()
    assert here["core"] == "fast core: compiled (mypyc)", here["core"]
    assert set(here["loaded"].values()) == {"compiled"}, here["loaded"]
    assert there["core"] == "fast core: pure Python (MAMMAMIA_PURE is set)", there["core"]
    assert set(there["loaded"].values()) == {"pure"}, there["loaded"]
    every = games()
    assert len(here["streams"]) == len(there["streams"]) == len(every)
    for game, mine, theirs in zip(every, here["streams"], there["streams"], strict=True):
        if mine != theirs:
            step = next((i for i, (a, b) in enumerate(zip(mine, theirs, strict=False)) if a != b),
                        min(len(mine), len(theirs)))
            pytest.fail(f"game {game}: the compiled core parts from the pure-Python one at "
                        f"step {step} of {len(theirs)}")
    assert sum(map(len, here["streams"])) > 50_000  # the games were played out
    assert here["random_games"] == there["random_games"]
    assert here["stats"] == there["stats"]
    assert here["perft"] == there["perft"] and len(here["perft"]) >= 5
    assert here["events"] == there["events"] and len(here["events"]) >= 10  # record_events


def test_a_fast_state_pickles_on_either_core() -> None:
    """``perft --jobs`` sends states to worker processes: a compiled class cannot be
    rebuilt by pickle's default, so FastState and Rules say how (a compiled core without
    this hung the pool: its workers died unpickling their tasks)."""
    import copy
    import pickle

    state = fast.new_game(make_config(4, variants={"refill": "as_many_as_played"}))
    chance, rng = fast.FastChance(3), random.Random(1)
    for _ in range(60):
        if fast.is_chance(state):
            fast.apply_shuffle(state, chance.shuffle(state))
        else:
            fast.apply(state, fast.benchmark_choice(state, fast.legal_actions(state), rng))
    for clone in (pickle.loads(pickle.dumps(state)), copy.deepcopy(state)):
        assert clone is not state and clone.to_json() == state.to_json()
        assert clone.rules.made_from == state.rules.made_from
        assert fast.perft(clone, 3) == fast.perft(state, 3)


# --- the loader, on a scratch build (runs with or without a compiled core) ---------------


@pytest.fixture
def scratch_build(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder laid out as a build: sources, extension files (a few bytes) and a
    manifest with the hashes of both."""
    sim = tmp_path / "mammamia_ref" / "sim"
    sim.mkdir(parents=True)
    suffix = compiled._suffix()
    sources, extensions = {}, {}
    for name in (*compiled.MODULES, f"{compiled.GROUP}__mypyc"):
        if name in compiled.MODULES:
            (sim / f"{name}.py").write_text(f"WHO = 'pure {name}'\n", encoding="utf-8")
            sources[f"mammamia_ref/sim/{name}.py"] = compiled.sha256(sim / f"{name}.py")
        (sim / f"{name}{suffix}").write_bytes(b"\x7fELF built " + name.encode())
        extensions[f"{name}{suffix}"] = compiled.sha256(sim / f"{name}{suffix}")
    (sim / "_compiled.json").write_text(json.dumps({"ext_suffix": suffix, "sources": sources,
                                                    "extensions": extensions}),
                                        encoding="utf-8")
    monkeypatch.setattr(compiled, "HERE", sim)
    monkeypatch.setattr(compiled, "PACKAGE_ROOT", tmp_path)
    monkeypatch.setattr(compiled, "MANIFEST", sim / "_compiled.json")
    monkeypatch.delenv(compiled.PURE_ENV, raising=False)
    return sim


def test_a_current_build_is_used(scratch_build: Path) -> None:
    assert compiled._decide() == compiled.CoreStatus("compiled", "", True)


def test_a_build_older_than_its_source_is_refused(scratch_build: Path) -> None:
    (scratch_build / "careful.py").write_text("WHO = 'edited'\n", encoding="utf-8")
    decided = compiled._decide()
    assert decided.kind == "pure" and decided.built
    assert "stale: mammamia_ref/sim/careful.py changed" in decided.reason
    assert decided.label.startswith("pure Python (the build is stale")


def test_a_build_without_its_manifest_or_for_another_python_is_refused(
        scratch_build: Path) -> None:
    manifest = json.loads((scratch_build / "_compiled.json").read_text(encoding="utf-8"))
    (scratch_build / "_compiled.json").write_text(
        json.dumps({**manifest, "ext_suffix": ".cpython-39-x.so"}), encoding="utf-8")
    assert "another Python" in compiled._decide().reason
    (scratch_build / "_compiled.json").unlink()
    assert "no readable _compiled.json" in compiled._decide().reason


def test_pure_on_request_and_no_build(scratch_build: Path,
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(compiled.PURE_ENV, "1")
    assert compiled._decide() == compiled.CoreStatus("pure", "MAMMAMIA_PURE is set", True)
    monkeypatch.delenv(compiled.PURE_ENV)
    for path in compiled.extension_files():
        path.unlink()
    assert compiled._decide() == compiled.CoreStatus("pure", "", False)
    assert compiled._decide().label == "pure Python"


def test_a_refused_build_loads_the_sources_with_a_warning(scratch_build: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    (scratch_build / "fast.py").write_text("WHO = 'edited fast'\n", encoding="utf-8")
    monkeypatch.setattr(compiled, "_STATUS", None)
    finders = list(sys.meta_path)
    monkeypatch.setattr(sys, "meta_path", finders)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert compiled.install().kind == "pure"
    assert [w.category for w in caught] == [compiled.StaleCoreWarning]
    assert "fast.py changed" in str(caught[0].message)
    finder = sys.meta_path[0]
    spec = finder.find_spec("mammamia_ref.sim.fast", None)  # type: ignore[call-arg]
    assert spec is not None and spec.origin == str(scratch_build / "fast.py")
    assert finder.find_spec("mammamia_ref.sim.policies", None) is None  # type: ignore[call-arg]


def test_the_core_line_names_the_core_in_use() -> None:
    line = compiled.core_line()
    kinds = set(compiled.loaded().values())
    assert kinds == {compiled.status().kind}  # fast is loaded (imported above): as decided
    assert line in ("fast core: compiled (mypyc)", f"fast core: {compiled.status().label}")


def test_the_build_records_every_package_module_it_reads() -> None:
    from mammamia_ref.tools import compile as build_tool

    read = {path.relative_to(ROOT).as_posix() for path in build_tool.sources()}
    assert {f"mammamia_ref/sim/{name}.py" for name in compiled.MODULES} <= read
    assert {"mammamia_ref/sim/__init__.py", "mammamia_ref/sim/compiled.py",
            "mammamia_ref/rules/oven.py", "mammamia_ref/rules/vocabulary.py",
            "mammamia_ref/rules/__init__.py", "mammamia_ref/__init__.py"} <= read
    assert all(name.startswith("mammamia_ref/") and name.endswith(".py") for name in read)
    assert "mammamia_ref/cli/app.py" not in read  # only what the three import


@pytest.mark.slow
def test_the_build_tools_check_says_which_core_runs() -> None:
    if os.environ.get(compiled.PURE_ENV, "") not in ("", "0"):
        pytest.skip("MAMMAMIA_PURE is set here; --check says whether the build is current")
    done = subprocess.run([sys.executable, "-m", "mammamia_ref.tools.compile", "--check"],
                          capture_output=True, text=True, check=False, cwd=ROOT)
    expected = compiled.status()
    assert done.stdout.strip() == f"fast core: {expected.label}"
    assert done.returncode == (0 if expected.kind == "compiled" else 1)


def test_no_c_compiler_builds_nothing_and_says_so(monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    from mammamia_ref.tools import compile as build_tool

    before = compiled.extension_files()
    monkeypatch.setenv("CC", "/nonexistent/cc")
    assert build_tool.main([]) == build_tool.NO_COMPILER == 3
    assert "no C compiler here" in capsys.readouterr().err
    assert compiled.extension_files() == before  # nothing built, nothing removed


# --- mammamia bench --cores both ---------------------------------------------------------


def test_the_cores_option(capsys: pytest.CaptureFixture[str]) -> None:
    import argparse

    from mammamia_ref.cli import bench as bench_command

    parser = argparse.ArgumentParser()
    bench_command.add_parser(parser.add_subparsers(dest="command"))
    assert parser.parse_args(["bench"]).cores == "current"
    args = parser.parse_args(["bench", "--cores", "both", "--jobs", "2"])
    assert args.cores == "both"
    assert bench_command.run_bench_command(args) == 2
    assert "argument --cores: not with --jobs" in capsys.readouterr().err
    args = parser.parse_args(["bench", "--cores", "both", "--loop", "startup"])
    assert bench_command.run_bench_command(args) == 2
    assert "not with --cores both" in capsys.readouterr().err


def _fake_child(core: str, budget: float) -> dict[str, Any]:
    rate = 1.0 if core == "pure" else 2.5
    return {"random_games_per_s": 3000 * rate, "careful_games_per_s": 300 * rate,
            "perft_nodes_per_s": 1e6 * rate, "search_decisions_per_s": 700 * rate,
            "ask_find_reference_games_per_s": 100, "ask_find_fast_games_per_s": 600 * rate,
            "ask_most_reference_games_per_s": 100, "ask_most_fast_games_per_s": 500 * rate,
            "core": {"pure": "fast core: pure Python (MAMMAMIA_PURE is set)",
                     "compiled": "fast core: compiled (mypyc)"}[core]}


def test_the_side_by_side_table(monkeypatch: pytest.MonkeyPatch) -> None:
    from mammamia_ref.tools.bench import cores

    monkeypatch.setattr(cores, "_child", _fake_child)
    monkeypatch.setattr(compiled, "status", lambda: compiled.CoreStatus("compiled", "", True))
    result = cores.compare_cores(budget=0.1, rounds=3)
    assert result["ratios"] == dict.fromkeys(cores.MEASURES, 2.5)
    assert result["goals"] == {"ratio_at_least_2": True, "random_games_at_least_7000": True}
    assert [len(runs) for runs in result["runs"].values()] == [3, 3]
    table = cores.format_cores(result)
    assert "4-player random games/s" in table and "2.50x" in table and "NOT met" not in table
    assert result["ask_search"]["ratios"] == {"pure": {"find": 6.0, "most": 5.0},
                                              "compiled": {"find": 15.0, "most": 12.5}}
    assert "ask search after/before, compiled: find 15.0x, most 12.5x (goal at least 10x: " \
        "met)" in table
    monkeypatch.setattr(cores, "_child", lambda core, budget: {
        **_fake_child(core, budget), "ask_most_fast_games_per_s": 400})
    table = cores.format_cores(cores.compare_cores(budget=0.1, rounds=1))
    assert "most 4.0x (goal at least 5x: NOT met)" in table
    pure = compiled.CoreStatus("pure", "the build is stale: x changed; rebuild it", True)
    monkeypatch.setattr(compiled, "status", lambda: pure)
    result = cores.compare_cores(budget=0.1, rounds=1)
    assert list(result["runs"]) == ["pure"] and "ratios" not in result
    assert "compiled core: not measured, pure Python (the build is stale" in \
        cores.format_cores(result)


def test_a_side_that_ran_the_other_core_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    from mammamia_ref.tools.bench import cores

    monkeypatch.setattr(cores, "_child", lambda core, budget: _fake_child("pure", budget))
    monkeypatch.setattr(compiled, "status", lambda: compiled.CoreStatus("compiled", "", True))
    with pytest.raises(RuntimeError, match="the compiled side ran 'fast core: pure Python"):
        cores.compare_cores(budget=0.1, rounds=1)


if __name__ == "__main__" and sys.argv[1:] == ["--trace"]:
    print(json.dumps(trace()))
