"""``mammamia perft`` (``mammamia_ref.cli.perft``) and the count split among processes
(``mammamia_ref.sim.counting``):
the pieces add up to the count whatever the cut, several processes count what one does,
``divide`` is the reference's, and the command checks a table's listed counts."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from mammamia_ref.formats.jsonform import format_state, parse_state
from mammamia_ref.formats.perft_table import load_perft_tables
from mammamia_ref.rules.ruleset import make_rules
from mammamia_ref.rules.state import make_config
from mammamia_ref.sim import counting, fast
from mammamia_ref.sim.perft import divide as reference_divide

sys.path.insert(0, str(Path(__file__).resolve().parent))
import patience

ROOT = Path(__file__).resolve().parent.parent
TABLES = load_perft_tables(ROOT / "scenarios" / "perft")
IDS = [table.id for table in TABLES]


def _deepest(table: Any, limit: int) -> int:
    return max(depth for depth, nodes in table.counts.items() if nodes <= limit)


@pytest.mark.parametrize("table", TABLES, ids=IDS)
def test_the_pieces_add_up_to_the_count_however_it_is_cut(table: Any) -> None:
    state = fast.from_state(parse_state(table.state))
    depth = _deepest(table, 50_000)
    for wanted in (1, 2, 5, 40, 10_000):
        paths, ended = counting.pieces(state, depth, wanted)
        assert all(len(path) < depth for path in paths + ended)
        total = sum(counting.count_piece((state, path, depth)) for path in paths) + len(ended)
        assert total == table.counts[depth], f"cut into at least {wanted}"
    assert state.to_json() == format_state(parse_state(table.state)), \
        "cutting changed the state it counted from"


def test_early_ends_are_counted_once() -> None:
    """A table where sequences meet the oven's end or a shuffle before the depth: the
    pieces then leave some sequences ended, each counting one."""
    endings = 0
    for table in TABLES:
        state = fast.from_state(parse_state(table.state))
        depth = _deepest(table, 50_000)
        _paths, ended = counting.pieces(state, depth, 10_000)
        endings += len(ended)
    assert endings > 0, "no table has a sequence that ends early: the case is not exercised"


def test_several_processes_count_what_one_does() -> None:
    from mammamia_ref.sim.simulate import worker_pool

    pool = worker_pool(2)
    try:
        for table in TABLES:
            state = fast.from_state(parse_state(table.state))
            depth = _deepest(table, 30_000)
            assert counting.count(state, depth, pool=pool) == table.counts[depth], table.id
            assert counting.divide(state, depth, pool=pool) == counting.divide(state, depth)
    finally:
        pool.close()
        pool.join()
    state = fast.from_state(parse_state(TABLES[0].state))
    assert counting.count(state, 4, jobs=2) == TABLES[0].counts[4]


@pytest.mark.parametrize("table", TABLES, ids=IDS)
def test_divide_is_the_references(table: Any) -> None:
    state = parse_state(table.state)
    quick = fast.from_state(state)
    for depth in sorted(d for d, nodes in table.counts.items() if nodes <= 3_000):
        split = counting.divide(quick, depth)
        assert split == reference_divide(state, depth), f"depth {depth}"
        assert list(split) == list(reference_divide(state, depth)), "the legal actions' order"
        assert sum(split.values()) == table.counts[depth] == counting.count(quick, depth)


def test_divide_and_count_of_a_state_with_nothing_to_decide() -> None:
    chance = fast.new_game(make_config(3))  # the setup's first shuffle is pending
    assert counting.count(chance, 5) == 1
    assert counting.divide(chance, 5) == {}
    state = fast.from_state(counting.setup_state(make_config(3), seed=4))
    assert counting.count(state, 0) == 1 and counting.divide(state, 0) == {}


# -- the command -----------------------------------------------------------------------


def perft_command(*args: str) -> subprocess.CompletedProcess[str]:
    return patience.run([sys.executable, "-m", "mammamia_ref", "perft", *args],
                        idle_seconds=300, cwd=ROOT)


def test_the_command_checks_every_listed_count() -> None:
    table = ROOT / "scenarios" / "perft" / "start-5p.yaml"
    done = perft_command(str(table), "--jobs", "2")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    counts = load_perft_tables(table.parent)[IDS.index("start-5p")].counts
    assert lines == [f"start-5p depth {d}: {n:,}  matches the table"
                     for d, n in sorted(counts.items())]


def test_the_command_reports_a_wrong_table(tmp_path: Path) -> None:
    source = (ROOT / "scenarios" / "perft" / "oven-decision.yaml").read_text()
    table = next(t for t in TABLES if t.id == "oven-decision")
    depth, nodes = max(table.counts.items())
    wrong = tmp_path / "wrong.yaml"
    wrong.write_text(source.replace(f"nodes: {nodes}\n", f"nodes: {nodes + 1}\n"))
    done = perft_command(str(wrong), "--depth", str(depth), "--divide", "--json")
    assert done.returncode == 1
    report = json.loads(done.stdout)
    row = report["rows"][0]
    assert (row["nodes"], row["expected"], row["matches"], report["ok"]) == \
        (nodes, nodes + 1, False, False)
    assert sum(row["divide"].values()) == nodes
    text = perft_command(str(wrong), "--depth", str(depth)).stdout
    assert f"MISMATCH: the table says {nodes + 1:,}" in text


def test_the_command_counts_a_bare_state_with_either_engine(tmp_path: Path) -> None:
    state = counting.setup_state(make_config(4), seed=9)
    path = tmp_path / "state.json"
    path.write_text(json.dumps(format_state(state)))
    missing = perft_command(str(path))
    assert missing.returncode == 2
    assert missing.stderr.strip() == (f"mammamia: error: {path}: a bare state lists no counts: "
                                      "give --depth D")
    reports = [json.loads(perft_command(str(path), "--depth", "3", "--divide", "--json",
                                        *engine).stdout) for engine in ([], ["--reference"])]
    assert [r["engine"] for r in reports] == ["fast", "reference"]
    assert reports[0]["rows"] == reports[1]["rows"]
    assert reports[0]["rows"][0]["nodes"] == fast.perft(fast.from_state(state), 3)


@pytest.mark.parametrize(("content", "message"), [
    ("format: something-else\n", "neither a counting table"),
    ("id: x\nstate: {}\ncounts: 7\n", "not a counting table"),
    ("[1, 2\n", "bad.yaml:2: not valid YAML"),
    ("id: x\nstate:\n  format: mammamia-state/1\n  players: 3\ncounts:\n  - {depth: 1, nodes: 3}\n",
     "bad.yaml:4: /players: 3 is not of type 'array'"),
])
def test_the_command_refuses_bad_files(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(content)
    done = perft_command(str(path), "--depth", "2")
    assert done.returncode == 2
    assert done.stderr.startswith("mammamia: error: ") and message in done.stderr
    assert "Traceback" not in done.stderr and len(done.stderr.splitlines()) == 1


def _state_with_an_ending_action() -> Any:
    """The first decision of a seeded game at which some action leads straight to a
    shuffle or the game's end (the last decision of a round)."""
    import random

    state, chance = fast.new_game(make_config(2)), fast.FastChance(3)
    rng = random.Random(3)
    while not fast.is_over(state):
        if fast.is_chance(state):
            fast.apply_shuffle(state, chance.shuffle(state))
            continue
        legal = fast.legal_actions(state)
        if any(counting._after(state, (action,)).phase in ("shuffle", "over")
               for action in legal):
            return state
        fast.apply(state, fast.benchmark_choice(state, legal, rng))
    raise AssertionError("no game of this seed has a decision that ends a round")


def test_sequences_that_end_at_once_count_one_in_divide() -> None:
    state = _state_with_an_ending_action()
    reference = state.to_state()
    for depth in (1, 2, 3):
        split = counting.divide(state, depth, jobs=1)
        assert split == reference_divide(reference, depth), f"depth {depth}"
        assert 1 in split.values()
        assert sum(split.values()) == counting.count(state, depth)
    assert counting.divide(state, 4, jobs=2) == counting.divide(state, 4)


def test_the_command_counts_from_a_new_game() -> None:
    done = perft_command("--players", "3", "--seed", "4", "--depth", "5", "--jobs", "2")
    assert done.returncode == 0, done.stderr
    state = fast.from_state(counting.setup_state(make_config(3), seed=4))
    assert done.stdout == f"3p seed 4 depth 5: {fast.perft(state, 5):,}\n"
    for args, message in ((["--players", "7", "--depth", "2"], "2 to 5 players"),
                          (["scenarios/perft/start-2p.yaml", "--players", "3"], "not with a FILE")):
        refused = perft_command(*args)
        assert refused.returncode == 2 and message in refused.stderr, args


def test_the_command_counts_a_house_rule_at_every_player_count_it_serves(
        tmp_path: Path) -> None:
    """``perft --house FILE`` alone: depths 1 to 4 at each player count the house rule's
    deck serves, a count it cannot serve skipped with its reason."""
    house = tmp_path / "deal.yaml"
    house.write_text("name: a deal of 13\nparameters: {starting_ingredients: 13}\n")
    done = perft_command("--house", str(house))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    rules = make_rules(parameters={"starting_ingredients": 13}, house="a deal of 13")
    expected = []
    for players in (2, 3, 4):
        state = fast.from_state(counting.setup_state(make_config(players, variants=rules), 0))
        expected += [f"{players}p seed 0 ({rules.describe()}) depth {depth}: "
                     f"{fast.perft(state, depth):,}" for depth in (1, 2, 3, 4)]
    assert lines == expected
    assert "5 players skipped" in done.stderr and "setup.deal" in done.stderr


def test_divide_names_each_first_action_in_words() -> None:
    text = perft_command("--players", "3", "--depth", "2", "--divide").stdout
    state = counting.setup_state(make_config(3), seed=0)
    split = reference_divide(state, 2)
    from mammamia_ref.rules.actions import describe, parse_action

    assert text.splitlines()[:-1] == [f"  {describe(parse_action(json.loads(key)))}: {n:,}"
                                      for key, n in split.items()]
    assert "{" not in text and text.splitlines()[0].startswith("  play ")


@pytest.mark.slow  # runs other programs
def test_ctrl_c_stops_the_count_and_its_workers() -> None:
    """SIGINT to the whole process group, as a terminal sends it: the finished depth has
    been printed, the command says where it stopped, the workers are gone."""
    import os
    import signal
    import time

    code = ("import signal, sys; signal.signal(signal.SIGINT, signal.default_int_handler)\n"
            "from mammamia_ref.cli.app import main\nsys.exit(main(sys.argv[1:]))\n")
    process = subprocess.Popen(
        [sys.executable, "-u", "-c", code, "perft", "scenarios/perft/draw-any-2p.yaml",
         "--depth", "7", "--depth", "12", "--jobs", "2"],
        cwd=ROOT, text=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        start_new_session=True)
    try:
        assert process.stdout is not None
        first = process.stdout.readline()
        assert first.startswith("draw-any-2p depth 7: ") and "matches the table" in first
        time.sleep(1)
        os.killpg(process.pid, signal.SIGINT)
        _out, err = patience.communicate(process, 60)

        def group_empty() -> bool:  # once the workers are gone
            try:
                os.killpg(process.pid, 0)
            except ProcessLookupError:
                return True
            return False

        if not patience.Patience(10).wait(group_empty):
            pytest.fail("the worker processes are still running")
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
    assert process.returncode == 130, err
    assert err == "mammamia: interrupted while counting draw-any-2p at depth 12\n"
