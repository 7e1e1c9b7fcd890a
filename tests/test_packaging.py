"""Every Python package under mammamia_ref/ is listed in pyproject.toml, so that an
installed (not editable) copy has all of it, spec files included."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_every_package_is_listed() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    listed = set(config["tool"]["setuptools"]["packages"])
    found = {".".join(p.parent.relative_to(ROOT).parts)
             for p in (ROOT / "mammamia_ref").rglob("__init__.py")}
    assert found <= listed, f"not listed in pyproject.toml: {sorted(found - listed)}"
    assert {"mammamia_ref.spec", "mammamia_ref.spec.schemas"} <= listed
