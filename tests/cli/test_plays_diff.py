"""`diff` of two reports with `plays:` figures: a row each, both estimates with the change's
interval, a z-test on their standard errors (stats/compare.py's Estimate), in the same Holm
family as every other row; left out, with a warning, when only one report has it."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from scipy import stats as sps

from balancer.cli import main
from balancer.stats import compare
from tests import plays_games

Z95 = 1.959963984540054


def test_a_z_test_worked_by_hand() -> None:
    """A 0.2 (se 0.3), B 1.2 (se 0.4): change 1, se √(0.09 + 0.16) = 0.5, z = 2,
    p = 2 Φ(−2) = 0.0455, interval 1 ± 1.96 × 0.5."""
    a = compare.Estimate("x", "share", 0.2, 0.3, 10)
    b = compare.Estimate("x", "share", 1.2, 0.4, 12)
    d = compare.estimate_difference(a, b)
    assert d.change == pytest.approx(1.0) and d.se == pytest.approx(0.5)
    assert d.p_value() == pytest.approx(0.04550026389635842)
    assert d.interval() == pytest.approx((1 - Z95 * 0.5, 1 + Z95 * 0.5))
    (row,) = compare.compare_figures([(a, b)], paired=True)
    assert row.test == "z (standard errors)" and not row.paired
    assert row.p_adjusted == pytest.approx(0.04550026389635842)  # a family of one
    assert (row.n_a, row.n_b) == (10, 12)


def _report(game: str, plays: str | None, name: str, tmp_path: Path) -> Path:
    folder = plays_games.game_file(game).parent
    file = game.split("\n", 1)[0].removeprefix("name: ")
    variant = folder / f"{file}-diff-{name}.yaml"
    text = f"game: ./{file}.yaml\nplayers: 2\ngames: 10\nseed: 7\nbots: random\n"
    variant.write_text(text + (f"plays: {plays}\n" if plays else ""), encoding="utf-8")
    out = tmp_path / name
    assert main(["run", "-q", str(variant), "--out", str(out)]) == 0
    return out


def _diff(a: Path, b: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    capsys.readouterr()
    assert main(["diff", str(a), str(b), "--format", "json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_each_plays_figure_is_a_row_in_the_holm_family(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a = _report(plays_games.SUM, "{games: 2, deals: 3, search_budget: 2}", "a", tmp_path)
    b = _report(plays_games.PICK, "{games: 3, deals: 8, search_budget: 4}", "b", tmp_path)
    got = _diff(a, b, capsys)
    rows = {row["figure"]: row for row in got["rows"]}
    blocks = [json.loads((f / "report.json").read_text())["how_it_plays"] for f in (a, b)]
    keys = ("real_decisions", "kingmaking", "luck", "search_over_scripted", "search_over_random")
    for key in keys:
        name = next(n for n in rows if n.startswith(f"how_it_plays.{key}."))
        row, fa, fb = rows[name], blocks[0][key], blocks[1][key]
        assert (row["a"], row["b"]) == (fa["mean"], fb["mean"])
        se = math.hypot(fa["se"], fb["se"])
        if se == 0 and fa["mean"] == fb["mean"]:  # kingmaking 0 in both: nothing to test
            assert not row["in_family"] and row["test"] == "none (no variation)"
            continue
        assert row["test"] == "z (standard errors)"
        change = fb["mean"] - fa["mean"]
        assert row["ci95"] == pytest.approx([change - Z95 * se, change + Z95 * se])
        assert row["p_value"] == pytest.approx(2 * sps.norm.sf(abs(change) / se))
        assert row["in_family"]
    # One family: Holm over every tested row, the plays: rows among them.
    family = [row for row in got["rows"] if row["in_family"]]
    assert got["family_size"] == len(family)
    adjusted = compare.holm([row["p_value"] for row in family])
    assert np.allclose([row["p_adjusted"] for row in family], adjusted)
    assert rows["how_it_plays.search_over_random.mean"]["in_family"]
    assert rows["how_it_plays.luck.share"]["in_family"]


def test_a_figure_only_one_report_has_is_not_compared(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a = _report(plays_games.SUM, "{games: 1, deals: 2, search_budget: 0}", "a", tmp_path)
    b = _report(plays_games.SUM, None, "b", tmp_path)
    got = _diff(a, b, capsys)
    assert not [row for row in got["rows"] if row["figure"] == "how_it_plays.luck.share"]
    assert "plays: figures only in A, not compared: how_it_plays.luck.share" in got["warnings"]
