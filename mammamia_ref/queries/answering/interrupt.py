"""Ctrl-C during z3 work: stop soon, cleanly, and never trust a cancelled answer.

``mammamia verify``, ``mammamia query run``, ``mammamia ask`` and ``mammamia bench``
answer queries under :func:`z3_interruptible`; the catalogue's runner answers one query
so (:func:`..catalogue.runner.answer_interruptibly`), a cancelled check turned into
KeyboardInterrupt (:mod:`.cancel`).
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


@contextmanager
def z3_interruptible(at_once: bool = False) -> Iterator[threading.Event]:
    """Let Ctrl-C stop z3 work soon and cleanly. z3 takes SIGINT for itself during a
    check and merely answers "unknown"; and a KeyboardInterrupt raised at an arbitrary
    point inside z3's Python layer is lost in a finalizer or turned into another error.
    So here z3 leaves SIGINT to Python, whose handler only sets the event yielded; a
    thread woken by the signal (through the wakeup fd) then cancels every z3 check, in
    every context :mod:`..model.num` made, until the caller, at a safe point, sees the event
    and raises KeyboardInterrupt. A second Ctrl-C raises at once. With ``at_once``
    (``ask``, whose searches are long runs of plain Python) the first one raises as soon
    as it lands outside z3 (no term being built or checked, :func:`..model.num.building_now`,
    and no z3 code on the stack, a finalizer say): the thread hands it back to the main
    thread until it does. SIGTERM is taken alike (after the handler it replaces has seen it, so that
    ``mammamia`` exits with 143): raised in z3's Python layer it left a
    ``ctypes.ArgumentError``."""
    import z3

    stop = threading.Event()
    if threading.current_thread() is not threading.main_thread() or \
            signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        yield stop  # signals reach only the main thread; an ignored Ctrl-C stays ignored
        return
    guard = _Guard(stop, at_once)
    guard.install(z3)
    try:
        yield stop
    finally:
        guard.restore(z3)


FINALIZERS = ("_weakrefset",)
"""Modules whose code runs as a finalizer (a WeakSet's entry removed when its object
dies, as :mod:`threading` keeps its threads and :mod:`..model.num` its contexts): an
exception raised there is printed and dropped ("Exception ignored in ..."), so a signal
that lands there is handed back too."""


def _outside_z3(frame: FrameType | None) -> bool:
    """No z3 term is being built or checked, and no z3 code nor a finalizer is on the
    stack."""
    from mammamia_ref.queries.model import num as N

    if N.building_now():
        return False
    while frame is not None:
        module = str(frame.f_globals.get("__name__", ""))
        if module.split(".")[0] == "z3" or module in FINALIZERS:
            return False
        frame = frame.f_back
    return True


class _Guard:
    """The handlers :func:`z3_interruptible` installs, the watcher thread and what they
    replace, to be put back."""

    def __init__(self, stop: threading.Event, at_once: bool) -> None:
        self.stop, self.at_once = stop, at_once
        self.done = threading.Event()
        self.deferred = threading.Event()   # a signal to hand back until it lands outside z3
        self.previous_term = signal.getsignal(signal.SIGTERM)

    def on_sigint(self, signum: int, frame: FrameType | None) -> None:
        again = self.deferred.is_set()   # handed back by the watcher, not a second Ctrl-C
        self.deferred.clear()
        if (self.stop.is_set() and not again) or (self.at_once and _outside_z3(frame)):
            self.stop.set()
            raise KeyboardInterrupt
        self.stop.set()
        if self.at_once:
            self.deferred.set()

    def on_sigterm(self, signum: int, frame: FrameType | None) -> None:
        if callable(self.previous_term):   # mammamia's own: it notes SIGTERM, then raises
            with suppress(KeyboardInterrupt):
                self.previous_term(signum, frame)
        self.on_sigint(signum, frame)

    def watch(self) -> None:
        from mammamia_ref.queries.model import num as N

        while (byte := os.read(self.read, 1)) and not self.done.is_set():
            while byte[0] in (signal.SIGINT, signal.SIGTERM) and not self.done.is_set():
                N.interrupt_all()
                if self.deferred.is_set():
                    _thread.interrupt_main(signal.SIGINT)   # on_sigint again, in main
                self.done.wait(0.05 if self.deferred.is_set() else 0.01)

    def install(self, z3: Any) -> None:
        self.read, self.write = os.pipe()
        os.set_blocking(self.write, False)
        self.watcher = threading.Thread(target=self.watch, name="z3-interrupt", daemon=True)
        self.watcher.start()
        self.previous_fd = signal.set_wakeup_fd(self.write)
        self.previous_ctrl_c = z3.get_param("ctrl_c")
        z3.set_param("ctrl_c", False)
        signal.signal(signal.SIGINT, self.on_sigint)
        if self.previous_term not in (signal.SIG_IGN, None):
            signal.signal(signal.SIGTERM, self.on_sigterm)

    def restore(self, z3: Any) -> None:
        signal.signal(signal.SIGINT, signal.default_int_handler)
        if self.previous_term is not None:
            signal.signal(signal.SIGTERM, self.previous_term)
        z3.set_param("ctrl_c", self.previous_ctrl_c)
        signal.set_wakeup_fd(self.previous_fd)
        self.done.set()
        os.close(self.write)
        self.watcher.join(timeout=5)
        os.close(self.read)
