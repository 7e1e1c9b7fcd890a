"""Writes what the event register (``spec/events.yaml``) gives: the event schema
(``spec/schemas/event.schema.json``) and the event table of ``docs/state-format.md``
(between its ``events-table`` markers). ``tests/test_event_register.py`` fails when
either is stale, and

    python -m mammamia_ref.tools.event_register

writes them again after an event, a field or a rule of an event changes.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from mammamia_ref.formats.event_register import docs_table, event_schema
from mammamia_ref.rules import specdata

DOCS = Path(__file__).resolve().parent.parent.parent / "docs" / "state-format.md"
BEGIN, END = "<!-- events-table: written from spec/events.yaml -->", "<!-- /events-table -->"


def schema_text() -> str:
    return json.dumps(event_schema(), indent=2, ensure_ascii=False) + "\n"


def docs_text(current: str) -> str:
    """``docs/state-format.md`` with its event table written from the register."""
    head, marker, rest = current.partition(BEGIN)
    _, end, tail = rest.partition(END)
    if not marker or not end:
        raise SystemExit(f"{DOCS}: the markers {BEGIN} and {END} are missing")
    return f"{head}{BEGIN}\n\n{docs_table()}\n\n{END}{tail}"


def main(argv: list[str] | None = None) -> int:
    schema = specdata.spec_path("schemas/event.schema.json")
    schema.write_text(schema_text(), encoding="utf-8")
    DOCS.write_text(docs_text(DOCS.read_text(encoding="utf-8")), encoding="utf-8")
    print(f"wrote {schema} and the event table of {DOCS}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
