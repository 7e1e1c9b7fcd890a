"""The Python API reference: one page per public module, each rendered from the
module's docstrings by mkdocstrings at build time.

Only the modules a user of the package imports are public: the game API and its types,
the formats a port exchanges, the simulations a designer runs and the porter protocol.
The rest (the fast engine, the site, the command line, the z3 models) are internals of
these, free to change, and stay out of the reference. Nothing here imports them.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent.parent

# The public modules, in reading order: the API first, then what is built on it.
PUBLIC_MODULES: tuple[str, ...] = (
    "mammamia_ref",
    "mammamia_ref.errors",
    "mammamia_ref.rules.game",
    "mammamia_ref.rules.state",
    "mammamia_ref.rules.actions",
    "mammamia_ref.rules.events",
    "mammamia_ref.rules.observation",
    "mammamia_ref.rules.specdata",
    "mammamia_ref.formats.jsonform",
    "mammamia_ref.formats.scenario",
    "mammamia_ref.formats.narrate",
    "mammamia_ref.sim.play",
    "mammamia_ref.sim.simulate",
    "mammamia_ref.sim.compare",
    "mammamia_ref.sim.rulings",
    "mammamia_ref.sim.perft",
    "mammamia_ref.kit.protocol",
    "mammamia_ref.queries",
)


def module_file(module: str, package_dir: Path = PACKAGE_DIR) -> Path:
    """The source file of a dotted module name of the package."""
    parts = module.split(".")[1:]
    folder = package_dir.joinpath(*parts)
    return folder / "__init__.py" if folder.is_dir() else folder.with_suffix(".py")


def summary(module: str, package_dir: Path = PACKAGE_DIR) -> str:
    """The first line of a module's docstring, read with ``ast`` (nothing is imported)."""
    tree = ast.parse(module_file(module, package_dir).read_text(encoding="utf-8"))
    text = ast.get_docstring(tree) or ""
    first = " ".join(text.split("\n\n")[0].split())
    return first.replace("``", "`").replace(":func:", "").replace(":mod:", "")


def api_module_page(module: str) -> str:
    """A module's page: its title and the mkdocstrings directive that renders it."""
    return f"# `{module}`\n\n::: {module}\n    options:\n      show_root_heading: false\n"


def api_page_path(module: str) -> str:
    return f"porting/api/{module}.md"


def api_pages(package_dir: Path = PACKAGE_DIR) -> dict[str, str]:
    """The index (``porting/api.md``) and one page per public module."""
    rows = [f"| [`{m}`](api/{m}.md) | {summary(m, package_dir)} |" for m in PUBLIC_MODULES]
    index = ("# Python API\n\nThe public modules of the reference implementation, one page "
             "each, generated from their docstrings. Other modules are internals of these "
             "and may change without notice.\n\n| Module | What it is for |\n|---|---|\n"
             + "\n".join(rows) + "\n")
    pages = {"porting/api.md": index}
    pages.update({api_page_path(m): api_module_page(m) for m in PUBLIC_MODULES})
    return pages


__all__ = ["PUBLIC_MODULES", "api_module_page", "api_page_path", "api_pages", "summary"]
