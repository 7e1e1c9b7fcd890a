"""Loads the truth-as-data in ``spec/``: the card manifest, the rule register and
the disputes register with its variant flags.

The files are shipped inside the installed package (``mammamia_ref/spec/``, see
pyproject.toml); in a source checkout or an editable install they are read from the
top-level ``spec/`` folder.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import yaml

from mammamia_ref.errors import SpecError

# libyaml's safe loader when PyYAML has it (several times faster; Python's reads the same),
# for the registers here and for every file formats.safeyaml reads: the one place chosen.
YAML_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

_PACKAGE = Path(__file__).resolve().parent.parent
_INSTALLED_SPEC = _PACKAGE / "spec"
_SOURCE_SPEC = _PACKAGE.parent / "spec"
SPEC_ROOT = _INSTALLED_SPEC if (_INSTALLED_SPEC / "cards.yaml").is_file() else _SOURCE_SPEC


def spec_path(name: str) -> Path:
    """The path of a file in ``spec/`` (e.g. ``"rules.yaml"``, ``"schemas/state.schema.json"``)."""
    return SPEC_ROOT / name


@cache
def load_yaml(name: str) -> Any:
    path = spec_path(name)
    try:
        with path.open(encoding="utf-8") as handle:
            return yaml.load(handle, Loader=YAML_LOADER)  # a safe loader (above)
    except (OSError, yaml.YAMLError) as exc:
        raise SpecError(f"cannot read spec/{name}: {exc}") from exc


@cache
def load_schema(name: str) -> dict[str, Any]:
    """A JSON Schema of ours, by file name under ``spec/schemas/``."""
    path = spec_path(f"schemas/{name}")
    try:
        schema: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
        return schema
    except (OSError, ValueError) as exc:
        raise SpecError(f"cannot read spec/schemas/{name}: {exc}") from exc


def cards() -> dict[str, Any]:
    manifest: dict[str, Any] = load_yaml("cards.yaml")
    return manifest


def rules() -> list[dict[str, Any]]:
    entries: list[dict[str, Any]] = load_yaml("rules.yaml")["rules"]
    return entries


@cache
def rule_ids() -> frozenset[str]:
    return frozenset(rule["id"] for rule in rules())


def rule(rule_id: str) -> dict[str, Any]:
    for entry in rules():
        if entry["id"] == rule_id:
            return entry
    raise KeyError(rule_id)


def disputes() -> list[dict[str, Any]]:
    entries: list[dict[str, Any]] = load_yaml("disputes.yaml")["disputes"]
    return entries


def variant_flags() -> list[dict[str, Any]]:
    entries: list[dict[str, Any]] = load_yaml("disputes.yaml")["variants"]
    return entries


MODELS: tuple[str, ...] = ("reference", "fast", "policies", "oven_model", "game_model")
"""The models that may claim a variant flag in ``spec/disputes.yaml`` (``models:``):
the reference (``rules/``), the fast engine, the policies, and the two z3 models of
``queries/``."""


@cache
def flag_models() -> dict[str, tuple[str, ...]]:
    """Every variant flag with the models that implement its values (``models:`` in
    ``spec/disputes.yaml``): the one list every encoding of a flag reads."""
    claims: dict[str, tuple[str, ...]] = {}
    for entry in variant_flags():
        models = entry.get("models")
        if not isinstance(models, list) or not models or set(models) - set(MODELS):
            raise SpecError(f"spec/disputes.yaml: flag {entry.get('flag')!r} needs a models list "
                            f"drawn from {', '.join(MODELS)}")
        claims[entry["flag"]] = tuple(models)
    return claims


def models_of(flag: str, value: str | None = None) -> tuple[str, ...]:
    """The models that implement ``flag`` (KeyError for an unknown flag), or one of its
    values: a value's own ``models:`` (a value added later, say a house rule's, that not
    every model plays yet) narrows the flag's."""
    claimed = flag_models()[flag]
    if value is not None:
        entry = next(e for e in variant_flags() if e["flag"] == flag)
        for option in entry["values"]:
            if option["value"] == value and "models" in option:
                own = tuple(option["models"])
                if set(own) - set(claimed):
                    raise SpecError(f"spec/disputes.yaml: {flag}={value} claims models the flag "
                                    f"does not: {', '.join(sorted(set(own) - set(claimed)))}")
                return own
    return claimed


@cache
def parameter_models(name: str) -> tuple[str, ...]:
    """The models that take a parameter's non-default values (``models:`` of its entry in
    ``spec/cards.yaml``); the others refuse them, as they refuse an unclaimed flag."""
    for entry in cards()["parameters"]:
        if entry["name"] == name:
            models = entry.get("models")
            if not isinstance(models, list) or not models or set(models) - set(MODELS):
                raise SpecError(f"spec/cards.yaml: parameter {name!r} needs a models list "
                                f"drawn from {', '.join(MODELS)}")
            return tuple(models)
    raise KeyError(name)


def flags_of(model: str) -> frozenset[str]:
    """The flags ``model`` claims."""
    return frozenset(flag for flag, models in flag_models().items() if model in models)


@cache
def information_only(flag: str) -> bool:
    """Whether every value of ``flag`` is a rule of the information chapter: it changes
    what the players may see, never where a card goes, so an engine without observations
    carries it through unchanged (to the observation its states are turned into)."""
    entry = next(e for e in variant_flags() if e["flag"] == flag)
    return all(str(value["rule"]).startswith("information.") for value in entry["values"])
