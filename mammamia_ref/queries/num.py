"""The numbers of the encodings: z3 integers by default, or small bit-vectors.

Every count in the game is small (at most 65 ingredient cards, 8 orders a colour,
hands of 7), so 8-bit two's-complement arithmetic would be exact for every term the
encodings build, given the range constraints the models state. Measured, bit-blasting
was slower than linear integer arithmetic for these queries, so integers are the
default; ``use_integers(False)`` switches to bit-vectors (for experiments). All terms
are built through this module, so the choice is made in one place.

>>> x = Int("x")
>>> s = z3.Solver()
>>> s.add(x + 3 == 5)
>>> s.check() == z3.sat and value(s.model(), x)
2
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import z3

BITS = 8
_bitvectors = False


def use_integers(flag: bool = True) -> None:
    """Build later encodings over z3 integers (``flag``) or bit-vectors (default)."""
    global _bitvectors
    _bitvectors = not flag


def Int(name: str) -> Any:
    return z3.BitVec(name, BITS) if _bitvectors else z3.Int(name)


def Val(v: int) -> Any:
    return z3.BitVecVal(v, BITS) if _bitvectors else z3.IntVal(v)


def lift(x: Any) -> Any:
    return Val(x) if isinstance(x, int) and not isinstance(x, bool) else x


def If(c: Any, a: Any, b: Any) -> Any:
    return z3.If(c, lift(a), lift(b))


def Sum(terms: Iterable[Any]) -> Any:
    items = [lift(t) for t in terms]
    return z3.Sum(items) if items else Val(0)


def value(model: z3.ModelRef, term: Any) -> int:
    """The integer a model gives ``term`` (0 for a term the model leaves free)."""
    if isinstance(term, int):
        return term
    got = model.eval(term, model_completion=True)
    if z3.is_bv_value(got):
        return got.as_signed_long()
    return got.as_long()


def truth(model: z3.ModelRef, term: Any) -> bool:
    if isinstance(term, bool):
        return term
    return z3.is_true(model.eval(term, model_completion=True))
