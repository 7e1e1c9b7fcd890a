"""``mammamia simulate`` and ``compare``: the driver plays the reference's games, runs are
reproducible whatever the workers, and the statistics are what they claim.

- A simulated game is the reference's game: same winners, deliveries and decisions as
  :func:`mammamia_ref.sim.play.play_game` with the same seed, colours and policies.
- The same seeds give the same records with 1 or 2 processes and on a local Dask
  cluster.
- Counts add up (rounds, wins, placed and baked orders); a stall is counted as cut
  under the default and as stalled for ever under ``stall=letter``.
- The paired test finds a real difference and none between a ruling and itself.
- The committed impact sweep (docs/impact/) still describes the code: its first games
  replay to the recorded digests (for players slower than the random one, the first 10
  games; ``MAMMAMIA_FULL_SWEEPS=1`` replays the first 100 of every sweep).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from mammamia_ref.errors import VariantError
from mammamia_ref.formats.output import write_atomically
from mammamia_ref.rules.actions import Shuffle
from mammamia_ref.rules.state import make_config, make_variants
from mammamia_ref.sim.compare import (
    compare,
    differences,
    disputes_with_flags,
    paired_difference,
    rulings_of,
)
from mammamia_ref.sim.impact import load_sweep, load_sweeps, plot_comparison
from mammamia_ref.sim.play import play_game
from mammamia_ref.sim.policies import POLICIES
from mammamia_ref.sim.simulate import ROUND_ENDS, Executor, play, seat_colours, simulate
from mammamia_ref.sim.skill import HEADLINE, by_skill, skill_of, trend

sys.path.insert(0, str(Path(__file__).resolve().parent))
import patience

ROOT = Path(__file__).resolve().parents[1]
SWEEPS = load_sweeps(ROOT / "docs" / "impact")


@pytest.mark.parametrize(("players", "policy", "variants"), [
    (4, "random", {}),
    (2, "random", {"refill": "as_many_as_played"}),
    (5, "random", {"minimale_lowest": "all_kinds", "completion": "mandatory"}),
    (3, "simple", {}),
    (4, "simple", {"round_end": "last_ingredient", "draw_amount": "any"}),
])
def test_a_simulated_game_is_the_reference_game(players: int, policy: str,
                                                variants: dict[str, str]) -> None:
    for seed in range(6 if policy == "random" else 2):
        stats = play(players, seed, variants, (policy,) * players)
        config = make_config(players, colours=seat_colours(players, seed), variants=variants)
        record = play_game(config, seed, [POLICIES[policy]] * players)
        assert record.final is not None
        assert stats.delivered == tuple(len(s) for s in record.final.delivered)
        assert stats.wins == tuple(int(s in record.winners) for s in range(players))
        assert stats.decisions == sum(not isinstance(a, Shuffle) for a, _ in record.steps)
        assert sum(stats.turns) == record.turns


def test_runs_do_not_depend_on_the_workers() -> None:
    one = simulate(3, 120, seed=5, executor=Executor(1))
    with Executor(2) as executor:
        two = simulate(3, 120, seed=5, executor=executor, chunk=25)  # five jobs
        assert simulate(3, 120, seed=5, executor=executor, chunk=7).games == two.games
    assert [g.seed for g in one.games] == list(range(5, 125))
    assert one.games == two.games and one.digest() == two.digest()
    assert simulate(3, 120, seed=6).digest() != one.digest()


@pytest.mark.cluster
def test_a_local_dask_cluster_gives_the_same_run() -> None:
    pytest.importorskip("distributed")
    local = simulate(2, 300, seed=1)
    with Executor(2, dask="local") as executor:
        on_dask = simulate(2, 300, seed=1, executor=executor, chunk=40)
    assert on_dask.digest() == local.digest()


def test_the_counts_add_up() -> None:
    summary = simulate(4, 200, seed=3, variants={"refill": "as_many_as_played"})
    fig = summary.figures()
    assert fig["finished"] == 200 and fig["abandoned"] == 0
    assert sum(fig["round_ends"].values()) == 3 * 200
    wins = sum(e["count"] for e in fig["win_rate_by_seat"])
    assert wins == 200 + sum(sum(g.wins) - 1 for g in summary.games)
    assert sum(e["count"] for e in fig["win_rate_by_colour"].values()) == wins
    for entry in fig["order_success"].values():
        assert 0 <= entry["count"] <= entry["n"]
        low, high = entry["ci95"]
        assert low <= entry["rate"] <= high
    assert sum(g.delivered[s] for g in summary.games for s in range(4)) == \
        sum(e["count"] for e in fig["order_success"].values())


def test_a_stall_is_cut_by_default_and_lasts_for_ever_under_the_letter() -> None:
    # game 56 (4 players, benchmark policy, refill=as_many_as_played) stalls in a round:
    # a whole cycle of turns moves no card
    cut = play(4, 56, {"refill": "as_many_as_played"}, ("random",) * 4)
    letter = play(4, 56, {"refill": "as_many_as_played", "stall": "letter"}, ("random",) * 4)
    assert ROUND_ENDS.index("stall_cut") in cut.ends and not cut.abandoned
    assert letter.ends[-1] == ROUND_ENDS.index("stalled") and letter.abandoned
    assert letter.ends[:-1] == cut.ends[:len(letter.ends) - 1]


def test_the_paired_test_sees_a_real_difference_and_no_false_one() -> None:
    same = paired_difference([1.0, 2.0, 3.0], [1.0, 2.0, 3.0])
    assert same == {"difference": 0.0, "ci95": [0.0, 0.0], "p": 1.0}
    shifted = paired_difference([float(i % 7) for i in range(210)],
                                [float(i % 7) + 0.5 + (i % 3 - 1) * 0.1 for i in range(210)])
    assert shifted["difference"] == 0.5 and shifted["p"] < 1e-9
    base = simulate(4, 150, seed=0)
    assert all(d["p"] in (1.0, None) for d in differences(base, base).values())


def test_compare_plays_every_ruling_on_the_same_seeds() -> None:
    found = compare("D3", 4, 150, seed=2)
    assert [r.name for r in found.rulings] == ["refill=to_seven", "refill=as_many_as_played"]
    doc = found.as_json(check_games=20)
    default, other = doc["rulings"]
    assert default["default"] and "versus_default" not in default
    assert other["versus_default"]["turns_per_game"]["p"] < 0.001  # refilling less: longer
    with pytest.raises(VariantError, match="disputes with flags"):
        rulings_of("D99")


def test_plots_and_sweep_documents(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    doc = compare("D4", 3, 60).as_json(check_games=10)
    png = plot_comparison(doc, tmp_path / "D4.png")
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    target = tmp_path / "sweep.json"
    write_atomically(target, json.dumps({"format": "mammamia-impact/1", "disputes": [doc]}))
    assert load_sweep(target)["disputes"][0]["dispute"] == "D4"
    (tmp_path / "other.json").write_text('{"format": "something-else"}')
    with pytest.raises(ValueError, match="not a mammamia-impact/1 document"):
        load_sweeps(tmp_path)


@pytest.mark.slow  # runs other programs
def test_the_cli_refuses_bad_arguments_before_playing() -> None:
    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return patience.run([sys.executable, "-m", "mammamia_ref", *args], idle_seconds=120)

    for args, message in [
        (["simulate", "--players", "7", "--games", "3"], "2 to 5 players"),
        (["simulate", "--players", "4", "--games", "0"], "positive whole number"),
        (["simulate", "--players", "4", "--games", "3", "--variant", "stall=never"], "stall"),
        (["simulate", "--players", "4", "--games", "3", "--policy", "nobody"], "unknown policy"),
        (["compare", "D99", "--players", "4", "--games", "3"], "no variant flag"),
    ]:
        done = run(*args)
        assert done.returncode == 2, (args, done.stderr)
        assert message in done.stderr and "Traceback" not in done.stderr
    done = run("simulate", "--players", "2", "--games", "20", "--json", "--no-progress")
    assert done.returncode == 0, done.stderr
    doc = json.loads(done.stdout)
    assert doc["format"] == "mammamia-simulation/1" and doc["figures"]["games"] == 20


def test_a_random_sweep_of_every_dispute_with_10000_games_is_committed() -> None:
    assert any(s["games_per_ruling"] >= 10_000 and set(s["policies"]) == {"random"}
               and {d["dispute"] for d in s["disputes"]} >= set(disputes_with_flags())
               for s in SWEEPS)


def test_a_careful_sweep_of_every_dispute_with_10000_games_is_committed() -> None:
    assert any(s["games_per_ruling"] >= 10_000 and skill_of(s) == "careful"
               and {d["dispute"] for d in s["disputes"]} >= set(disputes_with_flags())
               for s in SWEEPS)


def test_a_search_sweep_covers_where_random_and_careful_players_disagree() -> None:
    """Every ruling whose effect on the score changes between random and careful
    players (:func:`mammamia_ref.sim.skill.trend`) has a search sweep of 1,000 games or
    more."""
    best = {skill: max((s for s in SWEEPS if skill_of(s) == skill),
                       key=lambda s: s["games_per_ruling"]) for skill in ("random", "careful")}
    disagree = set()
    for dispute in disputes_with_flags():
        for row in by_skill(list(best.values()), dispute):
            if row.measure == HEADLINE and len(row.effects) == 2 and trend(
                    [(e.skill, {"difference": e.difference, "ci95": e.ci95})
                     for e in row.effects]) != "same":
                disagree.add(dispute)
    searched = {d["dispute"] for s in SWEEPS if skill_of(s) == "search"
                and s["games_per_ruling"] >= 1_000 for d in s["disputes"]}
    assert disagree and disagree <= searched, sorted(disagree - searched)


FULL_SWEEPS = os.environ.get("MAMMAMIA_FULL_SWEEPS") == "1"


@pytest.mark.sweep
@pytest.mark.parametrize("sweep", SWEEPS, ids=[s["file"] for s in SWEEPS])
def test_the_committed_sweeps_still_describe_the_code(sweep: dict[str, Any]) -> None:
    """Replays the first games of every ruling; a sweep with a policy slower than the
    benchmark one replays those of the defaults only (the same check in every dispute),
    the random sweeps having replayed every flag's games. For the slower policies the
    first 10 games (``quick_check``) stand for the first 100 (``check``), whose replay
    of the search player alone costs 18 s, unless ``MAMMAMIA_FULL_SWEEPS=1``."""
    fast = set(sweep["policies"]) == {"random"}
    checked: set[tuple[tuple[str, str], ...]] = set()
    for dispute in sweep["disputes"]:
        assert (ROOT / sweep["plots"] / f"{dispute['dispute']}.png").is_file()
        for ruling in dispute["rulings"]:
            variants = {**sweep["base_variants"], ruling["flag"]: ruling["value"]}
            key = tuple(sorted(make_variants(variants).as_dict().items()))
            if not (fast or ruling["default"]) or key in checked:
                continue
            checked.add(key)
            check = ruling["check"] if fast or FULL_SWEEPS else ruling["quick_check"]
            first = simulate(sweep["players"], check["games"], seed=sweep["seed"],
                             variants=variants, policies=sweep["policies"])
            assert first.digest() == check["digest"], \
                f"{dispute['dispute']} {ruling['flag']}={ruling['value']}: the sweep " \
                f"docs/impact/{sweep['file']} is stale; rerun: {sweep['command']}"
    assert checked


@pytest.mark.slow  # runs other programs
def test_ctrl_c_stops_a_sweep_cleanly(tmp_path: Path) -> None:
    """Like a terminal's Ctrl-C, SIGINT goes to the whole process group (the workers
    too): the command says which disputes had finished, writes no file, exits 130."""
    import os
    import signal
    import time

    output = tmp_path / "sweep.json"
    code = ("import signal, sys; signal.signal(signal.SIGINT, signal.default_int_handler)\n"
            "from mammamia_ref.cli.app import main\nsys.exit(main(sys.argv[1:]))\n")
    process = subprocess.Popen(
        [sys.executable, "-u", "-c", code, "compare", "D2", "D4", "--players", "4",
         "--games", "3000", "--jobs", "2", "--no-progress", "-o", str(output)],
        cwd=ROOT, text=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        start_new_session=True)
    try:
        assert process.stdout is not None
        first = process.stdout.readline()  # D2's table starts once D2 has finished
        assert first.startswith("D2:"), first
        time.sleep(1)
        os.killpg(process.pid, signal.SIGINT)
        _out, err = patience.communicate(process, 60)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
    assert process.returncode == 130, err
    assert "Traceback" not in err
    assert "interrupted during D4, after 1 of 2 disputes (finished: D2)" in err
    assert not output.exists() and list(tmp_path.iterdir()) == []
