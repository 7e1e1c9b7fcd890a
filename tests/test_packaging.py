"""What an installed (not editable) copy holds: every Python package under mammamia_ref/
is listed in pyproject.toml, spec files included; the metadata a package index shows
(an SPDX license with its file, classifiers); the changelog's form."""

from __future__ import annotations

import email.parser
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tomllib
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def project() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def test_every_package_is_listed() -> None:
    """Every Python package, and every scenario folder (data only: setuptools warns that
    the files of a folder not listed would be ignored)."""
    config = project()
    listed = set(config["tool"]["setuptools"]["packages"])
    found = {".".join(p.parent.relative_to(ROOT).parts)
             for p in (ROOT / "mammamia_ref").rglob("__init__.py")}
    found |= {"mammamia_ref.scenarios." + ".".join(p.relative_to(ROOT / "scenarios").parts)
              for p in (ROOT / "scenarios").rglob("*") if p.is_dir()
              and "__pycache__" not in p.parts and any(f.is_file() for f in p.iterdir())}
    found |= {".".join(["mammamia_ref.examples", *p.relative_to(ROOT / "examples").parts])
              for p in [ROOT / "examples", *(ROOT / "examples").rglob("*")] if p.is_dir()
              and any(f.is_file() for f in p.iterdir())}
    assert found <= listed, f"not listed in pyproject.toml: {sorted(found - listed)}"
    assert {"mammamia_ref.spec", "mammamia_ref.spec.schemas"} <= listed


def test_the_license_is_an_spdx_expression_with_its_file() -> None:
    """PEP 639: a plain expression, the files it names, and no License classifier (which
    setuptools refuses beside an expression)."""
    config = project()
    meta = config["project"]
    assert meta["license"] == "MIT"
    assert [(ROOT / name).is_file() for name in meta["license-files"]] == [True]
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License") and "Copyright (c) 2026 the mammamia authors" in text
    assert not [c for c in meta["classifiers"] if c.startswith("License ::")]
    needed = [r for r in config["build-system"]["requires"] if r.startswith("setuptools")]
    assert needed == ["setuptools>=77"], "license expressions need setuptools 77 or later"


def test_classifiers_match_the_project() -> None:
    meta = project()["project"]
    low = re.fullmatch(r">=3\.(\d+)", meta["requires-python"])
    assert low, meta["requires-python"]
    versions = [c.rsplit(" :: ", 1)[1] for c in meta["classifiers"]
                if re.fullmatch(r"Programming Language :: Python :: 3\.\d+", c)]
    assert versions and all(int(v.split(".")[1]) >= int(low[1]) for v in versions)
    assert meta["keywords"] and len(set(meta["classifiers"])) == len(meta["classifiers"])


def test_the_changelog_keeps_its_form() -> None:
    """Keep a Changelog: an Unreleased section first, then releases, and only its kinds
    of change."""
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    releases = re.findall(r"^## \[([^\]]+)\]", text, flags=re.MULTILINE)
    assert releases and releases[0] == "Unreleased"
    kinds = set(re.findall(r"^### (.+)$", text, flags=re.MULTILINE))
    assert kinds and kinds <= {"Added", "Changed", "Deprecated", "Removed", "Fixed", "Security"}
    unreleased = text.split("## [Unreleased]", 1)[1].split("\n## ", 1)[0]
    assert re.search(r"^- ", unreleased, flags=re.MULTILINE)


@pytest.mark.build
def test_the_wheel_holds_everything_an_installed_copy_needs(tmp_path: Path) -> None:
    """Build the wheel from a copy of the sources (so the tree is left clean) and find in
    it every module, every spec file and schema, the license and the metadata."""
    import setuptools

    if int(setuptools.__version__.split(".")[0]) < 77:
        pytest.skip(f"setuptools {setuptools.__version__} here; the test extra asks for 77+")
    source = tmp_path / "source"
    source.mkdir()
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        shutil.copy(ROOT / name, source / name)
    for folder in ("mammamia_ref", "spec", "scenarios", "examples"):
        shutil.copytree(ROOT / folder, source / folder,
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    done = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps",
                           "--no-build-isolation", "--quiet", "-w", str(tmp_path / "dist"),
                           str(source)], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    [wheel] = (tmp_path / "dist").glob("mammamia-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    modules = {p.relative_to(ROOT).as_posix() for p in (ROOT / "mammamia_ref").rglob("*.py")
               if "__pycache__" not in p.parts}
    spec = {"mammamia_ref/spec/" + p.relative_to(ROOT / "spec").as_posix()
            for p in [*(ROOT / "spec").glob("*.yaml"), *(ROOT / "spec" / "schemas").glob("*.json")]}
    assert modules and not modules - names, sorted(modules - names)
    assert len(spec) > 8 and not spec - names, sorted(spec - names)
    examples = {"mammamia_ref/examples/" + p.relative_to(ROOT / "examples").as_posix()
                for p in (ROOT / "examples").rglob("*") if p.is_file()}
    assert len(examples) > 10 and not examples - names, sorted(examples - names)
    info = next(n.split("/")[0] for n in names if n.endswith(".dist-info/METADATA"))
    assert f"{info}/licenses/LICENSE" in names
    metadata = email.parser.Parser().parsestr(
        zipfile.ZipFile(wheel).read(f"{info}/METADATA").decode("utf-8"))
    assert metadata["License-Expression"] == "MIT"
    assert set(metadata.get_all("Classifier")) == set(project()["project"]["classifiers"])


def test_the_suite_is_package_data() -> None:
    """The scenarios and counting tables ship inside the package (issue 15): a porter's
    non-editable install runs the kit from any folder."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    tool = config["tool"]["setuptools"]
    assert "mammamia_ref.scenarios" in tool["packages"]
    assert tool["package-dir"]["mammamia_ref.scenarios"] == "scenarios"
    assert "**/*.yaml" in tool["package-data"]["mammamia_ref.scenarios"]


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, str]:
    """An sdist and a wheel built, as a release would be, from a copy of the files git
    tracks: (sdist, wheel, everything the build printed). Byte-compiling is left on, so
    that a warning from the environment does not hide one from the project."""
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True,
                            check=False)
    if listed.returncode != 0:
        pytest.skip("not a git checkout")
    tmp_path = tmp_path_factory.mktemp("build")
    source = tmp_path / "src"
    for name in filter(None, listed.stdout.decode().split("\0")):
        if (ROOT / name).is_file():
            (source / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, source / name)
    out = tmp_path / "dist"
    out.mkdir()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    done = subprocess.run([sys.executable, "-W", "default", "-c",
                           "import sys; from setuptools import build_meta as b; "
                           "out = sys.argv[1]; b.build_sdist(out); b.build_wheel(out)",
                           str(out)], cwd=source, capture_output=True, text=True, check=False,
                          env=env)
    assert done.returncode == 0, done.stderr[-2000:]
    [sdist], [wheel] = out.glob("*.tar.gz"), out.glob("*.whl")
    return sdist, wheel, done.stdout + done.stderr


@pytest.mark.build  # builds a source distribution and a wheel in a subprocess
def test_the_build_prints_no_warning(built: tuple[Path, Path, str]) -> None:
    """Not one warning: setuptools' "Package would be ignored" for a data folder left
    out of `packages`, a MANIFEST.in line that matches nothing, a deprecated setting."""
    *_, output = built
    warnings = [line for line in output.splitlines() if "warn" in line.lower()]
    assert warnings == [], warnings[:5]


@pytest.mark.build
def test_the_wheel_is_typed(built: tuple[Path, Path, str]) -> None:
    """PEP 561: py.typed in the wheel, so that a user's type checker reads our hints."""
    _, wheel, _ = built
    assert "mammamia_ref/py.typed" in zipfile.ZipFile(wheel).namelist()


@pytest.mark.build
def test_the_sdist_carries_every_scenario_and_table(built: tuple[Path, Path, str]) -> None:
    """Every scenario and table, and what a reader of the sources needs beside the
    package: the changelog, the contributors' guide, the site's sources, the example port."""
    sdist, _, _ = built
    with tarfile.open(sdist) as archive:
        names = {name.split("/", 1)[1] for name in archive.getnames() if "/" in name}
    wanted = {str(p.relative_to(ROOT)) for p in (ROOT / "scenarios").rglob("*.yaml")}
    assert wanted and wanted <= names, sorted(wanted - names)[:5]
    assert "scenarios/perft/README.md" in names
    assert {"CHANGELOG.md", "CONTRIBUTING.md", "mkdocs.yml", "README.md", "LICENSE"} <= names
    tracked = subprocess.run(["git", "ls-files", "docs", "examples"], cwd=ROOT,
                             capture_output=True, text=True, check=True).stdout.split()
    assert len(tracked) > 20 and not set(tracked) - names, sorted(set(tracked) - names)[:5]
    assert not [n for n in names if "__pycache__" in n or n.endswith(".pyc")]
