"""The suite's shared fixtures are made once only if pytest-xdist sends the tests of one
``xdist_group`` to one worker, which it does by the group's name at the end of each
test's id (``conftest.py``: :class:`GroupIds` writes it where pytest 9.2 reads it)."""

from __future__ import annotations

import pytest


@pytest.mark.xdist_group("groups-self-test")
def test_a_grouped_test_carries_its_group_in_its_id(request: pytest.FixtureRequest) -> None:
    if not getattr(request.config.option, "loadgroup", False):
        pytest.skip("not on a pytest-xdist worker under --dist loadgroup (-n 0)")
    assert request.node.nodeid.endswith("@groups-self-test"), request.node.nodeid


def test_an_ungrouped_test_carries_none(request: pytest.FixtureRequest) -> None:
    assert "@" not in request.node.nodeid, request.node.nodeid
