"""A Dask cluster fails like everything else: one line on stderr, exit 2, nothing
half-written, and no Dask logging on the way.

The cluster is real: `dask scheduler` and `dask worker` as processes of their own,
started and killed here, on 127.0.0.1 and ports the system picks. So is the run
(`python -m balancer`), since what it prints before it exits is what is checked.
The peers that are not schedulers (an HTTP server, one that answers garbage) are
threads of the test.
"""

from __future__ import annotations

import asyncio
import contextlib
import http.server
import logging
import os
import random
import re
import signal
import socket
import socketserver
import struct
import sys
import threading
from collections.abc import Callable, Hashable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from balancer.cli import main
from tests.helpers import (
    SAFETY_TIMEOUT,
    VARIANTS,
    Processes,
    Running,
    assert_untouched,
    balancer_command,
    contents,
)

distributed = pytest.importorskip("distributed")

DASK = str(Path(sys.executable).parent / "dask")  # the CLI of the Dask this Python has
SCHEDULER_AT = re.compile(r"Scheduler at:\s+(tcp://127\.0\.0\.1:\d+)")


class Hangs:
    """A plugin bot that, at its first move, connects to the test's port and waits there
    until the test lets go: the test knows a game is under way on the cluster by the
    connection it accepts, never by a length of time."""

    def __init__(self, port: int) -> None:
        self.port = port

    def act(self, view: Any, legal: Sequence[Hashable], rng: random.Random) -> Hashable:
        with socket.create_connection(("127.0.0.1", self.port)) as held:
            held.recv(1)  # until the test closes its end (or kills this worker)
        return legal[0]


def _next_line_with(process: Running, pattern: str) -> re.Match[str]:
    """The first match of `pattern` in what the process prints on stderr from now on."""
    while (found := re.search(pattern, process.wait_for_line(""))) is None:
        pass
    return found


def _scheduler(processes: Processes, tmp_path: Path) -> tuple[Running, str]:
    """A `dask scheduler` on the loopback, and the address it says it listens at."""
    scheduler = processes.start(
        [
            DASK,
            "scheduler",
            "--host",
            "127.0.0.1",
            "--port",
            "0",
            "--dashboard-address",
            "127.0.0.1:0",
        ],  # fmt: skip
        cwd=tmp_path,
    )
    return scheduler, _next_line_with(scheduler, SCHEDULER_AT.pattern).group(1)


def _worker(processes: Processes, tmp_path: Path, address: str) -> str:
    """One `dask worker` of one thread, once the scheduler has registered it: its address."""
    worker = processes.start(
        [
            DASK,
            "worker",
            address,
            "--host",
            "127.0.0.1",
            "--nworkers",
            "1",
            "--nthreads",
            "1",
            "--no-dashboard",
            "--local-directory",
            str(tmp_path / "dask-worker"),
        ],  # fmt: skip
        cwd=tmp_path,
    )
    itself = _next_line_with(worker, r"Start worker at:\s+(tcp://\S+)").group(1)
    _next_line_with(worker, "Registered to:")
    return itself


def _stderr_at_the_end(run: Running) -> tuple[int, list[str]]:
    """The run's exit code and every line it printed on stderr."""
    code, _ = run.finish()
    return code, run.stderr


# Killed (its connections reset), or stopped as Ctrl-C or a job system stops it (it
# closes them itself): the run meets a different end of the connection.
@pytest.mark.parametrize("stop", [signal.SIGKILL, signal.SIGTERM], ids=["killed", "terminated"])
def test_a_scheduler_lost_mid_run_is_one_line_and_the_last_report_stays(
    stop: signal.Signals, processes: Processes, tmp_path: Path
) -> None:
    out = tmp_path / "report"
    assert main(["run", "-q", str(VARIANTS / "kk-4p.yaml"), "-n", "6", "-o", str(out)]) == 0
    before = contents(out)
    scheduler, address = _scheduler(processes, tmp_path)
    _worker(processes, tmp_path, address)
    with socket.create_server(("127.0.0.1", 0)) as waiting:
        waiting.settimeout(SAFETY_TIMEOUT)  # a guard: a worker that never plays fails here
        hangs = f"{{bot: '{__name__}:Hangs', params: {{port: {waiting.getsockname()[1]}}}}}"
        variant = tmp_path / "v.yaml"
        variant.write_text(
            f"extends: {VARIANTS / 'fdc-base.yaml'}\nplayers: 3\nseats: [random, {hangs}, random]\n"
        )
        run = processes.start(
            balancer_command("run", "-q", str(variant), "-n", "20", "-o", str(out),
                             "--backend", "dask", "--scheduler", address, "--trust-plugins"),
            cwd=tmp_path,
        )  # fmt: skip
        in_play, _ = waiting.accept()  # a game of the run is under way on the worker
        with in_play:
            os.killpg(scheduler.pid, stop)
            code, err = _stderr_at_the_end(run)
    assert code == 2
    assert len(err) == 1, err
    assert err[0].startswith(f"balancer: error: --scheduler: lost the Dask scheduler {address}")
    assert "nothing was written" in err[0]
    assert_untouched(out, before)  # the last report as it was, no scratch folder beside it


def _held(port: int) -> int:
    """A chunk's play that waits at the test's port, as Hangs does, until let go."""
    Hangs(port).act(None, [port], random.Random())
    return port


@pytest.fixture
def dask_levels() -> Iterator[None]:
    """Dask's loggers' levels put back after the test, whatever the run left them at."""
    names = ["distributed", *(n for n in logging.root.manager.loggerDict if "distributed." in n)]
    levels = {name: logging.getLogger(name).level for name in names}
    yield
    for name, level in levels.items():
        logging.getLogger(name).setLevel(level)


@pytest.mark.usefixtures("dask_levels")
def test_dask_is_quiet_after_a_lost_scheduler_and_itself_again_after_a_good_run(
    processes: Processes, tmp_path: Path
) -> None:
    """A lost scheduler's Client logs from Dask's own thread after the run ended, when
    it happens to: Dask's loggers stay off then. After a good run (the control) they
    are as they were."""
    from balancer.errors import UserError
    from balancer.sim.backends.dask import cluster_map

    scheduler, address = _scheduler(processes, tmp_path)
    _worker(processes, tmp_path, address)
    client_log = logging.getLogger("distributed.client")
    level = client_log.level
    assert list(cluster_map(abs, [-1, -2], 1, scheduler=address)) == [1, 2]
    assert client_log.level == level
    with socket.create_server(("127.0.0.1", 0)) as waiting:
        waiting.settimeout(SAFETY_TIMEOUT)  # a guard, as in the CLI's test
        in_play: list[socket.socket] = []

        def lose_the_scheduler_once_in_play() -> None:
            with contextlib.suppress(TimeoutError):
                in_play.append(waiting.accept()[0])
            os.killpg(scheduler.pid, signal.SIGKILL)  # in play or not: the run must end

        threading.Thread(target=lose_the_scheduler_once_in_play, daemon=True).start()
        port = waiting.getsockname()[1]
        with pytest.raises(UserError, match="lost the Dask scheduler"):
            list(cluster_map(_held, [port], 1, scheduler=address))
    assert in_play, "the chunk never started"
    in_play[0].close()
    assert client_log.level > logging.CRITICAL


def test_the_address_is_asked_who_it_is_even_from_a_running_event_loop(
    processes: Processes, tmp_path: Path
) -> None:
    """A scheduler passes, though asked from inside an event loop (balancer.run in a
    notebook); a worker's address is named a worker's."""
    from balancer.errors import UserError
    from balancer.sim.backends.dask import _answers_as_scheduler

    _, address = _scheduler(processes, tmp_path)
    worker = _worker(processes, tmp_path, address)

    async def in_a_notebook(address: str) -> None:
        _answers_as_scheduler(address)

    asyncio.run(in_a_notebook(address))
    with pytest.raises(UserError, match=f"what answers at {worker} is a Dask Worker, not a"):
        asyncio.run(in_a_notebook(worker))


@pytest.fixture
def peer() -> Iterator[Callable[[type[socketserver.BaseRequestHandler]], str]]:
    """Serves a handler on the loopback in threads of the test: its tcp:// address."""
    servers: list[socketserver.ThreadingTCPServer] = []

    def serve(handler: type[socketserver.BaseRequestHandler]) -> str:
        server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), handler)
        server.daemon_threads = True
        servers.append(server)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        return f"tcp://127.0.0.1:{server.server_address[1]}"

    yield serve
    for server in servers:
        server.shutdown()
        server.server_close()


class QuietHTTP(http.server.SimpleHTTPRequestHandler):
    """A plain HTTP server, as `python -m http.server` is, without its access log."""

    def log_message(self, format: str, *args: Any) -> None:
        pass


def _garbage(first: bytes) -> type[socketserver.BaseRequestHandler]:
    """A peer that answers whatever it is sent with `first` and random bytes, then
    holds the connection open (closing it would be an answer of its own)."""

    class Garbage(socketserver.BaseRequestHandler):
        def handle(self) -> None:
            with contextlib.suppress(OSError):  # a run that hangs up at once is no failure here
                self.request.recv(1)
                self.request.sendall(first + random.Random(37).randbytes(4096))
                while self.request.recv(4096):  # until the run hangs up
                    pass

    return Garbage


# Random bytes as they come (read as a length past any array), and random bytes after
# a length of a terabyte, that distributed tried to allocate: the MemoryError of issue 37.
GARBAGE = {"random": b"", "a terabyte": struct.pack("<Q", 2**40)}
NOT_DASK = "what answers at {address} is not a Dask scheduler"


@pytest.mark.parametrize(
    ("handler", "said"),
    [
        pytest.param(QuietHTTP, "no Dask scheduler answered at {address} within 20s", id="http"),
        *(pytest.param(_garbage(first), NOT_DASK, id=name) for name, first in GARBAGE.items()),
    ],
)
def test_a_peer_that_is_no_scheduler_is_one_line(
    handler: type[socketserver.BaseRequestHandler],
    said: str,
    peer: Callable[[type[socketserver.BaseRequestHandler]], str],
    processes: Processes,
    tmp_path: Path,
) -> None:
    address = peer(handler)
    out = tmp_path / "report"
    run = processes.start(
        balancer_command("run", "-q", str(VARIANTS / "kk-4p.yaml"), "-n", "6", "-o", str(out),
                         "--backend", "dask", "--scheduler", address),
        cwd=tmp_path,
    )  # fmt: skip
    code, err = _stderr_at_the_end(run)
    assert code == 2
    assert len(err) == 1, err
    assert err[0].startswith(f"balancer: error: --scheduler: {said.format(address=address)}")
    assert not out.exists()
