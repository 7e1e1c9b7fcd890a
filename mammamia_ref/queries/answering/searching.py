"""``ask``'s search: seeded games on the reference under the players' policies, and for
a measure a directed search (the best game so far played on again from a point along
it). Every game is one explicit run: its shuffles are actions, so it replays exactly."""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from mammamia_ref.queries.language.judging import PartOf, Played, as_parts, keep_parts
from mammamia_ref.queries.language.questions import Question
from mammamia_ref.rules.actions import Action
from mammamia_ref.rules.events import Event
from mammamia_ref.rules.game import apply_in_parts, is_chance, is_over, legal_actions, new_game
from mammamia_ref.rules.ruleset import Rules
from mammamia_ref.rules.state import GameConfig, GameState, Phase, Step, make_config
from mammamia_ref.rules.typed_spec import Stall
from mammamia_ref.sim.feeding import FEED, parse_feed

POLICIES = ("random", "simple", "careful")


def policies_for(question: Question, config: GameConfig) -> tuple[str, ...]:
    """The policies the search plays for ``question``: :data:`POLICIES`, and first a
    table that plays for one seat (:mod:`mammamia_ref.sim.feeding`) where the question
    measures one seat's part: its orders (``some_seat:``; the fed seat careful) or its
    Pizza Bombastica (``bombastica_cards``; the fed seat random, which places it on a
    table the others' orders never take from: at 3 players 33 of 3,000 such games take
    46 cards or more, none of 3,000 random ones 40). The seats are alike, so the first
    colour seated is fed."""
    measured = question.measure if question.goal != "find" else None
    fed = f"{FEED}:{config.colours[0]}"
    if isinstance(measured, Mapping) and "some_seat" in measured:
        return (f"{fed}:careful", *POLICIES)
    if measured == "bombastica_cards" and question.goal == "most":
        return (f"{fed}:random", *POLICIES)
    return POLICIES


FEED_SEEDS = 6
"""The seeds a feeding table plays to each one of another policy in the seeded games:
for a question that measures one seat's part it makes the games that count (Q23 at 3
players: 7 orders at one opening in 10 of the first 800 fed games, in none of 1,500
careful ones), but only on a new deal (a careful table's choices hardly depend on the
seed, so playing on from a point of one rarely differs). Measured before the feeders
drew from their waiters, Q23 at 3 players from scratch gave 6 of 7 in 60 s of CPU with
3, and 7 in 17 s with 6."""


def seeded(tables: tuple[str, ...], games: int) -> Iterator[tuple[int, str]]:
    """The (seed, policy) pairs of the seeded games, lazily, in the order played: seed
    by seed, each policy in turn, a feeding table's :data:`FEED_SEEDS` seeds to each
    one of the others (every seed said in the witness, so each game replays)."""
    fed = [p for p in tables if parse_feed(p)]
    others = [p for p in tables if not parse_feed(p)]
    for s in range(games):
        for policy in fed:
            for k in range(FEED_SEEDS):
                yield FEED_SEEDS * s + k, policy
        for policy in others:
            yield s, policy


def _delivered(state: Any, _turns: int) -> int:
    """The orders delivered, all seats together: a baked order stays delivered, so in a
    whole game it is also the orders baked."""
    return sum(len(d) for d in state.delivered)


FAST_MEASURES: dict[str, Callable[[Any, int], int]] = {
    "turns": lambda _state, turns: turns, "baked": _delivered, "delivered": _delivered}
"""The measures the fast engine (:mod:`mammamia_ref.sim.fast`, no events) gives of a
whole game, from its last state and its turns: for :func:`screen` and the climb's
fast continuations (:func:`fast_on`). The reference's :func:`..language.measures.measure` of the
same game is the one reported (``tests/test_ask.py`` holds the two to each other)."""

FAST_SHARE = 0.3
"""The part of a measure's search budget the fast engine's screen has."""


def playout(config: GameConfig, seed: int | str, policy: str, *, max_steps: int = 20_000,
            after: Played | None = None) -> Played:
    """One seeded game on the reference under ``policy`` (the stall=letter repetition
    cut off as :func:`mammamia_ref.sim.play.play_game` does); with ``after``, that game
    played on to its end (every later shuffle from ``seed``). Each action is played in
    its parts (:func:`..rules.game.apply_in_parts`: ``apply``'s transition), which
    judging keeps for a new game (:func:`..language.judging.keep_parts`), so that it is
    not replayed to be judged."""
    import random

    from mammamia_ref.rules.chance import ChanceSource
    from mammamia_ref.sim.policies import get_policy

    chance, rng, choose = ChanceSource(seed), random.Random(f"mammamia-policy:{seed}"), \
        get_policy(policy)
    steps = list(after.steps) if after is not None else []
    parts: list[tuple[Action | PartOf, tuple[Event, ...], GameState]] = []
    state = steps[-1][2] if steps else new_game(config)
    for _ in range(max_steps):
        if is_over(state) or (state.flags.stall == Stall.LETTER
                              and state.quiet_turns >= state.players):
            break
        action = chance.shuffle(state) if is_chance(state) else \
            choose(state, legal_actions(state), rng)
        split = apply_in_parts(state, action)   # apply's transition, part by part
        if after is None:   # kept for a new game only (see below)
            parts.extend(as_parts(action, split))
        state = split[-1][0]
        events = split[0][1] if len(split) == 1 else sum((more for _s, more in split), ())
        steps.append((action, events, state))
    if after is not None:
        return Played(config, tuple(steps), after.seed, after.policy,
                      f"{after.found_by}, played on to its end ({policy} policy, seed {seed})")
    played = Played(config, tuple(steps), seed, policy)
    return keep_parts(played, Played(config, tuple(parts), seed, policy))   # from the setup


def search(question: Question, players: int, rules: Rules, budget: float,
           judge: Callable[[Played], float | None], *, directed: bool = False,
           enough: float = float("inf"), on_fast: bool = True, near_end: float = 0.0
           ) -> tuple[Played | None, int, float, int]:
    """Seeded games under ``rules``, the policies in turn, until ``budget`` CPU seconds
    or the bound's game count: the best game by ``judge`` (None: not a candidate; a
    larger number is better; ``enough`` or more stops at once: a proved bound met),
    the reference's games played, its score and the games the fast engine screened.
    ``directed`` (a judge with degrees: a measure, or how near a game comes to a
    condition) screens on the fast engine where it gives the measure (:func:`screen`),
    gives the seeded games a part of the budget and then climbs (:func:`climb`, with
    ``near_end``). Where the judgement reads only events
    (:func:`judged_on_events`) and the fast engine plays the rules, the seeded games are
    played on it (``on_fast``, :func:`seeded_on_fast`; for a ``find:`` the count
    returned is then every game judged, on either engine), and a feeding table's
    (:func:`policies_for`), which the fast engine cannot play, on the reference for
    half the seeded games' share."""
    from mammamia_ref.queries.language.variables import seatings

    config = make_config(players, variants=rules)
    # every seating the question tells apart, in turn (:func:`..language.variables.seatings`)
    seated = [make_config(players, colours=colours, variants=rules) for colours
              in seatings(players, question.condition or question.measure)]
    games = question.bound.get("games", 10_000)
    start, best, score, played, screened = time.process_time(), None, float("-inf"), 0, 0
    tables = policies_for(question, config)
    share = budget * (SEEDED_SHARE if directed else 1.0)   # the seeded games'
    if on_fast and len(seated) == 1 and judged_on_events(question) and fast_plays(rules):
        fed = tuple(p for p in tables if parse_feed(p))   # no fast chooser: half the share
        best, score, played, screened = seeded_on_fast(config, judge,
                                                       share / 2 if fed else share,
                                                       10 * games, enough,
                                                       judged_events(question))
        if fed and score < enough:
            best, score, more = _seeded(seated, fed, judge, start + share, games - played,
                                        enough, best, score)
            played += more
        if directed and best is not None and score < enough:
            best, score, more, tried = climb(question, best, score, judge,
                                             budget - (time.process_time() - start),
                                             games - played, enough, on_events=True,
                                             near_end=near_end)
            played, screened = played + more, screened + tried
        return best, played if directed else played + screened, score, screened
    fast = FAST_MEASURES.get(question.measure) \
        if directed and fast_plays(rules) and isinstance(question.measure, str) else None
    if fast is not None:
        best, score, played, screened = screen(config, fast, judge, budget * FAST_SHARE,
                                               10 * games, question.goal)
        if score >= enough:
            return best, played, score, screened
    best, score, more = _seeded(seated, tables, judge, start + share, games - played,
                                enough, best, score)
    played += more
    if directed and best is not None and score < enough:
        best, score, more, tried = climb(question, best, score, judge,
                                         budget - (time.process_time() - start),
                                         games - played, enough, fast, near_end=near_end)
        played, screened = played + more, screened + tried
    return best, played, score, screened


def _seeded(seated: list[GameConfig], tables: tuple[str, ...],
            judge: Callable[[Played], float | None], until: float, games: int,
            enough: float, best: Played | None, score: float
            ) -> tuple[Played | None, float, int]:
    """The seeded games of ``tables`` (:func:`seeded`) on the reference, the seatings in
    turn, until CPU time ``until``, ``games`` games or a score of ``enough``: the best
    game so far (``best`` at ``score`` to beat), its score and the games played."""
    played = 0
    for seed, policy in seeded(tables, games):
        if time.process_time() > until or played >= games:
            break
        game = playout(seated[seed % len(seated)], seed, policy)
        played += 1
        got = judge(game)
        if got is not None and got > score:
            best, score = game, got
            if got >= enough:
                break
    return best, score, played


MEASURE_EVENTS: dict[str, frozenset[str]] = {
    "turns": frozenset({"turn_begins"}), "baked": frozenset({"baked"}),
    "baked_one_opening": frozenset({"oven_opened", "baked"}),
    "bombastica_cards": frozenset({"baked"})}
"""The measures (:func:`..language.measures.measure`) a game's events alone give, and the events
each reads."""
EVENT_MEASURES = frozenset(MEASURE_EVENTS)


def judged_on_events(question: Question) -> bool:
    """Whether a game is judged for ``question`` by its events alone: a ``find:``
    condition naming only events (no state condition), or a measure of
    :data:`EVENT_MEASURES`."""
    if question.goal != "find":
        return isinstance(question.measure, str) and question.measure in EVENT_MEASURES
    return question.condition is not None and _events_only(question.condition)


def judged_events(question: Question) -> frozenset[str]:
    """The names of the events a judgement of ``question`` on events reads: those its
    condition or measure names, ``turn_begins``, where :func:`..language.judging.within`
    cuts a game to the bound, and ``game_ended``, which tells a whole game
    (:func:`..language.judging.ended`)."""
    base = {"turn_begins", "game_ended"}
    if question.goal != "find":
        return MEASURE_EVENTS[str(question.measure)] | base
    return frozenset(_named(question.condition or {})) | base


def _named(cond: Mapping[str, Any]) -> Iterator[str]:
    for part in (*cond.get("all", ()), *cond.get("any", ()),
                 *(cond[key] for key in ("not", "holds") if key in cond)):
        yield from _named(part)
    if "event" in cond:
        yield cond["event"]
    if "result" in cond:
        yield "winners"


def _events_only(cond: Mapping[str, Any]) -> bool:
    """A condition judged on events alone: no state count, no span (a round's span reads
    the states), no state right after or before an event."""
    from mammamia_ref.queries.language.judging import needs_parts, needs_turning
    from mammamia_ref.queries.language.variables import QUANTIFIERS

    if "all" in cond or "any" in cond:
        return all(_events_only(c) for c in cond.get("all", cond.get("any", ())))
    if "not" in cond:
        return _events_only(cond["not"])
    if any(q in cond for q in QUANTIFIERS):
        return _events_only(cond["holds"])
    return ("event" in cond or "result" in cond) and not needs_parts(cond) and \
        not needs_turning(cond)


def told_game(config: GameConfig, events: tuple[Event, ...], state: GameState,
              seed: int | str, policy: str) -> Played:
    """A game the fast engine told, for a judgement on events alone: its events as one
    step (whose action and state, ``state``, such a judgement never reads)."""
    from mammamia_ref.rules.actions import NoOrder

    return Played(config, ((NoOrder(), events, state),), seed, policy)


def policies_on_fast(rules: Rules) -> list[str]:
    """The policies of :data:`FAST_SEEDS` that play ``rules`` (the benchmark policy reads
    no rule; the careful player's ``models:`` claims)."""
    return [p for p in FAST_SEEDS if p == "random" or claims("policies", rules)]


FAST_SEEDS = {"random": 5, "careful": 1}
"""How many seeds each policy plays in its turn on the fast engine: a careful game
costs about five random ones there (3.6 to 7 times, pure or compiled, 2 to 5 players), so
each policy has about the same share of the search's CPU time."""


def seeded_on_fast(config: GameConfig, judge: Callable[[Played], float | None],
                   budget: float, games: int, enough: float,
                   names: frozenset[str] | None = None
                   ) -> tuple[Played | None, float, int, int]:
    """The seeded games played on the fast engine with the reference's events
    (:func:`mammamia_ref.sim.fast_events.games_with_events`; its policies in turn, each
    the next :data:`FAST_SEEDS` of its seeds), until ``budget`` CPU seconds or ``games``
    games, each judged on its events by ``judge`` (only those of ``names``, if given:
    :func:`judged_events`). A game that scores better than the best so far is played
    again by the reference, judged again, and only that game is kept; ``enough`` stops at
    once. The best game, its score, the reference's games and the fast engine's."""
    from dataclasses import replace

    from mammamia_ref.errors import InternalError
    from mammamia_ref.sim.fast_events import games_with_events

    start, setup = time.process_time(), new_game(config)
    best, score, replayed, screened = None, float("-inf"), 0, 0
    policies = policies_on_fast(config.rules)
    streams = [(policy, games_with_events(config, itertools.count(), policy, names=names))
               for policy in policies]
    seeded = ((policy, seed, events) for _turn in itertools.count()
              for policy, stream in streams
              for seed, events in itertools.islice(stream, FAST_SEEDS.get(policy, 1)))
    for policy, seed, events in seeded:
        screened += 1
        got = judge(told_game(config, events, setup, seed, policy))
        if got is not None and got > score:
            game = playout(config, seed, policy)
            replayed += 1
            again = judge(game)
            if again != got:
                raise InternalError(f"the fast engine's game ({policy} policy, seed {seed}) "
                                    f"is judged {got}, the reference's {again}")
            best = replace(game, found_by=f"{policy} policy, seed {seed}, found among "
                           f"{screened} seeded games on the fast engine ("
                           f"{', '.join(policies)} policies), replayed by the reference")
            score = got
            if got >= enough:
                break
        if screened >= games or time.process_time() - start > budget:
            break
    return best, score, replayed, screened


SEEDED_SHARE = 0.6
"""The part of a directed search's budget the seeded games (the fast screen's
included) have before the climb."""

NEAR_END = 0.5
"""The share of a ``find:``'s climb that plays on from near the end of the nearest game
(the last twentieth of its steps on average) rather than from anywhere along it: a near
miss is mostly made good late (at 4 players, every player level on orders and cards at
the end was found from a game one card off in 244 tries this way, and not in 2,941
tries from anywhere; measured 2026-12-06). A measure's climb plays on from anywhere:
with this share, Q23's most orders at one opening stayed at 6 at 3 and 4 players within
60 s, as without it, and Q22's largest Bombastica at 3 players came to 49 within 120 s,
where without it the climb met the proved 50 in 40.7 s (the same day)."""


def screen(config: GameConfig, fast_measure: Callable[[Any, int], int],
           judge: Callable[[Played], float | None], budget: float, games: int,
           goal: str) -> tuple[Played | None, float, int, int]:
    """Seeded random games on the fast engine, many times quicker than the reference,
    until ``budget`` CPU seconds (or ``games``): the best seeds by ``fast_measure``, each
    then played by the reference (the same game: the same seed and policy) and judged
    by ``judge``. The best of those, its score, the reference's games and the fast
    engine's."""
    from dataclasses import replace

    start, sign, scored = time.process_time(), 1 if goal == "most" else -1, []
    seed, setup = 0, new_game(config)
    while seed < games and time.process_time() - start < budget * 0.8:
        scored.append((sign * fast_measure(*fast_on(setup, f"fast-{seed}")), seed))
        seed += 1
    best, score, top = None, float("-inf"), sorted(scored, reverse=True)[:5]
    for _value, chosen in top:
        game = playout(config, f"fast-{chosen}", "random")
        got = judge(game)
        if got is not None and got > score:
            best, score = game, got
    if best is not None:
        best = replace(best, found_by=f"random policy, seed {best.seed}: the best of {seed} "
                       f"games the fast engine screened, {len(top)} played by the reference")
    return best, score, len(top), seed


def fast_plays(rules: Rules) -> bool:
    """Whether the fast engine plays games under ``rules`` (its ``models:`` claims; the
    information flags change what players see, not the game)."""
    return claims("fast", rules)


def claims(model: str, rules: Rules) -> bool:
    """Whether ``model`` (``fast``, ``policies``) claims every value of ``rules`` in the
    spec's ``models:`` (the information flags aside)."""
    from mammamia_ref.errors import VariantError
    from mammamia_ref.rules.state import refuse_unclaimed

    try:
        refuse_unclaimed(model, rules, carries_information=True)
    except VariantError:
        return False
    return True


def fast_on(state: GameState, seed: int | str, max_steps: int = 20_000) -> tuple[Any, int]:
    """The game from ``state`` played on to its end on the fast engine as
    :func:`playout` plays it on the reference under the random policy with ``seed``
    (the same shuffles, the same choices): its last state and the turns begun after
    ``state``."""
    import random

    from mammamia_ref.sim import fast

    game, chance = fast.from_state(state), fast.FastChance(seed)
    rng, letter = random.Random(f"mammamia-policy:{seed}"), state.flags.stall == Stall.LETTER
    # the turns begun, as the reference's turn_begins events count them: a turn that
    # follows a turn, and each round's first (after the shuffles that start it, even a
    # round that ends at once): one is pending while the state awaits a shuffle
    turns, round_now = int(game.phase == Phase.SHUFFLE), game.round
    for _ in range(max_steps):
        if fast.is_over(game) or (letter and game.quiet_turns >= game.players):
            break
        if fast.is_chance(game):
            fast.apply_shuffle(game, chance.shuffle(game))
            continue
        fast.apply(game, fast.benchmark_choice(game, fast.legal_actions(game), rng))
        turns += game.phase == Phase.TURN and game.step == Step.PLAY
        if game.round != round_now:   # the next round is prepared: its first turn follows
            turns, round_now = turns + 1, game.round
    return game, turns


def _score_on_fast(prefix: Played, seed: str, policy: str,
                   judge: Callable[[Played], float | None], names: frozenset[str]
                   ) -> float | None:
    """The score of ``prefix`` played on to its end on the fast engine (``seed``,
    ``policy``), judged on the reference's events of the whole game."""
    from mammamia_ref.sim.fast_events import games_with_events

    last = prefix.steps[-1][2] if prefix.steps else new_game(prefix.config)
    _seed, events = next(games_with_events(prefix.config, [seed], policy, after=last,
                                           names=names))
    before = tuple(e for _a, evs, _s in prefix.steps for e in evs)
    return judge(told_game(prefix.config, before + events, last, seed, policy))


def climb(question: Question, best: Played, score: float,
          judge: Callable[[Played], float | None], budget: float, games: int,
          enough: float, fast: Callable[[Any, int], int] | None = None,
          on_events: bool = False, near_end: float = 0.0) -> tuple[Played, float, int, int]:
    """A directed search: the best game so far is played again from a point along it
    (a seeded choice), on from there by another seed and policy, and kept when it
    scores as well or better; every shuffle stays explicit, so each game replays. With
    ``fast`` (the measure on the fast engine), a try under the random policy is played
    on it first and goes to the reference only if it scores as well. With ``on_events``
    (the judgement reads only events) every try is played on the fast engine with the
    reference's events, under a policy it plays (as often as :data:`FAST_SEEDS` has each
    play in the seeded games), and goes to the reference only if it
    scores better: a try that only scores as well is not kept there (the reference would
    replay every such try), so this climb never moves sideways. A ``near_end`` share of
    the tries plays on from near the end of the best game (:data:`NEAR_END`)."""
    import random
    from dataclasses import replace

    rng = random.Random(f"mammamia-ask-climb:{question.id}:{best.config.players}")
    start, played, better, screened = time.process_time(), 0, 0, 0
    origin = best.found_by or f"{best.policy} policy, seed {best.seed}"
    sign = 1 if question.goal == "most" else -1
    tried = policies_on_fast(best.config.rules)
    tables = policies_for(question, best.config)
    while played < games and time.process_time() - start < budget and score < enough:
        cut = _cut(rng, len(best.steps), near_end)
        seed = f"climb-{played + screened}"
        policy = rng.choices(tried, [FAST_SEEDS[p] for p in tried])[0] if on_events \
            else rng.choice(tables)
        prefix = replace(best, steps=best.steps[:cut])
        told = None
        if on_events:
            screened += 1
            told = _score_on_fast(prefix, seed, policy, judge, judged_events(question))
            if told is None or told <= score:
                continue
        elif fast is not None and policy == "random":
            state, after = fast_on(prefix.steps[-1][2], seed)
            screened += 1
            before = sum(1 for _a, evs, _s in prefix.steps for e in evs
                         if e.name == "turn_begins")
            if sign * fast(state, before + after) < score:
                continue
        game = playout(best.config, seed, policy, after=prefix)
        played += 1
        got = judge(game)
        if on_events and got != told:
            from mammamia_ref.errors import InternalError

            raise InternalError(f"the fast engine's game ({policy} policy, seed {seed}, "
                                f"from step {cut}) is judged {told}, the reference's {got}")
        if got is not None and got >= score:
            better += got > score
            best, score = game, got
    fast_part = f" ({screened} tried on the fast engine first)" if screened else ""
    found_by = (f"a directed search from the game of {origin}: {played} games played on "
                f"from a point of the best so far{fast_part}, {better} better")
    return replace(best, found_by=found_by), score, played, screened


def _cut(rng: Any, steps: int, near_end: float) -> int:
    """Where a climb's try leaves the best game (the steps kept): anywhere after its
    first step, or with chance ``near_end`` near its end (a twentieth of its steps back,
    on average)."""
    if steps <= 1:
        return 0
    if near_end and rng.random() < near_end:   # none: a measure's climb draws as before
        return max(1, steps - 1 - int(rng.expovariate(1 / max(1.0, steps / 20))))
    return int(rng.randrange(1, steps))


__all__ = ["EVENT_MEASURES", "FAST_MEASURES", "FAST_SEEDS", "MEASURE_EVENTS", "NEAR_END",
           "POLICIES", "SEEDED_SHARE", "claims", "climb", "fast_on", "fast_plays",
           "judged_events", "judged_on_events", "playout", "policies_on_fast", "screen",
           "search", "seeded_on_fast", "told_game"]
