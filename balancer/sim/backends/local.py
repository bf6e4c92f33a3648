"""Local backends: in the calling process, or a pool of forked worker processes.

The pool is written against three ways a run used to go wrong:

- A worker must not outlive its parent, whatever kills the parent (SIGKILL,
  SIGHUP from a closed terminal): on Linux the kernel kills it
  (PR_SET_PDEATHSIG); elsewhere, and as a second line, a thread in the
  worker sees its parent change and kills the worker's group. A worker holds
  no read end of any pipe, so a write to a dead parent fails at once instead
  of blocking forever.
- A plugin that forks must not make a run never finish: workers run in a
  process group of their own, keep no file descriptor but their two pipes
  and stdout/stderr, leave with os._exit (never waiting for children a
  plugin started), and the parent kills the whole group when the run ends,
  however it ends. The parent never waits for end-of-file on any pipe.
- Workers share out the chunks as they go (a chunk to whichever worker has
  room), so a worker slowed by a busy machine doesn't hold back the others;
  results are put back in chunk order in the parent, and no worker runs
  more than a few chunks ahead of the one the parent waits for (memory
  stays flat however long the run).
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import pickle
import signal
import sys
import threading
import time
import traceback
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from typing import Any, TypeVar

from balancer import interrupts

C = TypeVar("C")
R = TypeVar("R")

# Chunks a worker holds at once: one playing, one ready, so it never idles
# waiting for the parent to hand it the next.
QUEUED_PER_WORKER = 2
# How far (in chunks per worker) the pool may play ahead of the chunk the
# parent waits for: bounds the results held for reordering.
AHEAD_PER_WORKER = 4
# How often a worker's fallback watch checks that its parent is alive.
PARENT_POLL_SECONDS = 0.2

_PR_SET_PDEATHSIG = 1  # <linux/prctl.h>
# Whether the kernel can kill a worker when its parent dies; where it can't,
# the worker's watch of its parent is all there is.
HAS_PDEATHSIG = sys.platform.startswith("linux")


def available_cores() -> int:
    """The cores this process may run on (its affinity mask, not the machine's count)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


# Told the number of processes playing, once they are all started.
Started = Callable[[int], None]


def in_process(
    play: Callable[[C], R],
    chunks: Sequence[C],
    workers: int = 1,
    started: Started | None = None,
) -> Iterator[R]:
    if started is not None:
        started(1)
    for chunk in chunks:
        yield play(chunk)


@dataclass
class _Worker:
    pid: int
    tasks: Connection  # parent -> worker: chunk numbers
    results: Connection  # worker -> parent: (chunk number, kind, payload)
    queued: int = 0


class WorkerDied(RuntimeError):
    """A worker process ended without sending a result (killed, out of memory, os._exit)."""


def process_pool(
    play: Callable[[C], R],
    chunks: Sequence[C],
    workers: int,
    started: Started | None = None,
) -> Iterator[R]:
    """`play` over `chunks` in `workers` forked processes, results yielded in chunk order.

    The first chunk that raises raises here, in chunk order (the same one a
    single process would raise); exceptions that can't be pickled arrive as
    a RuntimeError holding the worker's traceback.
    """
    workers = max(1, min(workers, len(chunks)))
    parent = os.getpid()
    pool: list[_Worker] = []
    group = 0  # the workers' process group: the first worker's pid
    try:
        for _ in range(workers):
            # Held: an interrupt must neither be dropped by an at-fork hook nor come
            # before the new worker is in `pool`, where _end can reach it.
            with interrupts.held():
                pool.append(_fork_worker(play, chunks, parent, group))
                group = group or pool[0].pid
        if started is not None:
            started(workers)
        yield from _deal(chunks, pool, workers)
    finally:
        _end(pool, group)


def _deal(chunks: Sequence[Any], pool: list[_Worker], workers: int) -> Iterator[Any]:
    by_results = {w.results: w for w in pool}
    done: dict[int, tuple[str, Any]] = {}
    handed = 0  # chunks handed out so far
    stop = len(chunks)  # no chunk past the first failed one is handed out
    for cursor in range(len(chunks)):
        while cursor not in done:
            limit = min(stop, cursor + workers * AHEAD_PER_WORKER)
            while handed < limit:
                worker = min(pool, key=lambda w: w.queued)
                if worker.queued >= QUEUED_PER_WORKER:
                    break
                try:
                    worker.tasks.send(handed)
                except OSError:  # its pipe's read end is gone: the worker died
                    raise WorkerDied(_death_note(worker)) from None
                worker.queued += 1
                handed += 1
            for ready in wait(list(by_results)):
                worker = by_results[ready]  # type: ignore[index]
                try:
                    index, kind, payload = worker.results.recv()
                except EOFError:
                    raise WorkerDied(_death_note(worker)) from None
                worker.queued -= 1
                done[index] = (kind, payload)
                if kind != "ok":
                    stop = min(stop, index + 1)
        kind, payload = done.pop(cursor)
        if kind == "raise":
            raise payload
        if kind == "bug":
            raise RuntimeError(f"a worker failed:\n{payload}")
        yield payload


def _death_note(worker: _Worker) -> str:
    """Why a worker's pipe closed early, for the error; the worker is reaped."""
    pid = worker.pid
    with contextlib.suppress(OSError):
        os.kill(pid, signal.SIGKILL)  # it closed its pipe: it is dead or must be
    try:
        _, status = os.waitpid(pid, 0)
    except ChildProcessError:
        return f"worker process {pid} ended without its result"
    worker.pid = 0  # reaped: that pid may now be anyone's, never signal it again
    if os.WIFEXITED(status):
        how = f"exit status {os.WEXITSTATUS(status)}"
    else:
        how = f"killed by {signal.Signals(os.WTERMSIG(status)).name}"
    return f"worker process {pid} ended without its result ({how})"


def _end(pool: list[_Worker], group: int) -> None:
    """Kill every worker and whatever stayed in their group, then reap the workers.

    No worker is reaped before the group is killed, so neither the group id
    nor a worker's pid can have been reused by an unrelated process.
    """
    if group:
        with contextlib.suppress(OSError):
            os.killpg(group, signal.SIGKILL)
    for worker in pool:
        if worker.pid:  # a worker that couldn't join the group
            with contextlib.suppress(OSError):
                os.kill(worker.pid, signal.SIGKILL)
    for worker in pool:
        if worker.pid:
            with contextlib.suppress(ChildProcessError):
                os.waitpid(worker.pid, 0)
        worker.tasks.close()
        worker.results.close()


def _fork_worker(
    play: Callable[[Any], Any], chunks: Sequence[Any], parent: int, group: int
) -> _Worker:
    task_read, task_write = os.pipe()
    result_read, result_write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the worker
        code = 70
        try:
            # Before anything else: the parent's handlers raise exceptions meant for it
            # (here they are interrupts.held()'s, which only note a signal; the note is
            # never acted on, as this process never leaves the held block).
            signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent ends its workers
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            signal.signal(signal.SIGHUP, signal.SIG_DFL)
            code = _worker(play, chunks, parent, group, task_read, result_write)
        finally:
            with contextlib.suppress(BaseException):
                sys.stdout.flush()
                sys.stderr.flush()
            os._exit(code)  # never the parent's clean-up, never a join of a plugin's children
    os.close(task_read)
    os.close(result_write)
    # Both sides set the group, so it is set before either goes on.
    with contextlib.suppress(OSError):
        os.setpgid(pid, group or pid)
    return _Worker(
        pid, Connection(task_write, readable=False), Connection(result_read, writable=False)
    )


def _worker(
    play: Callable[[Any], Any],
    chunks: Sequence[Any],
    parent: int,
    group: int,
    task_fd: int,
    result_fd: int,
) -> int:
    with contextlib.suppress(OSError):
        os.setpgid(0, group)
    _die_with(parent, group or os.getpid())
    _keep_only_fds(task_fd, result_fd)
    tasks = Connection(task_fd, writable=False)
    results = Connection(result_fd, readable=False)
    while True:
        try:
            index = tasks.recv()
        except EOFError:  # the parent is done with us
            return 0
        try:
            message = (index, "ok", play(chunks[index]))
        except BaseException as exc:  # a plugin may raise anything, SystemExit too
            message = (index, "raise", exc) if _pickles(exc) else (index, "bug", _trace())
        try:
            results.send(message)
        except (BrokenPipeError, OSError):  # the parent is gone
            return 1
        except BaseException:  # a result that can't be pickled
            results.send((index, "bug", _trace()))


def _pickles(exc: BaseException) -> bool:
    if not isinstance(exc, Exception):
        return False
    try:
        pickle.loads(pickle.dumps(exc))
    except Exception:
        return False
    return True


def _trace() -> str:
    return traceback.format_exc()


def _die_with(parent: int, group: int) -> None:
    """Make this worker die when `parent` does, however the parent dies."""
    if HAS_PDEATHSIG:
        with contextlib.suppress(OSError, AttributeError):
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:  # it died before the line above took effect
        os._exit(1)
    # The fallback where there is no prctl (and a second line where there is):
    # once the parent is gone the worker is someone else's child.
    threading.Thread(target=_watch_parent, args=(parent, group), daemon=True).start()


def _watch_parent(parent: int, group: int) -> None:
    while os.getppid() == parent:
        time.sleep(PARENT_POLL_SECONDS)
    # This worker, its siblings, a plugin's forks; but only in the workers' own
    # group (had joining it failed, this would be the parent's: a shell's pipeline).
    if os.getpgid(0) == group:
        with contextlib.suppress(OSError):
            os.killpg(group, signal.SIGKILL)
    os._exit(1)


def _keep_only_fds(*keep: int) -> None:
    """Close every inherited descriptor but stdout, stderr and `keep`; stdin from /dev/null.

    Other workers' pipes, the report file being written, a test harness's
    pipes: a worker (or a plugin's fork of it) holding them would keep them
    open after the parent is gone.
    """
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    low = 3
    for fd in sorted(keep):
        os.closerange(low, fd)
        low = fd + 1
    os.closerange(low, _max_fd())


def _max_fd() -> int:
    try:
        return min(os.sysconf("SC_OPEN_MAX"), 1 << 20)
    except (ValueError, OSError):
        return 4096
