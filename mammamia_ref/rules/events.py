"""Events: what a transition did, each naming the rule ID that decided it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Event:
    """``name`` says what happened, ``rule`` which rule made it happen, ``data`` the details
    (JSON values only, so that an event formats to JSON exactly)."""

    name: str
    rule: str
    data: tuple[tuple[str, Any], ...] = ()

    def get(self, key: str, default: Any = None) -> Any:
        return dict(self.data).get(key, default)


def event(name: str, rule: str, **data: Any) -> Event:
    return Event(name, rule, tuple(data.items()))


def format_event(item: Event) -> dict[str, Any]:
    return {"event": item.name, "rule": item.rule, **dict(item.data)}
