"""``mammamia compare`` in a designer's words: the house rule named with its numbers, the
spec's and the house rule's values marked, figures to two significant digits, p below
0.001 said so, rows that never differ left out, one parameter at a time, "did you mean",
and a progress bar that says which value of how many and the time left."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from mammamia_ref.cli.app import main
from mammamia_ref.rules.ruleset import make_rules
from mammamia_ref.sim.compare import compare, compare_parameter, format_comparison
from mammamia_ref.sim.simulate import Progress


@pytest.fixture(scope="module")
def under_a_house_rule() -> str:
    base = make_rules(parameters={"monotoni_count": 5}, house="five monotoni")
    doc = compare_parameter("monotoni_count", (5, 6, 7), 4, 120, policies=("careful",),
                            base=base).as_json(check_games=5, quick_check_games=5)
    return format_comparison(doc)


def test_the_house_rule_is_named_with_its_numbers(under_a_house_rule: str) -> None:
    lines = under_a_house_rule.splitlines()
    assert lines[0] == ("monotoni_count: 4 players, 120 games per value on the same seeds "
                        "(from 0), careful players")
    assert lines[1] == "over house rule 'five monotoni': monotoni_count=5"
    assert "(default)" not in under_a_house_rule


def test_the_spec_s_and_the_house_rule_s_values_are_marked(under_a_house_rule: str) -> None:
    assert "monotoni_count: 5, your house rule's value, against 6, the spec's value" \
        in under_a_house_rule
    assert "monotoni_count: 5, your house rule's value, against 7\n" in under_a_house_rule
    assert re.search(r"measure +5 \(house\) +6 \(spec\)", under_a_house_rule)


def test_figures_have_two_significant_digits_and_small_p_is_said_so(
        under_a_house_rule: str) -> None:
    rows = [line for line in under_a_house_rule.splitlines() if "(" in line and " to " in line]
    assert rows
    for row in rows:
        difference = re.search(r"  ([+-][\d.]+)( points)? \(([+-][\d.]+) to ([+-][\d.]+)\)", row)
        assert difference, row
        figures = row.rpartition(" p ")[0]
        places = [len(n.partition(".")[2]) for n in difference.group(1, 3, 4)]
        assert len(set(places)) == 1, row  # the difference and its interval alike
        digits = len(difference.group(1).lstrip("+-").replace(".", "").lstrip("0"))
        assert digits <= 2 or places[0] == 0, row  # two significant digits (or whole)
        assert not re.search(r"\d\.\d{4}", figures), row
        assert re.search(r" p (< 0\.001|= [\d.]+)$", row), row
    assert "e-" not in under_a_house_rule and "p < 0.001" in under_a_house_rule


def test_a_row_the_same_in_every_game_is_left_out_and_named(under_a_house_rule: str) -> None:
    """A careful player's game never stalls for ever: that row says nothing."""
    assert "the same in every game, left out: " in under_a_house_rule
    left_out = [line for line in under_a_house_rule.splitlines() if "left out" in line]
    assert all("games stalled for ever" in line for line in left_out)
    assert not any(line.lstrip().startswith("games stalled for ever")
                   for line in under_a_house_rule.splitlines())


def test_a_dispute_s_rulings_are_marked_too() -> None:
    base = make_rules({"refill": "as_many_as_played"}, house="as played")
    text = format_comparison(compare("D3", 3, 60, base=base).as_json(check_games=5,
                                                                     quick_check_games=5))
    assert "over house rule 'as played': refill=as_many_as_played" in text
    assert "refill: to_seven, the spec's ruling, against as_many_as_played, your house " \
        "rule's ruling" in text


def _cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["compare", "--players", "3", "--games", "20", "--no-progress", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_one_dispute_is_one_dispute(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _cli(capsys, "D3")
    assert code == 0 and re.search(r"\n1 dispute compared in [\d.]+ s\n$", out), out[-80:]


def test_two_parameters_are_refused_plainly(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _cli(capsys, "--param", "hand_limit=6,7", "--param", "rounds=2,3")
    assert code == 2 and not out
    assert "compare takes one --param at a time, not 2 (hand_limit, rounds)" in err
    assert "write `parameters: {rounds: 2}` in a house file and add --house FILE" in err


def test_one_parameter_given_twice_is_combined_and_said(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _cli(capsys, "--param", "hand_limit=6,7", "--param", "hand_limit=8")
    assert code == 0
    assert "--param hand_limit given 2 times: comparing hand_limit=6,7,8" in err
    assert out.rstrip().splitlines()[-1].startswith("hand_limit: 3 values compared in ")
    assert "against 8" in out


def test_a_misspelt_parameter_or_dispute_gets_a_did_you_mean(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = _cli(capsys, "--param", "hand_limt=6,7")
    assert code == 2 and "did you mean hand_limit?" in err
    code, _, err = _cli(capsys, "draw_pile")
    assert code == 2 and "did you mean draw_piles?" in err


def test_the_progress_bar_says_which_value_and_the_time_left() -> None:
    stream = io.StringIO()
    bar = Progress(100, "hand_limit=7 (value 2 of 3) ", stream=stream, after=100)
    bar(50)
    bar(50)
    drawn = stream.getvalue().split("\r")[1:]
    assert drawn[0].startswith("hand_limit=7 (value 2 of 3) [") and drawn[0].endswith(" left")
    assert "50/100 games" in drawn[0] and drawn[1].endswith(" left\n")
    assert drawn[0].count("hand_limit") == 1


def test_a_comparison_s_bar_counts_its_values(capsys: pytest.CaptureFixture[str],
                                              tmp_path: Path) -> None:
    code = main(["compare", "--param", "hand_limit=6,7,8", "--players", "2", "--games", "10",
                 "--progress"])
    _, err = capsys.readouterr()
    assert code == 0
    for number, value in enumerate((6, 7, 8), 1):
        assert f"hand_limit={value} (value {number} of 3) [" in err
