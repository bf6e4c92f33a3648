"""The report swap (issue 32, Deliver 2 and 3): one step where the system has one (and
two renames where it hasn't, forced here three ways), the folder a run killed between
those renames set aside (a real SIGKILL) put back by whoever comes next, and a full
disk (a real tmpfs filled to each point of the write, and errors raised at the write:
OSError ENOSPC, or polars' own words for it) or a wrong `tune --sweep` said in one
line with nothing left behind.
"""

from __future__ import annotations

import contextlib
import errno
import os
import shutil
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import polars as pl
import pytest

from balancer.cli import main
from balancer.report import folder as folder_mod
from tests.helpers import (
    FDC3,
    SAFETY_TIMEOUT,
    assert_untouched,
    contents,
    one_error_line,
    subprocess_env,
)

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


def watch_renames(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str]]:
    """The names of every os.rename folder.py makes from now on (each still done)."""
    renamed: list[tuple[str, str]] = []
    real_rename = os.rename

    def watched(a: str | Path, b: str | Path) -> None:
        renamed.append((Path(a).name, Path(b).name))
        real_rename(a, b)

    monkeypatch.setattr(folder_mod.os, "rename", watched)
    return renamed


def test_where_there_is_no_exchange_two_renames_do_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "r"
    report_at(out)
    monkeypatch.setattr(folder_mod, "_renameat2", lambda: None)
    renamed = watch_renames(monkeypatch)
    second = report_at(out, games=4)
    assert contents(out) == second and b'"games": 4' in second["report.json"]
    assert [p.name for p in tmp_path.iterdir()] == ["r"]
    # The old report aside, then the new one in: and the old one removed, not put back.
    (away, aside), (new, into) = [(a, b) for a, b in renamed if "r" in (a, b)]
    assert (away, aside, into) == ("r", f".r.old-{os.getpid()}", "r")
    assert new.startswith(".r.tmp-")


def failing_renameat2(code: int) -> object:
    """A renameat2 that fails with `code`, as libc's does (-1, errno set)."""
    import ctypes

    def renameat2(*args: object) -> int:
        ctypes.set_errno(code)
        return -1

    return renameat2


@pytest.mark.parametrize("code", [errno.EINVAL, errno.ENOSYS])
def test_where_the_file_system_refuses_the_exchange_two_renames_do_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, code: int
) -> None:
    """EINVAL (a file system without RENAME_EXCHANGE) or ENOSYS (a kernel without
    renameat2): the exchange says it can't, and the two renames replace the report."""
    out = tmp_path / "r"
    report_at(out)
    monkeypatch.setattr(folder_mod, "_renameat2", lambda: failing_renameat2(code))
    renamed = watch_renames(monkeypatch)
    second = report_at(out, games=4)
    assert contents(out) == second and b'"games": 4' in second["report.json"]
    assert ("r", f".r.old-{os.getpid()}") in renamed
    assert [p.name for p in tmp_path.iterdir()] == ["r"]


def test_any_other_failure_of_the_exchange_is_one_line_and_leaves_the_report(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """EACCES is no "can't exchange here": nothing is renamed, the run says why."""
    out = tmp_path / "r"
    before = report_at(out)
    monkeypatch.setattr(folder_mod, "_renameat2", lambda: failing_renameat2(errno.EACCES))
    renamed = watch_renames(monkeypatch)
    assert main(["run", "-q", FDC3, "-n", "4", "-o", str(out)]) == 2
    assert one_error_line(capsys) == f"balancer: error: {out}: can't write: Permission denied"
    assert renamed == []
    assert_untouched(out, before)
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
        ["cards", "{r}", "-o", "{tmp}/cards.csv"],
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


# A run whose swap has no exchange (forced off, as on a file system without one),
# killed by SIGKILL the moment its old report is renamed aside: the real gap.
_KILLED_BETWEEN_THE_RENAMES = """
import os, signal, sys
from pathlib import Path
from balancer.report import folder

folder._renameat2 = lambda: None
rename = os.rename

def rename_then_die(a, b):
    rename(a, b)
    if Path(b).name.startswith(".r.old-") and sys.argv[2] == "kill":
        os.kill(os.getpid(), signal.SIGKILL)

folder.os.rename = rename_then_die
from balancer.cli import main
sys.exit(main(["run", "-q", sys.argv[1], "-n", "4", "-o", "r"]))
"""


def run_killed_between_the_renames(where: Path, kill: bool = True) -> int:
    done = subprocess.run(
        [sys.executable, "-c", _KILLED_BETWEEN_THE_RENAMES, FDC3, "kill" if kill else "no"],
        cwd=where,
        env=subprocess_env(),
        capture_output=True,
        timeout=SAFETY_TIMEOUT,
    )
    return done.returncode


@pytest.mark.parametrize(
    "command",
    [
        ["csv", "{r}", "-o", "{tmp}/tables"],
        ["diff", "-q", "{r}", "{r}"],
        ["run", "-q", FDC3, "-n", "3", "-o", "{r}"],
    ],
)
def test_a_run_killed_between_its_two_renames_leaves_the_old_report_to_the_next_command(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: list[str]
) -> None:
    """SIGKILL between `r -> .r.old-PID` and `tmp -> r`: nothing at r, the old report
    whole beside it. The next reader or writer puts it back and sweeps the rest."""
    out = tmp_path / "r"
    before = report_at(out)
    assert run_killed_between_the_renames(tmp_path) == -signal.SIGKILL
    left = sorted(p.name for p in tmp_path.iterdir())
    assert "r" not in left and any(name.startswith(".r.old-") for name in left), left
    aside = next(tmp_path.glob(".r.old-*"))
    assert contents(aside) == before  # the whole old report, only renamed
    args = [arg.format(r=out, tmp=tmp_path) for arg in command]
    assert main(args) == 0, capsys.readouterr().err
    # The old report back at r, the killed run's temporary folders and lock gone.
    expected = ["r", "tables"] if command[0] == "csv" else ["r"]
    assert sorted(p.name for p in tmp_path.iterdir()) == expected
    if command[0] != "run":
        assert contents(out) == before


def test_the_same_run_not_killed_replaces_the_report_through_the_two_renames(
    tmp_path: Path,
) -> None:
    """The control: the script kills only where told; left alone it swaps the report."""
    out = tmp_path / "r"
    before = report_at(out)
    assert run_killed_between_the_renames(tmp_path, kill=False) == 0
    assert [p.name for p in tmp_path.iterdir()] == ["r"]
    assert contents(out) != before and b'"games": 4' in contents(out)["report.json"]


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
        ("{tmp}/odd", "--sweep: is not a sweep folder: its sweep.csv is a folder"),
        ("{tmp}/report/report.json", "--sweep: is a file, not a sweep folder"),
        ("{tmp}/tables", "--sweep: is a folder of CSV tables (games.csv), not a sweep folder"),
        ("{tmp}/none", "--sweep: no such sweep folder"),
    ],
)
def test_tune_refuses_a_sweep_that_is_not_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], given: str, says: str
) -> None:
    report_at(tmp_path / "report")
    (tmp_path / "empty").mkdir()
    (tmp_path / "odd" / "sweep.csv").mkdir(parents=True)
    assert main(["csv", str(tmp_path / "report"), "-o", str(tmp_path / "tables")]) == 0
    sweep = given.format(tmp=tmp_path)
    args = ["tune", FDC3, "--knob", "hand_size=4..6", "--target", "length.mean=8"]
    assert main([*args, "-n", "60", "-q", "--sweep", sweep]) == 2
    line = one_error_line(capsys)
    assert f"{sweep}: {says}" in line, line
    shutil.rmtree(tmp_path / "report")


def test_tune_refuses_an_empty_sweep_name_rather_than_taking_it_for_none(
    capsys: pytest.CaptureFixture[str],
) -> None:
    args = ["tune", FDC3, "--knob", "hand_size=4..6", "--target", "length.mean=8"]
    assert main([*args, "-n", "60", "-q", "--sweep", ""]) == 2
    assert one_error_line(capsys) == (
        "balancer: error: --sweep: an empty name is not a sweep folder"
    )


def test_a_sweep_points_error_names_the_point_where_it_goes_not_the_temporary_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The disk fills at the second point's lock: the line names s/001-hand_size=5, a
    place the user knows, and the sweep leaves nothing behind."""
    real_write = os.write

    def full_for_the_point(fd: int, data: bytes) -> int:
        if os.path.basename(os.readlink(f"/proc/self/fd/{fd}")) == ".001-hand_size=5.lock":
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real_write(fd, data)

    monkeypatch.setattr(folder_mod.os, "write", full_for_the_point)
    sweep = tmp_path / "s"
    args = ["sweep", "-q", FDC3, "-n", "10", "-o", str(sweep), "--set", "hand_size=4,5"]
    assert main(args) == 2
    assert one_error_line(capsys) == (
        f"balancer: error: {sweep}/001-hand_size=5: can't write the lock file "
        ".001-hand_size=5.lock beside it: No space left on device"
    )
    assert list(tmp_path.iterdir()) == []


def test_polars_oserror_without_an_errno_is_said_in_the_systems_words() -> None:
    """polars raises OSError("No space left on device (os error 28)"), errno unset."""
    said = folder_mod._oserror(OSError("No space left on device (os error 28)"), "r")
    assert said.message == "r: can't write: No space left on device"
    plain = folder_mod._oserror(OSError(errno.EACCES, os.strerror(errno.EACCES)), "r")
    assert plain.message == "r: can't write: Permission denied"
    unknown = folder_mod._oserror(OSError("something else"), "r")
    assert unknown.message == "r: can't write: something else"


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


# -- a real full disk: a small tmpfs (root with CAP_SYS_ADMIN, as CI runs) -------------


@contextlib.contextmanager
def tmpfs(disk: Path, options: str) -> Iterator[Path]:
    """A tmpfs of its own at `disk`: a disk that really fills, not an error raised by hand."""
    disk.mkdir()
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(disk)],
        capture_output=True,
        check=False,
    )
    if mounted.returncode != 0:
        pytest.skip("mounting a tmpfs is not permitted here (needs root)")
    try:
        yield disk
    finally:
        subprocess.run(["umount", "-l", str(disk)], check=False)


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """512 KB of room."""
    with tmpfs(tmp_path / "disk", "size=512k") as disk:
        yield disk


@pytest.fixture
def few_inodes(tmp_path: Path) -> Iterator[Path]:
    """Room enough, but 64 files and folders at most."""
    with tmpfs(tmp_path / "disk", "size=4m,nr_inodes=64") as disk:
        yield disk


def leave_free(disk: Path, kilobytes: int) -> None:
    """Fill `disk` until `kilobytes` KB (or up to a page less) are left for files."""
    (disk / "filler").unlink(missing_ok=True)
    info = os.statvfs(disk)
    size = info.f_bavail * info.f_frsize - kilobytes * 1024
    with open(disk / "filler", "wb") as filler:
        filler.write(b"\0" * max(size, 0))
    room = os.statvfs(disk)
    assert room.f_bavail * room.f_frsize <= kilobytes * 1024


def test_a_really_full_disk_at_the_lock_is_one_line_and_leaves_the_old_report_alone(
    small_disk: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """No room at all: the lock file can be made (an inode) but not hold the pid."""
    out = small_disk / "r"
    before = report_at(out)
    leave_free(small_disk, 0)
    assert main(["run", "-q", FDC3, "-n", "200", "-o", str(out)]) == 2
    line = one_error_line(capsys)
    assert line == (
        f"balancer: error: {out}: can't write the lock file .r.lock beside it: "
        "No space left on device"
    ), line
    assert_untouched(out, before)
    assert sorted(p.name for p in small_disk.iterdir()) == ["filler", "r"]


def test_a_really_full_disk_at_the_games_is_one_line_and_leaves_the_old_report_alone(
    small_disk: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """8 KB left: room for the lock (one page), not for 200 games' table. polars says
    ENOSPC or only "Invalid thrift: transport error" (which one depends on where its
    write broke): both are said as a full disk."""
    out = small_disk / "r"
    before = report_at(out)
    leave_free(small_disk, 8)
    assert main(["run", "-q", FDC3, "-n", "200", "-o", str(out)]) == 2
    line = one_error_line(capsys)
    assert line.startswith(
        f"balancer: error: {out}: can't write the games: No space left on device"
    ), line
    assert_untouched(out, before)
    assert sorted(p.name for p in small_disk.iterdir()) == ["filler", "r"]
    (small_disk / "filler").unlink()  # the control: with room, the same run writes
    assert main(["run", "-q", FDC3, "-n", "200", "-o", str(out)]) == 0
    assert contents(out) != before


@pytest.mark.parametrize("kilobytes", [0, 4, 8, 12, 16, 24, 32, 48, 64, 96])
def test_a_disk_full_at_any_point_of_the_write_is_one_line_and_leaves_nothing(
    small_disk: Path, capsys: pytest.CaptureFixture[str], kilobytes: int
) -> None:
    """Whichever file the disk fills at (lock, games, tables, page, manifest), the run
    either writes the whole report or says so in one line, the old report whole and
    nothing of the run left on the disk."""
    out = small_disk / "r"
    before = report_at(out)
    leave_free(small_disk, kilobytes)
    code = main(["run", "-q", FDC3, "-n", "50", "-o", str(out)])
    assert sorted(p.name for p in small_disk.iterdir()) == ["filler", "r"]
    if code == 0:
        assert (out / "report.json").is_file()
        return
    assert code == 2
    line = one_error_line(capsys)
    assert f"{out}: can't write" in line and "No space left on device" in line, line
    assert_untouched(out, before)


@pytest.mark.parametrize(
    ("free", "says"),
    [
        (
            4096,
            "can't write the games: No space left on device (4 KB free; polars said: "
            "parquet: File out of specification: Invalid thrift: transport error)",
        ),
        (
            50 << 30,
            "can't write the games: parquet: File out of specification: Invalid thrift: "
            "transport error",
        ),
    ],
)
def test_polars_dropping_the_cause_is_a_full_disk_only_when_the_disk_is_full(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, free: int, says: str
) -> None:
    """polars' "Invalid thrift" names no cause: with 4 KB left it is the full disk; with
    50 GB left it is something else, and said as polars said it."""
    from balancer.sim import sink

    monkeypatch.setattr(sink, "_free_bytes", lambda path: free)
    thrift = pl.exceptions.ComputeError(
        "parquet: File out of specification: Invalid thrift: transport error"
    )
    said = sink.write_error(thrift, tmp_path / "games.parquet")
    assert str(said) == f"{tmp_path / 'games.parquet'}: {says}"


def leave_inodes(disk: Path, left: int) -> None:
    """Make empty files in `disk` until only `left` more files or folders can be made."""
    fillers = disk / "fillers"
    shutil.rmtree(fillers, ignore_errors=True)
    fillers.mkdir()
    made = 0
    while os.statvfs(disk).f_favail > left:
        (fillers / str(made)).touch()
        made += 1
    assert os.statvfs(disk).f_favail == left


@pytest.mark.parametrize("left", range(7))
def test_a_disk_out_of_inodes_at_any_point_is_one_line_and_leaves_nothing(
    few_inodes: Path, capsys: pytest.CaptureFixture[str], left: int
) -> None:
    """No file or folder can be made past `left`: the lock, the run's scratch folder, the
    games' own folder, the report's temporary folder and its files each meet it in turn
    (mkdtemp's failure was a traceback)."""
    out = few_inodes / "r"
    before = report_at(out)
    leave_inodes(few_inodes, left)
    code = main(["run", "-q", FDC3, "-n", "5", "-o", str(out)])
    assert sorted(p.name for p in few_inodes.iterdir()) == ["fillers", "r"]
    if code == 0:
        assert (out / "report.json").is_file()
        return
    assert code == 2
    line = one_error_line(capsys)
    assert f"{out}" in line and "can't write" in line, line
    assert line.endswith("No space left on device"), line
    assert_untouched(out, before)
