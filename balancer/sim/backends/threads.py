"""Compiled chunks on threads of the run's own process.

A compiled chunk spends nearly all its time inside a numba kernel, and the
kernels are compiled with nogil=True (balancer/jit.py): threads then play in
parallel, like worker processes, with none of a process pool's costs. Each
forked worker held its own copy of the parent's heap (about 100 MB resident
apiece), results crossed a pipe pickled, and a worker could in principle
outlive its parent; a thread shares the one heap, hands its arrays over as
they are, and ends with its process whatever kills it.

Only compiled chunks come here. A step-by-step chunk (plugins, --check) is
Python from end to end and would hold the GIL: it keeps its worker processes
(backends/local.py), which also keep a plugin out of balancer's process.

Results are yielded in chunk order, and no thread plays more than a few
chunks ahead of the one the caller waits for, so memory stays flat. The
caller's thread waits on the chunk it needs and nothing else, so a Ctrl-C
or SIGTERM reaches it at once; the chunks still playing are abandoned
(their threads are daemons: the process may end without them).
"""

from __future__ import annotations

import collections
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from typing import Any, Generic, TypeVar

C = TypeVar("C")
R = TypeVar("R")

# How far (in chunks per thread) the threads may play ahead of the chunk the
# caller waits for: bounds the results held for reordering.
AHEAD_PER_THREAD = 4
# Seconds a thread holding the GIL keeps it while a playing thread waits (see thread_pool).
SWITCH_INTERVAL = 0.0005


class _Slot(Generic[R]):
    """One chunk's result, or the exception it raised, once its thread is done."""

    __slots__ = ("done", "result", "error")

    def __init__(self) -> None:
        self.done = threading.Event()
        self.result: R | None = None
        self.error: BaseException | None = None


def thread_pool(
    play: Callable[[C], R],
    chunks: Sequence[C],
    workers: int,
    started: Callable[[int], None] | None = None,
) -> Iterator[R]:
    """`play` over `chunks` on `workers` threads, results yielded in chunk order.

    The first chunk that raises raises here, in chunk order (the one a single
    thread would raise); chunks not yet started are then dropped.
    """
    workers = max(1, min(workers, len(chunks)))
    slots: collections.deque[_Slot[R]] = collections.deque()
    todo: collections.deque[tuple[C, _Slot[R]]] = collections.deque()
    ready = threading.Condition()
    stopping = False
    handed = 0

    def hand_out() -> None:
        # Called with `ready` held: queue chunks until AHEAD_PER_THREAD are in flight.
        nonlocal handed
        while handed < len(chunks) and len(slots) < workers * AHEAD_PER_THREAD:
            slot: _Slot[R] = _Slot()
            slots.append(slot)
            todo.append((chunks[handed], slot))
            handed += 1
        ready.notify_all()

    def serve() -> None:
        while True:
            with ready:
                while not todo and not stopping:
                    ready.wait()
                if stopping:
                    return
                chunk, slot = todo.popleft()
            try:
                slot.result = play(chunk)
            except BaseException as exc:  # handed to the caller, in chunk order
                slot.error = exc
            slot.done.set()

    threads = [
        threading.Thread(target=serve, name=f"balancer-play-{i}", daemon=True)
        for i in range(workers)
    ]
    with ready:
        hand_out()
    # A playing thread takes the GIL back a few times a chunk (around each compiled
    # call); while another thread runs Python (the run's writer, the report's imports)
    # each take waited up to the switch interval, 5 ms by default: a quarter of a
    # 2,000-game chunk's time at every one. A shorter interval while the games play.
    interval = sys.getswitchinterval()
    sys.setswitchinterval(min(interval, SWITCH_INTERVAL))
    for thread in threads:
        thread.start()
    if started is not None:
        started(workers)
    try:
        while True:
            with ready:
                if not slots:
                    return
                slot = slots[0]
            slot.done.wait()
            with ready:
                slots.popleft()
                if slot.error is not None:
                    raise slot.error
                hand_out()
            yield _taken(slot)
    finally:
        sys.setswitchinterval(interval)
        with ready:
            stopping = True
            todo.clear()
            ready.notify_all()


def _taken(slot: _Slot[Any]) -> Any:
    result, slot.result = slot.result, None  # the caller holds it now, not the deque
    return result
