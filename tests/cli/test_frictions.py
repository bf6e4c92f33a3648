"""Small frictions of a designer's first hour (issue 37): `cards --format`, a game file
given to `ladder` or where a variant is asked."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from balancer.cli import main
from balancer.report import cards
from balancer.report.model import load_report
from tests.helpers import FDC3, VARIANTS, one_error_line

pytestmark = pytest.mark.usefixtures("engine_unchecked")


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("cards") / "fdc-3p"
    assert main(["run", FDC3, "-n", "40", "-w", "1", "-q", "-o", str(folder)]) == 0
    return folder


def test_cards_prints_the_csv_it_writes(report: Path, capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    assert main(["cards", str(report), "--format", "csv"]) == 0
    printed = capsys.readouterr().out
    assert printed == (report / cards.CSV_NAME).read_bytes().decode("utf-8")  # CRLF kept
    assert printed.startswith(",".join(cards.CSV_HEADER) + "\r\n")


def test_cards_json_holds_every_row_unrounded(
    report: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    capsys.readouterr()
    assert main(["cards", str(report), "--json"]) == 0
    document = json.loads(capsys.readouterr().out)
    rows = cards.of_report(load_report(report))
    assert rows is not None and len(rows) == 60  # fdc: 2 colours x 3 roles x 10 numbers
    expected = [{**dataclasses.asdict(r), "significant": r.significant} for r in rows]
    assert document == {"cards": expected, "roles": []}
    # The control: the table is for people, not JSON.
    assert main(["cards", str(report)]) == 0
    with pytest.raises(json.JSONDecodeError):
        json.loads(capsys.readouterr().out)


@pytest.fixture()
def game_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    assert main(["init", "--from", "mega-racer", "my-race.yaml"]) == 0
    return tmp_path / "my-race.yaml"


def test_ladder_takes_a_game_file_as_its_game(
    game_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    capsys.readouterr()
    args = ["-p", "2", "-n", "60", "-w", "1", "-q", "--json"]
    assert main(["ladder", "my-race.yaml", *args]) == 0
    played = json.loads(capsys.readouterr().out)
    # The control: a variant of that game file ladders the same game on the same deals.
    Path("v.yaml").write_text("game: ./my-race.yaml\nplayers: 2\nbots: random\n")
    assert main(["ladder", "v.yaml", *args]) == 0
    assert json.loads(capsys.readouterr().out) == played
    assert played["game"] == "my-race" and played["games"] == 60


def test_a_game_file_where_a_variant_is_asked_says_what_it_is(
    game_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["run", "my-race.yaml", "-n", "10", "-q"]) == 2
    assert one_error_line(capsys) == (
        "balancer: error: my-race.yaml:1: is a game file, not a variant: play it from a "
        "variant that says game: ./my-race.yaml (balancer docs new-game)"
    )
    # The control: a variant that forgot its game is told that, not taken for a game file.
    Path("v.yaml").write_text("players: 2\nbots: random\n")
    assert main(["run", "v.yaml", "-n", "10", "-q"]) == 2
    assert "v.yaml:1: missing key 'game'" in one_error_line(capsys)
    assert not Path("reports").exists()


def test_ladder_takes_a_shipped_variants_name_for_its_rules_and_seed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    args = ["-p", "2", "-n", "60", "-w", "1", "-q", "--json"]
    assert main(["ladder", "fdc-5p-face", *args]) == 0
    by_name = json.loads(capsys.readouterr().out)
    # The control: the file itself, by its path, is the same ladder (its seed, its rules).
    assert main(["ladder", str(VARIANTS / "fdc-5p-face.yaml"), *args]) == 0
    assert json.loads(capsys.readouterr().out) == by_name
    assert by_name["seed"] == 20261130


def test_ladder_of_a_variant_checks_its_knobs_at_the_ladders_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # 12 cards each: 48 of fdc's 60 at 4 players, 72 at 6: worked out by hand.
    monkeypatch.chdir(tmp_path)
    Path("big.yaml").write_text("extends: fdc-base.yaml\nplayers: 2\nrules:\n  hand_size: 12\n")
    args = ["-n", "60", "-w", "1", "-q", "--json"]
    assert main(["ladder", "big.yaml", "-p", "6", *args]) == 2
    line = one_error_line(capsys)
    assert line.startswith("balancer: error: --players: can't be played at 6 players")
    assert main(["ladder", "big.yaml", "-p", "4", *args]) == 0  # the control
    assert json.loads(capsys.readouterr().out)["players"] == 4
