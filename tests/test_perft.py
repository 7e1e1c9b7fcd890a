"""The counting tables under scenarios/perft/ agree with the reference."""

from __future__ import annotations

from pathlib import Path

import pytest

from mammamia_ref.formats.jsonform import parse_state
from mammamia_ref.formats.perft_table import load_perft_tables
from mammamia_ref.sim.perft import divide, perft

TABLES = load_perft_tables(Path(__file__).resolve().parent.parent / "scenarios" / "perft")


def test_there_are_tables() -> None:
    assert len(TABLES) >= 5


@pytest.mark.parametrize("table", TABLES, ids=[t.id for t in TABLES])
def test_table_counts(table) -> None:
    state = parse_state(table.state)
    for depth, nodes in sorted(table.counts.items()):
        if nodes > 10_000:
            break
        assert perft(state, depth) == nodes, f"{table.id} depth {depth}"


def test_divide_sums_to_perft() -> None:
    state = parse_state(TABLES[0].state)
    assert sum(divide(state, 4).values()) == perft(state, 4)


def test_a_malformed_counting_table_is_refused_with_its_file(tmp_path: Path) -> None:
    from mammamia_ref.errors import MalformedError

    for text in ["id: t\nstate: {}\n", "id: t\nstate: {}\ncounts: [{depth: 1}]\n",
                 "[1, 2]\n", "id: t\nstate: {}\ncounts: [{depth: one, nodes: 2}]\n"]:
        (tmp_path / "bad.yaml").write_text(text, encoding="utf-8")
        with pytest.raises(MalformedError, match=r"bad\.yaml: not a counting table"):
            load_perft_tables(tmp_path)
