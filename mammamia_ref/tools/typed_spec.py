"""Writes ``mammamia_ref/rules/typed_spec.py``: the spec's flags and parameters as types.

The flags (``spec/disputes.yaml``, ``variants:``) and the numbers of the rules
(``spec/cards.yaml``, ``parameters:``) are data; the code that reads them wants types, so
that ``mypy --strict`` finds every reader of a flag and every unhandled value. This
tool turns the data into one StrEnum per flag and two frozen dataclasses, ``Flags`` and
``Parameters``, with a typed attribute each. Nothing in it is written by hand:
``tests/test_typed_spec.py`` fails when the module differs from what the spec gives, and

    python -m mammamia_ref.tools.typed_spec

writes it again after a flag, a value or a parameter is added.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from mammamia_ref.rules import specdata

TARGET = Path(__file__).resolve().parent.parent / "rules" / "typed_spec.py"


def class_name(flag: str) -> str:
    """``minimale_lowest`` -> ``MinimaleLowest``."""
    return "".join(part.capitalize() for part in flag.split("_"))


def member_name(value: str) -> str:
    """``as_many_as_played`` -> ``AS_MANY_AS_PLAYED``."""
    return value.upper()


def _flag_enum(entry: dict[str, Any]) -> list[str]:
    dispute = entry.get("dispute") or "a house rule"
    lines = [f"class {class_name(entry['flag'])}(StrEnum):",
             f'    """The values of flag ``{entry["flag"]}`` ({dispute}); default '
             f'``{entry["default"]}``."""', ""]
    for value in entry["values"]:
        lines.append(f'    {member_name(value["value"])} = "{value["value"]}"  # {value["rule"]}')
    return lines + ["", ""]


def _parameter_type(entry: dict[str, Any]) -> str:
    return "tuple[int, ...]" if entry.get("per_players") else "int"


def render() -> str:
    """The module's text, from the spec as it is now."""
    flags = specdata.variant_flags()
    parameters = specdata.cards()["parameters"]
    out = ['"""GENERATED from spec/disputes.yaml (flags) and spec/cards.yaml (parameters) by',
           "``python -m mammamia_ref.tools.typed_spec``: do not edit by hand.",
           "",
           "One StrEnum per variant flag, and the typed records of a game's flag values and",
           "parameters; ``rules/ruleset.py`` builds them from the spec, a house rule and the",
           'command line. A per-players parameter is a tuple indexed by the player count."""',
           "",
           "from __future__ import annotations",
           "",
           "from dataclasses import dataclass",
           "from enum import StrEnum",
           "",
           ""]
    for entry in flags:
        out += _flag_enum(entry)
    out += ["FLAG_TYPES: dict[str, type[StrEnum]] = {"]
    out += [f"    {e['flag']!r}: {class_name(e['flag'])}," for e in flags]
    out += ["}", '"""Every flag, in the order of spec/disputes.yaml, with its values\' type."""',
            "", "",
            "@dataclass(frozen=True, slots=True)",
            "class Flags:",
            '    """A value of every variant flag."""', ""]
    out += [f"    {e['flag']}: {class_name(e['flag'])}" for e in flags]
    out += ["", "",
            "PARAMETER_NAMES: tuple[str, ...] = ("]
    out += [f"    {p['name']!r}," for p in parameters]
    out += [")", '"""Every parameter, in the order of spec/cards.yaml."""', "", "",
            "@dataclass(frozen=True, slots=True)",
            "class Parameters:",
            '    """A value of every number of the rules."""', ""]
    for p in parameters:
        out += [f"    {p['name']}: {_parameter_type(p)}", f'    """{p["summary"]} ({p["rule"]})"""']
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    text = render()
    if argv and argv[0] == "--check":
        same = TARGET.is_file() and TARGET.read_text(encoding="utf-8") == text
        print(f"{TARGET}: {'up to date' if same else 'differs from the spec'}")
        return 0 if same else 1
    TARGET.write_text(text, encoding="utf-8")
    print(f"wrote {TARGET}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
