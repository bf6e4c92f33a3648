"""Small list kernels every game on the trick procedure uses: seats around the table,
and lists kept as (offset, length) inside an int64 array (a hand, the trick's plays, a
zone), with list.index / list.remove / `in` written out for numba."""

from __future__ import annotations

import numpy as np

from balancer.games.trick.kernel.layout import KIND, T_CARDS, T_DECK, inlined


@inlined
def seat_after(seat: int, k: int, players: int) -> int:
    """(seat + k) % players for 0 <= seat, k < players, without `%`: an integer
    `%` or `//` anywhere in a kernel makes numba keep reference counting (atomic
    calls) around every array passed in its loops, several times slower."""
    s = seat + k
    return s - players if s >= players else s


@inlined
def index_of(arr: np.ndarray, base: int, n: int, value: int) -> int:
    """The index of `value` in arr[base : base + n] (list.index), -1 when absent."""
    for i in range(n):
        if arr[base + i] == value:
            return i
    return -1


@inlined
def remove_at(arr: np.ndarray, base: int, n: int, i: int) -> None:
    """Remove arr[base + i] of a list of n, keeping the order (list.remove)."""
    for j in range(i, n - 1):
        arr[base + j] = arr[base + j + 1]


@inlined
def in_plays(arr: np.ndarray, at: int, n: int, card: int) -> bool:
    """Whether `card` is among arr[at : at + n] (the trick's plays, its survivors)."""
    for i in range(n):  # noqa: SIM110 (compiled code takes no generator expressions)
        if arr[at + i] == card:
            return True
    return False


@inlined
def kind_seen(tables: np.ndarray, arr: np.ndarray, base: int, upto: int, card: int) -> bool:
    """Whether arr[base : base + upto] holds a copy of `card` (a card of its KIND):
    identical copies are one move, the first in the list's order."""
    kinds = T_CARDS + KIND * tables[T_DECK]
    kind = tables[kinds + card]
    for j in range(upto):  # noqa: SIM110
        if tables[kinds + arr[base + j]] == kind:
            return True
    return False
