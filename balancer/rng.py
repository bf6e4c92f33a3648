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
Fisher-Yates from the top. Each is written twice: as kernels over a uint64
array of stream states (`streams[s] = (key, counter)`, compiled with numba
where it is available; they live in rng_kernels.py and are reached as
`rng.below` and so on, loaded on first use so that commands which play no
game never import numba) and as `Stream`, a plain-Python object handed to
plugin bots; tests/unit/test_rng.py checks that both give the same numbers.

Changing anything here changes every game: bump `RNG_VERSION`, which every
report records.
"""

from __future__ import annotations

from collections.abc import MutableSequence, Sequence
from functools import lru_cache
from typing import Any, TypeVar

from balancer.rng_hash import _GAMMA, _M1, _M2, TWO_53

RNG_VERSION = 1

CHANCE = 0


def bot_stream(seat: int) -> int:
    """The stream of the bot in physical seat `seat`."""
    return 1 + seat


_MASK = (1 << 64) - 1
_TWO_64 = 1 << 64
# Longer shuffles run the compiled kernel (numba), or compute their draws with
# numpy, where a hash costs less than a Python call; shorter ones draw number
# by number.
_VECTOR_SHUFFLE = 32


# -- the same contract in plain Python integers (for plugin bots and the step path)


def _mix(z: int) -> int:
    z = ((z ^ (z >> 30)) * _M1) & _MASK
    z = ((z ^ (z >> 27)) * _M2) & _MASK
    return z ^ (z >> 31)


def key_of(seed: int, game: int, stream: int) -> int:
    """`stream_key` in Python integers."""
    return _mix(_game_part(seed, game) ^ _stream_part(stream))


# A game's streams share (seed, game), and every game's streams their numbers:
# those parts are hashed once (the step path makes a stream per seat per game).


@lru_cache(maxsize=16)
def _game_part(seed: int, game: int) -> int:
    return _mix(_mix((seed + _GAMMA) & _MASK) ^ _mix((game + 2 * _GAMMA) & _MASK))


@lru_cache(maxsize=64)
def _stream_part(stream: int) -> int:
    return _mix((stream + 3 * _GAMMA) & _MASK)


T = TypeVar("T")


@lru_cache(maxsize=1)
def _compiled_shuffle() -> Any:
    """rng_kernels.shuffle where numba compiles it (a long shuffle's quickest way), else None."""
    from balancer import jit

    if not jit.ENABLED:
        return None
    from balancer import rng_kernels

    return rng_kernels.shuffle


@lru_cache(maxsize=32)
def _shuffle_tables(n: int) -> tuple[Any, Any, Any]:
    """For Stream._swaps: counter steps (k * GAMMA), bounds (i + 1 for i = n-1 .. 1) and
    below's thresholds (2**64 % bound), as numpy uint64 arrays, made once per length."""
    import numpy as np

    u64 = np.uint64
    steps = np.arange(n - 1, dtype=u64) * u64(_GAMMA)
    bounds = np.arange(n, 1, -1, dtype=u64)
    thresholds = (u64(0) - bounds) % bounds  # the kernel's (0 - n) % n
    for table in (steps, bounds, thresholds):
        table.flags.writeable = False
    return steps, bounds, thresholds


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

    # The hash is written out in next_u64, below and shuffle: they run for
    # every draw of the step path (plugin bots, shuffles), where a call per
    # mix or per draw costs as much as the draw. A subclass that changes where
    # numbers come from overrides all three (bots/keeper.py's _Draws does);
    # tests/unit/test_rng.py checks each against the kernels.

    def next_u64(self) -> int:
        key = self.key
        z = (key + self.counter * _GAMMA) & _MASK
        self.counter += 1
        z = ((z ^ (z >> 30)) * _M1) & _MASK
        z = ((z ^ (z >> 27)) * _M2) & _MASK
        z = ((z ^ (z >> 31)) + key) & _MASK
        z = ((z ^ (z >> 30)) * _M1) & _MASK
        z = ((z ^ (z >> 27)) * _M2) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        if n < 1:
            raise ValueError("below(n) needs n >= 1")
        threshold = _TWO_64 % n  # the kernel's (0 - n) % n in uint64
        key, counter = self.key, self.counter
        while True:
            z = (key + counter * _GAMMA) & _MASK
            counter += 1
            z = ((z ^ (z >> 30)) * _M1) & _MASK
            z = ((z ^ (z >> 27)) * _M2) & _MASK
            z = ((z ^ (z >> 31)) + key) & _MASK
            z = ((z ^ (z >> 30)) * _M1) & _MASK
            z = ((z ^ (z >> 27)) * _M2) & _MASK
            z ^= z >> 31
            if z >= threshold:
                self.counter = counter
                return z % n

    def randrange(self, start: int, stop: int | None = None) -> int:
        """Like `random.Random.randrange` with one or two arguments."""
        if stop is None:
            if start >= 1:  # the common call, randrange(len(legal))
                return self.below(start)
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
        """Fisher-Yates from the top: position i swaps with below(i + 1), i = n-1 .. 1."""
        if len(values) > _VECTOR_SHUFFLE:
            if type(values) is list and _compiled_shuffle() is not None:
                self._shuffle_compiled(values)
                return
            swaps = self._swaps(len(values))
            if swaps is not None:
                for i, j in zip(range(len(values) - 1, 0, -1), swaps, strict=True):
                    values[i], values[j] = values[j], values[i]
                return
        key, counter = self.key, self.counter
        for i in range(len(values) - 1, 0, -1):
            n = i + 1
            threshold = _TWO_64 % n
            while True:
                z = (key + counter * _GAMMA) & _MASK
                counter += 1
                z = ((z ^ (z >> 30)) * _M1) & _MASK
                z = ((z ^ (z >> 27)) * _M2) & _MASK
                z = ((z ^ (z >> 31)) + key) & _MASK
                z = ((z ^ (z >> 30)) * _M1) & _MASK
                z = ((z ^ (z >> 27)) * _M2) & _MASK
                z ^= z >> 31
                if z >= threshold:
                    break
            j = z % n
            values[i], values[j] = values[j], values[i]
        self.counter = counter

    def _shuffle_compiled(self, values: list[Any]) -> None:
        """The kernel's own shuffle (numba), of positions, applied to the list."""
        import numpy as np

        n = len(values)
        streams = np.array([[self.key, self.counter]], dtype=np.uint64)
        order = np.arange(n, dtype=np.int64)
        _compiled_shuffle()(streams, 0, order, n)
        self.counter = int(streams[0, 1])
        values[:] = [values[i] for i in order.tolist()]

    def _swaps(self, n: int) -> list[int] | None:
        """The positions a shuffle of `n` values swaps with, the hashes computed
        at once with numpy's uint64 (which wraps as `& _MASK` does); None, and
        the stream untouched, if a draw would be rejected (with chance about n
        in 2**64), for the number-by-number loop to redo."""
        import numpy as np

        steps, bounds, thresholds = _shuffle_tables(n)
        u64 = np.uint64
        key = u64(self.key)
        z = steps + u64((self.key + self.counter * _GAMMA) & _MASK)  # key + counter * GAMMA
        z ^= z >> u64(30)
        z *= u64(_M1)
        z ^= z >> u64(27)
        z *= u64(_M2)
        z ^= z >> u64(31)
        z += key
        z ^= z >> u64(30)
        z *= u64(_M1)
        z ^= z >> u64(27)
        z *= u64(_M2)
        z ^= z >> u64(31)
        if (z < thresholds).any():
            return None
        self.counter += n - 1
        swaps: list[int] = (z % bounds).tolist()
        return swaps

    def random(self) -> float:
        return (self.next_u64() >> 11) / TWO_53


_KERNELS: tuple[str, ...] = ("mix64", "stream_key", "init_streams", "next_u64", "below")
_KERNELS += ("shuffle", "uniform01", "GAMMA", "M1", "M2", "ONE", "ZERO")


def __getattr__(name: str) -> Any:
    if name in _KERNELS:
        from balancer import rng_kernels

        return getattr(rng_kernels, name)
    raise AttributeError(f"module 'balancer.rng' has no attribute {name!r}")
