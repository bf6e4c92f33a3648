"""Faults and interrupts: nothing lost, nothing silent (issue: hostile input, faults)."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest

from balancer.cli import main
from balancer.config import variant
from balancer.errors import Terminated
from balancer.report import build as report
from balancer.sim import sink
from balancer.sim.play import Seat, play_game
from tests.helpers import (
    SAFETY_TIMEOUT,
    VARIANTS,
    Processes,
    assert_untouched,
    balancer_command,
    contents,
    one_error_line,
    variant_file,
)
from tests.plugins import FirstLegal


def variant_with(tmp_path: Path, seats: str) -> Path:
    return variant_file(tmp_path, "fdc-base.yaml", f"players: 3\ngames: 30\nseats: {seats}\n")


def previous_report(tmp_path: Path, command: str = "run") -> tuple[Path, dict[str, bytes]]:
    """A command's earlier output, which a failed or interrupted rerun must keep."""
    out = tmp_path / "out"
    args = [command, "-q", str(VARIANTS / "fdc-3p.yaml"), "-n", "10", "-o", str(out)]
    if command == "sweep":
        args += ["--set", "rules.neko_ni_koban=true,false"]
    assert main(args) == 0
    return out, contents(out)


@pytest.mark.parametrize("workers", ["1", "2"])
@pytest.mark.parametrize(
    ("bot", "says"),
    [
        ("tests.plugins:Illegal", "illegal move"),
        ("tests.plugins:Raises", "RuntimeError: the plugin broke"),
        ("{bot: 'tests.plugins:Slow', params: {seconds: 5}}", "time limit"),
        ("{bot: 'tests.plugins:FirstLegal', params: {unexpected: 1}}", "building the bot"),
        # A plugin's sys.exit or BaseException is its failure like any other,
        # whether the game runs in this process or in a worker.
        ("tests.plugins:Exits", "SystemExit: the plugin quit"),
        ("tests.plugins:RaisesBaseException", "_Boom: not an Exception"),
        # Its own copy of the legal moves: adding to it makes no move legal.
        ("tests.plugins:Smuggler", "illegal move 'smuggled'"),
        # Swallowing the time-out doesn't dodge the limit: the move is timed
        # after it returns, too.
        ("{bot: 'tests.plugins:SwallowsTheTimeout', params: {seconds: 1}}", "time limit"),
    ],
)
def test_a_broken_plugin_fails_the_run_naming_game_seed_seat_and_bot(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], bot: str, says: str, workers: str
) -> None:
    out, before = previous_report(tmp_path)
    path = variant_with(tmp_path, f"[random, {bot}, random]")
    # A bot that takes seconds is sure to pass 0.2 s; a fast one that fails its
    # own way gets all the time a stalled machine could take, so the time limit
    # can't answer first.
    limit = "0.2" if says == "time limit" else f"{SAFETY_TIMEOUT:g}"
    args = ["run", "-q", str(path), "-o", str(out), "--move-time-limit", limit]
    assert main([*args, "-n", "3", "-w", workers]) == 2
    line = one_error_line(capsys)
    for part in (says, "game 0", "seed 20261130", "seat 1", "tests.plugins:", "balancer replay"):
        assert part in line, line
    assert_untouched(out, before)


@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_plugin_catching_exceptions_is_still_stopped_at_the_limit(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], workers: str
) -> None:
    """The time-out is no Exception: a bot's `except Exception` can't hold it off,
    so the move stops at the limit, not when the bot chooses to return. Had the
    bot held it off, it would fail its own way when its time is up, and say so."""
    bot = "{bot: 'tests.plugins:BusyCatchingExceptions', params: {seconds: 60}}"
    path = variant_with(tmp_path, f"[random, {bot}, random]")
    args = ["run", "-q", str(path), "-o", str(tmp_path / "r"), "--move-time-limit", "0.2"]
    assert main([*args, "-n", "2", "-w", workers]) == 2
    line = one_error_line(capsys)
    assert "no move within the time limit of 0.2s" in line and "never stopped" not in line


class _Interrupted:
    def __init__(self, interrupt: type[BaseException]) -> None:
        self.interrupt = interrupt

    def act(self, view: object, legal: object, rng: object) -> object:
        raise self.interrupt


@pytest.mark.parametrize("interrupt", [KeyboardInterrupt, Terminated])
def test_an_interrupt_during_a_plugin_move_is_not_the_bots_fault(
    interrupt: type[BaseException],
) -> None:
    """Ctrl-C, or SIGTERM (which the CLI raises as Terminated), arriving while a
    plugin thinks stops the run as it would anywhere else."""
    v = variant.load(VARIANTS / "fdc-3p.yaml")
    seats = [
        Seat("p", _Interrupted(interrupt), time_limit=SAFETY_TIMEOUT) for _ in range(v.players)
    ]
    with pytest.raises(interrupt):
        play_game(v.spec, v.rules, seats, v.seed, 0)


def test_the_alarm_handler_is_set_once_per_game_and_restored(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    v = variant.load(VARIANTS / "fdc-3p.yaml")
    seats = [Seat("p", FirstLegal(), time_limit=SAFETY_TIMEOUT) for _ in range(v.players)]
    before = signal.getsignal(signal.SIGALRM)
    calls = []
    real = signal.signal

    def counted(signum: int, handler: object) -> object:
        calls.append(signum)
        return real(signum, handler)

    monkeypatch.setattr(signal, "signal", counted)
    play_game(v.spec, v.rules, seats, v.seed, 0)
    assert calls == [signal.SIGALRM, signal.SIGALRM]  # set, then restored
    assert signal.getsignal(signal.SIGALRM) is before
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)


def test_a_working_plugin_plays(tmp_path: Path) -> None:
    path = variant_with(tmp_path, "[random, 'tests.plugins:FirstLegal', heuristic]")
    # 8 games, not the 30 the faults here use: still several chunks, each with its own
    # plugin process, and 160 of the plugin's moves checked (6.0 -> 2.7 s).
    assert main(["run", "-q", str(path), "-n", "8", "-o", str(tmp_path / "r")]) == 0


def test_unwritable_output_is_one_line_and_keeps_the_old_report(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    out, before = previous_report(tmp_path)

    def disk_full(*args: object, **kwargs: object) -> None:
        raise OSError(28, "No space left on device")

    # Root ignores permission bits, so a full disk is simulated at the write: the
    # run's games.parquet put into the report folder (sim/sink.py streams it to disk).
    monkeypatch.setattr(report.pl.DataFrame, "write_parquet", disk_full)
    monkeypatch.setattr(sink.GamesFile, "place", disk_full)
    assert main(["run", "-q", str(VARIANTS / "fdc-3p.yaml"), "-n", "10", "-o", str(out)]) == 2
    line = one_error_line(capsys)
    assert "No space left on device" in line and str(out) in line
    assert_untouched(out, before)


def test_output_under_a_read_only_place(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # /proc refuses new folders even to root.
    code = main(["run", "-q", str(VARIANTS / "fdc-3p.yaml"), "-n", "5", "-o", "/proc/balancer/r"])
    assert code == 2 and "/proc" in one_error_line(capsys)


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes through permission bits")
def test_read_only_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    code = main(["run", "-q", str(VARIANTS / "fdc-3p.yaml"), "-n", "5", "-o", str(locked / "r")])
    assert code == 2
    one_error_line(capsys)


@pytest.mark.parametrize(
    ("command_name", "sig", "code", "says"),
    [
        ("run", signal.SIGINT, 130, "interrupted"),
        ("run", signal.SIGTERM, 143, "terminated"),
        ("sweep", signal.SIGINT, 130, "interrupted"),
        ("sweep", signal.SIGTERM, 143, "terminated"),
    ],
)
def test_interrupt_stops_workers_and_keeps_the_previous_report(
    tmp_path: Path,
    processes: Processes,
    command_name: str,
    sig: signal.Signals,
    code: int,
    says: str,
) -> None:
    # Each command replaces only its own kind of output folder.
    out, before = previous_report(tmp_path, command_name)
    # Not --quiet: with stderr a pipe, the run says when its workers are playing.
    command = balancer_command(command_name, str(VARIANTS / "fdc-5p-random.yaml"))
    command += ["-n", "100000", "-w", "2", "-o", str(out)]
    if command_name == "sweep":
        # Another variant's sweep over the first: replacing it takes --force (the
        # interrupt must still leave the first one whole).
        command += ["--set", "rules.neko_ni_koban=true,false", "--force"]
    run = processes.start(command)
    line = run.wait_for_line("balancer: playing ")
    assert line == "balancer: playing 100000 games of fdc-5p-random on 2 workers"
    workers = _children(run.pid)
    assert len(workers) == 2, f"workers of {run.pid}: {workers}"
    assert all(_alive(pid) for pid in workers)
    os.kill(run.pid, sig)
    exit_code, _ = run.finish()
    # Click ends the line a Ctrl-C interrupted with a bare newline of its own.
    said = [text for text in run.stderr if text.strip()]
    assert exit_code == code, said
    # Nothing between the run starting and the one line saying it stopped: no traceback.
    assert said[-2:] == [line, f"balancer: {says}; nothing was written."], said
    # The run kills and reaps its workers before it exits.
    assert not any(_alive(pid) for pid in workers)
    assert_untouched(out, before)


def _children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry.name))
    return found


def _alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


@pytest.mark.parametrize(
    ("command", "says"),
    [
        (["check", "-q", "{variant}", "-n", "30"], "Replay it: balancer replay {variant} --game 0"),
        (["tune", "-q", "{variant}", "--knob", "hand_size=4..5", "--target", "margin.mean=1"], ""),
        (["ladder", "-q", "fdc", "-p", "3", "--bots", "random,{bot}", "--allow-plugins"], ""),
    ],
)
def test_a_broken_bot_is_one_line_and_exit_2_from_every_command_that_plays(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: list[str], says: str
) -> None:
    """check, tune and ladder let a GameFault out as a traceback (exit 1), as run didn't."""
    bot = "tests.plugins:Raises"
    path = variant_file(
        tmp_path,
        "fdc-3p.yaml",
        f"seats: [random, '{bot}', random]\nexpect:\n  length.mean: {{within: [10, 30]}}\n",
    )
    out = tmp_path / "out"
    argv = [arg.format(variant=path, bot=bot) for arg in command]
    n = "60" if command[0] == "tune" else "30"  # tune gives each of its 2 values 30 at least
    assert main([*argv, "-n", n, "-o", str(out)] if command[0] != "check" else argv) == 2
    line = one_error_line(capsys)
    assert f"seat {2 if command[0] == 'ladder' else 1}, bot '{bot}'" in line, line
    assert "RuntimeError: the plugin broke" in line and says.format(variant=path) in line
    assert not out.exists()
    # The control: the same command with a bot that plays plays to the end.
    good = variant_file(
        tmp_path, "fdc-3p.yaml", "expect:\n  length.mean: {within: [10, 30]}\n", "g.yaml"
    )
    argv = [arg.format(variant=good, bot="tests.plugins:FirstLegal") for arg in command]
    assert main([*argv, "-n", n] if command[0] != "check" else argv) in (0, 3, 4)
