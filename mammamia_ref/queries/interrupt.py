"""Ctrl-C during z3 work: stop soon, cleanly, and never trust a cancelled answer.

``mammamia verify``, ``mammamia query run``, ``mammamia ask`` and ``mammamia bench``
answer queries under :func:`z3_interruptible`; :func:`answer_interruptibly` answers one
query of the catalogue and turns a cancelled check into KeyboardInterrupt.
"""

from __future__ import annotations

import _thread
import os
import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from types import FrameType
from typing import Any


def answer_interruptibly(query_id: str, stop: threading.Event | None,
                         **options: Any) -> list[Any]:
    """``run_catalogue([query_id], **options)``, or KeyboardInterrupt once ``stop`` (from
    :func:`z3_interruptible`) is set: the answers of cancelled checks are not trusted."""
    from mammamia_ref.queries import (
        run_catalogue,  # looked up in the package, where a test may wrap it
    )
    from mammamia_ref.queries.cancel import trusted

    return trusted(stop, lambda: run_catalogue([query_id], **options))


@contextmanager
def z3_interruptible(at_once: bool = False) -> Iterator[threading.Event]:
    """Let Ctrl-C stop z3 work soon and cleanly. z3 takes SIGINT for itself during a
    check and merely answers "unknown"; and a KeyboardInterrupt raised at an arbitrary
    point inside z3's Python layer is lost in a finalizer or turned into another error.
    So here z3 leaves SIGINT to Python, whose handler only sets the event yielded; a
    thread woken by the signal (through the wakeup fd) then cancels every z3 check, in
    every context :mod:`.num` made, until the caller, at a safe point, sees the event
    and raises KeyboardInterrupt. A second Ctrl-C raises at once. With ``at_once``
    (``ask``, whose searches are long runs of plain Python) the first one raises as soon
    as it lands outside z3 (no term being built or checked, :func:`.num.building_now`,
    and no z3 code on the stack, a finalizer say): the thread hands it back to the main
    thread until it does. SIGTERM is taken alike (after the handler it replaces has seen it, so that
    ``mammamia`` exits with 143): raised in z3's Python layer it left a
    ``ctypes.ArgumentError``."""
    import z3

    from mammamia_ref.queries import num as N

    stop, done = threading.Event(), threading.Event()
    if threading.current_thread() is not threading.main_thread() or \
            signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        yield stop  # signals reach only the main thread; an ignored Ctrl-C stays ignored
        return

    deferred = threading.Event()   # a signal to hand back until it lands outside z3

    def on_sigint(signum: int, frame: FrameType | None) -> None:
        again = deferred.is_set()   # handed back by the watcher, not a second Ctrl-C
        deferred.clear()
        if (stop.is_set() and not again) or (at_once and outside_z3(frame)):
            stop.set()
            raise KeyboardInterrupt
        stop.set()
        if at_once:
            deferred.set()

    def outside_z3(frame: FrameType | None) -> bool:
        if N.building_now():
            return False
        while frame is not None:
            if str(frame.f_globals.get("__name__", "")).split(".")[0] == "z3":
                return False
            frame = frame.f_back
        return True

    previous_term = signal.getsignal(signal.SIGTERM)

    def on_sigterm(signum: int, frame: FrameType | None) -> None:
        if callable(previous_term):   # mammamia's own: it notes SIGTERM, then raises
            with suppress(KeyboardInterrupt):
                previous_term(signum, frame)
        on_sigint(signum, frame)

    def watch() -> None:
        while (byte := os.read(read, 1)) and not done.is_set():
            while byte[0] in (signal.SIGINT, signal.SIGTERM) and not done.is_set():
                N.interrupt_all()
                if deferred.is_set():
                    _thread.interrupt_main(signal.SIGINT)   # on_sigint again, in main
                done.wait(0.05 if deferred.is_set() else 0.01)

    read, write = os.pipe()
    os.set_blocking(write, False)
    watcher = threading.Thread(target=watch, name="z3-interrupt", daemon=True)
    watcher.start()
    previous_fd = signal.set_wakeup_fd(write)
    previous_ctrl_c = z3.get_param("ctrl_c")
    z3.set_param("ctrl_c", False)
    signal.signal(signal.SIGINT, on_sigint)
    if previous_term not in (signal.SIG_IGN, None):
        signal.signal(signal.SIGTERM, on_sigterm)
    try:
        yield stop
    finally:
        signal.signal(signal.SIGINT, signal.default_int_handler)
        if previous_term is not None:
            signal.signal(signal.SIGTERM, previous_term)
        z3.set_param("ctrl_c", previous_ctrl_c)
        signal.set_wakeup_fd(previous_fd)
        done.set()
        os.close(write)
        watcher.join(timeout=5)
        os.close(read)
