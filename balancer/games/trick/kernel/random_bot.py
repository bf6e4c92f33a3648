"""The random bot (RULES.md §4) compiled, as every game on the trick procedure seats
it: legal[below(n)] drawn from the seat's own stream."""

from __future__ import annotations

import numpy as np

from balancer.games.trick.kernel.layout import inlined
from balancer.rng_kernels import ZERO, next_u64


@inlined
def draw_below(streams: np.ndarray, s: int, n: int) -> np.int64:
    """rng.below, draw for draw (tests/kernels/test_fdc_kernel.py checks it): a uniform
    integer in [0, n), n >= 1, redrawing the next_u64 under 2**64 mod n. A copy
    not for want of options but because rng.below is compiled apart with
    Python's error model (its `%` raises on n = 0): from every move of the
    random bot that is a call with an exception path, which brings back the
    reference counting `inlined` avoids."""
    nn = np.uint64(n)
    threshold = (ZERO - nn) % nn
    while True:
        x = next_u64(streams, s)
        if x >= threshold:
            return np.int64(x % nn)


@inlined
def random_move(streams: np.ndarray, seat: int, moves: np.ndarray, n: int) -> int:
    """RULES.md §4: moves[below(n)] from seat's own stream (1 + seat; 0 is chance)."""
    return moves[draw_below(streams, 1 + seat, n)]
