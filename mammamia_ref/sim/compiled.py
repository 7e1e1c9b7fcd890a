"""Which fast core runs: the compiled one (mypyc), or the pure-Python modules.

The fast engine (:mod:`~mammamia_ref.sim.fast` and its state and chapters,
:data:`FAST_ENGINE`) and the players on it (:mod:`~mammamia_ref.sim.careful`,
:mod:`~mammamia_ref.sim.search`) can be compiled with
mypyc (``python -m mammamia_ref.tools.compile``): the extension modules are written next
to the sources, with a manifest (``_compiled.json``) that records the SHA-256 of every
source file the build read (the modules of :data:`MODULES` and the package
modules they import).
Python prefers an extension module to a source file of the same name, so a build left
behind after a source was edited would silently run the old code. This module, loaded
with :mod:`mammamia_ref.sim` (before any of its modules), decides once per process:

- compiled, when the manifest is there, every extension module is there for this
  Python with the SHA-256 the build recorded for it (an empty, truncated or scrambled
  ``.so`` would otherwise be loaded, and crash), the sources of the modules it compiles
  (``MODULES``) are recorded, and every recorded source still has its recorded hash;
- pure Python otherwise. When a build is there but cannot be trusted (a source edited
  since, no manifest, built for another Python, an extension missing or not the one
  built), it says why in a
  :class:`StaleCoreWarning` and loads the sources, whatever the import system would
  prefer (a finder placed first on ``sys.meta_path`` answers for those modules).
  ``MAMMAMIA_PURE=1`` asks for the pure-Python core on purpose (``mammamia bench
  --cores both`` runs its pure-Python side so), with no warning.

They are compiled together (mypyc calls between them natively), so they are used
all compiled or all pure, never mixed. :func:`status` says which was chosen and why;
:func:`loaded` says what the import system actually loaded; :func:`core_line` is the
line ``mammamia --version``, ``verify`` and ``bench`` print.

>>> status().kind in ("compiled", "pure")
True
>>> core_line().startswith("fast core: ")
True
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType

HERE = Path(__file__).resolve().parent
PACKAGE_ROOT = HERE.parent.parent  # the folder that holds mammamia_ref/
FAST_ENGINE = ("fast_state", "fast_setup", "fast_turn", "fast_round", "fast_oven",
               "fast_scoring", "fast_chance", "fast")
"""The fast engine's modules: its state, its chapters (as ``rules/``'s), its chance and
its API (:mod:`~mammamia_ref.sim.fast`)."""
MODULES = (*FAST_ENGINE, "careful", "search")
"""The modules compiled, all in one build (one shared library, ``_core__mypyc``)."""
GROUP = "_core"
MANIFEST = HERE / "_compiled.json"
PURE_ENV = "MAMMAMIA_PURE"
COMPILER = "mypyc"


class StaleCoreWarning(RuntimeWarning):
    """A compiled core is there but is not used: it is not the build of the sources."""


@dataclass(frozen=True)
class CoreStatus:
    """The decision: ``kind`` is ``compiled`` or ``pure``; ``reason`` says why (empty
    for a current build); ``built`` whether extension modules are there at all."""

    kind: str
    reason: str
    built: bool
    compiler: str = COMPILER

    @property
    def label(self) -> str:
        """``compiled (mypyc)`` or ``pure Python``, with the reason a build is not used."""
        if self.kind == "compiled":
            return f"compiled ({self.compiler})"
        return "pure Python" + (f" ({self.reason})" if self.reason else "")


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def extension_files() -> list[Path]:
    """The extension modules of a build in this folder, for any Python."""
    names = [*MODULES, f"{GROUP}__mypyc"]
    return sorted(path for path in HERE.iterdir()
                  if path.name.split(".")[0] in names and path.suffix in (".so", ".pyd"))


def _suffix() -> str:
    return importlib.machinery.EXTENSION_SUFFIXES[0]


def _decide() -> CoreStatus:
    built = bool(extension_files())
    if os.environ.get(PURE_ENV, "") not in ("", "0"):
        return CoreStatus("pure", f"{PURE_ENV} is set", built)
    if not built:
        return CoreStatus("pure", "", False)
    try:
        manifest = json.loads(MANIFEST.read_text(encoding="utf-8"))
        sources: dict[str, str] = dict(manifest["sources"])
        extensions: dict[str, str] = dict(manifest["extensions"])
        suffix: str = manifest["ext_suffix"]
    except (OSError, ValueError, KeyError, TypeError):
        return CoreStatus("pure", f"a build is there but no readable {MANIFEST.name} (with "
                                  "the hashes of what was built): rebuild it", built)
    if suffix != _suffix():
        return CoreStatus("pure", f"the build is for another Python ({suffix}): rebuild it",
                          built)
    why = _unlike_the_build(extensions, suffix) or _unlike_the_sources(sources)
    if why:
        return CoreStatus("pure", f"{why}; rebuild it", built)
    return CoreStatus("compiled", "", True)


def _unlike_the_build(extensions: dict[str, str], suffix: str) -> str:
    """Why the extension files are not the ones the build wrote (missing, or their
    SHA-256 not the recorded one: empty, truncated, scrambled), or ``""``."""
    wanted = [f"{name}{suffix}" for name in (*MODULES, f"{GROUP}__mypyc")]
    missing = [name for name in wanted if not (HERE / name).is_file()]
    if missing:
        return f"the build is missing {', '.join(missing)}"
    if sorted(extensions) != sorted(wanted):
        return f"{MANIFEST.name} does not record the hash of every extension built"
    changed = []
    for name in wanted:
        try:
            if sha256(HERE / name) != extensions[name]:
                changed.append(name)
        except OSError:
            changed.append(name)
    return (f"{', '.join(changed)} is not the file that was built (empty, truncated or "
            "changed since)") if changed else ""


def _unlike_the_sources(sources: dict[str, str]) -> str:
    """Why the sources are not the ones the build read (one of the compiled modules not
    recorded, or one changed since), or ``""``."""
    unrecorded = [f"mammamia_ref/sim/{name}.py" for name in MODULES
                  if f"mammamia_ref/sim/{name}.py" not in sources]
    if unrecorded:
        return f"{MANIFEST.name} does not record the source {unrecorded[0]}"
    changed = []
    for relative, digest in sorted(sources.items()):
        path = PACKAGE_ROOT / relative
        try:
            if sha256(path) != digest:
                changed.append(relative)
        except OSError:
            changed.append(relative)
    if changed:
        shown = ", ".join(changed[:3]) + (f" and {len(changed) - 3} more" if len(changed) > 3
                                          else "")
        return f"the build is stale: {shown} changed since it was compiled"
    return ""


class _SourcesFirst(importlib.abc.MetaPathFinder):
    """Loads the compiled modules from their ``.py`` files, whatever else is there."""

    def find_spec(self, fullname: str, path: Sequence[str] | None,
                  target: ModuleType | None = None) -> ModuleSpec | None:
        prefix, _, name = fullname.rpartition(".")
        if prefix != __name__.rpartition(".")[0] or name not in MODULES:
            return None
        return importlib.util.spec_from_file_location(fullname, HERE / f"{name}.py")


_STATUS: CoreStatus | None = None


def install() -> CoreStatus:
    """Decide (once per process), warn about a build that is not used, and make the
    import system load what was decided. Called by ``mammamia_ref/sim/__init__.py``."""
    global _STATUS
    if _STATUS is None:
        _STATUS = _decide()
        if _STATUS.kind == "pure" and _STATUS.built:
            if not any(isinstance(finder, _SourcesFirst) for finder in sys.meta_path):
                sys.meta_path.insert(0, _SourcesFirst())
            if not _STATUS.reason.startswith(PURE_ENV):
                warnings.warn(f"mammamia: the compiled fast core is not used, {_STATUS.reason} "
                              "(python -m mammamia_ref.tools.compile); running the pure-Python "
                              "core", StaleCoreWarning, stacklevel=2)
    return _STATUS


def status() -> CoreStatus:
    """The core this process uses (or will use, once the modules are imported)."""
    return install()


def loaded() -> dict[str, str]:
    """What the import system loaded for each of :data:`MODULES` already imported:
    ``compiled`` (an extension module) or ``pure`` (its source)."""
    found = {}
    for name in MODULES:
        module = sys.modules.get(f"{__name__.rpartition('.')[0]}.{name}")
        if module is not None:
            file = str(getattr(module, "__file__", "") or "")
            found[name] = "pure" if file.endswith(".py") else "compiled"
    return found


def core_line() -> str:
    """``fast core: compiled (mypyc)`` or ``fast core: pure Python`` (and why a build is
    not used). If a module already loaded is not what was decided, it says so: a
    verification tool must never run code other than what it claims."""
    decided = status()
    mixed = sorted(name for name, kind in loaded().items() if kind != decided.kind)
    if mixed:
        return (f"fast core: MIXED: {', '.join(mixed)} loaded as "
                f"{'pure Python' if decided.kind == 'compiled' else 'compiled'}, "
                f"expected {decided.label}")
    return f"fast core: {decided.label}"


__all__ = ["FAST_ENGINE", "MODULES", "CoreStatus", "StaleCoreWarning", "core_line", "install",
           "loaded", "status"]
