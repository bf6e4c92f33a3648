"""Compiled chunks on threads (sim/backends/threads.py): order, faults, stopping, and
which runs take them.

The process tests wait for the run to say it is playing (a line on stderr),
never for a time, and kill what they start in teardown.
"""

from __future__ import annotations

import dataclasses
import signal
import threading
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from balancer.config.variant import SeatSpec, load
from balancer.sim import runner
from balancer.sim.backends import local, threads
from balancer.sim.plan import decide
from tests.helpers import (
    VARIANTS,
    Processes,
    assert_the_first_failing_chunk_raises_in_order,
    balancer_command,
    subprocess_env,
)


def square(x: int) -> int:
    return x * x


@settings(max_examples=25)
@given(n=st.integers(0, 60), workers=st.integers(1, 5))
def test_the_threads_give_what_map_gives_in_order(n: int, workers: int) -> None:
    assert list(threads.thread_pool(square, range(n), workers)) == [x * x for x in range(n)]


def test_a_slow_chunk_doesnt_reorder_results() -> None:
    release = threading.Event()

    def held(x: int) -> int:
        if x == 0:  # the first chunk finishes last: every other thread is done before it
            release.wait()
        elif x == 7:
            release.set()
        return x

    assert list(threads.thread_pool(held, range(8), 3)) == list(range(8))


def test_the_first_failing_chunk_raises_after_the_ones_before_it() -> None:
    assert_the_first_failing_chunk_raises_in_order(threads.thread_pool)


def test_the_threads_play_only_a_few_chunks_ahead_of_the_reader() -> None:
    played: list[int] = []
    lock = threading.Lock()

    def note(x: int) -> int:
        with lock:
            played.append(x)
        return x

    workers = 2
    results = threads.thread_pool(note, range(1000), workers)
    assert next(results) == 0
    results.close()  # the reader stops: nothing more is handed out
    with lock:
        seen = len(played)
    assert seen <= 1 + workers * threads.AHEAD_PER_THREAD
    assert set(played) <= set(range(1 + workers * threads.AHEAD_PER_THREAD))


def test_started_is_told_the_threads_playing() -> None:
    told: list[int] = []
    assert list(threads.thread_pool(square, range(3), 8, told.append)) == [0, 1, 4]
    assert told == [3]  # never more threads than chunks


def test_the_gil_switches_quickly_while_the_threads_play_and_as_before_after() -> None:
    """A playing thread waits at most SWITCH_INTERVAL for the GIL; the caller's setting returns."""
    import sys

    before = sys.getswitchinterval()
    seen: list[float] = []

    def play(x: int) -> int:
        seen.append(sys.getswitchinterval())
        if x == 2:
            raise ValueError("chunk 2")
        return x

    assert list(threads.thread_pool(play, range(2), 2)) == [0, 1]
    assert seen and max(seen) <= threads.SWITCH_INTERVAL < before
    assert sys.getswitchinterval() == before
    with pytest.raises(ValueError, match="chunk 2"):
        list(threads.thread_pool(play, range(4), 2))
    assert sys.getswitchinterval() == before  # restored when a chunk fails too


# --- which runs take them ---------------------------------------------------------


def test_compiled_runs_play_on_threads_and_step_by_step_runs_in_processes() -> None:
    variant = load(VARIANTS / "fdc-5p-random.yaml")
    for workers in (1, 2):
        backend = runner.pick_backend(decide(variant), workers)
        assert backend.func is threads.thread_pool  # type: ignore[attr-defined]
        checked = runner.pick_backend(decide(variant, check=True), workers)
        assert checked.func is not threads.thread_pool  # type: ignore[attr-defined]
    plugin = dataclasses.replace(
        variant, seats=tuple(SeatSpec("tests.plugins:UniformLegal") for _ in variant.seats)
    )
    hosted = decide(plugin)
    assert runner.pick_backend(hosted, 1).func is local.process_pool  # type: ignore[attr-defined]


def test_threads_processes_and_one_thread_write_the_same_games(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(runner.CHECK_ENV, "0")  # the compiled path (the suite forces --check)
    variant = dataclasses.replace(load(VARIANTS / "kk-4p-bots.yaml"), games=3000)

    def in_processes(chunks, workers, started):  # type: ignore[no-untyped-def]
        return local.process_pool(runner.play_chunk, chunks, 2, started)

    one = runner.run(variant, workers=1).frame()
    assert one.equals(runner.run(variant, workers=3).frame())
    assert one.equals(runner.run(variant, workers=2, backend=in_processes).frame())


@pytest.mark.parametrize(
    ("sig", "code", "says"),
    [(signal.SIGINT, 130, "interrupted"), (signal.SIGTERM, 143, "terminated")],
)
def test_a_signal_stops_a_compiled_run_on_threads(
    tmp_path: Path, processes: Processes, sig: signal.Signals, code: int, says: str
) -> None:
    command = balancer_command("run", str(VARIANTS / "fdc-5p.yaml"))
    command += ["-n", "100000000", "-w", "2", "-o", str(tmp_path / "r")]
    run = processes.start(command, env={**subprocess_env(), runner.CHECK_ENV: "0"})
    line = run.wait_for_line("balancer: playing ")
    assert line.endswith("on 2 workers")
    run.proc.send_signal(sig)
    exit_code, _ = run.finish()
    said = [text for text in run.stderr if text.strip()]
    assert exit_code == code, said
    # Nothing between the run starting and the one line saying it stopped: no traceback.
    assert said[-2:] == [line, f"balancer: {says}; nothing was written."], said
    assert not (tmp_path / "r").exists()
