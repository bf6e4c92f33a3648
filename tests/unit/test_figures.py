"""The cross-checks' shared machinery (tests/reference/figures.py), by hand."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats as sps

from tests.reference import figures as fig


def test_holm_by_hand() -> None:
    # m = 4: sorted 0.01, 0.02, 0.03, 0.5 -> 0.04, 0.06, 0.06 (monotone), 0.5.
    assert fig.holm([0.03, 0.01, 0.5, 0.02]) == pytest.approx([0.06, 0.04, 0.5, 0.06])


def test_two_proportion_by_hand() -> None:
    # 30/100 vs 50/100: pooled 0.4, se = sqrt(0.24 * 0.02) = 0.069282, z = 2.88675.
    a = np.array([1.0] * 30 + [0.0] * 70)
    b = np.array([1.0] * 50 + [0.0] * 50)
    assert fig.two_proportion_p(a, b) == pytest.approx(2 * sps.norm.sf(0.2 / math.sqrt(0.0048)))
    assert fig.two_proportion_p(np.zeros(5), np.zeros(7)) == 1.0


@pytest.mark.parametrize("value", [1.0, 5.0, 20.0])
def test_welch_constant_samples(value: float) -> None:
    assert fig.welch_p(np.full(5, value), np.full(9, value)) == 1.0
    assert fig.welch_p(np.full(5, value), np.full(9, value + 1)) == 0.0


def test_layout_turns_rows_into_figures_in_order() -> None:
    layout = fig.Layout(
        score="chips", length="deals", events=("busts", "peak"), mean_only=("peak",)
    )
    rows = [
        ([3.0, 3.0, 1.0], 4, {"busts": 0, "peak": 2}),
        ([0.0, 5.0, 2.0], 6, {"busts": 2, "peak": 1}),
    ]
    sample = layout.sample(rows, 3)
    assert list(sample) == [
        "seat0.chips", "seat0.win", "seat1.chips", "seat1.win", "seat2.chips", "seat2.win",
        "deals", "busts.per_game", "busts.share", "peak.per_game",
    ]  # fmt: skip
    assert sample["seat0.win"].tolist() == [0.5, 0.0]  # a tie for best shares the win
    assert sample["seat2.chips"].tolist() == [1.0, 2.0]
    assert sample["busts.share"].tolist() == [0.0, 1.0]
    lowest = fig.Layout(score="total", length="rounds", events=(), higher_is_better=False)
    assert lowest.sample(rows, 3)["seat2.win"].tolist() == [1.0, 0.0]


def test_compare_tests_each_figure_and_holm_adjusts_them_together() -> None:
    same = {"x.per_game": np.arange(10.0), "x.share": np.array([0.0, 1.0] * 5)}
    apart = {"x.per_game": np.arange(10.0) + 100, "x.share": np.ones(10)}
    figures, timing = fig.compare(("a", "b"), lambda g: same, lambda g: same if g == "a" else apart)
    assert [(f.group, f.name) for f in figures] == [
        ("a", "x.per_game"), ("a", "x.share"), ("b", "x.per_game"), ("b", "x.share"),
    ]  # fmt: skip
    assert figures[2].p == fig.welch_p(same["x.per_game"], apart["x.per_game"])
    assert figures[3].p == fig.two_proportion_p(same["x.share"], apart["x.share"])
    assert [f.p_holm for f in figures] == fig.holm([f.p for f in figures])
    assert [(f.group, f.name) for f in fig.disagreeing(figures)] == [("b", "x.per_game")]
    assert set(timing) == {"engine", "reference"}
    table = fig.describe(figures, "variant").splitlines()
    assert table[0].split() == ["variant", "figure", "engine", "reference", "p", "p_holm"]
    assert table[3].split()[:4] == ["b", "x.per_game", "4.5000", "104.5000"]
