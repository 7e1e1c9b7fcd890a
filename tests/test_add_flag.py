"""``python -m mammamia_ref.tools.add_flag``: the scaffold of a new house flag writes every
piece that follows from the flag's description, in a copy of the checkout, and leaves a
project that says what is left to write by hand (the scenario skeleton is refused until
its steps are written); a second run, or a bad name, writes nothing."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
ARGS = ["waiter_draw", "--chapter", "turn", "--default",
        "fill=A draw from the waiter takes every order the refill allows.",
        "--default-rule", "turn.draw", "--value", "one=A draw from the waiter takes one order.",
        "--title", "Drawing one order from the waiter (a house rule)",
        "--statement", "House rule: a draw from the waiter takes one order only.",
        "--source", "a test of the scaffold"]


@pytest.fixture
def checkout(tmp_path: Path) -> Path:
    """The parts of the checkout the scaffold reads and writes."""
    for part in ("mammamia_ref", "spec", "scenarios", "examples/ports/javascript"):
        shutil.copytree(ROOT / part, tmp_path / part,
                        ignore=shutil.ignore_patterns("__pycache__", "*.so", "node_modules"))
    return tmp_path


def _run(where: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *args], cwd=where, capture_output=True,
                          text=True, timeout=300, env={"PYTHONPATH": str(where),
                                                       "PATH": "/usr/bin:/bin"})


def _snapshot(where: Path) -> dict[str, str]:
    return {str(p.relative_to(where)): p.read_text(encoding="utf-8")
            for p in where.rglob("*") if p.is_file() and p.suffix in (".py", ".yaml", ".json",
                                                                       ".js")}


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
        "mammamia_ref/rules/typed_spec.py", "mammamia_ref/rules/turn.py",
        fast, "scenarios/house/waiter-draw.yaml",
        "examples/ports/javascript/lib/cards.js"])
    assert "class WaiterDraw(StrEnum)" in after["mammamia_ref/rules/typed_spec.py"]
    assert "def waiter_draw_in_force(waiter_draw: str) -> bool:" in \
        after["mammamia_ref/rules/turn.py"]
    assert "self.waiter_draw: str = variants.flags.waiter_draw" in after[fast]
    assert "waiter_draw: ['fill', 'one']," in after["examples/ports/javascript/lib/cards.js"]
    assert "left to write by hand (four files):" in done.stdout
    for hand in ("mammamia_ref/rules/turn.py", fast,
                 "scenarios/house/waiter-draw.yaml", "examples/ports/javascript/lib/turn.js"):
        assert hand in done.stdout
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
