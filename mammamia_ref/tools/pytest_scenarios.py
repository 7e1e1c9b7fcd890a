"""The pytest plugin ``mammamia``: every scenario file pytest meets is collected, each run
of each scenario one test item, named by the scenario's id (and run).

Registered on install (the ``pytest11`` entry point in pyproject.toml), so that after
``pip install mammamia`` a porter's ``pytest their/folder`` runs their own scenarios
against the reference, with no conftest.py to copy; ``-p no:mammamia`` turns it off. A
YAML file is taken for a scenario only when its top level has the keys every scenario
has (``id``, ``given``, and ``steps`` or ``runs``): the other YAML files of a project
(a CI workflow, a compose file, a data file) are left alone. The scenario code is
imported only when a scenario is met, so that the plugin costs other test runs nothing.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from mammamia_ref.errors import MalformedError
    from mammamia_ref.formats.scenario import Run, Scenario

# The top-level keys a file needs to be taken for a scenario (read from its first 64 KB).
_TOP_KEY = re.compile(r"^(id|given|steps|runs)\s*:", re.MULTILINE)
_SNIFF_BYTES = 65_536


class ScenarioFile(pytest.File):
    def collect(self) -> Iterator[pytest.Item]:
        from mammamia_ref.errors import MalformedError
        from mammamia_ref.formats.scenario import load_scenario

        try:
            scenario = load_scenario(self.path)
        except MalformedError as exc:
            yield ScenarioLoadError.from_parent(self, name=self.path.stem, error=exc)
            return
        for run in scenario.runs:
            name = scenario.id if run.name == "default" else f"{scenario.id}[{run.name}]"
            yield ScenarioItem.from_parent(self, name=name, scenario=scenario, run=run)


class ScenarioItem(pytest.Item):
    def __init__(self, *, scenario: Scenario, run: Run, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.scenario = scenario
        self.run = run

    def runtest(self) -> None:
        from mammamia_ref.sim.scenario_run import run_one

        result = run_one(self.scenario, self.run)
        if not result.passed:
            raise ScenarioFailure(result.step, result.line, result.failure or "")

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException],
                     style: Any = None) -> str:
        if isinstance(excinfo.value, ScenarioFailure):
            step, line, text = excinfo.value.args
            return f"{self.path}:{line}: diverged at step {step}\n" + \
                "\n".join(f"  {row}" for row in text.splitlines())
        return str(super().repr_failure(excinfo, style))

    def reportinfo(self) -> tuple[Path, int | None, str]:
        return self.path, None, f"scenario {self.name}"


class ScenarioLoadError(pytest.Item):
    def __init__(self, *, error: MalformedError, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.error = error

    def runtest(self) -> None:
        raise ScenarioFailure(None, None, str(self.error))

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException],
                     style: Any = None) -> str:
        return f"invalid scenario file: {self.error}"

    def reportinfo(self) -> tuple[Path, int | None, str]:
        return self.path, None, f"invalid scenario file {self.path.name}"


class ScenarioFailure(Exception):
    """A scenario run diverged from its expectations."""


def looks_like_scenario(path: Path) -> bool:
    """Whether a YAML file's top level has ``id``, ``given`` and ``steps`` or ``runs``.

    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> (folder / "a.yaml").write_text("id: a\\ngiven: {}\\nsteps: []\\n")
    26
    >>> (folder / "ci.yaml").write_text("on: push\\njobs: {}\\n")
    18
    >>> looks_like_scenario(folder / "a.yaml"), looks_like_scenario(folder / "ci.yaml")
    (True, False)
    """
    try:
        with path.open("rb") as handle:
            head = handle.read(_SNIFF_BYTES).decode("utf-8", errors="replace")
    except OSError:
        return False
    keys = set(_TOP_KEY.findall(head))
    return {"id", "given"} <= keys and bool(keys & {"steps", "runs"})


def collect_file(parent: pytest.Collector, file_path: Path) -> ScenarioFile | None:
    """A scenario file as a pytest collector; anything else is not ours (None)."""
    from mammamia_ref.formats.scenario import is_scenario_file

    if file_path.suffix != ".yaml":
        return None
    try:
        relative = file_path.relative_to(parent.config.rootpath)
    except ValueError:  # a file outside the project, named on the command line
        relative = Path(file_path.name)
    if is_scenario_file(relative) and looks_like_scenario(file_path):
        return ScenarioFile.from_parent(parent, path=file_path)
    return None


def pytest_collect_file(parent: pytest.Collector, file_path: Path) -> ScenarioFile | None:
    """The plugin's hook: pytest asks it about every file it meets."""
    return collect_file(parent, file_path)
