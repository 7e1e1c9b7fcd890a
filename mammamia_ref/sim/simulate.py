"""Many games, one summary: what a ruling does to play (``mammamia simulate``).

Games run on the fast engine (:mod:`mammamia_ref.sim.fast`, proven equal to the reference)
so that thousands of them take seconds. Everything random comes from the game's seed:
the seat each colour sits at, every shuffle (``mammamia-chance:{seed}``) and every
policy choice (``mammamia-policy:{seed}``), so a game replays exactly, and a run gives the
same records, hence the same summary, however many processes share it out.

A game yields a :class:`GameStats` (a few integers); :func:`summarise` turns a list of
them into the figures, with 95% confidence intervals; :mod:`.compare` sets two rulings
side by side.
"""

from __future__ import annotations

import hashlib
import math
import multiprocessing
import os
import random
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import astuple, dataclass, field
from typing import Any

from mammamia_ref.errors import UsageError, VariantError
from mammamia_ref.rules.ruleset import Rules, default_rules, make_rules
from mammamia_ref.rules.state import make_config
from mammamia_ref.rules.vocabulary import COLOURS, ORDER_TYPES, ORDERS
from mammamia_ref.sim import fast
from mammamia_ref.sim.policies import get_fast_chooser, get_policy

ORDER_TYPE_NAMES: tuple[str, ...] = tuple(ORDER_TYPES)
MAX_DECISIONS = 100_000  # no finished game comes near: a safety net, not a rule

# How a round ended: the supply ran out (``round_end.last_card`` or
# ``round_end.last_ingredient``), a full cycle of quiet turns cut it (``round_end.stall``),
# or, under ``stall=letter``, nothing could end it and the game was abandoned.
ROUND_ENDS = ("supply", "stall_cut", "stalled")


@dataclass(frozen=True)
class GameStats:
    """What one game contributes to a summary. Tuples run by seat, by order type
    (:data:`ORDER_TYPE_NAMES`) or by round."""

    seed: int
    colours: tuple[int, ...]     # index in COLOURS of each seat's colour
    wins: tuple[int, ...]        # 1 for each winner (several when the win is shared)
    delivered: tuple[int, ...]
    placed: tuple[int, ...]      # orders placed in the oven, by type
    baked: tuple[int, ...]       # orders delivered by the end, by type
    turns: tuple[int, ...]       # turns (plays and passes) in rounds 1, 2, 3
    ends: tuple[int, ...]        # index in ROUND_ENDS for each round played
    decisions: int

    @property
    def abandoned(self) -> bool:
        return not any(self.wins)


def seat_colours(players: int, seed: int) -> tuple[str, ...]:
    """The colours at the table for game ``seed``: ``players`` of the five, in seat
    order, drawn from the seed (players choose their colours; no colour owns a seat).

    >>> seat_colours(3, 7) == seat_colours(3, 7)
    True
    """
    return tuple(random.Random(f"mammamia-colours:{seed}").sample(COLOURS, players))


def check_policies(names: Sequence[str], players: int) -> tuple[str, ...]:
    """One policy per seat: a single name is repeated for every seat."""
    for name in names:
        get_policy(name)  # an unknown name: the registry's error, which lists the known
    chosen = tuple(names) or ("random",)
    if len(chosen) == 1:
        chosen *= players
    if len(chosen) != players:
        raise VariantError(f"give one policy for every seat ({players}), or one for all; "
                           f"got {len(chosen)}", flag="--policy", value=tuple(names))
    return chosen


def play(players: int, seed: int, variants: Mapping[str, str] | Rules | None,
         policies: Sequence[str], *, reference: bool = False) -> GameStats:
    """Play game ``seed`` to its end (or until it stalls for ever) and count.
    ``reference``: every policy but the benchmark one chooses on the reference's state
    and actions, as before it had a chooser of its own on the fast engine (the same
    game, slower: what ``mammamia bench`` compares)."""
    colours = seat_colours(players, seed)
    state = fast.new_game(make_config(players, colours=colours, variants=variants))
    chance = random.Random(f"mammamia-chance:{seed}")
    rng = random.Random(f"mammamia-policy:{seed}")
    choosers = [_chooser(name, reference=reference) for name in policies]
    placed, turns, ends = [0] * len(ORDER_TYPE_NAMES), [0] * state.rules.rounds, []
    stall_letter = state.rules.stall_letter
    decisions = 0
    while state.phase != "over" and decisions < MAX_DECISIONS:
        if state.phase == "shuffle":
            fast.apply_shuffle(state, fast.shuffled(chance, fast.chance_pile(state)[1]))
            continue
        if stall_letter and state.phase == "turn" and state.quiet_turns >= players:
            ends.append(ROUND_ENDS.index("stalled"))
            break
        step, round_ = state.step, state.round
        action = choosers[state.current](state, fast.legal_actions(state), rng)
        if step == "play":
            turns[round_ - 1] += 1
        elif step == "order" and action >= fast.PLACE_BASE:
            placed[_order_type(action - fast.PLACE_BASE)] += 1
        fast.apply(state, action)
        decisions += 1
        if step == "draw" and state.phase != "turn":  # this draw ended the round
            cut = state.quiet_turns >= players
            ends.append(ROUND_ENDS.index("stall_cut" if cut else "supply"))
    baked = [0] * len(ORDER_TYPE_NAMES)
    for stack in state.delivered:
        for code in stack:
            baked[_order_type(code)] += 1
    winners = fast.winners(state)[0] if state.phase == "over" else ()
    return GameStats(
        seed=seed, colours=tuple(COLOURS.index(c) for c in colours),
        wins=tuple(int(seat in winners) for seat in range(players)),
        delivered=tuple(len(stack) for stack in state.delivered),
        placed=tuple(placed), baked=tuple(baked), turns=tuple(turns), ends=tuple(ends),
        decisions=decisions)


def _order_type(code: int) -> int:
    return ORDER_TYPE_NAMES.index(ORDERS[fast.CARD_NAMES[code]].type)


Chooser = Callable[[fast.FastState, Sequence[int], random.Random], int]


def _chooser(name: str, *, reference: bool = False) -> Chooser:
    """The chooser that plays policy ``name`` on the fast engine. The benchmark policy
    and the careful one choose on action codes directly (drawing the same numbers and
    making the same choices as :func:`mammamia_ref.sim.policies.random_policy` and
    :func:`~mammamia_ref.sim.policies.choose_careful`); any other policy (and, with
    ``reference``, any but the benchmark one) sees the reference's state and actions."""
    fast_chooser = get_fast_chooser(name)
    if fast_chooser is not None and (name == "random" or not reference):
        return fast_chooser
    policy = get_policy(name)

    def choose(state: fast.FastState, legal: Sequence[int], rng: random.Random) -> int:
        return fast.action_code(policy(state.to_state(), [fast.action_of(c) for c in legal], rng))

    return choose


# -- running many games ------------------------------------------------------------


@dataclass(frozen=True)
class Job:
    """Games ``first .. first + count - 1`` of one run: what a worker process needs."""

    players: int
    first: int
    count: int
    rules: Rules
    policies: tuple[str, ...]


def run_job(job: Job) -> list[GameStats]:
    """A worker's share (a plain function of plain data, so that a process pool or a
    Dask worker can run it)."""
    return [play(job.players, seed, job.rules, job.policies)
            for seed in range(job.first, job.first + job.count)]


def make_jobs(players: int, games: int, seed: int, variants: Mapping[str, str] | Rules,
              policies: Sequence[str], chunk: int = 250) -> list[Job]:
    """The run cut into chunks of ``chunk`` games, whatever the number of workers, so
    that results never depend on how the work was shared out.

    >>> [(j.first, j.count) for j in make_jobs(4, 600, 10, {}, ("random",) * 4)]
    [(10, 250), (260, 250), (510, 100)]
    """
    rules = variants if isinstance(variants, Rules) else make_rules(variants)
    return [Job(players, first, min(chunk, seed + games - first), rules, tuple(policies))
            for first in range(seed, seed + games, chunk)]


class Executor:
    """Where the jobs run. ``local`` uses ``jobs`` processes of this machine (the
    caller's own process when ``jobs`` is 1); ``dask`` sends them to a Dask
    distributed scheduler: ``address`` of a running one, or ``"local"`` for a local
    cluster of ``jobs`` worker processes. Workers are started once and kept until
    :meth:`close` (use it as a context manager), so a sweep of many runs pays once."""

    def __init__(self, jobs: int = 1, *, dask: str | None = None) -> None:
        if jobs < 1:
            raise VariantError(f"--jobs must be at least 1, not {jobs}", flag="--jobs", value=jobs)
        self.jobs, self.dask = jobs, dask
        self._pool: Any = None
        self._client: Any = None
        self._cluster: Any = None

    def __enter__(self) -> Executor:
        return self

    def __exit__(self, kind: type[BaseException] | None, *_rest: object) -> None:
        self.close(abandon=kind is not None)

    def close(self, *, abandon: bool = False) -> None:
        """Stop the workers: after the last job, or at once (``abandon``: an error or
        Ctrl-C, when their work is no longer wanted)."""
        if self._pool is not None:
            if abandon:
                with _ctrl_c_ignored():  # a second Ctrl-C must not cut the clean-up short
                    self._pool.terminate()
                    self._pool.join()
            else:
                self._pool.close()
                self._pool.join()
        if self._client is not None:
            self._client.close()
        if self._cluster is not None:
            self._cluster.close()
        self._pool = self._client = self._cluster = None

    def map(self, jobs: Sequence[Job], progress: Callable[[int], None] | None = None
            ) -> list[list[GameStats]]:
        """Run every job; the results in the order of ``jobs``. ``progress`` is told the
        games of each job as it finishes."""
        tell = progress or (lambda _games: None)
        results: list[list[GameStats]] = [[] for _ in jobs]
        if self.dask is not None:
            from distributed import as_completed  # an optional extra: loaded when asked for

            futures = self._dask_client().map(run_job, list(jobs), pure=False)
            index = {future.key: i for i, future in enumerate(futures)}
            for future in as_completed(futures):  # type: ignore[no-untyped-call]
                results[index[future.key]] = future.result()
                tell(jobs[index[future.key]].count)
        elif self.jobs == 1:
            for i, job in enumerate(jobs):
                results[i] = run_job(job)
                tell(job.count)
        else:
            for i, stats in self._local_pool().imap_unordered(_indexed, list(enumerate(jobs))):
                results[i] = stats
                tell(jobs[i].count)
        return results

    def _local_pool(self) -> Any:
        if self._pool is None:
            self._pool = worker_pool(self.jobs)
        return self._pool

    def _dask_client(self) -> Any:
        if self._client is None:
            try:
                from distributed import Client, LocalCluster
            except ImportError as exc:
                raise VariantError("--dask needs Dask distributed: pip install "
                                   "'mammamia[distributed]'", flag="--dask",
                                   value=self.dask) from exc
            if self.dask == "local":
                self._cluster = LocalCluster(  # type: ignore[no-untyped-call]
                    n_workers=self.jobs, threads_per_worker=1, processes=True,
                    dashboard_address=None)
                self._client = Client(self._cluster)  # type: ignore[no-untyped-call]
            else:
                self._client = _connect(Client, str(self.dask))
        return self._client


DASK_CONNECT_SECONDS = 15


def dask_address(text: str) -> str:
    """``--dask``: ``local``, or ``[tcp://|tls://]HOST:PORT`` with a port 1 to 65535; else
    a ``UsageError`` (checked before any game is played)."""
    if text == "local":
        return text
    scheme, sep, rest = text.rpartition("://")
    host, colon, port = rest.rpartition(":")
    if (sep and scheme not in ("tcp", "tls")) or not colon or not host or "/" in rest \
            or not port.isascii() or not port.isdigit() or not 1 <= int(port[:6]) <= 65535:
        raise UsageError(f"--dask expects 'local' or tcp://HOST:PORT, got {text[:80]!r}",
                         options=("--dask",), value=text)
    return text


def _connect(client_type: Any, address: str) -> Any:
    """A Dask client of the scheduler at ``address``; an unreachable or malformed address
    is one ``UsageError`` after at most ``DASK_CONNECT_SECONDS``."""
    try:
        return client_type(dask_address(address), timeout=DASK_CONNECT_SECONDS)
    except (OSError, ValueError, TypeError) as exc:
        if isinstance(exc, UsageError):
            raise
        reason = " ".join(str(exc).split()) or type(exc).__name__
        raise UsageError(f"--dask {address[:80]}: cannot reach the scheduler: {reason[:200]}",
                         options=("--dask",), value=address) from None


@contextmanager
def _ctrl_c_ignored() -> Iterator[None]:
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def worker_pool(jobs: int) -> Any:
    """A pool of ``jobs`` worker processes (forked where the system can: no re-import)
    that leave Ctrl-C to the parent."""
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
    return context.Pool(jobs, initializer=_leave_ctrl_c_to_the_parent)


@contextmanager
def workers(jobs: int) -> Iterator[Any]:
    """:func:`worker_pool` for one piece of work (None for a single process: the caller
    works alone); stopped at once if the work stops early (an error, Ctrl-C)."""
    if jobs == 1:
        yield None
        return
    pool = worker_pool(jobs)
    try:
        yield pool
    except BaseException:
        pool.terminate()
        raise
    finally:
        pool.close()
        pool.join()


def _leave_ctrl_c_to_the_parent() -> None:
    """Ctrl-C reaches every process of the terminal's group: the workers ignore it and
    the parent, which knows what has finished, stops them."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    die_with_parent()


def die_with_parent() -> None:
    """A worker's set-up: SIGTERM ends it at once, without a traceback (the parent's own
    handler, inherited through the fork, is for the parent), and on Linux the kernel
    ends it when its parent dies, however the parent died (a SIGTERM or SIGKILL sent to
    the parent alone), rather than letting it play its chunk to the end."""
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    parent = os.getppid()
    if sys.platform.startswith("linux"):
        import ctypes

        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG
        except (OSError, AttributeError):  # pragma: no cover - no prctl: the parent's
            pass                            # clean-up paths still stop the workers
    if os.getppid() != parent:  # pragma: no cover - the parent died during the set-up
        os._exit(1)


def _indexed(item: tuple[int, Job]) -> tuple[int, list[GameStats]]:
    return item[0], run_job(item[1])


class Progress:
    """A one-line progress bar on stderr, redrawn as games finish, with the time left for
    these games and ``after`` more to be played at the same pace (the other values of a
    comparison)."""

    def __init__(self, total: int, label: str = "", *, stream: Any = None,
                 after: int = 0) -> None:
        self.total, self.done, self.label, self.after = total, 0, label, after
        self.stream = stream or sys.stderr
        self.width = 0  # of the line last drawn: a shorter one is padded over it
        self.start = time.perf_counter()

    def __call__(self, games: int) -> None:
        self.done += games
        elapsed = max(time.perf_counter() - self.start, 1e-9)
        filled = int(30 * self.done / max(self.total, 1))
        rate = self.done / elapsed
        left = (self.total - self.done + self.after) / rate if rate > 0 else 0.0
        line = (f"{self.label}[{'#' * filled}{'.' * (30 - filled)}] {self.done:,}/"
                f"{self.total:,} games, {rate:,.0f}/s, {say_seconds(left)} left")
        self.stream.write(f"\r{line:<{self.width}}")
        self.width = len(line)
        if self.done >= self.total:
            self.stream.write("\n")
        self.stream.flush()


def say_seconds(seconds: float) -> str:
    """A time left as people say it.

    >>> say_seconds(4.2), say_seconds(75), say_seconds(3700)
    ('4 s', '1 min 15 s', '1 h 1 min')
    """
    whole = round(seconds)
    if whole < 60:
        return f"{whole} s"
    if whole < 3600:
        return f"{whole // 60} min {whole % 60} s"
    return f"{whole // 3600} h {whole % 3600 // 60} min"


def simulate(players: int, games: int, *, seed: int = 0,
             variants: Mapping[str, str] | Rules | None = None,
             policies: Sequence[str] = ("random",),
             executor: Executor | None = None, progress: bool = False,
             label: str = "", chunk: int = 250, games_after: int = 0) -> Summary:
    """Play ``games`` games (seeds ``seed`` on), ``chunk`` games to a job, and summarise
    them. ``variants`` is a game's rules (a house rule's, say) or flag values;
    ``games_after`` the games still to come after these (the progress bar's time left)."""
    if type(games) is not int or games < 1:
        raise VariantError(f"--games must be a positive number, not {games}", flag="--games",
                           value=games)
    rules = variants if isinstance(variants, Rules) else make_rules(variants)
    chosen = rules.as_dict()
    seat_policies = check_policies(policies, players)
    make_config(players, variants=rules)  # a bad player count, variant or parameter: fail here
    jobs = make_jobs(players, games, seed, rules, seat_policies, chunk)
    start = time.perf_counter()
    if executor is None:
        with Executor() as own:
            parts = own.map(jobs, Progress(games, label, after=games_after) if progress else None)
    else:
        parts = executor.map(jobs, Progress(games, label, after=games_after) if progress else None)
    stats = [game for part in parts for game in part]
    return Summary(players=players, seed=seed, variants=chosen, policies=seat_policies,
                   games=tuple(stats), wall_seconds=time.perf_counter() - start,
                   parameters=rules.parameters_dict(), house=rules.house)


# -- the summary -------------------------------------------------------------------


Z95 = 1.959963984540054


def wilson(successes: int, trials: int) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion (sound near 0 and 1).

    >>> [round(x, 3) for x in wilson(50, 100)]
    [0.404, 0.596]
    """
    if trials == 0:
        return (0.0, 1.0)
    p, z2 = successes / trials, Z95 * Z95
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = Z95 * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / (1 + z2 / trials)
    return (max(0.0, centre - half), min(1.0, centre + half))


def mean_ci(values: Sequence[float]) -> dict[str, Any]:
    """Mean and its 95% normal interval (the runs are large)."""
    n = len(values)
    if n == 0:
        return {"n": 0, "mean": None, "ci95": None}
    mean = sum(values) / n
    var = sum((v - mean) ** 2 for v in values) / (n - 1) if n > 1 else 0.0
    half = Z95 * math.sqrt(var / n)
    return {"n": n, "mean": round(mean, 4), "ci95": [round(mean - half, 4), round(mean + half, 4)]}


def rate(successes: int, trials: int) -> dict[str, Any]:
    low, high = wilson(successes, trials)
    return {"n": trials, "count": successes,
            "rate": None if trials == 0 else round(successes / trials, 4),
            "ci95": [round(low, 4), round(high, 4)]}


@dataclass(frozen=True)
class Summary:
    """The games of one run and the figures drawn from them."""

    players: int
    seed: int
    variants: Mapping[str, str]
    policies: tuple[str, ...]
    games: tuple[GameStats, ...]
    wall_seconds: float = 0.0
    parameters: Mapping[str, Any] = field(default_factory=lambda: default_rules().parameters_dict())
    house: str | None = None

    @property
    def finished(self) -> list[GameStats]:
        return [g for g in self.games if not g.abandoned]

    def digest(self) -> str:
        """A fingerprint of every game's counts: equal runs, equal digests."""
        hasher = hashlib.sha256()
        for game in self.games:
            hasher.update(repr(astuple(game)).encode())
        return hasher.hexdigest()[:16]

    def figures(self) -> dict[str, Any]:
        games, finished = self.games, self.finished
        players = self.players
        by_colour: dict[str, list[int]] = {}
        for game in finished:
            for seat, colour in enumerate(game.colours):
                by_colour.setdefault(COLOURS[colour], []).append(game.wins[seat])
        rounds_played = [end for g in games for end in g.ends]
        turns = {f"round {r + 1}": mean_ci([g.turns[r] for g in finished])
                 for r in range(max((len(g.turns) for g in finished), default=0))}
        return {
            "games": len(games),
            "finished": len(finished),
            "abandoned": len(games) - len(finished),
            "shared_wins": sum(sum(g.wins) > 1 for g in finished),
            "win_rate_by_seat": [rate(sum(g.wins[s] for g in finished), len(finished))
                                 for s in range(players)],
            "win_rate_by_colour": {c: rate(sum(w), len(w)) for c, w in
                                   sorted(by_colour.items(), key=lambda i: COLOURS.index(i[0]))},
            "pizzas_delivered_per_player": mean_ci([d for g in finished for d in g.delivered]),
            "order_success": {
                name: rate(sum(g.baked[t] for g in finished), sum(g.placed[t] for g in finished))
                for t, name in enumerate(ORDER_TYPE_NAMES)},
            "turns_per_round": turns,
            "turns_per_game": mean_ci([sum(g.turns) for g in finished]),
            "round_ends": {name: rounds_played.count(i) for i, name in enumerate(ROUND_ENDS)},
            "stall_cuts_per_game": mean_ci([g.ends.count(ROUND_ENDS.index("stall_cut"))
                                            for g in finished]),
            "decisions_per_game": mean_ci([g.decisions for g in finished]),
        }

    def as_json(self) -> dict[str, Any]:
        return {"format": "mammamia-simulation/1", "players": self.players,
                "seed": self.seed, "games": len(self.games),
                "variants": dict(self.variants), "parameters": dict(self.parameters),
                "house": self.house, "policies": list(self.policies),
                "digest": self.digest(), "wall_seconds": round(self.wall_seconds, 2),
                "figures": self.figures()}


def _ci(entry: Mapping[str, Any], percent: bool = False) -> str:
    value = entry.get("rate", entry.get("mean"))
    if value is None:
        return "n/a"
    low, high = entry["ci95"]
    if percent:
        return f"{100 * value:5.1f}% ({100 * low:.1f}-{100 * high:.1f})"
    return f"{value:.2f} ({low:.2f}-{high:.2f})"


def format_summary(summary: Summary) -> str:
    """The summary as text for people: figures with their 95% intervals."""
    fig = summary.figures()
    rules = make_rules(summary.variants, summary.parameters, house=summary.house)
    policies = ", ".join(sorted(set(summary.policies)))
    lines = [f"{fig['games']:,} games, {summary.players} players, seeds {summary.seed}.."
             f"{summary.seed + fig['games'] - 1}, policies {policies}, "
             f"rules: {rules.describe()} "
             f"({summary.wall_seconds:.1f} s, digest {summary.digest()})",
             f"finished {fig['finished']:,}, abandoned {fig['abandoned']:,} "
             f"(stalled for ever), shared wins {fig['shared_wins']:,}", "",
             "win rate by seat (95% interval):"]
    lines += [f"  seat {s}: {_ci(e, True)}" for s, e in enumerate(fig["win_rate_by_seat"])]
    lines += ["win rate by colour:"]
    lines += [f"  {c:<7} {_ci(e, True)}" for c, e in fig["win_rate_by_colour"].items()]
    lines += [f"pizzas delivered per player: {_ci(fig['pizzas_delivered_per_player'])}",
              "orders baked / placed, by type:"]
    lines += [f"  {t:<12} {_ci(e, True)}  ({e['count']:,} of {e['n']:,})"
              for t, e in fig["order_success"].items()]
    lines += ["turns per round: " + ", ".join(f"{r} {_ci(e)}"
                                             for r, e in fig["turns_per_round"].items()),
              "rounds ended: " + ", ".join(f"{k} {v:,}" for k, v in fig["round_ends"].items())]
    return "\n".join(lines)




# -- the benchmark's games ---------------------------------------------------------


@dataclass(frozen=True)
class Tally:
    """What the benchmark keeps of a share of games: totals only."""

    games: int
    decisions: int
    wins: tuple[int, ...]
    cpu_seconds: float


def run_tally(job: Job) -> Tally:
    """A share of games counted in totals only, on the fast engine's own game loop
    (:func:`mammamia_ref.sim.fast.play_random_game`: the benchmark policy at every seat,
    the seats' colours fixed), the quickest way to play a game: what ``mammamia bench``
    times. A plain function of plain data, for a process pool."""
    config = make_config(job.players, variants=job.rules)
    wins, decisions, cpu = [0] * job.players, 0, time.process_time()
    for seed in range(job.first, job.first + job.count):
        result = fast.play_random_game(config, seed)
        decisions += result.decisions
        for seat in result.winners:
            wins[seat] += 1
    return Tally(job.count, decisions, tuple(wins), time.process_time() - cpu)


def tally(players: int, games: int, *, jobs: int = 1, seed: int = 0,
          variants: Mapping[str, str] | None = None, pool: Any = None) -> dict[str, Any]:
    """Play ``games`` benchmark games (seeds ``seed`` on) in ``jobs`` processes, or on
    ``pool``: wins per seat, decisions, and the wall time taken. In several processes the
    seeds go out in eight jobs per process, handed to whichever is free: a process slowed
    by other programs then does less of the work instead of holding up the rest. The
    totals do not depend on the number of processes."""
    parallel = jobs > 1 or pool is not None
    chunk = max(1, -(-games // (8 * jobs))) if parallel else max(games, 1)
    shares = make_jobs(players, games, seed, variants or {}, ("random",) * players, chunk)
    start = time.perf_counter()
    if not parallel:
        parts = [run_tally(share) for share in shares]
    elif pool is not None:
        parts = pool.map(run_tally, shares, chunksize=1)
    else:
        with workers(jobs) as own:
            parts = own.map(run_tally, shares, chunksize=1)
    wall = time.perf_counter() - start
    return {"players": players, "games": games, "jobs": jobs,
            "decisions": sum(p.decisions for p in parts),
            "wins": [sum(p.wins[seat] for p in parts) for seat in range(players)],
            "wall_seconds": round(wall, 4), "games_per_s": round(games / wall, 1),
            "cpu_seconds": round(sum(p.cpu_seconds for p in parts), 4)}
