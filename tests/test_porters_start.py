"""The porter's start (issue 42, item 4): the examples copied out of the package, one
word for a feature, the player counts a house rule leaves out named, the observation's
parameters (protocol /4) and the reports' chapter counts by the scenario's own chapter."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from mammamia_ref.cli.app import main
from mammamia_ref.cli.conform import HELLO_FEATURES, left_out
from mammamia_ref.cli.examples import packaged_examples, shipped
from mammamia_ref.kit.versions import current

ROOT = Path(__file__).resolve().parent.parent


def cli(capsys, *args: str) -> tuple[int, str, str]:
    try:
        code = main(list(args))
    except SystemExit as exc:
        code = exc.code
    out, err = capsys.readouterr()
    return code, out, err


def test_examples_are_copied_out_whole_and_never_over_a_file(capsys, tmp_path: Path) -> None:
    target = tmp_path / "examples"
    code, out, _ = cli(capsys, "examples", str(target))
    assert code == 0 and "copied" in out
    sources = {p.relative_to(ROOT / "examples") for p in (ROOT / "examples").rglob("*")
               if p.is_file()}
    assert set(shipped()) == sources  # every example file, nothing else
    for name in shipped():
        assert (target / name).read_bytes() == (packaged_examples() / name).read_bytes()
    assert (target / "ports/javascript/mammamia.js").is_file()
    assert (target / "ports/javascript/LEARNED.md").is_file()
    code, out, err = cli(capsys, "examples", str(target))
    assert code == 2 and out == "" and err.count("\n") == 1 and "already exists" in err


def test_the_feature_option_speaks_hellos_features(capsys) -> None:
    assert set(HELLO_FEATURES) == set(current().features)
    code, _, err = cli(capsys, "conform", "--feature", "setup", "--", "x")
    assert code == 2 and "invalid choice" in err


def test_a_house_rule_names_the_player_counts_it_leaves_out(tmp_path: Path) -> None:
    house = tmp_path / "big.yaml"
    house.write_text("name: big hands\nparameters: {starting_ingredients: 13}\n",
                     encoding="utf-8")
    args = argparse.Namespace(players=None, house=str(house), random_games=5, ids=None,
                              rule=None, feature=None, variant=[])
    [line] = left_out(args)
    assert line.startswith("random games: 5 players left out: the deck cannot serve them")
    assert "[setup.deal]" in line
    assert left_out(argparse.Namespace(**{**vars(args), "players": [2]})) == []


def test_an_observation_carries_the_parameters_and_a_version_3_port_is_not_asked_for_them(
        ) -> None:
    from mammamia_ref.kit.terms import terms_of
    from mammamia_ref.rules.game import new_game
    from mammamia_ref.rules.observation import observation
    from mammamia_ref.rules.ruleset import make_rules
    from mammamia_ref.rules.state import make_config

    state = new_game(make_config(2, variants=make_rules(parameters={"hand_limit": 8})))
    seen = observation(state, 0).to_json()
    assert seen["parameters"] == {"hand_limit": 8}
    assert "parameters" not in observation(new_game(make_config(2)), 0).to_json()
    assert "parameters" not in terms_of({"protocol": "mammamia-protocol/3"}).observation(seen)
    assert terms_of({"protocol": current().id}).observation(seen) == seen


@pytest.mark.parametrize("status", ["pass", "fail"])
def test_a_scenario_counts_in_its_own_chapter_whether_it_passes_or_fails(status) -> None:
    from mammamia_ref.kit.cases import CaseResult
    from mammamia_ref.kit.port_report import chapter_of, chapter_titles, run_document

    rules = ("turn.play",) if status == "pass" else ("oven.bake", "turn.play")
    result = CaseResult("scenario", "one-play-a-turn", status, rules, chapter="turn")
    [record] = run_document([result], {}, [])["results"]
    assert record["chapter"] == "turn" and chapter_of(record) == chapter_titles()["turn"]
    assert chapter_of({**record, "chapter": None}) == \
        chapter_titles()[rules[0].split(".")[0]]  # a run kept before: by the rule named


class _Reference:
    """The reference as a connection, in process; ``spoil`` changes every state answered
    (a port that diverges from the first answer on)."""

    def __init__(self, spoil: bool = False) -> None:
        from mammamia_ref.kit.protocol import ReferenceSession

        self.session, self.spoil = ReferenceSession(), spoil
        self.info = self.session.handle({"op": "hello", "protocol": current().id})

    def request(self, op: str, *, timeout=None, work: int = 0, **fields) -> dict:
        answer = self.session.handle({"op": op, **fields})
        if self.spoil and isinstance(answer.get("state"), dict):
            answer["state"] = {**answer["state"], "round": 3}
        return answer


@pytest.mark.parametrize("spoil", [False, True])
def test_a_case_records_its_scenarios_own_chapter(spoil: bool) -> None:
    from mammamia_ref.formats.scenario import load_scenario
    from mammamia_ref.kit.cases import run_scenario_case
    from mammamia_ref.kit.port_report import chapter_of, chapter_titles

    scenario = load_scenario(ROOT / "scenarios" / "turn" / "one-play-a-turn.yaml")
    result = run_scenario_case(_Reference(spoil), scenario, scenario.runs[0])
    assert result.status == ("fail" if spoil else "pass")
    assert result.chapter == scenario.rules[0].split(".")[0] == "turn"
    assert chapter_of(result.as_json()) == chapter_titles()["turn"]


def test_the_reports_lead_with_the_rules_and_link_them_and_the_scenarios() -> None:
    from mammamia_ref.kit.cases import CaseResult
    from mammamia_ref.kit.port_report import render, run_document, site_links

    failed = CaseResult("scenario", "one-play-a-turn[again]", "fail", ("turn.play",),
                        step=2, file="x/scenarios/turn/one-play-a-turn.yaml", chapter="turn")
    run = run_document([failed], {"name": "p", "protocol": current().id}, [])
    md = render(run, ".md", site_links("https://rules.example"))
    assert md.index("## Rules involved") < md.index("## Implementation")
    assert "[`turn.play`](https://rules.example/rules/turn.html#turn.play) | 1 | 1 |" in md
    assert "scenario [one-play-a-turn](https://rules.example/scenarios/turn/" \
        "one-play-a-turn.html)[again]" in md
    page = render(run, ".html", site_links("https://rules.example/"))
    assert '<a href="https://rules.example/rules/turn.html#turn.play"><code>turn.play' in page
    plain_md = render(run, ".md")
    assert "](" not in plain_md and "`turn.play`" in plain_md  # no site: nothing linked
