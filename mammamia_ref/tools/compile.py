"""``python -m mammamia_ref.tools.compile``: build the optional compiled fast core.

Compiles the fast engine (:mod:`mammamia_ref.sim.fast`, its state and its chapters),
:mod:`~mammamia_ref.sim.careful` and :mod:`~mammamia_ref.sim.search` with mypyc
(``pip install mypy setuptools``, or the ``compile`` extra; a C compiler) in place: the
extension modules go next to the sources, with ``_compiled.json``, the SHA-256 of every
source file the build read (the compiled modules,
:data:`~mammamia_ref.sim.compiled.MODULES`, and every package module they import) and of
every extension file it wrote, which :mod:`mammamia_ref.sim.compiled` checks at every
start so that a stale or damaged build never runs.
The default install needs none of this: without a build the pure-Python modules run.

``--clean`` removes a build (back to pure Python); ``--check`` says whether a build is
there and current, without building. Exit codes: 0 built (or current), 1 the build
failed (or, with ``--check``, none is current), 3 no C compiler here (nothing built),
2 usage.
"""

from __future__ import annotations

import argparse
import ast
import importlib.machinery
import json
import os
import shlex
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from mammamia_ref.sim import compiled

NO_COMPILER = 3


def c_compiler() -> str | None:
    """The C compiler this Python's extensions are built with, if it is here."""
    configured = shlex.split(str(sysconfig.get_config_var("CC") or "cc"))
    command = os.environ.get("CC") or (configured[0] if configured else "cc")
    return shutil.which(shlex.split(command)[0]) if command else None


def sources() -> list[Path]:
    """The compiled modules and every module of the package they import, transitively
    (the build reads their types, and mypyc may take constants from them)."""
    package = compiled.PACKAGE_ROOT / "mammamia_ref"
    todo = [compiled.HERE / f"{name}.py" for name in compiled.MODULES]
    found: set[Path] = set()
    while todo:
        path = todo.pop()
        if path in found or not path.is_file():
            continue
        found.add(path)
        # the packages on the way are imported too
        for parent in path.parents:
            if parent == package.parent:
                break
            todo.append(parent / "__init__.py")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                names = [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
            for name in names:
                if name.split(".")[0] != "mammamia_ref":
                    continue
                base = compiled.PACKAGE_ROOT.joinpath(*name.split("."))
                todo += [base.with_suffix(".py"), base / "__init__.py"]
    return sorted(found)


def clean() -> list[Path]:
    removed = compiled.extension_files()
    if compiled.MANIFEST.exists():
        removed.append(compiled.MANIFEST)
    for path in removed:
        path.unlink()
    return removed


def build(verbose: bool = False) -> Path:
    """Compile the modules in place; returns the manifest written."""
    from mypy.version import __version__ as mypy_version
    from mypyc.build import mypycify
    from setuptools import Distribution

    root = compiled.PACKAGE_ROOT
    read = sources()
    before = {path.relative_to(root).as_posix(): compiled.sha256(path) for path in read}
    clean()
    with tempfile.TemporaryDirectory(prefix="mammamia-mypyc-") as scratch:
        cwd = Path.cwd()
        os.chdir(root)  # mypyc names the modules after their paths from here
        try:
            targets = [f"mammamia_ref/sim/{name}.py" for name in compiled.MODULES]
            extensions = mypycify(["--cache-dir", str(Path(scratch) / "cache"), *targets],
                                  target_dir=str(Path(scratch) / "c"),
                                  group_name=f"mammamia_ref.sim.{compiled.GROUP}",
                                  verbose=verbose)
            distribution = Distribution({"name": "mammamia-core", "ext_modules": extensions})
            command = distribution.get_command_obj("build_ext")
            command.inplace = True
            command.build_temp = str(Path(scratch) / "temp")
            distribution.verbose = verbose
            distribution.run_command("build_ext")
        finally:
            os.chdir(cwd)
    after = {path.relative_to(root).as_posix(): compiled.sha256(path) for path in read}
    if after != before:
        clean()
        raise RuntimeError("a source changed while it was being compiled: build again")
    manifest = {"compiler": compiled.COMPILER, "mypy": mypy_version,
                "python": sys.version.split()[0],
                "ext_suffix": importlib.machinery.EXTENSION_SUFFIXES[0],
                "modules": [f"mammamia_ref.sim.{name}" for name in compiled.MODULES],
                "built": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                "sources": before,
                "extensions": {path.name: compiled.sha256(path)   # what was built, checked
                               for path in compiled.extension_files()   # at every start
                               if path.name.endswith(importlib.machinery.EXTENSION_SUFFIXES[0])}}
    compiled.MANIFEST.write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    return compiled.MANIFEST


def loaded_core() -> str:
    """The core line of a fresh process that imports the compiled modules (what the next
    ``mammamia`` run will use)."""
    code = ("import mammamia_ref.sim.fast, mammamia_ref.sim.careful, mammamia_ref.sim.search;"
            "from mammamia_ref.sim.compiled import core_line; print(core_line())")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=False, env={k: v for k, v in os.environ.items()
                                            if k != compiled.PURE_ENV})
    return (done.stdout.strip() or done.stderr.strip().splitlines()[-1]) if (
        done.stdout or done.stderr) else "fast core: unknown"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m mammamia_ref.tools.compile",
                                     description="build the optional compiled fast core "
                                                 "(mypyc) in place")
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--clean", action="store_true",
                       help="remove the compiled core (back to pure Python)")
    group.add_argument("--check", action="store_true",
                       help="say whether a current build is there; exit 1 if not")
    parser.add_argument("--verbose", action="store_true", help="show the compiler's commands")
    args = parser.parse_args(argv)
    if args.clean:
        for path in clean():
            print(f"removed {path}")
        print(loaded_core())
        return 0
    if args.check:
        line = loaded_core()
        print(line)
        return 0 if line == f"fast core: compiled ({compiled.COMPILER})" else 1
    if c_compiler() is None:
        print("compile: no C compiler here (CC or cc): nothing built, the pure-Python core "
              "stays in use", file=sys.stderr)
        return NO_COMPILER
    try:
        import mypyc  # noqa: F401
    except ImportError:
        print("compile: mypyc is not installed: pip install mypy setuptools (or the "
              "'compile' extra)", file=sys.stderr)
        return 1
    started = time.perf_counter()
    try:
        manifest = build(args.verbose)
    except (Exception, SystemExit) as exc:
        clean()
        print(f"compile: the build failed ({type(exc).__name__}: {exc}); the pure-Python core "
              "stays in use", file=sys.stderr)
        return 1
    print(f"compiled {', '.join(compiled.MODULES)} in {time.perf_counter() - started:.0f} s; "
          f"recorded {manifest}")
    line = loaded_core()
    print(line)
    return 0 if line == f"fast core: compiled ({compiled.COMPILER})" else 1


if __name__ == "__main__":
    raise SystemExit(main())
