"""The shipped JSON Schemas work with a standard validator, offline: check-jsonschema,
given a schema file, resolves its ``$ref``s to the sibling files, and every scenario,
counting table and the query catalogue in the repository is valid under them. Every
scenario and table names its schema for editors (the yaml-language-server comment)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from check_jsonschema import main as check_jsonschema  # the test extra
from click.testing import CliRunner

ROOT = Path(__file__).resolve().parent.parent
SCHEMAS = ROOT / "spec" / "schemas"
MODELINE = re.compile(r"^# yaml-language-server: \$schema=(\S+)$")


def schema_of(path: Path) -> Path:
    """The schema a YAML file under scenarios/ is written to."""
    name = "perft" if path.parent.name == "perft" else "scenario"
    return SCHEMAS / f"{name}.schema.json"


def scenario_files() -> list[Path]:
    return sorted((ROOT / "scenarios").rglob("*.yaml"))


def check(*args: str) -> dict[str, Any]:
    """check-jsonschema's JSON report, run in this process (as on the command line)."""
    done = CliRunner().invoke(check_jsonschema, ["--output-format", "json", "--verbose",
                                                 *args])
    assert done.exception is None or isinstance(done.exception, SystemExit), done.output
    return json.loads(done.stdout)


def checked(report: dict[str, Any]) -> set[Path]:
    return {Path(p).resolve() for p in report["checked_paths"]}


def test_the_schemas_are_valid_schemas() -> None:
    files = sorted(SCHEMAS.glob("*.schema.json"))
    report = check("--check-metaschema", *map(str, files))
    assert report["status"] == "ok", report["errors"]
    assert checked(report) == set(files) and len(files) >= 8


def test_references_are_sibling_files() -> None:
    """No ``$id`` names a host: a ``$ref`` is a fragment or a file beside the schema, so
    the schemas resolve wherever they lie (a checkout, an installed package, an editor)."""
    def refs(node: Any) -> list[str]:
        if isinstance(node, dict):
            return [v for k, v in node.items() if k == "$ref"] + \
                [r for v in node.values() for r in refs(v)]
        if isinstance(node, list):
            return [r for v in node for r in refs(v)]
        return []

    between = 0
    for path in SCHEMAS.glob("*.schema.json"):
        schema = json.loads(path.read_text(encoding="utf-8"))
        assert "$id" not in schema, f"{path.name}: an $id would move the base of its $refs"
        for ref in refs(schema):
            target = ref.split("#", 1)[0]
            if target:
                between += 1
                assert "/" not in target and (SCHEMAS / target).is_file(), (path.name, ref)
    assert between > 0


@pytest.mark.corpus
@pytest.mark.parametrize(("kind", "schema"), [("scenario", "scenario.schema.json"),
                                              ("perft", "perft.schema.json")])
def test_every_scenario_and_table_is_valid(kind: str, schema: str) -> None:
    files = [p for p in scenario_files() if schema_of(p).name == schema]
    report = check("--schemafile", str(SCHEMAS / schema), *map(str, files))
    assert report["status"] == "ok", report["errors"]
    assert checked(report) == set(files) and len(files) > (50 if kind == "scenario" else 5)


def test_the_query_catalogue_is_valid() -> None:
    catalogue = ROOT / "spec" / "queries.yaml"
    report = check("--schemafile", str(SCHEMAS / "queries.schema.json"), str(catalogue))
    assert report["status"] == "ok", report["errors"]
    assert checked(report) == {catalogue}


@pytest.mark.parametrize(("schema", "text", "where", "message"), [
    ("scenario.schema.json",
     "id: x\ntitle: t\nrules: [turn.play]\ngiven:\n  setup: {players: 2, colours: [red, blue]}\n"
     "steps: []\n", "$.given.setup.colours[1]", "'blue' is not one of"),
    ("perft.schema.json",
     "id: x\nstate: {format: mammamia-state/1, players: 3}\ncounts: [{depth: 1, nodes: 2}]\n",
     "$.state.players", "3 is not of type 'array'"),
])
def test_a_reference_to_a_sibling_bites(tmp_path: Path, schema: str, text: str,
                                       where: str, message: str) -> None:
    """A value ruled by another file's definitions (a colour, a state) is checked: the
    ``$ref`` was followed, not skipped, and without a network."""
    path = tmp_path / "bad.yaml"
    path.write_text(text, encoding="utf-8")
    report = check("--schemafile", str(SCHEMAS / schema), str(path))
    assert report["status"] == "fail"
    found = [(e["path"], e["message"]) for e in report["errors"]]
    assert any(p == where and m.startswith(message) for p, m in found), found


@pytest.mark.parametrize("path", scenario_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_every_file_names_its_schema_for_editors(path: Path) -> None:
    first = path.read_text(encoding="utf-8").split("\n", 1)[0]
    found = MODELINE.match(first)
    assert found, f"{path}: the first line is not a yaml-language-server $schema comment"
    assert not Path(found[1]).is_absolute()
    assert (path.parent / found[1]).resolve() == schema_of(path).resolve()


# --- the action schema: the type names the form ------------------------------------------

ACTION_SAMPLES: list[dict[str, Any]] = [
    {"type": "shuffle", "pile": "supply", "order": ["olive"]},
    {"type": "play", "kind": "salami", "count": 2}, {"type": "pass"},
    {"type": "place_order", "order": "red.monotoni"}, {"type": "no_order"},
    {"type": "draw", "source": "supply", "count": 2}, {"type": "draw", "source": "waiter"},
    {"type": "name_kind", "kind": "olive"}, {"type": "complete", "cards": {"olive": 1}},
    {"type": "decline"}]
ODD_VALUES: list[Any] = [None, 0, -1, 2, 1.5, True, "", "salami", "shuffle", "supply",
                         "red.monotoni", [], ["olive"], [1], {}, {"olive": 1}, {"olive": -1}]


def _action_schema() -> dict[str, Any]:
    return json.loads((SCHEMAS / "action.schema.json").read_text(encoding="utf-8"))


def _validator(schema: dict[str, Any]) -> Any:
    import jsonschema
    from referencing import Registry, Resource

    state = json.loads((SCHEMAS / "state.schema.json").read_text(encoding="utf-8"))
    registry: Registry = Registry().with_resource("state.schema.json",
                                                  Resource.from_contents(state))
    return jsonschema.Draft202012Validator(schema, registry=registry)


def test_the_action_schema_accepts_exactly_what_its_one_of_did() -> None:
    """The discriminated form (a type's ``if`` selects its ``then``) accepts the very
    documents the ``oneOf`` of the same forms accepted (protocol 1 compares them): every
    form, each with a field removed, added or changed to an odd value, and odd documents."""
    schema = _action_schema()
    forms = [part["then"] for part in schema["allOf"]]
    types = [form["properties"]["type"]["const"] for form in forms]
    assert schema["properties"]["type"]["enum"] == types
    assert [part["if"]["properties"]["type"]["const"] for part in schema["allOf"]] == types
    one_of = {key: schema[key] for key in ("$schema", "title")} | {"oneOf": forms}
    new, old = _validator(schema), _validator(one_of)
    docs: list[Any] = [*ACTION_SAMPLES, {"type": "no_such_type"}, {}, None, [], "pass", 3,
                       {"kind": "salami", "count": 2}]
    for sample in ACTION_SAMPLES:
        for key in [*sample, "extra", "type"]:
            docs.append({k: v for k, v in sample.items() if k != key})
            docs += [{**sample, key: value} for value in ODD_VALUES]
    verdicts = [(new.is_valid(doc), old.is_valid(doc)) for doc in docs]
    assert [doc for doc, (a, b) in zip(docs, verdicts, strict=True) if a != b] == []
    accepted = sum(a for a, _ in verdicts)
    assert len(ACTION_SAMPLES) <= accepted < len(docs) // 2, accepted


@pytest.mark.parametrize(("doc", "where", "message"), [
    ({"type": "shufle", "pile": "supply", "order": []}, "$.type", "'shufle' is not one of"),
    ({"type": "play", "kind": "salamy", "count": 1}, "$.kind", "'salamy' is not one of"),
    ({"type": "draw", "source": "oven"}, "$.source", "'oven' is not one of"),
])
def test_a_standard_validator_names_the_bad_field_of_an_action(
        tmp_path: Path, doc: dict[str, Any], where: str, message: str) -> None:
    """check-jsonschema's best error points at the mistyped type or field (a ``oneOf``
    made it say that another form's type was expected)."""
    path = tmp_path / "action.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    report = check("--schemafile", str(SCHEMAS / "action.schema.json"), str(path))
    assert report["status"] == "fail"
    best = report["errors"][0]
    assert best["path"] == where and best["message"].startswith(message), report["errors"]


def test_every_question_file_is_valid() -> None:
    """spec/questions/ under spec/schemas/question.schema.json, as an editor checks them."""
    files = sorted((ROOT / "spec" / "questions").glob("*.yaml"))
    report = check("--schemafile", str(SCHEMAS / "question.schema.json"), *map(str, files))
    assert report["status"] == "ok", report["errors"]
    assert checked(report) == set(files) and len(files) >= 16
