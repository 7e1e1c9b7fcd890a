"""The example JavaScript port (examples/ports/javascript) against the conformance kit.

The port was written from the documents, not from our Python; these tests keep it
honest as the rules and the kit move: every scenario, every counting table and a
batch of differential random games must pass. What is run is derived from the folders
and from what the port announces (its hello): a scenario run needing a value of a flag
the port does not offer (a flag added after its protocol version, which its hello does
not list) is expected to be skipped, with a line naming the flag, and is said here as a
skip, never counted as a pass; every other run must pass. So a new flag needs no edit of
the port, and a port that diverges on a case it runs still fails.
"""

from __future__ import annotations

import json
import re
import shutil
import sys
import warnings
from collections import Counter
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))
import patience

from mammamia_ref.formats.house import house_rules, load_house
from mammamia_ref.formats.scenario import given_state, load_all, with_rules_under
from mammamia_ref.kit import PROTOCOL
from mammamia_ref.kit.versions import known, named_version, versions
from mammamia_ref.rules.state import variant_defaults

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


@cache
def hello() -> dict[str, Any]:
    """The port's hello, greeted as the kit greets it: in the kit's version, then, if it
    refuses naming an older version it speaks, in that one."""
    [answer] = session({"id": 1, "op": "hello", "protocol": PROTOCOL})
    if not answer.get("ok"):
        older = named_version(str(answer.get("error", {}).get("message")))
        assert older is not None, f"the port refuses the kit's hello: {answer}"
        [answer] = session({"id": 1, "op": "hello", "protocol": older})
    assert answer["ok"] is True and known(answer["protocol"]) is not None, answer
    return answer


def added_up_to_the_ports_version(kind: str) -> list[str]:
    """The flags or parameters the port's protocol version knows (those added by it and
    the versions before)."""
    number = [v.id for v in versions()].index(hello()["protocol"]) + 1
    return [name for v in versions()[:number] for name in v.adds[kind]]


def expected_skips(folder: Path, house: Path | None = None) -> tuple[set[str], dict[str, str]]:
    """Every scenario run of ``folder`` by the kit's case name, and those the port cannot
    take by what its hello offers: the run's name and the flag whose value it needs."""
    scenarios, problems = load_all([folder])
    assert not problems, problems
    offered = hello()["variants"]
    defaults = variant_defaults()
    names: set[str] = set()
    skips: dict[str, str] = {}
    for scenario in scenarios:
        if house is not None:
            scenario = with_rules_under(scenario, house_rules(load_house(house)))
        for run in scenario.runs:
            name = scenario.id if run.name == "default" else f"{scenario.id}[{run.name}]"
            names.add(name)
            flags = given_state(scenario, run).rules.as_dict()
            lacking = [flag for flag, value in sorted(flags.items())
                       if value not in offered.get(flag, [defaults[flag]])]
            if lacking:
                skips[name] = lacking[0]
    return names, skips


def check_scenarios(records: list[dict[str, Any]], folder: Path,
                    house: Path | None = None) -> None:
    """Every run of the folder was a case; those the port cannot take by its hello were
    skipped with a line naming the flag (said here, as skips), every other passed."""
    names, skips = expected_skips(folder, house)
    cases = {r["name"]: r for r in records if r["kind"] == "scenario"}
    assert set(cases) == names, sorted(set(cases) ^ names)[:10]
    wrong = [f"{name}: {r['status']} {r['message']}" for name, r in sorted(cases.items())
             if r["status"] != ("skip" if name in skips else "pass")]
    assert wrong == []
    for name, flag in sorted(skips.items()):
        message = cases[name]["message"]
        assert re.search(rf"\b{flag}\b", message), f"{name}: skipped with {message!r}"
        warnings.warn(f"skipped, not passed: scenario {name}: {message}", stacklevel=1)


@pytest.mark.xdist_group("js-port-run")   # the run is shared with test_ports_page
def test_kit_passes_scenarios_tables_and_random_games(js_port_run: Any) -> None:
    """The kit's defaults and 50 random games a player count (``js_port_run``)."""
    result, records = js_port_run.result, js_port_run.records
    statuses = Counter((r["kind"], r["status"]) for r in records)
    assert result.returncode == 0, result.stdout + result.stderr
    check_scenarios(records, ROOT / "scenarios")
    assert statuses[("scenario", "pass")] > 0
    assert statuses[("perft", "pass")] == len(list((ROOT / "scenarios" / "perft").glob("*.yaml")))
    assert statuses[("random", "pass")] == 200  # 50 games for each of 2 to 5 players
    assert {kind for kind, status in statuses if status != "pass"} <= {"scenario"}


def test_hello_offers_every_variant_flag_and_value_its_version_knows() -> None:
    """The flags of the port's protocol version, every value; any flag it lists beyond
    them (one added after its version) with values of the spec, its default included."""
    spec = yaml.safe_load((ROOT / "spec" / "disputes.yaml").read_text(encoding="utf-8"))
    wanted = {v["flag"]: sorted(value["value"] for value in v["values"])
              for v in spec["variants"]}
    answer = hello()
    offered = {flag: sorted(values) for flag, values in answer["variants"].items()}
    known_flags = added_up_to_the_ports_version("flags")
    assert {flag: offered.get(flag) for flag in known_flags} == \
        {flag: wanted[flag] for flag in known_flags}
    for flag, values in offered.items():
        assert flag in wanted and set(values) <= set(wanted[flag]), (flag, values)
        assert variant_defaults()[flag] in values, flag
    assert set(answer["features"]) == {"load_state", "events", "observation", "seats", "perft"}


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
    house = ROOT / "examples" / "house-rules" / "hand-of-eight.yaml"
    check_scenarios(records, ROOT / "scenarios" / "house", house)
    randoms = [r for r in records if r["kind"] == "random"]
    assert Counter(r["status"] for r in randoms) == {"pass": 40}  # 10 games x 4
    assert all(r["name"].endswith("-hand_limit=8") for r in randoms)


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
    greeting, game, bad = session(
        {"id": 1, "op": "hello", "protocol": hello()["protocol"]},
        {"id": 2, "op": "new_game", "players": 2, "colours": ["red", "green"],
         "first_player": 0, "variants": {}, "parameters": {"hand_limit": 7, "rounds": 2}},
        {"id": 3, "op": "new_game", "players": 2, "colours": ["red", "green"],
         "first_player": 0, "variants": {}, "parameters": {"hand_limit": 0}})
    assert greeting == hello()
    assert sorted(greeting["parameters"]) == sorted(added_up_to_the_ports_version("parameters"))
    assert set(greeting["parameters"]) <= {p["name"] for p in spec["parameters"]}
    assert game["state"]["parameters"] == {"rounds": 2}  # the default one left out
    assert bad["ok"] is False and "hand_limit" in bad["error"]["message"]
