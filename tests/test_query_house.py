"""``mammamia query run --house FILE``: the catalogue asked under a house rule. The
queries whose answer goes wholly through the z3 models take its numbers; the others,
and a model asked under a rule it does not follow, are refused, never answered under
other rules; the catalogue's expectations (for the spec's rules) are not compared."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("z3")

from mammamia_ref.cli.app import main

HAND_OF_EIGHT = str(Path(__file__).resolve().parent.parent / "examples" / "house-rules"
                    / "hand-of-eight.yaml")


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, list[dict]]:
    code = main(["query", "run", *args, "--json"])
    return code, [a for q in json.loads(capsys.readouterr().out) for a in q["answers"]]


@pytest.mark.z3  # answers z3 queries
def test_the_hand_limit_proof_is_proved_at_the_house_rules_limit(
        capsys: pytest.CaptureFixture[str]) -> None:
    """Q09 under the hand of eight: its file writes the count as the hand limit plus
    one, so z3 proves no hand above 8 (8-card hands are reachable: a check of 7 would
    fail)."""
    code, answers = _run(capsys, "Q09", "--house", HAND_OF_EIGHT)
    assert code == 0 and answers
    for answer in answers:
        assert answer["verdict"] == "unsat" and answer["house"] == "hand of eight"
        assert answer["parameters"] == {"hand_limit": 8}
        assert answer["detail"].startswith("proved by induction")
        assert "the hand count stays below 9 in every state" in answer["detail"]
    main(["query", "run", "Q09", "--house", HAND_OF_EIGHT])
    out = capsys.readouterr().out
    assert "under house rule 'hand of eight'" in out and "were not compared" in out
    assert "ok," not in out and "UNEXPECTED" not in out


def test_a_query_resting_on_the_spec_s_numbers_is_refused(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, answers = _run(capsys, "Q03", "--house", HAND_OF_EIGHT)
    assert code == 1 and answers
    assert all(a["verdict"] == "refused" and "spec's numbers only" in a["detail"]
               for a in answers)


def test_a_model_refuses_a_house_flag_it_does_not_follow(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    house = tmp_path / "both.yaml"
    house.write_text("name: both piles\nvariants: {draw_piles: both}\n", encoding="utf-8")
    code, answers = _run(capsys, "Q10", "--house", str(house))
    assert code == 1 and answers
    assert all(a["verdict"] == "refused" and "does not implement draw_piles=both"
               in a["detail"] for a in answers)


@pytest.mark.z3  # answers z3 queries
def test_every_answer_names_every_flag_and_parameter_it_assumes(
        capsys: pytest.CaptureFixture[str]) -> None:
    """A proof answer too (Q10's, whose events name no ruling): every flag's value and
    every parameter, in the JSON and in the text."""
    from mammamia_ref.rules.ruleset import parameter_specs
    from mammamia_ref.rules.state import variant_defaults

    code, answers = _run(capsys, "Q10")
    assert code == 0 and answers
    for answer in answers:
        assert set(answer["flags_in_force"]) == set(variant_defaults())
        assert set(answer["parameters_in_force"]) == set(parameter_specs())
        assert answer["flags_in_force"]["round_end"] == answer["variants"].get(
            "round_end", variant_defaults()["round_end"])
    main(["query", "run", "Q10"])
    out = capsys.readouterr().out
    assert out.count("    flags: trimming=") == len(answers)
    assert out.count("    parameters: hand_limit=7") == len(answers)
