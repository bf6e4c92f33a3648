"""What a plugin bot's process can't do (issue 32, Deliver 1 and 5): leave a process
behind after the run, however detached; fill the disk through its log; take the
machine's memory.

The plugins are in tests/plugins.py. A process counts as gone when /proc no longer
has it (or has it as a zombie, which runs no code); each count has a control that
shows the same count sees a process that did survive.
"""

from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from balancer.bots import host
from balancer.cli import main
from tests.helpers import SAFETY_TIMEOUT, VARIANTS, one_error_line, subprocess_env

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="the subreaper and /proc are Linux's"
)


def variant_file(tmp_path: Path, seat: str, games: int = 4) -> Path:
    path = tmp_path / "v.yaml"
    path.write_text(
        f"extends: {VARIANTS / 'fdc-base.yaml'}\nplayers: 3\ngames: {games}\n"
        f"seats: [random, {seat}, random]\n"
    )
    return path


def _alive(pid: int) -> bool:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
    except FileNotFoundError:
        return False
    # The plugin's own sleep, not another process given the same pid since.
    return "State:\tZ" not in status and b"300.32" in cmdline


def survivors(pids: list[int]) -> list[int]:
    """The pids alive now. Called once the keepers are gone: a keeper exits only after it
    has killed and reaped every descendant, so nothing is left to wait for."""
    return [pid for pid in pids if _alive(pid)]


def _running(pid: int) -> bool:
    """Whether `pid` exists and has not exited (a zombie has exited)."""
    try:
        return "State:\tZ" not in Path(f"/proc/{pid}/status").read_text()
    except FileNotFoundError:
        return False


def _parent(pid: int) -> int:
    status = Path(f"/proc/{pid}/status").read_text()
    return int(next(line for line in status.splitlines() if line.startswith("PPid:")).split()[1])


def wait_until_gone(pids: list[int]) -> None:
    """Until every process of `pids` has exited, told by the kernel: a pidfd turns
    readable when its process exits (SAFETY_TIMEOUT is only a net for the bug of a
    keeper that never ends)."""
    for pid in pids:
        try:
            fd = os.pidfd_open(pid)
        except ProcessLookupError:
            continue  # gone already
        try:
            ready, _, _ = select.select([fd], [], [], SAFETY_TIMEOUT)
            assert ready or not _running(pid), "a keeper never ended"
        finally:
            os.close(fd)


def wait_until_sleeping(pids: list[int]) -> None:
    """Until each process shows the sleep's command line. Popen returns once the child
    has exec'd, but a vforked parent may be let go before the kernel has set the new
    program's arguments, and no event marks that: the check is polled, bounded."""
    deadline = time.monotonic() + SAFETY_TIMEOUT
    while not all(_alive(pid) for pid in pids):
        assert time.monotonic() < deadline, "the sleep never started"
        time.sleep(0.01)


def _pids(pid_file: Path) -> list[int]:
    return [int(line) for line in pid_file.read_text().split()]


def _runs_keep(pid: int) -> bool:
    return b"balancer.bots.host import keep" in Path(f"/proc/{pid}/cmdline").read_bytes()


def _keeper(pid: int) -> int:
    """The plugin keeper above `pid`: the topmost of its ancestors running host.keep (the
    bot's process, forked from the keeper, shows the keeper's command line too)."""
    while pid > 1 and not _runs_keep(pid):
        pid = _parent(pid)
    while pid > 1 and _runs_keep(_parent(pid)):
        pid = _parent(pid)
    assert pid > 1, "no keeper above the sleep"
    return pid


def _detaches(pid_file: Path, **more: bool) -> str:
    params = "".join(f", {name}: {str(value).lower()}" for name, value in more.items())
    return f"{{bot: 'tests.plugins:Detaches', params: {{pid_file: '{pid_file}'{params}}}}}"


def test_the_survivor_count_sees_a_detached_sleep_that_nobody_kills() -> None:
    """The control: the same sleep, started here in a session of its own, survives."""
    sleeper = subprocess.Popen(["sleep", "300.32"], start_new_session=True)
    try:
        wait_until_sleeping([sleeper.pid])
        assert survivors([sleeper.pid]) == [sleeper.pid]
    finally:
        sleeper.kill()
        sleeper.wait()
    assert survivors([sleeper.pid]) == []


def test_without_the_subreaper_a_detached_grandchild_outlives_the_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The control of the run's count: with the keeper no subreaper (a test's switch), only
    the bot's process group is killed, and the sleep, in a session of its own, lives on."""
    monkeypatch.setattr(host, "_subreaper", False)
    pid_file = tmp_path / "pids"
    path = variant_file(tmp_path, _detaches(pid_file))
    try:
        assert main(["run", "-q", str(path), "-o", str(tmp_path / "r"), "-w", "1"]) == 0
        pids = _pids(pid_file)
        assert pids and survivors(pids) == pids
    finally:
        for pid in _pids(pid_file) if pid_file.exists() else []:
            if _alive(pid):
                os.kill(pid, signal.SIGKILL)


@pytest.mark.parametrize("orphan", [False, True], ids=["setsid", "setsid-and-orphaned"])
@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_detached_grandchild_dies_with_a_run_that_ends(
    tmp_path: Path, workers: str, orphan: bool
) -> None:
    pid_file = tmp_path / "pids"
    path = variant_file(tmp_path, _detaches(pid_file, orphan=orphan))
    assert main(["run", "-q", str(path), "-o", str(tmp_path / "r"), "-w", workers]) == 0
    pids = _pids(pid_file)
    assert pids  # each bot process started its sleep
    assert survivors(pids) == []


@pytest.mark.parametrize("orphan", [False, True], ids=["setsid", "setsid-and-orphaned"])
@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_detached_grandchild_dies_when_the_run_is_killed_outright(
    tmp_path: Path, workers: str, orphan: bool
) -> None:
    pid_file = tmp_path / "pids"
    path = variant_file(tmp_path, _detaches(pid_file, hang=True, orphan=orphan))
    command = [sys.executable, "-m", "balancer", "run", "-q", str(path)]
    command += ["-o", str(tmp_path / "r"), "-w", workers, "--move-time-limit", "600"]
    run = subprocess.Popen(
        command, env=subprocess_env(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        deadline = time.monotonic() + SAFETY_TIMEOUT
        while not (pid_file.exists() and pid_file.read_text().endswith("\n")):
            assert run.poll() is None and time.monotonic() < deadline
            time.sleep(0.05)
        pids = _pids(pid_file)
        wait_until_sleeping(pids)  # the run is under way, its sleep too
        keepers = [_keeper(pid) for pid in pids]
        if orphan:
            # Its parent gone (before the pid was written), the sleep was taken in by
            # the keeper, not by init.
            assert [_parent(pid) for pid in pids] == keepers
        run.send_signal(signal.SIGKILL)
        run.wait()
        wait_until_gone(keepers)
        assert survivors(pids) == []
    finally:
        run.kill()
        run.wait()
        for pid in _pids(pid_file) if pid_file.exists() else []:
            if _alive(pid):
                os.kill(pid, signal.SIGKILL)


# -- Deliver 5: the log is capped, the memory limited ---------------------------------


FLOODS = "{bot: 'tests.plugins:Floods', params: {lines: 2000}}"
CUT_LINE = (
    b"\n[balancer: this command's plugin bots wrote more than 1M of output "
    b"($BALANCER_PLUGIN_LOG_LIMIT); the rest is cut]\n"
)


@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_flooding_plugins_log_stops_at_its_limit_with_one_line_saying_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, workers: str
) -> None:
    """Two flooding seats, 200 KB a move each (some 4 MB a game), in several bot
    processes: the log grows by 1M in all (from where the command found it), then the
    one line, and the run ends."""
    log = tmp_path / "plugin.log"
    before = b"an earlier command's line\n"
    log.write_bytes(before)
    monkeypatch.setenv(host.LOG_ENV, str(log))
    monkeypatch.setenv(host.LOG_LIMIT_ENV, "1M")
    path = tmp_path / "v.yaml"
    path.write_text(
        f"extends: {VARIANTS / 'fdc-base.yaml'}\nplayers: 3\ngames: 4\n"
        f"seats: [{FLOODS}, random, {FLOODS}]\n"
    )
    args = ["run", "-q", str(path), "-o", str(tmp_path / "r"), "-w", workers]
    assert main(args) == 0
    text = log.read_bytes()
    assert text[: len(before)] == before
    flood = text[len(before) : len(before) + (1 << 20)]
    assert len(flood) == 1 << 20 and set(flood) == set(b"F\n")
    assert text[len(before) + (1 << 20) :] == CUT_LINE


def test_each_command_has_its_own_log_budget(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The budget is the command's, not the file's: a second run adds its own 1M and line."""
    log = tmp_path / "plugin.log"
    monkeypatch.setenv(host.LOG_ENV, str(log))
    monkeypatch.setenv(host.LOG_LIMIT_ENV, "1M")
    path = variant_file(tmp_path, FLOODS, games=1)
    for out in ("r1", "r2"):
        assert main(["run", "-q", str(path), "-o", str(tmp_path / out)]) == 0
    text = log.read_bytes()
    assert len(text) == 2 * ((1 << 20) + len(CUT_LINE)) and text.count(CUT_LINE) == 2


def test_a_bot_built_outside_a_command_has_a_log_budget_of_its_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As a Dask worker builds its bots: no command's budget to share, so each bot's
    process may add the limit, and its line says so. Two bots, two budgets."""
    from balancer.rng import Stream

    log = tmp_path / "plugin.log"
    monkeypatch.setenv(host.LOG_ENV, str(log))
    monkeypatch.setenv(host.LOG_LIMIT_ENV, "100K")
    for _ in range(2):
        bot = host.HostedBot("tests.plugins:Floods", {"lines": 2000}, move_limit=60.0)
        try:
            assert bot.act(None, (0, 1), Stream(1, 0, 0)) == 0  # 200 KB of output
        finally:
            bot.close()
    line = (
        b"\n[balancer: this bot's process wrote more than 100K of output "
        b"($BALANCER_PLUGIN_LOG_LIMIT); the rest is cut]\n"
    )
    kept = (b"F" * 99 + b"\n") * 1024  # 100K: 1,024 of the flood's 100-byte lines
    assert log.read_bytes() == 2 * (kept + line)


@pytest.mark.parametrize("given", ["lots", "0", "-5M"])
def test_a_wrong_plugin_log_limit_is_refused_before_any_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, given: str
) -> None:
    monkeypatch.setenv(host.LOG_LIMIT_ENV, given)
    path = variant_file(tmp_path, "random")
    assert main(["run", "-q", str(path), "-o", str(tmp_path / "r")]) == 2
    line = one_error_line(capsys)
    assert f"BALANCER_PLUGIN_LOG_LIMIT: {given!r} is not a size" in line, line
    assert not (tmp_path / "r").exists()


def test_a_quiet_plugins_log_is_whole(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The control: a plugin writing less than the limit has every line in the log,
    the last move's too (the keeper copies what is in the pipe before it kills)."""
    log, tally = tmp_path / "plugin.log", tmp_path / "moves"
    monkeypatch.setenv(host.LOG_ENV, str(log))
    seat = f"{{bot: 'tests.plugins:Floods', params: {{lines: 3, tally: '{tally}'}}}}"
    path = variant_file(tmp_path, seat, games=2)
    assert main(["run", "-q", str(path), "-o", str(tmp_path / "r"), "-w", "1"]) == 0
    moves = len(tally.read_bytes())
    assert moves > 0 and log.read_bytes() == (b"F" * 99 + b"\n") * (3 * moves)


@pytest.mark.parametrize(("megabytes", "fails"), [(64, False), (512, True)])
def test_a_plugin_over_its_memory_limit_fails_the_run_naming_the_bot(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], megabytes: int, fails: bool
) -> None:
    """Under --plugin-memory 256M, 64 MB more is allowed (the control), 512 MB is not."""
    seat = f"{{bot: 'tests.plugins:Hog', params: {{megabytes: {megabytes}}}}}"
    path = variant_file(tmp_path, seat, games=2)
    args = ["run", "-q", str(path), "-o", str(tmp_path / "r"), "--plugin-memory", "256M"]
    assert main(args) == (2 if fails else 0)
    if fails:
        line = one_error_line(capsys)
        assert "seat 1, bot 'tests.plugins:Hog(megabytes=512)'" in line
        assert "the bot ran out of memory: its process may map at most 256M" in line
        assert "--plugin-memory" in line
        assert not (tmp_path / "r").exists()


@pytest.mark.parametrize(
    ("given", "says"),
    [
        ("0", "'0' is not a size"),
        ("lots", "'lots' is not a size"),
        ("3X", "'3X' is not a size"),
        ("1K", "at least 16M"),
        ("nan", "'nan' is not a size"),
        ("", "'' is not a size"),
    ],
)
def test_a_wrong_plugin_memory_is_refused_before_any_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], given: str, says: str
) -> None:
    path = variant_file(tmp_path, "random")
    assert main(["run", "-q", str(path), "-o", str(tmp_path / "r"), "--plugin-memory", given]) == 2
    line = one_error_line(capsys)
    assert "--plugin-memory" in line and says in line, line
    assert not (tmp_path / "r").exists()


@pytest.mark.parametrize(
    ("given", "limit"), [("4G", 4 << 30), ("300m", 300 << 20), ("1.5G", 3 << 29)]
)
def test_plugin_memory_takes_a_size_with_its_unit(
    tmp_path: Path, given: str, limit: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[int] = []
    monkeypatch.setattr(host, "set_memory_limit", seen.append)
    path = variant_file(tmp_path, "random", games=1)
    assert main(["run", "-q", str(path), "-o", str(tmp_path / "r"), "--plugin-memory", given]) == 0
    assert seen == [limit]
