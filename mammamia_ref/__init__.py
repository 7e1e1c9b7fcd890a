"""mammamia_ref: the reference implementation of the card game Mamma Mia!

The API is small and fixed (after OpenSpiel): :func:`new_game`, :func:`to_move`,
:func:`is_chance`, :func:`chance_pile`, :func:`legal_actions`, :func:`apply`,
:func:`is_over`, :func:`winners`; states, actions and events have canonical JSON forms
(:mod:`mammamia_ref.formats.jsonform`). Every transition and rejection names its rule ID in
``spec/rules.yaml``.

The names are loaded when first used (PEP 562), so that ``import mammamia_ref``, which
every submodule and the ``mammamia`` command run, does not load the JSON forms (and
jsonschema) or the rules engine until something asks for them.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mammamia_ref.errors import (
        IllegalActionError,
        InvalidStateError,
        MalformedError,
        MammamiaError,
        SpecError,
        VariantError,
    )
    from mammamia_ref.formats.jsonform import format_state, parse_state
    from mammamia_ref.rules.actions import (
        Action,
        Complete,
        Decline,
        Draw,
        NameKind,
        NoOrder,
        Pass,
        PlaceOrder,
        Play,
        Shuffle,
        format_action,
        parse_action,
    )
    from mammamia_ref.rules.chance import ChanceSource
    from mammamia_ref.rules.events import Event, format_event
    from mammamia_ref.rules.game import (
        apply,
        chance_pile,
        is_chance,
        is_over,
        legal_actions,
        new_game,
        to_move,
        winners,
    )
    from mammamia_ref.rules.state import (
        GameConfig,
        GameState,
        Hand,
        Reveal,
        Rules,
        make_config,
        make_variants,
    )

__version__ = "0.1.0"

__all__ = [
    "Action", "ChanceSource", "Complete", "Decline", "Draw", "Event", "GameConfig", "GameState",
    "Hand", "IllegalActionError", "InvalidStateError", "MalformedError", "MammamiaError",
    "NameKind", "NoOrder", "Pass", "PlaceOrder", "Play", "Reveal", "Rules", "Shuffle",
    "SpecError", "VariantError", "apply", "chance_pile", "format_action", "format_event",
    "format_state", "is_chance", "is_over", "legal_actions", "make_config", "make_variants",
    "new_game", "parse_action", "parse_state", "to_move", "winners",
]

# Where each public name lives: the same modules as the imports above.
_SOURCES: dict[str, tuple[str, ...]] = {
    "mammamia_ref.errors": ("IllegalActionError", "InvalidStateError", "MalformedError",
                            "MammamiaError", "SpecError", "VariantError"),
    "mammamia_ref.formats.jsonform": ("format_state", "parse_state"),
    "mammamia_ref.rules.actions": ("Action", "Complete", "Decline", "Draw", "NameKind",
                                   "NoOrder", "Pass", "PlaceOrder", "Play", "Shuffle",
                                   "format_action", "parse_action"),
    "mammamia_ref.rules.chance": ("ChanceSource",),
    "mammamia_ref.rules.events": ("Event", "format_event"),
    "mammamia_ref.rules.game": ("apply", "chance_pile", "is_chance", "is_over",
                                "legal_actions", "new_game", "to_move", "winners"),
    "mammamia_ref.rules.state": ("GameConfig", "GameState", "Hand", "Reveal", "Rules",
                                 "make_config", "make_variants"),
}
_MODULE_OF = {name: module for module, names in _SOURCES.items() for name in names}


def __getattr__(name: str) -> Any:
    """A public name, imported from its module the first time it is asked for."""
    module = _MODULE_OF.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(module), name)
    globals()[name] = value  # later look-ups do not come here
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
