"""``mammamia verify --house FILE``: the package verified as always, and the house rule
too: games at every player count it serves under every ruling laid over it, each ending
after the house rule's rounds, and the z3 answers under it (refused where they rest on
the spec's numbers). The whole command is the CI's main job; its parts are tested here."""

from __future__ import annotations

from pathlib import Path

import pytest

from mammamia_ref.cli.app import main
from mammamia_ref.formats.house import load_house
from mammamia_ref.rules.state import variant_values
from mammamia_ref.tools import verify as verify_tool

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "house-rules"


def test_the_games_under_a_house_rule_end_after_its_rounds(tmp_path: Path) -> None:
    """Two rounds and a hand of eight: every game, under every ruling laid over it, ends
    after two resolutions (a check of the spec's three would fail them all)."""
    path = tmp_path / "short.yaml"
    path.write_text("name: two rounds\nparameters: {rounds: 2, hand_limit: 8}\n",
                    encoding="utf-8")
    house = load_house(path)
    games = verify_tool.play_checks(house=house)
    others = sum(len(values) - 1 for values in variant_values().values())
    assert len(games) == len(house.players) * (1 + others) * 2
    assert all(g["ok"] for g in games), [g for g in games if not g["ok"]]
    report = verify_tool.Report(house=house, house_games=games)
    assert report.house_ok()
    report.house_games = [*games, {**games[0], "ok": False}]
    assert not report.house_ok() and not report.ok


def test_the_z3_answers_under_a_house_rule_are_given_or_refused() -> None:
    pytest.importorskip("z3")
    house = str(EXAMPLES / "hand-of-eight.yaml")
    given = verify_tool._answer_task(("Q09-hand-above-seven", "to_seven", house))
    assert (given["verdict"], given["answered"], given["house"]) == \
        ("unsat", True, "hand of eight")
    refused = verify_tool._answer_task(("Q03-bombastica-round-one", "hand_allowed", house))
    assert refused["verdict"] == "refused" and "spec's numbers only" in refused["detail"]
    report = verify_tool.Report(house=load_house(house), house_queries=[given, refused])
    summary = report.house_json()
    assert summary is not None and summary["ok"]
    assert summary["queries"]["answered"] == 1 and len(summary["queries"]["refused"]) == 1


def test_a_bad_house_rule_is_one_line_before_any_work(tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]
                                                       ) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: x\nparameters: {bombastica_total: 100}\n", encoding="utf-8")
    assert main(["verify", "--house", str(bad)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "bombastica_total" in err[0] and str(bad) in err[0]
