"""The registry of query implementations: each module of :mod:`.catalogue` registers
its query's function under the query's ID (``spec/queries.yaml``), so a new query is one
new module and nothing else to edit."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from mammamia_ref.queries.results import Verdict

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


def implementations() -> Mapping[str, Implementation]:
    """Every registered implementation, the catalogue's modules loaded first."""
    import mammamia_ref.queries.catalogue  # noqa: F401  (each module registers itself)

    return IMPLEMENTATIONS
