"""The randomness contract: every random number is a pure function of
(seed, game index, stream, counter).

A stream is a key and a counter. The key is a hash of (seed, game, stream);
the n-th number of the stream is a hash of (key, n). Nothing is carried from
one number to the next but the counter, so game i of a run draws the same
numbers whatever ran before it, on any worker, backend or path (compiled,
step by step, replay).

Streams, per game: `CHANCE` (0) for the game's own shuffles and blind picks,
and `bot_stream(seat)` (1 + seat) for the bot in that physical seat, so one
seat's choices never shift another seat's draws or the deal. Two variants
run with one seed deal the same cards (common random numbers).

The hash is SplitMix64's finaliser (Steele, Lea & Flood 2014), applied in
counter mode and keyed twice: `mix(mix(key + n * GAMMA) + key)`. Keyed once
it would be plain SplitMix64, whose streams under different keys can share a
run of outputs at some offset; the second keying makes equal inner values
give different outputs.

Integers are drawn without bias by rejection (`below`); shuffles are
Fisher-Yates from the top. Each is written twice, as a kernel over a uint64
array of stream states (`streams[s] = (key, counter)`, compiled with numba
where it is available) and as `Stream`, a plain-Python object handed to
plugin bots; `tests/unit/test_rng.py` checks that both give the same numbers.

Changing anything here changes every game: bump `RNG_VERSION`, which every
report records.
"""

from __future__ import annotations

from collections.abc import MutableSequence, Sequence
from typing import TypeVar

import numpy as np

from balancer.jit import njit

RNG_VERSION = 1

CHANCE = 0


def bot_stream(seat: int) -> int:
    """The stream of the bot in physical seat `seat`."""
    return 1 + seat


_MASK = (1 << 64) - 1
_GAMMA = 0x9E3779B97F4A7C15
_M1 = 0xBF58476D1CE4E5B9
_M2 = 0x94D049BB133111EB

GAMMA = np.uint64(_GAMMA)
M1 = np.uint64(_M1)
M2 = np.uint64(_M2)
S30, S27, S31 = np.uint64(30), np.uint64(27), np.uint64(31)
ONE = np.uint64(1)
ZERO = np.uint64(0)
TWO_53 = float(2**53)


# -- kernels: uint64 throughout; compiled, or plain Python under jit.plain_python_overflow()


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


# -- the same contract in plain Python integers (for plugin bots and the step path)


def _mix(z: int) -> int:
    z = ((z ^ (z >> 30)) * _M1) & _MASK
    z = ((z ^ (z >> 27)) * _M2) & _MASK
    return z ^ (z >> 31)


def key_of(seed: int, game: int, stream: int) -> int:
    """`stream_key` in Python integers."""
    key = _mix((seed + _GAMMA) & _MASK)
    key = _mix(key ^ _mix((game + 2 * _GAMMA) & _MASK))
    return _mix(key ^ _mix((stream + 3 * _GAMMA) & _MASK))


T = TypeVar("T")


class Stream:
    """One stream of one game, with the few methods of `random.Random` a bot needs.

    A plugin bot is handed its seat's stream; `legal[rng.randrange(len(legal))]`
    draws exactly what the built-in `random` bot draws, on every path.
    """

    __slots__ = ("key", "counter")

    def __init__(self, seed: int, game: int, stream: int, counter: int = 0) -> None:
        self.key = key_of(seed, game, stream)
        self.counter = counter

    def copy(self) -> Stream:
        """An independent stream at the same point: it draws what this one would."""
        other = Stream.__new__(Stream)
        other.key, other.counter = self.key, self.counter
        return other

    def next_u64(self) -> int:
        key = self.key
        inner = _mix((key + self.counter * _GAMMA) & _MASK)
        self.counter += 1
        return _mix((inner + key) & _MASK)

    def below(self, n: int) -> int:
        if n < 1:
            raise ValueError("below(n) needs n >= 1")
        threshold = (1 << 64) % n  # the kernel's (0 - n) % n in uint64
        while True:
            x = self.next_u64()
            if x >= threshold:
                return x % n

    def randrange(self, start: int, stop: int | None = None) -> int:
        """Like `random.Random.randrange` with one or two arguments."""
        if stop is None:
            start, stop = 0, start
        if stop <= start:
            raise ValueError(f"empty range for randrange({start}, {stop})")
        return start + self.below(stop - start)

    def randint(self, a: int, b: int) -> int:
        return self.randrange(a, b + 1)

    def choice(self, seq: Sequence[T]) -> T:
        if not seq:
            raise IndexError("cannot choose from an empty sequence")
        return seq[self.below(len(seq))]

    def shuffle(self, values: MutableSequence[T]) -> None:
        for i in range(len(values) - 1, 0, -1):
            j = self.below(i + 1)
            values[i], values[j] = values[j], values[i]

    def random(self) -> float:
        return (self.next_u64() >> 11) / TWO_53
