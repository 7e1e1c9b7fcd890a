"""``mammamia play``: one full seeded game, as a log or one JSON document."""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING, Any

from mammamia_ref.cli.args import Commands, add_rules_options, game_rules, game_seed, player_count
from mammamia_ref.errors import InternalError

if TYPE_CHECKING:
    from mammamia_ref.rules.state import GameConfig
    from mammamia_ref.sim.play import GameRecord

# ``sorted(mammamia_ref.sim.policies.POLICIES)``, written out so that building the parser
# does not load the engines the policies play with (tests/test_startup.py checks it).
POLICY_NAMES = ("careful", "random", "search", "simple")


def add_parser(commands: Commands) -> None:
    play = commands.add_parser("play", help="play a full seeded game and print its log")
    play.add_argument("--players", type=player_count, required=True, help="2 to 5")
    play.add_argument("--seed", type=game_seed, required=True,
                      help="the seed of every shuffle and choice: a whole number or a word")
    add_rules_options(play, "select a ruling (see `mammamia disputes`)")
    play.add_argument("--policy", choices=POLICY_NAMES, default="simple",
                      help="how every seat chooses (docs/observation.md): simple, careful, "
                      "random or search (default: simple)")
    play.add_argument("--first-player", type=int, default=0, help="the starting seat")
    play.add_argument("--json", action="store_true", help="print one JSON document")
    play.set_defaults(handler=run_play)


def run_play(args: argparse.Namespace) -> int:
    from mammamia_ref.rules.state import make_config
    from mammamia_ref.sim.play import play_game
    from mammamia_ref.sim.policies import POLICIES

    config = make_config(args.players, first_player=args.first_player, variants=game_rules(args))
    record = play_game(config, args.seed, [POLICIES[args.policy]] * args.players)
    if args.json:
        print(json.dumps(game_summary(record), indent=2))
    else:
        print("\n".join(game_log(record)))
    return 0


def game_summary(record: GameRecord) -> dict[str, Any]:
    """The game as one JSON document: what the log says, step by step (``steps``: who
    acted, the action and its events, each with its rule), and how it ended."""
    final = record.final
    if final is None:
        raise InternalError("play_game returned a record without its final state")
    return {
        "players": record.config.players,
        "colours": list(record.config.colours),
        "seed": record.seed,
        "variants": record.config.rules.as_dict(),
        "parameters": record.config.rules.parameters_dict(),
        "house": record.config.rules.house,
        "turns": record.turns,
        "rounds": final.resolutions,
        "delivered": {colour: list(final.delivered[seat])
                      for seat, colour in enumerate(record.config.colours)},
        "winners": [record.config.colours[seat] for seat in record.winners],
        "stalled": record.stalled,
        "steps": _steps(record),
    }


def _steps(record: GameRecord) -> list[dict[str, Any]]:
    """Each step as the log has it: ``by`` (a colour, or ``chance``), the action, and the
    events that followed."""
    from mammamia_ref.rules.actions import Shuffle, format_action
    from mammamia_ref.rules.events import format_event
    from mammamia_ref.rules.game import apply, new_game, to_move

    state, steps = new_game(record.config), []
    for action, events in record.steps:
        actor = to_move(state)
        by = "chance" if isinstance(action, Shuffle) or actor is None \
            else record.config.colours[actor]
        steps.append({"by": by, "action": format_action(action),
                      "events": [format_event(item) for item in events]})
        state, _ = apply(state, action)
    return steps


def game_log(record: GameRecord) -> list[str]:
    from mammamia_ref.formats.narrate import step_lines
    from mammamia_ref.rules.game import apply, new_game, to_move

    config: GameConfig = record.config
    lines = [f"Mamma Mia! {config.players} players ({', '.join(config.colours)}), seed "
             f"{record.seed}, rules: {config.rules.describe()}"]
    state = new_game(config)
    for action, events in record.steps:
        lines.extend(step_lines(action, events, to_move(state), config))
        state, _ = apply(state, action)
    if record.stalled:
        lines.append("the round has stalled: every player in turn moved no card, and under "
                     "stall=letter nothing ends it (see dispute D7)")
    return lines
