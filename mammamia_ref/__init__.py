"""mammamia_ref: the reference implementation of the card game Mamma Mia!

The API is small and fixed (after OpenSpiel): :func:`new_game`, :func:`to_move`,
:func:`is_chance`, :func:`chance_pile`, :func:`legal_actions`, :func:`apply`,
:func:`is_over`, :func:`winners`; states, actions and events have canonical JSON forms
(:mod:`mammamia_ref.formats.jsonform`). Every transition and rejection names its rule ID in
``spec/rules.yaml``.
"""

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
    Variants,
    make_config,
    make_variants,
)

__version__ = "0.1.0"

__all__ = [
    "Action", "ChanceSource", "Complete", "Decline", "Draw", "Event", "GameConfig", "GameState",
    "Hand", "IllegalActionError", "InvalidStateError", "MalformedError", "MammamiaError",
    "NameKind", "NoOrder", "Pass", "PlaceOrder", "Play", "Reveal", "Shuffle", "SpecError",
    "VariantError", "Variants", "apply", "chance_pile", "format_action", "format_event",
    "format_state", "is_chance", "is_over", "legal_actions", "make_config", "make_variants",
    "new_game", "parse_action", "parse_state", "to_move", "winners",
]
