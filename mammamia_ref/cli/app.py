"""The ``mammamia`` command line. Bad arguments give one line on stderr and exit 2."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

from mammamia_ref.errors import MammamiaError
from mammamia_ref.formats.narrate import step_lines
from mammamia_ref.rules import specdata
from mammamia_ref.rules.game import apply, new_game, to_move
from mammamia_ref.rules.state import GameConfig, make_config
from mammamia_ref.sim.play import GameRecord, play_game
from mammamia_ref.sim.policies import POLICIES


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        """One line, whichever subcommand the mistake is in."""
        self.exit(2, f"mammamia: error: {message}\n")


def variant_assignment(text: str) -> tuple[str, str]:
    """The argument type of ``--variant NAME=VALUE`` (checked later against the register)."""
    name, sep, value = text.partition("=")
    if not sep:
        raise argparse.ArgumentTypeError(f"expected NAME=VALUE, got {text!r}")
    return name.strip(), value.strip()


def positive_number(text: str) -> int:
    """The argument type of counts such as ``--games`` and ``--jobs``."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive whole number, got {text!r}")
    return value


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="mammamia", description="The executable rulebook of Mamma Mia!")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    play = commands.add_parser("play", help="play a full seeded game and print its log")
    play.add_argument("--players", type=int, required=True, help="2 to 5")
    play.add_argument("--seed", required=True, help="the seed of every shuffle and choice")
    play.add_argument("--variant", type=variant_assignment, action="append", default=[],
                      metavar="NAME=VALUE", help="select a ruling (see `mammamia disputes`)")
    play.add_argument("--policy", choices=sorted(POLICIES), default="simple")
    play.add_argument("--first-player", type=int, default=0, help="the starting seat")
    play.add_argument("--json", action="store_true", help="print one JSON document")

    rules = commands.add_parser("rules", help="print the rule register, or one rule")
    rules.add_argument("id", nargs="?")
    disputes = commands.add_parser("disputes", help="print the disputes register, or one dispute")
    disputes.add_argument("id", nargs="?")
    commands.add_parser("variants", help="list the variant flags and their values")

    verify = commands.add_parser("verify", help="check the spec, play games, run every scenario")
    verify.add_argument("--json", action="store_true")
    verify.add_argument("--scenarios", action="append", metavar="PATH",
                        help="scenario files or folders (default: ./scenarios)")

    scenario = commands.add_parser("scenario", help="check, run or export scenarios")
    actions = scenario.add_subparsers(dest="scenario_command", required=True, parser_class=_Parser)
    run = actions.add_parser("run", help="run scenarios against the reference")
    run.add_argument("paths", nargs="+", metavar="PATH")
    run.add_argument("--trace", action="store_true", help="print every step, event and rule")
    run.add_argument("--json", action="store_true", help="one JSON record per run")
    check = actions.add_parser("check", help="validate scenario files without running them")
    check.add_argument("paths", nargs="+", metavar="PATH")
    export = actions.add_parser("export", help="write every scenario as one JSON bundle")
    export.add_argument("paths", nargs="*", metavar="PATH", default=["scenarios"])
    export.add_argument("-o", "--output", help="file to write (default: stdout)")

    from mammamia_ref.cli.conform import add_parsers
    from mammamia_ref.cli.query import add_query_parser
    from mammamia_ref.cli.simulate import add_simulate_parsers
    from mammamia_ref.sim.counting import add_perft_parser
    from mammamia_ref.tools.bench import add_bench_parser

    add_parsers(commands)
    add_bench_parser(commands)
    add_perft_parser(commands)
    add_simulate_parsers(commands)
    query = add_query_parser(commands)
    if query.get_default("handler") is None:
        query.set_defaults(handler=run_query)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    try:
        args = build_parser().parse_args(argv)
        if hasattr(args, "handler"):
            return args.handler(args)
        return _COMMANDS[args.command](args)
    except MammamiaError as exc:
        print(f"mammamia: error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # pragma: no cover - output piped into head
        return 0
    except KeyboardInterrupt as exc:
        # Ctrl-C: one line, no traceback; a command that knows what it had finished says
        # so in the exception (e.g. "after 37 of 99 scenario runs; 37 passed"). Report
        # files are written atomically, so each is complete or absent. 130 = 128 + SIGINT.
        print(f"mammamia: interrupted {exc}".rstrip(), file=sys.stderr)
        return 130


def game_seed(text: str) -> int | str:
    """A seed as given on the command line: a whole number, or else any text."""
    return int(text) if text.lstrip("-").isdigit() else text


def cmd_play(args: argparse.Namespace) -> int:
    config = make_config(args.players, first_player=args.first_player,
                         variants=dict(args.variant))
    record = play_game(config, game_seed(args.seed), [POLICIES[args.policy]] * args.players)
    if args.json:
        print(json.dumps(game_summary(record), indent=2))
    else:
        print("\n".join(game_log(record)))
    return 0


def game_summary(record: GameRecord) -> dict[str, Any]:
    final = record.final
    return {
        "players": record.config.players,
        "colours": list(record.config.colours),
        "seed": record.seed,
        "variants": record.config.variants.as_dict(),
        "turns": record.turns,
        "rounds": final.resolutions,
        "delivered": {colour: list(final.delivered[seat])
                      for seat, colour in enumerate(record.config.colours)},
        "winners": [record.config.colours[seat] for seat in record.winners],
        "stalled": record.stalled,
    }


def game_log(record: GameRecord) -> list[str]:
    config: GameConfig = record.config
    changed = config.variants.non_default()
    lines = [f"Mamma Mia! {config.players} players ({', '.join(config.colours)}), seed "
             f"{record.seed}, variants: "
             f"{', '.join(f'{k}={v}' for k, v in changed.items()) or 'the defaults'}"]
    state = new_game(config)
    for action, events in record.steps:
        lines.extend(step_lines(action, events, to_move(state), config))
        state, _ = apply(state, action)
    if record.stalled:
        lines.append("the round has stalled: every player in turn moved no card, and under "
                     "stall=letter nothing ends it (see dispute D7)")
    return lines


def cmd_rules(args: argparse.Namespace) -> int:
    entries = specdata.rules()
    if args.id:
        entries = [_find(entries, args.id, "rule")]
    for entry in entries:
        when = entry.get("when")
        print(f"{entry['id']}: {entry['title']}" + (f"  (when {_flags(when)})" if when else ""))
        if args.id:
            print(f"  {' '.join(entry['statement'].split())}")
            for source in entry.get("sources") or []:
                print(f"  source: edition {source['edition']}, {source['section']}")
            if entry.get("ruling"):
                print(f"  ruling of dispute {entry['ruling']}")
            if entry.get("disputes"):
                print(f"  disputes: {', '.join(entry['disputes'])}")
    return 0


def cmd_disputes(args: argparse.Namespace) -> int:
    entries = specdata.disputes()
    if args.id:
        entries = [_find(entries, args.id, "dispute")]
    for entry in entries:
        print(f"{entry['id']}: {entry['title']}")
        if args.id:
            print(f"  question: {' '.join(entry['question'].split())}")
            for position in entry.get("positions") or []:
                print(f"  {position['edition']} ({position['section']}): "
                      f"{' '.join(position['says'].split())}")
            print(f"  ruling: {' '.join(entry['ruling'].split())}")
            print(f"  why: {' '.join(entry['reason'].split())}")
            if entry.get("flags"):
                print(f"  variant flags: {', '.join(entry['flags'])}")
    return 0


def cmd_variants(args: argparse.Namespace) -> int:
    for entry in specdata.variant_flags():
        values = ", ".join(v["value"] + (" (default)" if v["value"] == entry["default"] else "")
                           for v in entry["values"])
        print(f"{entry['flag']} [{entry['dispute']}]: {values}")
    return 0


def _flags(when: dict[str, str]) -> str:
    return ", ".join(f"{k}={v}" for k, v in when.items())


def _find(entries: list[dict[str, Any]], key: str, what: str) -> dict[str, Any]:
    for entry in entries:
        if entry["id"] == key:
            return entry
    raise MammamiaError(f"no {what} {key!r}; `mammamia {what}s` lists them")


def run_query(args: argparse.Namespace) -> int:
    from mammamia_ref.cli.query import run_query_command

    return run_query_command(args)


def cmd_verify(args: argparse.Namespace) -> int:
    from mammamia_ref.tools.verify import run_verify

    return run_verify(as_json=args.json, scenario_paths=args.scenarios)


def cmd_scenario(args: argparse.Namespace) -> int:
    from mammamia_ref.cli.scenario import run_scenario_command

    return run_scenario_command(args)


_COMMANDS = {"play": cmd_play, "rules": cmd_rules, "disputes": cmd_disputes,
             "variants": cmd_variants, "verify": cmd_verify, "scenario": cmd_scenario}

__all__ = ["main"]
