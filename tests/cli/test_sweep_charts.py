"""Sweep charts that can't mislead: intervals, a baseline, and only real differences shaded."""

from __future__ import annotations

import polars as pl
import pytest

from balancer.analysis import sweep
from balancer.analysis.sweep_points import Point, axis_limits, differs_from, holm, p_value, tiers


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
    fig = sweep._line_chart(_one_knob([1.0, 1.5, 3.0], half=0.1), "margin.mean", "k")
    ax = fig.axes[0]
    labels = [line.get_label() for line in ax.lines]
    assert "differs from the highest (Holm, 5%)" in labels
    hollow = next(line for line in ax.lines if line.get_label().startswith("differs"))
    assert list(hollow.get_xdata()) == [0, 1]  # the two lower points, not the highest
    assert len(ax.containers) == 1 and ax.containers[0].has_yerr  # the intervals
    flat = sweep._line_chart(_one_knob([1.0, 1.05, 1.02], half=0.2), "margin.mean", "k")
    assert not any(line.get_label().startswith("differs") for line in flat.axes[0].lines)


def test_a_heatmap_shades_only_what_can_be_told_apart() -> None:
    from matplotlib.image import AxesImage

    def shades(values: list[float], half: float) -> list[float]:
        table = _one_knob(values, half).with_columns(
            pl.Series("j", ["a", "b"] * (len(values) // 2))
        )
        table = table.with_columns(pl.Series("k", [str(i // 2) for i in range(len(values))]))
        fig = sweep._heatmaps(table, "margin.mean", ["k", "j"])
        [image] = [a for ax in fig.axes for a in ax.images if isinstance(a, AxesImage)]
        return sorted(set(image.get_array().compressed().tolist()))

    # The 0.236..0.270 grid, every interval overlapping: one shade.
    assert len(shades([0.236, 0.245, 0.252, 0.27], half=0.03)) == 1
    # The same values measured sharply: three tiers.
    assert len(shades([0.236, 0.245, 0.252, 0.27], half=0.002)) == 3
