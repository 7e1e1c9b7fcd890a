"""The project's own promises: ruff-clean code, a README whose quick start CI runs."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _quick_start() -> list[str]:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```sh\n(.+?)\n```", section)


def test_readme_quick_start_is_two_commands_one_verify_one_tests() -> None:
    commands = _quick_start()
    assert len(commands) == 2
    assert commands[0].endswith("mammamia verify")
    assert "pytest" in commands[1]


def test_ci_runs_the_readme_commands() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    for command in _quick_start():
        assert command in ci, f".ci/run does not run the README's command: {command}"


@pytest.mark.slow  # runs other programs
def test_ruff_clean() -> None:
    ruff = shutil.which("ruff") or str(Path(sys.executable).parent / "ruff")
    if not Path(ruff).exists():
        pytest.skip("ruff is not installed (pip install -e '.[test]')")
    result = subprocess.run([ruff, "check", str(ROOT)], capture_output=True, text=True,
                            check=False)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.build
def test_mypy_strict_clean() -> None:
    """The whole package type-checks under ``mypy --strict`` (issue 14: typed phases).

    mypy is part of the test extra, so a missing mypy is a set-up error, not a skip."""
    result = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-error-summary",
                             str(ROOT / "mammamia_ref")],
                            capture_output=True, text=True, check=False, cwd=ROOT)
    assert "No module named mypy" not in result.stderr, "pip install -e '.[test]' adds mypy"
    assert result.returncode == 0, result.stdout + result.stderr
