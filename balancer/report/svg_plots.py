"""Two charts for analyses, drawn with the SVG kit (svg.py): intervals over a knob, and a heatmap.

`interval_chart`: one mark per point with its 95% interval as a whisker, the
points of a series joined in order, each mark drawn in the style its caller
chose (SAME: filled; APART: hollow, told apart from the reference point;
BEST: ringed). The value axis is the caller's (sweep_points.axis_limits: every
interval in view, never zoomed into the noise); when it does not start at 0
a break mark on the axis says so.

`heatmap_chart`: panels of cells, each cell a fill and its text (a value and
its interval); the caller picks the fills, so the colours say only what it
decided can be told apart.

Both are the kit's markup: fixed arithmetic, the same inputs the same bytes,
every text SVG text the browser draws (Japanese included), escaped by the kit.
"""

from __future__ import annotations

import math
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass

from balancer.report import svg

SAME = "same"  # can't be told from the reference: filled
APART = "apart"  # told apart from the reference: hollow
BEST = "best"  # the reference itself, when it is marked: ringed

BEST_RING = "#b5464b"
REFERENCE_LINE = "#5b6472"
PLOT_HEIGHT = 260.0
SLANT = -30.0


@dataclass(frozen=True)
class PlotPoint:
    """One mark: in x slot `slot`, its value and 95% interval (None: no interval)."""

    slot: int
    value: float
    low: float | None = None
    high: float | None = None
    style: str = SAME


@dataclass(frozen=True)
class Series:
    points: Sequence[PlotPoint]
    colour: str
    name: str = ""  # in the legend when there are several series


def wrapped(text: str, width: float, size: float = svg.SMALL) -> str:
    """`text` broken into lines at most `width` units wide: at spaces, or anywhere in
    text without them (Japanese)."""
    per_line = max(8, int(width / (0.6 * size)))
    if " " in text.strip():
        return "\n".join(textwrap.wrap(text, per_line)) or text
    lines, current = [], ""
    for ch in text:
        if current and svg.text_width(current + ch, size) > width:
            lines.append(current)
            current = ""
        current += ch
    return "\n".join([*lines, current])


def _marker(
    chart: svg.Chart, x: float, y: float, style: str, colour: str, kind: str = "point"
) -> None:
    """A point's mark in its style; `kind` "key" for the legend's, so the points can be counted."""
    if style == BEST:
        chart.circle(x, y, 8.5, "none", BEST_RING, 2.0, cls=f"{kind} best-ring")
    if style == APART:
        chart.circle(x, y, 4.5, "white", colour, 1.8, cls=f"{kind} apart")
    else:
        chart.circle(x, y, 4.5, colour, cls=f"{kind} {style}")


def _legend(
    chart: svg.Chart, entries: Sequence[tuple[str, str, str]], left: float, y: float
) -> None:
    """Marker and text per entry, side by side from `left` (the caller leaves the room)."""
    x = left
    for style, colour, text in entries:
        if style == "line":
            chart.line(x - 2, y, x + 12, y, colour, 1.2, dash="5 4")
        elif style == "series":
            chart.line(x - 2, y, x + 12, y, colour, 2.4)
        else:
            _marker(chart, x + 5, y, style, colour, kind="key")
        chart.text(x + 18, y, text, size=svg.SMALL, middle=True, cls="legend")
        x += 18 + svg.text_width(text, svg.SMALL) + 22


def _legend_width(entries: Sequence[tuple[str, str, str]]) -> float:
    return sum(18 + svg.text_width(text, svg.SMALL) + 22 for _, _, text in entries)


def interval_chart(
    labels: Sequence[str],
    series: Sequence[Series],
    limits: tuple[float, float],
    *,
    x_title: str,
    y_title: str,
    note: str = "",
    legend: Sequence[tuple[str, str, str]] = (),
    reference: tuple[float, str] | None = None,
    tick_labels: Sequence[str] | None = None,
) -> svg.Chart:
    """Points over the x slots `labels`, on the value axis `limits` = (low, high).

    `legend`: (style, colour, text) entries, style one of SAME, APART, BEST,
    "line" (the `reference` line: a value drawn dashed across) or "series" (a
    series' colour).
    `note` is a line above the plot (what the whiskers are).
    """
    lo, hi = limits
    values = [v for v in svg.ticks(lo, hi, 6) if lo - 1e-12 <= v <= hi + 1e-12]
    shown_ticks = list(tick_labels) if tick_labels is not None else svg.tick_texts(values)
    left = max((svg.text_width(t, svg.SMALL) for t in shown_ticks), default=20) + 40
    right = 24.0
    top = 10.0
    entries = list(legend)
    rows_of_legend = []  # the legend's entries, row by row, each row fitting the width
    row: list[tuple[str, str, str]] = []
    for entry in entries:
        if row and _legend_width([*row, entry]) > svg.WIDTH - left - right:
            rows_of_legend.append(row)
            row = []
        row.append(entry)
    if row:
        rows_of_legend.append(row)
    note_lines = wrapped(note, svg.WIDTH - left - right) if note else ""
    head = top + (note_lines.count("\n") + 1) * svg.LINE * svg.SMALL if note else top
    head += len(rows_of_legend) * 20 + 6
    n = max(1, len(labels))
    xs = svg.Scale(-0.5, n - 0.5, left, svg.WIDTH - right)
    slot = xs(1) - xs(0)
    flat = all(svg.text_width(label, svg.SMALL) <= 0.95 * slot for label in labels)
    if flat:
        room = 12 + svg.SMALL * 1.4
    else:
        reach = max(svg.text_width(label, svg.SMALL) for label in labels)
        room = 16 + reach * math.sin(math.radians(-SLANT)) + svg.SMALL
    base = head + PLOT_HEIGHT
    chart = svg.Chart(base + room + 26)
    if note:
        chart.text(left, top + svg.SMALL, note_lines, size=svg.SMALL, fill=svg.MUTED, cls="note")
    for i, row in enumerate(rows_of_legend):
        _legend(chart, row, left, head - 6 - (len(rows_of_legend) - i - 0.5) * 20)
    ys = svg.Scale(lo, hi, base, head)
    svg.y_grid(chart, ys, values, left, svg.WIDTH - right, shown_ticks)
    svg.axis_line(chart, left, head, left, base)
    svg.axis_line(chart, left, base, svg.WIDTH - right, base)
    if lo != 0:
        # The axis does not start at 0: a break mark at its foot says so.
        for dy in (0.0, 5.0):
            chart.line(left - 5, base - 8 - dy, left + 5, base - 4 - dy, svg.INK, 1.2,
                       cls="axis-break")  # fmt: skip
    if reference is not None:
        value, _ = reference
        y = ys(value)
        chart.line(left, y, svg.WIDTH - right, y, REFERENCE_LINE, 1.2, dash="5 4",
                   cls="reference")  # fmt: skip
    for i, label in enumerate(labels):
        if flat:
            chart.text(xs(i), base + 6 + svg.SMALL, label, anchor="middle", size=svg.SMALL,
                       cls="label")  # fmt: skip
        else:
            chart.text(xs(i) + 4, base + 14, label, anchor="end", size=svg.SMALL, rotate=SLANT,
                       cls="label")  # fmt: skip
    chart.text((left + svg.WIDTH - right) / 2, base + room + 18, x_title, anchor="middle",
               fill=svg.MUTED, cls="x-title")  # fmt: skip
    chart.text(14, (head + base) / 2, y_title, anchor="middle", fill=svg.MUTED, rotate=-90,
               cls="y-title")  # fmt: skip
    # Several series share a slot: each is shifted a little so their whiskers stay apart.
    shift = min(12.0, 0.5 * slot / max(1, len(series)))
    for k, one in enumerate(series):
        dx = (k - (len(series) - 1) / 2) * shift
        chart.polyline([(xs(p.slot) + dx, ys(p.value)) for p in one.points], one.colour, 1.2,
                       cls="trace")  # fmt: skip
        for p in one.points:
            if p.low is not None and p.high is not None:
                chart.whisker(xs(p.slot) + dx, ys(p.low), ys(p.high), min(10.0, 0.3 * slot),
                              colour=one.colour)  # fmt: skip
        for p in one.points:
            _marker(chart, xs(p.slot) + dx, ys(p.value), p.style, one.colour)
    return chart


@dataclass(frozen=True)
class Cell:
    text: str  # lines: the value, then its interval
    fill: str
    dark: bool = False  # white text on a dark fill


@dataclass(frozen=True)
class Panel:
    title: str
    columns: Sequence[str]  # x values, left to right
    rows: Sequence[str]  # y values, top to bottom
    cells: Sequence[Sequence[Cell | None]]  # cells[row][column]


def heatmap_chart(
    panels: Sequence[Panel], *, x_title: str, y_title: str, caption: str, empty: str = "#f3f4f6"
) -> svg.Chart:
    """Each panel a grid of filled cells with their text, the panels side by side (up to
    three a row), one caption above them all."""
    texts = [c.text for p in panels for r in p.cells for c in r if c is not None]
    lines = max((t.count("\n") + 1 for t in texts), default=1)
    cell_w = max(64.0, max((svg.text_width(t, svg.SMALL) for t in texts), default=0) + 14)
    cell_h = lines * svg.LINE * svg.SMALL + 12
    row_labels = [r for p in panels for r in p.rows]
    label_w = max((svg.text_width(r, svg.SMALL) for r in row_labels), default=10) + 10
    columns = max(len(p.columns) for p in panels)
    panel_w = label_w + columns * cell_w
    gap = 28.0
    per_row = max(1, min(3, len(panels), int((svg.WIDTH - 30 + gap) // (panel_w + gap)) or 1))
    width = max(svg.WIDTH, 30 + per_row * (panel_w + gap))
    caption_lines = wrapped(caption, width - 40)
    top = 10 + (caption_lines.count("\n") + 1) * svg.LINE * svg.SMALL + 8
    col_labels = [c for p in panels for c in p.columns]
    flat = all(svg.text_width(c, svg.SMALL) <= 0.95 * cell_w for c in col_labels)
    if flat:
        under = 10 + svg.SMALL * 1.4
    else:
        reach = max(svg.text_width(c, svg.SMALL) for c in col_labels)
        under = 14 + reach * math.sin(math.radians(-SLANT)) + svg.SMALL
    title_h = 20.0 if any(p.title for p in panels) else 0.0
    grid_rows = max(len(p.rows) for p in panels)
    panel_h = title_h + grid_rows * cell_h + under
    rows_of_panels = -(-len(panels) // per_row)
    chart = svg.Chart(top + rows_of_panels * (panel_h + 12) + 22, width=width)
    chart.text(30, 10 + svg.SMALL, caption_lines, size=svg.SMALL, fill=svg.MUTED, cls="caption")
    for index, panel in enumerate(panels):
        x0 = 30 + (index % per_row) * (panel_w + gap) + label_w
        y0 = top + (index // per_row) * (panel_h + 12) + title_h
        if panel.title:
            chart.text(x0, y0 - 6, panel.title, bold=True, cls="panel-title")
        for r, name in enumerate(panel.rows):
            chart.text(x0 - 6, y0 + (r + 0.5) * cell_h, name, anchor="end", size=svg.SMALL,
                       middle=True, cls="label")  # fmt: skip
            for c in range(len(panel.columns)):
                cell = panel.cells[r][c]
                x, y = x0 + c * cell_w, y0 + r * cell_h
                chart.rect(x + 1, y + 1, cell_w - 2, cell_h - 2,
                           empty if cell is None else cell.fill, cls="cell")  # fmt: skip
                if cell is not None:
                    chart.text(x + cell_w / 2, y + cell_h / 2, cell.text, anchor="middle",
                               size=svg.SMALL, middle=True, fill="white" if cell.dark else svg.INK,
                               cls="cell-text")  # fmt: skip
        base = y0 + len(panel.rows) * cell_h
        for c, name in enumerate(panel.columns):
            x = x0 + (c + 0.5) * cell_w
            if flat:
                chart.text(x, base + 4 + svg.SMALL, name, anchor="middle", size=svg.SMALL,
                           cls="label")  # fmt: skip
            else:
                chart.text(x + 4, base + 12, name, anchor="end", size=svg.SMALL, rotate=SLANT,
                           cls="label")  # fmt: skip
    last = top + rows_of_panels * (panel_h + 12)
    grids_end = 30 + min(per_row, len(panels)) * (panel_w + gap) - gap
    chart.text((30 + label_w + grids_end) / 2, last + 10, x_title, anchor="middle",
               fill=svg.MUTED, cls="x-title")  # fmt: skip
    chart.text(12, top + (last - top) / 2, y_title, anchor="middle", fill=svg.MUTED, rotate=-90,
               cls="y-title")  # fmt: skip
    return chart
