"""The z3 query catalogue (``spec/queries.yaml``, ``mammamia_ref/queries``).

- The catalogue is well formed (its schema, rule IDs, variant flags, implementations).
- Every answer is the expected verdict; a witness replays in the reference and is the
  committed scenario under ``scenarios/queries/``; the queries page names them all.
- The z3 encoding of the oven agrees with the reference on random openings.
- Every "impossible" answer is also searched for by hypothesis in the reference,
  without success (example counts come from the hypothesis profile, tests/conftest.py).

Answers marked ``slow: true`` in the catalogue run only with ``MAMMAMIA_SLOW=1``.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import io
import json
import os
import shutil
import unittest.mock
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml

z3 = pytest.importorskip("z3")

pytestmark = pytest.mark.z3

from hypothesis import assume, given  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from mammamia_ref import apply, legal_actions  # noqa: E402
from mammamia_ref.formats.jsonform import format_state, parse_state  # noqa: E402
from mammamia_ref.formats.scenario import complete_state  # noqa: E402
from mammamia_ref.queries.answering.witness import dump_scenario  # noqa: E402
from mammamia_ref.queries.catalogue import IMPLEMENTATIONS, ROOT, answer_query  # noqa: E402
from mammamia_ref.queries.catalogue.common import load_catalogue  # noqa: E402
from mammamia_ref.queries.catalogue.docs import render_markdown  # noqa: E402
from mammamia_ref.queries.model import num as N  # noqa: E402
from mammamia_ref.queries.model.oven_rules import Decision, order_terms_of, resolve_order  # noqa: E402
from mammamia_ref.rules import specdata  # noqa: E402
from mammamia_ref.rules.actions import Draw  # noqa: E402
from mammamia_ref.rules.events import Event  # noqa: E402
from mammamia_ref.rules.game import is_over  # noqa: E402
from mammamia_ref.rules.state import GameState, variant_defaults, variant_values  # noqa: E402
from mammamia_ref.rules.vocabulary import KINDS, MAMMA_MIA, ORDER_TYPES, ORDERS, ORDERS_OF  # noqa: E402
from mammamia_ref.tools.strategies import configs, games  # noqa: E402

SLOW = os.environ.get("MAMMAMIA_SLOW") == "1"
CATALOGUE = load_catalogue()


def _answers() -> Iterator[Any]:
    """Every answer, as a parameter; the tests of one answer share a worker (an
    ``xdist_group``), so that each answer is computed once (``answered``)."""
    for query in CATALOGUE:
        for answer in query["answers"]:
            name = f"{query['id']}[{answer['name']}]"
            marks = [pytest.mark.slow,
                     pytest.mark.skipif(not SLOW, reason="slow: MAMMAMIA_SLOW=1")] \
                if answer.get("slow") else []
            yield pytest.param(query["id"], answer["name"], id=name,
                               marks=[*marks, pytest.mark.xdist_group(name)])


def _default_context_refused(*args: Any) -> Any:
    raise AssertionError("z3's default context used")


@functools.cache
def answered(query_id: str, name: str) -> Any:
    """The answer, computed once per worker, with z3's default context refused: every
    term, solver and check of every answer lives in the answer's own context."""
    query = next(q for q in CATALOGUE if q["id"] == query_id)
    answer = next(a for a in query["answers"] if a["name"] == name)
    with unittest.mock.patch.object(z3.z3, "main_ctx", _default_context_refused):
        return answer_query(query, answer)


# ---------------------------------------------------------------- the catalogue


def test_catalogue_follows_its_schema() -> None:
    schema = json.loads((ROOT / "spec" / "schemas" / "queries.schema.json").read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    doc = yaml.safe_load((ROOT / "spec" / "queries.yaml").read_text(encoding="utf-8"))
    errors = [e.message for e in jsonschema.Draft202012Validator(schema).iter_errors(doc)]
    assert not errors, errors


def test_catalogue_cites_what_exists() -> None:
    rules = specdata.rule_ids()
    disputes = {d["id"] for d in specdata.disputes()}
    values = variant_values()
    ids = [q["id"] for q in CATALOGUE]
    assert len(ids) == len(set(ids)) and len(ids) >= 12
    for query in CATALOGUE:
        assert set(query["rules"]) <= rules, query["id"]
        assert set(query.get("disputes", [])) <= disputes, query["id"]
        names = [a["name"] for a in query["answers"]]
        assert len(names) == len(set(names)), query["id"]
        for answer in query["answers"]:
            for flag, value in answer["variants"].items():
                assert value in values[flag], (query["id"], flag, value)


def test_every_query_has_an_implementation() -> None:
    """A module, or (``method: question``) a question file and no module: never both,
    so a query is answered by one definition."""
    by_question = {q["id"] for q in CATALOGUE if q["method"] == "question"}
    assert by_question, "the catalogue has queries answered by their question files"
    assert {q["id"] for q in CATALOGUE} - by_question == set(IMPLEMENTATIONS)
    assert not by_question & set(IMPLEMENTATIONS)
    for qid in by_question:
        assert (specdata.spec_path("questions") / f"{qid}.yaml").exists(), qid


def test_oven_rule_functions_cite_rules() -> None:
    """One function per rule: each rule function's docstring starts with its rule ID."""
    from mammamia_ref.queries.model import oven_rules

    rules = specdata.rule_ids()
    cited = []
    for name in dir(oven_rules):
        if name.startswith("oven_"):
            doc = getattr(oven_rules, name).__doc__ or ""
            first = doc.split(":", 1)[0].split(", ")
            assert set(first) <= rules, (name, first)
            cited += first
    for rule in ("oven.sort", "oven.bake", "oven.complete_from_hand", "oven.complete_mandatory",
                 "oven.fail", "oven.standard", "oven.one_of_each", "oven.bombastica",
                 "oven.bombastica_table_only", "oven.monotoni", "oven.monotoni_on_table",
                 "oven.minimale", "oven.minimale_all_kinds", "oven.leftovers"):
        assert rule in cited, rule


@pytest.mark.parametrize(("query_id", "name"), list(_answers()))
def test_answer_is_expected(query_id: str, name: str) -> None:
    result = answered(query_id, name)
    assert result.matches_expected, (
        f"{query_id} [{name}]: {result.verdict} {result.value} (expected {result.expected}); "
        f"reference {result.reference}: {result.reference_detail}")


@pytest.mark.parametrize(("query_id", "name"), list(_answers()))
def test_witness_is_committed(query_id: str, name: str) -> None:
    """Every witness is the committed scenario, byte for byte (regenerate with
    `mammamia query run --write-witnesses` after changing the encoding)."""
    result = answered(query_id, name)
    if result.scenario is None:
        assert result.verdict != "sat", "a satisfiable answer comes with a witness"
        return
    path = ROOT / result.witness_file
    assert path.exists(), \
        f"{path} is missing: run `mammamia query run {query_id} --write-witnesses`"
    assert path.read_text(encoding="utf-8") == dump_scenario(result.scenario), \
        f"{path} is stale: run `mammamia query run {query_id} --write-witnesses`"


@pytest.mark.parametrize(("query_id", "name"), list(_answers()))
def test_a_witness_is_a_game_or_says_it_is_not(query_id: str, name: str) -> None:
    """A witness from the setup is a game (evidence ``game``); one from a position is
    marked position-level, in its evidence, its tags and its description."""
    result = answered(query_id, name)
    if result.scenario is None:
        assert result.evidence in ("bound", "statement", "induction", "ranking")
        return
    from_setup = "setup" in result.scenario["given"]
    assert result.evidence == ("game" if from_setup else "position")
    assert ("position-level" in result.scenario["tags"]) is not from_setup
    if not from_setup:
        assert result.scenario["description"].startswith("Position-level witness")


@pytest.mark.parametrize(("query_id", "name"), list(_answers()))
def test_a_witness_names_every_ruling_it_uses(query_id: str, name: str) -> None:
    """Every flag whose ruling the witness's events name is among the query's flags."""
    query = next(q for q in CATALOGUE if q["id"] == query_id)
    result = answered(query_id, name)
    assert set(result.rulings) <= set(query["flags"]), (set(result.rulings) - set(query["flags"]))
    assert set(result.variants) <= set(query["flags"])


def test_the_stall_rule_has_rulings() -> None:
    from mammamia_ref.queries.catalogue import ruling_rules

    assert {rule for rule, flag in ruling_rules().items() if flag == "stall"}


@pytest.mark.parametrize(("query_id", "name"), list(_answers()))
def test_a_stall_dependent_witness_is_answered_under_the_letter(query_id: str,
                                                                 name: str) -> None:
    """A witness that ends a round by the stall rule (D7, stall=cut) depends on that
    ruling: its query answers under stall=letter too, or says why not (``unanswered``)."""
    result = answered(query_id, name)
    if "stall" not in result.rulings:
        return
    query = next(q for q in CATALOGUE if q["id"] == query_id)
    answer = next(a for a in query["answers"] if a["name"] == name)
    letter = {**answer["variants"], "stall": "letter"}
    declared = [u for u in query.get("unanswered", ()) if u["variants"] == {"stall": "letter"}]
    assert any(a["variants"] == letter for a in query["answers"]) or declared, (query_id, name)


@functools.cache
def _witnesses() -> dict[Path, Any]:
    """Every committed witness (``scenarios/queries/``) read once, by the package's own
    YAML loader, for the two tests that read them all (each read them again, one with
    PyYAML's pure-Python loader: 2 to 4 s of CPU)."""
    from mammamia_ref.formats.safeyaml import load_file

    return {path: load_file(path).data
            for path in sorted((ROOT / "scenarios" / "queries").glob("*.yaml"))}


WITNESS_FILES = pytest.mark.xdist_group("witness-files")   # the tests reading _witnesses()


@WITNESS_FILES
def test_committed_witnesses_are_games_or_marked() -> None:
    for path, doc in _witnesses().items():
        assert "setup" in doc["given"] or "position-level" in doc["tags"], path.name


def test_committed_witnesses_belong_to_the_catalogue() -> None:
    from mammamia_ref.queries.answering.witness import scenario_file_id

    wanted = {scenario_file_id(q["id"], a["name"] if len(q["answers"]) > 1 else None)
              for q in CATALOGUE for a in q["answers"]}
    for path in (ROOT / "scenarios" / "queries").glob("*.yaml"):
        assert path.stem in wanted, f"{path} is no witness of spec/queries.yaml"


def test_the_page_shows_every_answer_and_witness() -> None:
    from mammamia_ref.queries.answering.witness import scenario_file_id

    text = render_markdown(CATALOGUE, root=ROOT)
    for query in CATALOGUE:
        assert f"## {query['id']}" in text
        for answer in query["answers"]:
            assert f"({answer['name']}): **" in text, (query["id"], answer["name"])
            stem = scenario_file_id(query["id"], answer["name"] if len(query["answers"]) > 1
                                    else None)
            if (ROOT / "scenarios" / "queries" / f"{stem}.yaml").exists():
                assert f"(`scenarios/queries/{stem}.yaml`)" in text


def test_cli_lists_and_runs() -> None:
    from mammamia_ref.cli.query import add_query_parser, run_query_command

    parser = argparse.ArgumentParser(prog="mammamia")
    add_query_parser(parser.add_subparsers(dest="command", required=True))
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert run_query_command(parser.parse_args(["query", "list"])) == 0
    assert "Q14-bombastica-leaves-cards" in out.getvalue()
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = run_query_command(parser.parse_args(["query", "run", "Q14-bombastica-leaves-cards",
                                                    "--json"]))
    assert code == 0
    (result,) = json.loads(out.getvalue())
    assert result["matches_expected"] and [a["verdict"] for a in result["answers"]] == ["unsat"] * 2
    with contextlib.redirect_stderr(io.StringIO()):
        assert run_query_command(parser.parse_args(["query", "run", "Q99-nothing"])) == 2


# ------------------------------------------- the encoding against the reference

OVEN_FLAGS = ("completion", "minimale_lowest", "monotoni_kind", "bombastica_hand")


def opening(table: tuple[int, ...], hand: tuple[int, ...], order: str,
            variants: dict[str, str]) -> list[tuple[tuple[Event, ...], GameState]]:
    """Every way the reference can resolve ``order`` revealed on ``table`` with its owner
    holding ``hand`` (two players, the full deck): the events and the final state of each
    path of decisions. The other player draws the supply's last card, which opens the
    oven; the table is kept (leftovers=table)."""
    colours = ["red", "yellow"]
    owner = colours.index(ORDERS[order].colour)
    oven = [k for k, n in zip(KINDS, table, strict=True) for _ in range(n)] + [order]
    players = [{"colour": c, "hand": {"ingredients": dict(zip(KINDS, hand, strict=True))
                                      if s == owner else {}}} for s, c in enumerate(colours)]
    doc = {"players": players, "step": "draw", "current": 1 - owner, "mamma_mia": 1 - owner,
           "supply": ["olive"], "oven": oven}
    values = {**variants, "trimming": "off", "leftovers": "table"}
    state, events = apply(parse_state(complete_state(doc, values)), Draw("supply"))
    paths: list[tuple[tuple[Event, ...], GameState]] = []

    def walk(state: GameState, events: tuple[Event, ...]) -> None:
        if state.phase == "oven":
            for action in legal_actions(state):
                after, more = apply(state, action)
                walk(after, events + more)
        else:
            paths.append((events, state))

    walk(state, events)
    return paths


def outcome(events: tuple[Event, ...]) -> tuple[bool, tuple[int, ...], tuple[int, ...]]:
    baked = [e for e in events if e.name == "baked"]
    if not baked:
        return False, (0,) * 5, (0,) * 5
    used = tuple(baked[0].get("used")[k] for k in KINDS)
    completed = [e for e in events if e.name == "completed_from_hand"]
    from_hand = tuple(completed[0].get("cards")[k] for k in KINDS) if completed else (0,) * 5
    return True, tuple(u - h for u, h in zip(used, from_hand, strict=True)), from_hand


def encoded(table: tuple[int, ...], hand: tuple[int, ...], order: str,
            variants: dict[str, str]) -> set[tuple[bool, tuple[int, ...], tuple[int, ...]]]:
    """Every outcome the z3 encoding allows (one per legal decision)."""
    with N.building():
        return _encoded(table, hand, order, variants)


def _encoded(table: tuple[int, ...], hand: tuple[int, ...], order: str,
             variants: dict[str, str]) -> set[tuple[bool, tuple[int, ...], tuple[int, ...]]]:
    d = Decision.fresh("t")
    out = resolve_order(list(table), list(hand), order_terms_of(order), d,
                        {**variant_defaults(), **variants})
    s = N.Solver()
    s.add(out.legal)
    found = set()
    while s.check() == z3.sat:
        m = s.model()
        found.add((N.truth(m, out.baked), tuple(N.value(m, x) for x in out.from_table),
                   tuple(N.value(m, x) for x in out.from_hand)))
        s.add(z3.Or(d.named != m.eval(d.named, True), d.complete != m.eval(d.complete, True),
                    *[t != m.eval(t, True) for t in d.take]))
    return found


@st.composite
def openings(draw: st.DrawFn, order: str | None = None,
             variants: dict[str, Any] | None = None) -> tuple[Any, ...]:
    chosen = order or draw(st.sampled_from(ORDERS_OF["red"] + ORDERS_OF["yellow"]))
    table = tuple(draw(st.lists(st.integers(0, 6), min_size=5, max_size=5)))
    hand = [0] * 5
    for kind in draw(st.lists(st.integers(0, 4), max_size=7)):
        hand[kind] += 1
    assume(all(t + h <= 12 for t, h in zip(table, hand, strict=True)))
    values = {flag: draw(st.sampled_from(variant_values()[flag])) for flag in OVEN_FLAGS}
    values.update(variants or {})
    return table, tuple(hand), chosen, values


@given(openings())
def test_oven_encoding_agrees_with_the_reference(case: tuple[Any, ...]) -> None:
    table, hand, order, variants = case
    reference = {outcome(events) for events, _ in opening(table, hand, order, variants)}
    assert encoded(table, hand, order, variants) == reference


def test_a_mandatory_bombastica_asks_just_where_the_reference_has_several_ways() -> None:
    """The opening's stop under ``completion=mandatory`` (:func:`..stops.pauses`): the
    model's "more than one way to take the shortfall" (:func:`..oven_rules.several_ways`)
    against the reference's ways (``rules.oven.ways_to_take``), for every hand of up to
    two cards of each kind and every shortfall the hand can make up."""
    import itertools

    from mammamia_ref.queries.model.oven_rules import several_ways
    from mammamia_ref.rules.oven import ways_to_take

    checked = several = 0
    with N.building():
        for hand in itertools.product(range(3), repeat=5):
            for short in range(1, sum(hand) + 1):
                term = z3.simplify(several_ways([N.Val(h) for h in hand], N.Val(short)))
                assert z3.is_true(term) or z3.is_false(term), term
                expected = len(ways_to_take(hand, short)) > 1
                assert z3.is_true(term) == expected, (hand, short)
                checked, several = checked + 1, several + expected
    assert checked > 1000 and 0 < several < checked


# --------------------------- impossibilities searched for in the reference

@given(openings(order="red.minimale", variants={"minimale_lowest": "eligible_kinds"}))
def test_q01_a_hand_saves_every_minimale(case: tuple[Any, ...]) -> None:
    """Q01 (eligible_kinds): with a non-personal kind on the table, some hand makes the
    Minimale bake: the hand holding what the lowest eligible kind lacks."""
    table, _hand, order, variants = case
    personal = KINDS.index("salami")
    eligible = [k for k in range(5) if k != personal and table[k] > 0]
    assume(eligible)
    lowest = min(eligible, key=lambda k: table[k])
    need = [0] * 5
    need[personal] += 1
    need[lowest] += 3
    hand = tuple(max(0, n - t) for n, t in zip(need, table, strict=True))
    assert any(outcome(events)[0] for events, _ in opening(table, hand, order, variants))


def _turn_starts(game: list[Any]) -> Iterator[tuple[int, GameState]]:
    for state, _action in game:
        if state.phase == "turn" and state.step == "play":
            yield state.round, state


@given(games(configs(players=st.integers(2, 3), variants={"stall": "cut"})))
def test_q07_no_position_repeats_under_cut(game: list[Any]) -> None:
    """Q07 (cut): within a round no position comes back; a game ends unless the
    sample stopped it at its step cap."""
    seen: set[tuple[int, str]] = set()
    for round_, state in _turn_starts(game):
        key = (round_, json.dumps(format_state(state), sort_keys=True))
        assert key not in seen
        seen.add(key)
    state, action = game[-1]
    assert is_over(apply(state, action)[0]) or len(game) >= 2000


Q09_VARIANTS = [a["variants"] for q in CATALOGUE if q["id"] == "Q09-hand-above-seven"
                for a in q["answers"]]


@pytest.mark.parametrize("variants", Q09_VARIANTS, ids=[json.dumps(v) for v in Q09_VARIANTS])
def test_q09_no_hand_above_seven(variants: dict[str, str]) -> None:
    @given(games(configs(variants=variants)))
    def search(game: list[Any]) -> None:
        for state, _action in game:
            assert all(hand.size <= 7 for hand in state.hands)

    search()


@given(games(configs(variants={"round_end": st.sampled_from(["last_card", "last_ingredient"]),
                               "stall": st.sampled_from(["cut", "letter"])})))
def test_q10_every_opening_has_a_holder(game: list[Any]) -> None:
    for state, action in game:
        _after, events = apply(state, action)
        for e in events:
            if e.name == "oven_opened":
                assert e.get("seat") is not None
        assert state.phase != "oven" or state.mamma_mia is not None


@given(games(configs(variants={"round_end": "last_ingredient"})))
def test_q11_mamma_mia_never_drawn_last_under_last_ingredient(game: list[Any]) -> None:
    for state, action in game:
        if not (isinstance(action, Draw) and action.source == "supply"):
            continue
        _after, events = apply(state, action)
        drew = next(e for e in events if e.name == "drew")
        popped = drew.get("count") + any(e.name == "mamma_mia_drawn" for e in events)
        if any(e.name == "round_ended" for e in events) and popped:
            assert state.supply[popped - 1] != MAMMA_MIA


@given(openings(order="red.monotoni", variants={"monotoni_kind": "on_table"}))
def test_q12_monotoni_kind_on_the_table(case: tuple[Any, ...]) -> None:
    table, hand, order, variants = case
    for events, _state in opening(table, hand, order, variants):
        if outcome(events)[0]:
            named = next(e.get("kind") for e in events if e.name == "named_kind")
            assert table[KINDS.index(named)] > 0


@given(openings(order="red.bombastica", variants={"bombastica_hand": "forbidden"}))
def test_q13_bombastica_needs_fifteen_on_the_table(case: tuple[Any, ...]) -> None:
    table, hand, order, variants = case
    for events, _state in opening(table, hand, order, variants):
        if outcome(events)[0]:
            assert sum(table) >= ORDER_TYPES["bombastica"]["total"]


@given(openings(order="red.bombastica"))
def test_q14_bombastica_empties_the_table(case: tuple[Any, ...]) -> None:
    table, hand, order, variants = case
    for events, state in opening(table, hand, order, variants):
        if outcome(events)[0]:
            # the Bombastica is the oven's last card and the table is kept after the
            # opening (leftovers=table): nothing may be left on it
            assert state.table == (0,) * 5


@given(openings(variants={"completion": "mandatory"}))
def test_q15_mandatory_completion_never_lets_a_bakeable_order_fail(case: tuple[Any, ...]) -> None:
    table, hand, order, variants = case
    results = {outcome(events)[0] for events, _ in opening(table, hand, order, variants)}
    assert results in ({True}, {False})


def test_witness_output_is_deterministic() -> None:
    query = next(q for q in CATALOGUE if q["id"] == "Q12-monotoni-absent-kind")
    answer = query["answers"][0]
    first = answer_query(query, answer).scenario
    again = answer_query(query, answer).scenario
    assert first is not None and dump_scenario(first) == dump_scenario(again)


@WITNESS_FILES
def test_witness_scenarios_load_as_written() -> None:
    """A written witness reads back as the same document (the YAML subset we emit)."""
    for path, data in _witnesses().items():
        assert dump_scenario(data) == path.read_text(encoding="utf-8"), path



def test_a_certificate_that_does_not_hold_is_not_trusted() -> None:
    """The re-check of a long search's certificate can fail: a claim the committed game
    does not meet gives no answer (the caller then searches in full), and Q19's witness
    without its run that completes (the run that declines costs nothing) is no
    certificate of its question."""
    from mammamia_ref.queries.catalogue import certificate, recheck
    from mammamia_ref.queries.catalogue.by_question import certificate_judged
    from mammamia_ref.queries.language.questions import load_question
    from mammamia_ref.queries.model.flags import model_rules
    from mammamia_ref.rules import specdata

    q04 = next(q for q in CATALOGUE if q["id"] == "Q04-all-orders-delivered")
    assert recheck(q04, q04["answers"][0], lambda state: len(state.delivered[1]) == 8,
                   "yellow delivers all eight") is None
    assert recheck(q04, q04["answers"][0], lambda state: len(state.delivered[0]) == 8,
                   "red delivers all eight") is not None
    q19 = next(q for q in CATALOGUE if q["id"] == "Q19-completion-costs-own-order")
    doc = certificate(q19, q19["answers"][0])
    question = load_question(specdata.spec_path("questions") / f"{q19['id']}.yaml")
    rules = model_rules("game_model", {"completion": "optional"})
    assert doc is not None and certificate_judged(question, 2, doc, rules).verdict == "sat"
    declined = {**doc, "runs": [run for run in doc["runs"] if run["name"] == "decline"]}
    assert certificate_judged(question, 2, declined, rules).verdict == "unknown"


def test_certificates_are_read_from_the_suite_shipped_with_the_package(
        tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """An installed copy has no ``scenarios/`` beside the package, only the suite shipped
    inside it: the certificates are looked up there (where they are looked up decides
    whether an installed verify re-checks a witness or repeats an 11-minute search)."""
    from mammamia_ref.formats import scenario
    from mammamia_ref.queries import catalogue

    q04 = next(q for q in CATALOGUE if q["id"] == "Q04-all-orders-delivered")
    answer = q04["answers"][0]
    shipped = tmp_path / "shipped"
    monkeypatch.setattr(scenario, "packaged_suite", lambda: shipped)
    assert catalogue.certificate(q04, answer) is None  # nothing shipped: no certificate
    shutil.copytree(ROOT / "scenarios" / "queries", shipped / "queries")
    doc = catalogue.certificate(q04, answer)
    assert doc is not None and doc["id"].startswith("q04-")
    assert catalogue.recheck(q04, answer, lambda state: len(state.delivered[0]) == 8,
                             "red delivers all eight") is not None


def test_docs_output_is_written_atomically(tmp_path: Any, monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    """`mammamia query docs -o FILE` renames a finished page into place (a new inode, no
    temporary file left beside it), and a destination it cannot write is refused in one
    line before the page is rendered."""
    from mammamia_ref.cli.app import main
    from mammamia_ref.queries.catalogue import docs

    rendered: list[int] = []

    def page(*args: Any, **kwargs: Any) -> str:
        rendered.append(1)
        return "# the page\n"

    monkeypatch.setattr(docs, "render_markdown", page)
    target = tmp_path / "queries.md"
    target.write_text("old page\n", encoding="utf-8")
    before = target.stat().st_ino
    assert main(["query", "docs", "-o", str(target)]) == 0
    assert target.read_text(encoding="utf-8") == "# the page\n"
    assert target.stat().st_ino != before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["queries.md"]
    rendered.clear()
    assert main(["query", "docs", "-o", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "it is a folder" in err and len(err.strip().splitlines()) == 1
    assert not rendered


def test_every_certified_answer_records_and_shows_its_full_search(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """A certified answer replays its committed witness by default; the catalogue records
    what its full search measured (``full_search.cpu_seconds``), and ``query run`` shows
    it beside the replay's cost, in the text and in the JSON."""
    from mammamia_ref.cli.query import print_result
    from mammamia_ref.queries.catalogue import run_query

    certified = [(q, a) for q in CATALOGUE for a in q["answers"] if a.get("certified")]
    assert len(certified) >= 11
    for _query, answer in certified:
        assert answer["full_search"]["cpu_seconds"] > 0 and answer["full_search"]["measured"]
    monkeypatch.delenv("MAMMAMIA_FULL_SEARCH", raising=False)
    query = next(q for q in CATALOGUE if q["id"] == "Q17-all-rounds-end-by-stall")
    recorded = next(a for a in query["answers"] if a["name"] == "cut_3p")["full_search"]
    result = run_query(query, answers=["cut_3p"])
    got = result.answers[0]
    assert got.full_search == {**recorded, "ran": False}
    assert result.as_json()["answers"][0]["full_search"]["cpu_seconds"] == \
        recorded["cpu_seconds"]
    print_result(result)
    text = capsys.readouterr().out
    assert f"the full search (--slow) took {recorded['cpu_seconds']:g} s of CPU" in text
    plain = next(a for a in query["answers"] if a["name"] == "letter")
    assert answer_query(query, plain).full_search is None   # not certified: nothing to show
