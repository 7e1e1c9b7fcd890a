"""The porter protocol is versioned (spec/protocol.yaml, a schema per version): a change
to its schema or to what the kit compares without a new version fails here, and a port
of an older version is told exactly what changed."""

from __future__ import annotations

import functools
import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from mammamia_ref.kit import PROTOCOL
from mammamia_ref.kit.protocol import FEATURES, serve
from mammamia_ref.kit.versions import (
    COMPARED,
    changes_since,
    compared_sha256,
    current,
    file_sha256,
    refusal,
    versions,
)
from mammamia_ref.rules.specdata import load_schema

ROOT = Path(__file__).resolve().parent.parent
NEW_VERSION = ("add a version to spec/protocol.yaml with its own schema, list its changes "
               "in docs/porting.md and CHANGELOG.md, then record its fingerprints")


def test_the_version_spoken_is_the_last_of_the_spec() -> None:
    assert current().id == PROTOCOL
    assert current().features == FEATURES
    ids = [v.id for v in versions()]
    assert ids == [f"mammamia-protocol/{n}" for n in range(1, len(ids) + 1)]


@pytest.mark.parametrize("version", versions(), ids=lambda v: v.id)
def test_every_version_has_a_schema_of_its_own_that_names_it(version) -> None:
    schema = load_schema(version.schema)
    assert schema["$defs"]["hello"]["properties"]["protocol"] == {"const": version.id}
    assert schema["title"].startswith(f"{version.id}:")
    answer = next(b for b in schema["$defs"]["answer"]["oneOf"] if "features" in b["properties"])
    assert answer["properties"]["features"]["items"]["enum"] == list(version.features)
    assert len({v.schema for v in versions()}) == len(versions())


@pytest.mark.parametrize("version", versions(), ids=lambda v: v.id)
def test_a_versions_schema_is_frozen(version) -> None:
    assert file_sha256(version.schema) == version.schema_sha256, \
        f"spec/schemas/{version.schema} changed: {NEW_VERSION}"


def test_what_the_kit_compares_is_that_of_the_last_version() -> None:
    """The fingerprint covers the version's schema, the state, action, event and
    observation schemas and the kit's COMPARED declaration (kit.versions)."""
    assert compared_sha256(current(), COMPARED) == current().compared_sha256, \
        f"what the kit compares changed under {current().id}: {NEW_VERSION}"


def test_the_fingerprint_follows_what_is_compared() -> None:
    changed = {**COMPARED, "free_text": ["why"]}
    assert compared_sha256(current(), changed) != compared_sha256(current(), COMPARED)


def test_every_version_and_change_is_documented() -> None:
    guide = (ROOT / "docs" / "porting.md").read_text(encoding="utf-8")
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    section = re.split(r"^## (?:\d+\. )?Protocol versions$", guide, maxsplit=1,
                       flags=re.MULTILINE)[1]
    for version in versions():
        assert version.id in section and version.id in changelog
    words = re.sub(r"\s+", " ", section)
    for version in versions()[1:]:
        for change in version.changes:
            assert change.split(" (")[0].split(":")[0][:40] in words, change


def test_a_port_of_an_older_version_is_told_every_change_since() -> None:
    line = refusal("mammamia-protocol/1")
    assert "\n" not in line and "mammamia-protocol/2" in line
    changes = changes_since("mammamia-protocol/1")
    assert len(changes) == sum(len(v.changes) for v in versions()[1:]) >= 3
    assert all(change in line for change in changes)
    unknown = refusal("mammamia-protocol/0")
    assert "this kit knows mammamia-protocol/1" in unknown and len(unknown) < 200


@pytest.mark.parametrize("spoken", ["mammamia-protocol/9", "x" * 1_000_000, "\x1b]0;t\x07",
                                    None, 5])
def test_an_unknown_version_is_refused_in_one_short_line(spoken) -> None:
    line = refusal(spoken)
    assert "\n" not in line and len(line) < 200 and "\x1b" not in line
    assert versions()[0].id in line and current().id in line and "docs/porting.md" in line


def _conform(*args: str, port: list[str], cwd: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "mammamia_ref", "conform", *args, "--", *port],
                          capture_output=True, text=True, check=False, cwd=cwd, timeout=900)


@pytest.mark.slow
@pytest.mark.xdist_group("wrong-protocol-run")   # the run is shared with test_conformance
def test_the_kit_refuses_an_unknown_version_once_in_one_short_line(
        wrong_protocol_run: subprocess.CompletedProcess[str]) -> None:
    """``conform -q --random-games 0`` of a port greeting in an unknown version."""
    result = wrong_protocol_run
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert result.stderr.count("\n") == 1 and len(result.stderr) < 300
    assert result.stderr.count("this kit knows") == 1 and result.stdout == ""


OLDER = [sys.executable, str(ROOT / "tests" / "impls" / "older.py")]
# what a port of each older version meets of the later changes: the skip lines; beside
# these, each flag added after its version that a scenario plays at another value
# (draw_piles, and any flag added since: derived from the folder, `flags_played_after`)
SKIPS = {(1, "strict"): {"seats", "second_play", "parameters"},
         (1, "answers"): {"seats", "second_play", "parameters"},
         (1, "noevents"): {"result", "seats", "second_play", "parameters"},
         (2, "strict"): {"parameters"}}


@functools.cache
def _values_played() -> frozenset[tuple[str, str]]:
    """Every (flag, value) some scenario run plays. Worked out once: it loads every
    scenario (about 1.2 s of CPU), which the four runs of older ports did twice each."""
    from mammamia_ref.formats.scenario import given_state, load_all

    scenarios, problems = load_all([ROOT / "scenarios"])
    assert not problems
    return frozenset(pair for scenario in scenarios for run in scenario.runs
                     for pair in given_state(scenario, run).rules.as_dict().items())


def flags_played_after(number: int) -> set[str]:
    """The flags added after version ``number`` that some scenario run plays at a value
    other than the default (a port of that version skips those runs, naming the flag)."""
    from mammamia_ref.rules.state import variant_defaults

    later = {flag for v in versions()[number:] for flag in v.adds["flags"]}
    defaults = variant_defaults()
    return {flag for flag, value in _values_played()
            if flag in later and value != defaults[flag]}


@pytest.mark.slow
@pytest.mark.parametrize("number,greeting", list(SKIPS))
def test_a_port_of_an_older_version_runs_in_its_terms(number: int, greeting: str,
                                                      tmp_path: Path) -> None:
    """A port of /1 or /2 (the reference, answering as one would) runs unchanged: every
    case its version defines passes, every other is skipped with one line per change,
    and the summary and the report say which version it was run as. A strict port,
    which refuses a hello of another version naming its own, is greeted again. A /1
    port's winners are read off its ``winners`` event; without the events feature the
    cases checking them are skipped (``need `result```)."""
    report, jsonl = tmp_path / "run.json", tmp_path / "run.jsonl"
    result = _conform("-q", "--random-games", "2", "--max-nodes", "300", "--report",
                      str(report), "--jsonl", str(jsonl),
                      port=[*OLDER, str(number), greeting])
    assert result.returncode == 0, result.stdout + result.stderr
    ours = f"mammamia-protocol/{number}"
    assert f"run as {ours} (this kit speaks {PROTOCOL}" in result.stdout
    records = [json.loads(line) for line in jsonl.read_text().splitlines()]
    assert {r["status"] for r in records} == {"pass", "skip"}
    assert sum(r["status"] == "pass" and r["kind"] == "scenario" for r in records) > 150
    assert sum(r["status"] == "pass" and r["kind"] == "random" for r in records) == 8
    skipped = {r["message"] for r in records if r["status"] == "skip"}
    said = {re.fullmatch(r"need `(\w+)` \(protocol /(\d)\)", m) for m in skipped}
    assert None not in said, skipped
    assert "draw_piles" in flags_played_after(number)  # the house scenario plays it
    assert {m[1] for m in said if m} == SKIPS[number, greeting] | flags_played_after(number)
    assert all(int(m[2]) > number for m in said if m)
    for line in skipped:  # one line per change in the summary
        assert sum(row.startswith("skipped ") and row.endswith(line)
                   for row in result.stdout.splitlines()) == 1
    from mammamia_ref.kit.port_report import load_run, render

    assert f"run as {ours}" in render(load_run(report), ".md")


def test_every_need_of_the_spec_is_one_the_kit_knows() -> None:
    from mammamia_ref.kit.terms import NEEDS
    from mammamia_ref.kit.versions import introducing

    # a change that adds a flag needs the flag itself (`need: FLAG`, as the scaffold
    # writes it): the kit handles every added flag alike (kit.terms, Terms.supports)
    flags = {need for v in versions() for need in v.needs if need in v.adds["flags"]}
    named = {need for v in versions() for need in v.needs}
    assert named - flags == set(NEEDS) - flags
    assert all(introducing(need) is not None for need in NEEDS)


def test_a_ports_terms_follow_its_version() -> None:
    from mammamia_ref.formats.jsonform import format_state
    from mammamia_ref.kit.terms import terms_of
    from mammamia_ref.kit.versions import registered
    from mammamia_ref.rules.game import new_game
    from mammamia_ref.rules.state import make_config

    old = terms_of({"protocol": "mammamia-protocol/1", "features": ["load_state", "seats"]})
    assert old.features == ("load_state",)  # seats is not a feature of /1
    assert old.lacks("result") == "need `result` (protocol /2)"
    assert old.lacks("parameters") == "need `parameters` (protocol /3)"
    state = format_state(new_game(make_config(2)), result=True)
    sent = old.state({**state, "result": {"winners": []}})
    assert "draw_piles" not in sent["variants"] and "result" not in sent
    later = set(registered("flags")) - set(versions()[0].adds["flags"])  # draw_piles, ...
    assert "draw_piles" in later
    assert set(sent["variants"]) == set(state["variants"]) - later
    assert old.supports({"draw_piles": "both"}) == "need `draw_piles` (protocol /3)"
    assert old.supports({"hand_limit": "7"} if False else {}, {"hand_limit": 8}) == \
        "need `parameters` (protocol /3)"
    now = terms_of({"protocol": PROTOCOL})
    assert now.state(state) == state and now.lacks("result") is None


def _serve(*lines: str) -> list[dict]:
    out = io.StringIO()
    serve(io.StringIO("".join(line + "\n" for line in lines)), out)
    return [json.loads(line) for line in out.getvalue().splitlines()]  # strict JSON below


def test_serve_refuses_an_older_hello_with_the_changes() -> None:
    [answer] = _serve(json.dumps({"id": 1, "op": "hello", "protocol": "mammamia-protocol/1"}))
    assert answer["ok"] is False
    assert all(c in answer["error"]["message"] for c in changes_since("mammamia-protocol/1"))


@pytest.mark.parametrize("raw_id", ["NaN", "Infinity", "-Infinity", "1e400", "-1e999"])
def test_serve_never_echoes_an_id_that_is_not_json(raw_id: str) -> None:
    out = io.StringIO()
    serve(io.StringIO(f'{{"id": {raw_id}, "op": "state"}}\n'), out)
    text = out.getvalue()
    answer = json.loads(text, parse_constant=lambda word: pytest.fail(f"{word} echoed"))
    assert answer["id"] is None and answer["ok"] is False
    assert "not JSON" in answer["error"]["message"]


# --- version 3: the numbers of the rules (house-rule parameters) ------------------------


def test_a_version_2_port_is_told_the_changes_of_version_3() -> None:
    line = refusal("mammamia-protocol/2")
    v3 = next(v for v in versions() if v.id == "mammamia-protocol/3")
    assert "\n" not in line and "in mammamia-protocol/3: (1)" in line
    assert changes_since("mammamia-protocol/2")[:len(v3.changes)] == list(v3.changes)
    assert all(change in line for change in v3.changes) and "parameters" in line
    assert "in mammamia-protocol/2: (1)" in refusal("mammamia-protocol/1")


def test_serve_lists_every_parameter_and_plays_new_game_under_those_sent() -> None:
    from mammamia_ref.rules.typed_spec import PARAMETER_NAMES

    hello, plain, eight, trimmed = _serve(
        json.dumps({"id": 1, "op": "hello", "protocol": PROTOCOL}),
        json.dumps({"id": 2, "op": "new_game", "players": 2, "variants": {}}),
        json.dumps({"id": 3, "op": "new_game", "players": 2, "variants": {},
                    "parameters": {"hand_limit": 8, "bombastica_total": 15}}),
        json.dumps({"id": 4, "op": "new_game", "players": 2, "variants": {},
                    "parameters": {"trimming": {"2": 4}}}))
    assert hello["parameters"] == list(PARAMETER_NAMES)
    assert "parameters" not in plain["state"]
    assert eight["state"]["parameters"] == {"hand_limit": 8}  # the default one left out
    assert trimmed["state"]["parameters"] == {"trimming": {"2": 4, "3": 3, "4": 1, "5": 0}}
    assert trimmed["state"]["box"]["salami"] == 4


@pytest.mark.parametrize("parameters,rule,said", [
    ({"hand_limit": 0}, "turn.draw", "/parameters/hand_limit: parameter hand_limit must be"),
    ({"bombastica_total": 100}, "oven.bombastica", "parameter bombastica_total must be"),
    ({"trimming": {"7": 1}}, "setup.trim", "given by player count"),
    ({"starting_ingredients": 13}, "setup.deal", "cannot serve this game"),
    ({"hand_limt": 8}, None, "unknown parameter 'hand_limt'"),
    ([8], None, "parameters is a map"),
])
def test_serve_refuses_a_bad_parameter_naming_it_and_its_rule(parameters, rule, said) -> None:
    [answer] = _serve(json.dumps({"id": 1, "op": "new_game", "players": 5, "variants": {},
                                  "parameters": parameters}))
    assert answer["ok"] is False and said in answer["error"]["message"]
    assert answer["error"].get("rule") == rule


def test_a_case_needing_a_parameter_the_port_does_not_take_is_skipped_with_one_line() -> None:
    from mammamia_ref.kit.cases import CaseResult
    from mammamia_ref.kit.report import skip_groups
    from mammamia_ref.kit.terms import supports, supports_rules
    from mammamia_ref.rules.ruleset import make_rules

    assert supports({}, {}, {"hand_limit": 8}) == \
        "needs hand_limit=8: your implementation takes no parameter hand_limit"
    assert supports({"parameters": ["bombastica_total"]}, {}, {"hand_limit": 8}) is not None
    assert supports({"parameters": ["hand_limit"]}, {}, {"hand_limit": 8}) is None
    assert supports({}, {}, {}) is None  # the spec's numbers need no parameter
    rules = make_rules(parameters={"trimming": {"2": 4}})
    why = supports_rules({"parameters": "all"}, rules)  # not a list: none taken
    assert why == ("needs trimming=2:4,3:3,4:1,5:0: your implementation takes no "
                   "parameter trimming")
    skips = [CaseResult("random", f"g{i}", "skip", message=why) for i in range(3)]
    assert skip_groups(skips) == {"your implementation takes no parameter trimming": 3}


class _Recorder:
    """A connection that records what the kit sends."""

    def __init__(self) -> None:
        self.info: dict = {}
        self.sent: list[dict] = []

    def request(self, op: str, *, timeout=None, work: int = 0, **fields) -> dict:
        self.sent.append({"op": op, **fields})
        return {}


def test_new_game_carries_the_parameters_only_when_a_number_is_not_the_spec() -> None:
    from mammamia_ref.kit.lockstep import start_game
    from mammamia_ref.rules.game import new_game
    from mammamia_ref.rules.ruleset import make_rules
    from mammamia_ref.rules.state import make_config

    port = _Recorder()
    start_game(port, new_game(make_config(2)), from_setup=True)
    start_game(port, new_game(make_config(2, variants=make_rules(
        parameters={"bombastica_total": 12}))), from_setup=True)
    assert [s["op"] for s in port.sent] == ["new_game", "new_game"]
    assert "parameters" not in port.sent[0]
    assert port.sent[1]["parameters"] == {"bombastica_total": 12}


# --- version 4: what a port must know of the game's words is versioned -----------------


def test_every_flag_parameter_and_event_has_been_added_by_a_version() -> None:
    """A flag, a parameter or an event added to the spec without a new protocol version
    fails here (and moves the fingerprint above)."""
    from mammamia_ref.formats.event_register import events
    from mammamia_ref.kit.versions import registered
    from mammamia_ref.rules.specdata import variant_flags
    from mammamia_ref.rules.typed_spec import PARAMETER_NAMES

    for kind, spec in (("flags", [f["flag"] for f in variant_flags()]),
                       ("parameters", list(PARAMETER_NAMES)), ("events", list(events()))):
        added = registered(kind)
        assert len(added) == len(set(added)), f"a {kind[:-1]} added twice"
        assert set(spec) == set(added), \
            f"{kind} {sorted(set(spec) ^ set(added))} not added by a version: {NEW_VERSION}"


def test_the_fingerprint_follows_the_flags_and_the_events() -> None:
    from mammamia_ref.kit.versions import vocabulary

    words = vocabulary()
    base = compared_sha256(current(), COMPARED, words)
    scratch = {**words, "flags": {**words["flags"], "scratch": ["off", "on"]}}
    event = {**words, "events": {**words["events"], "flew": {"fields": {}, "rules": []}}}
    assert compared_sha256(current(), COMPARED, scratch) != base
    assert compared_sha256(current(), COMPARED, event) != base
    assert compared_sha256(current(), COMPARED) == base


SCRATCH = """
  - flag: "scratch_flag"
    dispute: null
    default: "off"
    models: [reference]
    values:
      - value: "off"
        rule: "turn.draw"
        summary: "A flag added as a contributor would, to see that no port breaks."
      - value: "on"
        rule: "turn.draw"
        summary: "Its other value."
"""


@pytest.fixture(scope="module")
def scratch_copy(tmp_path_factory) -> Path:
    """The package and its spec copied, with one new house flag added to
    spec/disputes.yaml and the typed spec written again, as CONTRIBUTING.md says."""
    import shutil

    root = tmp_path_factory.mktemp("scratch")
    shutil.copytree(ROOT / "mammamia_ref", root / "mammamia_ref",
                    ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    shutil.copytree(ROOT / "spec", root / "spec")
    disputes = root / "spec" / "disputes.yaml"
    text = disputes.read_text(encoding="utf-8")
    disputes.write_text(text.replace("\ndisputes:\n", SCRATCH + "\ndisputes:\n", 1),
                        encoding="utf-8")
    subprocess.run([sys.executable, "-m", "mammamia_ref.tools.typed_spec"], cwd=root,
                   env={**_env(root)}, check=True, capture_output=True, timeout=300)
    return root


def _env(root: Path) -> dict[str, str]:
    import os

    return {**os.environ, "PYTHONPATH": str(root)}


@pytest.mark.slow
@pytest.mark.parametrize("port", ["older-1", "older-2", "javascript", "reference"])
def test_a_new_flag_breaks_no_port(scratch_copy: Path, port: str, tmp_path: Path) -> None:
    """With a flag no version has added, every port passes as before: the flag is sent
    and compared only to a port that lists it (the reference, from the same copy)."""
    import shutil

    node = shutil.which("node")
    command = {"older-1": [*OLDER, "1"], "older-2": [*OLDER, "2"],
               "javascript": [str(node), str(ROOT / "examples/ports/javascript/mammamia.js")],
               "reference": [sys.executable, "-m", "mammamia_ref", "serve"]}[port]
    if port == "javascript" and node is None:
        pytest.skip("node is not installed (Debian: apt-get install nodejs)")
    check = subprocess.run([sys.executable, "-c", "from mammamia_ref.rules.state import "
                            "variant_defaults as d; print(d()['scratch_flag'])"],
                           cwd=tmp_path, env=_env(scratch_copy), capture_output=True,
                           text=True, check=True)
    assert check.stdout.strip() == "off"  # the copy knows the flag
    jsonl = tmp_path / "run.jsonl"
    result = subprocess.run(
        [sys.executable, "-m", "mammamia_ref", "conform", "-q", "--random-games", "1",
         "--max-nodes", "300", "--scenarios", str(ROOT / "scenarios"), "--jsonl", str(jsonl),
         "--", *command], cwd=tmp_path, env=_env(scratch_copy), capture_output=True,
        text=True, check=False, timeout=1800)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-2000:]
    records = [json.loads(line) for line in jsonl.read_text().splitlines()]
    assert sum(r["status"] == "pass" for r in records) > 150
    assert not [r for r in records if r["status"] in ("fail", "error")]
    assert "unknown variant flag" not in result.stdout


def test_a_version_1_ports_winners_are_read_off_its_winners_event() -> None:
    from mammamia_ref.kit.cases import outcome_of_events

    state = {"players": [{"colour": "red"}, {"colour": "blue"}, {"colour": "green"}]}
    told = [{"event": "game_ended", "rule": "game_end.three_resolutions"},
            {"event": "winners", "rule": "game_end.tie_break", "seats": [2, 0],
             "delivered": [3, 1, 3]}]
    assert outcome_of_events(told, state) == {"winners": ["green", "red"],
                                              "rule": "game_end.tie_break"}
    assert outcome_of_events(told[:1], state) is None and outcome_of_events(None, state) is None
    assert outcome_of_events([{**told[1], "seats": [7]}], state) == \
        {"winners": [], "rule": "game_end.tie_break"}
