"""The hostile inputs of issue 17, each run as a command, with the figures the issue asks
for: tracebacks, hangs past the command's bound, processes left behind, peak memory.

    python -m tests.fuzz.hostile_inputs            # every input; a table and the totals
    python -m tests.fuzz.hostile_inputs seed dask  # only the inputs whose name has a word

Each command runs in its own session under ``/usr/bin/time`` (peak memory: the largest
resident size among the processes it waited for) with a watchdog of twice its bound; a
process of the session still alive after it ends counts as left behind (and is killed).
Exit 0 when every figure meets the goal: no traceback, no hang, no process left, peak
memory under 300 MB, and a non-zero exit with one ``error`` line for every bad input.
"""

from __future__ import annotations

import os
import signal
import stat
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MAMMAMIA = [sys.executable, "-m", "mammamia_ref"]
BROKEN = [sys.executable, str(ROOT / "tests" / "impls" / "broken.py")]
ONE = str(ROOT / "scenarios" / "rulebook" / "alberto-turn.yaml")
MEMORY_GOAL_MB = 300
WRITERS: list[subprocess.Popen[bytes]] = []


@dataclass
class Case:
    name: str
    args: list[str]
    bound: float  # seconds the command may take (its budget and timeouts, plus start-up)
    ok_exit: bool = False  # a hostile but legitimate input: exit 0 expected
    error_line: bool = True  # a refusal: its last line on stderr is the error


def cases(tmp: Path) -> list[Case]:
    big = _big_scenario(tmp)
    (tmp / "folder").mkdir()
    (tmp / "file").write_text("x")
    (tmp / "latin1.txt").write_bytes(b"caf\xe9\n")
    os.mkfifo(tmp / "pipe.yaml")
    os.mkfifo(tmp / "endless.yaml")  # a writer that holds it open and never ends
    WRITERS.append(subprocess.Popen(["sh", "-c", f"exec sleep 120 > {tmp / 'endless.yaml'}"]))
    full = tmp / "full"
    try:
        os.mknod(full, stat.S_IFCHR | 0o666, os.stat("/dev/full").st_rdev)
    except OSError:
        full = Path("/dev/full")
    conform = [*MAMMAMIA, "conform", "-q", "--scenarios", ONE, "--random-games", "1",
               "--players", "2", "--perft", str(tmp / "folder"), "--timeout", "2",
               "--startup-timeout", "5", "--budget", "20"]
    export = [*MAMMAMIA, "scenario", "export", ONE, "-o"]
    found = [
        *(Case(f"conform: {kind}", [*conform, "--", *BROKEN, kind], 30, error_line=False)
          for kind in ("fork_keeps_pipes", "exits_leaving_child", "never_reads",
                       "never_answers", "floods", "crashes_halfway")),
        *(Case(f"scenario run {what}", [*MAMMAMIA, "scenario", "run", what], 20)
          for what in ("/dev/zero", "/dev/urandom", str(tmp / "pipe.yaml"),
                       str(tmp / "endless.yaml"), str(tmp / "latin1.txt"))),
        Case("scenario check, 800 KB accepted", [*MAMMAMIA, "scenario", "check", str(big)], 10,
             ok_exit=True),
        *(Case(f"conform --expected-failures {what}",
               [*MAMMAMIA, "conform", "--scenarios", ONE, "--random-games", "0",
                "--expected-failures", what, "--", sys.executable, "-c", ""], 20)
          for what in ("/dev/zero", str(tmp / "missing"), str(tmp / "latin1.txt"),
                       str(tmp / "folder"))),
        *(Case(f"{command[0]} --seed {seed[:12]!r}",
               [*MAMMAMIA, *command, f"--seed={seed}"], 10)
          for command in (["play", "--players", "2"], ["perft", "--players", "2", "--depth", "1"])
          for seed in ("\u00b2", "--5", "5" * 5000)),
        Case("play --variant twice", [*MAMMAMIA, "play", "--players", "2", "--seed", "1",
                                      "--variant", "refill=to_seven", "--variant",
                                      "refill=as_many_as_played"], 10),
        *(Case(f"scenario export -o {what}", [*export, str(target)], 10)
          for what, target in (("a missing folder's file", "/proc/none/out.json"),
                               ("a file's child", tmp / "file" / "out.json"),
                               ("a folder", tmp / "folder"), ("a full device", full))),
        Case("scenario export -o /dev/stdout", [*export, "/dev/stdout"], 10, ok_exit=True),
        Case("compare -o a folder", [*MAMMAMIA, "compare", "D1", "--players", "2", "--games",
                                     "1", "-o", str(tmp / "folder")], 10),
        *(Case(f"conform --{option} a folder",
               [*MAMMAMIA, "conform", "--scenarios", ONE, "--random-games", "0", f"--{option}",
                str(tmp / "folder"), "--", *MAMMAMIA, "serve"], 60)
          for option in ("jsonl", "junit")),
        *(Case(f"simulate --dask {address}", [*MAMMAMIA, "simulate", "--players", "2",
                                               "--games", "1", "--dask", address], 30)
          for address in ("tcp://127.0.0.1:1", "not an address", "tcp://[::1")),
        *(Case(f"conform --timeout {value}",
               [*MAMMAMIA, "conform", "--scenarios", ONE, "--random-games", "0", "--timeout",
                value, "--", *BROKEN, "never_answers"], 40)
          for value in ("inf", "nan", "-1")),
        Case("conform --players 9", [*MAMMAMIA, "conform", "--scenarios", ONE, "--players", "9",
                                     "--", *MAMMAMIA, "serve"], 60),
    ]
    return found


def _big_scenario(tmp: Path) -> Path:
    """An accepted scenario of about 800 KB: one step expecting 21,000 legal actions."""
    import json

    import yaml

    doc = yaml.safe_load((ROOT / "scenarios" / "oven" / "complete-or-decline.yaml").read_text())
    doc["id"] = "big"
    doc["runs"][0]["steps"][0]["expect"]["legal"] = [{"type": "draw", "source": "supply"}] * 21000
    path = tmp / "big.yaml"
    path.write_text(yaml.safe_dump(json.loads(json.dumps(doc)), sort_keys=False))
    return path


@dataclass
class Outcome:
    case: Case
    code: int | None
    seconds: float
    peak_mb: float
    traceback: bool
    left: int
    last_line: str

    @property
    def hang(self) -> bool:
        return self.code is None or self.seconds > self.case.bound

    @property
    def one_line(self) -> bool:
        if self.case.ok_exit:
            return self.code == 0
        return self.code not in (0, None) and (not self.case.error_line
                                               or "error" in self.last_line)


def run(case: Case, tmp: Path) -> Outcome:
    measure = tmp / "time.txt"
    started = time.monotonic()
    process = subprocess.Popen(["/usr/bin/time", "-f", "%M", "-o", str(measure), *case.args],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                               start_new_session=True, cwd=ROOT)
    try:
        _, err = process.communicate(timeout=2 * case.bound)
        code: int | None = process.returncode
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        _, err = process.communicate()
        code = None
    seconds = time.monotonic() - started
    left = _session_members(process.pid)
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    text = err.decode("utf-8", "replace")
    lines = [line for line in text.splitlines() if line.strip()
             and not line.startswith("Command exited")]
    peak = int(measure.read_text().split()[-1]) / 1024 if measure.exists() else float("nan")
    return Outcome(case, code, seconds, peak, "Traceback" in text, len(left),
                   lines[-1] if lines else "")


def _session_members(session: int) -> list[int]:
    """The live (not zombie) processes of ``session``."""
    members = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[3]) == session and fields[0] != "Z":
            members.append(int(entry.name))
    return members


def main(words: list[str]) -> int:
    with tempfile.TemporaryDirectory() as folder:
        tmp = Path(folder)
        chosen = [c for c in cases(tmp) if not words or any(w in c.name for w in words)]
        outcomes = []
        print(f"{'input':44} {'exit':>4} {'s':>6} {'MB':>6} tb hang left  last line of stderr")
        for case in chosen:
            outcome = run(case, tmp)
            outcomes.append(outcome)
            print(f"{case.name[:44]:44} {outcome.code!s:>4} {outcome.seconds:6.1f} "
                  f"{outcome.peak_mb:6.0f} {'Y' if outcome.traceback else '-':>2} "
                  f"{'Y' if outcome.hang else '-':>4} {outcome.left:>4}  "
                  f"{outcome.last_line[:90]}", flush=True)
        for writer in WRITERS:
            writer.kill()
            writer.wait()
    tracebacks = sum(o.traceback for o in outcomes)
    hangs = sum(o.hang for o in outcomes)
    left = sum(o.left for o in outcomes)
    peak = max((o.peak_mb for o in outcomes), default=0.0)
    not_one_line = [o.case.name for o in outcomes if not o.one_line]
    print(f"\n{len(outcomes)} inputs: {tracebacks} tracebacks, {hangs} hangs past the bound, "
          f"{left} processes left, peak memory {peak:.0f} MB (goal < {MEMORY_GOAL_MB}), "
          f"{len(not_one_line)} without the expected exit and error line"
          + (f": {', '.join(not_one_line)}" if not_one_line else ""))
    return 0 if not (tracebacks or hangs or left or not_one_line) and peak < MEMORY_GOAL_MB \
        else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
