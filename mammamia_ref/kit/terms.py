"""What a port offers: the flag values and parameters its ``hello`` lists, and the
protocol version it speaks, which decide which cases it is run through and what is
sent to it and compared (docs/porting.md, "Protocol versions")."""

from __future__ import annotations

from typing import Any

from mammamia_ref.rules.ruleset import ParameterValue, Rules
from mammamia_ref.rules.state import variant_defaults


def supports(info: dict[str, Any], variants: dict[str, str],
             parameters: dict[str, ParameterValue] | None = None) -> str | None:
    """Why the implementation cannot run a game under ``variants`` and the non-default
    ``parameters`` (None if it can): ``hello``'s ``variants`` lists the values the port
    offers, the default included; a flag it leaves out offers its default alone; a
    parameter it does not list in ``parameters`` it takes at the spec's value alone
    (docs/porting.md, section 1)."""
    offered = info.get("variants") or {}
    defaults = variant_defaults()
    for flag, value in sorted(variants.items()):
        values = offered.get(flag)
        values = [defaults.get(flag)] if not isinstance(values, list) else values
        if value not in values:
            return f"needs {flag}={value}: {offers_in_words(flag, values)}"
    taken = info.get("parameters")
    taken = taken if isinstance(taken, list) else []
    for name, number in sorted((parameters or {}).items()):
        if name not in taken:
            return (f"needs {name}={number_in_words(number)}: your implementation takes no "
                    f"parameter {name}")
    return None


def number_in_words(value: ParameterValue) -> str:
    """A parameter's value as a skip line and a case name show it: ``8``, or by player
    count ``2:4,3:3,4:1,5:0`` (no ": ", which parts a skip line's why from its need)."""
    if isinstance(value, dict):
        return ",".join(f"{k}:{v}" for k, v in value.items())
    return str(value)


def supports_rules(info: dict[str, Any], rules: Rules) -> str | None:
    """:func:`supports` for a game's rules: its flags and its non-default parameters."""
    return supports(info, rules.as_dict(), rules.non_default_parameters())


def offers_in_words(flag: str, values: list[Any]) -> str:
    """What the port offers of one flag, the line a summary groups skips by."""
    shown = ", ".join(f"{flag}={v}" for v in values if isinstance(v, str))
    return f"your implementation offers {shown} only" if shown else \
        f"your implementation offers no value of {flag}"
