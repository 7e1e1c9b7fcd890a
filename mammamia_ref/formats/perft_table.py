"""Counting tables (``scenarios/perft/*.yaml``): a state and its listed perft counts.

Read by ``mammamia perft`` (to check the counts), the conformance kit (to check another
implementation's) and the benchmark (to time them); read once, here.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mammamia_ref.errors import MalformedError
from mammamia_ref.formats.safeyaml import load_file


@dataclass
class PerftTable:
    id: str
    state: dict[str, Any]
    counts: dict[int, int]
    file: str
    description: str = ""


def load_perft_tables(folder: Path) -> list[PerftTable]:
    return [load_perft_table(path) for path in sorted(folder.glob("*.yaml"))]


def load_perft_table(path: Path) -> PerftTable:
    return perft_table_of(load_file(path).data, path)


def perft_table_of(doc: Any, path: Path) -> PerftTable:
    """The counting table a loaded document holds (``path`` names it in errors)."""
    try:
        counts = {row["depth"]: row["nodes"] for row in doc["counts"]}
        table = PerftTable(doc["id"], doc["state"], counts, str(path),
                           doc.get("description", ""))
    except (KeyError, TypeError) as exc:
        raise MalformedError(f"{path}: not a counting table: needs id, state and counts "
                             f"(a list of depth and nodes): {exc!r}", value=doc) from None
    if not (isinstance(table.id, str) and isinstance(table.state, dict)
            and counts and all(type(k) is int and type(v) is int and k >= 0 and v >= 0
                               for k, v in counts.items())):
        raise MalformedError(f"{path}: not a counting table: id must be text, state a "
                             "mapping, counts whole numbers of depth and nodes", value=doc)
    return table
