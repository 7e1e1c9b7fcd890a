"""Target: the conformance runner reading a foreign implementation's answers. Whatever
an implementation answers, each case ends with a result (pass, fail, skip, or error for
a broken implementation) and the run goes on; every result can be reported (summary,
JSON lines, JUnit XML that parses).

The input is a JSON list of answers, optionally headed by the case to run (``"scenario"``,
``"perft"`` or ``"random"``): a JSON object is sent with the request's id unless it names
one, a string is sent as a raw line. Any other bytes are sent line by line, as they are.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterator
from functools import cache
from typing import Any

from mammamia_ref.formats.perft_table import load_perft_tables
from mammamia_ref.formats.scenario import load_scenario
from mammamia_ref.kit import PROTOCOL
from mammamia_ref.kit.cases import CaseResult, run_perft_case, run_random_game, run_scenario_case
from mammamia_ref.kit.client import _EOF, Implementation
from mammamia_ref.kit.protocol import ReferenceSession
from mammamia_ref.kit.report import junit_text, summary
from mammamia_ref.kit.runner import ConformRun
from mammamia_ref.rules.state import make_config

from . import corpus

EXPECTED: tuple[type[BaseException], ...] = ()  # a run records every failure as a result
FORMAT = "json"  # how inputs encode documents, for structured mutations
CASES = ("scenario", "perft", "random")


class _Process:
    """Stands in for the implementation's process: each request written to its stdin is
    answered at once by ``respond`` (a JSON value, or bytes sent as they are)."""

    def __init__(self, impl: Implementation, respond: Callable[[dict[str, Any]], Any]) -> None:
        self.impl, self.respond = impl, respond
        self.returncode: int | None = None
        self.stdin, self.stdout, self.stderr = self, None, None

    def write(self, raw: bytes) -> None:
        request = json.loads(raw)
        answer = self.respond(request)
        if answer is _EOF:
            self.returncode = 1
        elif isinstance(answer, bytes):
            pass
        elif isinstance(answer, str):
            answer = answer.encode("utf-8", "surrogatepass")
        else:
            if isinstance(answer, dict) and "id" not in answer:
                answer = {"id": request["id"], **answer}
            answer = json.dumps(answer).encode("utf-8")
        self.impl._lines.put(answer)

    def flush(self) -> None:
        pass

    def fileno(self) -> int:
        raise OSError("a scripted implementation has no pipes")

    def close(self) -> None:
        pass

    def poll(self) -> int | None:
        return self.returncode

    def kill(self) -> None:
        self.returncode = -9

    def wait(self, timeout: float | None = None) -> int | None:
        return self.returncode


def connect(respond: Callable[[dict[str, Any]], Any]) -> Implementation:
    """An implementation after its hello, answering through ``respond``."""
    impl = Implementation(["scripted"], timeout=0.0)
    process = _Process(impl, respond)
    impl._process = process  # type: ignore[assignment]
    # no pipes and no process group: requests go straight to the script, ending is a kill
    impl._send = lambda op, data, deadline, limit: process.write(data)  # type: ignore[method-assign]
    impl._end = lambda ended: ended.kill()  # type: ignore[method-assign]
    impl.info = ReferenceSession().op_hello({"protocol": PROTOCOL})
    return impl


def scripted(answers: list[Any]) -> Implementation:
    queue: Iterator[Any] = iter(answers)
    return connect(lambda request: next(queue, _EOF))


@cache
def _fixtures() -> tuple[Any, Any]:
    scenario = load_scenario(corpus.ROOT / "scenarios" / "rulebook" / "alberto-turn.yaml")
    table = next(t for t in load_perft_tables(corpus.ROOT / "scenarios" / "perft")
                 if t.id == "start-2p")  # 6 nodes at depth 1, 12 at depth 2
    return scenario, table


def run_case(case: str, impl: Implementation) -> CaseResult:
    scenario, table = _fixtures()
    if case == "scenario":
        return run_scenario_case(impl, scenario, scenario.runs[0])
    if case == "perft":
        return run_perft_case(impl, table, 40)
    return run_random_game(impl, make_config(2), 0, None, max_steps=12)


def fuzz_one(data: bytes) -> None:
    try:
        answers = json.loads(data)
    except (ValueError, RecursionError):
        answers = None
    if isinstance(answers, list):
        cases = [answers.pop(0)] if answers and answers[0] in CASES else list(CASES)
    else:
        answers, cases = data.split(b"\n"), list(CASES)
    results = []
    for case in cases:
        impl = scripted(list(answers))
        run = ConformRun(impl)  # records a broken implementation as an error, and goes on
        run.case(case, case, lambda case=case, impl=impl: run_case(case, impl))
        results += run.results
    for result in results:
        assert result.status in ("pass", "fail", "skip", "error"), result
        json.loads(json.dumps(result.as_json()))
    summary(results, implementation="fuzz", interrupted=False)
    ET.fromstring(junit_text(results, implementation="fuzz"))


def seeds() -> list[bytes]:
    """The reference's own answers in each case, recorded."""
    found = []
    for case in CASES:
        session, answers = ReferenceSession(), [case]

        def respond(request: dict[str, Any], session=session, answers=answers) -> Any:
            try:
                answer = {"id": request["id"], "ok": True, **session.handle(request)}
            except ValueError as exc:
                answer = {"id": request["id"], "ok": False, "error": {"message": str(exc)}}
            answers.append({k: v for k, v in answer.items() if k != "id"})
            return answer

        assert run_case(case, connect(respond)).status == "pass"
        found.append(corpus.as_bytes(answers))
    return found
