"""The reference and a port driven through the same actions, compared at every step;
the first disagreement is raised as :class:`Divergence` with the rules it involves."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any, Protocol

from mammamia_ref.errors import IllegalActionError
from mammamia_ref.formats.jsonform import format_state
from mammamia_ref.kit.compare import comparable_event, comparable_state, differences, short
from mammamia_ref.kit.diagnose import (
    information_rules,
    pending_in_words,
    pending_rule,
    ranked_rules,
    state_report,
)
from mammamia_ref.kit.terms import OutOfTerms, terms_of
from mammamia_ref.rules.actions import Action, Play, format_action
from mammamia_ref.rules.events import format_event
from mammamia_ref.rules.game import (
    apply,
    check_seat,
    decision_rule,
    is_chance,
    is_over,
    legal_actions,
)
from mammamia_ref.rules.observation import observation
from mammamia_ref.rules.state import GameState
from mammamia_ref.sim.perft import action_key


class Divergence(Exception):
    """The implementation and the reference disagree (or the port breaks a scenario's
    own expectation); ``rules`` are the reference's, ``theirs`` the port's labels."""

    def __init__(self, step: int | None, message: str, rules: Iterable[str] = (),
                 theirs: Iterable[Any] = (), problems: Iterable[str] = ()) -> None:
        super().__init__(message)
        self.step = step
        self.rules = tuple(rules)
        self.theirs = tuple(r for r in theirs if isinstance(r, str) and r)
        self.problems = list(problems)   # a state difference: one line per field


class Connection(Protocol):
    """What the cases need of an implementation: its hello and its requests (``work``:
    the nodes the reference visits to answer a counting request, which grows the time
    the implementation is allowed, :func:`mammamia_ref.kit.client.allowance`)."""

    info: dict[str, Any]

    def request(self, op: str, *, timeout: float | None = None, work: int = 0,
                **fields: Any) -> dict[str, Any]: ...


class Lockstep:
    """The reference and the implementation driven through the same actions."""

    def __init__(self, impl: Connection, state: GameState) -> None:
        self.impl = impl
        self.state = state
        self.terms = terms_of(impl.info)
        self.events_feature = "events" in self.terms.features
        self.last_state: dict[str, Any] | None = None    # the port's, as last answered
        self.last_events: list[Any] | None = None
        self.last_legal: list[Any] | None = None
        self.last_observations: dict[str | None, dict[str, Any]] = {}

    def compare_state(self, answer: dict[str, Any], step: int | None, rules: Iterable[str],
                      what: str, *, fresh: bool = False) -> None:
        """The port's state against the reference's (``fresh``: a new game's, whose
        differences are named by the setup rules)."""
        expected = comparable_state(self.terms.state(format_state(self.state, result=True)))
        actual = answer.get("state")
        self.last_state = actual if isinstance(actual, dict) else None
        if not isinstance(actual, dict):
            raise Divergence(step, f"{what}: the state differs from the reference in 1 "
                             "field:\n  state/: the answer holds no state", rules)
        problems = differences(comparable_state(actual), expected)
        if problems:
            report = state_report(self.state, actual, expected, problems)
            raise Divergence(step, f"{what}: the state differs from the reference in "
                             f"{len(problems)} field{'s' if len(problems) > 1 else ''}:\n"
                             + "\n".join(f"  {line}" for line in report),
                             ranked_rules(self.state, actual, problems, rules, fresh=fresh),
                             problems=problems)

    def compare_legal(self, step: int | None) -> None:
        self.last_legal = None
        if is_chance(self.state) or is_over(self.state):
            return
        answer = self.impl.request("legal_actions")
        actual_raw = answer.get("actions")
        if not isinstance(actual_raw, list):
            raise Divergence(step, "legal_actions: the answer holds no list of actions")
        self.last_legal = actual_raw
        actual = {action_key(a) for a in actual_raw if isinstance(a, dict)}
        expected = {action_key(format_action(a)) for a in legal_actions(self.state)}
        if actual != expected:
            lines = [f"  legal but not in the reference: {a}" for a in sorted(actual - expected)]
            lines += [f"  missing (legal in the reference): {a}"
                      for a in sorted(expected - actual)]
            raise Divergence(step, f"legal actions differ where {pending_in_words(self.state)}:"
                             "\n" + "\n".join(lines[:20]), [decision_rule(self.state)])

    def compare_observations(self, players: Iterable[str | None], step: int | None) -> None:
        """Feature ``observation``: each named seat's view (None: a spectator's) must be
        the reference's, key for key."""
        for colour in players:
            if colour is not None and colour not in self.state.config.colours:
                continue  # the scenario itself fails on a colour no seat has
            seat = None if colour is None else self.state.seat_of(colour)
            answer = self.impl.request("observation", player=seat)
            expected = self.terms.observation(observation(self.state, seat).to_json())
            actual = answer.get("observation")
            if isinstance(actual, dict):
                self.last_observations[colour] = actual
            problems = differences(actual, expected) if isinstance(actual, dict) else \
                ["/: the answer holds no observation"]
            if problems:
                who = "a spectator" if seat is None else colour
                raise Divergence(step, f"the observation of {who} differs from the "
                                 "reference:\n" + "\n".join(f"  observation{p}"
                                                               for p in problems[:12]),
                                 information_rules(problems, self.state))

    def step(self, action: Action, index: int | None, by: str | None = None) -> tuple[str, ...]:
        """Apply ``action`` on both sides (attempted by the colour ``by``, if named);
        raise Divergence on any disagreement. Returns the rules of the reference's events
        (or of its rejection)."""
        seat = None if by is None else self.state.seat_of(by)
        answer = self.impl.request("apply", action=format_action(action),
                                   **({} if seat is None else {"player": seat}))
        self.last_events = None
        try:
            if seat is not None:
                check_seat(self.state, seat)
            after, events = apply(self.state, action)
        except IllegalActionError as exc:
            if second_play(self.state, action) and (why := self.terms.lacks("second_play")):
                raise OutOfTerms(why) from None  # the rule it was refused under moved
            rejected = answer.get("rejected")
            if not isinstance(rejected, dict):
                raise Divergence(index, f"{_show(action)} was accepted; the reference rejects "
                                 f"it under {exc.rule}", [exc.rule]) from None
            if rejected.get("rule") != exc.rule:
                raise Divergence(index, f"{_show(action)} was rejected under "
                                 f"{rejected.get('rule')!r}; the reference rejects it under "
                                 f"{exc.rule}", [exc.rule], [rejected.get("rule")]) from None
            return (exc.rule,)
        rules = tuple(dict.fromkeys(e.rule for e in events))
        if isinstance(answer.get("rejected"), dict):
            theirs = answer["rejected"].get("rule")
            raise Divergence(index, f"{_show(action)} was rejected under {theirs!r}; the "
                             "reference accepts it", rules or [decision_rule(self.state)],
                             [theirs])
        before, self.state = self.state, after
        expected = [format_event(e) for e in events]
        if isinstance(answer.get("events"), list):
            self.last_events = answer["events"]
        if self.events_feature:
            self._compare_events(action, index, before, expected, answer.get("events"), rules)
        try:
            self.compare_state(answer, index, rules, f"after {_show(action)}")
        except Divergence as exc:
            exc.rules = ranked_rules(after, self.last_state or {}, exc.problems, rules,
                                     expected)
            raise
        return rules

    def _compare_events(self, action: Action, index: int | None, before: GameState,
                        expected: list[dict[str, Any]], raw: Any,
                        rules: tuple[str, ...]) -> None:
        """Events match field for field, free text aside; the first difference is shown,
        and where the reference's list ends, what it then waits for."""
        actual = raw if isinstance(raw, list) else []
        ours = [comparable_event(e) for e in expected]
        theirs = [comparable_event(e) for e in actual]
        if ours == theirs:
            return
        first = next(i for i in range(max(len(ours), len(theirs)))
                     if i >= len(ours) or i >= len(theirs) or ours[i] != theirs[i])
        if first >= len(ours):
            what = (f"the reference's events end here: it stops, and "
                    f"{pending_in_words(self.state)}; the port goes on with "
                    f"{short(theirs[first:first + 3])}")
        elif first >= len(theirs):
            what = (f"the port's events end here; the reference goes on with "
                    f"{short(ours[first:first + 3])}")
        else:
            fields = differences(theirs[first], ours[first])
            what = (f"event {first} ({ours[first].get('event')}): "
                    + "; ".join(f"{f.lstrip('/')}" for f in fields[:6]))
        our_rule = [e["rule"] for e in expected[first:first + 1]] or [pending_rule(self.state)]
        their_rule = [e.get("rule") for e in actual[first:first + 1] if isinstance(e, dict)]
        raise Divergence(index, f"after {_show(action)} the events differ from event "
                         f"{first} on: {what}", [*our_rule, *rules], their_rule)


def _show(action: Action) -> str:
    return json.dumps(format_action(action), separators=(",", ":"))


def second_play(state: GameState, action: Action) -> bool:
    """A play attempted after the turn's play (refused under ``turn.play`` from protocol
    /2 on, under the pending step's rule before)."""
    return isinstance(action, Play) and state.phase == "turn" and state.played > 0


def start_game(impl: Connection, state: GameState, *, from_setup: bool) -> dict[str, Any]:
    """Put the implementation in ``state``: by ``new_game`` or by ``load_state``, in the
    port's terms (a flag it does not know is not sent)."""
    terms = terms_of(impl.info)
    if from_setup:
        config = state.config
        numbers = config.rules.non_default_parameters()  # sent only when there are any
        extra: dict[str, Any] = {"parameters": numbers} if numbers else {}
        return impl.request("new_game", players=config.players, colours=list(config.colours),
                            first_player=config.first_player,
                            variants=terms.variants(config.rules.as_dict()), **extra)
    return impl.request("load_state", state=terms.state(format_state(state)))
