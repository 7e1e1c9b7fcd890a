"""The whole conformance run: its cases one after another within the run's time budget,
a broken implementation recorded and restarted (the cases themselves:
:mod:`mammamia_ref.kit.cases`)."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from mammamia_ref.errors import MalformedError
from mammamia_ref.kit.cases import CaseResult
from mammamia_ref.kit.client import Implementation, ImplementationError


class BudgetSpent(Exception):
    """The run's time budget ran out, possibly in the middle of a case."""


class Budgeted:
    """The implementation seen through the run's budget: no request starts after the
    deadline and none waits past it (in wall time, whatever the request's allowance), so
    a long counting run stops in time too."""

    def __init__(self, impl: Implementation, deadline: float) -> None:
        self.impl = impl
        self.deadline = deadline

    @property
    def info(self) -> dict[str, Any]:
        return self.impl.info

    def restart(self) -> None:
        """A new process for the next case: its start-up, too, ends by the deadline (a
        start-up allowance longer than what is left of the budget does not stretch it)."""
        if self.deadline - time.monotonic() <= 0:
            raise BudgetSpent
        try:
            self.impl.restart(self.deadline)
        except ImplementationError as exc:
            if exc.kind == "timeout" and time.monotonic() >= self.deadline:
                raise BudgetSpent from exc
            raise

    def request(self, op: str, *, timeout: float | None = None, work: int = 0,
                **fields: Any) -> dict[str, Any]:
        if self.deadline - time.monotonic() <= 0:
            raise BudgetSpent
        try:
            return self.impl.request(op, timeout=timeout, work=work, deadline=self.deadline,
                                     **fields)
        except ImplementationError as exc:
            if exc.kind == "timeout" and time.monotonic() >= self.deadline:
                raise BudgetSpent from exc
            raise


# --- the whole run ------------------------------------------------------------------


@dataclass
class ConformRun:
    impl: Implementation
    budget: float = 600.0
    results: list[CaseResult] = field(default_factory=list)
    interrupted: bool = False
    on_result: Callable[[CaseResult], None] | None = None

    def __post_init__(self) -> None:
        self.deadline = time.monotonic() + self.budget
        self.port = Budgeted(self.impl, self.deadline)

    def case(self, name: str, kind: str, body: Callable[[], CaseResult],
             rules: tuple[str, ...] = (), file: str | None = None) -> None:
        """Run one case; a broken implementation is recorded and restarted. The budget
        holds inside a case too: a case it cuts short is an error."""
        started = time.monotonic()
        spent = CaseResult(kind, name, "error", rules, message="the run's time budget is "
                           "spent", file=file)
        if started >= self.deadline:
            result = spent
        else:
            try:
                if not self.impl.alive:
                    self.port.restart()
                result = body()
            except BudgetSpent:
                result = spent
                self.impl.close()  # it may be in the middle of an answer
            except ImplementationError as exc:
                result = CaseResult(kind, name, "error", rules, message=str(exc), file=file)
                self.impl.close()
            except MalformedError as exc:
                result = CaseResult(kind, name, "error", rules, message=str(exc), file=file)
        result.seconds = time.monotonic() - started
        self.results.append(result)
        if self.on_result:
            self.on_result(result)
