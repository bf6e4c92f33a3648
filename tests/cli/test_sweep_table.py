"""The sweep's printed table: intervals at their precision, the figures the knobs move most."""

from __future__ import annotations

import json
import re

import polars as pl

from balancer.analysis.sweep_table import WIDTH, cell, movement, render, shown_figures


def _table() -> pl.DataFrame:
    # Three points of one knob. `moved` goes 1 -> 3 with half-width 0.1 (spread 20
    # half-widths); `still` wobbles by 0.01 inside half-width 0.1 (spread 0.2); `flat` is
    # identical everywhere; `sd` has no interval.
    return pl.DataFrame(
        {
            "k": ["1", "2", "3"],
            "chart": [0.5, 0.5, 0.5],
            "chart.ci95_low": [0.4, 0.4, 0.4],
            "chart.ci95_high": [0.6, 0.6, 0.6],
            "still": [2.0, 2.01, 2.0],
            "still.ci95_low": [1.9, 1.91, 1.9],
            "still.ci95_high": [2.1, 2.11, 2.1],
            "moved": [1.0, 2.0, 3.0],
            "moved.ci95_low": [0.9, 1.9, 2.9],
            "moved.ci95_high": [1.1, 2.1, 3.1],
            "flat": [7.0, 7.0, 7.0],
            "flat.ci95_low": [6.0, 6.0, 6.0],
            "flat.ci95_high": [8.0, 8.0, 8.0],
            "sd": [9.0, 1.0, 5.0],
        }
    )


def test_movement_is_spread_over_the_interval_half_width() -> None:
    table = _table()
    assert abs(movement(table, "moved") - 20.0) < 1e-9
    assert abs(movement(table, "still") - 0.1) < 1e-9
    assert movement(table, "flat") == 0.0
    assert movement(table, "sd") == 0.0  # no interval: no measure of noise, never ranked


def test_shown_figures_are_the_charted_one_then_the_most_moved() -> None:
    # `still` moved less than its noise, `flat` and `sd` not at all by this measure: not shown.
    assert shown_figures(_table(), ["k"], "chart") == ["chart", "moved"]


def test_a_cell_shows_the_digits_its_interval_backs() -> None:
    row = {"f": 0.41234, "f.ci95_low": 0.39811, "f.ci95_high": 0.42655}  # width 0.028: 2 digits
    assert cell(row, "f") == "0.412 [0.398, 0.427]"
    row = {"f": 12.345, "f.ci95_low": 8.0, "f.ci95_high": 16.0}  # width 8: one digit, units
    assert cell(row, "f") == "12 [8, 16]"
    assert cell(row, "f", places=1) == "12.3 [8.0, 16.0]"  # a column's finer precision
    assert cell({"f": 0.1719}, "f") == "0.1719"  # no interval: the value alone


def test_every_row_of_a_column_has_the_same_decimals() -> None:
    # The column: 3.521 / 3.51 / 12.97 (widths 0.8, 0.8, 0.04): all at the typical
    # row's tenths.
    table = pl.DataFrame(
        {
            "k": ["a", "b", "c"],
            "f": [3.521, 3.51, 12.97],
            "f.ci95_low": [3.121, 3.11, 12.95],
            "f.ci95_high": [3.921, 3.91, 12.99],
        }
    )
    lines = render(table, ["k"], "f", "table").splitlines()[2:5]
    shown = [line.split(None, 1)[1] for line in lines]
    # (12.95 is 12.9499... as a float: 12.9)
    assert shown == ["3.5 [3.1, 3.9]", "3.5 [3.1, 3.9]", "13.0 [12.9, 13.0]"]
    assert {len(n.split(".")[1]) for s in shown for n in re.findall(r"[\d.]+", s)} == {1}


def test_the_table_is_formatted_not_a_dataframe_dump() -> None:
    text = render(_table(), ["k"], "chart", "table")
    assert "shape" not in text and "str" not in text.split("\n")[1]  # no dtype row
    assert max(len(line) for line in text.splitlines()) <= WIDTH
    first = text.splitlines()[2]
    assert first.split()[:3] == ["1", "0.50", "[0.40,"]


def test_every_format_holds_the_points() -> None:
    table = _table()
    parsed = json.loads(render(table, ["k"], "chart", "json"))
    assert parsed["figure"] == "chart" and [p["k"] for p in parsed["points"]] == ["1", "2", "3"]
    assert pl.read_csv(render(table, ["k"], "chart", "csv").encode()).columns == table.columns
    md = render(table, ["k"], "chart", "md").splitlines()
    assert md[0].startswith("| ` k ` | ` chart ` | ` moved ` |") and md[1] == "|---|--:|--:|"
