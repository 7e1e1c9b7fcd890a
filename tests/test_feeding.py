"""A table that plays for one seat (:mod:`mammamia_ref.sim.feeding`): legal, seeded
games in which only the fed seat places orders and the others play what its orders
lack; ``ask``'s search plays it for a question that measures one seat's part."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest

from mammamia_ref.rules.actions import Draw, PlaceOrder, Play
from mammamia_ref.rules.ruleset import make_rules
from mammamia_ref.rules.state import make_config, variant_defaults, variant_values
from mammamia_ref.rules.vocabulary import KIND_INDEX
from mammamia_ref.sim.feeding import FeedingPolicy, lacking
from mammamia_ref.sim.play import play_game
from mammamia_ref.sim.policies import UnknownPolicyError, get_policy

SHIPPED = Path(__file__).resolve().parents[1] / "spec" / "questions"


@pytest.mark.parametrize("name", ["feed:pink:careful", "feed:red", "feed:red:search",
                                  "feed:red:careful:x", "feed::"])
def test_a_malformed_table_is_refused_with_what_it_should_be(name: str) -> None:
    with pytest.raises(UnknownPolicyError, match="feed:COLOUR:POLICY") as caught:
        get_policy(name)
    assert isinstance(caught.value, ValueError)


@pytest.mark.parametrize("inner", ["random", "simple", "careful"])
def test_only_the_fed_seat_places_orders_and_the_others_feed_it(inner: str) -> None:
    """Under every flag value alone, at 2 to 5 players: every action legal, the game
    finished, no order placed by a seat not fed; a card the others play is of a kind
    the fed seat's orders still lack wherever one such kind could be played; the others
    draw from their waiters while they hold a card of each kind it lacks."""
    defaults = variant_defaults()
    cells = [{}] + [{flag: value} for flag, values in variant_values().items()
                    for value in values if value != defaults[flag]]
    placed, fed_plays, draws = Counter(), 0, Counter()
    for i, variants in enumerate(cells):
        players = 2 + i % 4
        config = make_config(players, variants=variants)
        fed = config.colours[i % players]
        policy = get_policy(f"feed:{fed}:{inner}")
        assert isinstance(policy, FeedingPolicy)

        def checked(state, legal, rng, policy=policy, fed=fed, config=config):   # type: ignore[no-untyped-def]
            nonlocal fed_plays
            action = policy(state, legal, rng)
            assert action in legal
            seat = state.current
            if isinstance(action, PlaceOrder):
                placed[state.colour(seat) == fed] += 1
            if isinstance(action, Play) and state.colour(seat) != fed:
                lack = lacking(state, config.colours.index(fed))
                if any(lack[KIND_INDEX[a.kind]] > 0 for a in legal if isinstance(a, Play)):
                    assert lack[KIND_INDEX[action.kind]] > 0, (action, lack)
                    fed_plays += 1
            if isinstance(action, Draw) and state.colour(seat) != fed and \
                    Draw("waiter") in legal:
                lack = lacking(state, config.colours.index(fed))
                hand = state.hands[seat].ingredients
                wanting = any(n > 0 and h == 0 for n, h in zip(lack, hand, strict=True))
                assert action.source == "waiter" or wanting, (action, lack, hand)
                draws[action.source] += 1
            return action

        record = play_game(config, i, [checked] * players)
        assert record.final.phase == "over" or record.stalled, variants
    assert placed[True] > 0 and placed[False] == 0, placed
    assert fed_plays > 0 and draws["waiter"] > 0 and draws["supply"] > 0, (fed_plays, draws)


def test_the_same_seed_gives_the_same_table() -> None:
    policy = get_policy("feed:yellow:careful")
    games = [play_game(make_config(3), 7, [policy] * 3) for _ in range(2)]
    assert [a for a, _ in games[0].steps] == [a for a, _ in games[1].steps]


def test_a_fed_seat_delivers_more_at_one_opening_than_careful_players() -> None:
    """What the table is for: at 3 players, over the same 40 seeds, the most orders one
    seat delivers at one opening (Q23's measure) is higher on average, and 6 or more
    comes more than three times as often, with the others feeding red than with every
    seat careful."""
    pytest.importorskip("z3")
    from mammamia_ref.queries.answering.searching import playout
    from mammamia_ref.queries.language.measures import measure
    from mammamia_ref.queries.language.questions import load_question

    question = load_question(SHIPPED / "Q23-most-orders-one-opening.yaml")
    config = make_config(3, variants=make_rules())
    got = {name: [measure(question.measure, playout(config, seed, name), "most") or 0
                  for seed in range(40)]
           for name in ("careful", "feed:red:careful")}
    assert sum(got["feed:red:careful"]) > 1.2 * sum(got["careful"]), got
    six = {name: sum(v >= 6 for v in values) for name, values in got.items()}
    assert six["feed:red:careful"] > 3 * six["careful"], six


def test_the_search_feeds_a_seat_only_where_the_question_measures_one() -> None:
    pytest.importorskip("z3")
    from mammamia_ref.queries.answering.searching import POLICIES, policies_for
    from mammamia_ref.queries.language.questions import load_question

    config = make_config(3, variants=make_rules())
    for name in ("Q21-fewest-turns-all-orders", "Q23-most-orders-one-opening"):
        question = load_question(SHIPPED / f"{name}.yaml")
        assert policies_for(question, config) == ("feed:red:careful", *POLICIES), name
    bombastica = load_question(SHIPPED / "Q22-bombastica-most-cards.yaml")
    assert policies_for(bombastica, config) == ("feed:red:random", *POLICIES)
    for name in ("Q05-most-pizzas-one-opening", "Q18-all-players-tied"):
        assert policies_for(load_question(SHIPPED / f"{name}.yaml"), config) == POLICIES


def test_a_table_the_fast_engine_cannot_play_is_played_on_the_reference(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The largest Bombastica is judged on events, so its seeded games are played on the
    fast engine, which has no feeding table: the table's games are played on the
    reference, after the fast engine's, and judged alike. The search is cut by a count
    of games (20; the fast engine's ten times as many), not by CPU (its budget, 30 s, is
    never reached), so a loaded or a fast machine plays the same games."""
    pytest.importorskip("z3")
    from mammamia_ref.queries.answering import searching
    from mammamia_ref.queries.language.measures import measure
    from mammamia_ref.queries.language.questions import load_question

    question = replace(load_question(SHIPPED / "Q22-bombastica-most-cards.yaml"),
                       bound={"games": 20})
    played: list[str] = []
    real = searching.playout

    def recorded(config, seed, policy, **kwargs):   # type: ignore[no-untyped-def]
        played.append(policy)
        return real(config, seed, policy, **kwargs)

    monkeypatch.setattr(searching, "playout", recorded)
    best, _n, score, screened = searching.search(
        question, 3, make_rules(), 30.0,
        lambda g: measure("bombastica_cards", g, "most"), directed=True)
    assert screened > 0 and "feed:red:random" in played, (screened, set(played))
    assert best is not None and score == measure("bombastica_cards", best, "most")


def test_a_fed_table_plays_its_seeds_several_to_each_one_of_the_others() -> None:
    """The seeded games' order (:func:`..searching.seeded`): every seed of each policy
    once, a feeding table's seeds :data:`..searching.FEED_SEEDS` at a time, so that each
    game is named by its policy and seed and replays."""
    pytest.importorskip("z3")
    from itertools import islice

    from mammamia_ref.queries.answering.searching import FEED_SEEDS, seeded

    tables = ("feed:red:careful", "random", "careful")
    fed = [(seed, "feed:red:careful") for seed in range(2 * FEED_SEEDS)]
    assert list(islice(seeded(tables, 100), 2 * FEED_SEEDS + 4)) == \
        [*fed[:FEED_SEEDS], (0, "random"), (0, "careful"),
         *fed[FEED_SEEDS:], (1, "random"), (1, "careful")]
    assert list(seeded(("random", "simple"), 2)) == [(0, "random"), (0, "simple"),
                                                     (1, "random"), (1, "simple")]


@pytest.mark.parametrize("name", ["delivered", "bombastica_cards"])
def test_the_search_counts_every_game_the_reference_plays(
        name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The games a search reports played on the reference are every reference game it
    played: the fast screen's replays, the seeded games (a feeding table's among them)
    and the climb's, whichever path the measure takes (cut by a count of games)."""
    pytest.importorskip("z3")

    from mammamia_ref.queries.answering import searching
    from mammamia_ref.queries.language.measures import measure
    from mammamia_ref.queries.language.questions import load_question

    question = replace(load_question(SHIPPED / "Q22-bombastica-most-cards.yaml"),
                       measure=name, bound={"games": 20})
    calls = Counter()
    real = searching.playout

    def counted(config, seed, policy, **kwargs):   # type: ignore[no-untyped-def]
        calls[policy] += 1
        return real(config, seed, policy, **kwargs)

    monkeypatch.setattr(searching, "playout", counted)
    _best, played, _score, _screened = searching.search(
        question, 3, make_rules(), 30.0, lambda g: measure(name, g, "most"), directed=True)
    assert played == sum(calls.values()) > 0, (played, calls)
