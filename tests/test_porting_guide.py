"""Every example of the porting guide's normative subsection "What a port needs besides
the rules" (docs/porting.md, section 5) is accepted by the kit as printed: a request the
kit sends and the reference serves, the reference's own setup events, a state it loads,
a hello it accepts (and whose rulings decide what runs)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from mammamia_ref.formats.jsonform import parse_state, schema_errors
from mammamia_ref.kit import PROTOCOL
from mammamia_ref.kit.lockstep import start_game
from mammamia_ref.kit.protocol import ReferenceSession
from mammamia_ref.kit.terms import supports
from mammamia_ref.kit.versions import current
from mammamia_ref.rules.actions import Shuffle
from mammamia_ref.rules.chance import ChanceSource
from mammamia_ref.rules.events import format_event
from mammamia_ref.rules.game import apply, chance_pile, is_chance, new_game
from mammamia_ref.rules.state import make_config, variant_defaults

ROOT = Path(__file__).resolve().parent.parent
GUIDE = ROOT / "docs" / "porting.md"
HEADING = "### What a port needs besides the rules"


def examples() -> dict[str, Any]:
    """The subsection's examples by their marker (``<!-- kit-example: KIND -->`` right
    before each fenced JSON block); a JSON block without a marker is refused."""
    text = GUIDE.read_text(encoding="utf-8")
    section = text.split(HEADING, 1)[1].split("\n## ", 1)[0]
    found: dict[str, Any] = {}
    for match in re.finditer(r"(<!-- kit-example: ([a-z-]+) -->\n)?```json\n(.*?)\n```",
                             section, flags=re.DOTALL):
        assert match.group(2), f"a JSON example without a kit-example marker: " \
            f"{match.group(3)[:80]}"
        assert match.group(2) not in found, match.group(2)
        found[match.group(2)] = json.loads(match.group(3))
    return found


class Recorder:
    """A port that records what the kit sends and answers as the reference."""

    def __init__(self) -> None:
        self.session = ReferenceSession()
        self.info = self.session.op_hello({"protocol": PROTOCOL})
        self.sent: list[dict[str, Any]] = []

    def request(self, op: str, **fields: Any) -> dict[str, Any]:
        self.sent.append({"op": op, **fields})
        return self.session.handle({"op": op, **fields})


def _valid(doc: Any, definition: str) -> list[str]:
    from mammamia_ref.formats.jsonform import _validator

    checker = _validator(current().schema)
    return [e.message for e in checker.evolve(
        schema={"$ref": f"{current().schema}#/$defs/{definition}"}).iter_errors(doc)]


def test_the_subsection_holds_every_kind_of_example() -> None:
    assert set(examples()) == {"new-game-request", "setup-events", "given-state",
                               "hello-answer"}


def test_the_new_game_request_is_what_the_kit_sends_and_the_reference_serves() -> None:
    request = examples()["new-game-request"]
    assert _valid(request, "request") == []
    port = Recorder()
    start_game(port, new_game(make_config(3)), from_setup=True)
    [sent] = port.sent
    assert {k: v for k, v in request.items() if k != "id"} == sent
    answer = ReferenceSession().handle(request)
    assert answer["state"]["phase"] == "shuffle" and answer["state"]["step"] == "ingredients"


def test_the_setup_events_are_the_references() -> None:
    state = new_game(make_config(3))
    chance, seen = ChanceSource(0), {}
    while is_chance(state):
        pile = state.step
        state, events = apply(state, chance.shuffle(state))
        seen[pile] = [{"event": e["event"], "rule": e["rule"]} for e in map(format_event, events)]
    assert examples()["setup-events"] == seen


@pytest.mark.parametrize("first_player", [0, 1, 2])
def test_the_deal_goes_one_card_at_a_time_from_the_first_player(first_player: int) -> None:
    state = new_game(make_config(3, first_player=first_player))
    pile, cards = chance_pile(state)
    order = tuple(sorted(cards))  # all salami first, then pineapple, ...
    dealt, _ = apply(state, Shuffle(pile, order))
    for seat in range(3):
        expected = [order[k] for k in range(18) if (first_player + k) % 3 == seat]
        counts = dict(zip(("salami", "pineapple", "mushroom", "pepper", "olive"),
                          dealt.hands[seat].ingredients, strict=True))
        assert counts == {kind: expected.count(kind) for kind in counts}, seat


def test_the_given_state_with_a_used_pile_is_loaded() -> None:
    doc = examples()["given-state"]
    assert schema_errors(doc, "state.schema.json") == []
    assert sum(doc["used"].values()) > 0 and doc["phase"] == "turn"
    state = parse_state(doc)
    session = ReferenceSession()
    assert session.handle({"op": "load_state", "state": doc})["state"]["used"] == doc["used"]
    assert session.handle({"op": "legal_actions"})["actions"]
    assert state.current == 1


def test_the_hello_of_a_port_without_the_stall_rule_decides_what_runs() -> None:
    info = examples()["hello-answer"]
    assert _valid(info, "answer") == []
    assert info["protocol"] == PROTOCOL
    defaults = variant_defaults()
    assert supports(info, defaults) == ("needs bombastica_hand=allowed: your implementation "
                                        "offers bombastica_hand=forbidden only")
    assert supports(info, {**defaults, "bombastica_hand": "forbidden"}) == \
        "needs stall=cut: your implementation offers stall=letter only"
    assert supports(info, {**defaults, "bombastica_hand": "forbidden", "stall": "letter"}) \
        is None
