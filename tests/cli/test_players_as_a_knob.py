"""`players` swept and tuned like a knob: `sweep --set players=3,4,5`, `tune --knob
players=2..6`; each point is the variant at that count with its one bot in every seat."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from balancer.analysis import sweep, tune
from balancer.cli import main
from balancer.config.variant import load
from balancer.errors import UserError
from balancer.report.model import Report
from balancer.sim.runner import CHECK_ENV
from tests.helpers import VARIANTS, one_error_line

FDC5 = VARIANTS / "fdc-5p.yaml"  # bots: heuristic, one bot in every seat
FDC5_VS = VARIANTS / "fdc-5p-vs-random.yaml"  # seats: a list, one per seat


@pytest.fixture(autouse=True)
def compiled_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(CHECK_ENV, raising=False)


def test_players_is_read_as_a_setting_of_counts() -> None:
    base = load(FDC5)
    assert sweep.parse_setting("players=3,4,6", base) == ("players", [3, 4, 6])
    assert tune.parse_knob("players=2..6:2", base).values == (2, 4, 6)
    three = base.with_knobs({"players": 3, "cash_in_pairs": False})
    assert three.players == 3 and len(three.seats) == 3
    assert {s.bot for s in three.seats} == {base.seats[0].bot}
    assert three.rules["cash_in_pairs"] is False and base.players == 5  # base untouched


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("players=3,9", "takes 2 to 6 players, not 9"),
        ("players=1", "takes 2 to 6 players, not 1"),
        ("players=x", "whole number, not 'x'"),
        ("players=3.5", "whole number, not 3.5"),
        ("players=3,3", "listed twice"),
    ],
)
def test_a_count_the_game_does_not_take_is_one_line(text: str, words: str) -> None:
    with pytest.raises(UserError, match=words):
        sweep.parse_setting(text, load(FDC5))


def test_seats_listed_one_by_one_cannot_change_count(capsys: pytest.CaptureFixture[str]) -> None:
    # Which bot would sit in the sixth seat? Not guessed: said.
    assert main(["sweep", str(FDC5_VS), "--set", "players=3,4", "-q"]) == 2
    assert "one bot sits in every seat" in one_error_line(capsys)
    assert main(["tune", str(FDC5_VS), "--knob", "players=2..4", "--target", "length.mean=9"]) == 2
    assert "one bot sits in every seat" in one_error_line(capsys)


def test_a_sweep_over_players_writes_a_report_per_count(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "by-players"
    assert main(["sweep", str(FDC5), "--set", "players=3,4", "-n", "60", "-q", "-w", "1",
                 "-o", str(out)]) == 0  # fmt: skip
    capsys.readouterr()
    reports = {}
    for folder in sorted(p for p in out.iterdir() if p.is_dir()):
        report = Report.open(folder)
        reports[report.variant["players"]] = report
    assert sorted(reports) == [3, 4]
    for players, report in reports.items():
        assert len(report.variant["seats"]) == players
        assert report.games.height == 60


def test_tune_over_players_finds_the_count_whose_length_is_known(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # Kimekimera lasts `rounds` rounds whatever the players (RULES.md), so tuning players
    # for a length leaves every count in; fdc deals its whole deck, so a game's tricks
    # are fixed by the count: 60 cards / players a hand, one card a trick per seat.
    args = ["tune", str(FDC5), "--knob", "players=3..6", "--target", "length.mean=15",
            "-n", "600", "-q", "-w", "1", "--json"]  # fmt: skip
    assert main(args) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["best"]["point"] == {"players": 4} and data["reached"] is True
    assert data["not_ruled_out"] == [{"players": 4}]
