"""Work that a signal may cancel (:mod:`.interrupt`): its result is trusted only if no
stop was asked for meanwhile. Imports nothing of the package, so that ``ask`` and the
catalogue's runner can both use it without a cycle."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def trusted(stop: threading.Event | None, work: Callable[[], T]) -> T:
    """``work()``, unless ``stop`` was set meanwhile: then KeyboardInterrupt, whether the
    work failed or not (a cancelled z3 check says "unknown", never a truth)."""
    try:
        result = work()
    except Exception:
        if stop is not None and stop.is_set():
            raise KeyboardInterrupt from None
        raise
    if stop is not None and stop.is_set():
        raise KeyboardInterrupt
    return result


__all__ = ["trusted"]
