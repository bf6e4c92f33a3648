"""`run --until "win_ci<=W"`: stop once every win share's confidence sequence is narrow."""

from __future__ import annotations

import json
import math
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

import balancer
from balancer import table
from balancer.analysis.diff import compare as compare_reports
from balancer.analysis.until_decided import play_until_decided
from balancer.cli import main
from balancer.report.build import from_run
from balancer.report.model import load_report
from balancer.sim.runner import CHECK_ENV
from balancer.stats.sequential import MONITOR_GRID, BettingCS, UntilWatch, parse_until
from tests.helpers import VARIANTS, one_error_line, variant_file


def test_until_watch_splits_ties_and_follows_rotating_bots() -> None:
    # Two players, bots x (slot 0) and y (slot 1), seats rotating; games 1 and 2.
    # Game 1: seat 0 scores 3, seat 1 scores 1 -> wins (1, 0); slots (1, 0): y sits at 0.
    # Game 2: a tie, 2-2 -> wins (1/2, 1/2); slots (0, 1).
    watch = UntilWatch(parse_until("win_ci<=0.5"), ["x", "y"], True, True)
    chunk = SimpleNamespace(start=1, scores=np.array([[3.0, 1.0], [2.0, 2.0]]))
    assert watch(chunk) is False  # two games: every interval is still wide
    monitor = watch.monitor
    assert [cs.mean for cs in monitor.seats] == [0.75, 0.25]
    assert monitor.bots["x"].mean == 0.25  # game 1: lost at seat 1; game 2: half
    assert monitor.bots["y"].mean == 0.75
    assert watch.games == 2 and watch.stopped_at is None


def test_until_watch_tracks_no_bots_when_every_seat_holds_the_same() -> None:
    watch = UntilWatch(parse_until("win_ci<=0.5"), ["r", "r", "r"], False, False)
    watch(SimpleNamespace(start=0, scores=np.array([[1.0, 2.0, 3.0]])))
    assert watch.monitor.bots == {}
    assert watch.monitor.seats[0].mean == 1.0  # lower is better here


def _widest(wins: np.ndarray, upto: int, width: float) -> float:
    """The widest seat CS over the first `upto` games, computed afresh."""
    # Bets tuned to where a share of variance 1/4 reaches the width: 2 log(2/α) / width².
    n_star = math.ceil(2 * math.log(2 / 0.05) / width**2)
    widths = []
    for s in range(wins.shape[1]):
        cs = BettingCS(grid=MONITOR_GRID, n_star=n_star)
        cs.extend(wins[:upto, s])
        low, high = cs.interval()
        widths.append(high - low)
    return max(widths)


def test_run_until_stops_at_the_first_chunk_where_every_interval_is_narrow(
    tmp_path: Path,
) -> None:
    variant = balancer.load_variant(VARIANTS / "fdc-5p-random.yaml", games=1600, seed=3)
    report = balancer.run(variant, until="win_ci <= 0.3")
    assert report.until == "win_ci<=0.3"
    stopped = report.stopped_at
    assert stopped is not None and stopped == report.n_games < 1600
    wins = np.column_stack([report.games[table.win(s)].to_numpy() for s in range(variant.players)])
    chunk = 1600 // 16  # the runner's chunk size for one worker
    assert stopped % chunk == 0
    assert _widest(wins, stopped, 0.3) <= 0.3
    assert _widest(wins, stopped - chunk, 0.3) > 0.3  # one chunk earlier it did not hold
    # The rule, and where it stopped, go into report.json, summary.md and the headline.
    saved = report.save(tmp_path / "r")
    document = json.loads((tmp_path / "r" / "report.json").read_text())
    assert document["until"] == "win_ci<=0.3" and document["stopped_at"] == stopped
    assert document["games"] == stopped and document["variant"]["games"] == 1600
    back = load_report(tmp_path / "r")
    assert back.stopped_at == stopped and back.until == "win_ci<=0.3"
    summary = (tmp_path / "r" / "summary.md").read_text()
    assert f"stopped early after {stopped} of at most 1600 games" in summary
    assert saved.stopped_at == stopped


def test_run_until_that_never_holds_plays_every_game() -> None:
    variant = balancer.load_variant(VARIANTS / "fdc-5p-random.yaml", games=60, seed=3)
    report = balancer.run(variant, until="win_ci<=0.01")
    assert report.n_games == 60 and report.stopped_at is None and report.until == "win_ci<=0.01"


def test_a_run_without_until_writes_neither_key(tmp_path: Path) -> None:
    variant = balancer.load_variant(VARIANTS / "fdc-5p-random.yaml", games=20, seed=3)
    balancer.run(variant).save(tmp_path / "r")
    document = json.loads((tmp_path / "r" / "report.json").read_text())
    assert "until" not in document and "stopped_at" not in document


def test_cli_run_until(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "r"
    args = ["run", "--quiet", str(VARIANTS / "fdc-5p-random.yaml"), "-n", "1600", "-o", str(out)]
    assert main([*args, "--until", "win_ci<=0.3"]) == 0
    printed = capsys.readouterr().out
    stopped = json.loads((out / "report.json").read_text())["stopped_at"]
    assert f"stopped early after {stopped} of at most 1600 games" in printed


@pytest.mark.parametrize("bad", ["win_ci<0.1", "score<=1", "win_ci<=x", "win_ci<=0"])
def test_cli_run_until_bad_rule_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], bad: str
) -> None:
    out = tmp_path / "r"
    args = ["run", "--quiet", str(VARIANTS / "fdc-5p-random.yaml"), "-n", "10", "-o", str(out)]
    assert main([*args, "--until", bad]) == 2
    assert "--until" in one_error_line(capsys)
    assert not out.exists()


# --- diff --until-decided ----------------------------------------------------------


@pytest.fixture()
def compiled(monkeypatch: pytest.MonkeyPatch) -> None:
    """The compiled kernels (the suite forces --check, which plays step by step)."""
    monkeypatch.setenv(CHECK_ENV, "0")


def test_play_until_decided_stops_and_matches_the_anytime_rows(compiled: None) -> None:
    # One heuristic bot against four random ones moves every seat's share a lot.
    a = balancer.load_variant(VARIANTS / "fdc-5p-random.yaml", games=4000, seed=11)
    b = balancer.load_variant(VARIANTS / "fdc-5p-vs-random.yaml", games=4000, seed=11)
    decided = play_until_decided(a, b, tolerances={"win": "0.05"})
    stopped = decided.stopped_at
    assert stopped is not None and stopped < 4000
    assert decided.a.games == decided.b.games == stopped
    # The same numbers from the whole runs at once (the batches do not matter).
    table = compare_reports(
        from_run(decided.a),
        from_run(decided.b),
        tolerances={"win": "0.05"},
        anytime=True,
    )
    wins = [row for row in table.rows if row.kind == "win"]
    assert wins and all(row.verdict in ("changed", "equivalent") for row in wins)
    verdicts = decided.watch.verdicts()
    for row in table.rows:
        # Holm's family is smaller at the end (duplicates out): never fewer "changed".
        if verdicts[row.figure] == "changed":
            assert row.verdict == "changed", row.figure
        assert row.ci95 == pytest.approx(decided.watch.rows[row.figure].interval())
    # One batch earlier it was not decided.
    assert stopped > 4000 // 16


def test_cli_diff_until_decided(
    compiled: None,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.chdir(tmp_path)
    # A heuristic bot at seat 0 (no rotation) against four random ones: every seat moves.
    seats = "seats: [heuristic, random, random, random, random]\n"
    a = VARIANTS / "fdc-5p-random.yaml"
    b = variant_file(tmp_path, "fdc-5p-random.yaml", seats, name="h0.yaml")
    args = ["diff", "--quiet", str(a), str(b), "--until-decided", "--max-games", "4000"]
    assert main([*args, "--tolerance", "win=0.05", "--format", "json"]) == 0
    document = json.loads(capsys.readouterr().out)
    stopped = document["stopped_at"]
    assert isinstance(stopped, int) and 0 < stopped < 4000
    assert document["anytime"] is True and str(stopped) in document["stopping"]
    for row in document["rows"]:
        assert {
            "figure",
            "a",
            "b",
            "change",
            "ci95",
            "test",
            "p_value",
            "p_adjusted",
            "verdict",
        } <= set(row)
        if row["figure"].startswith("win share"):
            assert row["verdict"] in ("changed", "equivalent")
            assert row["test"] == "anytime betting CS"
    # Run into diff's scratch place, never over a report of `run`.
    scratch = tmp_path / "reports" / "diff" / "fdc-5p-random-vs-h0"
    for side in ("a", "b"):
        report = json.loads((scratch / side / "report.json").read_text())
        assert report["games"] == stopped == report["stopped_at"]
        assert report["until"] == "until-decided" and report["variant"]["games"] == 4000
    # Asked again of the two reports, diff gives the same anytime rows: their game
    # count was chosen by this comparison, so fixed-n tests would not be valid for them.
    folders = [str(scratch / side) for side in ("a", "b")]
    assert main(["diff", *folders, "--tolerance", "win=0.05", "--format", "json"]) == 0
    again = json.loads(capsys.readouterr().out)
    assert again["anytime"] is True and again["stopped_at"] == stopped
    assert again["rows"] == document["rows"]
    # The terminal table says so too. --until-decided ends by rendering these two saved
    # reports (diff_reports on the folders it wrote, as here), so the table is asked of
    # them rather than of a second --until-decided diff replaying both runs (~5 s).
    assert main(["diff", *folders, "--tolerance", "win=0.05"]) == 0
    assert f"stopped early after {stopped} games per run" in capsys.readouterr().out


def test_cli_diff_until_decided_not_decided_says_so(
    compiled: None,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.chdir(tmp_path)
    a = VARIANTS / "fdc-5p-random.yaml"
    args = ["diff", "--quiet", str(a), str(a), "--until-decided", "--max-games", "300"]
    assert main([*args, "--format", "json"]) == 0
    document = json.loads(capsys.readouterr().out)
    # A against itself: every pair identical, nothing changed, no tolerance reached in 300.
    assert document["stopped_at"] is None and document["changed"] is False
    assert "not decided within 300 games" in document["stopping"]


def test_cli_diff_until_decided_needs_variant_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "done"
    folder.mkdir()
    a = str(VARIANTS / "fdc-5p-random.yaml")
    assert main(["diff", a, str(folder), "--until-decided"]) == 2
    assert "--until-decided" in one_error_line(capsys)
    assert main(["diff", a, a, "--max-games", "10"]) == 2
    assert "--max-games" in one_error_line(capsys)


def test_until_decided_with_a_plugin_in_b_and_a_fault_in_b(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    a = VARIANTS / "fdc-5p-random.yaml"
    first_legal = "seats: [tests.plugins:FirstLegal, random, random, random, random]\n"
    b = variant_file(tmp_path, "fdc-5p-random.yaml", first_legal, name="plug.yaml")
    # 8 games: 8 chunks of one (B's each in a worker of its own, with the plugin's
    # process), which is what the run does at any size; 64 were 16 chunks of 4.
    args = ["diff", "--quiet", str(a), str(b), "--until-decided", "--max-games", "8"]
    assert main([*args, "--format", "json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["anytime"] is True and len(document["rows"]) > 0
    # A bot breaking one of B's games: one line naming B's variant to replay, nothing written.
    illegal = "seats: [tests.plugins:Illegal, random, random, random, random]\n"
    bad = variant_file(tmp_path, "fdc-5p-random.yaml", illegal, name="bad.yaml")
    out = tmp_path / "reports"
    before = sorted(p.name for p in out.iterdir())
    assert main(["diff", "--quiet", str(a), str(bad), "--until-decided", "--max-games", "64"]) == 2
    line = one_error_line(capsys)
    assert "tests.plugins:Illegal" in line and f"balancer replay {bad}" in line
    assert sorted(p.name for p in out.iterdir()) == before
