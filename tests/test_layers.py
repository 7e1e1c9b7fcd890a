"""The import layers of ``mammamia_ref``: a module imports only its own package or lower layers.

Lowest first: errors (0) < rules (1) < formats (2) < sim (3) < kit, queries (4) < site, tools
(5) < cli (6). Packages on the same layer are peers and may not import each other. The
top-level ``mammamia_ref/__init__.py`` is the public facade (it may import rules and formats
only, and counts as one more package of layer 2, so formats and rules may not import it);
a ``__main__.py`` (``python -m mammamia_ref``, ``python -m mammamia_ref.tools.bench``) is an
entry point: it may import cli only, and nothing imports it. Every import is
checked, those inside functions too, so a lazy import cannot hide a layer breach; cycles are
looked for among module-level imports (those that run when a module is loaded).
"""

from __future__ import annotations

import ast
import itertools
from collections.abc import Iterator
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "mammamia_ref"

LAYERS = {"errors": 0, "rules": 1, "formats": 2, "facade": 2, "sim": 3, "kit": 4, "queries": 4,
          "site": 5, "tools": 5, "cli": 6, "main": 7}
FACADE_MAY_IMPORT = {"errors", "rules", "formats"}
MAIN_MAY_IMPORT = {"cli"}

# Known breaches still to be removed, as (file, imported module). Empty: nothing may be
# added here without a reason written beside it.
ALLOWED: set[tuple[str, str]] = set()

Import = tuple[str, int, str, str, bool]  # file, line, source text, target, module level


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


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


def _targets(node: ast.Import | ast.ImportFrom, here: str, is_package: bool) -> Iterator[str]:
    """The modules of ours that one import statement loads."""
    if isinstance(node, ast.Import):
        yield from (alias.name for alias in node.names if alias.name.split(".")[0] == PACKAGE.name)
        return
    base = node.module or ""
    if node.level:
        anchor = here.split(".")
        anchor = anchor if is_package else anchor[:-1]
        anchor = anchor[: len(anchor) - (node.level - 1)]
        base = ".".join([*anchor, base] if base else anchor)
    if base.split(".")[0] != PACKAGE.name:
        return
    for alias in node.names:
        sub = f"{base}.{alias.name}"
        yield sub if is_module(sub) else base


def imports() -> Iterator[Import]:
    for path in sorted(PACKAGE.rglob("*.py")):
        source = path.read_text(encoding="utf-8")
        tree = ast.parse(source, filename=str(path))
        here, rel = module_name(path), path.relative_to(PACKAGE.parent).as_posix()
        top_level = {id(node) for node in tree.body
                     if isinstance(node, ast.Import | ast.ImportFrom)}
        top_level |= {id(node) for block in tree.body if isinstance(block, ast.If | ast.Try)
                      and "TYPE_CHECKING" not in ast.dump(getattr(block, "test", block.body[0]))
                      for node in ast.walk(block) if isinstance(node, ast.Import | ast.ImportFrom)}
        for node in ast.walk(tree):
            if isinstance(node, ast.Import | ast.ImportFrom):
                text = ast.get_source_segment(source, node) or ""
                for target in _targets(node, here, path.name == "__init__.py"):
                    yield rel, node.lineno, " ".join(text.split()), target, id(node) in top_level


def breach(source_file: str, target: str) -> str | None:
    """Why importing ``target`` from ``source_file`` breaks the layers, or None."""
    mine = package_of(module_name(PACKAGE.parent / source_file))
    theirs = package_of(target)
    if mine == theirs:
        return None
    if mine == "facade":
        return None if theirs in FACADE_MAY_IMPORT else "the facade may import rules/formats only"
    if mine == "main":
        return None if theirs in MAIN_MAY_IMPORT else "__main__ may import cli only"
    if LAYERS[theirs] > LAYERS[mine]:
        return f"{mine} (layer {LAYERS[mine]}) imports the higher {theirs} ({LAYERS[theirs]})"
    if LAYERS[theirs] == LAYERS[mine]:
        return f"{mine} imports its peer {theirs} (both layer {LAYERS[mine]})"
    return None


def test_every_package_has_a_layer() -> None:
    packages = {package_of(module_name(path)) for path in PACKAGE.rglob("*.py")}
    assert packages <= LAYERS.keys(), f"no layer for {sorted(packages - LAYERS.keys())}"


def test_imports_go_only_down_the_layers() -> None:
    found = list(imports())
    assert len(found) > 100, "the parser found too few imports to be looking at the package"
    breaches = list(dict.fromkeys(
        f"{file}:{line}: {text}  -- {why}" for file, line, text, target, _top in found
        if (file, target) not in ALLOWED and (why := breach(file, target))))
    assert not breaches, "imports against the layers:\n" + "\n".join(breaches)


def test_the_allow_list_holds_only_live_breaches() -> None:
    found = {(file, target) for file, _line, _text, target, _top in imports()}
    stale = [entry for entry in ALLOWED if entry not in found or not breach(*entry)]
    assert not stale, f"allowed breaches that are gone (delete them): {stale}"


def test_no_import_cycle() -> None:
    graph: dict[str, set[str]] = {}
    where: dict[tuple[str, str], str] = {}
    for file, line, text, target, top in imports():
        here = module_name(PACKAGE.parent / file)
        if top and target != here:
            graph.setdefault(here, set()).add(target)
            where.setdefault((here, target), f"{file}:{line}: {text}")
    cycle = find_cycle(graph)
    assert cycle is None, "import cycle:\n" + "\n".join(
        where[edge] for edge in itertools.pairwise(cycle))


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
    """The checker itself: a breach upward, between peers, from the facade, and a cycle."""
    assert breach("mammamia_ref/sim/counting.py", "mammamia_ref.cli.app")
    assert breach("mammamia_ref/kit/runner.py", "mammamia_ref.queries.timing")
    assert breach("mammamia_ref/__init__.py", "mammamia_ref.sim.fast")
    assert breach("mammamia_ref/formats/scenario.py", "mammamia_ref")
    assert breach("mammamia_ref/cli/app.py", "mammamia_ref.rules.game") is None
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": {"c"}}) is None


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
