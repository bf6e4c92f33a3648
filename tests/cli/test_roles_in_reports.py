"""Card impact by role in a role game's report: roles.csv, report.html's table and
`balancer cards`; a hand-written game's report is as it was (no roles.csv)."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from balancer.cli import main

VARIANT = "game: mega-racer\nplayers: 3\nbots: random\ngames: 1500\nseed: 3\n"


@pytest.fixture(scope="module")
def race_report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("race")
    (folder / "race.yaml").write_text(VARIANT)
    assert main(["run", "-q", str(folder / "race.yaml"), "-o", str(folder / "r")]) == 0
    return folder / "r"


def test_the_report_holds_every_roles_row(race_report: Path) -> None:
    rows = list(csv.DictReader((race_report / "roles.csv").open()))
    assert [r["role"] for r in rows] == ["speed", "accident", "block"]  # the deck's order
    # A speed card moves its owner's machine forward by its number, the others by 1 or
    # not at all: with random bots, holding more speed can only help.
    speed = rows[0]
    assert float(speed["slope.ci95_low"]) > 0 and speed["significant"] == "yes"
    html = (race_report / "report.html").read_text()
    assert "<h3>By role</h3>" in html and "● speed" in html


def test_csv_regenerates_roles_csv_byte_for_byte(race_report: Path, tmp_path: Path) -> None:
    before = (race_report / "roles.csv").read_bytes()
    assert main(["csv", str(race_report), "-o", str(tmp_path / "tables")]) == 0
    assert (tmp_path / "tables" / "roles.csv").read_bytes() == before


def test_cards_prints_the_roles_after_the_kinds(
    race_report: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["cards", str(race_report)]) == 0
    out = capsys.readouterr().out
    assert out.index("By role") > out.index("card ")
    assert "speed" in out.split("By role")[1]


def test_a_hand_written_games_report_has_no_roles(tmp_path: Path) -> None:
    (tmp_path / "fdc.yaml").write_text(VARIANT.replace("mega-racer", "fish-dash-cash"))
    assert (
        main(["run", "-q", str(tmp_path / "fdc.yaml"), "-n", "200", "-o", str(tmp_path / "f")]) == 0
    )
    assert (tmp_path / "f" / "cards.csv").is_file()
    assert not (tmp_path / "f" / "roles.csv").exists()
    assert "By role" not in (tmp_path / "f" / "report.html").read_text()
