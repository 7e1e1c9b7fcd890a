"""Every rule is exercised by a passing scenario, every variant flag is shown side by
side (one scenario with runs under each of its values), and no scenario cites a rule
or a variant that does not exist."""

from __future__ import annotations

import pytest

from mammamia_ref.rules import specdata
from mammamia_ref.rules.state import variant_values

pytestmark = [pytest.mark.corpus, pytest.mark.xdist_group("corpus")]


@pytest.fixture(scope="module")
def corpus(scenario_corpus):
    results: dict[str, list] = {}
    for (scenario, _run), result in scenario_corpus.results.items():
        results.setdefault(scenario, []).append(result)
    return scenario_corpus.scenarios, scenario_corpus.errors, results


def test_every_scenario_file_loads(corpus) -> None:
    _, errors, _ = corpus
    assert not errors, "\n".join(str(e) for e in errors)


def test_every_rule_is_cited_by_a_passing_scenario(corpus) -> None:
    scenarios, _, results = corpus
    passing = {sid for sid, runs in results.items() if all(r.passed for r in runs)}
    cited = {rule for s in scenarios if s.id in passing for rule in s.rules}
    missing = sorted(specdata.rule_ids() - cited)
    assert not missing, f"rules with no passing scenario: {missing}"


def test_every_cited_rule_exists(corpus) -> None:
    scenarios, _, _ = corpus
    unknown = {(s.id, r) for s in scenarios for r in s.rules if r not in specdata.rule_ids()}
    assert not unknown


@pytest.mark.parametrize("flag", sorted(variant_values()))
def test_every_variant_flag_is_shown_side_by_side(corpus, flag: str) -> None:
    """Some scenario runs the same situation under every value of the flag."""
    scenarios, _, results = corpus
    values = set(variant_values()[flag])
    default = {e["flag"]: e["default"] for e in specdata.variant_flags()}[flag]
    for scenario in scenarios:
        if not all(r.passed for r in results[scenario.id]):
            continue
        shown = {run.variants.get(flag, default) for run in scenario.runs}
        if shown == values:
            return
    pytest.fail(f"no passing scenario shows {flag} under all of {sorted(values)}")

