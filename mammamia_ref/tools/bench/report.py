"""The goals, and the figures as a plain-text table."""

from __future__ import annotations

from typing import Any

from mammamia_ref.tools.bench.measure import PLAYER_COUNTS
from mammamia_ref.tools.bench.players import CAREFUL_GOAL

GOALS: dict[str, str] = {
    "fast_games_per_s_4p": "fast engine: at least 1,200 complete 4-player games per second",
    "decisions_vs_chess_moves": "fast engine decisions per second at least 2x python-chess's "
                                "random-play moves per second",
    "perft_vs_chess": "fast counting-table nodes per second at least python-chess's perft "
                      "nodes per second",
    "jobs_efficiency": "--jobs N: games and counting scale near-linearly (at least 80% of the "
                       "speedup the free cores allow, measured with a plain Python loop)",
    "careful_game_cost": "a 4-player game of careful players costs at most 3 games of random "
                         "ones (CPU time, both in the simulation's game loop)",
}


def goals(results: dict[str, Any]) -> dict[str, Any]:
    """Each goal with its figure, its target and whether it is met (None: not measured)."""
    fast_games_4p = results["games"]["fast"]["4"]["games_per_s"]
    out = {"fast_games_per_s_4p": {"value": fast_games_4p, "target": 1200,
                                   "met": fast_games_4p >= 1200}}
    chess = results.get("chess", {})
    decisions = results["decisions_per_s"]["fast"]
    if chess.get("available"):
        moves = chess["random_moves_per_s"]
        out["decisions_vs_chess_moves"] = {"value": round(decisions / moves, 2), "target": 2.0,
                                           "met": decisions >= 2 * moves}
    else:
        out["decisions_vs_chess_moves"] = {"value": None, "target": 2.0, "met": None}
    perft = results.get("perft", {})
    if chess.get("available") and "fast" in perft:
        ratio = perft["fast"]["nodes_per_s"] / chess["perft_nodes_per_s"]
        out["perft_vs_chess"] = {"value": round(ratio, 2), "target": 1.0, "met": ratio >= 1.0}
    else:
        out["perft_vs_chess"] = {"value": None, "target": 1.0, "met": None}
    players = results.get("players", {})
    if "careful_in_random_games" in players:
        cost = players["careful_in_random_games"]
        out["careful_game_cost"] = {"value": cost, "target": CAREFUL_GOAL,
                                    "met": cost <= CAREFUL_GOAL}
    else:
        out["careful_game_cost"] = {"value": None, "target": CAREFUL_GOAL, "met": None}
    rows = results.get("scaling", {}).get("rows", [])
    if len(rows) > 1:  # the speedup against what the machine had to give at that moment
        worst = min(min(row["games_speedup"], row["perft_speedup"])
                    / min(row["jobs"], max(1.0, row["machine_speedup"])) for row in rows[1:])
        out["jobs_efficiency"] = {"value": round(worst, 3), "target": 0.8,
                                  "met": worst >= 0.8,
                                  "raw": min(min(row["games_efficiency"],
                                                 row["perft_efficiency"]) for row in rows[1:])}
    else:
        out["jobs_efficiency"] = {"value": None, "target": 0.8, "met": None}
    return out


def _num(value: Any, digits: int = 0) -> str:
    if value is None:
        return "-"
    if isinstance(value, str):
        return value
    return f"{value:,.{digits}f}"


def format_table(results: dict[str, Any]) -> str:
    """The figures as a plain-text table (what ``mammamia bench`` prints)."""
    rows = _measure_rows(results)
    width = max(len(row[0]) for row in rows)
    header = ("measure", "reference", "fast", "python-chess")
    core = results.get("machine", {}).get("fast_core")
    lines = [f"fast core: {core}"] if core else []
    lines += [f"{header[0]:<{width}}  {header[1]:>12}  {header[2]:>12}  {header[3]:>12}",
              "-" * (width + 42)]
    lines += [f"{a:<{width}}  {b:>12}  {c:>12}  {d:>12}" for a, b, c, d in rows]
    lines += ["", *_player_notes(results.get("players", {})), *_service_notes(results)]
    lines += ["", *format_queries(results), "", *_chess_and_scaling(results), ""]
    for name, goal in results.get("goals", {}).items():
        met = {True: "met", False: "NOT met", None: "not measured"}[goal["met"]]
        lines.append(f"goal {name}: {met} ({_num(goal['value'], 2)} against {goal['target']}): "
                     f"{GOALS[name]}")
    machine = results["machine"]
    lines.append("")
    lines.append(f"Python {machine['python']} on {machine['platform']}, {machine['cpu_count']} "
                 f"CPUs, load average {machine['load_average']}; "
                 + ("quick run: rough figures" if results.get("quick") else "full run"))
    return "\n".join(lines)


def _measure_rows(results: dict[str, Any]) -> list[tuple[str, str, str, str]]:
    """The table's rows: a measure, then the reference's, the fast engine's and
    python-chess's figure."""
    chess = results.get("chess", {})
    games = results["games"]
    rows: list[tuple[str, str, str, str]] = []
    for players in PLAYER_COUNTS:
        ref, quick = games["reference"][str(players)], games["fast"][str(players)]
        rows.append((f"games/s, {players} players", _num(ref["games_per_s"], 1),
                     _num(quick["games_per_s"], 1), ""))
    rows.append(("decisions/s (4 players; chess: random-play moves/s)",
                 _num(results["decisions_per_s"]["reference"]),
                 _num(results["decisions_per_s"]["fast"]),
                 _num(chess.get("random_moves_per_s"))))
    legal = results["legal_actions"]
    rows.append(("legal_actions calls/s", _num(legal["reference"]["calls_per_s"]),
                 _num(legal["fast"]["calls_per_s"]), ""))
    oven = results["oven_resolutions"]
    rows.append(("oven resolutions/s", _num(oven["reference"]["resolutions_per_s"]),
                 _num(oven["fast"]["resolutions_per_s"]), ""))
    perft = results.get("perft", {})
    if "fast" in perft:
        rows.append((f"perft nodes/s (chess: depth {chess.get('perft_depth', '-')})",
                     _num(perft["reference"]["nodes_per_s"]), _num(perft["fast"]["nodes_per_s"]),
                     _num(chess.get("perft_nodes_per_s"))))
    best = results["games"]["fast"]["4"].get("best_batch_games_per_s")
    rows.append(("least disturbed batch: 4-player games/s",
                 _num(games["reference"]["4"].get("best_batch_games_per_s"), 1), _num(best, 1),
                 ""))
    if "fast" in perft:
        rows.append(("least disturbed batch: perft nodes/s",
                     _num(perft["reference"].get("best_batch_nodes_per_s")),
                     _num(perft["fast"].get("best_batch_nodes_per_s")),
                     _num(chess.get("best_batch_perft_nodes_per_s"))))
    players = results.get("players", {})
    if "careful" in players:
        rows.append(("4-player games/s, simulation loop: random",
                     "", _num(players["random"]["games_per_s"], 1), ""))
        rows.append(("4-player games/s, simulation loop: careful",
                     _num(players["careful_reference"]["games_per_s"], 1),
                     _num(players["careful"]["games_per_s"], 1), ""))
    return rows


def _player_notes(players: dict[str, Any]) -> list[str]:
    """What the careful and the search player cost."""
    lines = []
    if "careful" in players:
        lines.append(f"careful player: a game costs {players['careful_in_random_games']} random "
                     f"games of the simulation loop ({players['careful_in_engine_loop_games']} of "
                     f"the fast engine's own loop); on the fast engine x"
                     f"{players['careful_speedup_over_reference']} as fast as on the reference's "
                     f"state (the 'reference' column)")
    if "search" in players:
        found = players["search"]
        lines.append(f"search player ({found['policy']}, one seat of four): "
                     f"{found['cpu_ms_per_searched_decision']:.1f} ms CPU per searched decision, "
                     f"{found['cpu_ms_per_decision']:.1f} ms per decision, "
                     f"{found['cpu_seconds_per_game']:.2f} s per game "
                     f"({found['games']} games)")
    return lines


def _service_notes(results: dict[str, Any]) -> list[str]:
    """The scenario suite's and the conformance protocol's figures."""
    lines = []
    scenarios = results.get("scenarios", {})
    if scenarios.get("available"):
        lines.append(f"scenario suite: {scenarios['scenarios']} scenarios, {scenarios['runs']} "
                     f"runs ({scenarios['passed']} passed): load {scenarios['load_cpu_seconds']} "
                     f"s + run {scenarios['run_cpu_seconds']} s")
    conformance = results.get("conformance", {})
    if conformance.get("available"):
        lines.append(f"conformance protocol: {_num(conformance['ops_per_s'])} operations/s "
                     f"({conformance['ops']} operations, {conformance['games']} games, against "
                     f"`{conformance['command']}`)")
    else:
        lines.append(f"conformance protocol: not available ({conformance.get('reason')})")
    return lines


def _chess_and_scaling(results: dict[str, Any]) -> list[str]:
    """The yardstick's own figures, and what --jobs gave."""
    chess = results.get("chess", {})
    if not chess.get("available"):
        lines = [f"python-chess: not available ({chess.get('reason')})"]
    else:
        lines = [f"python-chess {chess['version']}: {chess['random_moves']} moves in "
                 f"{chess['random_games']} random games; {chess['perft_nodes']} perft nodes "
                 f"at depth {chess['perft_depth']}"]
    for row in results.get("scaling", {}).get("rows", []):
        lines.append(f"--jobs {row['jobs']}: {_num(row['games_per_s'], 1)} games/s "
                     f"(x{row['games_speedup']}), {_num(row['perft_nodes_per_s'])} perft nodes/s "
                     f"(x{row['perft_speedup']}), wall clock; a plain Python loop: "
                     f"x{row['machine_speedup']}; work per CPU second x{row['cpu_efficiency']}")
    return lines


def format_queries(results: dict[str, Any]) -> list[str]:
    """The z3 query times and the model checker's bounds as plain-text rows."""
    lines = []
    queries = results.get("queries", {})
    if queries.get("available"):
        scope = "every answer" if queries["include_slow"] else "the answers not marked slow"
        if queries.get("only"):
            scope += f" of {', '.join(queries['only'])}"
        lines.append(f"z3 queries ({scope}; {queries['not_run']} not run): "
                     f"{queries['total_seconds']} s in all")
        width = max((len(row["query"]) for row in queries["queries"]), default=5)
        lines.append(f"  {'query':<{width}}  {'verdict':>8}  {'solve s':>8}  {'total s':>8}")
        for row in queries["queries"]:
            if row.get("error"):
                lines.append(f"  {row['query']:<{width}}  error: {row['error']}")
                continue
            verdict = row["verdict"] + ("" if row["matches_expected"] else " (unexpected)")
            lines.append(f"  {row['query']:<{width}}  {verdict:>8}  "
                         f"{row['solve_seconds']:>8.2f}  {row['seconds']:>8.2f}")
    else:
        lines.append(f"z3 queries: not available ({queries.get('reason')})")
    bmc = results.get("model_checker", {})
    if bmc.get("available"):
        lines.append(f"bounded model checker: deepest bound {bmc['deepest_bound']} within "
                     f"{bmc['budget_seconds']:g} s, checking {bmc['property']}")
        lines.append(f"  {'bound':>5}  {'verdict':>8}  {'build s':>8}  {'solve s':>8}  "
                     f"{'total s':>8}")
        for row in bmc["bounds"]:
            if "error" in row:
                lines.append(f"  {row['bound']:>5}  error: {row['error']}")
                continue
            note = "  (stopped: budget spent)" if row["verdict"] == "unknown" else ""
            lines.append(f"  {row['bound']:>5}  {row['verdict']:>8}  {row['build_seconds']:>8.2f}"
                         f"  {row['solve_seconds']:>8.2f}  {row['seconds']:>8.2f}{note}")
    else:
        lines.append(f"bounded model checker: not available ({bmc.get('reason')})")
    return lines
