"""Hypothesis profiles for the test suite.

- ``quick`` (the default): few examples and games short enough that the whole suite stays
  fast on a 2-core machine; derandomized, so a plain run of the suite draws the same
  examples every time and never fails by chance (a fuzz test once did, on a NUL in a
  JUnit report): searching for new failures is the on-demand profiles' work.
- ``thorough``: hundreds of examples and long games, for a deliberate (random) search.
- ``ci``: ``quick``, derandomized (the same examples on every run, so CI never flakes on a
  newly drawn example) and printing the blob that reproduces a failure.
- ``explore``: a deliberate search for new failing games. Each run draws a fresh seed
  (unless ``--hypothesis-seed`` gives one) and prints it in the header and the summary;
  the run's time budget (``MAMMAMIA_EXPLORE_MINUTES``, 10 by default) is shared out among
  the hypothesis tests selected, and a test whose share is spent is reported as skipped,
  with the number of examples it passed (select with ``-k``, e.g. ``-k GamePlay`` to give
  the whole budget to the state machine); shrinking a failure is cut after
  ``MAMMAMIA_EXPLORE_SHRINK_SECONDS`` (60 by default) so the failing example is printed
  soon after it is found. No example
  database: a run never replays an earlier run's failure.

Select one with hypothesis' own option, ``pytest --hypothesis-profile=thorough``, or with
``MAMMAMIA_HYPOTHESIS=thorough``. Without either, ``ci`` is used when the ``CI``
environment variable is set (as hypothesis itself does) and ``quick`` otherwise.
Tests take their example counts from the loaded profile, never from a fixed number.
"""

from __future__ import annotations

import functools
import json
import os
import secrets
import subprocess
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from hypothesis import HealthCheck, Phase, settings
from hypothesis.errors import HypothesisException

if TYPE_CHECKING:
    from mammamia_ref.errors import MalformedError
    from mammamia_ref.formats.scenario import Scenario
    from mammamia_ref.sim.scenario_run import RunResult

# Whole games are large and slow by nature; that is not a strategy defect.
_SLOW_OK = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.large_base_example]

settings.register_profile(
    "quick", max_examples=20, deadline=None, stateful_step_count=400,
    suppress_health_check=_SLOW_OK, derandomize=True, database=None,
)
settings.register_profile(
    "thorough", max_examples=600, deadline=None, stateful_step_count=1000,
    suppress_health_check=_SLOW_OK,
)
settings.register_profile(
    "ci", settings.get_profile("quick"), derandomize=True, print_blob=True, database=None,
)
# Far more examples than a budget allows: the time budget, not the count, ends a run.
settings.register_profile(
    "explore", settings.get_profile("thorough"), max_examples=100_000, database=None,
    print_blob=True, report_multiple_bugs=False,
)

EXPLORE = "explore"


def _chosen_profile() -> str:
    named = os.environ.get("MAMMAMIA_HYPOTHESIS", "").strip()
    if named:
        return named
    return "ci" if os.environ.get("CI") else "quick"


def _env_number(name: str, default: float) -> float:
    raw = os.environ.get(name, "").strip()
    try:
        value = float(raw) if raw else default
    except ValueError:
        raise pytest.UsageError(f"{name} must be a number of minutes or seconds: {raw!r}") \
            from None
    if value <= 0:
        raise pytest.UsageError(f"{name} must be positive: {raw!r}")
    return value


# hypothesis' pytest plugin applies --hypothesis-profile later (in pytest_configure) and
# so takes precedence over this default.
settings.load_profile(_chosen_profile())


# --- the exploration run -----------------------------------------------------------------


class ExploreBudget:
    """The time an exploration run may spend drawing examples. Each test gets, at its
    first example, an equal share of the time left among the tests still to come. Once
    its share is spent, a test that has not failed is skipped at the end of its next
    passing example (not before: an example cut short after some of its draws would look
    to hypothesis like flaky data generation); a test that has failed goes on (its
    shrinking is bounded separately), so a failure found is always printed. Outside the
    explore profile it never runs out."""

    def __init__(self, seconds: float | None) -> None:
        self.until = None if seconds is None else time.monotonic() + seconds
        self.tests_left = 1
        self.deadlines: dict[str, float] = {}
        self.examples: Counter[str] = Counter()
        self.failing: set[str] = set()

    def example(self, test: str) -> None:
        """Called at the start of each example of ``test``."""
        if self.until is not None and test not in self.deadlines:
            now = time.monotonic()
            self.deadlines[test] = now + max(0.0, self.until - now) / max(1, self.tests_left)
            self.tests_left -= 1
        self.examples[test] += 1

    def passed(self, test: str) -> None:
        """Called when an example of ``test`` has passed, all its data drawn."""
        if self.until is not None and test not in self.failing and \
                time.monotonic() > self.deadlines[test]:
            pytest.skip(f"explore: {test}: time share spent after "
                        f"{self.examples[test]} examples")

    def failed(self, test: str, exc: BaseException | None) -> None:
        """Note a failure of ``test`` (not hypothesis' own control flow, nor a skip)."""
        if isinstance(exc, Exception) and not isinstance(
                exc, HypothesisException | pytest.skip.Exception):
            self.failing.add(test)

    def wrap(self, test: str, inner: Callable[..., Any]) -> Callable[..., Any]:
        """``inner`` (a hypothesis test's body) under this budget."""

        @functools.wraps(inner)
        def budgeted(*args: Any, **kwargs: Any) -> Any:
            self.example(test)
            try:
                result = inner(*args, **kwargs)
            except BaseException as exc:
                self.failed(test, exc)
                raise
            self.passed(test)
            return result

        return budgeted


BUDGET = ExploreBudget(None)
SEED: int | None = None


def _exploring() -> bool:
    return settings.get_current_profile_name() == EXPLORE


@pytest.hookimpl(trylast=True)  # after hypothesis' plugin has loaded the chosen profile
def pytest_configure(config: pytest.Config) -> None:
    global BUDGET, SEED
    if not _exploring():
        return
    from hypothesis import core
    from hypothesis.internal.conjecture import engine

    if core.global_force_seed is None:
        core.global_force_seed = secrets.randbits(64)
    SEED = core.global_force_seed
    shrink = _env_number("MAMMAMIA_EXPLORE_SHRINK_SECONDS", 60)
    if hasattr(engine, "MAX_SHRINKING_SECONDS"):
        engine.MAX_SHRINKING_SECONDS = shrink
    else:  # no bound to set in this hypothesis: report the failure unshrunk
        phases = tuple(p for p in settings.default.phases if p is not Phase.shrink)
        settings.register_profile(EXPLORE, settings.default, phases=phases)
        settings.load_profile(EXPLORE)
    BUDGET = ExploreBudget(60 * _env_number("MAMMAMIA_EXPLORE_MINUTES", 10))


def _reproduce() -> str:
    return f"--hypothesis-profile={EXPLORE} --hypothesis-seed={SEED}"


def pytest_report_header(config: pytest.Config) -> str | None:
    if SEED is None:
        return None
    return f"explore: seed {SEED} (reproduce with {_reproduce()})"


def pytest_collection_finish(session: pytest.Session) -> None:
    """Under the explore profile, every hypothesis test selected runs under the budget
    (a state machine through the ``explore_budget`` fixture)."""
    if not _exploring():
        return
    BUDGET.tests_left = 0
    for item in session.items:
        hypothesis = getattr(getattr(item, "obj", None), "hypothesis", None)
        if hypothesis is not None:
            hypothesis.inner_test = BUDGET.wrap(item.nodeid, hypothesis.inner_test)
        BUDGET.tests_left += hypothesis is not None or \
            "explore_budget" in getattr(item, "fixturenames", ())


@pytest.fixture(scope="session")
def explore_budget() -> ExploreBudget:
    """For tests that drive hypothesis themselves (the state machine)."""
    return BUDGET


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if SEED is None:
        return
    write = terminalreporter.write_line
    write(f"explore: seed {SEED}; examples run: {sum(BUDGET.examples.values())}")
    for test, count in sorted(BUDGET.examples.items()):
        write(f"  {count:>6}  {test}")
    if BUDGET.failing:
        write(f"explore: failing: {', '.join(sorted(BUDGET.failing))}")
    write(f"explore: reproduce with pytest {_reproduce()} (and the same tests selected)")


# --- the scenario corpus, loaded and run once ---------------------------------------------


@dataclass(frozen=True)
class Corpus:
    """The committed scenarios, each run's result (by scenario id and run name), and the
    files that did not load."""

    scenarios: list[Scenario]
    errors: list[MalformedError]
    results: dict[tuple[str, str], RunResult]


@pytest.fixture(scope="session")
def scenario_corpus() -> Corpus:
    """``scenarios/`` loaded and every run replayed by the reference, once per worker;
    the tests that read it share one worker (``xdist_group("corpus")``)."""
    from mammamia_ref.formats.scenario import load_all
    from mammamia_ref.sim.scenario_run import run_one

    scenarios, errors = load_all([Path(__file__).resolve().parent.parent / "scenarios"])
    results = {(s.id, run.name): run_one(s, run) for s in scenarios for run in s.runs}
    return Corpus(scenarios, errors, results)


# --- the example JavaScript port's conformance run, run once ------------------------------


@dataclass(frozen=True)
class PortRun:
    """A ``conform`` run of the example JavaScript port: the process, each case's record
    (``--jsonl``) and the run as data (``--report``, as a port's committed run is kept)."""

    arguments: list[str]
    result: subprocess.CompletedProcess[str]
    records: list[dict[str, Any]]
    report: Path


JS_PORT_ARGUMENTS = ["--max-nodes", "20000", "--random-games", "50", "--seed", "0"]
"""The kit's defaults (every scenario, every counting table to 20,000 nodes, seeds from
0) and 50 random games a player count."""


@pytest.fixture(scope="session")
def js_port_run(tmp_path_factory: pytest.TempPathFactory) -> PortRun:
    """The JavaScript port through the kit (:data:`JS_PORT_ARGUMENTS`), once for the
    tests that read it (``xdist_group("js-port-run")``): ``test_js_port`` checks its
    every case, ``test_ports_page`` compares the port's committed run with its first
    cases (the committed run takes the same options with 5 random games, and a run's
    first games do not depend on how many follow). The two ran the kit over the whole
    corpus and the tables separately (8 s of the second run's 30)."""
    import shutil
    import sys

    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed (Debian: apt-get install nodejs)")
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import patience

    root = Path(__file__).resolve().parent.parent
    folder = tmp_path_factory.mktemp("js-port-run")
    jsonl, report = folder / "run.jsonl", folder / "conformance.json"
    command = [sys.executable, "-m", "mammamia_ref", "conform", "-q", *JS_PORT_ARGUMENTS,
               "--jsonl", str(jsonl), "--report", str(report), "--",
               node, str(root / "examples" / "ports" / "javascript" / "mammamia.js")]
    result = patience.run(command, idle_seconds=1800, cwd=root)
    records = [json.loads(line) for line in jsonl.read_text().splitlines()] \
        if jsonl.exists() else []
    return PortRun(list(JS_PORT_ARGUMENTS), result, records, report)


# --- a port that speaks no version the kit knows, run through the kit once ---------------


@pytest.fixture(scope="session")
def wrong_protocol_run() -> subprocess.CompletedProcess[str]:
    """``conform -q --random-games 0`` of ``tests/impls/broken.py wrong_protocol`` (a
    port greeting in a version the kit does not know), once for the two tests that read
    it (``xdist_group("wrong-protocol-run")``): ``test_conformance`` (it cannot start)
    and ``test_protocol_versions`` (refused once, in one short line) each ran it."""
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import patience

    root = Path(__file__).resolve().parent.parent
    return patience.run([sys.executable, "-m", "mammamia_ref", "conform", "-q",
                         "--random-games", "0", "--", sys.executable,
                         str(root / "tests" / "impls" / "broken.py"), "wrong_protocol"],
                        idle_seconds=300, cwd=root)
