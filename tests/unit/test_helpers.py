"""The helpers the other tests lean on: a process a test starts ends with the test,
and a wait for a line fails, saying why, rather than hangs."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.helpers import Processes

# Forks a child that waits for a signal, says its pid, then waits too.
PARENT_AND_CHILD = (
    "import os, signal, sys\n"
    "child = os.fork()\n"
    "if child == 0:\n"
    "    signal.pause()\n"
    "print(f'child {child}', file=sys.stderr, flush=True)\n"
    "signal.pause()\n"
)


def test_kill_all_ends_the_whole_group_children_too(processes: Processes) -> None:
    running = processes.start([sys.executable, "-c", PARENT_AND_CHILD])
    running.wait_for_line("child ")
    processes.kill_all()  # what the fixture's teardown does
    assert running.proc.returncode == -9
    # The child held the stderr pipe too: its reader reached the end only once both had exited.
    assert not running.reader.is_alive()


def test_waiting_for_a_line_that_never_comes_fails_when_the_process_exits(
    processes: Processes,
) -> None:
    command = [sys.executable, "-c", "import sys; print('other', file=sys.stderr)"]
    running = processes.start(command)
    with pytest.raises(pytest.fail.Exception, match="exited with code 0 before printing"):
        running.wait_for_line("balancer: playing ")
    assert running.stderr == ["other"]


def test_run_captures_output_and_raises_on_failure(processes: Processes) -> None:
    assert processes.run([sys.executable, "-c", "print('out')"]).stdout == "out\n"
    with pytest.raises(subprocess.CalledProcessError):
        processes.run([sys.executable, "-c", "raise SystemExit(3)"])
