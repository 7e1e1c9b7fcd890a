"""Which variant flags each z3 model implements, read from ``spec/disputes.yaml``.

Every flag's entry lists under ``models:`` the implementations that follow it
(``reference``, ``fast``, ``policies``, ``oven_model``, ``game_model``). A z3 model
answers only under values it implements: asked for a non-default value of a flag it
does not claim, it refuses (:class:`~mammamia_ref.errors.VariantError`) rather than
answer silently under the default.

>>> "completion" in implemented_flags("oven_model")
True
>>> model_variants("oven_model", {"stall": "letter"})
Traceback (most recent call last):
...
mammamia_ref.errors.VariantError: the z3 model oven_model does not implement stall=letter ...
"""

from __future__ import annotations

from collections.abc import Mapping

from mammamia_ref.errors import VariantError
from mammamia_ref.rules import specdata

Z3_MODELS = ("oven_model", "game_model")


def implemented_flags(model: str) -> frozenset[str]:
    """The flags whose ``models:`` list in ``spec/disputes.yaml`` names ``model``."""
    return specdata.flags_of(model)


def model_variants(model: str, variants: Mapping[str, str] | None) -> dict[str, str]:
    """A value for every flag (the default where ``variants`` gives none), after
    checking that ``model`` implements each value asked for."""
    entries = {entry["flag"]: entry for entry in specdata.variant_flags()}
    claimed = implemented_flags(model)
    values = {flag: entry["default"] for flag, entry in entries.items()}
    for flag, value in (variants or {}).items():
        entry = entries.get(flag)
        if entry is None:
            raise VariantError(f"unknown variant flag {flag!r}")
        if value not in {v["value"] for v in entry["values"]}:
            raise VariantError(f"unknown value {value!r} of variant flag {flag}")
        if value != entry["default"] and flag not in claimed:
            raise VariantError(f"the z3 model {model} does not implement {flag}={value} "
                               f"(it follows {flag}={entry['default']} only)")
        values[flag] = value
    return values


__all__ = ["Z3_MODELS", "implemented_flags", "model_variants"]
