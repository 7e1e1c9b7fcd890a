"""Every Python package under mammamia_ref/ is listed in pyproject.toml, so that an
installed (not editable) copy has all of it, spec files included."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tarfile
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_every_package_is_listed() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    listed = set(config["tool"]["setuptools"]["packages"])
    found = {".".join(p.parent.relative_to(ROOT).parts)
             for p in (ROOT / "mammamia_ref").rglob("__init__.py")}
    assert found <= listed, f"not listed in pyproject.toml: {sorted(found - listed)}"
    assert {"mammamia_ref.spec", "mammamia_ref.spec.schemas"} <= listed


def test_the_suite_is_package_data() -> None:
    """The scenarios and counting tables ship inside the package (issue 15): a porter's
    non-editable install runs the kit from any folder."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    tool = config["tool"]["setuptools"]
    assert "mammamia_ref.scenarios" in tool["packages"]
    assert tool["package-dir"]["mammamia_ref.scenarios"] == "scenarios"
    assert "**/*.yaml" in tool["package-data"]["mammamia_ref.scenarios"]


@pytest.mark.slow  # builds a source distribution in a subprocess
def test_the_sdist_carries_every_scenario_and_table(tmp_path: Path) -> None:
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True,
                            check=False)
    if listed.returncode != 0:
        pytest.skip("not a git checkout")
    source = tmp_path / "src"
    for name in filter(None, listed.stdout.decode().split("\0")):
        if (ROOT / name).is_file():
            (source / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, source / name)
    out = tmp_path / "dist"
    out.mkdir()
    built = subprocess.run([sys.executable, "-c", "import sys; from setuptools import "
                            "build_meta; print(build_meta.build_sdist(sys.argv[1]))", str(out)],
                           cwd=source, capture_output=True, text=True, check=False)
    assert built.returncode == 0, built.stderr[-2000:]
    with tarfile.open(out / built.stdout.strip().splitlines()[-1]) as sdist:
        names = {name.split("/", 1)[1] for name in sdist.getnames() if "/" in name}
    wanted = {str(p.relative_to(ROOT)) for p in (ROOT / "scenarios").rglob("*.yaml")}
    assert wanted and wanted <= names, sorted(wanted - names)[:5]
    assert "scenarios/perft/README.md" in names
