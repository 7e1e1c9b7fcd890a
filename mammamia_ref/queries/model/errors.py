"""The errors of the z3 queries: bad input to a query or a model, each carrying it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mammamia_ref.errors import MammamiaError


class UnknownQueryError(MammamiaError):
    """Query IDs that ``spec/queries.yaml`` does not hold."""

    def __init__(self, ids: Sequence[str]) -> None:
        super().__init__(f"no query {', '.join(ids)}")
        self.ids = tuple(ids)


class ModelBoundError(MammamiaError):
    """A z3 model asked for an unrolling it cannot make (a schedule of no rounds or of
    more than three, a model checker bound below one turn)."""

    def __init__(self, message: str, *, value: Any) -> None:
        super().__init__(f"{message}, not {value!r}")
        self.value = value
