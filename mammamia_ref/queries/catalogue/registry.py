"""The registry of query implementations: each module of :mod:`..catalogue` registers
its query's function under the query's ID (``spec/queries.yaml``), so a new query is one
new module and nothing else to edit; a query the question language states has no module
at all (``method: question``: its question file, :mod:`.by_question`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from mammamia_ref.queries.catalogue.results import Verdict

Implementation = Callable[[Mapping[str, Any], Mapping[str, Any]], Verdict]

IMPLEMENTATIONS: dict[str, Implementation] = {}


def register(query_id: str) -> Callable[[Implementation], Implementation]:
    """A decorator: the function answers the query ``query_id`` (one per ID)."""
    def add(implementation: Implementation) -> Implementation:
        if query_id in IMPLEMENTATIONS:
            raise ValueError(f"query {query_id} is registered twice")
        IMPLEMENTATIONS[query_id] = implementation
        return implementation
    return add


def takes_parameters(query: Mapping[str, Any]) -> bool:
    """Whether ``query`` answers under numbers of the rules other than the spec's
    (``house_numbers: true`` in its catalogue entry): the others' answers rest on the
    spec's numbers (a witness plan, a committed game) and are refused under others."""
    return bool(query.get("house_numbers"))


BY_METHOD: dict[str, Implementation] = {}
"""The implementations of a whole method rather than of one query (``method: question``:
:mod:`.by_question`)."""


def register_method(method: str) -> Callable[[Implementation], Implementation]:
    """A decorator: the function answers every query whose ``method`` is ``method``."""
    def add(implementation: Implementation) -> Implementation:
        BY_METHOD[method] = implementation
        return implementation
    return add


def implementation_of(query: Mapping[str, Any]) -> Implementation | None:
    """How ``query`` is answered: by its method's implementation (``method: question``,
    its question file) or by its registered module (``None``: neither)."""
    modules = implementations()
    return BY_METHOD.get(query.get("method", ""), modules.get(query["id"]))


def implementations() -> Mapping[str, Implementation]:
    """Every registered implementation, the catalogue's modules loaded first."""
    import mammamia_ref.queries.catalogue  # noqa: F401  (each module registers itself)

    return IMPLEMENTATIONS
