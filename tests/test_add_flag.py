"""``python -m mammamia_ref.tools.add_flag``: the scaffold of a new house flag writes every
piece that follows from the flag's description, in a copy of the checkout, the porter
protocol's next version included (which the version tests then accept), and leaves a
project that says what is left to write by hand, three files (the scenario skeleton is
refused until its steps are written); a second run, a bad name or a generator that
fails writes nothing."""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from mammamia_ref.kit.versions import versions
from mammamia_ref.rules.specdata import load_yaml, spec_path
from mammamia_ref.tools.add_flag import FlagPlan, _import_enum, _register_rules

ROOT = Path(__file__).resolve().parent.parent
NEXT = len(versions()) + 1  # the protocol version the scaffold adds
ARGS = ["waiter_draw", "--chapter", "turn", "--default",
        "fill=A draw from the waiter takes every order the refill allows.",
        "--default-rule", "turn.draw", "--value", "one=A draw from the waiter takes one order.",
        "--event", "drew",
        "--title", "Drawing one order from the waiter (a house rule)",
        "--statement", "House rule: a draw from the waiter takes one order only.",
        "--source", "a test of the scaffold"]


@pytest.fixture
def checkout(tmp_path: Path) -> Path:
    """The parts of the checkout the scaffold reads and writes."""
    for part in ("mammamia_ref", "spec", "scenarios", "examples/ports/javascript"):
        shutil.copytree(ROOT / part, tmp_path / part,
                        ignore=shutil.ignore_patterns("__pycache__", "*.so", "node_modules"))
    for name in ("docs/porting.md", "docs/state-format.md", "CHANGELOG.md", "README.md"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / name, tmp_path / name)
    return tmp_path


def _run(where: Path, *args: str, code: bool = False) -> subprocess.CompletedProcess[str]:
    """A module of the copy run (``code``: a program given as text)."""
    return subprocess.run([sys.executable, "-c" if code else "-m", *args], cwd=where,
                          capture_output=True,
                          text=True, timeout=300, env={"PYTHONPATH": str(where),
                                                       "PATH": "/usr/bin:/bin"})


def _snapshot(where: Path) -> dict[str, str]:
    return {str(p.relative_to(where)): p.read_text(encoding="utf-8")
            for p in where.rglob("*") if p.is_file() and p.suffix in (".py", ".yaml", ".json",
                                                                       ".js", ".md")}


# What the copy's protocol must satisfy once the scaffold has run: the checks of
# tests/test_protocol_versions.py that a new flag meets (fingerprints, adds, docs).
VERSION_PROBE = """
import re
from pathlib import Path
from mammamia_ref.kit import PROTOCOL
from mammamia_ref.kit.versions import (COMPARED, compared_sha256, current, file_sha256,
                                       registered)
from mammamia_ref.rules.specdata import variant_flags
from mammamia_ref.rules.typed_spec import PARAMETER_NAMES
v = current()
assert PROTOCOL == v.id == "mammamia-protocol/@NEXT@", v.id
assert file_sha256(v.schema) == v.schema_sha256, "schema fingerprint"
assert compared_sha256(v, COMPARED) == v.compared_sha256, "compared fingerprint"
assert v.adds["flags"] == ("waiter_draw",) and v.needs == ("waiter_draw",)
assert set(registered("flags")) == {f["flag"] for f in variant_flags()}
guide = Path("docs/porting.md").read_text(encoding="utf-8")
section = re.sub(r"\\s+", " ", guide.split("## 7. Protocol versions", 1)[1])
assert v.id in section and v.id in Path("CHANGELOG.md").read_text(encoding="utf-8")
assert v.changes[0].split(" (")[0].split(":")[0][:40] in section
print("version ok")
"""


@pytest.mark.slow  # runs other programs
def test_the_scaffold_writes_every_piece_and_says_what_is_left(checkout: Path) -> None:
    before = _snapshot(checkout)
    done = _run(checkout, "mammamia_ref.tools.add_flag", *ARGS)
    assert done.returncode == 0, done.stderr
    after = _snapshot(checkout)
    changed = sorted(name for name in after if after[name] != before.get(name))
    # the module that holds the fast engine's Rules, wherever the engine's split put it
    fast = next(name for name in changed if name.startswith("mammamia_ref/sim/"))
    assert "\nclass Rules:" in after[fast]
    assert changed == sorted([
        "spec/disputes.yaml", "spec/rules.yaml", "spec/schemas/question.schema.json",
        "spec/events.yaml", "spec/schemas/event.schema.json",
        "spec/protocol.yaml", f"spec/schemas/protocol-{NEXT}.schema.json", "docs/porting.md",
        "README.md",
        "CHANGELOG.md", "mammamia_ref/rules/typed_spec.py", "mammamia_ref/rules/turn.py",
        fast, "scenarios/house/waiter-draw.yaml"])  # no example port
    assert "class WaiterDraw(StrEnum)" in after["mammamia_ref/rules/typed_spec.py"]
    assert "def waiter_draw_in_force(waiter_draw: str) -> bool:" in \
        after["mammamia_ref/rules/turn.py"]
    assert "return waiter_draw == WaiterDraw.ONE" in after["mammamia_ref/rules/turn.py"]
    chapter = ast.parse(after["mammamia_ref/rules/turn.py"])
    assert "WaiterDraw" in {alias.name for node in chapter.body
                            if isinstance(node, ast.ImportFrom)
                            and node.module == "mammamia_ref.rules.typed_spec"
                            for alias in node.names}
    assert "self.waiter_draw: str = variants.flags.waiter_draw" in after[fast]
    drew = yaml.safe_load(after["spec/events.yaml"])["events"]["drew"]["rules"]
    assert drew == [*yaml.safe_load(before["spec/events.yaml"])["events"]["drew"]["rules"],
                    "turn.waiter_draw_one"]
    assert "turn.waiter_draw_one" in after["spec/schemas/event.schema.json"]
    assert "{event: drew, rule: turn.waiter_draw_one}" in after["scenarios/house/waiter-draw.yaml"]
    said = set(done.stdout.split("left to write")[0].split()[1:])
    assert said == set(changed)
    assert "left to write by hand (three files):" in done.stdout
    for hand in ("mammamia_ref/rules/turn.py", "scenarios/house/waiter-draw.yaml",
                 "mammamia_ref/sim/fast_turn.py"):
        assert hand in done.stdout
    assert f"need `waiter_draw` (protocol /{NEXT})" in done.stdout
    version = _run(checkout, VERSION_PROBE.replace("@NEXT@", str(NEXT)), code=True)
    assert version.returncode == 0 and "version ok" in version.stdout, version.stderr
    # the project's own tests of the protocol's versions and of the porting guide's
    # examples pass in the copy as the scaffold left it
    for name in ("conftest.py", "pyproject.toml", "tests/conftest.py", "tests/patience.py",
                 "tests/test_protocol_versions.py", "tests/test_porting_guide.py",
                 "tests/test_flag_literals.py"):
        (checkout / name).parent.mkdir(exist_ok=True)
        shutil.copy(ROOT / name, checkout / name)
    kit = _run(checkout, "pytest", "-q", "-n", "0", "-p", "no:cacheprovider", "-m",
               "not slow", "tests/test_protocol_versions.py", "tests/test_porting_guide.py",
               "tests/test_flag_literals.py")
    assert kit.returncode == 0, kit.stdout[-3000:] + kit.stderr[-2000:]
    lint = _run(checkout, "ruff", "check", "--no-cache", "mammamia_ref/rules/turn.py", fast)
    assert lint.returncode == 0, lint.stdout + lint.stderr
    after = _snapshot(checkout)  # with the tests copied
    # the project still loads, knows the flag, and plays its default; the new rule is in the
    # register with its `when`; the skeleton is refused until its steps are written
    probe = _run(checkout, "mammamia_ref", "variants", "--json")
    assert probe.returncode == 0 and '"waiter_draw"' in probe.stdout, probe.stderr
    rules = _run(checkout, "mammamia_ref", "rules", "turn.waiter_draw_one")
    assert rules.returncode == 0 and "waiter_draw" in rules.stdout, rules.stderr
    play = _run(checkout, "mammamia_ref", "play", "--players", "2", "--seed", "1")
    assert play.returncode == 0, play.stderr
    skeleton = _run(checkout, "mammamia_ref", "scenario", "check",
                    "scenarios/house/waiter-draw.yaml")
    assert skeleton.returncode != 0 and "waiter-draw.yaml:" in skeleton.stderr
    # a second run writes nothing
    again = _run(checkout, "mammamia_ref.tools.add_flag", *ARGS)
    assert again.returncode == 2 and "already in spec/disputes.yaml (nothing written)" \
        in again.stderr
    assert _snapshot(checkout) == after


@pytest.mark.slow  # runs other programs
@pytest.mark.parametrize(("change", "said"), [
    (("--default-rule", "turn.nothing"), "is not in spec/rules.yaml"),
    (("--value", "Both=x"), "snake_case"),
    (("--value", "fill=x"), "must differ"),
    (("--event", "flew"), "spec/events.yaml has no event flew"),
])
def test_a_bad_flag_description_writes_nothing(checkout: Path, change: tuple[str, str],
                                               said: str) -> None:
    args = list(ARGS)
    at = args.index(change[0])
    args[at + 1] = change[1]
    before = _snapshot(checkout)
    done = _run(checkout, "mammamia_ref.tools.add_flag", *args)
    assert done.returncode == 2 and said in done.stderr and "nothing written" in done.stderr
    assert _snapshot(checkout) == before


@pytest.mark.slow  # runs other programs
def test_a_generator_that_fails_leaves_every_file_as_it_was(checkout: Path) -> None:
    """The scaffold writes some files before its generators run: if one fails, every
    file is put back and the new ones removed."""
    generator = checkout / "mammamia_ref" / "tools" / "question_schema.py"
    generator.write_text("raise SystemExit('the generator broke')\n", encoding="utf-8")
    before = _snapshot(checkout)
    done = _run(checkout, "mammamia_ref.tools.add_flag", *ARGS)
    assert done.returncode == 2 and "the generator broke" in done.stderr
    assert "nothing written" in done.stderr
    assert _snapshot(checkout) == before


def test_the_flags_enum_joins_the_chapters_imports_as_ruff_formats_them() -> None:
    plan = FlagPlan("waiter_draw", "oven", ("fill", "x"), "turn.draw", (("one", "y"),),
                    "t", "s", "src")
    short = "from a import b\nfrom mammamia_ref.rules.typed_spec import Refill, Stall\n"
    assert _import_enum(short, plan) == \
        "from a import b\nfrom mammamia_ref.rules.typed_spec import Refill, Stall, WaiterDraw\n"
    long = ("from mammamia_ref.rules.typed_spec import BombasticaHand, Completion, "
            "MinimaleLowest, MonotoniKind\n")
    assert _import_enum(long, plan) == (
        "from mammamia_ref.rules.typed_spec import (\n    BombasticaHand,\n    Completion,\n"
        "    MinimaleLowest,\n    MonotoniKind,\n    WaiterDraw,\n)\n")
    none = "from mammamia_ref.rules.state import X\nfrom mammamia_ref.rules.vocabulary import (\n"
    assert _import_enum(none, plan) == ("from mammamia_ref.rules.state import X\n"
                                        "from mammamia_ref.rules.typed_spec import WaiterDraw\n"
                                        "from mammamia_ref.rules.vocabulary import (\n")


def test_the_new_rules_join_each_events_rules_however_the_list_is_wrapped() -> None:
    plan = FlagPlan("waiter_draw", "oven", ("fill", "x"), "oven.fail", (("one", "y"),),
                    "t", "s", "src", ("failed", "drew"))
    text = spec_path("events.yaml").read_text(encoding="utf-8")
    written = yaml.safe_load(_register_rules(text, plan))["events"]
    for name, entry in load_yaml("events.yaml")["events"].items():
        added = ["oven.waiter_draw_one"] if name in ("failed", "drew") else []
        assert written[name] == {**entry, "rules": [*entry["rules"], *added]}, name
