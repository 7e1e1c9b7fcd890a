"""The numbers of the encodings, and the z3 context they live in.

Every count in the game is small (at most 65 ingredient cards, 8 orders a colour,
hands of 7), so 8-bit two's-complement arithmetic would be exact for every term the
encodings build, given the range constraints the models state. Measured, bit-blasting
was slower than linear integer arithmetic for these queries, so integers are the
default; ``use_integers(False)`` switches to bit-vectors (for experiments). All terms
are built through this module, so the choice is made in one place.

Every term is built in an explicit :class:`z3.Context`, never in z3's default one: a
model (or an answer of the catalogue) opens one with :func:`building`, and every
variable, constant and solver made inside takes it. A context of its own makes an
answer independent of whatever was built before it (the solver's choices depend on
the terms a context holds), and :func:`interrupt_all` can cancel every check in
progress on Ctrl-C.

>>> with building():
...     x = Int("x")
...     s = Solver()
...     s.add(x + 3 == 5)
...     s.check() == z3.sat and value(s.model(), x)
2
"""

from __future__ import annotations

import functools
import threading
import time
import weakref
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, ParamSpec, TypeVar

import z3

from mammamia_ref.errors import InternalError

BITS = 8
_bitvectors = False
_current: ContextVar[z3.Context | None] = ContextVar("mammamia_z3_context", default=None)
_live: weakref.WeakSet[z3.Context] = weakref.WeakSet()
_live_lock = threading.Lock()


def use_integers(flag: bool = True) -> None:
    """Build later encodings over z3 integers (``flag``) or bit-vectors (default)."""
    global _bitvectors
    _bitvectors = not flag


def new_context() -> z3.Context:
    """A fresh z3 context, known to :func:`interrupt_all`."""
    ctx = z3.Context()
    with _live_lock:
        _live.add(ctx)
    return ctx


@contextmanager
def building(ctx: z3.Context | None = None) -> Iterator[z3.Context]:
    """Build terms in ``ctx`` (a fresh context if none is given) until the block ends."""
    ctx = ctx if ctx is not None else new_context()
    token = _current.set(ctx)
    try:
        yield ctx
    finally:
        _current.reset(token)


_P = ParamSpec("_P")
_R = TypeVar("_R")


def in_model_context(method: Callable[_P, _R]) -> Callable[_P, _R]:
    """A model's method that builds terms: it builds them in the model's context."""
    @functools.wraps(method)
    def wrapper(*args: _P.args, **kwargs: _P.kwargs) -> _R:
        model: Any = args[0]
        with building(model.ctx):
            return method(*args, **kwargs)
    return wrapper


def building_now() -> bool:
    """Whether z3 terms are being built or checked here now (inside :func:`building`):
    where a KeyboardInterrupt must not be raised (:mod:`..answering.interrupt`)."""
    return _current.get() is not None


def current() -> z3.Context:
    """The context terms are being built in; building outside :func:`building` is a bug."""
    ctx = _current.get()
    if ctx is None:
        raise InternalError("z3 terms built outside num.building(): no context chosen")
    return ctx


def current_or_new() -> z3.Context:
    """The context being built in, or a fresh one (for a model built on its own)."""
    ctx = _current.get()
    return ctx if ctx is not None else new_context()


def interrupt_all() -> None:
    """Cancel the checks in progress in every context this module made (Ctrl-C)."""
    with _live_lock:
        contexts = list(_live)
    for ctx in contexts:
        ctx.interrupt()


def Int(name: str) -> Any:
    ctx = current()
    return z3.BitVec(name, BITS, ctx=ctx) if _bitvectors else z3.Int(name, ctx=ctx)


def Bool(name: str) -> z3.BoolRef:
    return z3.Bool(name, ctx=current())


def Val(v: int) -> Any:
    ctx = current()
    known: dict[tuple[bool, int], Any] | None = getattr(ctx, "mammamia_values", None)
    if known is None:
        known = ctx.mammamia_values = {}
    found = known.get((_bitvectors, v))
    if found is None:  # the encodings ask for the same few constants tens of thousands of times
        found = known[(_bitvectors, v)] = (z3.BitVecVal(v, BITS, ctx=ctx) if _bitvectors
                                           else z3.IntVal(v, ctx=ctx))
    return found


def BoolVal(b: bool) -> z3.BoolRef:
    return z3.BoolVal(b, ctx=current())


def Solver() -> z3.Solver:
    return z3.Solver(ctx=current())


def SimplifyingSolver() -> z3.Solver:
    """A solver that first simplifies, propagates values and solves equations away:
    far quicker on constraints with many defined terms, which is what the game model's
    steps are (the game searches two to three times sooner than z3's default, the
    induction and ranking proofs of :mod:`.proofs` three to eight times, the oven rules
    of several orders at once, :func:`.proofs.orders_bound`, far sooner still)."""
    ctx = current()
    return z3.Then(*[z3.Tactic(name, ctx=ctx) for name in
                     ("simplify", "propagate-values", "solve-eqs", "smt")]).solver()


def check(constraints: Iterable[Any], timeout: float | None = None
          ) -> tuple[Any, z3.ModelRef | None]:
    """Check ``constraints`` with :func:`SimplifyingSolver`: the result, and the model
    when they are satisfiable; with ``timeout`` (CPU seconds of the check,
    :func:`cpu_capped`), ``unknown`` once it is spent (a budget's end, not a verdict)."""
    s = SimplifyingSolver()
    s.add(list(constraints))
    with cpu_capped(s.ctx, timeout):
        result = s.check()
    return result, (s.model() if result == z3.sat else None)


@contextmanager
def cpu_capped(ctx: z3.Context, seconds: float | None) -> Iterator[None]:
    """Interrupt the z3 work of ``ctx`` done in this block once it has taken ``seconds``
    of CPU time of the calling thread (where the system gives a thread's clock, else of
    the process). z3's own ``timeout`` counts wall-clock time, so on a loaded machine a
    budget of CPU seconds bought less solving than it says; this cap buys the same
    whatever runs beside it. A check it stops answers ``unknown`` (reason
    ``interrupted``), as a timeout does; an interrupt that lands after the check ended
    touches nothing (z3 keeps no cancel of an idle context)."""
    if seconds is None:
        yield
        return
    clock = _thread_clock()
    deadline = clock() + max(seconds, 0.001)
    done, lock = threading.Event(), threading.Lock()

    def watch() -> None:
        # a thread's CPU time grows no faster than wall time, so the time left is a safe
        # wait (at most half a second, in case the process runs the check on several)
        while not done.wait(min(max(deadline - clock(), 0.002), 0.5)):
            if clock() >= deadline:
                with lock:
                    if not done.is_set():
                        ctx.interrupt()
                return

    watcher = threading.Thread(target=watch, name="z3-cpu-cap", daemon=True)
    watcher.start()
    try:
        yield
    finally:
        with lock:
            done.set()
        watcher.join()


def _thread_clock() -> Callable[[], float]:
    """The calling thread's CPU clock, readable from another thread; the process's where
    the system has none (its CPU time counts every thread)."""
    try:
        clock_id = time.pthread_getcpuclockid(threading.get_ident())
        time.clock_gettime(clock_id)
    except (AttributeError, OSError):
        return time.process_time
    return functools.partial(time.clock_gettime, clock_id)


def lift(x: Any) -> Any:
    return Val(x) if isinstance(x, int) and not isinstance(x, bool) else x


# Building the encodings' terms through z3's Python API costs more than solving many of
# them: its If, And, Or and Sum check and coerce every argument. Where the arguments are
# already terms of this context of one kind (integers, or truth values), the functions
# below make the same term directly (z3 shares equal terms, so the solver sees no
# difference); anything else goes through z3's own function.
_SAME_KIND = (z3.ArithRef, z3.BoolRef)
# the direct way uses two helpers private to z3's Python module: a z3 release without
# them makes every term through z3's own functions, slower but the same
_HELPERS = hasattr(z3.z3, "_to_expr_ref") and hasattr(z3.z3, "_to_ast_array")


def _direct(ctx: z3.Context, terms: Iterable[Any], kind: type[Any]) -> bool:
    return _HELPERS and all(isinstance(t, kind) and t.ctx is ctx for t in terms)


def If(c: Any, a: Any, b: Any) -> Any:
    ctx = current()
    a, b = lift(a), lift(b)
    if _direct(ctx, (c,), z3.BoolRef) and any(_direct(ctx, (a, b), k) for k in _SAME_KIND):
        return z3.z3._to_expr_ref(z3.Z3_mk_ite(ctx.ref(), c.as_ast(), a.as_ast(), b.as_ast()),
                                  ctx)
    return z3.If(c, a, b, ctx=ctx)


def Eq(a: Any, b: Any) -> Any:
    """``a == b``, made directly when both are integer terms of this context (or one is
    a plain int): the encodings compare a symbolic index or kind with each constant
    hundreds of thousands of times. Two plain numbers compare as Python does.

    >>> with building():
    ...     x = Int("x")
    ...     Eq(x, 3).eq(x == 3), Eq(Val(2), x).eq(Val(2) == x), Eq(2, 2)
    (True, True, True)
    """
    if isinstance(a, int) and isinstance(b, int):
        return a == b
    ctx = current()
    a, b = lift(a), lift(b)
    if _direct(ctx, (a, b), z3.ArithRef):
        return z3.z3._to_expr_ref(z3.Z3_mk_eq(ctx.ref(), a.as_ast(), b.as_ast()), ctx)
    return a == b


def _connective(make: Any, fallback: Any, args: tuple[Any, ...]) -> Any:
    if len(args) == 1 and isinstance(args[0], list | tuple):
        args = tuple(args[0])
    ctx = current()
    if args and _direct(ctx, args, z3.BoolRef):
        array, size = z3.z3._to_ast_array(args)
        return z3.z3._to_expr_ref(make(ctx.ref(), size, array), ctx)
    return fallback(*args, ctx)


def And(*args: Any) -> Any:
    """``z3.And`` of ``args`` (or of one list of them), in the current context."""
    return _connective(z3.Z3_mk_and, z3.And, args)


def Or(*args: Any) -> Any:
    """``z3.Or`` of ``args`` (or of one list of them), in the current context."""
    return _connective(z3.Z3_mk_or, z3.Or, args)


def Sum(terms: Iterable[Any]) -> Any:
    items = [lift(t) for t in terms]
    if not items:
        return Val(0)
    ctx = current()
    if _direct(ctx, items, z3.ArithRef):
        args, size = z3.z3._to_ast_array(items)
        return z3.z3._to_expr_ref(z3.Z3_mk_add(ctx.ref(), size, args), ctx)
    return z3.Sum(items)


def value(model: z3.ModelRef, term: Any) -> int:
    """The integer a model gives ``term`` (0 for a term the model leaves free)."""
    if isinstance(term, int):
        return term
    got = model.eval(term, model_completion=True)
    if z3.is_bv_value(got):
        return int(got.as_signed_long())
    return int(got.as_long())


def truth(model: z3.ModelRef, term: Any) -> bool:
    if isinstance(term, bool):
        return term
    return bool(z3.is_true(model.eval(term, model_completion=True)))
