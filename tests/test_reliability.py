"""Hostile inputs of issue 17, each with the behaviour promised in docs/reliability.md:
one line and a non-zero exit, within bounded time and memory, and no process left.

Seeds, endless and special input files, unwritable outputs (devices, links, folders),
--expected-failures, --dask addresses, scenario checking that stays linear, and
implementations that fork, never read, or exit leaving a child that holds the pipes.
"""

from __future__ import annotations

import json
import os
import resource
import stat
import subprocess
import sys
import threading
from pathlib import Path

import jsonschema
import pytest
import yaml

from mammamia_ref.cli.app import main
from mammamia_ref.formats import safeyaml
from mammamia_ref.formats.output import OutputError, check_destination, write_atomically
from mammamia_ref.formats.safeyaml import InputFileError, read_bounded
from mammamia_ref.formats.scenario import load_scenario
from mammamia_ref.kit.client import Implementation, ImplementationError
from mammamia_ref.kit.report import load_expected_failures

sys.path.insert(0, str(Path(__file__).resolve().parent))
import patience

ROOT = Path(__file__).resolve().parent.parent
ONE_SCENARIO = str(ROOT / "scenarios" / "rulebook" / "alberto-turn.yaml")
BROKEN = [sys.executable, str(ROOT / "tests" / "impls" / "broken.py")]


def cli(capsys, *args: str) -> tuple[int, str, str]:
    try:
        code = main(list(args))
    except SystemExit as exc:  # argparse exits on bad arguments
        code = exc.code
    out, err = capsys.readouterr()
    return code, out, err


def one_line_error(code: int, err: str) -> bool:
    lines = err.splitlines()
    return code == 2 and len(lines) == 1 and lines[0].startswith("mammamia: error:")


# --- seeds and other command-line values ------------------------------------------------


@pytest.mark.parametrize("seed", ["\u00b2", "--5", "5" * 5000, "9223372036854775808", "1_000",
                                  "\u0663", " 7", "a b"])
@pytest.mark.parametrize("command", [["play", "--players", "2"],
                                     ["perft", "--players", "2", "--depth", "1"]])
def test_a_bad_seed_is_one_line(capsys, command: list[str], seed: str) -> None:
    code, out, err = cli(capsys, *command, f"--seed={seed}")
    assert one_line_error(code, err), err
    assert "seed" in err and out == ""


@pytest.mark.parametrize("seed", ["-4", "0", "9223372036854775807", "abc", "run-2.b"])
def test_a_good_seed_is_taken(capsys, seed: str) -> None:
    code, _, err = cli(capsys, "perft", "--players", "2", "--depth", "1", f"--seed={seed}")
    assert (code, err) == (0, "")


@pytest.mark.parametrize("args", [["--players", "9"], ["--players", "1"], ["--players", "two"],
                                  ["--players", "2", "--variant", "refill=to_seven",
                                   "--variant", "refill=as_many_as_played"]])
def test_players_and_repeated_variants_refused_by_the_parser(capsys, args: list[str]) -> None:
    code, _, err = cli(capsys, "play", "--seed", "1", *args)
    assert one_line_error(code, err), err


def test_simulate_seed_is_a_number_in_range(capsys) -> None:
    code, _, err = cli(capsys, "simulate", "--players", "2", "--games", "1", "--seed", "1" * 40)
    assert one_line_error(code, err), err


# --- input files: bounded, with a timeout, one line -------------------------------------


def run_limited(*args: str, memory: int = 1 << 30) -> subprocess.CompletedProcess[str]:
    """The command in a child whose address space is capped: an unbounded read dies
    with MemoryError (a traceback) instead of taking the machine's memory."""

    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))

    return patience.run([sys.executable, "-m", "mammamia_ref", *args], idle_seconds=120,
                        preexec_fn=cap, cwd=ROOT)


@pytest.mark.slow
@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom"])
def test_an_endless_device_is_refused_at_the_size_limit(device: str) -> None:
    result = run_limited("scenario", "run", device)
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert result.stderr.splitlines()[0] == \
        f"error: {device}: more than {safeyaml.MAX_BYTES} bytes; the limit is {safeyaml.MAX_BYTES}"


@pytest.mark.slow  # runs other programs
def test_a_pipe_without_a_writer_is_not_waited_for(tmp_path: Path) -> None:
    pipe = tmp_path / "pipe.yaml"
    os.mkfifo(pipe)
    found: list[BaseException] = []
    reader = threading.Thread(target=lambda: _catch(found, lambda: safeyaml.load_file(pipe)),
                              daemon=True)
    reader.start()
    patience.Patience(60).wait(lambda: not reader.is_alive())  # a hang guard
    if reader.is_alive():  # unblock the old reader, which waits for a writer for ever
        os.close(os.open(pipe, os.O_WRONLY | os.O_NONBLOCK))
        pytest.fail("opening a pipe without a writer blocked")
    assert len(found) == 1 and isinstance(found[0], InputFileError), found


def test_a_pipe_that_never_ends_is_given_up_after_the_timeout(tmp_path: Path) -> None:
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    writer = os.open(pipe, os.O_RDWR)  # holds the pipe open and writes a little
    try:
        os.write(writer, b"case-one\n")
        with pytest.raises(InputFileError, match=r"no end of the input within 0\.2 s"):
            read_bounded(pipe, 1000, timeout=0.2)
    finally:
        os.close(writer)


def _catch(found: list[BaseException], body) -> None:
    try:
        body()
    except BaseException as exc:  # the test looks at whatever came out
        found.append(exc)


@pytest.mark.parametrize("content,expected", [
    (None, "cannot read: no such file"),
    (b"case\n\xff\n", ":2: not UTF-8 text"),
    ("folder", "cannot read: a folder, not a file"),
    (b"x" * (safeyaml.MAX_BYTES + 1), "the limit is"),
])
def test_expected_failures_file_problems_are_one_error(tmp_path: Path, content,
                                                       expected: str) -> None:
    path = tmp_path / "xfail.txt"
    if content == "folder":
        path.mkdir()
    elif content is not None:
        path.write_bytes(content)
    with pytest.raises(InputFileError) as info:
        load_expected_failures(path)
    assert expected in str(info.value) and "\n" not in str(info.value)


@pytest.mark.slow
def test_expected_failures_from_dev_zero_is_one_line() -> None:
    result = run_limited("conform", "--scenarios", ONE_SCENARIO, "--random-games", "0",
                         "--expected-failures", "/dev/zero", "--", sys.executable, "-c", "")
    assert result.returncode == 2 and "Traceback" not in result.stderr, result.stderr[-500:]
    assert result.stderr.strip().splitlines()[-1].startswith("mammamia: error: /dev/zero")


# --- outputs: checked first, written atomically or directly, never renamed over ---------


def export(capsys, target: Path | str) -> tuple[int, str, str]:
    return cli(capsys, "scenario", "export", ONE_SCENARIO, "-o", str(target))


@pytest.mark.parametrize("where", ["folder", "parent_is_file", "missing_root"])
def test_export_into_an_unwritable_place_is_one_line(capsys, tmp_path: Path,
                                                    where: str) -> None:
    (tmp_path / "file").write_text("x")
    target = {"folder": tmp_path, "parent_is_file": tmp_path / "file" / "out.json",
              "missing_root": Path("/proc/no/such/out.json")}[where]
    code, _, err = export(capsys, target)
    assert one_line_error(code, err) and "cannot write" in err, err


def test_a_device_is_written_to_not_replaced(capsys, tmp_path: Path) -> None:
    """A copy of /dev/full (made as root) is left a device, and the full device is one line."""
    node = tmp_path / "full"
    try:
        os.mknod(node, stat.S_IFCHR | 0o666, os.stat("/dev/full").st_rdev)
    except PermissionError:
        node = Path("/dev/full")
    code, _, err = export(capsys, node)
    assert one_line_error(code, err) and "no space left" in err, err
    assert stat.S_ISCHR(os.lstat(node).st_mode)


def test_a_link_is_written_through_not_replaced(capsys, tmp_path: Path) -> None:
    """As ``-o /dev/stdout`` when stdout is a file: the link stays, the file gets the text."""
    real, link = tmp_path / "real.json", tmp_path / "stdout"
    real.write_text("old\n")
    link.symlink_to(real)
    code, _, err = export(capsys, link)
    assert (code, err) == (0, "")
    assert link.is_symlink() and json.loads(real.read_text())["scenarios"]


@pytest.mark.slow  # runs other programs
def test_export_to_dev_stdout_writes_the_bundle() -> None:
    result = patience.run([sys.executable, "-m", "mammamia_ref", "scenario", "export",
                           ONE_SCENARIO, "-o", "/dev/stdout"], idle_seconds=120, cwd=ROOT)
    assert result.returncode == 0, result.stderr
    assert '"format": "mammamia-scenario-bundle/1"' in result.stdout


def test_a_new_file_gets_the_umask_mode(tmp_path: Path) -> None:
    previous = os.umask(0o027)
    try:
        write_atomically(tmp_path / "report.json", "{}\n")
        replaced = tmp_path / "old.json"
        replaced.write_text("x")
        os.chmod(replaced, 0o600)
        write_atomically(replaced, "{}\n")
    finally:
        os.umask(previous)
    assert stat.S_IMODE(os.stat(tmp_path / "report.json").st_mode) == 0o640
    assert stat.S_IMODE(os.stat(replaced).st_mode) == 0o640


def test_a_pipe_nobody_reads_is_refused_not_waited_on(tmp_path: Path) -> None:
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    with pytest.raises(OutputError, match="a pipe that nobody reads"):
        write_atomically(pipe, "{}\n")
    assert stat.S_ISFIFO(os.lstat(pipe).st_mode)


def test_compare_refuses_its_output_before_playing(capsys, tmp_path: Path,
                                                   monkeypatch) -> None:
    from mammamia_ref.sim import impact

    def no_sweep(*args, **kwargs):
        raise AssertionError("the games were played before the output was checked")

    monkeypatch.setattr(impact, "sweep", no_sweep)
    code, _, err = cli(capsys, "compare", "D1", "--players", "2", "--games", "1", "-o",
                       str(tmp_path))
    assert one_line_error(code, err) and "is a folder" in err, err


def test_check_destination_accepts_what_can_be_written(tmp_path: Path) -> None:
    assert check_destination(tmp_path / "new" / "deeper" / "r.json") == \
        tmp_path / "new" / "deeper" / "r.json"
    assert check_destination("/dev/null") == Path("/dev/null")


# --- --dask ---------------------------------------------------------------------------


@pytest.mark.parametrize("address", ["not an address", "tcp://host:99999", "http://h:1",
                                     "tcp://:8786"])
def test_a_malformed_dask_address_is_one_line(capsys, address: str) -> None:
    code, _, err = cli(capsys, "simulate", "--players", "2", "--games", "1", "--dask", address)
    assert one_line_error(code, err) and "--dask" in err, err


@pytest.mark.slow
@pytest.mark.cluster
def test_an_unreachable_dask_scheduler_is_one_line(capsys, monkeypatch) -> None:
    pytest.importorskip("distributed")
    from mammamia_ref.sim import simulate

    # a refused connection is retried until the connect timeout: a short one will do
    monkeypatch.setattr(simulate, "DASK_CONNECT_SECONDS", 2)
    code, _, err = cli(capsys, "simulate", "--players", "2", "--games", "1", "--dask",
                       "tcp://127.0.0.1:1")
    assert one_line_error(code, err) and "cannot reach the scheduler" in err, err


# --- scenario check: each distinct action checked once ----------------------------------


def test_scenario_check_validates_each_distinct_action_once(tmp_path: Path,
                                                            monkeypatch) -> None:
    """Linear time, counted rather than timed: 5,000 copies of a legal action cost one
    check of the action schema's oneOf, not 5,000."""
    doc = yaml.safe_load((ROOT / "scenarios" / "oven" / "complete-or-decline.yaml").read_text())
    doc["id"] = "many-legal"
    doc["runs"][0]["steps"][0]["expect"]["legal"] = [{"type": "draw", "source": "supply"}] * 5000
    path = tmp_path / "many-legal.yaml"
    path.write_text(yaml.safe_dump(json.loads(json.dumps(doc)), sort_keys=False))
    calls = [0]
    one_of = jsonschema.Draft202012Validator.VALIDATORS["oneOf"]

    def counted(*args):
        calls[0] += 1
        return one_of(*args)

    monkeypatch.setitem(jsonschema.Draft202012Validator.VALIDATORS, "oneOf", counted)
    assert len(load_scenario(path).runs) == len(doc["runs"])
    assert calls[0] < 200, calls[0]


# --- hostile implementations ------------------------------------------------------------


def gone(pid: int) -> bool:
    """Ended: no such process, or a zombie waiting for a reaper (a container's init may
    not reap)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="utf-8") as status:
            return status.read().rsplit(")", 1)[1].split()[0] == "Z"
    except FileNotFoundError:
        return True


@pytest.mark.slow
@pytest.mark.parametrize("kind,code,expected", [
    ("fork_keeps_pipes", 2, "did not start"),
    ("exits_leaving_child", 1, "crash"),
    ("never_reads", 1, "timeout"),
])
def test_hostile_implementation_ends_and_leaves_no_process(tmp_path: Path, kind: str,
                                                           code: int, expected: str) -> None:
    pids = tmp_path / "pids"
    command = [sys.executable, "-m", "mammamia_ref", "conform", "-q", "--timeout", "2",
               "--startup-timeout", "5", "--scenarios", ONE_SCENARIO, "--random-games", "1",
               "--players", "2", "--perft", str(tmp_path), "--", *BROKEN, kind]
    try:
        result = patience.run(command, idle_seconds=120, cwd=ROOT,
                              env={**os.environ, "MAMMAMIA_CHILD_PIDS": str(pids)})
    finally:
        children = [int(p) for p in pids.read_text().split()] if pids.exists() else []
        # a child killed as the command ended may still be on its way out on a busy
        # machine: it has a (load-stretched) while to end; one left running does not
        left = [pid for pid in children if not patience.Patience(10).wait(lambda p=pid: gone(p))]
        for pid in left:
            os.kill(pid, 9)
    assert not left, f"processes left running: {left}"
    assert result.returncode == code, result.stderr
    assert expected in result.stdout + result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.slow
def test_a_request_to_an_implementation_that_never_reads_times_out() -> None:
    """A request larger than the pipe cannot be written to a program that does not read:
    the write itself has the request's timeout."""
    impl = Implementation([*BROKEN, "never_reads"], timeout=1, startup_timeout=30)
    found: list[BaseException] = []

    def body() -> None:
        impl.start()
        impl.request("load_state", state={"padding": "x" * 1_000_000})

    worker = threading.Thread(target=_catch, args=(found, body), daemon=True)
    worker.start()
    patience.Patience(60).wait(lambda: not worker.is_alive())  # a hang guard
    impl_alive = worker.is_alive()
    if not impl_alive:
        impl.close()
    assert not impl_alive, "the request blocked on a full pipe"
    assert len(found) == 1 and isinstance(found[0], ImplementationError), found
    assert found[0].kind == "timeout" and "does not read its input" in str(found[0])
