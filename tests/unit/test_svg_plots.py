"""The SVG kit's analysis charts: an interval chart and a heatmap, read back from their markup."""

from __future__ import annotations

import re

import pytest

from balancer.report import svg
from balancer.report.svg_plots import (
    APART,
    BEST,
    PLOT_HEIGHT,
    SAME,
    Cell,
    Panel,
    PlotPoint,
    Series,
    heatmap_chart,
    interval_chart,
)


def _chart(limits: tuple[float, float], points: list[PlotPoint]) -> str:
    return interval_chart(
        ["a", "b", "c"], [Series(points, "#123456")], limits, x_title="k", y_title="f"
    ).render()


def test_every_point_has_its_whisker_and_its_style() -> None:
    points = [
        PlotPoint(0, 1.0, 0.8, 1.2, APART),
        PlotPoint(1, 2.0, 1.9, 2.1, SAME),
        PlotPoint(2, 3.0, 2.5, 3.5, BEST),
    ]
    drawn = _chart((0.0, 4.0), points)
    assert drawn.count('class="ci"') == 3 and drawn.count('class="cap"') == 6
    assert drawn.count('class="point apart"') == 1 and drawn.count('class="point best"') == 1
    assert drawn.count('class="point best-ring"') == 1 and drawn.count('class="point same"') == 1
    # The whisker spans the interval on the value axis: 0..4 over the plot's height.
    [x, y1, y2] = re.findall(
        r'<line x1="([\d.]+)" y1="([\d.]+)" x2="[\d.]+" y2="([\d.]+)"[^>]*class="ci"', drawn
    )[2]
    top, bottom = sorted(float(v) for v in (y1, y2))
    assert (bottom - top) / PLOT_HEIGHT == pytest.approx(1.0 / 4.0, abs=0.01)


def test_an_axis_from_zero_has_no_break_mark_and_one_above_it_has() -> None:
    points = [PlotPoint(0, 6.4, 6.3, 6.5)]
    assert 'class="axis-break"' not in _chart((0.0, 7.0), points)
    assert _chart((6.0, 7.0), points).count('class="axis-break"') == 2
    # A point without an interval draws no whisker.
    assert 'class="ci"' not in _chart((0.0, 7.0), [PlotPoint(0, 6.4)])


def test_a_heatmap_draws_each_cell_with_its_fill_and_text() -> None:
    cells = [
        [Cell("1\n[0, 2]", "#aaaaaa"), None],
        [Cell("3", "#bbbbbb", dark=True), Cell("4", "#cccccc")],
    ]
    drawn = heatmap_chart(
        [Panel("", ["x1", "x2"], ["y1", "y2"], cells)], x_title="x", y_title="y", caption="c"
    ).render()
    fills = re.findall(r'fill="(#[0-9a-f]+)" class="cell"', drawn)
    assert fills == ["#aaaaaa", "#f3f4f6", "#bbbbbb", "#cccccc"]  # the empty cell: pale grey
    assert drawn.count('class="cell-text"') == 3
    assert 'fill="white" class="cell-text">3<' in drawn  # dark fill: white text


def test_standalone_drawing_is_an_svg_file() -> None:
    chart = svg.Chart(10)
    assert chart.render().startswith("<svg viewBox")
    whole = chart.render(standalone=True)
    assert whole.startswith(
        '<?xml version="1.0" encoding="utf-8"?>\n<svg xmlns="http://www.w3.org/2000/svg"'
    )
