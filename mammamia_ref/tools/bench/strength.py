"""How strong a player is, and what its decisions cost: games of one player against
others (by default one search player against three careful ones in 4-player games),
the player moving round the seats from game to game, its share of the wins with a 95%
interval, and the CPU time of its decisions.

    python -m mammamia_ref.tools.bench.strength --policy search:16:4 --games 1000 --jobs 2

Game ``s`` is simulation game ``s`` (:func:`mammamia_ref.sim.simulate.play`: its seed
gives the colours, the shuffles and the policies' random numbers) with the player in seat
``s mod players``; the results do not depend on ``--jobs``. A shared win counts as a
share (a half for two winners), so an equal player's expected share is one over the
number of players.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from dataclasses import astuple, dataclass
from typing import Any

from mammamia_ref.errors import MammamiaError
from mammamia_ref.rules.state import make_config, make_variants
from mammamia_ref.sim import search, simulate


@dataclass(frozen=True)
class Share:
    """Games ``first .. first + count - 1``: a worker's part (plain data)."""

    policy: str
    opponent: str
    players: int
    first: int
    count: int
    variants: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class Played:
    """What a worker's part came to."""

    seeds: tuple[int, ...]
    shares: tuple[float, ...]    # the player's share of each game's win (0 if abandoned)
    sole: tuple[bool, ...]       # the player alone won
    finished: tuple[bool, ...]
    cpu_seconds: float           # the whole games
    decisions: int               # the player's decisions (search players only), ...
    searched: int                # ... those it searched
    playouts: int
    decision_seconds: float      # CPU time of its decisions


def seat_of(seed: int, players: int) -> int:
    """The player's seat in game ``seed``."""
    return seed % players


def play_share(share: Share) -> Played:
    """Play a worker's part (a plain function of plain data, for a process pool)."""
    before = astuple(search.TALLY)
    start = time.process_time()
    variants = dict(share.variants)
    seeds = tuple(range(share.first, share.first + share.count))
    shares, sole, finished = [], [], []
    for seed in seeds:
        seat = seat_of(seed, share.players)
        policies = [share.opponent] * share.players
        policies[seat] = share.policy
        game = simulate.play(share.players, seed, variants, policies)
        winners = sum(game.wins)
        shares.append(game.wins[seat] / winners if winners else 0.0)
        sole.append(game.wins[seat] == 1 and winners == 1)
        finished.append(winners > 0)
    cpu = time.process_time() - start
    after = astuple(search.TALLY)
    decisions, searched, playouts, seconds = (a - b for a, b in zip(after, before, strict=True))
    return Played(seeds, tuple(shares), tuple(sole), tuple(finished), cpu, int(decisions),
                  int(searched), int(playouts), float(seconds))


def strength(policy: str, games: int, *, opponent: str = "careful", players: int = 4,
             seed: int = 0, jobs: int = 1, variants: dict[str, str] | None = None,
             chunk: int = 10) -> dict[str, Any]:
    """Play ``games`` games (seeds ``seed`` on) of ``policy`` against ``opponent`` in the
    other seats, in ``jobs`` processes, and sum them up."""
    chosen = make_variants(variants).as_dict()
    make_config(players, variants=chosen)  # a bad count or variant: refused here
    simulate.check_policies([policy, opponent], 2)
    frozen = tuple(sorted(chosen.items()))
    parts = [Share(policy, opponent, players, first, min(chunk, seed + games - first), frozen)
             for first in range(seed, seed + games, chunk)]
    start = time.perf_counter()
    with simulate.workers(jobs) as pool:
        played = [play_share(p) for p in parts] if pool is None else \
            pool.map(play_share, parts, chunksize=1)
    wall = time.perf_counter() - start
    shares = [s for p in played for s, f in zip(p.shares, p.finished, strict=True) if f]
    sole = sum(s for p in played for s, f in zip(p.sole, p.finished, strict=True) if f)
    cpu = sum(p.cpu_seconds for p in played)
    decisions, searched = sum(p.decisions for p in played), sum(p.searched for p in played)
    seconds = sum(p.decision_seconds for p in played)
    finished = len(shares)
    return {
        "format": "mammamia-strength/1", "policy": policy, "opponent": opponent,
        "players": players, "games": games, "seed": seed, "variants": chosen,
        "finished": finished, "equal_share": round(1 / players, 4),
        "win_share": simulate.mean_ci(shares),
        "sole_wins": simulate.rate(sole, finished),
        "cpu_seconds_per_game": round(cpu / max(games, 1), 4),
        "decisions_per_game": round(decisions / max(games, 1), 2),
        "searched_per_game": round(searched / max(games, 1), 2),
        "playouts_per_searched_decision": round(sum(p.playouts for p in played)
                                                / max(searched, 1), 2),
        "cpu_ms_per_decision": round(1000 * seconds / max(decisions, 1), 3),
        "cpu_ms_per_searched_decision": round(1000 * seconds / max(searched, 1), 3),
        "cpu_seconds_deciding_per_game": round(seconds / max(games, 1), 4),
        "wall_seconds": round(wall, 1), "jobs": jobs,
    }


def format_strength(result: dict[str, Any]) -> str:
    """The figures as a few lines of text."""
    share, sole = result["win_share"], result["sole_wins"]
    low, high = share["ci95"] or (0.0, 0.0)
    return "\n".join([
        f"{result['policy']} against {result['opponent']} x{result['players'] - 1}, "
        f"{result['games']:,} games (seeds {result['seed']}..{result['seed'] + result['games'] - 1}"
        f", the player moving round the seats), {result['finished']:,} finished",
        f"share of the wins: {100 * share['mean']:.1f}% (95% interval {100 * low:.1f}-"
        f"{100 * high:.1f}; an equal player: {100 * result['equal_share']:.0f}%)",
        f"sole wins: {100 * (sole['rate'] or 0):.1f}% ({sole['count']:,} of {sole['n']:,})",
        f"cost: {result['cpu_seconds_per_game']:.3f} CPU s per game (every seat), of which "
        f"{result['cpu_seconds_deciding_per_game']:.3f} s its decisions; "
        f"{result['cpu_ms_per_decision']:.2f} ms per decision, "
        f"{result['cpu_ms_per_searched_decision']:.2f} ms per searched decision "
        f"({result['searched_per_game']:.1f} of {result['decisions_per_game']:.1f} a game, "
        f"{result['playouts_per_searched_decision']:.1f} playouts each)",
        f"({result['wall_seconds']} s wall clock, {result['jobs']} process(es))"])


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m mammamia_ref.tools.bench.strength",
                                     description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--policy", default="search", help="the player measured (default: "
                        "search, the default budget)")
    parser.add_argument("--opponent", default="careful", help="the policy of every other seat")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--variant", action="append", default=[], metavar="FLAG=VALUE")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    try:
        variants = dict(v.split("=", 1) for v in args.variant if "=" in v)
        if len(variants) != len(args.variant) or args.games < 1 or args.jobs < 1:
            raise MammamiaError("--variant takes FLAG=VALUE; --games and --jobs at least 1")
        result = strength(args.policy, args.games, opponent=args.opponent,
                          players=args.players, seed=args.seed, jobs=args.jobs,
                          variants=variants)
    except MammamiaError as error:
        print(f"strength: error: {error}", file=sys.stderr)
        return 2
    print(json.dumps(result, indent=2) if args.json else format_strength(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
