"""The `plays:` figures are names of the one figure vocabulary (analysis/figure_names.py):
known before any game is played for a variant that asks for them, charted by
`sweep --figure`, and refused up front, in one line saying why, for one that doesn't."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from balancer.analysis import figure_names, sweep
from balancer.cli import main
from balancer.config.variant import Variant, load
from balancer.report.model import Report
from tests import plays_games
from tests.helpers import one_error_line

ALL_FIVE = [
    "how_it_plays.real_decisions.share",
    "how_it_plays.kingmaking.share",
    "how_it_plays.luck.share",
    "how_it_plays.search_over_scripted.mean",
    "how_it_plays.search_over_random.mean",
]


def _variant(game: str, plays: str | None, name: str) -> Variant:
    folder = plays_games.game_file(game).parent
    file = game.split("\n", 1)[0].removeprefix("name: ")
    path = folder / f"{file}-{name}.yaml"
    text = f"game: ./{file}.yaml\nplayers: 2\ngames: 6\nseed: 7\nbots: random\n"
    path.write_text(text + (f"plays: {plays}\n" if plays else ""), encoding="utf-8")
    return load(path)


def test_a_variant_has_the_names_its_sample_asks_for() -> None:
    def names(plays: str | None) -> list[str]:
        found = figure_names.variant_figures(_variant(plays_games.SUM, plays, "names"))
        return [n for n in found if n in ALL_FIVE]

    assert names(None) == []
    assert names("{deals: 2, search_budget: 2}") == ALL_FIVE
    assert names("{deals: 2, search_budget: 0}") == ["how_it_plays.luck.share"]
    assert names("{deals: 0, search_budget: 2}") == ALL_FIVE[:2]


def test_the_names_known_before_are_the_columns_a_run_gets(tmp_path: Path) -> None:
    loaded = _variant(plays_games.SUM, "{games: 2, deals: 2, search_budget: 2}", "columns")
    assert main(["run", "-q", loaded.path, "--out", str(tmp_path / "r")]) == 0
    report = Report.open(tmp_path / "r")
    row = sweep.headline_row({}, report)
    assert sweep.expected_columns(loaded, []) == list(row)
    assert row["how_it_plays.luck.share"] == 1.0  # SUM: the deal decides


def test_sweep_charts_a_plays_figure(tmp_path: Path) -> None:
    loaded = _variant(plays_games.PICK, "{games: 1, deals: 4, search_budget: 2}", "sweep")
    figure = "how_it_plays.search_over_random.mean"
    argv = ["sweep", "-q", loaded.path, "--set", "rules.hand_size=2,4", "--figure", figure]
    assert main([*argv, "--out", str(tmp_path / "s"), "-w", "1"]) == 0
    rows = list(csv.DictReader((tmp_path / "s" / "sweep.csv").open(encoding="utf-8")))
    assert [r["hand_size"] for r in rows] == ["2", "4"]
    for row, point in zip(rows, sorted((tmp_path / "s").glob("00*")), strict=True):
        block = json.loads((point / "report.json").read_text(encoding="utf-8"))["how_it_plays"]
        assert float(row[figure]) == block["search_over_random"]["mean"]
        low, high = block["search_over_random"]["ci95"]
        assert float(row[figure + ".ci95_low"]) == low and float(row[figure + ".ci95_high"]) == high
    assert "search_over_random" in (tmp_path / "s" / "sweep.svg").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("plays", "figure", "said"),
    [
        (None, "how_it_plays.kingmaking.share", "needs `plays:` in the variant"),
        ("{search_budget: 0}", "how_it_plays.kingmaking.share", "needs search"),
        ("{deals: 0}", "how_it_plays.luck.share", "needs duplicate play"),
    ],
)
def test_sweep_refuses_a_plays_figure_the_variant_does_not_measure(
    plays: str | None, figure: str, said: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    loaded = _variant(plays_games.PICK, plays, "refused")
    argv = ["sweep", "-q", loaded.path, "--set", "rules.hand_size=2,4", "--figure", figure]
    assert main([*argv, "--out", str(tmp_path / "s")]) == 2
    line = one_error_line(capsys)
    assert "--figure" in line and figure in line and said in line, line
    assert not (tmp_path / "s").exists()  # before any game
