"""Faults and interrupts: nothing lost, nothing silent (issue: hostile input, faults)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from balancer import report
from balancer.cli import main

ROOT = Path(__file__).parent.parent
VARIANTS = ROOT / "variants"


def variant_with(tmp_path: Path, seats: str, extra: str = "") -> Path:
    path = tmp_path / "v.yaml"
    path.write_text(
        f"extends: {VARIANTS / 'fdc-base.yaml'}\nplayers: 3\ngames: 30\nseats: {seats}\n{extra}"
    )
    return path


def previous_report(tmp_path: Path) -> tuple[Path, dict[str, bytes]]:
    out = tmp_path / "out"
    assert main(["run", "-q", str(VARIANTS / "fdc-3p.yaml"), "-n", "10", "-o", str(out)]) == 0
    return out, {p.name: p.read_bytes() for p in out.iterdir()}


def assert_untouched(out: Path, before: dict[str, bytes]) -> None:
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before
    leftovers = [p.name for p in out.parent.iterdir() if p.name.startswith(".")]
    assert leftovers == []


@pytest.mark.parametrize(
    ("bot", "says"),
    [
        ("tests.plugins:Illegal", "illegal move"),
        ("tests.plugins:Raises", "RuntimeError: the plugin broke"),
        ("{bot: 'tests.plugins:Slow', params: {seconds: 5}}", "time limit"),
        ("{bot: 'tests.plugins:FirstLegal', params: {unexpected: 1}}", "building the bot"),
    ],
)
def test_a_broken_plugin_fails_the_run_naming_game_seed_seat_and_bot(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], bot: str, says: str
) -> None:
    out, before = previous_report(tmp_path)
    path = variant_with(tmp_path, f"[random, {bot}, random]")
    code = main(["run", "-q", str(path), "-o", str(out), "--move-time-limit", "0.2"])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2
    assert len(err) == 1, err
    line = err[0]
    for part in (says, "game 0", "seed 20261130", "seat 1", "tests.plugins:", "balancer replay"):
        assert part in line, line
    assert_untouched(out, before)


def test_a_working_plugin_plays(tmp_path: Path) -> None:
    path = variant_with(tmp_path, "[random, 'tests.plugins:FirstLegal', heuristic]")
    assert main(["run", "-q", str(path), "-o", str(tmp_path / "r")]) == 0


def test_unwritable_output_is_one_line_and_keeps_the_old_report(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    out, before = previous_report(tmp_path)

    def disk_full(*args: object, **kwargs: object) -> None:
        raise OSError(28, "No space left on device")

    # Root ignores permission bits, so a full disk is simulated at the write.
    monkeypatch.setattr(report.pl.DataFrame, "write_parquet", disk_full)
    code = main(["run", "-q", str(VARIANTS / "fdc-3p.yaml"), "-n", "10", "-o", str(out)])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1
    assert "No space left on device" in err[0] and str(out) in err[0]
    assert_untouched(out, before)


def test_output_under_a_read_only_place(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # /proc refuses new folders even to root.
    code = main(["run", "-q", str(VARIANTS / "fdc-3p.yaml"), "-n", "5", "-o", "/proc/balancer/r"])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and "/proc" in err[0]


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes through permission bits")
def test_read_only_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    code = main(["run", "-q", str(VARIANTS / "fdc-3p.yaml"), "-n", "5", "-o", str(locked / "r")])
    assert code == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 1


@pytest.mark.parametrize(
    ("command_name", "sig", "code"),
    [
        ("run", signal.SIGINT, 130),
        ("run", signal.SIGTERM, 143),
        ("sweep", signal.SIGINT, 130),
        ("sweep", signal.SIGTERM, 143),
    ],
)
def test_interrupt_stops_workers_and_keeps_the_previous_report(
    tmp_path: Path, command_name: str, sig: signal.Signals, code: int
) -> None:
    out, before = previous_report(tmp_path)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-m", "balancer", command_name]
    command += [str(VARIANTS / "fdc-5p-random.yaml"), "-n", "100000", "-w", "2", "-q"]
    command += ["-o", str(out)]
    if command_name == "sweep":
        command += ["--set", "rules.neko_ni_koban=true,false"]
    proc = subprocess.Popen(
        command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True
    )
    time.sleep(2.5)  # well into the run: workers started and playing
    assert proc.poll() is None, proc.communicate()
    workers = _children(proc.pid)
    assert workers, "no worker processes found"
    sent = time.monotonic()
    os.kill(proc.pid, sig)
    _, err = proc.communicate(timeout=10)
    assert time.monotonic() - sent < 2.0
    assert proc.returncode == code, err
    assert b"Traceback" not in err
    assert len(err.decode().strip().splitlines()) == 1
    deadline = time.monotonic() + 2.0
    while any(_alive(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
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
