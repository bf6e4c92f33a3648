"""Where output goes: only balancer's own output is ever replaced, and what it writes is whole."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from balancer.cli import main
from tests.helpers import FDC3, VARIANTS, load_report, one_error_line, variant_file

# About reports, the command line and diffs, not the engine: runs play as a user's do
# (compiled where they can), not step by step as the suite's forced --check would.
pytestmark = pytest.mark.usefixtures("engine_unchecked")


def test_a_folder_that_is_not_a_report_is_never_replaced(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    precious = tmp_path / "precious"
    (precious / "sub").mkdir(parents=True)
    (precious / "notes.txt").write_text("hi")
    assert main(["run", "-q", FDC3, "-n", "3", "-o", str(precious)]) == 2
    assert "not balancer's output" in one_error_line(capsys)
    assert (precious / "notes.txt").read_text() == "hi" and (precious / "sub").is_dir()
    args = ["sweep", "-q", FDC3, "-n", "3", "-o", str(precious), "--set", "hand_size=4,5"]
    assert main(args) == 2
    assert (precious / "notes.txt").read_text() == "hi"


def test_a_file_a_link_and_the_current_folder_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    a_file = tmp_path / "file"
    a_file.write_text("x")
    assert main(["run", "-q", FDC3, "-n", "3", "-o", str(a_file)]) == 2
    assert "is a file" in one_error_line(capsys)
    assert a_file.read_text() == "x"
    report = tmp_path / "report"
    assert main(["run", "-q", FDC3, "-n", "3", "-o", str(report)]) == 0
    link = tmp_path / "link"
    link.symlink_to(report)
    assert main(["run", "-q", FDC3, "-n", "3", "-o", str(link)]) == 2
    assert "link" in one_error_line(capsys)
    monkeypatch.chdir(report)
    for out in (".", "..", "/"):
        assert main(["run", "-q", FDC3, "-n", "3", "-o", out]) == 2
        assert "current folder" in one_error_line(capsys)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file", "link", "report"]


def test_a_report_replaces_an_older_report_and_is_readable(tmp_path: Path) -> None:
    out = tmp_path / "r"
    assert main(["run", "-q", FDC3, "-n", "3", "-o", str(out)]) == 0
    assert main(["run", "-q", FDC3, "-n", "4", "-o", str(out)]) == 0
    assert load_report(out)["games"] == 4
    umask = os.umask(0)
    os.umask(umask)
    assert out.stat().st_mode & 0o777 == 0o777 & ~umask


def test_diff_of_a_variant_against_a_report_never_overwrites_the_report(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    random5 = str(VARIANTS / "fdc-5p-random.yaml")
    # B lives exactly where A's variant would be run by default.
    target = tmp_path / "reports" / "fdc-5p-random"
    assert main(["run", "-q", random5, "-n", "60", "-o", str(target)]) == 0
    saved = (target / "report.json").read_bytes()
    capsys.readouterr()
    assert main(["diff", "-q", random5, str(target)]) == 0
    assert (target / "report.json").read_bytes() == saved
    scratch = tmp_path / "reports" / "diff" / "fdc-5p-random-vs-fdc-5p-random"
    assert (scratch / "a" / "report.json").is_file()


def test_diff_refuses_two_different_games_before_running(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    args = ["diff", "-q", str(VARIANTS / "fdc-5p.yaml"), str(VARIANTS / "kk-4p.yaml")]
    assert main(args) == 2
    assert "nothing to compare" in one_error_line(capsys)
    assert not (tmp_path / "reports").exists()


def test_replay_of_a_game_a_plugin_broke_shows_the_game_then_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    seats = "seats: [random, 'tests.plugins:Illegal', random]\n"
    path = variant_file(tmp_path, "fdc-base.yaml", "players: 3\n" + seats)
    assert main(["replay", str(path), "--game", "0"]) == 2
    out, err = capsys.readouterr()
    assert "Trick 1" in out
    assert len(err.strip().splitlines()) == 1 and "illegal move" in err


def test_sweep_refuses_a_knob_set_twice_a_value_twice_and_unplayable_points_first(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    base = ["sweep", "-q", FDC3, "-n", "3", "-o", str(tmp_path / "s")]
    assert main([*base, "--set", "hand_size=3,4", "--set", "rules.hand_size=5"]) == 2
    assert "more than one --set" in one_error_line(capsys)
    assert main([*base, "--set", "hand_size=3,3"]) == 2
    assert "twice" in one_error_line(capsys)
    assert main([*base, "--set", "hand_size=5,30"]) == 2
    assert "hand_size=30 can't be played" in one_error_line(capsys)
    assert not (tmp_path / "s").exists()


def test_a_bare_balancer_prints_help(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 0
    assert "Usage: balancer" in capsys.readouterr().out
