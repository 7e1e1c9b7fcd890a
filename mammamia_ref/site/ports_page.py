"""The Ports page: the known ports of the game with their latest conformance report.

Each known port keeps its latest run in its folder (``examples/ports/NAME/conformance.json``,
written by ``mammamia conform --report``); the page and each port's report page are
rendered from those runs here, and ``tests/test_ports_page.py`` replays each run against
its port and compares, so the page says what the port does today."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from mammamia_ref.errors import MalformedError
from mammamia_ref.kit.port_report import load_run, markdown, report_blocks
from mammamia_ref.site.text import md

PORTS_DIR = Path(__file__).resolve().parent.parent.parent / "examples" / "ports"
PAGE = "porting/ports.md"
RUN_FILE = "conformance.json"


def port_page(name: str) -> str:
    return f"porting/ports/{name}.md"


def known_runs(ports_dir: Path = PORTS_DIR) -> dict[str, dict[str, Any]]:
    """Each port folder with a committed run, by folder name (a run that does not load
    is left out here and refused by the test that replays it)."""
    runs = {}
    for path in sorted(ports_dir.glob(f"*/{RUN_FILE}")) if ports_dir.is_dir() else []:
        try:
            runs[path.parent.name] = load_run(path)
        except MalformedError:
            continue
    return runs


def ports_nav(ports_dir: Path = PORTS_DIR) -> dict[str, Any]:
    """The Ports page's entry in the navigation, each port's report under it."""
    return {"Ports": [PAGE, *({str((run.get("implementation") or {}).get("name") or name):
                               port_page(name)} for name, run in known_runs(ports_dir).items())]}


def ports_pages(ports_dir: Path = PORTS_DIR) -> dict[str, str]:
    """The Ports page and one report page per known port."""
    runs = known_runs(ports_dir)
    rows = []
    pages = {}
    for name, run in runs.items():
        impl = run.get("implementation") or {}
        counts = Counter(r.get("status") for r in run["results"] if isinstance(r, dict))
        # four columns, the counts in one: eight were wider than the text column
        rows.append(f"| [{md(str(impl.get('name')))}](ports/{name}.md) "
                    f"{md(str(impl.get('version')))} | {md(str(impl.get('language')))} | "
                    f"`{impl.get('protocol')}` | {counts['pass']} passed, {counts['fail']} "
                    f"failed, {counts['skip']} skipped, {counts['error']} errors |")
        pages[port_page(name)] = markdown(report_blocks(run, links=("../../", ".md"))) + \
            f"\nThe run is kept in `examples/ports/{name}/{RUN_FILE}`.\n"
    table = "\n".join(["| Port and version | Language | Protocol | Scenario runs |",
                       "|---|---|---|---|", *rows]) \
        if rows else "No port has a committed run yet."
    pages[PAGE] = f"""# Ports

The implementations of the game known to this project, each with its latest conformance
report: what `mammamia conform --report` says of it (the implementation, its features,
the results by chapter of the rules, each first divergence and what was skipped). Each
run is committed beside its port (`examples/ports/NAME/`) and replayed by the test
suite, which fails when the port's results change, so this page reads as the port
behaves today.

{table}

To list your port here, add its folder under `examples/ports/` and commit its run:
`mammamia conform --report examples/ports/NAME/{RUN_FILE} -- COMMAND` (see the
[porting guide](../porting.md)).
"""
    return pages
