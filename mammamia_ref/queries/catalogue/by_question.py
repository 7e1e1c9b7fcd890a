"""The catalogue's queries that have no module of their own (``method: question`` in
``spec/queries.yaml``): each is answered by its question file,
``spec/questions/<its id>.yaml``, through ``mammamia ask``'s route, so the catalogue
and a designer's question are answered by one definition.

By default a cell with a committed witness (``scenarios/queries/``) has that game
replayed by the reference and judged by the question's own condition or measure (the
certificate re-checked, as for every certified answer); ``MAMMAMIA_FULL_SEARCH=1`` or
``query run --slow`` asks the route from scratch, the known games left out, so that the
certificate is not its own proof. A cell without one (an impossibility) is asked: the
unbounded proof answers it in about a second.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mammamia_ref.formats.house import HouseRule
from mammamia_ref.queries.catalogue.common import (
    answer_rules,
    base_doc,
    certificate,
    full_search,
    players_of,
)
from mammamia_ref.queries.catalogue.registry import register_method
from mammamia_ref.queries.catalogue.results import Verdict
from mammamia_ref.queries.language.judging import Played
from mammamia_ref.queries.language.questions import Question
from mammamia_ref.queries.model.flags import model_rules
from mammamia_ref.rules.ruleset import Rules

BUDGET = 60.0
"""CPU seconds a cell may take when asked from scratch (issue 40's budget for a
catalogue-size question at 2 and 3 players), unless its answer's ``full_search: budget``
in ``spec/queries.yaml`` gives more (a game of more players the route reaches later)."""


@register_method("question")
def answer_by_question(query: Mapping[str, Any], answer: Mapping[str, Any]) -> Verdict:
    """One cell of a ``method: question`` query."""
    from mammamia_ref.queries.answering.ask import answer_cell
    from mammamia_ref.queries.language.questions import load_question
    from mammamia_ref.rules import specdata

    if answer.get("house"):   # under a house rule, a flag the game model does not follow
        model_rules("game_model", answer_rules(answer))   # refuses (VariantError)
    question = _under_numbers(load_question(specdata.spec_path("questions")
                                            / f"{query['id']}.yaml"), answer)
    numbers = bool(answer.get("parameters"))   # a committed game is of the spec's numbers
    doc = None if full_search() or numbers else certificate(query, answer)
    if doc is not None:
        return certificate_judged(question, players_of(answer), doc, answer_rules(answer))
    budget = float((answer.get("full_search") or {}).get("budget", BUDGET))
    got = answer_cell(question, players_of(answer), dict(answer.get("variants") or {}),
                      budget, known=False)
    witness = None
    if got.scenario is not None and got.reference == "agrees":   # the catalogue's witness:
        scenario = got.scenario   # its id, tags, disputes and the query's rules
        witness = {**scenario, **base_doc(query, answer, scenario["title"],
                                          scenario["description"],
                                          query.get("rules") or scenario["rules"])}
    if got.answer == "found":
        return Verdict("sat", witness=witness, detail=f"found by {got.found_by}; {got.tried}")
    if got.answer == "unbounded":   # no most: a game whose measure grows without end
        return Verdict("sat", witness=witness, detail=f"{got.detail}; found by {got.found_by}")
    if got.answer == "none in any game":
        return Verdict("unsat", evidence=got.evidence or "induction", detail=got.detail)
    if got.answer == "none within the bound":
        return Verdict("unsat", evidence="bound", detail=got.detail)
    if got.answer == "value" and got.value is not None:
        return Verdict("value", value=got.value, witness=witness, upper=got.upper,
                       upper_evidence=got.upper_evidence, detail=got.tried)
    return Verdict("unknown", detail=f"not settled within {budget:g} s of CPU: {got.tried}")


def _under_numbers(question: Question, answer: Mapping[str, Any]) -> Question:
    """Under a house rule's numbers (``query run --house``, :func:`.runner.under_house`;
    only a query with ``house_numbers: true`` gets here so): the question asked under the
    answer's rules, a count written as a number of the rules read under them."""
    if not answer.get("parameters"):
        return question
    name = str(answer.get("house") or "a house rule")
    return question.with_house(HouseRule(name, "", "query run --house", answer_rules(answer),
                                         (players_of(answer),)))


def certificate_judged(question: Question, players: int, doc: dict[str, Any],
                       rules: Rules) -> Verdict:
    """The committed witness replayed by the reference and judged by the question: its
    condition must hold on one of its runs (each a game from the same deal, the
    decisions apart), or the best run's measure is the value (with the proved bound).
    Every run must be a game of the cell: its players and exactly its ``rules``."""
    from mammamia_ref.queries.answering.ask import upper_bound
    from mammamia_ref.queries.answering.known_games import of_cell
    from mammamia_ref.queries.answering.unending import grows
    from mammamia_ref.queries.language.judging import meets
    from mammamia_ref.queries.language.measures import measure

    games, failure = _games_of(doc)
    if failure:
        return Verdict("unknown", detail=f"the committed witness does not replay: {failure}")
    other = [name for name, game in games if not of_cell(game, players, rules)]
    if other:
        return Verdict("unknown", detail=f"the committed witness (run {', '.join(other)}) "
                       "is not a game of this cell: other players or rules")
    recheck = "certificate re-checked: the committed witness replays"
    if question.condition is not None:   # a find: question
        condition = question.condition
        met = [name for name, game in games if meets(condition, game, question.bound)]
        if not met:
            return Verdict("unknown", detail="no run of the committed witness meets the "
                           "question's condition")
        runs = f" (run {', '.join(met)})" if len(games) > 1 else ""
        return Verdict("sat", witness=doc, detail=f"{recheck} and meets the question's "
                       f"condition{runs} (the full route: MAMMAMIA_FULL_SEARCH=1 or --slow)")
    proved = upper_bound(question.measure, players, games[0][1].config.rules) \
        if question.goal == "most" else None
    endless = next(((name, e) for name, game in games if (e := grows(question, game))),
                   None) if question.goal == "most" and proved is None else None
    if endless is not None:   # a most: with none (Q24's letter): a run that grows for ever
        name, grown = endless
        runs = f" (run {name})" if len(games) > 1 else ""
        return Verdict("sat", witness=doc, detail=f"{recheck}{runs}; {grown.said()}")
    measured = [m for m in (measure(question.measure, game, question.goal) for _n, game in games)
                if m is not None]
    if not measured:
        return Verdict("unknown", detail="the committed witness has no measure")
    value = max(measured) if question.goal == "most" else min(measured)
    return Verdict("value", value=value, witness=doc,
                   upper=proved.value if proved else None,
                   upper_evidence=proved.evidence if proved else None,
                   detail=f"{recheck}; its measure is the value" +
                   (f"; bound: {proved.how}" if proved else ""))


def _games_of(doc: dict[str, Any]) -> tuple[list[tuple[str, Played]], str]:
    """Each run of a witness from a new deal, as the game the reference plays, and the
    first run's divergence from what the witness expects ("" when every run passes)."""
    from mammamia_ref.queries.answering.known_games import played_runs
    from mammamia_ref.queries.answering.witness import parsed_witness

    runs = played_runs(parsed_witness(doc, f"{doc['id']}.yaml"))
    failed = next((r for r, _game in runs if not r.passed), None)
    if failed is not None:
        return [], f"run {failed.run}, step {failed.step}: {failed.failure}"
    return [(r.run, game) for r, game in runs], ""
