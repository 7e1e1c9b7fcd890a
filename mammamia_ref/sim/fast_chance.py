"""The fast engine's chance and the benchmark policy's choices: the shuffles of
:class:`mammamia_ref.rules.chance.ChanceSource` and the numbers of
:func:`mammamia_ref.sim.policies.random_policy`, drawn the same way."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Final

from mammamia_ref.errors import IllegalActionError
from mammamia_ref.sim.fast_state import (
    _DRAW,
    _PILE_COLOUR,
    _SHUFFLE,
    DRAW_FILL,
    SUPPLY,
    WAITER,
    FastState,
)


def chance_pile(state: FastState) -> tuple[str, Sequence[int]]:
    """At a chance node: the pile to shuffle and its cards, in the reference's order."""
    step = state.step
    if state.phase != _SHUFFLE:
        raise IllegalActionError("no pile is waiting to be shuffled", rule="setup.deal")
    colour = _PILE_COLOUR.get(step)
    if colour is not None:
        return step, state.waiters[state.seat_of_colour[colour]]
    return step, state.supply

# -- chance, the benchmark policy, whole games, counting -----------------------------


# The reference's chance and policy draw from ``random.Random`` through ``sample`` and
# ``choice``, both built on ``_randbelow(n)``: ``getrandbits(n.bit_length())`` until the
# result is below n. The fast engine draws the very same numbers with that loop written
# out (a Python call less per number). ``INLINE_OK`` checks, once, that this Python's
# ``random`` still works that way; where it does not, the fast engine calls it instead.


_BITS: Final = tuple(n.bit_length() for n in range(4096))  # n.bit_length(), looked up (piles and
# lists of legal actions are far shorter)


def _sample_all(rng: random.Random, cards: Sequence[int]) -> list[int]:
    """``rng.sample(cards, len(cards))``, number for number (its selection-pool branch,
    the one it takes whenever it returns the whole population)."""
    getrandbits, bits_of = rng.getrandbits, _BITS
    pool = list(cards)
    result: list[int] = []
    for left in range(len(pool), 0, -1):  # pick one of the ``left`` cards not yet taken
        bits = bits_of[left]
        j = getrandbits(bits)
        while j >= left:
            j = getrandbits(bits)
        result.append(pool[j])  # (the interpreter's own path for list.append)
        pool[j] = pool[left - 1]
    return result


def _inline_ok() -> bool:
    if getattr(random.Random, "_randbelow", None) is not getattr(
            random.Random, "_randbelow_with_getrandbits", object()):
        return False
    for n in (1, 2, 7, 8, 9, 40, 66):
        a, b = random.Random(f"check:{n}"), random.Random(f"check:{n}")
        if [a.sample(range(n), n) for _ in range(3)] != [_sample_all(b, range(n))
                                                        for _ in range(3)]:
            return False
        if [a.choice(range(n)) for _ in range(50)] != [_below(b.getrandbits, n)
                                                       for _ in range(50)]:
            return False
    return True


def _below(getrandbits: Callable[[int], int], n: int) -> int:
    """``Random._randbelow(n)``."""
    bits = n.bit_length()
    r = getrandbits(bits)
    while r >= n:
        r = getrandbits(bits)
    return r


INLINE_OK: Final = _inline_ok()


def shuffled(rng: random.Random, cards: Sequence[int]) -> list[int]:
    """The shuffle the reference's :class:`~mammamia_ref.rules.chance.ChanceSource` draws:
    ``rng.sample(cards, len(cards))``. It orders positions, not values, so the same pile
    in the same order, coded or not, comes out the same."""
    if INLINE_OK and len(cards) < len(_BITS):
        return _sample_all(rng, cards)
    return rng.sample(cards, len(cards))


class FastChance:
    """:class:`mammamia_ref.rules.chance.ChanceSource` for the fast engine: the same seed gives
    the same shuffles."""

    def __init__(self, seed: int | str) -> None:
        self.seed = seed
        self._random = random.Random(f"mammamia-chance:{seed}")

    def shuffle(self, state: FastState) -> list[int]:
        return shuffled(self._random, chance_pile(state)[1])


def benchmark_choice(state: FastState, legal: Sequence[int], rng: random.Random) -> int:
    """:func:`mammamia_ref.sim.policies.random_policy` on action codes, drawing the same
    numbers from ``rng``: uniform among the legal actions, except that the draw takes the
    supply with probability 0.8 and the waiter otherwise. (``rng.choice(seq)`` is
    ``seq[_randbelow(len(seq))]``.)"""
    first = 0
    n = len(legal)
    if state.step == _DRAW:
        source = SUPPLY if rng.random() < 0.8 else WAITER
        if legal is DRAW_FILL:  # one draw from that source: still a choice among one
            n, first = 1, source
        else:  # supply counts first, then as many waiter counts
            n //= 2
            first = n if source == WAITER else 0
    if not INLINE_OK:
        return legal[first + rng.randrange(n)]  # which is rng._randbelow(n)
    bits = _BITS[n]
    r = rng.getrandbits(bits)
    while r >= n:
        r = rng.getrandbits(bits)
    return legal[first + r]


