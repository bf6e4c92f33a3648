"""Sweep charts that can't mislead: intervals, a baseline, and only real differences shaded."""

from __future__ import annotations

import re
from pathlib import Path

import polars as pl
import pytest

from balancer.analysis import sweep
from balancer.analysis.sweep_points import Point, axis_limits, differs_from, holm, p_value, tiers
from balancer.cli import main
from tests.helpers import VARIANTS

pytestmark = pytest.mark.usefixtures("engine_unchecked")


def _one_knob(values: list[float], half: float, name: str = "margin.mean") -> pl.DataFrame:
    return pl.DataFrame(
        {
            "k": [str(i) for i in range(len(values))],
            name: values,
            f"{name}.ci95_low": [v - half for v in values],
            f"{name}.ci95_high": [v + half for v in values],
        }
    )


def test_p_value_and_holm_by_hand() -> None:
    # Two points 0.2 apart, each with se 0.05 (half-width 1.96 * 0.05): z = 0.2 / (0.05√2).
    a, b = Point(1.0, 1.0 - 0.098, 1.0 + 0.098), Point(1.2, 1.2 - 0.098, 1.2 + 0.098)
    z = 0.2 / (0.05 * 2**0.5)
    assert p_value(a, b) == pytest.approx(
        2 * (1 - 0.5 * (1 + __import__("math").erf(z / 2**0.5))), rel=1e-2
    )
    assert holm([0.01, 0.04, 0.03]) == pytest.approx([0.03, 0.06, 0.06])


def test_a_flat_sweep_has_no_point_apart_and_one_shade() -> None:
    # The case: 6.35..6.43, every interval ±0.08 overlapping every other.
    flat = [Point(v, v - 0.08, v + 0.08) for v in (6.35, 6.41, 6.43, 6.38, 6.36)]
    assert differs_from(flat, 2) == [False] * 5
    assert tiers(flat) == [2] * 5
    # The control: the same points with narrow intervals do differ.
    # se 0.005 / 1.96 each: 6.351 against 6.35 is z = 0.001 / 0.0036 = 0.28, no difference;
    # every other pair is 0.02 or more apart, z >= 5.5.
    sharp = [Point(v, v - 0.005, v + 0.005) for v in (6.35, 6.41, 6.43, 6.38, 6.351)]
    assert differs_from(sharp, 2) == [True, True, False, True, True]
    assert tiers(sharp) == [0, 1, 2, 1, 0]


def test_the_axis_is_never_zoomed_into_the_noise() -> None:
    table = _one_knob([6.35, 6.41, 6.43, 6.38, 6.36], half=0.08)
    low, high = axis_limits(sweep.points_of(table, "margin.mean"))  # type: ignore[misc]
    # Every interval in view, and the axis at least 3 interval widths (0.48) tall.
    assert low <= 6.27 and high >= 6.51 and high - low >= 3 * 0.16
    # A share near 0 keeps 0 as its baseline; one far from 0 is not squashed against it.
    near = axis_limits(sweep.points_of(_one_knob([0.05, 0.08], 0.02), "margin.mean"))
    far = axis_limits(sweep.points_of(_one_knob([6.35, 6.43], 0.02), "margin.mean"))
    assert near is not None and near[0] == 0.0
    assert far is not None and far[0] > 6.0


def test_the_line_chart_marks_points_apart_from_the_highest_and_draws_every_interval() -> None:
    drawn = sweep.line_chart(_one_knob([1.0, 1.5, 3.0], half=0.1), "margin.mean", "k").render()
    assert "differs from the highest (Holm, 5%)" in drawn  # the legend names the hollow marks
    assert drawn.count('class="ci"') == 3  # a whisker per point
    # The two lower points are hollow (told apart from the highest), the highest filled.
    assert drawn.count('class="point apart"') == 2 and drawn.count('class="point same"') == 1
    hollow = re.findall(r'<circle cx="([\d.]+)"[^>]*class="point apart"', drawn)
    filled = re.findall(r'<circle cx="([\d.]+)"[^>]*class="point same"', drawn)
    assert max(map(float, hollow)) < float(filled[0])  # the hollow ones left of the highest
    flat = sweep.line_chart(_one_knob([1.0, 1.05, 1.02], half=0.2), "margin.mean", "k").render()
    assert flat.count('class="ci"') == 3 and flat.count('class="point same"') == 3
    assert 'class="point apart"' not in flat and "differs from" not in flat


def _cells(drawn: str) -> list[str]:
    """Each heatmap cell's fill, in drawing order."""
    return re.findall(r'<rect [^>]*fill="(#[0-9a-f]+)" class="cell"', drawn)


def _cell_texts(drawn: str) -> list[str]:
    """Each cell's text, its lines joined by newlines."""
    found = re.findall(r'<text [^>]*class="cell-text">(.*?)</text>', drawn)
    return [re.sub(r"<tspan[^>]*>", "\n", t).replace("</tspan>", "") for t in found]


def test_a_heatmap_shades_only_what_can_be_told_apart() -> None:
    def shades(values: list[float], half: float) -> list[str]:
        table = _one_knob(values, half).with_columns(
            pl.Series("j", ["a", "b"] * (len(values) // 2))
        )
        table = table.with_columns(pl.Series("k", [str(i // 2) for i in range(len(values))]))
        drawn = sweep.heatmaps(table, "margin.mean", ["k", "j"]).render()
        assert len(_cells(drawn)) == len(values)
        return sorted(set(_cells(drawn)))

    # The 0.236..0.270 grid, every interval overlapping: one shade.
    assert shades([0.236, 0.245, 0.252, 0.27], half=0.03) == [sweep.ONE_SHADE]
    # The same values measured sharply: three tiers.
    assert shades([0.236, 0.245, 0.252, 0.27], half=0.002) == sorted(sweep.SHADES)


def test_a_sweep_of_a_knob_that_changes_nothing_draws_nothing_apart(tmp_path: Path) -> None:
    """At 3 players a trick has 2 followers, so 猫に小判 needs at most 2: with
    neko_min_followers 3 or 4 it never fires, and both points play the very same
    games. The control: fish counted by their face (0..9) instead of 1 each widen
    the margin between first and second several times over."""
    base = ["sweep", "-q", str(VARIANTS / "fdc-3p.yaml"), "-n", "200"]
    same = tmp_path / "same"
    assert main([*base, "-o", str(same), "--set", "neko_min_followers=3,4",
                 "--figure", "margin.mean"]) == 0  # fmt: skip
    drawn = (same / "sweep.svg").read_text(encoding="utf-8")
    assert drawn.count('class="ci"') == 2 and drawn.count('class="point same"') == 2
    assert 'class="point apart"' not in drawn
    moved = tmp_path / "moved"
    assert main([*base, "-o", str(moved), "--set", "cash_value=count,face",
                 "--figure", "margin.mean"]) == 0  # fmt: skip
    drawn = (moved / "sweep.svg").read_text(encoding="utf-8")
    assert drawn.count('class="ci"') == 2 and drawn.count('class="point apart"') == 1
