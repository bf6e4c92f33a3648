"""The Dask backend: each chunk is a task on a Dask cluster; results come back in order.

Imported only for `--backend dask` (`balancer --version` never pays for
Dask). Without a scheduler address a LocalCluster is started for the run
(worker processes on 127.0.0.1, no dashboard) and stopped after it; with
one, the run uses that cluster and leaves it running.

A task carries the chunk (the variant and a range of game numbers) and
nothing else: a chunk is a pure function of it, so a task whose worker was
lost is simply played again elsewhere, with the same result. Only a few
tasks per worker are in flight ahead of the one the run waits for, so
results don't pile up on the cluster while an early chunk is slow.

A cluster fails like everything else, in one line (a UserError) and in bounded
time: a scheduler address where something else answers is found out before
the Client is made (whose handshake would wait for ever, or read garbage as a
frame's length), a scheduler lost mid-run ends the run as its connection
closes (nothing is written), and Dask's own logging is off while the run
holds the cluster.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import logging
import uuid
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import CancelledError  # distributed's FutureCancelledError is one
from typing import Any, TypeVar

from balancer.errors import UserError

C = TypeVar("C")
R = TypeVar("R")

# Times a task is retried after it raised (a lost worker's tasks are
# rescheduled by the scheduler itself, see distributed.scheduler.allowed-failures).
RETRIES = 3
AHEAD_PER_WORKER = 4
CONNECT_TIMEOUT = "20s"
# Seconds the first look at a scheduler's address waits (_refused_at_once).
PROBE_TIMEOUT = 5.0
# Seconds a scheduler has to say who it is (_answers_as_scheduler): CONNECT_TIMEOUT's.
IDENTITY_TIMEOUT = 20.0
INSTALL_HINT = "every Dask worker needs balancer (the same version) and any plugin module"


class WorkerSetupError(Exception):
    """A worker lacks what the run needs (a plugin module, the right balancer): one line."""


def cluster_map(
    play: Callable[[C], R],
    chunks: Sequence[C],
    workers: int,
    started: Callable[[int], None] | None = None,
    *,
    scheduler: str | None = None,
    modules: Sequence[str] = (),
    game_files: Sequence[Any] = (),
) -> Iterator[R]:
    """`play` over `chunks` as Dask tasks, results yielded in chunk order.

    `workers` sizes a local cluster (ignored with `scheduler`); `modules` are
    plugin modules every task imports first, so a worker without one says so;
    `game_files` are the designer's games the run plays (games.portable), which
    every task registers first: a worker never reads the file, which may not
    exist where it runs.
    """
    restore = _dask_quiet()
    lost = False
    try:
        with _client(scheduler, workers) as client:
            try:
                if started is not None:
                    started(sum(client.nthreads().values()))
                yield from _in_order(client, play, chunks, tuple(modules), tuple(game_files))
            except (CancelledError, OSError, TimeoutError) as exc:
                # The Client cancels every future the moment its scheduler's connection
                # closes (then tries to reconnect, in vain for a run: its tasks are gone).
                if client.status == "running":
                    raise
                lost = True
                where = scheduler or "of the run's own cluster"
                raise UserError(
                    f"lost the Dask scheduler {where} mid-run ({_reason(exc)}); "
                    "nothing was written",
                    key="--scheduler" if scheduler else None,
                ) from None
    finally:
        # A lost scheduler's Client logs its last words from Dask's own thread after
        # the run has ended (its failed reconnection, the tracebacks of its closing):
        # Dask stays quiet then, the run's one line said what happened.
        if not lost:
            restore()


def _reason(exc: BaseException) -> str:
    """A few words for why a cluster call failed: distributed's messages run to lines."""
    if isinstance(exc, CancelledError):
        return "the connection to it closed"
    return (str(exc) or type(exc).__name__).splitlines()[0]


def _dask_quiet() -> Callable[[], None]:
    """Dask's own logging off while the run holds the cluster, and what turns it back
    on: a lost scheduler is dozens of lines of reconnect attempts and tracebacks (36
    in test_dask_failures.py with this off) when the run says what matters in one
    line. Dask's levels come back afterwards, for a library caller's own use of Dask."""
    try:
        import distributed  # noqa: F401  (its import sets the levels kept here)
    except ImportError:
        return lambda: None  # _client says what to install

    names = ["distributed", "tornado", "asyncio"]
    # distributed's config gives some child loggers a level of their own (distributed.client).
    names += [n for n in logging.root.manager.loggerDict if n.startswith("distributed.")]
    loggers = [logging.getLogger(name) for name in names]
    levels = [logger.level for logger in loggers]
    for logger in loggers:
        if logger.name in names[:3] or logger.level != logging.NOTSET:
            logger.setLevel(logging.CRITICAL + 1)

    def restore() -> None:
        for logger, level in zip(loggers, levels, strict=True):
            logger.setLevel(level)

    return restore


@contextlib.contextmanager
def _client(scheduler: str | None, workers: int) -> Iterator[Any]:
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise UserError(
            "--backend dask needs Dask: pip install 'balancer[dask]'", key="--backend"
        ) from None
    if scheduler is not None:
        _refused_at_once(scheduler)
        _answers_as_scheduler(scheduler)
        try:
            client = Client(scheduler, timeout=CONNECT_TIMEOUT)
        except (OSError, TimeoutError, ValueError) as exc:
            raise UserError(
                f"can't reach a Dask scheduler at {scheduler}: {exc}", key="--scheduler"
            ) from None
        try:
            yield client
        finally:
            client.close()
        return
    cluster = LocalCluster(
        n_workers=max(1, workers),
        threads_per_worker=1,  # the engines are Python: one game at a time per process
        processes=True,
        host="127.0.0.1",
        dashboard_address=None,
        # The scheduler's own HTTP server (health, metrics) runs even without a
        # dashboard: on the loopback and any free port, never a taken 8787.
        scheduler_kwargs={"dashboard_address": "127.0.0.1:0"},
        silence_logs=logging.ERROR,
    )
    try:
        client = Client(cluster)
        try:
            yield client
        finally:
            client.close()
    finally:
        cluster.close()


def _refused_at_once(scheduler: str) -> None:
    """A UserError now if nothing listens at a tcp:// scheduler's address, or its host
    has no address: distributed's Client retries a refused connection until its timeout,
    20 s of silence for a mistyped port. A host that doesn't answer at all is left to the
    Client, which waits its timeout (a far cluster may take seconds to answer)."""
    import socket

    from distributed.comm.addressing import parse_address, parse_host_port

    try:
        protocol, location = parse_address(scheduler)
        host, port = parse_host_port(location)
    except ValueError:
        return  # not host:port: the Client's own error names what is wrong
    if protocol != "tcp":
        return
    try:
        socket.create_connection((host, port), timeout=PROBE_TIMEOUT).close()
    except (ConnectionRefusedError, socket.gaierror) as exc:
        reason = exc.strerror or str(exc)
        raise UserError(
            f"can't reach a Dask scheduler at {scheduler}: {reason}", key="--scheduler"
        ) from None
    except OSError:
        return  # no answer in time (or a network error the Client may get past): its call


def _answers_as_scheduler(scheduler: str) -> None:
    """A UserError unless a Dask scheduler says who it is at a tcp:// address within
    IDENTITY_TIMEOUT. distributed reads a peer's handshake with no timeout of its own:
    at a port where an HTTP server listens (waiting for a line that never comes) the
    Client waited for ever, whatever its timeout, and a peer that answers garbage was a
    MemoryError (its first eight bytes read as a frame's length). Other schemes need
    the cluster's security settings and are left to the Client."""
    from distributed.comm import connect
    from distributed.comm.addressing import parse_address

    try:
        if parse_address(scheduler)[0] != "tcp":
            return
    except ValueError:
        return  # the Client's own error names what is wrong

    async def identity() -> Any:
        # connect() retries what fails below the handshake (a refusal, a reset) until its
        # own timeout: twice the outer one, so that silence is always the outer timeout's,
        # and any other failure is in what the peer sent.
        comm = await connect(scheduler, timeout=2 * IDENTITY_TIMEOUT)
        try:
            await comm.write({"op": "identity", "reply": True})
            return await comm.read()
        finally:
            comm.abort()

    hint = "is it the scheduler's address (tcp://HOST:8786 by default)?"
    try:
        answer = _in_a_thread(lambda: asyncio.run(asyncio.wait_for(identity(), IDENTITY_TIMEOUT)))
    except TimeoutError:  # asyncio's is the builtin since Python 3.11
        raise UserError(
            f"no Dask scheduler answered at {scheduler} within {IDENTITY_TIMEOUT:.0f}s: {hint}",
            key="--scheduler",
        ) from None
    except Exception as exc:  # what breaks depends on what the peer sent: any is "not Dask"
        raise UserError(
            f"what answers at {scheduler} is not a Dask scheduler "
            f"({type(exc).__name__} reading its reply): {hint}",
            key="--scheduler",
        ) from None
    kind = answer.get("type") if isinstance(answer, dict) else None
    if kind != "Scheduler":
        said = f"a Dask {kind}" if isinstance(kind, str) else "something else"
        raise UserError(
            f"what answers at {scheduler} is {said}, not a Dask scheduler: {hint}",
            key="--scheduler",
        )


def _in_a_thread(ask: Callable[[], R]) -> R:
    """`ask()` on a thread of its own, its result or exception here: asyncio.run can't
    run where an event loop already runs (balancer.run called from a notebook), and a
    daemon thread leaves nothing to wait for after a Ctrl-C here."""
    import threading
    from concurrent.futures import Future

    outcome: Future[R] = Future()

    def run() -> None:
        try:
            outcome.set_result(ask())
        except BaseException as exc:  # all of it to the caller, which decides
            outcome.set_exception(exc)

    threading.Thread(target=run, name="balancer-dask-identity", daemon=True).start()
    return outcome.result()


def _in_order(
    client: Any,
    play: Callable[[C], R],
    chunks: Sequence[C],
    modules: tuple[str, ...],
    game_files: tuple[Any, ...],
) -> Iterator[R]:
    from balancer._version import __version__

    run = uuid.uuid4().hex[:12]
    threads = max(1, sum(client.nthreads().values()))
    ahead = max(2, threads * AHEAD_PER_WORKER)
    pending: dict[int, Any] = {}
    submitted = 0
    try:
        for cursor in range(len(chunks)):
            while submitted < min(len(chunks), cursor + ahead):
                pending[submitted] = client.submit(
                    _task,
                    play,
                    chunks[submitted],
                    modules,
                    game_files,
                    __version__,
                    key=f"balancer-{run}-chunk-{submitted}",
                    retries=RETRIES,
                    pure=False,
                )
                submitted += 1
            future = pending.pop(cursor)
            try:
                result = future.result()
            except WorkerSetupError as exc:
                raise UserError(str(exc)) from None
            except ImportError as exc:  # the task itself couldn't be unpickled on a worker
                raise UserError(
                    f"a Dask worker can't import {exc.name!r}: {INSTALL_HINT}"
                ) from None
            future.release()
            yield result
    finally:
        # A lost scheduler's Client has cancelled every future already, and can't be asked.
        if pending and client.status == "running":
            client.cancel(list(pending.values()))


def _task(
    play: Callable[[C], R],
    chunk: C,
    modules: tuple[str, ...],
    game_files: tuple[Any, ...],
    version: str,
) -> R:
    """Runs on a worker: check it has what the run needs, then play the chunk."""
    from balancer import games
    from balancer._version import __version__

    if __version__ != version:
        raise WorkerSetupError(
            f"Dask worker {_where()} has balancer {__version__}, this run {version}: {INSTALL_HINT}"
        )
    for module in modules:
        try:
            importlib.import_module(module)
        except Exception as exc:
            raise WorkerSetupError(
                f"plugin module {module!r} can't be imported on Dask worker {_where()} "
                f"({type(exc).__name__}: {exc}): {INSTALL_HINT}"
            ) from None
    for game_file in game_files:
        games.adopt(game_file)
    return play(chunk)


def _where() -> str:
    import socket

    try:
        from distributed import get_worker

        address = get_worker().address
    except (ImportError, ValueError):
        address = "?"
    return f"{address} (host {socket.gethostname()})"
