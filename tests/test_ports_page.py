"""The site's Ports page (mammamia_ref/site/ports_page.py): the known ports with their
latest conformance report, rendered from each port's committed run, which the slow test
here replays against the port and compares, so that the page cannot go stale."""

from __future__ import annotations

import json
import re
import shutil
import sys
from collections import Counter
from pathlib import Path
from typing import Any

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


def _options(arguments: list[str]) -> dict[str, str] | None:
    """A run's options by name (its arguments are pairs), or None."""
    if len(arguments) % 2:
        return None
    return dict(zip(arguments[::2], arguments[1::2], strict=True))


def _shared_run_covers(committed: list[str], shared: list[str]) -> bool:
    """Whether a run with the ``shared`` options holds every case of one with the
    ``committed`` options, the same: the same options but fewer random games."""
    mine, theirs, games = _options(committed), _options(shared), "--random-games"
    if mine is None or theirs is None or not mine.get(games, "0").isdigit():
        return False
    return {k: v for k, v in mine.items() if k != games} == \
        {k: v for k, v in theirs.items() if k != games} and \
        int(mine.get(games, "0")) <= int(theirs.get(games, "0"))


def _among_first_games(name: str, options: dict[str, str]) -> bool:
    """Whether a random game's case is one a run of ``options`` plays (seeds from
    ``--seed``, one a game)."""
    found, first = re.search(r"-seed(\d+)", name), int(options.get("--seed", "0"))
    return found is not None and \
        first <= int(found[1]) < first + int(options.get("--random-games", "0"))


def test_the_shared_run_covers_only_a_run_of_the_same_options() -> None:
    shared = ["--max-nodes", "20000", "--random-games", "50", "--seed", "0"]
    assert _shared_run_covers(["--max-nodes", "20000", "--random-games", "5", "--seed", "0"],
                              shared)
    assert not _shared_run_covers(["--max-nodes", "900", "--random-games", "5", "--seed",
                                   "0"], shared)
    assert not _shared_run_covers(["--random-games", "60", "--max-nodes", "20000",
                                   "--seed", "0"], shared)
    assert not _shared_run_covers(["--max-nodes", "20000", "--random-games", "5", "--seed",
                                   "0", "--players", "2"], shared)
    assert not _shared_run_covers(["--random-games"], shared)
    five = {"--random-games": "5", "--seed": "0"}
    assert _among_first_games("random-3p-seed4", five)
    assert not _among_first_games("random-3p-seed5", five)
    assert _among_first_games("random-2p-seed0-hand_limit=8", five)


@pytest.mark.slow
@pytest.mark.skipif(NODE is None, reason="node is not installed: the JavaScript port needs "
                    "Node.js (Debian: apt-get install nodejs)")
@pytest.mark.xdist_group("js-port-run")   # the run is shared with test_js_port
def test_the_committed_run_replays(js_port_run: Any, tmp_path: Path) -> None:
    """The committed run is what the kit says of the port today: replayed with its own
    options, every case's record (timing aside) and the hello are the same. Its cases
    are the first of the shared run (``js_port_run``: the same options, more random
    games), read from there; a committed run of other options is replayed here."""
    committed = load_run(JS / "conformance.json")
    if _shared_run_covers(committed["arguments"], js_port_run.arguments):
        result, fresh_path = js_port_run.result, js_port_run.report
    else:
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
    if fresh_path == js_port_run.report:   # the shared run's later random games left out
        options = _options(committed["arguments"]) or {}
        new = {name: r for name, r in new.items()
               if r["kind"] != "random" or _among_first_games(name, options)}
        fresh["results"] = [r for r in fresh["results"] if r["name"] in new]
    changed = sorted(n for n in old.keys() | new.keys() if old.get(n) != new.get(n))
    assert not changed, f"{len(changed)} cases differ from the committed run " \
        f"({', '.join(changed[:5])}): {again}"
    assert json.dumps(fresh["results"]) == json.dumps(committed["results"]), again
