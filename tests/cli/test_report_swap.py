"""The report swap (issue 32, Deliver 2 and 3): one step where the system has one, the
folder a killed two-rename swap set aside found by whoever comes next, and a full disk
(simulated at the write: OSError ENOSPC, or polars' own words for it) or a wrong
`tune --sweep` said in one line with nothing left behind.
"""

from __future__ import annotations

import errno
import os
import shutil
import sys
from pathlib import Path

import polars as pl
import pytest

from balancer.cli import main
from balancer.report import folder as folder_mod
from tests.helpers import FDC3, assert_untouched, contents, one_error_line

pytestmark = pytest.mark.usefixtures("engine_unchecked")


def report_at(out: Path, games: int = 3) -> dict[str, bytes]:
    assert main(["run", "-q", FDC3, "-n", str(games), "-o", str(out)]) == 0
    return contents(out)


# -- Deliver 2: the swap --------------------------------------------------------------


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="renameat2 is Linux's")
def test_a_report_replaces_the_old_in_one_step_never_renaming_it_away(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With RENAME_EXCHANGE there is no moment without a folder at the name: the old
    report is never renamed away from it (any rename of the target fails this test)."""
    out = tmp_path / "r"
    first = report_at(out)
    renamed: list[tuple[str, str]] = []
    real_rename = os.rename

    def watched(a: str | Path, b: str | Path) -> None:
        assert Path(a) != out, "the report was renamed away from its name"
        renamed.append((str(a), str(b)))
        real_rename(a, b)

    monkeypatch.setattr(folder_mod.os, "rename", watched)
    second = report_at(out, games=4)
    assert second != first and (out / "report.json").is_file()
    assert renamed == []  # the swap was the exchange alone
    assert [p.name for p in tmp_path.iterdir()] == ["r"]  # the old one removed


def test_where_there_is_no_exchange_two_renames_do_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "r"
    report_at(out)
    monkeypatch.setattr(folder_mod, "_renameat2", lambda: None)
    second = report_at(out, games=4)
    assert contents(out) == second and b'"games": 4' in second["report.json"]
    assert [p.name for p in tmp_path.iterdir()] == ["r"]


def test_the_exchange_swaps_two_folders_or_says_it_cannot(tmp_path: Path) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir()
    b.mkdir()
    (a / "x").write_text("a")
    (b / "x").write_text("b")
    if folder_mod.exchange(a, b):
        assert (a / "x").read_text() == "b" and (b / "x").read_text() == "a"
    else:  # no renameat2 here: nothing moved
        assert (a / "x").read_text() == "a" and (b / "x").read_text() == "b"
    if folder_mod._renameat2() is not None:  # any other failure is the system's error
        with pytest.raises(FileNotFoundError):
            folder_mod.exchange(tmp_path / "none", b)


def killed_between_the_renames(tmp_path: Path) -> tuple[Path, Path, dict[str, bytes]]:
    """What a run killed between the two renames leaves: `.r.old-PID`, nothing at r."""
    out = tmp_path / "r"
    before = report_at(out)
    aside = tmp_path / ".r.old-99999"
    os.rename(out, aside)
    return out, aside, before


@pytest.mark.parametrize(
    "command",
    [
        ["csv", "{r}", "-o", "{tmp}/tables"],
        ["diff", "-q", "{r}", "{r}"],
        ["replay", "{r}", "--game", "0"],
        ["run", "-q", FDC3, "-n", "3", "-o", "{r}"],
    ],
)
def test_every_reader_and_writer_puts_back_a_report_set_aside(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: list[str]
) -> None:
    out, aside, before = killed_between_the_renames(tmp_path)
    args = [arg.format(r=out, tmp=tmp_path) for arg in command]
    assert main(args) == 0, capsys.readouterr().err
    assert not aside.exists()
    if command[0] != "run":
        assert contents(out) == before  # the very report, put back


def test_a_report_set_aside_under_a_live_runs_lock_is_named_not_taken(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """While another run holds the folder's lock, a reader moves nothing and says where
    the previous report is; once the lock is free, the same reader puts it back."""
    import fcntl

    out, aside, before = killed_between_the_renames(tmp_path)
    lock = os.open(tmp_path / ".r.lock", os.O_RDWR | os.O_CREAT)
    fcntl.flock(lock, fcntl.LOCK_EX)
    try:
        assert main(["csv", str(out), "-o", str(tmp_path / "t")]) == 2
        line = one_error_line(capsys)
        assert "a run replacing it was stopped" in line and ".r.old-99999" in line
        assert aside.is_dir() and not out.exists()
    finally:
        os.close(lock)
    assert main(["csv", str(out), "-o", str(tmp_path / "t")]) == 0
    assert contents(out) == before


# -- Deliver 3: a full disk and a wrong --sweep --------------------------------------


@pytest.mark.parametrize(
    ("raised", "says"),
    [
        (OSError(errno.ENOSPC, os.strerror(errno.ENOSPC)), "No space left on device"),
        (pl.exceptions.ComputeError("Invalid thrift: transport error"), "Invalid thrift"),
    ],
)
def test_a_full_disk_at_the_games_write_is_one_line_and_leaves_nothing(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    raised: Exception,
    says: str,
) -> None:
    out = tmp_path / "r"
    before = report_at(out)

    def failing(*args: object, **kwargs: object) -> None:
        raise raised

    monkeypatch.setattr(pl.LazyFrame, "sink_parquet", failing)
    assert main(["run", "-q", FDC3, "-n", "5", "-o", str(out)]) == 2
    line = one_error_line(capsys)
    assert f"{out}: can't write the games: {says}" in line, line
    assert_untouched(out, before)


def test_a_full_disk_writing_the_lock_is_one_line_and_leaves_no_lock(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "r"
    real_write = os.write

    def full_for_the_lock(fd: int, data: bytes) -> int:
        if os.path.basename(os.readlink(f"/proc/self/fd/{fd}")) == ".r.lock":
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real_write(fd, data)

    monkeypatch.setattr(folder_mod.os, "write", full_for_the_lock)
    assert main(["run", "-q", FDC3, "-n", "3", "-o", str(out)]) == 2
    line = one_error_line(capsys)
    assert f"{out}: can't write the lock file .r.lock beside it: No space left" in line
    assert list(tmp_path.iterdir()) == []
    monkeypatch.undo()  # the control: the same run with room on the disk
    assert main(["run", "-q", FDC3, "-n", "3", "-o", str(out)]) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r"]


@pytest.mark.parametrize(
    ("given", "says"),
    [
        ("/dev/zero", "--sweep: is a character device, not a sweep folder"),
        ("{tmp}/report", "--sweep: is a report folder, not a sweep folder"),
        ("{tmp}/empty", "--sweep: is not a sweep folder: it holds no sweep.csv"),
        ("{tmp}/none", "--sweep: no such sweep folder"),
    ],
)
def test_tune_refuses_a_sweep_that_is_not_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], given: str, says: str
) -> None:
    report_at(tmp_path / "report")
    (tmp_path / "empty").mkdir()
    sweep = given.format(tmp=tmp_path)
    args = ["tune", FDC3, "--knob", "hand_size=4..6", "--target", "length.mean=8"]
    assert main([*args, "-n", "60", "-q", "--sweep", sweep]) == 2
    line = one_error_line(capsys)
    assert f"{sweep}: {says}" in line, line
    shutil.rmtree(tmp_path / "report")


def test_tune_and_sweep_put_back_a_sweep_set_aside(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sweep = tmp_path / "s"
    args = ["sweep", "-q", FDC3, "-n", "30", "-o", str(sweep), "--set", "hand_size=4,5"]
    assert main(args) == 0
    before = contents(sweep)
    os.rename(sweep, tmp_path / ".s.old-99999")
    tune = ["tune", FDC3, "--knob", "hand_size=4..5", "--target", "length.mean=8", "-q"]
    assert main([*tune, "-n", "60", "--sweep", str(sweep)]) == 0, capsys.readouterr().err
    assert contents(sweep) == before and [p.name for p in tmp_path.iterdir()] == ["s"]
    os.rename(sweep, tmp_path / ".s.old-99999")
    assert main(args) == 0  # the writer: it puts it back, then replaces it
    assert [p.name for p in tmp_path.iterdir()] == ["s"]
