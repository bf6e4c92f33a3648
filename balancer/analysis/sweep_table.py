"""How a sweep reads on the command line: a table of points like `diff`'s, or md, csv, json.

Each shown figure is its value with its 95% interval, at the precision the
intervals allow (balancer/numbers.py: one number of decimals per column), so
a column never shows digits that are noise and its digits line up. Which
figures: the charted one, then
those the swept knobs move most, measured as the spread of the points'
values over the typical interval half-width (a figure whose points all lie
within each other's noise moves by about 1 or less); ties keep the order of
sweep.csv.
"""

from __future__ import annotations

import json
import math
import textwrap
from typing import TYPE_CHECKING, Any

from balancer.analysis.figure_names import HIGH, LOW
from balancer.escape import code_span, terminal
from balancer.numbers import column_decimals, plain, with_interval

# Imported by `balancer sweep --help` (its FORMATS): polars only when a table is made.
if TYPE_CHECKING:
    import polars as pl

# Besides the charted figure, how many of the most-moved figures the table shows.
MOVED_SHOWN = 3
# A figure whose points spread by less than one interval half-width has not moved beyond
# its noise: not shown as one the knobs move.
NOISE = 1.0
FORMATS = ("table", "md", "csv", "json")
WIDTH = 100  # the terminal table fits a 100-column terminal, as diff's does


def figures_of(table: pl.DataFrame, knob_columns: list[str]) -> list[str]:
    """The figure columns of a sweep table (not the knobs, not the intervals' bounds)."""
    return [c for c in table.columns if c not in knob_columns and not c.endswith((LOW, HIGH))]


def movement(table: pl.DataFrame, figure: str) -> float:
    """How far the points' values spread, in units of their median interval half-width.

    0 with no interval (a figure without one is never picked for moving) or no spread.
    """
    low, high = figure + LOW, figure + HIGH
    if low not in table.columns or high not in table.columns:
        return 0.0
    values = [v for v in table[figure].to_list() if v is not None and math.isfinite(v)]
    halves = sorted(
        (h - lo) / 2
        for lo, h in zip(table[low].to_list(), table[high].to_list(), strict=True)
        if lo is not None and h is not None and math.isfinite(h - lo)
    )
    if len(values) < 2 or not halves:
        return 0.0
    spread = max(values) - min(values)
    half = halves[len(halves) // 2]
    if half <= 0:
        return math.inf if spread > 0 else 0.0
    return spread / half


def shown_figures(table: pl.DataFrame, knob_columns: list[str], figure: str) -> list[str]:
    """The charted figure, then the MOVED_SHOWN figures the knobs move most (beyond NOISE)."""
    ranked = sorted(
        (f for f in figures_of(table, knob_columns) if f != figure),
        key=lambda f: -movement(table, f),
    )
    moved = [f for f in ranked if movement(table, f) > NOISE][:MOVED_SHOWN]
    return [figure, *moved]


def _plain(value: Any) -> str:
    if value is None or (isinstance(value, float) and not math.isfinite(value)):
        return "-"
    if isinstance(value, float):
        return plain(value)
    return str(value)


def column_places(table: pl.DataFrame, figure: str) -> int | None:
    """One number of decimals for `figure`'s column (numbers.column_decimals)."""
    low, high = figure + LOW, figure + HIGH
    if low not in table.columns or high not in table.columns:
        return None
    return column_decimals(zip(table[low].to_list(), table[high].to_list(), strict=True))


def cell(row: dict[str, Any], figure: str, places: int | None = None) -> str:
    """`0.412 [0.398, 0.426]` at the interval's precision (`places`: the column's, as
    column_places gives it); the value alone without one."""
    value, low, high = row[figure], row.get(figure + LOW), row.get(figure + HIGH)
    if value is None or low is None or high is None:
        return _plain(value)
    return with_interval(value, low, high, places)


def _grid(table: pl.DataFrame, knob_columns: list[str], figures: list[str]) -> list[list[str]]:
    head = [*knob_columns, *figures]
    places = [column_places(table, f) for f in figures]
    rows = [
        [str(row[k]) for k in knob_columns]
        + [cell(row, f, p) for f, p in zip(figures, places, strict=True)]
        for row in table.iter_rows(named=True)
    ]
    return [head, *rows]


def render(
    table: pl.DataFrame, knob_columns: list[str], figure: str, fmt: str, lang: str | None = None
) -> str:
    """The sweep's points as `fmt`: table (terminal), md, csv (sweep.csv) or json; the
    table's and md's sentences in `lang` (csv and json are for programs)."""
    from balancer import i18n

    if fmt == "csv":
        from balancer.report.csv_numbers import for_csv

        return for_csv(table).write_csv()
    if fmt == "json":
        return json.dumps(
            {"figure": figure, "knobs": knob_columns, "points": table.to_dicts()},
            indent=2,
            default=str,
        )
    figures = shown_figures(table, knob_columns, figure)
    if fmt == "md":
        grid = _grid(table, knob_columns, figures)
        lines = ["| " + " | ".join(code_span(c) for c in grid[0]) + " |"]
        lines.append("|" + "|".join("---" if i < len(knob_columns) else "--:" for i in
                                    range(len(grid[0]))) + "|")  # fmt: skip
        for line in grid[1:]:
            knobs, cells = line[: len(knob_columns)], line[len(knob_columns) :]
            # A cell is digits, brackets and a comma: nothing Markdown reads as markup.
            lines.append("| " + " | ".join([*map(code_span, knobs), *cells]) + " |")
        lines += ["", i18n.text("sweep.md_key", lang)]
        return "\n".join(lines)
    # As many of the shown figures as fit WIDTH columns (the charted one always).
    while True:
        grid = [[terminal(c) for c in line] for line in _grid(table, knob_columns, figures)]
        widths = [max(len(line[i]) for line in grid) for i in range(len(grid[0]))]
        if len(figures) == 1 or sum(widths) + 2 * (len(widths) - 1) <= WIDTH:
            break
        figures = figures[:-1]
    right = set(range(len(knob_columns), len(widths)))
    out = []
    for n, line in enumerate(grid):
        parts = [c.rjust(w) if i in right else c.ljust(w) for i, (c, w) in
                 enumerate(zip(line, widths, strict=True))]  # fmt: skip
        out.append("  ".join(parts).rstrip())
        if n == 0:
            out.append("  ".join("-" * w for w in widths))
    out.append("")
    key = i18n.text("sweep.key", lang, figure=figure)
    if lang == "ja":
        from balancer.analysis.diff_render import _wrapped_wide

        out += _wrapped_wide(key, "")
    else:
        out += textwrap.wrap(key, WIDTH)
    return "\n".join(out)
