"""Worker processes: same results at any count, and none outlives its run however it ends.

The process tests start `balancer run` in a session of its own, wait until
its two workers have forked and joined their process group (read from
/proc: no sleeps), signal the parent, then count the processes left in the
workers' group (after SIGINT and SIGTERM, with the test process as the run's
subreaper, so one the run left behind is still there to count). Waits are
polls with a generous timeout, a safety net only. Teardown kills whatever is
left in the session.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import balancer
from balancer.cli import main
from balancer.sim.backends.local import WorkerDied, available_cores, process_pool
from tests.helpers import assert_the_first_failing_chunk_raises_in_order

ROOT = Path(__file__).parents[2]
VARIANTS = ROOT / "variants"
PROC = Path("/proc")
SAFETY_NET = 60.0  # seconds; only a run that hangs (the bug) ever gets near it
_PR_SET_CHILD_SUBREAPER = 36  # <linux/prctl.h>

linux_only = pytest.mark.skipif(not PROC.is_dir(), reason="reads processes from /proc")


# --- the pool as a function: order, faults -------------------------------------------------


def square(x: int) -> int:
    return x * x


@settings(max_examples=12)
@given(n=st.integers(0, 40), workers=st.integers(1, 5))
def test_the_pool_gives_what_map_gives_in_order(n: int, workers: int) -> None:
    assert list(process_pool(square, range(n), workers)) == [x * x for x in range(n)]


def test_a_slow_worker_doesnt_reorder_results() -> None:
    def uneven(x: int) -> int:
        if x % 5 == 0:  # one chunk in five is slow, whichever worker gets it
            time.sleep(0.02)
        return x

    assert list(process_pool(uneven, range(60), 3)) == list(range(60))


def test_the_first_failing_chunk_raises_as_one_process_would() -> None:
    assert_the_first_failing_chunk_raises_in_order(process_pool)


def test_a_worker_that_dies_is_an_error_not_a_hang() -> None:
    def dies(x: int) -> int:
        if x == 3:
            os._exit(9)
        return x

    with pytest.raises(WorkerDied, match="exit status 9"):
        list(process_pool(dies, range(10), 2))


def test_same_records_at_any_worker_count() -> None:
    v = balancer.load_variant(VARIANTS / "kk-4p.yaml", games=90, seed=11)
    from balancer.sim import runner

    def table(workers: int) -> dict:
        return runner.run(v, workers=workers).columns()

    def same(a: dict, b: dict) -> bool:
        return a.keys() == b.keys() and all(list(a[k]) == list(b[k]) for k in a)

    one = table(1)
    assert len(one["game"]) == 90
    assert same(table(2), one)
    assert same(table(3), one)


def test_auto_is_every_core_this_process_may_use() -> None:
    from balancer.cli.options import WorkerCount

    assert WorkerCount().convert("auto", None, None) == available_cores() >= 1
    assert WorkerCount().convert("3", None, None) == 3
    if hasattr(os, "sched_getaffinity"):
        assert available_cores() == len(os.sched_getaffinity(0))


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["-w", "0"], "--workers"),
        (["-w", "many"], "neither a number of workers nor 'auto'"),
        (["--scheduler", "tcp://127.0.0.1:1"], "--scheduler: a scheduler is for --backend dask"),
    ],
)
def test_bad_placement_is_one_line_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], says: str
) -> None:
    code = main(["run", "-q", str(VARIANTS / "kk-4p.yaml"), "-n", "5", "-o", str(tmp_path), *args])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2
    assert len(err) == 1 and says in err[0], err
    assert not (tmp_path / "report.json").exists()


def test_version_imports_neither_dask_nor_the_backends() -> None:
    code = (
        "import sys; from balancer.cli import main; main(['--version']); "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('dask', 'distributed') "
        "or m.startswith('balancer.sim')))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    ).stdout
    # Commands are imported when asked for (balancer/cli/__init__.py): none of balancer.sim.
    assert out.strip().splitlines()[-1] == "[]"


# --- processes: nothing outlives the run ---------------------------------------------------


def _stat(pid: int) -> tuple[str, int, int, int] | None:
    """(state, ppid, process group, session) of a live process, or None."""
    try:
        text = (PROC / str(pid) / "stat").read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2 :].split()
    return fields[0], int(fields[1]), int(fields[2]), int(fields[3])


def _processes(zombies: bool = False) -> Iterator[tuple[int, tuple[str, int, int, int]]]:
    """Live processes; with `zombies`, also the dead ones not yet reaped."""
    for entry in PROC.iterdir():
        if entry.name.isdigit():
            stat = _stat(int(entry.name))
            if stat is not None and (zombies or stat[0] != "Z"):
                yield int(entry.name), stat


def _in_group(group: int, zombies: bool = False) -> list[int]:
    return [pid for pid, (_, _, pgrp, _) in _processes(zombies) if pgrp == group]


def _in_session(session: int, zombies: bool = False) -> list[int]:
    return [pid for pid, (_, _, _, sid) in _processes(zombies) if sid == session]


def _poll(condition: Callable[[], object], what: str) -> object:
    deadline = time.monotonic() + SAFETY_NET
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.01)
    raise AssertionError(f"still waiting, after {SAFETY_NET:.0f} s, for {what}")


@pytest.fixture
def session() -> Iterator[list[subprocess.Popen]]:
    """Runs started in sessions of their own; teardown kills all that is left in them."""
    started: list[subprocess.Popen] = []
    yield started
    for proc in started:
        for pid in _in_session(proc.pid):
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        proc.kill()
        proc.wait()


@pytest.fixture
def adopting(session: list[subprocess.Popen]) -> Iterator[list[subprocess.Popen]]:
    """`session`, with this process the runs' child subreaper while the test lasts.

    A process that a run leaves unreaped is then ours once the run has exited, and
    stays in /proc (a zombie at least) until we reap it, so "the run reaped its
    workers" can be read the moment the run has exited. Without it, a run that
    forgot its workers was caught only by chance: the kernel kills them a moment
    after their parent exits (PR_SET_PDEATHSIG), and init reaps them.
    """
    libc = ctypes.CDLL(None, use_errno=True)
    assert libc.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0, os.strerror(ctypes.get_errno())
    try:
        yield session
    finally:
        libc.prctl(_PR_SET_CHILD_SUBREAPER, 0, 0, 0, 0)
        runs = {proc.pid for proc in session}
        for pid, (_, ppid, _, sid) in list(_processes(zombies=True)):
            if ppid == os.getpid() and sid in runs and pid not in runs:  # adopted
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGKILL)
                with contextlib.suppress(ChildProcessError):
                    os.waitpid(pid, 0)


def _sighup_kills() -> None:
    signal.signal(signal.SIGHUP, signal.SIG_DFL)


def _start_run(session: list[subprocess.Popen], tmp_path: Path, *args: str) -> subprocess.Popen:
    proc = subprocess.Popen(
        [sys.executable, "-m", "balancer", "run", "-q", "-o", str(tmp_path / "r"), *args],
        cwd=ROOT,
        # faulthandler: a run that hangs can be made to print every thread's stack (_exit_code).
        env={**os.environ, "PYTHONPATH": str(ROOT), "PYTHONFAULTHANDLER": "1"},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,
        # A run started from a terminal: SIGHUP at its default (death), even when the
        # suite itself runs under nohup, which ignores it for every child it starts.
        preexec_fn=_sighup_kills,
    )
    session.append(proc)
    return proc


def _exit_code(parent: subprocess.Popen) -> int:
    """The run's exit code; if it is still running after SAFETY_NET, the test fails
    with the stack of every thread of it (SIGABRT makes faulthandler print them)."""
    try:
        return parent.wait(SAFETY_NET)
    except subprocess.TimeoutExpired:
        os.kill(parent.pid, signal.SIGABRT)
        parent.wait(SAFETY_NET)
        stacks = parent.stderr.read().decode(errors="replace")
        raise AssertionError(f"the run did not end; its threads were at:\n{stacks}") from None


def _workers_up(parent: subprocess.Popen, count: int) -> int:
    """Wait until `count` workers of `parent` have joined their own group; that group."""

    def joined() -> int | None:
        if parent.poll() is not None:
            raise AssertionError(f"the run ended first: {parent.stderr.read().decode()}")
        groups = {
            pgrp
            for _, (_, ppid, pgrp, _) in _processes()
            if ppid == parent.pid and pgrp != parent.pid
        }
        children = [pid for pid, (_, ppid, _, _) in _processes() if ppid == parent.pid]
        if len(children) == count and len(groups) == 1:
            return groups.pop()
        return None

    return int(_poll(joined, f"{count} workers of {parent.pid}"))  # type: ignore[arg-type]


LONG_RUN = (str(VARIANTS / "kk-4p.yaml"), "-n", "1000000", "-w", "2")


@linux_only
@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGHUP])
def test_workers_die_with_their_parent(
    session: list[subprocess.Popen], tmp_path: Path, sig: signal.Signals
) -> None:
    parent = _start_run(session, tmp_path, *LONG_RUN)
    group = _workers_up(parent, 2)
    assert len(_in_group(group)) == 2
    os.kill(parent.pid, sig)
    assert parent.wait(SAFETY_NET) == -sig
    _poll(lambda: not _in_group(group), f"the workers of group {group} to die")
    assert _in_group(group) == []


@linux_only
@pytest.mark.parametrize("workers", [1, 2])
@pytest.mark.parametrize(("sig", "code"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_interrupt_and_terminate_leave_no_process(
    adopting: list[subprocess.Popen], tmp_path: Path, sig: signal.Signals, code: int, workers: int
) -> None:
    """Even with one worker the games are played in a process of its own, so the
    parent (waiting on its pipe) takes the signal at once; measured by hand at
    0.05-0.09 s from the signal to the last process gone (the test does not time it)."""
    parent = _start_run(adopting, tmp_path, *LONG_RUN[:-1], str(workers))
    group = _workers_up(parent, workers)
    os.kill(parent.pid, sig)
    assert _exit_code(parent) == code
    # The parent killed and reaped its workers before it exited: one it left would be
    # ours now (adopting), dead or alive, so zombies count.
    assert _in_group(group, zombies=True) == []
    assert _in_session(parent.pid, zombies=True) == []
    assert "nothing was written" in parent.stderr.read().decode()
    assert not (tmp_path / "r").exists()


# An interrupt whose handler runs in an at-fork hook (logging registers one): the
# hook here sends SIGINT from inside the first fork's hook in the parent, the
# moment a loaded machine can make a real Ctrl-C or SIGTERM land in. "unheld"
# is the control: the pool without interrupts.held().
INTERRUPT_IN_AN_AT_FORK_HOOK = """
import contextlib, os, signal, sys
from balancer.sim.backends import local
if sys.argv[1] == "unheld":
    local.interrupts.held = contextlib.nullcontext
sent = []
def interrupt_once():
    if not sent:
        sent.append(True)
        os.kill(os.getpid(), signal.SIGINT)
os.register_at_fork(after_in_parent=interrupt_once)
try:
    list(local.process_pool(abs, range(4), 2))
except KeyboardInterrupt:
    try:
        os.waitpid(-1, os.WNOHANG)
    except ChildProcessError:
        print("interrupted, no worker left")
    else:
        print("interrupted, a worker left")
else:
    print("not interrupted")
"""


@linux_only
@pytest.mark.parametrize(
    ("pool", "outcome"),
    [("held", "interrupted, no worker left"), ("unheld", "not interrupted")],
)
def test_an_interrupt_during_a_fork_is_not_lost(pool: str, outcome: str) -> None:
    """The flake of test_interrupt_and_terminate_leave_no_process, made to happen every
    time: unheld, Python prints "Exception ignored" and the pool plays on."""
    run = subprocess.run(
        [sys.executable, "-c", INTERRUPT_IN_AN_AT_FORK_HOOK, pool],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=SAFETY_NET,
    )
    assert run.stdout.strip() == outcome, run.stderr


@linux_only
@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_plugin_that_forks_doesnt_keep_the_run_from_ending(
    session: list[subprocess.Popen], tmp_path: Path, workers: str
) -> None:
    variant = tmp_path / "v.yaml"
    variant.write_text(
        f"extends: {VARIANTS / 'fdc-base.yaml'}\nplayers: 3\n"
        "seats: [random, tests.plugins:Forks, random]\n"
    )
    # 4 games: 4 chunks, each building the plugin in a process of its own, so 4 forked
    # children hold the run's descriptors (one would hang the run if they were kept);
    # 20 games only made 20 of them.
    proc = _start_run(session, tmp_path, str(variant), "-n", "4", "-w", workers)
    # communicate() reads stderr to its end: a forked plugin holding it open would hang here.
    _, err = proc.communicate(timeout=SAFETY_NET)
    assert proc.returncode == 0, err.decode()
    assert (tmp_path / "r" / "report.json").is_file()
    assert _in_session(proc.pid) == []


def test_worker_keeps_no_descriptor_but_its_pipes(tmp_path: Path) -> None:
    """A descriptor open in the parent (another worker's pipe, the report being
    written) is closed in a worker; stdout and stderr are kept."""
    held = os.open(tmp_path / "held", os.O_CREAT | os.O_WRONLY)
    try:

        def open_fds(_: int) -> list[int]:
            return sorted(int(fd) for fd in os.listdir("/proc/self/fd"))

        (fds,) = list(process_pool(open_fds, [0], 1))
    finally:
        os.close(held)
    assert held not in fds
    assert {0, 1, 2} <= set(fds)
    assert len(fds) <= 3 + 2 + 1  # stdio, the two pipes, listdir's own


FALLBACK_ONLY = """
import time
from balancer.sim.backends import local
local.HAS_PDEATHSIG = False
list(local.process_pool(lambda x: time.sleep(3600), range(4), 2))
"""


@linux_only
def test_without_prctl_the_workers_watch_of_their_parent_kills_them(
    session: list[subprocess.Popen],
) -> None:
    """Where there is no PR_SET_PDEATHSIG (not Linux), a thread in each worker
    sees its parent gone and kills the workers' group."""
    parent = subprocess.Popen(
        [sys.executable, "-c", FALLBACK_ONLY],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    session.append(parent)
    group = _workers_up(parent, 2)
    os.kill(parent.pid, signal.SIGKILL)
    parent.wait(SAFETY_NET)
    _poll(lambda: not _in_group(group), f"the workers of group {group} to die")
