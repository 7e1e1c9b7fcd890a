"""pytest collection of scenario files: each run of each scenario is one test item,
named by the scenario's id (and run). Used by ``scenarios/conftest.py``."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from mammamia_ref.errors import MalformedError
from mammamia_ref.formats.scenario import Run, Scenario, _is_scenario_file, load_scenario, run_one


class ScenarioFile(pytest.File):
    def collect(self) -> Iterator[pytest.Item]:
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


class ScenarioFailure(Exception):
    """A scenario run diverged from its expectations."""


def collect_file(parent: pytest.Collector, file_path: Path) -> ScenarioFile | None:
    try:
        relative = file_path.relative_to(parent.config.rootpath)
    except ValueError:  # a file outside the project, named on the command line
        relative = Path(file_path.name)
    if file_path.suffix == ".yaml" and _is_scenario_file(relative):
        return ScenarioFile.from_parent(parent, path=file_path)
    return None
