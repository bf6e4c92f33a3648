"""Where a run's chunks are played: a backend maps a function over chunks, results in order.

Every backend has the same shape, `backend(play, chunks, workers)`, and
yields `play(chunk)` for each chunk in chunk order, whatever `play` returns.
It knows nothing of games: a chunk is a pure function of what it carries,
so any backend, worker count or retry gives the same results.

- threads.py: compiled chunks on threads of the calling process (the
  kernels release the GIL).
- local.py: step-by-step chunks in the calling process, or a pool of forked
  worker processes that can't outlive their parent.
- dask.py: tasks on a Dask cluster (imported only when asked for).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import TypeVar

C = TypeVar("C")
R = TypeVar("R")

# play, chunks, workers -> results in chunk order
MapInOrder = Callable[[Callable[[C], R], Sequence[C], int], Iterator[R]]
