"""`balancer run` of a variant with `plays:` measures real decisions, kingmaking, the deal's
share and what search buys on that sample after the games, and report.json's
`how_it_plays`, summary.md (English and Japanese) and a report read back hold them.

Hand-made games of tests/plays_games.py: in SUM a seat scores its hand's sum whatever it
plays, so no choice is a real decision, no gift crowns anyone, the deal decides (share 1)
and search buys nothing; the control PICK (one trick, the higher card wins) has real
decisions, a deal's share under 1 and search beating random.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from balancer.cli import main
from balancer.report.model import Report
from tests import plays_games

OPT_IN = ("real_decisions", "kingmaking", "luck", "search_over_scripted", "search_over_random")


def _run(
    game: str, plays: str, tmp_path: Path, *flags: str, name: str = "p"
) -> tuple[dict[str, Any], Path]:
    folder = plays_games.game_file(game).parent
    file = game.split("\n", 1)[0].removeprefix("name: ")
    variant = folder / f"{file}-{name}.yaml"
    variant.write_text(
        f"game: ./{file}.yaml\nplayers: 2\ngames: 6\nseed: 7\nbots: random\nplays: {plays}\n",
        encoding="utf-8",
    )
    out = tmp_path / name
    assert main(["run", "-q", str(variant), "--out", str(out), *flags]) == 0
    block = json.loads((out / "report.json").read_text(encoding="utf-8"))["how_it_plays"]
    return block, out


def test_sum_where_play_changes_nothing(tmp_path: Path) -> None:
    block, out = _run(plays_games.SUM, "{games: 2, deals: 2, search_budget: 2}", tmp_path)
    assert block["real_decisions"]["mean"] == 0.0 and block["real_decisions"]["n"] == 2
    assert block["kingmaking"]["mean"] == 0.0
    assert block["luck"]["mean"] == 1.0 and block["luck"]["n"] == 2
    assert block["search_over_scripted"]["mean"] == 0.0
    assert block["search_over_random"]["mean"] == 0.0
    for key in OPT_IN:
        low, high = block[key]["ci95"]
        assert low <= block[key]["mean"] <= high and block[key]["se"] >= 0
    # A report read back holds them as written.
    played = Report.open(out).how_it_plays
    assert played is not None and played.luck is not None and played.luck.mean == 1.0
    summary = (out / "summary.md").read_text(encoding="utf-8")
    assert "| Real decisions | 0% |" in summary and "| The deal's share | 100.0% |" in summary
    assert "| Search over random | 0.0% |" in summary
    assert "real_decisions" in (out / "how_it_plays.csv").read_text(encoding="utf-8")


def test_pick_where_play_matters(tmp_path: Path) -> None:
    block, _ = _run(plays_games.PICK, "{games: 3, deals: 8, search_budget: 4}", tmp_path)
    assert block["real_decisions"]["mean"] > 0
    assert block["kingmaking"]["mean"] == 0.0  # two players: no one else to crown
    assert block["luck"]["mean"] < 1
    assert block["search_over_random"]["ci95"][0] > 0  # search plays its highest card
    # The field is lookahead, which plays its highest card too: search buys nothing over it.
    assert block["search_over_scripted"]["mean"] == 0.0


def test_only_the_figures_the_sample_asks_for(tmp_path: Path) -> None:
    no_search, _ = _run(plays_games.SUM, "{deals: 2, search_budget: 0}", tmp_path, name="a")
    assert [k for k in OPT_IN if k in no_search] == ["luck"]
    no_deals, _ = _run(plays_games.SUM, "{games: 2, deals: 0, search_budget: 2}", tmp_path)
    assert [k for k in OPT_IN if k in no_deals] == ["real_decisions", "kingmaking"]


def test_the_rows_in_japanese(tmp_path: Path) -> None:
    plays = "{games: 1, deals: 2, search_budget: 2}"
    _, out = _run(plays_games.SUM, plays, tmp_path, "--lang", "ja", name="ja")
    summary = (out / "summary.md").read_text(encoding="utf-8")
    for label in ("本当の選択", "キングメイキング", "配札の割合", "search とランダムの差"):
        assert f"| {label} |" in summary
    assert "search と定石ボットの差" in (out / "report.html").read_text(encoding="utf-8")


def test_progress_on_stderr(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = plays_games.game_file(plays_games.SUM).parent
    variant = folder / "hp-sum-progress.yaml"
    variant.write_text(
        "game: ./hp-sum.yaml\nplayers: 2\ngames: 4\nseed: 7\nbots: random\n"
        "plays: {games: 2, deals: 2, search_budget: 2}\n",
        encoding="utf-8",
    )
    assert main(["run", str(variant), "--out", str(tmp_path / "o")]) == 0
    # 2 games watched, then 2 deals × (1 field game + 2 seats × 2 other bots).
    assert "playing 12 games of hp-sum-progress plays:" in capsys.readouterr().err
