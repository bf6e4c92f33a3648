"""The randomness contract's kernels (see rng.py, which documents it and re-exports these).

uint64 throughout; compiled with numba, or plain Python under BALANCER_JIT=0.
"""

from __future__ import annotations

import numpy as np

from balancer.jit import njit
from balancer.rng_hash import _GAMMA, _M1, _M2, TWO_53

GAMMA = np.uint64(_GAMMA)
M1 = np.uint64(_M1)
M2 = np.uint64(_M2)
S30, S27, S31 = np.uint64(30), np.uint64(27), np.uint64(31)
ONE = np.uint64(1)
ZERO = np.uint64(0)


@njit
def mix64(z: np.uint64) -> np.uint64:
    z = (z ^ (z >> S30)) * M1
    z = (z ^ (z >> S27)) * M2
    return z ^ (z >> S31)


@njit
def stream_key(seed: int, game: int, stream: int) -> np.uint64:
    """The key of one stream of one game."""
    key = mix64(np.uint64(seed) + GAMMA)
    key = mix64(key ^ mix64(np.uint64(game) + GAMMA + GAMMA))
    return mix64(key ^ mix64(np.uint64(stream) + GAMMA + GAMMA + GAMMA))


@njit
def init_streams(streams: np.ndarray, seed: int, game: int) -> None:
    """Set every row of `streams` (shape (n, 2), uint64) to stream row-index of game `game`."""
    for s in range(streams.shape[0]):
        streams[s, 0] = stream_key(seed, game, s)
        streams[s, 1] = ZERO


@njit
def next_u64(streams: np.ndarray, s: int) -> np.uint64:
    """The next 64 random bits of stream `s`."""
    key = streams[s, 0]
    counter = streams[s, 1]
    streams[s, 1] = counter + ONE
    return mix64(mix64(key + counter * GAMMA) + key)


@njit
def below(streams: np.ndarray, s: int, n: int) -> int:
    """A uniform integer in [0, n), n >= 1, without bias: draws under 2**64 mod n are redrawn."""
    nn = np.uint64(n)
    threshold = (ZERO - nn) % nn
    while True:
        x = next_u64(streams, s)
        if x >= threshold:
            return int(x % nn)


@njit
def shuffle(streams: np.ndarray, s: int, values: np.ndarray, n: int) -> None:
    """Fisher-Yates on values[:n], from the top: position i swaps with a uniform j <= i."""
    for i in range(n - 1, 0, -1):
        j = below(streams, s, i + 1)
        tmp = values[i]
        values[i] = values[j]
        values[j] = tmp


@njit
def uniform01(streams: np.ndarray, s: int) -> float:
    """A float in [0, 1) with 53 random bits."""
    return float(next_u64(streams, s) >> np.uint64(11)) / TWO_53
