"""The compiled pieces of a kernel's `step` entry that are the same in every game.

A stepped game's arrays are blocks of one int64 buffer (games/kernel_api.py's
StepBuffer): `block` is one of them as the kernel's `step` reads it
(`stream_block` the streams' block, seen as uint64 rows), and
`draw_ahead` draws the outside seats' first bot-stream numbers at the deal, for
their plugins' rngs (sim/kernel_step.py's DrawnAhead). Compiled with numba, or
plain Python under BALANCER_JIT=0.
"""

from __future__ import annotations

import numpy as np

from balancer.jit import njit
from balancer.rng_kernels import ZERO, next_u64


# Inlined, unlike the engine's functions: numba types each call's block index as a
# literal constant, so a plain call compiled one copy of this line per block.
@njit(inline="always")
def block(buf: np.ndarray, b: int) -> np.ndarray:
    """The block of a step buffer whose (start, stop) is at header words b, b + 1."""
    return buf[buf[b] : buf[b + 1]]


@njit(inline="always")
def stream_block(buf: np.ndarray, b: int) -> np.ndarray:
    """The streams block at header words b, b + 1 as the rng kernels take it: uint64,
    one (key, counter) row a stream."""
    words = block(buf, b)
    return words.view(np.uint64).reshape((words.shape[0] >> 1, 2))


@njit
def draw_ahead(
    streams: np.ndarray, kinds: np.ndarray, outside: int, ahead: np.ndarray, per_seat: int
) -> None:
    """ahead[s * per_seat + c]: number c of bot stream 1 + s for each seat s whose
    kinds[s] is `outside`, that stream left at its start (its numbers are a function
    of its key and counter alone, and a kernel never draws from an outside seat's
    stream)."""
    for s in range(kinds.shape[0]):
        if kinds[s] == outside:
            for c in range(per_seat):
                ahead[s * per_seat + c] = next_u64(streams, 1 + s)
            streams[1 + s, 1] = ZERO
