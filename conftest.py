"""The suite's tiers, for every test path (tests/, scenarios/, the package's doctests).

A test that costs more than its own Python carries a mark that says what (the markers
listed in pyproject.toml: other programs, the browser, a cluster, a sweep, z3, a build,
fuzzing); every other test is marked ``quick`` here, so ``pytest -m quick`` is the edit
loop and ``pytest`` the whole suite. The files with costly tests are collected first, so
that on several workers (pytest-xdist) none of them is left to run alone at the end, and
the tests of one ``xdist_group`` run on one worker, which makes their shared fixture once
(:func:`group_suffix`).
"""

from __future__ import annotations

import pytest

QUICK = "quick"


def pytest_configure(config: pytest.Config) -> None:
    """The scenarios are collected by the package's own pytest plugin (the ``pytest11``
    entry point): without it they would silently not run."""
    if not config.pluginmanager.has_plugin("mammamia"):
        raise pytest.UsageError("the mammamia pytest plugin is not registered, so no "
                                "scenario would run: pip install -e '.[test]' again")
    config.pluginmanager.register(GroupIds(), "mammamia-group-ids")


def cost_marks(config: pytest.Config) -> set[str]:
    """The markers of pyproject.toml that name a cost (all but ``quick``)."""
    names = {line.split(":", 1)[0].strip() for line in config.getini("markers")}
    return names - {QUICK, "xdist_group"}  # pytest-xdist registers its scheduling mark


@pytest.hookimpl(tryfirst=True)  # before -m selects by the marks
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    costs = cost_marks(config)
    costly_files = set()
    for item in items:
        if any(item.get_closest_marker(mark) for mark in costs):
            costly_files.add(item.path)
        else:
            item.add_marker(QUICK)
    # stable, file by file (a module's fixtures are set up once): costly files first
    items.sort(key=lambda item: item.path not in costly_files)


def group_suffix(item: pytest.Item) -> str | None:
    """The ``@group`` that pytest-xdist's ``--dist loadgroup`` appends to the id of a test
    (the scheduler sends the tests of one suffix to one worker), or None for a test free
    to run on any worker. A test marked ``xdist_group`` is in its group (as pytest-xdist
    names it); an unmarked test that uses a module-scoped fixture is in its module's
    group, so that the fixture is made once, not once on each worker."""
    names = sorted({str(mark.args[0] if mark.args else mark.kwargs.get("name", "default"))
                    for mark in item.iter_markers("xdist_group")})
    if names:  # no "]" in it: pytest-xdist would read a suffix ending in one as a parameter
        return "@" + "_".join(names).replace("[", "(").replace("]", ")")
    info = getattr(item, "_fixtureinfo", None)
    shared = info is not None and any(
        definitions[-1].scope == "module" for definitions in info.name2fixturedefs.values()
        if definitions)
    return f"@module-{item.path.name}" if shared else None


def _set_nodeid(item: pytest.Item, nodeid: str) -> None:
    """What pytest-xdist 3.8 does with ``item._nodeid``, which pytest 9.2 no longer reads
    (a node's id is ``item._id`` there)."""
    try:
        from _pytest.nodeid import NodeId
    except ImportError:  # pytest before 9.2
        item._nodeid = nodeid  # type: ignore[attr-defined]
    else:
        item._id = NodeId.parse(nodeid)
    assert item.nodeid == nodeid, (item.nodeid, nodeid)


class GroupIds:
    """On a worker under ``--dist loadgroup``, each grouped test's id ends with its group
    (:func:`group_suffix`). pytest-xdist writes it itself only for a test marked
    ``xdist_group``, and under pytest 9.2 where it is no longer read: without this every
    group was split between the workers, and each worker built the site, replayed the
    scenario corpus, ran the benchmark and made every module-scoped fixture."""

    @pytest.hookimpl(trylast=True)  # after pytest-xdist's own hook, which may have done it
    def pytest_collection_modifyitems(self, config: pytest.Config,
                                      items: list[pytest.Item]) -> None:
        if not getattr(config.option, "loadgroup", False):
            return
        for item in items:
            suffix = group_suffix(item)
            if suffix is not None and not item.nodeid.endswith(suffix):
                _set_nodeid(item, item.nodeid + suffix)
