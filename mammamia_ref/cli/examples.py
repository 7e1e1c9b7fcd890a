"""``mammamia examples DIR``: copy out the examples that ship with the package (the
house rules, the designer's questions and the complete JavaScript port the porting guide
starts from), so that the documented ``examples/...`` commands run after ``pip install``
from any folder. Nothing is overwritten: a file already there is one line, exit 2."""

from __future__ import annotations

import argparse
import shutil
from pathlib import Path

from mammamia_ref.cli.args import Commands
from mammamia_ref.errors import UsageError

_PACKAGE = Path(__file__).resolve().parent.parent
# Shipped inside the installed package; read from the top-level folder in a checkout.
_INSTALLED, _SOURCE = _PACKAGE / "examples", _PACKAGE.parent / "examples"
WANTED = (".yaml", ".md", ".js", ".json")  # what the wheel ships of examples/


def packaged_examples() -> Path:
    return _INSTALLED if _INSTALLED.is_dir() else _SOURCE


def add_parsers(commands: Commands) -> None:
    parser = commands.add_parser(
        "examples", help="copy the examples shipped with the package into a folder",
        description="Copy the examples shipped with this version of the package into DIR: "
        "house-rules/ (house-rule files), questions/ (designer's questions for mammamia "
        "ask) and ports/javascript/ (a complete port speaking the porter protocol, with its "
        "LEARNED.md: where a porter starts, docs/porting.md). Run from the folder that holds "
        "DIR, the documented commands then work as written (mammamia examples examples; "
        "mammamia conform -- node examples/ports/javascript/mammamia.js). No file already "
        "in DIR is overwritten.")
    parser.add_argument("folder", metavar="DIR", help="where to copy them (created if needed)")
    parser.set_defaults(handler=run_examples)


def shipped() -> list[Path]:
    """Every example file, relative to the examples folder, in a stable order."""
    root = packaged_examples()
    return sorted(p.relative_to(root) for p in root.rglob("*")
                  if p.is_file() and p.suffix in WANTED and "__pycache__" not in p.parts)


def run_examples(args: argparse.Namespace) -> int:
    root, target = packaged_examples(), Path(args.folder)
    files = shipped()
    if not files:
        raise UsageError(f"no examples ship with this installation (looked in {root})")
    if target.exists() and not target.is_dir():
        raise UsageError(f"{target} is not a folder", options=("DIR",))
    there = [f for f in files if (target / f).exists() or (target / f).is_symlink()]
    if there:
        raise UsageError(f"{target / there[0]} already exists ({len(there)} of the "
                         f"{len(files)} example files are there); give an empty or new "
                         "folder", options=("DIR",))
    for name in files:
        (target / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(root / name, target / name)
    print(f"copied {len(files)} example files into {target}: house-rules/, questions/, "
          f"ports/javascript/ (start with {target / 'ports/javascript/README.md'})")
    return 0
