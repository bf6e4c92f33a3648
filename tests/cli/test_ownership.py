"""Ownership of output folders (issue 13, Deliver 1): balancer replaces only what it provably wrote.

Each case is a hand-made folder; the expected outcome (refused with one line
and exit 2 and left byte for byte as it was, or replaced) is worked out from
the rule: a folder is balancer's only when it holds exactly its manifest.
"""

from __future__ import annotations

import fcntl
import json
import os
import shutil
from pathlib import Path

import pytest

from balancer.cli import main
from balancer.report.folder import MANIFEST

# About reports, the command line and diffs, not the engine: runs play as a user's do
# (compiled where they can), not step by step as the suite's forced --check would.
pytestmark = pytest.mark.usefixtures("engine_unchecked")

VARIANTS = Path(__file__).parents[2] / "variants"
FDC3 = str(VARIANTS / "fdc-3p.yaml")


def one_error_line(capsys: pytest.CaptureFixture[str]) -> str:
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1, err
    assert "Traceback" not in err[0]
    return err[0]


def snapshot(folder: Path) -> dict[str, bytes | None]:
    """Every entry under `folder`: a file's bytes, None for a folder, and the folder's mode."""
    out: dict[str, bytes | None] = {".mode": oct(folder.stat().st_mode & 0o777).encode()}
    for path in sorted(folder.rglob("*")):
        key = str(path.relative_to(folder))
        out[key] = None if path.is_dir() or path.is_symlink() else path.read_bytes()
    return out


def run(out: Path, *extra: str) -> int:
    return main(["run", "-q", FDC3, "-n", "3", "-o", str(out), *extra])


@pytest.fixture
def report(tmp_path: Path) -> Path:
    out = tmp_path / "r"
    assert run(out) == 0
    return out


def test_a_report_lists_every_file_it_wrote_in_its_manifest(report: Path) -> None:
    manifest = json.loads((report / MANIFEST).read_text())
    on_disk = {p.name for p in report.iterdir()} - {MANIFEST}
    assert set(manifest["files"]) == on_disk
    assert {"report.json", "games.parquet", "seats.csv", "summary.md"} <= on_disk
    assert "games.csv" not in on_disk  # DESIGN.md's report folder; `balancer csv` writes it
    assert manifest["kind"] == "report.json"
    size = (report / "report.json").stat().st_size
    assert manifest["files"]["report.json"]["size"] == size
    assert len(manifest["files"]["report.json"]["sha256"]) == 64


def test_a_report_replaces_its_own_earlier_report(report: Path) -> None:
    assert main(["run", "-q", FDC3, "-n", "4", "-o", str(report)]) == 0
    assert json.loads((report / "report.json").read_text())["games"] == 4
    assert [p.name for p in report.parent.iterdir() if p.name.startswith(".")] == []


def test_another_tools_report_json_is_never_replaced(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project = tmp_path / "proj"
    (project / "src").mkdir(parents=True)
    (project / "report.json").write_text('{"tool": "other"}')
    (project / "main.c").write_text("int main(void) { return 0; }\n")
    (project / "src" / "lib.c").write_text("/* lib */\n")
    before = snapshot(project)
    assert run(project) == 2
    line = one_error_line(capsys)
    assert "no balancer manifest" in line and "left alone" in line
    assert snapshot(project) == before


@pytest.mark.parametrize(
    "change",
    [
        "add NOTES.md",
        "add the variant",
        "add a folder",
        "edit report.json",
        "delete summary.md",
        "link events.csv",
        "forge the manifest",
    ],
)
def test_a_report_folder_the_user_touched_is_no_longer_replaced(
    report: Path, capsys: pytest.CaptureFixture[str], change: str
) -> None:
    if change == "add NOTES.md":
        (report / "NOTES.md").write_text("my notes\n")
    elif change == "add the variant":
        shutil.copy(FDC3, report / "fdc-3p.yaml")
    elif change == "add a folder":
        (report / "drafts").mkdir()
    elif change == "edit report.json":
        path = report / "report.json"
        path.write_text(path.read_text().replace('"games": 3', '"games": 30'))
    elif change == "delete summary.md":
        (report / "summary.md").unlink()
    elif change == "link events.csv":
        (report / "events.csv").unlink()
        (report / "events.csv").symlink_to(report / "seats.csv")
    elif change == "forge the manifest":
        # A manifest that lists a user's file as if balancer wrote it, with a wrong hash.
        (report / "NOTES.md").write_text("mine\n")
        manifest = json.loads((report / MANIFEST).read_text())
        manifest["files"]["NOTES.md"] = {"size": 5, "sha256": "0" * 64}
        (report / MANIFEST).write_text(json.dumps(manifest))
    before = snapshot(report)
    assert run(report) == 2
    assert "left alone" in one_error_line(capsys)
    assert snapshot(report) == before


def test_a_write_protected_report_folder_is_left_alone(
    report: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    report.chmod(0o555)
    try:
        before = snapshot(report)
        assert run(report) == 2
        assert "write-protected" in one_error_line(capsys)
        assert snapshot(report) == before
    finally:
        report.chmod(0o755)


def test_a_report_never_replaces_a_sweep_nor_csv_output(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], report: Path
) -> None:
    tables = tmp_path / "tables"
    assert main(["csv", str(report), "-o", str(tables)]) == 0
    capsys.readouterr()
    before = snapshot(tables)
    assert run(tables) == 2
    assert "it is a folder of CSV tables (games.csv), not a report folder" in one_error_line(capsys)
    assert snapshot(tables) == before
    # ... and `csv -o` never replaces a report with its bare tables.
    before = snapshot(report)
    other = tmp_path / "other"
    assert run(other) == 0
    capsys.readouterr()
    assert main(["csv", str(report), "-o", str(other)]) == 2
    assert "it is a report folder (report.json), not a folder of CSV" in one_error_line(capsys)
    assert snapshot(report) == before


def test_a_run_onto_a_folder_another_run_holds_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The other run is stood for by a lock held on the lock file beside the folder."""
    out = tmp_path / "r"
    lock = tmp_path / ".r.lock"
    fd = os.open(lock, os.O_RDWR | os.O_CREAT)
    os.write(fd, b"4242\n")
    fcntl.flock(fd, fcntl.LOCK_EX)
    try:
        assert run(out) == 2
        line = one_error_line(capsys)
        assert "another balancer run (process 4242) is writing" in line
        assert not out.exists()
    finally:
        os.close(fd)
    # Its holder gone (the lock died with it), the next run goes ahead and cleans up.
    assert run(out) == 0
    assert (out / "report.json").is_file()
    assert not lock.exists()


def test_a_killed_runs_leftovers_are_cleaned_and_its_previous_report_restored(
    report: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A run killed between its two renames left the old report as .r.old-PID and no r.

    The next run onto r puts that report back before anything else; here the
    next run fails (a broken plugin), so what is left must be the old report.
    """
    parent = report.parent
    before = snapshot(report)
    (parent / ".r.lock").write_text("999999\n")  # stale: nobody holds it
    half = parent / ".r.tmp-abcd"
    half.mkdir()
    (half / "report.json").write_text("{")
    report.rename(parent / ".r.old-999999")
    broken = tmp_path / "broken.yaml"
    broken.write_text(
        f"extends: {VARIANTS / 'fdc-base.yaml'}\nplayers: 3\n"
        "seats: [random, 'tests.plugins:Raises', random]\n"
    )
    assert main(["run", "-q", str(broken), "-n", "2", "-o", str(report)]) == 2
    capsys.readouterr()
    assert snapshot(report) == before
    assert sorted(p.name for p in parent.iterdir()) == ["broken.yaml", "r"]
    assert run(report, "-n", "5") == 0
    assert json.loads((report / "report.json").read_text())["games"] == 5


def test_csv_never_overwrites_a_users_games_csv_nor_follows_a_link(
    tmp_path: Path, report: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "games.csv").write_text("my,own\n1,2\n")
    before = snapshot(mine)
    assert main(["csv", str(report), "-o", str(mine)]) == 2
    assert "left alone" in one_error_line(capsys)
    assert snapshot(mine) == before
    link = tmp_path / "link"
    link.symlink_to(mine)
    assert main(["csv", str(report), "-o", str(link)]) == 2
    assert "is a link" in one_error_line(capsys)
    assert snapshot(mine) == before
    # Its own earlier output it replaces; in place it rewrites the report whole, still its own.
    fresh = tmp_path / "fresh"
    assert main(["csv", str(report), "-o", str(fresh)]) == 0
    assert main(["csv", str(report), "-o", str(fresh)]) == 0
    assert main(["csv", str(report)]) == 0
    assert run(report) == 0


def test_sweep_never_replaces_a_users_sweep_csv(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    mine = tmp_path / "s"
    mine.mkdir()
    (mine / "sweep.csv").write_text("a,b\n")
    before = snapshot(mine)
    args = ["sweep", "-q", FDC3, "-n", "2", "-o", str(mine), "--set", "hand_size=4,5"]
    assert main(args) == 2
    assert "left alone" in one_error_line(capsys)
    assert snapshot(mine) == before
    own = tmp_path / "own"
    args[args.index(str(mine))] = str(own)
    assert main(args) == 0
    assert main(args) == 0  # its own sweep it replaces
    manifest = json.loads((own / MANIFEST).read_text())
    assert manifest["kind"] == "sweep.csv"
    assert any(name.endswith("/report.json") for name in manifest["files"])


def test_diff_of_two_variants_says_where_it_wrote(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    a, b = VARIANTS / "fdc-5p.yaml", VARIANTS / "fdc-5p-random.yaml"
    assert main(["diff", "-q", "-n", "20", str(a), str(b), "--format", "json"]) == 0
    out, err = capsys.readouterr()
    json.loads(out)  # nothing but the diff on stdout
    assert "A was run into reports/diff/fdc-5p-vs-fdc-5p-random/a/" in err
    assert "B was run into reports/diff/fdc-5p-vs-fdc-5p-random/b/" in err
    assert "Nothing was written" not in err


def test_diff_checks_both_folders_before_playing_either(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    scratch = tmp_path / "reports" / "diff" / "fdc-5p-vs-fdc-5p-random"
    theirs = scratch / "b"
    theirs.mkdir(parents=True)
    (theirs / "report.json").write_text("{}")
    a, b = VARIANTS / "fdc-5p.yaml", VARIANTS / "fdc-5p-random.yaml"
    assert main(["diff", "-q", "-n", "20", str(a), str(b)]) == 2
    assert "fdc-5p-vs-fdc-5p-random/b" in one_error_line(capsys)
    assert sorted(p.name for p in scratch.iterdir() if not p.name.startswith(".")) == ["b"]


def test_an_output_under_a_link_loop_or_with_an_overlong_name_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "loop").symlink_to(tmp_path / "loop")
    assert run(tmp_path / "loop" / "r") == 2
    assert "loop of symbolic links" in one_error_line(capsys)
    assert run(tmp_path / ("x" * 300)) == 2
    assert "too long" in one_error_line(capsys)
