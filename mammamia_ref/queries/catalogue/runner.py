"""Running the catalogue: each answer solved by its registered implementation, its
witness replayed by the reference, the rulings it used and the others it holds under."""

from __future__ import annotations

import threading
import time
from collections.abc import Collection, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from mammamia_ref.errors import MammamiaError, VariantError
from mammamia_ref.queries.answering.witness import parsed_witness, replay_parsed
from mammamia_ref.queries.catalogue.common import full_search, load_catalogue, recheck
from mammamia_ref.queries.catalogue.registry import implementation_of, takes_parameters
from mammamia_ref.queries.catalogue.results import (
    DISAGREEMENT_DIR,
    ROOT,
    WITNESS_DIR,
    Answer,
    QueryResult,
    evidence_of,
)
from mammamia_ref.queries.model import num as N
from mammamia_ref.queries.model.decode import Disagreement
from mammamia_ref.queries.model.errors import UnknownQueryError
from mammamia_ref.rules import specdata
from mammamia_ref.rules.ruleset import Rules


def also_holds(doc: Mapping[str, Any], flags: Iterable[str],
               parsed: Any = None) -> dict[str, list[str]]:
    """The other rulings under which a witness game holds as it stands: for each flag
    of ``flags`` the scenario leaves at its default, the values under which the
    reference replays it, every expectation met. (A witness that depends on a ruling
    fails under the others, and the query answers under them separately.) ``parsed``:
    the scenario as loaded (:func:`parsed_witness`), loaded once for every ruling."""
    import dataclasses

    entries = {e["flag"]: e for e in specdata.variant_flags()}
    out: dict[str, list[str]] = {}
    base = dict(doc.get("variants") or (doc.get("runs") or [{}])[0].get("variants", {}))
    scenario = parsed if parsed is not None else parsed_witness(doc, f"{doc['id']}.yaml")
    for flag in flags:
        if flag in base:
            continue
        held = []
        for value in entries[flag]["values"]:
            if value["value"] == entries[flag]["default"]:
                continue
            other = dataclasses.replace(scenario, runs=tuple(
                dataclasses.replace(run, variants={**run.variants, flag: value["value"]})
                for run in scenario.runs))
            try:
                passed, _failure, _fired = replay_parsed(other)
            except MammamiaError:
                passed = False
            if passed:
                held.append(value["value"])
        out[flag] = held
    return out


def ruling_rules() -> dict[str, str]:
    """The rule each variant flag's value stands for, mapped to its flag: a witness whose
    events name such a rule depends on that flag's ruling."""
    found: dict[str, str] = {}
    for entry in specdata.variant_flags():  # a rule two flags share is the first's (the
        for value in entry["values"]:       # dispute's; a house rule's flag comes later)
            if value.get("rule"):
                found.setdefault(value["rule"], entry["flag"])
    return found


def rulings_used(fired: Iterable[str]) -> list[str]:
    """The flags whose rulings a witness's events name."""
    rules = ruling_rules()
    return sorted({rules[r] for r in fired if r in rules})


def under_house(answer: Mapping[str, Any], house: Rules) -> dict[str, Any]:
    """A catalogue answer asked under a house rule: the house rule's flags with the
    answer's own laid over them (a ruling the answer is about stays its), and the house
    rule's numbers."""
    return {**answer, "variants": {**house.non_default(), **answer.get("variants", {})},
            "parameters": house.non_default_parameters(), "house": house.house}


def answer_query(query: Mapping[str, Any], answer: Mapping[str, Any], *,
                 root: Path = ROOT, write: bool = False) -> Answer:
    """Answer one (query, answer) pair; replay and perhaps write its witness. Under a
    house rule (:func:`under_house`) a query whose answer rests on the spec's numbers,
    or a model that does not follow one of the rules, is refused, never answered under
    other rules."""
    result = Answer(query["id"], answer["name"], dict(answer.get("variants", {})),
                    dict(answer["expected"]), answer.get("bound", query.get("bound", "")).strip(),
                    query["method"], parameters=dict(answer.get("parameters", {})),
                    house=answer.get("house"))
    implementation = implementation_of(query)
    started = time.perf_counter()
    cpu = time.process_time()
    if implementation is None:
        result.detail = "not implemented"
        return result
    if result.parameters and not takes_parameters(query):
        result.verdict = "refused"
        result.detail = (f"answered under the spec's numbers only (its witness plans assume "
                         f"them), not {', '.join(f'{k}={v}' for k, v in result.parameters.items())}"
                         ": ask it as a question file (mammamia ask --house FILE)")
        return result
    if answer.get("certified"):
        result.full_search = {**dict(answer.get("full_search") or {}), "ran": full_search()}
    try:
        verdict = _verdict(query, answer, implementation)
    except VariantError as exc:   # a model that does not follow a rule refuses it
        result.verdict, result.detail = "refused", str(exc)
        result.seconds = time.perf_counter() - started
        return result
    except Disagreement as exc:
        result.verdict = "sat"
        result.reference = "disagrees"
        result.reference_detail = str(exc)
        result.seconds = time.perf_counter() - started
        return result
    result.verdict, result.value, result.detail = verdict.verdict, verdict.value, verdict.detail
    result.upper, result.upper_evidence = verdict.upper, verdict.upper_evidence
    result.evidence = evidence_of(verdict, query["method"])
    if verdict.witness is not None:
        _replay_witness(result, query, verdict.witness, root, write)
    # the answer's whole cost: the search or proof, and the witness's replays
    result.seconds = time.perf_counter() - started
    result.cpu = time.process_time() - cpu
    return result


def _verdict(query: Mapping[str, Any], answer: Mapping[str, Any], implementation: Any) -> Any:
    """The implementation's verdict, or a certified answer's committed witness replayed.

    The solver's choices depend on the terms created before, so every answer builds its
    terms in a z3 context of its own (and the cached facts of first_round_can_end are
    computed in contexts of their own): a witness is then the same whatever ran before
    it, in one process or another."""
    with N.building():
        verdict = None
        if answer.get("certified") and not full_search() and \
                answer["expected"]["verdict"] != "value":
            # a long search's certificate: its committed witness, whose
            # expectations (the events and states it shows) are the claim (a value's
            # implementation re-checks its own, measuring the value on it)
            verdict = recheck(query, answer, lambda _end: True, "the committed witness "
                              "replays from a new game, every expectation met")
        if verdict is None:
            verdict = implementation(query, answer)
    return verdict


def _replay_witness(result: Answer, query: Mapping[str, Any], doc: dict[str, Any],
                    root: Path, write: bool) -> None:
    """The witness replayed in the reference (and, with ``write``, written): whether
    the reference agrees, the rulings it rests on, the flag values it also holds under."""
    result.scenario = doc
    file = f"{WITNESS_DIR}/{doc['id']}.yaml"
    scenario = parsed_witness(doc, file)
    passed, failure, fired = replay_parsed(scenario)
    result.rulings = rulings_used(fired)
    if passed and "setup" in doc["given"]:
        result.also = also_holds(doc, query.get("flags", ()), scenario)
    result.reference = "agrees" if passed else "disagrees"
    result.reference_detail = failure
    if not passed:
        file = f"{DISAGREEMENT_DIR}/{doc['id']}.yaml"
    result.witness_file = file
    if write:
        from mammamia_ref.queries.answering.witness import write_scenario

        write_scenario(root / file, doc)


def chosen_answers(query: Mapping[str, Any], *, include_slow: bool = True,
                   names: Collection[str] | None = None) -> list[Mapping[str, Any]]:
    """The answers of ``query`` to run: those ``names`` names (all by default), less,
    without ``include_slow``, those the catalogue marks ``slow``."""
    return [answer for answer in query["answers"]
            if (names is None or answer["name"] in names)
            and (include_slow or not answer.get("slow"))]


def run_query(query: Mapping[str, Any], *, write_witnesses: bool = False,
              root: Path = ROOT, answers: Sequence[str] | None = None,
              include_slow: bool = True, house: Rules | None = None) -> QueryResult:
    """Answer one query (:func:`chosen_answers`: the answers named, all by default;
    without ``include_slow`` those marked ``slow`` are left out), under ``house`` if given."""
    started = time.perf_counter()
    done = [answer_query(query, under_house(a, house) if house is not None else a, root=root,
                         write=write_witnesses)
            for a in chosen_answers(query, include_slow=include_slow, names=answers)]
    return QueryResult(query["id"], " ".join(query["question"].split()), list(query["rules"]),
                       done, time.perf_counter() - started)


def run_catalogue(ids: Sequence[str] | None = None, *, write_witnesses: bool = False,
                  root: Path = ROOT, include_slow: bool = True,
                  answers: Sequence[str] | None = None,
                  house: Rules | None = None) -> list[QueryResult]:
    """Answer the queries named (all by default), in catalogue order, each with the
    ``answers`` named (all by default); without ``include_slow`` the answers marked
    ``slow`` in the catalogue are left out (a query left with none is left out too)."""
    catalogue = load_catalogue()
    if ids:
        known = {q["id"] for q in catalogue}
        unknown = [i for i in ids if i not in known]
        if unknown:
            raise UnknownQueryError(unknown)
    results = [run_query(q, write_witnesses=write_witnesses, root=root,
                         include_slow=include_slow, answers=answers, house=house)
               for q in catalogue if not ids or q["id"] in ids]
    return [r for r in results if r.answers]


def answer_interruptibly(query_id: str, stop: threading.Event | None,
                         **options: Any) -> list[Any]:
    """``run_catalogue([query_id], **options)``, or KeyboardInterrupt once ``stop`` (from
    :func:`z3_interruptible`) is set: the answers of cancelled checks are not trusted."""
    from mammamia_ref.queries.answering.cancel import trusted
    from mammamia_ref.queries.catalogue.runner import (
        run_catalogue,  # looked up in its module, where a test may wrap it
    )

    return trusted(stop, lambda: run_catalogue([query_id], **options))
