"""python-chess on the same machine: the yardstick our figures are read against."""

from __future__ import annotations

import random
from typing import Any

from mammamia_ref.tools.bench.measure import Meter, until


def chess_figures(budget: float, perft_depth: int) -> dict[str, Any]:
    """python-chess on this machine: random-play moves per second (uniform among the legal
    moves until the game is over, seeded) and perft nodes per second from the initial
    position, counted as python-chess's own tests count (the last level from the number
    of legal moves)."""
    try:
        import chess
    except ImportError:
        return {"available": False, "reason": "python-chess is not installed "
                                              "(pip install -e '.[bench]')"}

    def perft(board: Any, depth: int) -> int:
        if depth == 1:
            return int(board.legal_moves.count())
        nodes = 0
        for move in board.legal_moves:
            board.push(move)
            nodes += perft(board, depth - 1)
            board.pop()
        return nodes

    moves = Meter()
    rng = random.Random(0)
    games = 0
    for _ in until(budget / 2):
        board = chess.Board()
        with moves.batch():
            while not board.is_game_over():
                board.push(rng.choice(list(board.legal_moves)))
                moves.units += 1
        games += 1
    nodes = Meter()
    for _ in until(budget / 2):
        with nodes.batch():
            nodes.units += perft(chess.Board(), perft_depth)
    return {"available": True, "version": chess.__version__, "random_games": games,
            "random_moves": moves.units, "random_moves_per_s": round(moves.rate(), 1),
            "perft_depth": perft_depth, "perft_nodes": nodes.units,
            "perft_nodes_per_s": round(nodes.rate(), 1),
            "best_batch_random_moves_per_s": round(moves.best, 1),
            "best_batch_perft_nodes_per_s": round(nodes.best, 1),
            "cpu_seconds": round(moves.cpu + nodes.cpu, 3)}
