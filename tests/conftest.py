"""Hypothesis profiles for the test suite.

- ``quick`` (the default): few examples and games short enough that the whole suite stays
  fast on a 2-core machine.
- ``thorough``: hundreds of examples and long games, for a deliberate search.
- ``ci``: ``quick``, derandomized (the same examples on every run, so CI never flakes on a
  newly drawn example) and printing the blob that reproduces a failure.

Select one with hypothesis' own option, ``pytest --hypothesis-profile=thorough``, or with
``MAMMAMIA_HYPOTHESIS=thorough``. Without either, ``ci`` is used when the ``CI``
environment variable is set (as hypothesis itself does) and ``quick`` otherwise.
Tests take their example counts from the loaded profile, never from a fixed number.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

# Whole games are large and slow by nature; that is not a strategy defect.
_SLOW_OK = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.large_base_example]

settings.register_profile(
    "quick", max_examples=20, deadline=None, stateful_step_count=400,
    suppress_health_check=_SLOW_OK,
)
settings.register_profile(
    "thorough", max_examples=600, deadline=None, stateful_step_count=1000,
    suppress_health_check=_SLOW_OK,
)
settings.register_profile(
    "ci", settings.get_profile("quick"), derandomize=True, print_blob=True, database=None,
)


def _chosen_profile() -> str:
    named = os.environ.get("MAMMAMIA_HYPOTHESIS", "").strip()
    if named:
        return named
    return "ci" if os.environ.get("CI") else "quick"


# hypothesis' pytest plugin applies --hypothesis-profile later (in pytest_configure) and
# so takes precedence over this default.
settings.load_profile(_chosen_profile())
