"""``mammamia ask``: a question file (:mod:`..language.questions`) answered cell by cell.

Each (players, flag values) cell gets one of

- **found**: a witness game from a new deal (explicit shuffles), written as a scenario
  and replayed by the reference;
- **none in any game**: an unbounded proof (:mod:`.unbounded`: induction, or a ranking
  function, over the game model's steps);
- **none within the bound**: only from a z3 proof (the game model over every schedule
  of the bound, :mod:`.bounded`); a search never answers "none";
- **value**: for ``most:`` / ``fewest:``, the best game found, with the proved bound where
  one is known ("exact" only when the two meet);
- **unbounded**: a ``most:`` with no most, a game whose measure rises each time the
  actions between a position and its return are played again (:mod:`.unending`);
- **unknown**: the budget spent and what was tried.

The routes: a ``find:`` by the unbounded proof, then the known games
(:mod:`.known_games`: every game the package ships), a seeded search
(:mod:`.searching`), the actions between a position and its return played again
(:mod:`.unending`) and the z3 game model; a ``most:`` / ``fewest:`` by its proved bound
(a ``most:`` with none first asked whether it grows without end), the known games, a
directed search and the game model raising the value found (:mod:`.optimum`). A game
is judged by :mod:`..language.judging` and kept only when the reference replays the
scenario written from it; one that came from a known game names its file.
"""

from __future__ import annotations

import functools
import math
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from mammamia_ref.formats.house import HouseRule, house_rules
from mammamia_ref.queries.answering.answer import AskAnswer
from mammamia_ref.queries.answering.measure_bounds import lower_bound, upper_bound
from mammamia_ref.queries.answering.searching import (
    NEAR_END,
    POLICIES,
    policies_on_fast,
    search,
)
from mammamia_ref.queries.language.judging import (
    Played,
    judged_on,
    meets,
)
from mammamia_ref.queries.language.measures import measure
from mammamia_ref.queries.language.nearness import directs, nearness
from mammamia_ref.queries.language.questions import Question, rules_in_force
from mammamia_ref.queries.language.sketch import sketches_for
from mammamia_ref.queries.language.variables import expand, named_colours
from mammamia_ref.rules.ruleset import Rules
from mammamia_ref.rules.vocabulary import COLOURS

# --------------------------------------------------------------- the answers


def answer_cell(question: Question, players: int, variants: Mapping[str, str],
                budget: float, *, known: bool = True) -> AskAnswer:
    """One cell of a question (see the module's docstring), under the question's house
    rule (if any) with the cell's flag values; without ``known``, from the search and
    the game model alone (the known games not judged: what the routes reach by
    themselves)."""
    cpu = time.process_time()
    rules = house_rules(question.house, variants)   # the cell's flags over the house rule's
    out = AskAnswer(question.id, players, dict(variants), title=question.title,
                    in_force=rules_in_force(rules, question.house))
    if question.goal == "find":
        assert question.condition is not None
        _find(question, players, rules, budget, out, known)
    else:
        assert question.measure is not None
        name, goal = question.measure, question.goal
        sign = 1 if goal == "most" else -1

        def judge(g: Played) -> float | None:
            got = measure(name, g, goal)
            return None if got is None else sign * got

        # the proved bound first: a search that meets it stops (the value is exact)
        proved = (upper_bound if goal == "most" else lower_bound)(name, players, rules)
        if proved is not None:
            out.bound_how = f"{proved.how} [{time.process_time() - cpu:.1f} s of CPU]"
            if goal == "most":
                out.upper, out.upper_evidence = proved.value, proved.evidence
            else:
                out.lower, out.lower_evidence = proved.value, proved.evidence
        bound = out.upper if goal == "most" else out.lower
        looked = ""   # where it looked for the measure growing without end
        if proved is None and goal == "most":
            answered, looked = _unending(question, players, rules, budget * UNENDING_SHARE,
                                         out, known)
            if answered:
                out.cpu = time.process_time() - cpu
                return out
        _optimum(question, players, rules, budget * SPENDABLE - (time.process_time() - cpu),
                 budget, bound, judge, out, known)
        out.tried = looked + out.tried
        _past_the_bound(out)
    out.cpu = time.process_time() - cpu
    return out


def _unending(question: Question, players: int, rules: Rules, budget: float,
              out: AskAnswer, known: bool) -> tuple[bool, str]:
    """A ``most:`` with no proved bound answered "unbounded" where a game shows its
    measure growing without end (:mod:`.unending`): True; else False and what was
    tried, for the answer's ``tried:`` before its optimum's."""
    from mammamia_ref.queries.answering.unending import unending

    endless, tried = unending(question, players, rules, budget, known)
    if endless is None:
        return False, f"not unbounded: {tried}; "
    if not _kept(question, endless.game, out, "unbounded", f"{question.title}: no most"):
        return False, f"not unbounded: the reference did not replay {tried}; "
    out.detail = f"{endless.said()}; {out.detail}"
    out.tried = f"a position that comes back: {tried}"
    return True, ""


def _past_the_bound(out: AskAnswer) -> None:
    """A replayed game whose measure passes the proved bound means that the proof or the
    judging is wrong: the answer says so and claims no value (a false "exact" is worse
    than none)."""
    if out.value is None:
        return
    if out.upper is not None and out.value > out.upper:
        bound, evidence = out.upper, out.upper_evidence
    elif out.lower is not None and out.value < out.lower:
        bound, evidence = out.lower, out.lower_evidence
    else:
        return
    out.answer, out.exact = "unknown", False
    out.detail = (f"the witness measures {out.value}, past the proved bound {bound} "
                  f"({evidence}): the proof or the judging is wrong; {out.detail}")


def _optimum(question: Question, players: int, rules: Rules, spendable: float,
             budget: float, bound: int | None, judge: Any, out: AskAnswer,
             known: bool = True) -> None:
    """A ``most:`` / ``fewest:`` cell after its proved bound: the known games, the
    directed search (unless a known game meets the bound), then (for a measure the
    language states as "at least k", or "at most k", :mod:`.optimum`) the game model
    moving the value for the rest of the budget."""
    from mammamia_ref.queries.answering.known_games import best_known
    from mammamia_ref.queries.answering.optimum import at_least, at_most

    sign = 1 if question.goal == "most" else -1
    raisable = (at_least if sign > 0 else at_most)(question.measure, 1) is not None
    left = max(spendable, budget / 4)
    start = time.process_time()
    settled, climbed = _climbed(question, players, rules, left * CLIMB_SHARE, out)
    if settled:
        return
    left -= time.process_time() - start   # what the climb spent is the cell's too
    start = time.process_time()
    bound = out.lower if sign < 0 else bound
    enough = float("inf") if bound is None else sign * bound
    game, score, judged = best_known(players, rules, judge, left * KNOWN_SHARE) if known \
        else (None, -math.inf, 0)
    if score < enough and sketches_for(question.sketches, players, rules):   # none meets
        sketched = _on_sketches(question, players, rules, bound,   # the bound
                                left * SKETCH_SHARE, out)
        if bound is not None and out.value == bound:   # the sketch's game meets it
            out.exact, out.tried = True, f"{climbed}{sketched}; stopped at the proved bound"
            return
        climbed += f"{sketched}; then "
    played = screened = 0
    if score < enough:
        found, played, searched, screened = search(
            question, players, rules, left * (OPTIMUM_SEARCH_SHARE if raisable else 1)
            - (time.process_time() - start), judge, directed=True, enough=enough)
        if found is not None and searched > score:
            game, score = found, searched
    fast = f" and {screened} on the fast engine" if screened else ""
    among = f"{judged} known games and {played} games on the reference{fast}" if known \
        else f"{played} games on the reference{fast}"
    if game is not None and (out.value is None or score > sign * out.value):
        _keep(question, game, out, "value", f"{question.title}: {int(sign * score)}")
        out.value = int(sign * score)
        out.tried = f"{climbed}the best of {among} ({game.found_by or 'seeded'})"
    elif out.value is not None:   # the climb's game stands
        out.tried = f"{climbed}{among}: none better"
    else:
        out.tried = f"{climbed}{among}; none has the measure"
    out.exact = bound is not None and bound == out.value
    if raisable and not out.exact:
        _by_the_model(question, players, rules, left - (time.process_time() - start), out)
    out.tried += f"; a budget of {left:.1f} s of CPU" + \
        ("; stopped at the proved bound" if out.exact else "")


def _on_sketches(question: Question, players: int, rules: Rules, aim: int | None,
                 budget: float, out: AskAnswer) -> str:
    """A ``most:`` / ``fewest:`` cell's sketches asked for a game whose measure reaches
    ``aim`` (:func:`.sketched.aimed`): the game is the answer's value where the
    reference replays it. What they gave, in words ("" where there are none)."""
    from mammamia_ref.queries.answering.sketched import aimed

    game, said = aimed(question, players, rules, aim, budget)
    value = None if game is None else measure(question.measure, game, question.goal)
    sign = 1 if question.goal == "most" else -1
    better = value is not None and (out.value is None or sign * value > sign * out.value)
    if game is not None and better and \
            _kept(question, game, out, "value", f"{question.title}: {value}"):
        out.value = value   # (only a better game than the climb's stands for it)
    return said


def _climbed(question: Question, players: int, rules: Rules, budget: float,
             out: AskAnswer) -> tuple[bool, str]:
    """A ``fewest:`` of the game's first turns settled by the game model before any
    search (:func:`.optimum.climb`): the least, exact, a game the reference replays
    (True). Whatever it proved on the way is kept as the lower bound; where it did not
    settle the cell, what it tried, for the answer's ``tried:`` before the search's."""
    from mammamia_ref.queries.answering.optimum import climb

    climbed = climb(question, players, rules, out.lower, budget)
    if climbed is None:
        return False, ""
    if climbed.lower is not None and (out.lower is None or climbed.lower > out.lower):
        out.lower, out.lower_evidence = climbed.lower, climbed.lower_evidence
        out.bound_how = climbed.bound_how
    tried = "the game model, from the least up: " + "; ".join(climbed.tried) + \
        f" (a budget of {budget:.1f} s of CPU)"
    if climbed.game is not None and _model_value(question, climbed, out):
        out.exact = out.lower == out.value
        out.tried = tried
        if out.exact:
            return True, ""
    return False, f"{tried}; then "   # none found, or not the least: the search goes on


def _model_value(question: Question, moved: Any, out: AskAnswer) -> bool:
    """The game model's game (:class:`.optimum.Raised`) kept as the answer's witness and
    value if the reference replays it; else the answer is left as it was."""
    if _kept(question, moved.game, out, "value", f"{question.title}: {moved.value}"):
        out.value = moved.value
        return True
    return False


def _by_the_model(question: Question, players: int, rules: Rules, budget: float,
                  out: AskAnswer) -> None:
    """The game model raising a ``most:`` value (lowering a ``fewest:``) from the best
    game found: a game it finds counts once the reference replays it; a bound it
    proves counts where it is tighter than the one known."""
    from mammamia_ref.queries.answering.optimum import lower_value, raise_value

    most = question.goal == "most"
    # a ranking bound counts every turn a round could last: no first round the aim asks
    # about holds it (198 passes in a round at 2 players, against rounds of 4 to 10 turns)
    moved = raise_value(question, players, rules, out.value or 0, budget, upper=out.upper,
                        aimed=out.upper_evidence != "ranking") \
        if most else lower_value(question, players, rules, out.value or 0, budget,
                                 lower=out.lower) if out.value is not None else None
    if moved is None:   # nothing found to lower from
        return
    if moved.game is not None:   # unless the reference does not replay it, the search's
        _model_value(question, moved, out)   # game stands
    if most and moved.upper is not None and (out.upper is None or moved.upper < out.upper):
        out.upper, out.upper_evidence, out.bound_how = \
            moved.upper, moved.upper_evidence, moved.bound_how
    if not most and moved.lower is not None and (out.lower is None or moved.lower > out.lower):
        out.lower, out.lower_evidence, out.bound_how = \
            moved.lower, moved.lower_evidence, moved.bound_how
    out.tried += "; then " + "; ".join(moved.tried) if moved.tried else ""
    out.exact = (out.upper if most else out.lower) == out.value and out.value is not None


CLIMB_SHARE = 0.5
"""The part of a ``fewest:`` cell's budget the game model has first, where the measure
is settled on the game's first turns (:func:`.optimum.climb`)."""

KNOWN_SHARE = 0.2
"""The most of a cell's budget judging the known games may take (:mod:`.known_games`):
a measure read on every prefix of a long 5-player game takes seconds a game."""

OPTIMUM_SEARCH_SHARE = 0.5
"""The part of a ``most:`` cell's budget the directed search has before the game model
raises its value (:mod:`.optimum`), where the language states the measure as a
condition."""

UNENDING_SHARE = 0.4
"""The part of a ``most:`` cell's budget that looks for its measure growing without end
(:mod:`.unending`) where no upper bound is proved: the game model finds a position that
comes back in 3, 11, 16 and 42 s of CPU at 2 to 5 players under stall=letter (measured
2026-12-06, Q07's question)."""

REPEAT_SHARE = 0.5
"""The part of what a ``find:``'s search left that looks for a game meeting it by
playing again the actions between a position and its return (:mod:`.unending`)."""

SEARCH_SHARE = 0.3
"""The part of a ``find:`` cell's budget the search has before z3 takes the rest (all
of it when z3 cannot express the condition), where the game model does not go first."""

PROOF_SHARE = 0.7
"""The most of a ``find:`` cell's budget the unbounded proof may spend looking for an
invariant that bounds a count of events (the rest is the search's and z3's): a proof
that fails drops the bound asked within a few seconds (docs/questions.md), so most of
the budget goes where only a proof can say "none"."""

SPENDABLE = 0.97
"""The part of a cell's budget the search and z3 may spend: the rest is for writing the
game found as a scenario and replaying it (0.1 to 0.3 s), so that a cell keeps to it."""


def _find(question: Question, players: int, rules: Rules, budget: float,
          out: AskAnswer, known: bool = True) -> None:
    """A ``find:`` cell: the unbounded proof (:mod:`.unbounded`), the known games
    (:mod:`.known_games`), then the seeded search and the game model
    (:mod:`.bounded`), which alone may answer "none within the bound". The game model
    goes first with a ``turns`` bound (finite schedules: it settles the cell, a search
    never says none) and for a position that comes back (no seeded game shows one)."""
    from mammamia_ref.queries.answering.bounded import Bounded, prove_or_find
    from mammamia_ref.queries.answering.leads import lead
    from mammamia_ref.queries.answering.unbounded import prove_never
    from mammamia_ref.queries.answering.unending import found_by_repeating
    from mammamia_ref.queries.language.conditions import Unsupported, asks_a_return, written_out
    from mammamia_ref.queries.language.judging import kept_once_met

    condition = question.condition
    assert condition is not None
    start = time.process_time()
    try:
        written_out(condition, players, rules.parameters.rounds)
        expressible = True
    except Unsupported:
        expressible = False
    out.judged_on = judged_on(question.bound, rules, condition)
    never = prove_never(condition, players, rules, budget * PROOF_SHARE)
    if never.proved:
        out.answer, out.detail, out.evidence = "none in any game", never.how, never.evidence
        out.judged_on = "games of every length, every seating"
        out.tried = f"the unbounded proof: {len(never.cases)} cases, {never.cpu:.1f} s of CPU"
        return

    def left() -> float:
        return budget * SPENDABLE - (time.process_time() - start)

    # the search climbs on how near a game comes, where the condition tells it (its
    # shape alike in every seating)
    directed = directs(expand(condition, COLOURS[:players], rules.parameters.rounds))

    def judge(g: Played) -> float | None:   # a game that meets it, the only kind kept
        return float("inf") if meets(condition, g, question.bound) else None

    def near(g: Played) -> float | None:   # or, for the search, how near it came
        far = nearness(condition, g, question.bound) if directed else None
        # nearness is 0 just where the condition holds (tests/test_nearness.py): a
        # game further off is not judged again; one found, only as meets says
        if far in (None, 0) and meets(condition, g, question.bound):
            return float("inf")
        return None if far is None else -float(far)

    if known and _found_known(question, players, rules, judge, budget * KNOWN_SHARE, out,
                              never.how):
        return
    proof = never.how   # and what the question's sketches gave, where it has any
    sketches = sketches_for(question.sketches, players, rules)
    if sketches:
        from mammamia_ref.queries.answering.sketched import on_sketches

        sketched = on_sketches(condition, sketches, rules, left() * SKETCH_SHARE,
                               question.bound, judge)   # a game played on must meet it
        proof = f"{never.how}; {sketched.said()}"
        if sketched.found is not None and sketched.found.game is not None:
            _found(question, sketched.found.game, out)
            if out.answer == "found":
                out.tried = proof
                return
    bounded: Bounded | None = None
    returns = asks_a_return(condition)   # which no seeded game shows: z3 has it all
    solver_first = expressible and ("turns" in question.bound or returns)
    if solver_first:
        led = lead(condition, players, rules)   # counted in the cell's CPU
        bounded = prove_or_find(condition, players, rules, question.bound,
                                left() if returns else min(budget * SOLVER_SHARE, left()),
                                led)
        if bounded.verdict != "unknown" or returns:
            _settled(question, out, proof, "", bounded)
            return
    # the search's share, or half of what the proof left when it took much of the budget
    share = left() if solver_first or not expressible else \
        min(budget * SEARCH_SHARE, left() / 2)
    game, played, score, screened = search(question, players, rules, share, near,
                                           directed=directed, near_end=NEAR_END)
    if game is not None and score == float("inf"):   # a game the condition holds of
        _found(question, game, out)
        out.tried = proof   # what came before the search (found_by names its game)
        return
    searched = _searched(played, screened, rules, directed, game, score)
    if kept_once_met(condition) and not returns and left() > 0:
        repeated, how = found_by_repeating(question, players, rules,
                                           left() * REPEAT_SHARE, known)
        if repeated is not None:
            _found(question, repeated, out)
            out.tried = "; ".join(part for part in (proof, searched) if part) + \
                f"; then a position that comes back: {how}"
            return
        searched += f"; not by repeating: {how}"
    if bounded is None and expressible and left() > 0:
        led = lead(condition, players, rules)
        bounded = prove_or_find(condition, players, rules, question.bound, left(), led)
    _settled(question, out, proof, searched, bounded,
             "" if expressible else "the game model cannot state the condition")


def _searched(played: int, screened: int, rules: Rules, directed: bool,
              nearest: Played | None, score: float) -> str:
    """What a ``find:``'s search tried, where it found none: its seeded games; for a
    search directed by how near a game comes (:func:`..language.nearness.nearness`),
    the games on each engine (the reference's replayed and played on) and how near the
    nearest came, and how it was found."""
    policies = f"the {' and '.join(policies_on_fast(rules))} policies" if screened else \
        f"{', '.join(POLICIES)} policies"
    if not directed:
        fast = f"{screened} on the fast engine, " if screened else ""
        return f"{played} seeded games ({fast}{policies}): none"
    engines = f"{played} games on the reference" + \
        (f" and {screened} on the fast engine" if screened else "") + f" ({policies})"
    if nearest is None:
        return f"{engines}, seeded: none"
    return (f"{engines}, seeded, then played on from the nearest: none; the nearest came "
            f"within {int(-score)} of the condition ({nearest.found_by or 'seeded'})")


def _found_known(question: Question, players: int, rules: Rules, judge: Any, budget: float,
                 out: AskAnswer, proof: str) -> bool:
    """Whether a known game (:mod:`.known_games`) meets a ``find:`` cell's condition: it
    is then the answer, kept as any witness is (:func:`_keep`)."""
    from mammamia_ref.queries.answering.known_games import best_known

    game, _score, judged = best_known(players, rules, judge, budget)
    if game is None:
        return False
    _found(question, game, out)
    if out.answer != "found":
        return False
    out.tried = f"{proof}; {judged} known games: {game.found_by}"
    return True


SKETCH_SHARE = 0.7
"""The most of a cell's budget its sketches may take first (:mod:`.sketched`): a sketch
is the question's own lead, and z3 takes 17 to 56 s of CPU on Q21's at 2 to 5 players
(measured 2026-12-06)."""

SOLVER_SHARE = 0.6
"""The part of a ``find:`` cell's budget the game model has first, where the bound's
turns make its schedules finite."""


def _settled(question: Question, out: AskAnswer, proof: str, searched: str,
             bounded: Any, why_not: str = "") -> None:
    """The answer from the game model's route (and the search before or after it);
    ``why_not`` says why the game model was not asked, where it was not."""
    tried = "; ".join(part for part in (proof, searched) if part)
    if bounded is not None and bounded.game is not None:   # found
        _found(question, bounded.game, out)
        out.tried = f"{tried}; then {bounded.detail}"
    elif bounded is not None and bounded.verdict == "none":
        out.answer, out.detail = "none within the bound", bounded.detail
        out.tried = tried
    else:
        why = bounded.detail if bounded is not None else \
            why_not or "z3: the budget was spent before the game model could be asked"
        out.tried = f"{tried}; {why}"


def _found(question: Question, game: Played, out: AskAnswer) -> None:
    """A ``find:``'s answer "found": the game, judged once more by the question's own
    condition (whatever route found it and however it was judged there), kept as
    :func:`_keep` keeps a witness. A game the condition does not hold of is an internal
    error, never an answer."""
    from mammamia_ref.errors import InternalError

    assert question.condition is not None
    if not meets(question.condition, game, question.bound):
        raise InternalError(f"{question.id}: a game the condition does not hold of was "
                            f"about to be answered as found ({game.found_by or 'seeded'})")
    _keep(question, game, out, "found", question.title)
    out.condition_holds = True


def _keep(question: Question, game: Played, out: AskAnswer, verdict: str, title: str) -> None:
    """Write the game as a scenario and keep it only if the reference replays it."""
    from mammamia_ref.queries.answering.witness import reference_replay, witness_doc

    doc = witness_doc(question, game, title)
    passed, failure, _fired = reference_replay(doc, f"{doc['id']}.yaml")
    if question.condition is not None:
        out.first_held = first_held(question.condition, game)
    out.turned = next((step["note"] for step in doc["steps"] if "note" in step), "")
    colours, first = game.config.colours, game.config.first_player
    out.seated = colours[first:] + colours[:first]
    named = named_colours(question.condition or question.measure, owners=False)
    out.not_seated = tuple(c for c in COLOURS if c in named and c not in colours)
    out.scenario, out.witness_file = doc, f"scenarios/ask/{doc['id']}.yaml"
    out.found_by = game.found_by or f"the {game.policy} policy, seed {game.seed}"
    out.reference = "agrees" if passed else "disagrees"
    out.answer = verdict if passed else "unknown"
    out.detail = f"{len(game.steps)} actions; " + (failure or "replayed, every step legal")


KEPT = ("scenario", "witness_file", "reference", "detail", "answer", "found_by", "turned",
        "first_held", "seated", "not_seated")
"""The fields of an answer :func:`_keep` sets."""


def _kept(question: Question, game: Played, out: AskAnswer, verdict: str, title: str
          ) -> bool:
    """:func:`_keep` where the reference replays the game; else ``out`` is left as it
    was (a game it does not replay is no witness, and must not stand for the one
    before)."""
    held = {name: getattr(out, name) for name in KEPT}
    _keep(question, game, out, verdict, title)
    if out.reference == "agrees":
        return True
    for name, value in held.items():
        setattr(out, name, value)
    return False


def first_held(condition: Mapping[str, Any], game: Played) -> str:
    """Where in ``game`` a condition kept once met first held: the turn, its round and
    the seat to play (:func:`..language.measures.measure`'s ``turns_until``); a condition judged on
    whole games holds on the whole game."""
    from mammamia_ref.queries.language.judging import kept_once_met

    turns = [(e.get("seat"), e.get("round")) for _a, events, _s in game.steps
             for e in events if e.name == "turn_begins"]
    if not kept_once_met(condition):
        return f"held on the whole game ({len(turns)} turns)"
    k = measure({"turns_until": condition}, game)
    if k is None or k > len(turns):
        return ""
    seat, round_ = turns[k - 1]
    return (f"first held in turn {k} of {len(turns)} (round {round_}, "
            f"{game.config.colours[seat]} to play)")


def replay_witness(doc: Mapping[str, Any]) -> Played:
    """A witness scenario's first run played again on the reference, every state kept."""
    from mammamia_ref.queries.answering.known_games import played_runs
    from mammamia_ref.queries.answering.witness import parsed_witness

    return played_runs(parsed_witness(doc, f"{doc['id']}.yaml"))[0][1]


def ask(questions: Sequence[Question], budget: float,
        house: HouseRule | None = None, stop: threading.Event | None = None,
        known: bool = True) -> list[AskAnswer]:
    """Every cell of every question; with ``house``, each asked under that house rule
    instead of its own (``ask --house``); without ``known``, the known games left out
    (``ask --without-known-games``)."""
    return list(answers(questions, budget, house, stop, known))


def answers(questions: Sequence[Question], budget: float, house: HouseRule | None = None,
            stop: threading.Event | None = None, known: bool = True
            ) -> Iterator[AskAnswer]:
    """:func:`ask`'s answers, each as its cell is done. Once ``stop`` is set (Ctrl-C or
    SIGTERM, :func:`.interrupt.z3_interruptible`), KeyboardInterrupt: the answer of a
    cancelled check is not trusted, and no further cell starts."""
    from mammamia_ref.queries.answering.cancel import trusted

    for question in questions:
        asked = question.with_house(house)
        for n, v in asked.cells():
            yield trusted(stop, functools.partial(answer_cell, asked, n, v, budget,
                                                  known=known))


__all__ = [
    "SEARCH_SHARE",
    "AskAnswer",
    "answer_cell",
    "answers",
    "ask",
    "lower_bound",
    "replay_witness",
    "upper_bound",
]
