"""The porter protocol is versioned (spec/protocol.yaml, a schema per version): a change
to its schema or to what the kit compares without a new version fails here, and a port
of an older version is told exactly what changed."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from mammamia_ref.kit import PROTOCOL
from mammamia_ref.kit.protocol import FEATURES, serve
from mammamia_ref.kit.runner import COMPARED
from mammamia_ref.kit.versions import (
    changes_since,
    compared_sha256,
    current,
    file_sha256,
    refusal,
    versions,
)
from mammamia_ref.rules.specdata import load_schema

ROOT = Path(__file__).resolve().parent.parent
BROKEN = [sys.executable, str(ROOT / "tests" / "impls" / "broken.py")]
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
    observation schemas and the kit's COMPARED declaration (kit.runner)."""
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
    assert "versions known" in refusal("mammamia-protocol/0")


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["speaks_version_1", "refuses_our_version"])
def test_the_kit_refuses_a_version_1_port_saying_what_changed(kind: str) -> None:
    result = subprocess.run([sys.executable, "-m", "mammamia_ref", "conform", "-q",
                             "--random-games", "0", "--", *BROKEN, kind],
                            capture_output=True, text=True, check=False, cwd=ROOT, timeout=600)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert result.stderr.count("\n") == 1
    assert all(change in result.stderr for change in changes_since("mammamia-protocol/1"))


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
