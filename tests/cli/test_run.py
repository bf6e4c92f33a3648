"""`balancer run`: the report folder, its keys, worker invariance, all-or-nothing writes."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

from balancer.cli import main
from balancer.rng import RNG_VERSION
from tests.helpers import VARIANTS, contents, load_report, one_error_line, variant_file
from tests.kernels.test_all_games import EVENTS

REPORT_KEYS = {
    "game",
    "players",
    "games",
    "seed",
    "variant",
    "seats",
    "seat_advantage",
    "length",
    "events",
}
SCORE_KEYS = {"mean", "sd", "min", "q1", "median", "q3", "max"}


def run(*args: str) -> int:
    return main(["run", "--quiet", *args])


def test_report_folder_and_keys(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "r"
    assert run(str(VARIANTS / "fdc-5p-vs-random.yaml"), "-n", "50", "-o", str(out)) == 0
    printed = capsys.readouterr().out
    assert "win share" in printed and "heuristic" in printed
    for name in ("report.json", "games.parquet", "seats.csv", "events.csv", "summary.md"):
        assert (out / name).is_file(), name
    report = load_report(out)
    assert set(report) >= REPORT_KEYS
    assert report["game"] == "fish-dash-cash" and report["players"] == 5 and report["games"] == 50
    assert report["rng_version"] == RNG_VERSION  # which randomness contract played the games
    assert report["variant"]["rules"]["neko_ni_koban"] is True
    assert [s["seat"] for s in report["seats"]] == [0, 1, 2, 3, 4]
    for seat in report["seats"]:
        assert {"seat", "bot", "win_share", "win_ci95", "score_mean_ci95", "score"} <= set(seat)
        assert set(seat["score"]) == SCORE_KEYS
        low, high = seat["win_ci95"]
        assert 0 <= low <= seat["win_share"] <= high <= 1
        low, high = seat["score_mean_ci95"]
        assert low < seat["score"]["mean"] < high
    # Bots rotate through the seats, so seat and bot are not confounded: a p-value.
    advantage = report["seat_advantage"]
    assert set(advantage) == {"test", "statistic", "df", "p_value", "note"}
    assert 0 <= advantage["p_value"] <= 1 and advantage["note"] is None
    assert set(report["length"]) == {"mean", "sd", "min", "max", "ci95"}
    assert report["length"]["mean"] == 12  # 60 cards / 5 players
    assert report["length"]["ci95"] == [12, 12]  # every game as long: nothing to estimate
    low, high = report["margin"]["ci95"]
    assert low < report["margin"]["mean"] < high
    assert list(report["events"]) == EVENTS["fish-dash-cash"]
    for event in report["events"].values():
        assert set(event) == {"per_game", "per_game_ci95", "share_of_games", "share_of_games_ci95"}
        low, high = event["per_game_ci95"]
        assert low <= event["per_game"] <= high
        low, high = event["share_of_games_ci95"]
        assert 0 <= low <= event["share_of_games"] <= high <= 1
    assert set(report["bots"]) == {"heuristic", "random"}
    for bot in report["bots"].values():
        low, high = bot["win_ci95"]
        assert 0 <= low <= bot["win_share"] <= high <= 1
    assert report["bots"]["heuristic"]["seat_games"] == 50
    assert report["bots"]["random"]["seat_games"] == 200
    assert sum(s["win_share"] for s in report["seats"]) == pytest.approx(1.0)

    games = pl.read_parquet(out / "games.parquet")
    assert games.height == 50
    # Rotation: game i puts bot slot (seat + i) % 5 at each seat; slot 0 is the heuristic.
    assert games["bot_0"].to_list()[:6] == [
        "heuristic",
        "random",
        "random",
        "random",
        "random",
        "heuristic",
    ]


def test_same_figures_whatever_the_worker_count(tmp_path: Path) -> None:
    variant = str(VARIANTS / "fdc-4p.yaml")
    assert run(variant, "-n", "80", "-w", "1", "-o", str(tmp_path / "one")) == 0
    assert run(variant, "-n", "80", "-w", "2", "-o", str(tmp_path / "two")) == 0
    assert load_report(tmp_path / "one") == load_report(tmp_path / "two")
    one = pl.read_parquet(tmp_path / "one" / "games.parquet")
    assert one.equals(pl.read_parquet(tmp_path / "two" / "games.parquet"))


def test_seed_override_changes_games_and_is_recorded(tmp_path: Path) -> None:
    variant = str(VARIANTS / "fdc-5p-random.yaml")
    assert run(variant, "-n", "30", "-s", "1", "-o", str(tmp_path / "a")) == 0
    assert run(variant, "-n", "30", "-s", "2", "-o", str(tmp_path / "b")) == 0
    a, b = load_report(tmp_path / "a"), load_report(tmp_path / "b")
    assert a["seed"] == 1 and b["seed"] == 2
    assert a["seats"] != b["seats"]


def test_failed_run_leaves_previous_report_untouched(tmp_path: Path, capsys) -> None:
    out = tmp_path / "r"
    variant = str(VARIANTS / "fdc-5p-random.yaml")
    assert run(variant, "-n", "20", "-o", str(out)) == 0
    before = contents(out)
    seats = "seats: [random, random, random, random, tests.plugins:Illegal]\n"
    broken = variant_file(tmp_path, "fdc-5p-random.yaml", seats, name="broken.yaml")
    assert run(str(broken), "-n", "20", "-o", str(out)) == 2
    line = one_error_line(capsys)
    assert "seat 4" in line and "tests.plugins:Illegal" in line and "balancer replay" in line
    assert contents(out) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["broken.yaml", "r"]


@pytest.mark.parametrize(("workers", "on"), [("1", "1 worker"), ("2", "2 workers")])
def test_a_run_off_a_terminal_says_once_when_it_starts_playing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], workers: str, on: str
) -> None:
    """No progress bar in a log or CI: one line instead, once the workers are up."""
    # 8 games: still more than one chunk for each of 2 workers; the line is about the
    # start of play, not how much is played (40 games only made the two runs longer).
    args = ["run", str(VARIANTS / "fdc-3p.yaml"), "-n", "8", "-w", workers]
    assert main([*args, "-o", str(tmp_path / "r")]) == 0
    assert capsys.readouterr().err == f"balancer: playing 8 games of fdc-3p on {on}\n"
    assert main([*args, "-q", "-o", str(tmp_path / "r")]) == 0
    assert capsys.readouterr().err == ""
