"""The import layers of ``mammamia_ref``: a module imports only its own floor or lower ones.

Lowest first: errors (0) < rules (1) < formats (2) < sim (3) < kit, queries (4) < site, tools
(5) < cli (6). Packages on the same layer are peers and may not import each other. The
top-level ``mammamia_ref/__init__.py`` is the public facade (it may import rules and formats
only, and counts as one more package of layer 2, so formats and rules may not import it);
a ``__main__.py`` (``python -m mammamia_ref``, ``python -m mammamia_ref.tools.bench``) is an
entry point: it may import cli only, and nothing imports it.

A sub-package is a floor of its own, above its package: ``queries/catalogue`` may import
``queries``, not the other way round, and two sub-packages of one package are peers, unless
the package orders them (``SUB_LAYERS``): ``queries/model`` < ``language`` < ``answering``
< ``catalogue``, each importing only those before it.
A private name (``_x``) is its floor's own: importing it, or reading it as ``module._x``,
from another floor crosses the floor's boundary. Every import is checked, those inside
functions and under ``TYPE_CHECKING`` too, so a lazy import cannot hide a breach; cycles
are looked for among every import that runs (a function-level one runs when called, and
a cycle through it is a cycle all the same), not those under ``TYPE_CHECKING``.

Known breaches are listed below, each with its reason; the lists may only shrink (a test
fails on an entry that is no longer a breach).
"""

from __future__ import annotations

import ast
import itertools
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest

# The package is parsed and its imports worked out once a process (_parsed, imports):
# its tests on one worker, so once in all.
pytestmark = pytest.mark.xdist_group("layers")

PACKAGE = Path(__file__).resolve().parent.parent / "mammamia_ref"

LAYERS = {"errors": 0, "rules": 1, "formats": 2, "facade": 2, "sim": 3, "kit": 4, "queries": 4,
          "site": 5, "tools": 5, "cli": 6, "main": 7}
SUB_LAYERS: dict[str, tuple[str, ...]] = {
    "mammamia_ref.queries": ("model", "language", "answering", "catalogue"),
}
"""Packages whose sub-packages are layers of their own, lowest first: a sub-package (and
what lies in it) imports only those before it."""
FACADE_MAY_IMPORT = {"errors", "rules", "formats"}
MAIN_MAY_IMPORT = {"cli"}

# Why the known breaches are there (issue 45). Each is for the engineer who removes it.
CATALOGUE_LOADED = ("the registry loads the catalogue, whose modules register themselves in "
                    "it, when the implementations are first asked for")
ALLOWED: dict[tuple[str, str], str] = {}
"""Known breaches of the layers and floors, as (file, imported module): the reason."""

CYCLE_EDGES_ALLOWED: dict[tuple[str, str], str] = {
    ("mammamia_ref.queries.catalogue.registry", "mammamia_ref.queries.catalogue"): CATALOGUE_LOADED,
}
"""Known import cycles, each broken at one edge (importer, imported): the reason. With
these edges left out, the imports must form no cycle."""

PRIVATE_ALLOWED: dict[str, dict[tuple[str, str], set[str]]] = {}
"""Known private names read across a floor's boundary, by reason: (file, module): names."""

Import = tuple[str, int, str, str, bool, bool]
"""file, line, source text, target, module level, runs (not under ``TYPE_CHECKING``)"""


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@cache
def is_module(name: str) -> bool:
    """Whether ``name`` is a module or package of ours (not an attribute of one)."""
    path = PACKAGE.parent.joinpath(*name.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def package_of(name: str) -> str:
    """The layer package of a module: its first part below ``mammamia_ref`` (``main`` for
    an entry point, ``facade`` for the package itself)."""
    parts = name.split(".")
    if len(parts) == 1:
        return "facade"
    return "main" if parts[-1] == "__main__" else parts[1]


@cache
def floor_of(name: str) -> str:
    """The floor of a module: the package it lies in, a sub-package being a floor of its
    own (``mammamia_ref.queries.catalogue.q05`` -> ``mammamia_ref.queries.catalogue``)."""
    is_package = (PACKAGE.parent.joinpath(*name.split(".")) / "__init__.py").is_file()
    return name if is_package else name.rpartition(".")[0]


def _targets(node: ast.Import | ast.ImportFrom, here: str, is_package: bool) -> Iterator[str]:
    """The modules of ours that one import statement loads."""
    if isinstance(node, ast.Import):
        yield from (alias.name for alias in node.names if alias.name.split(".")[0] == PACKAGE.name)
        return
    base = _base(node, here, is_package)
    if base.split(".")[0] != PACKAGE.name:
        return
    for alias in node.names:
        sub = f"{base}.{alias.name}"
        yield sub if is_module(sub) else base


def _base(node: ast.ImportFrom, here: str, is_package: bool) -> str:
    """The module a ``from ... import`` names, relative forms resolved."""
    base = node.module or ""
    if node.level:
        anchor = here.split(".")
        anchor = anchor if is_package else anchor[:-1]
        anchor = anchor[: len(anchor) - (node.level - 1)]
        base = ".".join([*anchor, base] if base else anchor)
    return base


def _type_checking_only(tree: ast.Module) -> set[int]:
    """The import nodes under ``if TYPE_CHECKING:`` (they never run)."""
    return {id(node) for block in ast.walk(tree)
            if isinstance(block, ast.If) and "TYPE_CHECKING" in ast.dump(block.test)
            for statement in block.body for node in ast.walk(statement)}


@cache
def _parsed() -> tuple[tuple[Path, str, ast.Module], ...]:
    """Every module of the package: its path, source and tree (read once)."""
    return tuple((path, source, ast.parse(source, filename=str(path)))
                 for path in sorted(PACKAGE.rglob("*.py"))
                 for source in [path.read_text(encoding="utf-8")])


@cache
def imports() -> tuple[Import, ...]:
    """Every import of ours in the package, worked out once (four tests read them all:
    each walked every tree again)."""
    return tuple(_imports())


def _imports() -> Iterator[Import]:
    for path, source, tree in _parsed():
        here, rel = module_name(path), path.relative_to(PACKAGE.parent).as_posix()
        top_level = {id(node) for node in tree.body
                     if isinstance(node, ast.Import | ast.ImportFrom)}
        top_level |= {id(node) for block in tree.body if isinstance(block, ast.If | ast.Try)
                      and "TYPE_CHECKING" not in ast.dump(getattr(block, "test", block.body[0]))
                      for node in ast.walk(block) if isinstance(node, ast.Import | ast.ImportFrom)}
        never_run = _type_checking_only(tree)
        lines = source.splitlines()
        for node in ast.walk(tree):
            if isinstance(node, ast.Import | ast.ImportFrom):
                text = " ".join(lines[node.lineno - 1:node.end_lineno]).strip()
                for target in _targets(node, here, path.name == "__init__.py"):
                    yield (rel, node.lineno, " ".join(text.split()), target,
                           id(node) in top_level, id(node) not in never_run)


def breach(source_file: str, target: str) -> str | None:
    """Why importing ``target`` from ``source_file`` breaks the layers or floors, or None."""
    here = module_name(PACKAGE.parent / source_file)
    mine, theirs = package_of(here), package_of(target)
    if mine == theirs:
        return _floor_breach(floor_of(here), floor_of(target))
    if mine == "facade":
        return None if theirs in FACADE_MAY_IMPORT else "the facade may import rules/formats only"
    if mine == "main":
        return None if theirs in MAIN_MAY_IMPORT else "__main__ may import cli only"
    if LAYERS[theirs] > LAYERS[mine]:
        return f"{mine} (layer {LAYERS[mine]}) imports the higher {theirs} ({LAYERS[theirs]})"
    if LAYERS[theirs] == LAYERS[mine]:
        return f"{mine} imports its peer {theirs} (both layer {LAYERS[mine]})"
    return None


def _floor_breach(mine: str, theirs: str) -> str | None:
    """Within one package a floor imports only itself and the floors it lies in."""
    if mine == theirs or mine.startswith(theirs + "."):
        return None
    if theirs.startswith(mine + "."):
        return f"{mine} imports its own sub-package {theirs} (a floor above it)"
    if (ranks := _sub_layers(mine, theirs)) is not None:
        if ranks[1] < ranks[0]:
            return None
        return f"{mine} (sub-layer {ranks[0]}) imports {theirs} (sub-layer {ranks[1]}), " \
            "not below it"
    return f"{mine} imports {theirs}, a floor beside it"


def _sub_layers(mine: str, theirs: str) -> tuple[int, int] | None:
    """The ranks in ``SUB_LAYERS`` of the sub-packages two floors lie in, when both lie in
    ordered sub-packages of one package."""
    for package, order in SUB_LAYERS.items():
        below = [name[len(package) + 1:].split(".")[0] if name.startswith(package + ".")
                 else None for name in (mine, theirs)]
        if below[0] in order and below[1] in order:
            return order.index(below[0]), order.index(below[1])
    return None


def private_crossings() -> Iterator[tuple[str, int, str, str]]:
    """Every private name read from another floor: (file, line, module, name), by
    ``from module import _name`` or as ``module._name`` of a module imported by name."""
    for path, _source, tree in _parsed():
        here, rel = module_name(path), path.relative_to(PACKAGE.parent).as_posix()
        modules: dict[str, str] = {}  # local name -> module of ours
        for node in ast.walk(tree):
            for local, module, name in _imported_names(node, here, path.name == "__init__.py"):
                if local is not None:
                    modules[local] = module
                if name is not None and _private(name) and floor_of(module) != floor_of(here):
                    yield rel, node.lineno, module, name
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
                    and node.value.id in modules and _private(node.attr) \
                    and floor_of(modules[node.value.id]) != floor_of(here):
                yield rel, node.lineno, modules[node.value.id], node.attr


def _imported_names(node: ast.AST, here: str, is_package: bool
                    ) -> Iterator[tuple[str | None, str, str | None]]:
    """For an import of ours: (local name bound to a module, or None; the module the name
    comes from; the name taken from it, or None for ``import a.b as m``)."""
    if isinstance(node, ast.Import):
        for alias in node.names:
            if alias.name.split(".")[0] == PACKAGE.name and alias.asname:
                yield alias.asname, alias.name, None
    elif isinstance(node, ast.ImportFrom):
        base = _base(node, here, is_package)
        if base.split(".")[0] != PACKAGE.name:
            return
        for alias in node.names:
            sub = f"{base}.{alias.name}"
            if is_module(sub):
                yield alias.asname or alias.name, sub, None
            yield None, base, alias.name


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def test_every_package_has_a_layer() -> None:
    packages = {package_of(module_name(path)) for path in PACKAGE.rglob("*.py")}
    assert packages <= LAYERS.keys(), f"no layer for {sorted(packages - LAYERS.keys())}"


def test_imports_go_only_down_the_layers() -> None:
    found = list(imports())
    assert len(found) > 100, "the parser found too few imports to be looking at the package"
    breaches = list(dict.fromkeys(
        f"{file}:{line}: {text}  -- {why}" for file, line, text, target, _top, _runs in found
        if (file, target) not in ALLOWED and (why := breach(file, target))))
    assert not breaches, "imports against the layers:\n" + "\n".join(breaches)


def test_the_allow_lists_hold_only_live_breaches() -> None:
    found = {(file, target) for file, _line, _text, target, _top, _runs in imports()}
    stale = [entry for entry in ALLOWED if entry not in found or not breach(*entry)]
    assert not stale, f"allowed breaches that are gone (delete them): {stale}"
    graph = import_graph(set())
    stale = [edge for edge in CYCLE_EDGES_ALLOWED if edge[1] not in graph.get(edge[0], ())]
    assert not stale, f"allowed cycle edges that are gone (delete them): {stale}"
    crossings = {(file, module, name) for file, _line, module, name in private_crossings()}
    stale = [(file, module, name) for entries in PRIVATE_ALLOWED.values()
             for (file, module), names in entries.items() for name in sorted(names)
             if (file, module, name) not in crossings]
    assert not stale, f"allowed private crossings that are gone (delete them): {stale}"


def test_no_private_name_crosses_a_floor() -> None:
    allowed = {(file, module, name) for entries in PRIVATE_ALLOWED.values()
               for (file, module), names in entries.items() for name in names}
    crossings = sorted({f"{file}:{line}: {name} of {module}"
                        for file, line, module, name in private_crossings()
                        if (file, module, name) not in allowed})
    assert not crossings, "private names read from another floor:\n" + "\n".join(crossings)


def import_graph(left_out: set[tuple[str, str]]) -> dict[str, set[str]]:
    """Module -> the modules of ours it imports when it runs (at load or in a function,
    not under ``TYPE_CHECKING``), less the edges ``left_out``."""
    graph: dict[str, set[str]] = {}
    for file, _line, _text, target, _top, runs in imports():
        here = module_name(PACKAGE.parent / file)
        if runs and target != here and (here, target) not in left_out:
            graph.setdefault(here, set()).add(target)
    return graph


def test_no_import_cycle() -> None:
    """Function-level imports count: a cycle through one is found when it is called."""
    where: dict[tuple[str, str], str] = {}
    for file, line, text, target, _top, runs in imports():
        if runs:
            where.setdefault((module_name(PACKAGE.parent / file), target),
                             f"{file}:{line}: {text}")
    graph = import_graph(set(CYCLE_EDGES_ALLOWED))
    cycles = strong_components(graph)
    walk = find_cycle(graph) or []
    assert not cycles, "import cycles (modules that import each other, perhaps through " \
        "others):\n" + "\n".join(", ".join(cycle) for cycle in cycles) + "\none of them:\n" \
        + "\n".join(where[edge] for edge in itertools.pairwise(walk))


def strong_components(graph: dict[str, set[str]]) -> list[list[str]]:
    """The groups of two or more modules that reach each other (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = [stack.pop()]
            while group[-1] != node:
                group.append(stack.pop())
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of ``graph`` as a closed walk [a, b, ..., a], or None."""
    state: dict[str, int] = {}  # 1 on the current path, 2 done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return [*path[path.index(nxt):], nxt]
            if nxt not in state and (found := visit(nxt)):
                return found
        path.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (found := visit(node)):
            return found
    return None


def test_the_checks_catch_what_they_are_for() -> None:
    """The checker itself: a breach upward, between peers, from the facade, into a
    sub-package and beside it, a private name, and a cycle."""
    assert breach("mammamia_ref/sim/counting.py", "mammamia_ref.cli.app")
    assert breach("mammamia_ref/kit/runner.py", "mammamia_ref.queries.catalogue.timing")
    assert breach("mammamia_ref/__init__.py", "mammamia_ref.sim.fast")
    assert breach("mammamia_ref/formats/scenario.py", "mammamia_ref")
    assert breach("mammamia_ref/cli/app.py", "mammamia_ref.rules.game") is None
    assert breach("mammamia_ref/queries/answering/ask.py",
                  "mammamia_ref.queries.catalogue.q07_round_forever")
    assert breach("mammamia_ref/queries/answering/ask.py", "mammamia_ref.queries.catalogue")
    assert breach("mammamia_ref/queries/catalogue/q07_round_forever.py",
                  "mammamia_ref.queries.catalogue.common") is None
    assert breach("mammamia_ref/tools/bench/loop.py", "mammamia_ref.tools.machine") is None
    assert _floor_breach("mammamia_ref.tools.bench", "mammamia_ref.tools.other")
    assert breach("mammamia_ref/tools/verify.py", "mammamia_ref.tools.bench.loop")
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": {"c"}}) is None
    assert strong_components({"a": {"b"}, "b": {"a", "c"}, "c": {"d"}, "d": {"c"}, "e": {"a"}}) \
        == [["c", "d"], ["a", "b"]]
    here = "mammamia_ref.queries.catalogue.by_question"
    (node,) = ast.parse("from mammamia_ref.queries.answering.ask import _v, a_game").body
    assert [(module, name) for _local, module, name in _imported_names(node, here, False)
            if name and _private(name) and floor_of(module) != floor_of(here)] \
        == [("mammamia_ref.queries.answering.ask", "_v")]
    assert floor_of("mammamia_ref.queries.catalogue.common") == \
        floor_of("mammamia_ref.queries.catalogue.runner")
    assert breach("mammamia_ref/queries/catalogue/runner.py", "mammamia_ref.queries.model.num") \
        is None
    assert breach("mammamia_ref/queries/language/conditions.py",
                  "mammamia_ref.queries.model.game_model") is None
    assert breach("mammamia_ref/queries/model/game_model.py",
                  "mammamia_ref.queries.language.judging")
    assert breach("mammamia_ref/queries/language/judging.py",
                  "mammamia_ref.queries.answering.searching")
    assert breach("mammamia_ref/kit/runner.py", "mammamia_ref.queries.model.num")
    assert floor_of("mammamia_ref.queries.catalogue") == \
        floor_of("mammamia_ref.queries.catalogue.by_question")


def test_import_forms_resolve_to_our_modules() -> None:
    """``from mammamia_ref import x`` names module x when there is one, else the facade;
    relative imports count from the importing module; other packages are not ours."""

    def targets(source: str, here: str, is_package: bool = False) -> list[str]:
        (node,) = ast.parse(source).body
        assert isinstance(node, ast.Import | ast.ImportFrom)
        return list(_targets(node, here, is_package))

    assert targets("from mammamia_ref import errors, __version__", "mammamia_ref.sim.impact") \
        == ["mammamia_ref.errors", "mammamia_ref"]
    assert targets("from mammamia_ref.kit import PROTOCOL", "mammamia_ref.kit.client") \
        == ["mammamia_ref.kit"]
    assert targets("import mammamia_ref.cli.app", "mammamia_ref.sim.fast") \
        == ["mammamia_ref.cli.app"]
    assert targets("from ..cli import app", "mammamia_ref.sim.counting") \
        == ["mammamia_ref.cli.app"]
    assert targets("from . import fast", "mammamia_ref.sim", is_package=True) \
        == ["mammamia_ref.sim.fast"]
    assert targets("import yaml", "mammamia_ref.kit.runner") == []


QUERIES_MODULE_LINES = 600
"""The most lines a module of ``queries/`` may have (issue 28: the catalogue split into
one module per query, the runner, the builders and the plans apart)."""


def test_no_module_of_the_queries_is_over_its_size() -> None:
    long = {path.name: n for path in sorted((PACKAGE / "queries").rglob("*.py"))
            if (n := len(path.read_text(encoding="utf-8").splitlines())) > QUERIES_MODULE_LINES}
    assert not long, long
