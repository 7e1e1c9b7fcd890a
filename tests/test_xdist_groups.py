"""The suite's shared fixtures are made once only if pytest-xdist sends the tests that
share them to one worker, which it does by a group's name at the end of each test's id
(``conftest.py``: :func:`group_suffix`, written where pytest 9.2 reads it). Each test
here asks pytest-xdist's own scheduler which group its id puts it in."""

from __future__ import annotations

import pytest

xdist_scheduler = pytest.importorskip("xdist.scheduler.loadgroup")


def scheduled_group(request: pytest.FixtureRequest) -> str:
    """The scope pytest-xdist's ``--dist loadgroup`` schedules this test in: its group,
    or its own id for a test in none."""
    if not getattr(request.config.option, "loadgroup", False):
        pytest.skip("not on a pytest-xdist worker under --dist loadgroup (-n 0)")
    nodeid = request.node.nodeid
    return str(xdist_scheduler.LoadGroupScheduling._split_scope(None, nodeid))  # type: ignore[arg-type]


@pytest.mark.xdist_group("groups-self-test")
def test_a_grouped_test_is_scheduled_in_its_group(request: pytest.FixtureRequest) -> None:
    assert scheduled_group(request) == "groups-self-test", request.node.nodeid


@pytest.mark.xdist_group("answer[with_brackets]")   # as tests/test_queries.py names them
def test_a_group_named_with_brackets_is_scheduled_as_one(
        request: pytest.FixtureRequest) -> None:
    assert scheduled_group(request) == "answer(with_brackets)", request.node.nodeid


def test_an_ungrouped_test_is_scheduled_alone(request: pytest.FixtureRequest) -> None:
    assert scheduled_group(request) == request.node.nodeid


@pytest.fixture(scope="module")
def made_once() -> list[int]:
    return []


def test_a_test_sharing_a_module_fixture_is_in_its_modules_group(
        request: pytest.FixtureRequest, made_once: list[int]) -> None:
    assert scheduled_group(request) == "module-test_xdist_groups.py", request.node.nodeid
