"""Ctrl-C during z3 work: stop soon, cleanly, and never trust a cancelled answer.

``mammamia verify``, ``mammamia query run`` and ``mammamia bench`` answer queries under
:func:`z3_interruptible`; :func:`answer_interruptibly` answers one query of the
catalogue and turns a cancelled check into KeyboardInterrupt.
"""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Any


def answer_interruptibly(query_id: str, stop: threading.Event | None,
                         **options: Any) -> list[Any]:
    """``run_catalogue([query_id], **options)``, or KeyboardInterrupt once ``stop`` (from
    :func:`z3_interruptible`) is set: the answers of cancelled checks are not trusted."""
    from mammamia_ref.queries import (
        run_catalogue,  # looked up in the package, where a test may wrap it
    )

    try:
        results = run_catalogue([query_id], **options)
    except Exception:
        if stop is not None and stop.is_set():
            raise KeyboardInterrupt from None
        raise
    if stop is not None and stop.is_set():
        raise KeyboardInterrupt
    return results


@contextmanager
def z3_interruptible() -> Iterator[threading.Event]:
    """Let Ctrl-C stop z3 work soon and cleanly. z3 takes SIGINT for itself during a
    check and merely answers "unknown"; and a KeyboardInterrupt raised at an arbitrary
    point inside z3's Python layer is lost in a finalizer or turned into another error.
    So here z3 leaves SIGINT to Python, whose handler only sets the event yielded; a
    thread woken by the signal (through the wakeup fd) then cancels every z3 check, in
    every context :mod:`.num` made, until the caller, at a safe point, sees the event
    and raises KeyboardInterrupt. A second Ctrl-C raises at once."""
    import z3

    from mammamia_ref.queries import num as N

    stop, done = threading.Event(), threading.Event()
    if threading.current_thread() is not threading.main_thread() or \
            signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        yield stop  # signals reach only the main thread; an ignored Ctrl-C stays ignored
        return

    def on_sigint(signum: int, frame: FrameType | None) -> None:
        if stop.is_set():
            raise KeyboardInterrupt
        stop.set()

    def watch() -> None:
        while (byte := os.read(read, 1)) and not done.is_set():
            while byte[0] == signal.SIGINT and not done.is_set():
                N.interrupt_all()
                done.wait(0.01)

    read, write = os.pipe()
    os.set_blocking(write, False)
    watcher = threading.Thread(target=watch, name="z3-interrupt", daemon=True)
    watcher.start()
    previous_fd = signal.set_wakeup_fd(write)
    previous_ctrl_c = z3.get_param("ctrl_c")
    z3.set_param("ctrl_c", False)
    signal.signal(signal.SIGINT, on_sigint)
    try:
        yield stop
    finally:
        signal.signal(signal.SIGINT, signal.default_int_handler)
        z3.set_param("ctrl_c", previous_ctrl_c)
        signal.set_wakeup_fd(previous_fd)
        done.set()
        os.close(write)
        watcher.join(timeout=5)
        os.close(read)
