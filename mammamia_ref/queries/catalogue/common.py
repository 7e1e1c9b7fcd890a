"""Helpers every query module shares: the catalogue's data, witness documents and
their expectations, certificates and their rechecks, the replays of a witness."""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from mammamia_ref.queries.answering.witness import reference_replay, scenario_file_id
from mammamia_ref.queries.catalogue.results import WITNESS_DIR, Verdict
from mammamia_ref.rules import specdata
from mammamia_ref.rules.ruleset import Flags, Rules, make_rules


def load_catalogue() -> list[dict[str, Any]]:
    """The queries of ``spec/queries.yaml``."""
    return list(specdata.load_yaml("queries.yaml")["queries"])


def answer_flags(answer: Mapping[str, Any]) -> Flags:
    """The flag values an answer is given under (the defaults where it names none)."""
    return answer_rules(answer).flags


def answer_rules(answer: Mapping[str, Any]) -> Rules:
    """The rules an answer is given under: its flag values and (under ``query run
    --house``) the house rule's parameters."""
    return make_rules(answer.get("variants", {}), answer.get("parameters", {}),
                      house=answer.get("house"))


def base_doc(query: Mapping[str, Any], answer: Mapping[str, Any], title: str,
              description: str, rules: Sequence[str]) -> dict[str, Any]:
    """A witness scenario's head for an answer: its file id, title, description, the
    rules it cites, the query's disputes and tags, the answer's variants (the given state
    and the steps are the caller's)."""
    several = len(query["answers"]) > 1
    sid = scenario_file_id(query["id"], answer["name"] if several else None)
    doc: dict[str, Any] = {"id": sid, "title": title, "description": description,
                           "rules": list(rules)}
    if query.get("disputes"):
        doc["disputes"] = list(query["disputes"])
    doc["tags"] = ["query", query["id"]]
    if answer.get("variants"):
        doc["variants"] = dict(answer["variants"])
    return doc


def players_of(answer: Mapping[str, Any]) -> int:
    """The player count an answer is for: 2 unless it names one (``players``)."""
    return int(answer.get("players", 2))


def full_search() -> bool:
    """Whether the searches that keep a certificate run in full (``MAMMAMIA_FULL_SEARCH=1``,
    ``mammamia query run --slow``) rather than re-check the certificate."""
    return os.environ.get("MAMMAMIA_FULL_SEARCH") == "1"


def certificate(query: Mapping[str, Any], answer: Mapping[str, Any]) -> dict[str, Any] | None:
    """The committed witness of an answer (its certificate), if there is one: in the
    scenario suite shipped with the package, so that an installed copy re-checks it too
    instead of searching in full."""
    from mammamia_ref.formats.scenario import packaged_suite

    several = len(query["answers"]) > 1
    stem = scenario_file_id(query["id"], answer["name"] if several else None)
    path = packaged_suite() / Path(WITNESS_DIR).name / f"{stem}.yaml"
    if not path.exists():
        return None
    from mammamia_ref.formats.safeyaml import load_file

    return dict(load_file(path).data)


def final_state(doc: Mapping[str, Any]) -> Any:
    """The state a one-run witness scenario ends in, as the reference plays it."""
    from mammamia_ref.rules.actions import parse_action
    from mammamia_ref.rules.game import apply, new_game
    from mammamia_ref.rules.state import make_config

    setup = doc["given"]["setup"]
    state = new_game(make_config(setup["players"], first_player=setup.get("first_player", 0),
                                 variants=doc.get("variants", {})))
    for step in doc["steps"]:
        state, _events = apply(state, parse_action(step["do"]))
    return state


def recheck(query: Mapping[str, Any], answer: Mapping[str, Any],
            holds: Callable[[Any], bool], what: str) -> Verdict | None:
    """The certificate of a long search re-checked: the committed witness game, replayed
    by the reference (its expectations met), ends where ``holds`` says (for a witness
    of several runs, ``holds`` reads the document: the expectations it carries). ``None`` when
    there is no certificate or it fails (the caller then searches in full)."""
    doc = certificate(query, answer)
    if doc is None or "setup" not in doc.get("given", {}):
        return None
    passed, _failure, _fired = reference_replay(doc, f"{doc['id']}.yaml")
    if not passed or not holds(doc if "runs" in doc else final_state(doc)):
        return None
    return Verdict("sat", witness=doc, detail=f"certificate re-checked: {what} (the full "
                   "search: MAMMAMIA_FULL_SEARCH=1 or `mammamia query run --slow`)")
