"""House rules as data: the typed rules value, the numbers of the rules as per-game
parameters, and a designer's house-rule file (docs/house-rules.md)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from mammamia_ref.errors import InvalidStateError, MalformedError, VariantError
from mammamia_ref.formats.house import HouseRuleError, load_house
from mammamia_ref.formats.jsonform import format_state, parse_state
from mammamia_ref.rules import specdata
from mammamia_ref.rules.ruleset import default_rules, make_rules
from mammamia_ref.rules.state import make_config, refuse_unclaimed
from mammamia_ref.sim import careful
from mammamia_ref.sim.impact import load_sweep
from mammamia_ref.sim.simulate import simulate
from mammamia_ref.tools import typed_spec
from tests.test_fast_equivalence import play_both

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples" / "house-rules"


def test_the_typed_module_is_what_the_spec_generates() -> None:
    """rules/typed_spec.py is generated: a flag, value or parameter added to the spec
    without running the generator fails here."""
    assert typed_spec.TARGET.read_text(encoding="utf-8") == typed_spec.render(), \
        "mammamia_ref/rules/typed_spec.py is stale (the spec's flags or parameters changed); " \
        "write it again with: python -m mammamia_ref.tools.typed_spec"


def test_the_defaults_are_the_spec_numbers() -> None:
    cards = specdata.cards()
    numbers = default_rules().parameters_dict()
    assert numbers["hand_limit"] == cards["hand_limit"] == 7
    assert numbers["bombastica_total"] == cards["order_types"]["bombastica"]["total"]
    assert numbers["trimming"] == {k: v for k, v in cards["trimming"].items()}
    assert default_rules().is_default() and make_rules() == default_rules()
    assert default_rules().describe() == "the default rulings and parameters"


@pytest.mark.parametrize("name, value, why", [
    ("hand_limit", 0, "from 1 to 20"),
    ("bombastica_total", 100, "from 1 to 65"),
    ("monotoni_count", 0, "from 1 to 13"),
    ("hand_limit", "8", 'not the text "8"'),
    ("hand_limit", True, "not the yes/no value true"),
    ("hand_limit", None, "not nothing"),
    ("trimming", {"6": 1}, "player count"),
    ("hand_size", 8, "unknown parameter"),
])
def test_a_parameter_out_of_range_is_refused_by_name(name: str, value: object, why: str) -> None:
    with pytest.raises(VariantError, match=why) as caught:
        make_rules(parameters={name: value})
    assert caught.value.flag == name


def test_the_examples_load_and_name_themselves() -> None:
    house = load_house(EXAMPLES / "hand-of-eight.yaml")
    assert house.rules.house == "hand of eight"
    assert house.rules.parameters.hand_limit == 8
    assert house.players == (2, 3, 4, 5)
    assert "hand_limit=8" in house.rules.describe()
    assert load_house(EXAMPLES / "short-bombastica.yaml").rules.parameters.bombastica_total == 12


BAD_FILES = {
    "hand limit of 0": ("name: x\nparameters:\n  hand_limit: 0\n", 3, "hand_limit"),
    "Bombastica of 100": ("name: x\nparameters:\n  bombastica_total: 100\n", 3,
                          "bombastica_total"),
    "Monotoni of 0": ("name: x\npurpose: y\nparameters: {monotoni_count: 0}\n", 3,
                      "monotoni_count"),
    "unknown flag": ("name: x\nvariants:\n  refil: to_seven\n", 3, "refil"),
    "unknown value": ("name: x\nvariants:\n  refill: to_eight\n", 3, "refill"),
    "unknown key": ("name: x\nparams: {}\n", 2, None),
    "no name": ("parameters: {hand_limit: 8}\n", 1, None),
    "more dealt than exist": ("name: x\nparameters:\n  trimming: {'2': 12, '3': 12, '4': 12, "
                              "'5': 12}\n", 3, "trimming"),
}


@pytest.mark.parametrize("case", BAD_FILES, ids=list(BAD_FILES))
def test_a_bad_house_file_is_one_error_with_its_line(tmp_path: Path, case: str) -> None:
    text, line, name = BAD_FILES[case]
    path = tmp_path / "house.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(HouseRuleError) as caught:
        load_house(path)
    assert caught.value.file == str(path) and caught.value.line == line, str(caught.value)
    assert caught.value.name == name
    if name:
        assert name in str(caught.value)


PLAIN_WORDS = {  # a file's fault, and what the message must say in a designer's words
    "name: x\nparameters: {hand_limit: '8'}\n": 'not the text "8" (write the number',
    "name: x\nparameters: {hand_limit: true}\n": "not the yes/no value true",
    "name: x\nparameters: {hand_limit: null}\n": "not nothing (an empty value)",
    "name: x\nparameters: {trimming: {'2': x}}\n": 'for 2 players must be a whole number',
    "name: x\nparameters: [1]\n": "parameters is a map from a parameter's name",
    "name: x\nvariants: {refill: true}\n": "takes one of to_seven, as_many_as_played, not the "
                                            "yes/no value true",
    "name: x\nvariants: {refill: to_sevn}\n": "did you mean to_seven?",
    "name: x\nvariants: {refil: to_seven}\n": "did you mean refill?",
    "name: x\nparameters: {hand_limt: 8}\n": "did you mean hand_limit?",
    "name: x\nparamters: {hand_limit: 8}\n": "did you mean parameters?",
    "name: 5\n": "name must be text, not 5 (put it in quotes)",
    "name: true\n": "not the yes/no value true",
    "name:\n": "name must be text, not nothing",
    "name: x\npurpose: null\n": "purpose must be text, not nothing",
    "- a\n": "a house rule is a map with the keys name, purpose, parameters and variants",
}


@pytest.mark.parametrize("text", PLAIN_WORDS, ids=list(range(len(PLAIN_WORDS))))
def test_a_bad_house_file_is_said_in_plain_words(tmp_path: Path, text: str) -> None:
    """No Python spelling (True, None, '8', {'2': ...}) and no schema jargon."""
    path = tmp_path / "house.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(HouseRuleError) as caught:
        load_house(path)
    said = str(caught.value)
    assert PLAIN_WORDS[text] in said, said
    for python in ("True", "None", "'8'", "{'", "schemas", "is not of type", "not valid"):
        assert python not in said, said


def test_the_command_line_says_it_in_one_line_before_any_game(tmp_path: Path) -> None:
    path = tmp_path / "house.yaml"
    path.write_text(BAD_FILES["Bombastica of 100"][0], encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "mammamia_ref", "simulate", "--players", "2",
                           "--games", "5", "--house", str(path)], capture_output=True,
                          text=True, check=False)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.splitlines() == [
        f"mammamia: error: {path}:3: parameter bombastica_total must be a whole number from 1 "
        "to 65 (oven.bombastica), not 100"]


def test_a_deck_that_cannot_serve_one_player_count_is_refused_there() -> None:
    rules = make_rules(parameters={"starting_ingredients": 13}, house="deal of thirteen")
    make_config(2, variants=rules)  # 26 of 40 cards
    with pytest.raises(VariantError, match=r"house rule 'deal of thirteen'.*setup\.deal"):
        make_config(5, variants=rules)  # 65 of 65: nothing left for the supply


def test_a_state_only_a_house_rule_allows() -> None:
    """A hand of eight is legal under hand_limit=8 and refused, with the rule, without."""
    config = make_config(2, variants=make_rules(parameters={"hand_limit": 8}))
    from mammamia_ref.rules.game import new_game

    doc = format_state(new_game(config))
    assert doc["parameters"] == {"hand_limit": 8}
    doc["phase"], doc["step"] = "turn", "play"
    doc["players"][0]["hand"]["ingredients"]["salami"] = 8
    doc["supply"] = [c for c in doc["supply"] if c != "salami"][:0] + ["mamma_mia"]
    # put the salami where they are counted: 8 in hand, the rest in the used pile
    total_salami = 13 - doc["box"]["salami"]
    doc["used"] = {"salami": total_salami - 8, "pineapple": 13 - doc["box"]["pineapple"],
                   "mushroom": 13 - doc["box"]["mushroom"], "pepper": 13 - doc["box"]["pepper"],
                   "olive": 13 - doc["box"]["olive"]}
    doc["players"][0]["waiter"] = doc["players"][0]["waiter"]
    assert parse_state(doc).parameters.hand_limit == 8
    del doc["parameters"]
    with pytest.raises(InvalidStateError) as caught:
        parse_state(doc)
    assert caught.value.rule == "turn.draw"


def test_an_unknown_parameter_in_a_state_is_refused() -> None:
    doc = format_state(__import__("mammamia_ref.rules.game", fromlist=["new_game"]).new_game(
        make_config(2)))
    doc["parameters"] = {"hand_size": 8}
    with pytest.raises(MalformedError, match="unknown parameter"):
        parse_state(doc)


@pytest.mark.parametrize("parameters", [
    {"hand_limit": 6}, {"hand_limit": 8}, {"bombastica_total": 12},
    {"bombastica_total": 18}, {"rounds": 2}, {"starting_ingredients": 5, "starting_orders": 2},
    {"monotoni_count": 4, "minimale_count": 2, "standard_count": 3},
    {"trimming": {"2": 2, "3": 1}},
], ids=lambda p: ",".join(f"{k}={v}" for k, v in p.items()))
@pytest.mark.parametrize("players", [2, 4])
def test_the_fast_engine_plays_the_reference_game_under_a_parameter(
        parameters: dict[str, object], players: int) -> None:
    rules = make_rules(parameters=parameters)
    for seed in range(3):
        assert play_both(players, rules, seed) > 0


def test_the_players_take_every_number_of_the_rules() -> None:
    """The policies claim every parameter (``models`` in spec/cards.yaml), and the careful
    player's judgement reads the game's numbers (its recipes: tests/test_careful_fast.py)."""
    for name, number in (("monotoni_count", 4), ("standard_count", 3), ("minimale_count", 2),
                         ("bombastica_total", 12)):
        rules = make_rules(parameters={name: number})
        refuse_unclaimed("policies", rules)
        refuse_unclaimed("fast", rules)
    assert careful.Judgement.of(make_rules(parameters={"bombastica_total": 12})) \
        .bombastica_total == 12


def test_a_sweep_names_its_house_rule_and_parameters() -> None:
    house = load_house(EXAMPLES / "hand-of-eight.yaml")
    summary = simulate(3, 20, variants=house.rules, policies=("careful",))
    doc = summary.as_json()
    assert doc["house"] == "hand of eight" and doc["parameters"]["hand_limit"] == 8
    again = simulate(3, 20, policies=("careful",))
    assert again.as_json()["parameters"]["hand_limit"] == 7
    assert summary.digest() != again.digest()  # the hand limit changes the games


SWEEP_DIR = ROOT / "docs" / "house-rules"
HOUSE_SWEEPS = [load_sweep(path) for path in sorted(SWEEP_DIR.glob("*.json"))]


def _ruling_rules(sweep: dict[str, Any], ruling: dict[str, Any]) -> Any:
    """The rules a recorded ruling was played under: a parameter's value, or a flag's."""
    name, value = ruling["flag"], ruling["value"]
    base = make_rules(sweep["base_variants"], sweep.get("base_parameters") or {})
    if name in default_rules().parameters_dict():
        return make_rules(parameters={name: int(value)}, base=base)
    return make_rules({name: value}, base=base)


def test_the_three_house_rules_are_swept_with_random_and_careful_players() -> None:
    swept = {(c["dispute"], tuple(sorted(set(s["policies"])))) for s in HOUSE_SWEEPS
             for c in s["disputes"]}
    for name in ("hand_limit", "bombastica_total", "draw_piles"):
        for policy in ("careful", "random"):
            assert (name, (policy,)) in swept, (name, policy)
    assert all(r["games"] == 10_000 for s in HOUSE_SWEEPS for c in s["disputes"]
               for r in c["rulings"])


@pytest.mark.parametrize("sweep", HOUSE_SWEEPS, ids=[s["file"] for s in HOUSE_SWEEPS])
def test_the_recorded_house_sweeps_still_describe_the_code(sweep: dict[str, Any]) -> None:
    """The first 10 games of every value replay to the recorded digest: a change to a
    model that reads a parameter or the flag shows here as a stale sweep."""
    checked = 0
    for comparison in sweep["disputes"]:
        for ruling in comparison["rulings"]:
            check = ruling["quick_check"]
            first = simulate(sweep["players"], check["games"], seed=sweep["seed"],
                             variants=_ruling_rules(sweep, ruling),
                             policies=sweep["policies"])
            assert first.digest() == check["digest"], \
                f"{ruling['flag']}={ruling['value']}: docs/house-rules/{sweep['file']} is " \
                f"stale; rerun: {sweep['command']}"
            checked += 1
    assert checked >= 2


def test_the_house_rules_page_shows_every_sweep() -> None:
    from mammamia_ref.site.house_pages import house_page
    from mammamia_ref.site.inputs import load_corpus

    corpus = load_corpus([ROOT / "scenarios" / "house"])
    page = house_page(corpus, HOUSE_SWEEPS)
    for name in ("hand_limit", "bombastica_total", "draw_piles"):
        assert f"## {name}" in page
    assert "hand_limit=7 (the spec's)" in page and "draw_piles=one (the spec's)" in page
    assert "scenarios/house/hand-limit.yaml" in page
    assert page.count("10,000 games a value") == len(
        [c for s in HOUSE_SWEEPS for c in s["disputes"]])


def test_the_simple_player_guesses_from_the_game_s_order_counts() -> None:
    """A Monotoni looks covered once the oven holds twice its count, a Minimale once it
    holds its count of four kinds: 12 cards each under the spec's numbers, 10 and 8 under
    a house rule's Monotoni of 5 and Minimale of 2."""
    from types import SimpleNamespace

    from mammamia_ref.sim.policies import _looks_covered

    def covered(order: str, played: int, **numbers: int) -> bool:
        seen = SimpleNamespace(rules=make_rules(parameters=numbers), table=(0,) * 5)
        return _looks_covered(order, (played, 0, 0, 0, 0), seen)  # type: ignore[arg-type]

    assert not covered("red.monotoni", 10) and covered("red.monotoni", 12)
    assert covered("red.monotoni", 10, monotoni_count=5)
    assert not covered("red.minimale", 8) and covered("red.minimale", 12)
    assert covered("red.minimale", 8, minimale_count=2)


def test_a_short_value_is_quoted_whole_whatever_its_words() -> None:
    """A value that is not cut is quoted escaped, even one that reads like the excerpt's
    own mark; a long one is cut and marked."""
    from mammamia_ref.rules.ruleset import plain

    assert plain("an excerpt") == 'the text "an excerpt"'
    assert plain("a\tb") == 'the text "a\\tb"'
    assert plain("a" * 50).endswith("(an excerpt: 32 of 50 characters)")
