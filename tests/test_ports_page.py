"""The site's Ports page (mammamia_ref/site/ports_page.py): the known ports with their
latest conformance report, rendered from each port's committed run, which the slow test
here replays against the port and compares, so that the page cannot go stale."""

from __future__ import annotations

import json
import shutil
import sys
from collections import Counter
from pathlib import Path

import pytest

from mammamia_ref.kit.port_report import RUN_FORMAT, load_run, markdown, report_blocks
from mammamia_ref.site.ports_page import PAGE, known_runs, port_page, ports_nav, ports_pages

sys.path.insert(0, str(Path(__file__).resolve().parent))
import patience

ROOT = Path(__file__).resolve().parent.parent
JS = ROOT / "examples" / "ports" / "javascript"
NODE = shutil.which("node")


def test_the_javascript_port_is_listed_with_its_committed_report() -> None:
    run = load_run(JS / "conformance.json")
    assert run["format"] == RUN_FORMAT and run["implementation"]["name"] == "mammamia-js"
    pages = ports_pages()
    counts = Counter(r["status"] for r in run["results"])
    row = next(line for line in pages[PAGE].splitlines() if "(ports/javascript.md)" in line)
    assert f"| {counts['pass']} passed, {counts['fail']} failed, {counts['skip']} skipped, " \
        f"{counts['error']} errors |" in row
    report = pages[port_page("javascript")]
    assert report.startswith(markdown(report_blocks(run, links=("../../", ".md"))))
    for section in ("## Implementation", "## Results by chapter", "## First divergences",
                    "## Skipped"):
        assert section in report
    assert {"mammamia-js": port_page("javascript")} in ports_nav()["Ports"]
    assert set(known_runs()) >= {"javascript"}


def test_a_folder_without_runs_gives_a_page_that_says_so(tmp_path: Path) -> None:
    (tmp_path / "broken").mkdir()
    (tmp_path / "broken" / "conformance.json").write_text("{not json", encoding="utf-8")
    assert ports_pages(tmp_path) == {PAGE: ports_pages(tmp_path)[PAGE]}
    assert "No port has a committed run yet." in ports_pages(tmp_path)[PAGE]


@pytest.mark.slow
@pytest.mark.skipif(NODE is None, reason="node is not installed: the JavaScript port needs "
                    "Node.js (Debian: apt-get install nodejs)")
def test_the_committed_run_replays(tmp_path: Path) -> None:
    """The committed run is what the kit says of the port today: replayed with its own
    options, every case's record (timing aside) and the hello are the same."""
    committed = load_run(JS / "conformance.json")
    fresh_path = tmp_path / "conformance.json"
    port = [str(NODE), str(JS / "mammamia.js")]
    command = [sys.executable, "-m", "mammamia_ref", "conform", "-q",
               *committed["arguments"], "--report", str(fresh_path), "--", *port]
    result = patience.run(command, idle_seconds=900, cwd=ROOT)
    assert result.returncode in (0, 1), result.stdout + result.stderr
    fresh = load_run(fresh_path)
    again = ("regenerate it: mammamia conform -q " + " ".join(committed["arguments"])
             + " --report examples/ports/javascript/conformance.json -- node "
             "examples/ports/javascript/mammamia.js")
    assert fresh["implementation"] == committed["implementation"], again
    old = {r["name"]: r for r in committed["results"]}
    new = {r["name"]: r for r in fresh["results"]}
    changed = sorted(n for n in old.keys() | new.keys() if old.get(n) != new.get(n))
    assert not changed, f"{len(changed)} cases differ from the committed run " \
        f"({', '.join(changed[:5])}): {again}"
    assert json.dumps(fresh["results"]) == json.dumps(committed["results"]), again
