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
from mammamia_ref.rules.ruleset import Flags, Rules, default_rules, make_rules
from mammamia_ref.rules.state import refuse_unclaimed, variant_defaults

Z3_MODELS = ("oven_model", "game_model")


def implemented_flags(model: str) -> frozenset[str]:
    """The flags whose ``models:`` list in ``spec/disputes.yaml`` names ``model``."""
    return specdata.flags_of(model)


FlagValues = Mapping[str, str] | Flags | Rules
"""What a query is asked under: flag values by name, the typed flags, or a game's rules."""


def as_rules(values: FlagValues | None) -> Rules:
    """The rules of ``values`` (the spec's parameters unless they are a game's rules)."""
    if isinstance(values, Rules):
        return values
    if isinstance(values, Flags):
        return Rules(values, default_rules().parameters)
    return make_rules(values)


def flag_values(values: FlagValues | None) -> dict[str, str]:
    """Flag values by name: as given for a map (only those named), every flag's for the
    typed flags or a game's rules; for merging overrides."""
    if values is None:
        return {}
    if isinstance(values, Mapping):
        return dict(values)
    return as_rules(values).as_dict()


def flags_of(values: FlagValues | None) -> Flags:
    """The typed flags of ``values`` (the defaults where a map names none)."""
    return as_rules(values).flags


def model_rules(model: str, variants: FlagValues | None) -> Rules:
    """The rules a z3 model answers under: a value for every flag (the default where
    ``variants`` gives none) and every parameter, after checking that ``model``
    implements each non-default flag value and parameter (``models:`` in the spec)."""
    rules = as_rules(variants)
    claimed = implemented_flags(model)
    for flag, value in rules.non_default().items():
        if flag not in claimed or model not in specdata.models_of(flag, value):
            raise VariantError(f"the z3 model {model} does not implement {flag}={value} "
                               f"(it follows {flag}={variant_defaults()[flag]} only)",
                               flag=flag, value=value)
    refuse_unclaimed(model, make_rules(parameters=rules.non_default_parameters()))
    return rules


def model_variants(model: str, variants: FlagValues | None) -> Flags:
    """The flag values of :func:`model_rules`."""
    return model_rules(model, variants).flags


__all__ = ["Z3_MODELS", "FlagValues", "as_rules", "flag_values", "flags_of",
           "implemented_flags", "model_rules", "model_variants"]
