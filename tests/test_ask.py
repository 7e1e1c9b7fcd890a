"""``mammamia ask`` and the question format (``spec/questions/``)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

pytest.importorskip("z3")

import jsonschema

from mammamia_ref.cli.app import main
from mammamia_ref.cli.query import resolve_id
from mammamia_ref.formats.safeyaml import load_file
from mammamia_ref.queries.answering.ask import answer_cell, replay_witness
from mammamia_ref.queries.answering.searching import playout
from mammamia_ref.queries.catalogue.common import load_catalogue
from mammamia_ref.queries.catalogue.runner import answer_query
from mammamia_ref.queries.language.judging import holds
from mammamia_ref.queries.language.questions import (
    DERIVED,
    EVENTS,
    MEASURES,
    SCHEMA,
    STATE_KEYS,
    QuestionError,
    load_question,
)
from mammamia_ref.rules import specdata
from mammamia_ref.rules.state import make_config, variant_values
from mammamia_ref.rules.vocabulary import COLOURS, KINDS

QUESTIONS = Path(__file__).resolve().parent.parent / "spec" / "questions"

BAD = {
    "unknown event": ("find:\n  event: pizza_burnt\n", 3, "unknown event"),
    "unknown field": ("find:\n  event: baked\n  where: {colourr: red}\n", 4, "no field"),
    "unknown kind": ("find:\n  state: {count: hand, kind: anchovy, at_least: 1}\n", 3,
                     "unknown kind"),
    "unknown flag value": ("find: {event: baked}\nvariants:\n  stall: [never]\n", 4,
                           "has no value"),
    "contradictory bound": ("find: {event: baked}\nbound:\n  rounds: 3\n  turns: 2\n", 5,
                            "contradictory bound"),
    "not a number": ("most: winners\n", 2, "not a number"),
    "forcing": ("find: {event: baked}\nwhatever_the_others_do: true\n", 3,
                "beyond existential models"),
    "unknown flag": ("find: {event: baked}\nvariants:\n  stal: [cut]\n", 4, "unknown flag"),
    "unknown kind of an event": ("find:\n  event: played\n  where: {kind: anchovy}\n", 4,
                                 "unknown kind"),
    "unknown state field": ("find:\n  state: {count: hand, colour: red}\n", 3,
                            "not 'colour'"),
    "unknown rule": ("find:\n  event: baked\n  rule: oven.burn\n", 4, "unknown rule"),
    "contradictory count": ("find:\n  event: baked\n  at_least: 3\n  at_most: 1\n", 5,
                            "contradictory count"),
    "rounds beyond every game": ("find: {event: baked}\nbound:\n  rounds: 10\n", 4,
                                 "10 is greater than the maximum of 9"),
    "an optimum over a condition": ("most:\n  event: baked\n", 2,
                                    "a measure mapping has one of turns_until"),
    "an optimum over a count": ("fewest: 3\n", 2, "not a number"),
    # a measure is read off whole games: a part of one would be measured past its bound
    "an optimum within turns": ("most: turns\nbound:\n  turns: 30\n", 4,
                                "measures whole games"),
    "an optimum within rounds": ("fewest: baked\nbound: {games: 10, rounds: 1}\n", 3,
                                 "bound rounds: a fewest: measures whole games"),
    # what only the schema says (spec/schemas/question.schema.json)
    "schema: a round beyond three": ("find:\n  event: round_ended\n  where: {round: 7}\n",
                                     4, "7 is greater than the maximum of 3"),
    "schema: an order that is not a name": ("find:\n  event: baked\n  where: {order: 5}\n",
                                            4, "unknown order 5"),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_a_bad_question_is_one_error_with_file_and_line(case: str, tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str]
                                                        ) -> None:
    body, line, words = BAD[case]
    path = tmp_path / "q.yaml"
    path.write_text("question: bad\n" + body, encoding="utf-8")
    with pytest.raises(QuestionError) as caught:
        load_question(path)
    assert caught.value.line == line and words in str(caught.value)
    assert main(["ask", str(path)]) == 2   # before any solving: one line, no traceback
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and f"{path}:{line}" in err[0]


def test_the_schema_is_written_from_the_spec() -> None:
    """spec/schemas/question.schema.json is what tools/question_schema.py makes of the
    spec (run ``python -m mammamia_ref.tools.question_schema`` after changing it)."""
    from mammamia_ref.tools.question_schema import text

    assert specdata.spec_path(f"schemas/{SCHEMA}").read_text(encoding="utf-8") == text(), \
        "stale: python -m mammamia_ref.tools.question_schema"


def test_the_schema_mirrors_the_vocabulary_of_the_code() -> None:
    """spec/schemas/question.schema.json and questions.py name the same events and their
    fields, measures, kinds, seats, places, rules and flag values."""
    schema = specdata.load_schema(SCHEMA)
    defs = schema["$defs"]
    assert defs["condition"]["properties"]["event"]["enum"] == list(EVENTS)
    fields = {part["if"]["properties"]["event"]["const"]:
              set(part["then"]["properties"]["where"]["properties"])
              for part in defs["condition"]["allOf"] if "const" in str(part.get("if"))}
    assert fields == {name: set(f) | DERIVED.get(name, set()) for name, f in EVENTS.items()}
    assert defs["measure"]["oneOf"][0]["enum"] == list(MEASURES)
    # a kind or a seat, or a variable standing for one
    assert defs["state"]["properties"]["kind"]["anyOf"][0]["enum"] == list(KINDS)
    assert defs["state"]["properties"]["seat"]["anyOf"][0]["enum"] == ["any", "all", *COLOURS]
    assert set(defs["state"]["properties"]["count"]["enum"]) == STATE_KEYS
    assert set(defs["condition"]["properties"]["rule"]["enum"]) == \
        {r["id"] for r in specdata.rules()}
    flags = schema["properties"]["variants"]["properties"]
    assert {f: tuple(v["oneOf"][0]["enum"]) for f, v in flags.items()} == variant_values()


def test_every_shipped_question_file_is_valid_under_the_schema() -> None:
    files = sorted(QUESTIONS.glob("*.yaml"))
    validator = jsonschema.Draft202012Validator(specdata.load_schema(SCHEMA))
    for path in files:
        doc = load_file(path).data
        assert not list(validator.iter_errors(doc)), path
    assert len(files) >= 16


def test_every_shipped_question_file_is_well_formed() -> None:
    files = sorted(QUESTIONS.glob("*.yaml"))
    questions = list(map(load_question, files))
    assert len(questions) >= 43   # the catalogue's 22 stated, the designers' own
    assert all(q.title and q.title != q.id for q in questions)
    # a shipped file is named after its question (a scratch file left in spec/ is not)
    assert [f.stem for f in files] == [q.id for q in questions]


def test_a_file_that_restates_a_catalogue_query_is_told_to_state_its_condition(
        tmp_path: Path) -> None:
    path = tmp_path / "old.yaml"
    path.write_text("question: old\nrestates: Q04-all-orders-delivered\nmost: baked\n")
    with pytest.raises(QuestionError, match=r"old.yaml:2: restates: is gone"):
        load_question(path)


def test_a_search_finds_a_game_without_a_pizza_that_the_reference_replays() -> None:
    question = load_question(QUESTIONS / "new-no-pizza-bakes.yaml")
    got = answer_cell(question, 2, {}, budget=30, known=False)
    assert got.answer == "found" and got.reference == "agrees"
    assert got.scenario is not None and "setup" in got.scenario["given"]


def test_conditions_judge_a_played_game() -> None:
    game = playout(make_config(2), 0, "random")
    baked = sum(1 for _a, evs, _s in game.steps for e in evs if e.name == "baked")
    assert holds({"event": "baked", "at_least": baked}, game)
    assert not holds({"event": "baked", "at_least": baked + 1}, game)
    assert holds({"not": {"event": "baked", "at_least": baked + 1}}, game)
    assert holds({"state": {"count": "round", "at": "game_end", "equals": 3}}, game)


def test_query_ids_by_unambiguous_prefix() -> None:
    known = [q["id"] for q in load_catalogue()]
    assert resolve_id("Q05", known) == ["Q05-most-pizzas-one-opening"]
    assert len(resolve_id("Q1", known)) > 1
    assert resolve_id("Q99", known) == []


def test_q05_is_answered_from_a_game_at_two_to_five_players() -> None:
    """Q05 (the most orders one opening bakes, all players together): at every player
    count a game from a new deal that the reference replays, its value measured on that
    game, under the card count's proved bound (8, 10, 12, 14): exact at 2 to 4."""
    from mammamia_ref.queries.language.measures import measure

    query = next(q for q in load_catalogue() if q["id"] == "Q05-most-pizzas-one-opening")
    seen = {}
    for answer in query["answers"]:
        got = answer_query(query, answer)
        assert got.matches_expected and got.evidence == "game" and got.reference == "agrees"
        assert got.scenario is not None and "setup" in got.scenario["given"]
        assert measure("baked_one_opening", replay_witness(got.scenario)) == got.value
        seen[int(answer.get("players", 2))] = (got.value, got.upper)
    assert seen == {2: (8, 8), 3: (10, 10), 4: (12, 12), 5: (12, 14)}


def test_the_most_pizzas_of_one_opening_is_bounded_by_the_cards() -> None:
    """``ask``'s proved bound of ``baked_one_opening``: the card count (Q05's), not the
    sum of each colour's own bound (21, 32, 40 at 3 to 5 players)."""
    from mammamia_ref.queries.answering.ask import upper_bound
    from mammamia_ref.rules.ruleset import make_rules

    def bound(players: int, **parameters: object) -> tuple[int, str] | None:
        proved = upper_bound("baked_one_opening", players, make_rules(parameters=parameters))
        return None if proved is None else (proved.value, proved.evidence)

    assert [bound(n) for n in (2, 3, 4, 5)] == \
        [(8, "statement"), (10, "statement"), (12, "statement"), (14, "statement")]
    # under a house rule's numbers the count is the game's: more cards in play at two
    # players without the trimming, cheaper orders with smaller counts
    assert bound(2, trimming={"2": 0}) == (13, "statement")
    assert bound(2, minimale_count=1, standard_count=2) == (12, "statement")
    proved = upper_bound("baked_one_opening", 3, make_rules())
    assert proved is not None and "of the 50 in play" in proved.how, proved


def test_witnesses_are_written_under_the_current_folder(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    """``ask --write-witnesses`` writes the games a search finds under the current
    folder's scenarios/ask/, as its help says, never into the package or checkout."""
    from mammamia_ref.queries.catalogue.results import ROOT

    question = tmp_path / "q.yaml"
    question.write_text("question: nothing-bakes\nfind:\n  all:\n    - not: {event: baked}\n"
                        "    - {event: game_ended}\nplayers: [2]\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert main(["ask", str(question), "--write-witnesses", "--budget", "30"]) == 0
    assert (tmp_path / "scenarios" / "ask" / "ask-nothing-bakes-2p.yaml").is_file()
    assert not (ROOT / "scenarios" / "ask").exists()


def test_the_event_fields_are_the_keys_the_reference_gives() -> None:
    """A condition's ``where:`` tests the keys the reference's events carry: every event
    of the vocabulary, as played in seeded games at 2 to 5 players under both leftovers
    rules (and the last-ingredient round end, where the Mamma Mia! card is taken), has
    exactly the fields the vocabulary names (an ingredient's ``revealed`` has only
    ``card``), and every event of the vocabulary occurs (so no name is a dead one)."""
    from mammamia_ref.queries.answering.searching import playout
    from mammamia_ref.rules.state import make_config

    seen: dict[str, set[frozenset[str]]] = {}
    for variants in ({"leftovers": "table"},
                     {"leftovers": "oven", "round_end": "last_ingredient"}):
        for players in (2, 3, 4, 5):
            for seed in range(3):
                game = playout(make_config(players, variants=variants), seed, "random")
                for _a, events, _s in game.steps:
                    for e in events:
                        if e.name in EVENTS:
                            seen.setdefault(e.name, set()).add(
                                frozenset(k for k, _v in e.data))
    for name, keys in seen.items():
        assert all(k <= EVENTS[name] for k in keys), (name, keys)
        assert set().union(*keys) == EVENTS[name], (name, keys)
    assert set(seen) == set(EVENTS)


def test_none_within_the_bound_comes_from_z3_and_names_the_bound() -> None:
    """Two orders cannot bake in the first three turns of a two-player game: the search
    finds none (it judges only the part of each game within the bound), and z3 proves
    it over every schedule of the bound."""
    question = load_question(QUESTIONS / "new-two-bakes-early.yaml")
    got = answer_cell(question, 2, {}, budget=10)
    assert got.answer == "none within the bound", got.tried
    assert got.judged_on == "the first 1 round(s) of a game and its first 3 turns"
    # a turns bound makes the schedules finite: the game model goes first and settles it,
    # with no search spent on a cell a search can never answer "none"
    assert "every one of the" in got.detail and "seeded games" not in got.tried
    assert got.witness_file is None and got.as_json()["judged_on"] == got.judged_on


def test_a_search_judges_only_the_part_of_a_game_within_the_bound() -> None:
    """:func:`within` cuts a game where the turn after the bound begins; a condition
    judged on whole games is judged only on a game that fits the bound."""
    from mammamia_ref.queries.language.judging import within

    game = playout(make_config(2), 0, "random")
    turns = sum(1 for _a, evs, _s in game.steps for e in evs if e.name == "turn_begins")
    part = within(game, {"turns": 3})
    assert part is not None
    assert sum(1 for _a, evs, _s in part.steps for e in evs if e.name == "turn_begins") == 3
    assert within(game, {"turns": turns}) == game
    assert within(game, {"turns": turns - 1}, whole=True) is None
    first = within(game, {"rounds": 1})
    assert first is not None and len(first.steps) < len(game.steps)
    assert {e.get("round") for _a, evs, _s in first.steps for e in evs
            if e.name in ("turn_begins", "round_ended")} == {1}


def test_z3_finds_what_the_search_does_not() -> None:
    """A first round ending by the stall rule after the Mamma Mia! card was drawn:
    no seeded game of a short search has it, the game model finds one, which the
    reference replays and on which the condition holds."""
    question = load_question(QUESTIONS / "new-stall-after-the-draw.yaml")
    got = answer_cell(question, 2, {}, budget=10, known=False)
    assert got.answer == "found" and got.reference == "agrees", got.tried
    assert "z3 game model, schedule" in got.tried and got.condition_holds
    assert got.scenario is not None and "z3 game model" in got.scenario["description"]
    assert holds(question.condition or {}, replay_witness(got.scenario))


def test_a_directed_search_keeps_a_game_the_reference_replays_with_its_value() -> None:
    """The climb plays the best game again from a point along it: the game it keeps
    is one game from a new deal, every shuffle explicit, whose measure is the value."""
    from mammamia_ref.queries.language.measures import measure

    question = load_question(QUESTIONS / "new-longest-round.yaml")
    got = answer_cell(question, 2, {"stall": "cut"}, budget=4, known=False)
    assert got.answer == "value" and got.reference == "agrees" and got.scenario is not None
    assert "a directed search from the game of" in got.tried and "known" not in got.tried
    assert measure("longest_round", replay_witness(got.scenario)) == got.value
    assert got.upper is not None and got.value is not None and got.value <= got.upper


@pytest.mark.parametrize("players", [2, 3, 5])
def test_the_fast_screen_measures_the_games_the_reference_plays(players: int) -> None:
    """The fast engine's measure of a seeded random game is the reference's measure of
    the game of the same seed and policy, which is the one reported; and the fast
    engine plays the same game as its benchmark loop."""
    from mammamia_ref.queries.answering.searching import FAST_MEASURES, fast_on
    from mammamia_ref.queries.language.measures import measure
    from mammamia_ref.rules.game import new_game
    from mammamia_ref.rules.ruleset import make_rules
    from mammamia_ref.sim.fast import play_random_game

    for flags in ({}, {"round_end": "last_ingredient"}):
        config = make_config(players, variants=make_rules(flags))
        for seed in range(12):
            state, turns = fast_on(new_game(config), f"fast-{seed}")
            game = playout(config, f"fast-{seed}", "random")
            for name, of in FAST_MEASURES.items():
                assert of(state, turns) == measure(name, game), (flags, name, seed)
            assert state.delivered == play_random_game(config, f"fast-{seed}").state.delivered


@pytest.mark.parametrize("flags", [{}, {"round_end": "last_ingredient"}, {"stall": "letter"}])
def test_a_fast_continuation_is_the_references(flags: dict[str, str]) -> None:
    """The climb's fast continuation from a point of a game is the game the reference
    plays on from there with the same seed: the same measures of the whole game."""
    from mammamia_ref.queries.answering.searching import FAST_MEASURES, fast_on
    from mammamia_ref.queries.language.measures import measure
    from mammamia_ref.rules.ruleset import make_rules

    for players in (2, 4):
        config = make_config(players, variants=make_rules(flags))
        for seed in range(6):
            base = playout(config, seed, ("random", "careful")[seed % 2])
            for cut in (1, len(base.steps) // 3, len(base.steps) // 2):
                prefix = dataclasses.replace(base, steps=base.steps[:cut])
                before = sum(1 for _a, evs, _s in prefix.steps for e in evs
                             if e.name == "turn_begins")
                state, after = fast_on(prefix.steps[-1][2], f"c{seed}")
                game = playout(config, f"c{seed}", "random", after=prefix)
                for name, of in FAST_MEASURES.items():
                    assert of(state, before + after) == measure(name, game), (name, seed, cut)


WITNESSES = Path(__file__).resolve().parent.parent / "docs" / "ask"


@pytest.mark.parametrize("path", sorted(WITNESSES.glob("*.yaml")), ids=lambda p: p.stem)
def test_a_committed_witness_of_a_designer_question_replays_with_its_answer(
        path: Path) -> None:
    """docs/ask/ holds the games ``ask --write-witnesses`` found for the designer
    questions (the closing notes cite them): each replays on the reference from a new
    deal, and its question's condition holds on it within the bound, or its measure is
    the value its title gives, or grows without end where its title says "no most"."""
    from mammamia_ref.queries.answering.witness import reference_replay
    from mammamia_ref.queries.language.judging import meets
    from mammamia_ref.queries.language.measures import measure

    doc = load_file(path).data
    passed, failure, _fired = reference_replay(doc, path.name)
    assert passed, failure
    qid = doc["tags"][1]
    files = [*QUESTIONS.glob("*.yaml"), *(QUESTIONS.parent.parent / "examples" /
                                         "questions").glob("*.yaml")]
    question = next(q for q in map(load_question, files) if q.id == qid)
    game = replay_witness(doc)
    assert game.config.players == doc["given"]["setup"]["players"]
    if question.condition is not None:
        assert meets(question.condition, game, question.bound)
    elif doc["title"].endswith(": no most"):   # a measure that grows without end
        from mammamia_ref.queries.answering.unending import grows

        assert grows(question, game) is not None
    else:
        value = int(doc["title"].rsplit(": ", 1)[1])
        assert measure(str(question.measure), game, question.goal) == value


def test_verify_says_which_scenarios_it_ran(tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """After ``ask --write-witnesses`` the current folder has a scenarios/ folder, which
    ``verify`` then reads by default: its line says so, and names the package's suite
    otherwise."""
    from mammamia_ref.formats.scenario import packaged_suite
    from mammamia_ref.tools.verify import _where

    assert _where([str(packaged_suite())]) == "the suite shipped with the package"
    monkeypatch.chdir(tmp_path)
    assert "the current folder's scenarios/" in _where(["scenarios"])
    assert _where(["mine", "theirs.yaml"]) == "from mine, theirs.yaml"


def test_a_game_the_reference_does_not_replay_leaves_the_answer_as_it_was(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The game model's game, or a game that grows without end, is kept only where the
    reference replays it; else every field a witness sets is as before (a game it does
    not replay must not stand, even in part, for the one found before)."""
    from mammamia_ref.queries.answering import ask, witness
    from mammamia_ref.queries.answering.answer import AskAnswer

    question = load_question(QUESTIONS / "new-no-pizza-bakes.yaml")
    game = playout(make_config(2), 3, "random")
    out = AskAnswer("q", 2, {})
    assert ask._kept(question, game, out, "found", "t") and out.reference == "agrees"
    before = dataclasses.asdict(out)
    monkeypatch.setattr(witness, "reference_replay", lambda *_a: (False, "refused", []))
    other = playout(make_config(2), 4, "careful")
    assert not ask._kept(question, other, out, "found", "t")
    assert dataclasses.asdict(out) == before
