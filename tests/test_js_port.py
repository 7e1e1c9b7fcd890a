"""The example JavaScript port (examples/ports/javascript) against the conformance kit.

The port was written from the documents, not from our Python; these tests keep it
honest as the rules and the kit move: every scenario, every counting table and a
batch of differential random games must pass, with nothing skipped.
"""

from __future__ import annotations

import json
import shutil
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))
import patience

from mammamia_ref.kit import PROTOCOL

ROOT = Path(__file__).resolve().parent.parent
PORT = ROOT / "examples" / "ports" / "javascript" / "mammamia.js"
NODE = shutil.which("node")

pytestmark = [
    pytest.mark.slow,  # drives the port, a Node program, as a subprocess
    pytest.mark.skipif(NODE is None, reason="node is not installed: the JavaScript port "
                       "needs Node.js (Debian: apt-get install nodejs)"),
]


def session(*requests: dict[str, Any]) -> list[dict[str, Any]]:
    """Send requests to the port, one JSON line each; its answers, in order."""
    lines = "".join(json.dumps(r) + "\n" for r in requests)
    result = patience.run([str(NODE), str(PORT)], idle_seconds=60, input=lines, check=True)
    return [json.loads(line) for line in result.stdout.splitlines()]


def test_kit_passes_scenarios_tables_and_random_games(tmp_path: Path) -> None:
    report = tmp_path / "report.jsonl"
    command = [sys.executable, "-m", "mammamia_ref", "conform", "-q",
               "--random-games", "50", "--jsonl", str(report), "--", str(NODE), str(PORT)]
    result = patience.run(command, idle_seconds=1800, cwd=ROOT)
    records = [json.loads(line) for line in report.read_text().splitlines()]
    statuses = Counter((r["kind"], r["status"]) for r in records)
    unexpected = [f"{r['name']}: {r['status']} {r['message']}" for r in records
                  if r["status"] != "pass"]
    assert result.returncode == 0, result.stdout + result.stderr
    assert unexpected == []
    assert statuses[("scenario", "pass")] > 0
    assert statuses[("perft", "pass")] == len(list((ROOT / "scenarios" / "perft").glob("*.yaml")))
    assert statuses[("random", "pass")] == 200  # 50 games for each of 2 to 5 players


def test_hello_offers_every_variant_flag_and_value_of_the_spec() -> None:
    spec = yaml.safe_load((ROOT / "spec" / "disputes.yaml").read_text(encoding="utf-8"))
    wanted = {v["flag"]: [value["value"] for value in v["values"]] for v in spec["variants"]}
    [hello] = session({"id": 1, "op": "hello", "protocol": PROTOCOL})
    assert hello["ok"] is True
    assert {flag: sorted(values) for flag, values in hello["variants"].items()} == \
        {flag: sorted(values) for flag, values in wanted.items()}
    assert set(hello["features"]) == {"load_state", "events", "observation", "seats", "perft"}


def test_bad_requests_are_errors_and_illegal_actions_are_rejections() -> None:
    answers = session(
        {"id": 1, "op": "legal_actions"},
        {"id": 2, "op": "fly"},
        {"id": 3, "op": "new_game", "players": 2, "colours": ["red", "green"],
         "first_player": 0, "variants": {"trimming": "sometimes"}},
        {"id": 4, "op": "new_game", "players": 2, "colours": ["red", "green"],
         "first_player": 0, "variants": {}},
        {"id": 5, "op": "apply", "action": {"type": "play", "kind": "salami", "count": 1}},
        {"id": 6, "op": "stop"},
    )
    assert [a["id"] for a in answers] == [1, 2, 3, 4, 5, 6]
    assert [a["ok"] for a in answers] == [False, False, False, True, True, True]
    assert answers[4]["rejected"]["rule"] == "setup.deal"
    assert answers[3]["state"]["step"] == "ingredients"


# --- protocol version 3: the numbers of the rules (house-rule parameters) ---------------


def _conform_records(tmp_path: Path, *options: str) -> tuple[Any, list[dict[str, Any]]]:
    report = tmp_path / "report.jsonl"
    command = [sys.executable, "-m", "mammamia_ref", "conform", "-q", *options,
               "--jsonl", str(report), "--", str(NODE), str(PORT)]
    result = patience.run(command, idle_seconds=900, cwd=ROOT)
    return result, [json.loads(line) for line in report.read_text().splitlines()]


def test_the_port_passes_the_house_scenarios_and_random_games_under_hand_of_eight(
        tmp_path: Path) -> None:
    result, records = _conform_records(
        tmp_path, "--scenarios", "scenarios/house", "--random-games", "10",
        "--house", "examples/house-rules/hand-of-eight.yaml")
    assert result.returncode == 0, result.stdout + result.stderr
    assert [f"{r['name']}: {r['status']} {r['message']}" for r in records
            if r["status"] != "pass"] == []
    runs = Counter(r["kind"] for r in records)
    house_runs = sum(len(yaml.safe_load(f.read_text(encoding="utf-8")).get("runs") or [0])
                     for f in (ROOT / "scenarios" / "house").glob("*.yaml"))
    assert runs == {"scenario": house_runs, "random": 40}  # every run of them; 10 x 4
    assert all(r["name"].endswith("-hand_limit=8") for r in records if r["kind"] == "random")


def test_the_port_takes_every_parameter_of_the_spec(tmp_path: Path) -> None:
    """Every parameter at another value at once: the random games pass, none skipped."""
    house = tmp_path / "house.yaml"
    house.write_text("name: every number\nparameters: {hand_limit: 9, starting_ingredients: 5, "
                     "starting_orders: 2, rounds: 4, standard_count: 3, monotoni_count: 5, "
                     "minimale_count: 2, bombastica_total: 13, trimming: {'2': 4, '4': 2}}\n",
                     encoding="utf-8")
    empty = tmp_path / "none"  # the random games alone
    empty.mkdir()
    result, records = _conform_records(tmp_path, "--scenarios", str(empty), "--perft",
                                       str(empty), "--random-games", "6", "--house",
                                       str(house))
    assert result.returncode == 0, result.stdout + result.stderr
    assert Counter(r["status"] for r in records) == {"pass": 24}


def test_hello_lists_every_parameter_of_the_spec_and_new_game_carries_them() -> None:
    spec = yaml.safe_load((ROOT / "spec" / "cards.yaml").read_text(encoding="utf-8"))
    hello, game, bad = session(
        {"id": 1, "op": "hello", "protocol": PROTOCOL},
        {"id": 2, "op": "new_game", "players": 2, "colours": ["red", "green"],
         "first_player": 0, "variants": {}, "parameters": {"hand_limit": 7, "rounds": 2}},
        {"id": 3, "op": "new_game", "players": 2, "colours": ["red", "green"],
         "first_player": 0, "variants": {}, "parameters": {"hand_limit": 0}})
    assert hello["protocol"] == PROTOCOL
    assert sorted(hello["parameters"]) == sorted(p["name"] for p in spec["parameters"])
    assert game["state"]["parameters"] == {"rounds": 2}  # the default one left out
    assert bad["ok"] is False and "hand_limit" in bad["error"]["message"]
