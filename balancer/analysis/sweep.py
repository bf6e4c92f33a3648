"""Sweeps: run a variant over a grid of knob values, with common seeds.

Every point of the grid plays the same seed and game count, so game i of each
point starts from the same deal and differences between points are the knobs',
not the shuffles'. The sweep folder holds one report folder per point,
`sweep.csv` (one row per point: the knob values and the headline figures with
their intervals), `sweep.svg` (one figure over the grid: a line for one knob,
a heatmap for two, small multiples for more) and `index.html`, a page linking
each point's report beside its figure.
The whole folder is written at once: an interrupted sweep leaves nothing half
done and the previous sweep as it was.
"""

from __future__ import annotations

import itertools
import re
from pathlib import Path
from typing import Any

import polars as pl

from balancer import knobs
from balancer.analysis.figure_names import (
    HIGH,
    LOW,
    NOT_MEANS,
    nearest,
    needs_plays,
    report_figures,
    variant_figures,
)
from balancer.analysis.sweep_points import Point, axis_limits, differs_from, highest, tiers
from balancer.analysis.sweep_table import column_places
from balancer.config.variant import PLAYERS, Variant
from balancer.errors import UserError, shown
from balancer.numbers import fixed, plain
from balancer.report.html_format import ACCENT
from balancer.report.model import Report
from balancer.report.svg import Chart
from balancer.report.svg_plots import (
    APART,
    SAME,
    Cell,
    Panel,
    PlotPoint,
    Series,
    heatmap_chart,
    interval_chart,
)
from balancer.yamlsafe import load_yaml_text

SWEEP_CSV = "sweep.csv"
# What was swept (the variant and every knob's values), so a second, different sweep
# onto the same folder is told apart from a rerun of the same one.
SWEEP_JSON = "sweep.json"


def default_folder(variant_name: str, knob_names: list[str]) -> Path:
    """reports/<variant>-sweep-<knob>[-<knob>...]: the folder's name says what was swept,
    so sweeps of other knobs of the same variant land side by side."""
    return Path("reports") / "-".join([f"{variant_name}-sweep", *knob_names])


def swept_settings(variant_name: str, parsed: list[tuple[str, list[Any]]]) -> dict[str, Any]:
    """sweep.json's identity part: the variant and each knob's values, as sweep.csv shows them."""
    return {
        "variant": variant_name,
        "knobs": {name: [_show(v) for v in values] for name, values in parsed},
    }


def replaced_sweep(folder: Path, wanted: dict[str, Any]) -> str | None:
    """Why writing the sweep `wanted` into `folder` would replace a different sweep, or None.

    None for a missing folder, one that holds no sweep (report/folder.py then
    decides whether it may be written), or the same sweep (a rerun).
    """
    import json

    if not (folder / SWEEP_CSV).is_file():
        return None
    try:
        held = json.loads((folder / SWEEP_JSON).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return "holds a sweep whose knobs this balancer can't read (no sweep.json)"
    if not isinstance(held, dict):
        return "holds a sweep whose sweep.json is not one"
    same = {key: held.get(key) for key in wanted} == wanted
    if same:
        return None
    knobs = held.get("knobs")
    what = "other knobs"
    if isinstance(knobs, dict) and all(isinstance(v, list) for v in knobs.values()):
        what = " ".join(f"{k}={','.join(map(str, v))}" for k, v in knobs.items())
    return f"holds another sweep ({held.get('variant')}: {what})"


def parse_setting(text: str, variant: Variant, option: str = "--set") -> tuple[str, list[Any]]:
    """`rules.x=a,b,c` (or `scoring.x=...`, or `x=...`) -> (knob name, checked values).

    Values are read as YAML, so `true`, `3` and `{1: 2, 2: 5}` mean what they
    say; commas inside brackets or braces don't split values.
    """
    where = f"{option} {text}"  # errors name the option the user typed
    path, sep, raw = text.partition("=")
    if not sep or not raw.strip():
        raise UserError("expected --set section.knob=value1,value2,...", key=where)
    parts = path.strip().split(".")
    name = parts[-1]
    if parts == [PLAYERS]:
        return PLAYERS, _players(raw, variant, where)
    if len(parts) > 2 or (len(parts) == 2 and parts[0] not in knobs.SECTIONS):
        raise UserError("name a knob as rules.KNOB, scoring.KNOB or KNOB", key=where)
    by_name = {k.name: k for k in variant.spec.knobs}
    if name not in by_name:
        valid = ", ".join(by_name)
        raise UserError(f"{variant.game} has no knob {name!r} (knobs: {valid})", key=where)
    values: list[Any] = []
    written: list[str] = []  # each value as the user wrote it
    for item in _split_values(raw, where):
        value = load_yaml_text(item, where).data
        try:
            checked = by_name[name].check(value)
        except ValueError as exc:
            # The knob's own words name the value ("got 'x'") but for a few checks:
            # only those get it named first, so a message never says it twice.
            said = str(exc)
            named = shown(value) in said or repr(value) in said
            raise UserError(said if named else f"{shown(item)}: {said}", key=where) from None
        if checked in values:
            first = written[values.index(checked)]
            again = "twice" if first == item else f"after {shown(first)}, the same value"
            raise UserError(f"{shown(item)} is listed {again}", key=where)
        values.append(checked)
        written.append(item)
    return name, values


def _players(raw: str, variant: Variant, where: str) -> list[int]:
    """`players=3,4,5`: player counts the game takes, each once."""
    values: list[int] = []
    for item in _split_values(raw, where):
        value = variant.check_players(load_yaml_text(item, where).data, where)
        if value in values:
            raise UserError(f"{shown(item)} is listed twice", key=where)
        values.append(value)
    return values


def _split_values(raw: str, where: str) -> list[str]:
    items, depth, current = [], 0, ""
    for ch in raw:
        if ch in "[{":
            depth += 1
        elif ch in "]}":
            depth -= 1
        if ch == "," and depth == 0:
            items.append(current.strip())
            current = ""
        else:
            current += ch
    items.append(current.strip())
    if any(not item for item in items):
        raise UserError("an empty value in the list", key=where)
    return items


def grid(settings: list[tuple[str, list[Any]]]) -> list[dict[str, Any]]:
    names = [name for name, _ in settings]
    return [
        dict(zip(names, combo, strict=True))
        for combo in itertools.product(*(v for _, v in settings))
    ]


def point_label(point: dict[str, Any]) -> str:
    return " ".join(f"{k}={_show(v)}" for k, v in point.items())


def _show(value: Any) -> str:
    if isinstance(value, dict):
        return "{" + ",".join(f"{k}:{v}" for k, v in value.items()) + "}"
    if isinstance(value, bool):
        return str(value).lower()
    return str(value)


def folder_name(index: int, point: dict[str, Any]) -> str:
    return f"{index:03d}-" + re.sub(r"[^A-Za-z0-9_.=-]+", "_", point_label(point))[:80]


def headline_row(point: dict[str, Any], report: Report) -> dict[str, Any]:
    """One sweep.csv row: the knob values, then every figure by its name with its interval.

    Figures keep the names of `expect:`, `tune --target` and `diff`
    (analysis/figure_names.py); a figure's 95% interval is in the columns
    `<figure>.ci95_low` and `<figure>.ci95_high` when it has one.
    """
    row: dict[str, Any] = {name: _show(value) for name, value in point.items()}
    for name, (value, interval) in report_figures(report).items():
        row[name] = value
        if interval is not None:
            row[name + LOW], row[name + HIGH] = interval
    return row


def expected_columns(variant: Variant, knob_names: list[str]) -> list[str]:
    """The columns headline_row gives every point of `variant`, known before any game is played.

    So `--figure` is checked up front, not after the first point (or the whole
    grid) has been played. tests/cli/test_sweep.py checks it against real runs.
    """
    columns = list(knob_names)
    for name in variant_figures(variant):
        columns.append(name)
        if name not in NOT_MEANS:
            columns += [name + LOW, name + HIGH]
    return columns


def check_figure(figure: str, variant: Variant, knob_names: list[str]) -> None:
    """A UserError naming --figure unless every point's report will have that figure."""
    if figure in knob_names:
        raise UserError(f"{figure!r} is a knob, not a figure to chart", key="--figure")
    why = needs_plays(figure, variant)
    if why is not None:
        raise UserError(why, key="--figure")
    figures = variant_figures(variant)
    if figure not in figures:
        near = nearest(figure, figures)
        hint = f" (did you mean {near!r}?)" if near else ""
        raise UserError(
            f"no figure {figure!r}{hint}; figures: {', '.join(figures)}", key="--figure"
        )


def _interval_columns(table: pl.DataFrame, figure: str) -> tuple[str, str] | None:
    low, high = figure + LOW, figure + HIGH
    if low in table.columns and high in table.columns:
        return low, high
    return None


def chart(
    table: pl.DataFrame,
    figure: str,
    knob_columns: list[str],
    target: Path,
    lang: str | None = None,
) -> None:
    """The chosen figure over the grid, as an SVG file: a line for one knob, a heatmap for two.

    Two knobs are a grid, not a sequence: joining their points with one line
    would draw a trend that isn't there. With three or more, one heatmap of
    the first two per combination of the others (small multiples, one scale).
    """
    if len(knob_columns) == 1:
        drawing = line_chart(table, figure, knob_columns[0], lang)
    else:
        drawing = heatmaps(table, figure, knob_columns, lang)
    target.write_text(drawing.render(standalone=True), encoding="utf-8")


def points_of(table: pl.DataFrame, figure: str) -> list[Point | None]:
    """Each row's figure with its 95% interval (None where it has none)."""
    bounds = _interval_columns(table, figure)
    values = table[figure].to_list()
    if bounds is None:
        return [None] * len(values)
    lows, highs = (table[c].to_list() for c in bounds)
    return [
        None if v is None or lo is None or hi is None else Point(float(v), float(lo), float(hi))
        for v, lo, hi in zip(values, lows, highs, strict=True)
    ]


def line_chart(table: pl.DataFrame, figure: str, knob: str, lang: str | None = None) -> Chart:
    """The figure at each value of the knob with its 95% interval, on an axis never zoomed
    into the noise; points that differ from the highest (Holm, 5%) drawn hollow."""
    from balancer import i18n

    t = i18n.text
    labels = [str(v) for v in table[knob].to_list()]
    values = table[figure].to_list()
    points = points_of(table, figure)
    if any(p is not None for p in points):
        top = highest(points)
        apart = differs_from(points, top) if top is not None else [False] * len(points)
        marks = [
            PlotPoint(i, p.value, p.low, p.high, APART if apart[i] else SAME)
            for i, p in enumerate(points)
            if p is not None
        ]
        limits = axis_limits(points) or (0.0, 1.0)
        legend = [(SAME, ACCENT, t("sweep.chart.same", lang))]
        if any(apart):
            legend.append((APART, ACCENT, t("sweep.chart.apart", lang)))
        note = t("sweep.chart.bars", lang)
    else:
        marks = [PlotPoint(i, float(v)) for i, v in enumerate(values) if v is not None]
        known = [m.value for m in marks] or [0.0]
        low, high = min(known), max(known)
        pad = 0.05 * (high - low) or 0.5
        # No interval to size the axis by: from 0 when 0 is near, else padded around the values.
        limits = (0.0 if 0 <= low <= high - low else low - pad, high + pad)
        legend = []
        note = t("sweep.chart.no_interval", lang)
    return interval_chart(
        labels,
        [Series(marks, ACCENT)],
        limits,
        x_title=knob,
        y_title=figure,
        note=note,
        legend=legend,
    )


def heatmap_grid(
    table: pl.DataFrame, figure: str, knob_columns: list[str]
) -> list[tuple[str, list[str], list[str], list[list[float | None]]]]:
    """Per panel (a combination of the third and later knobs): title, x and y values, cells.

    cells[y][x] is the figure at (x = first knob's value, y = second's); None
    where the grid has no such point.
    """
    x_knob, y_knob, *rest = knob_columns
    xs = list(dict.fromkeys(str(v) for v in table[x_knob].to_list()))
    ys = list(dict.fromkeys(str(v) for v in table[y_knob].to_list()))
    panels: dict[str, list[list[float | None]]] = {}
    for row in table.iter_rows(named=True):
        title = " ".join(f"{k}={row[k]}" for k in rest)
        cells = panels.setdefault(title, [[None] * len(xs) for _ in ys])
        value = row[figure]
        cells[ys.index(str(row[y_knob]))][xs.index(str(row[x_knob]))] = (
            None if value is None else float(value)
        )
    return [(title, xs, ys, cells) for title, cells in panels.items()]


# A heatmap's shades (sweep_points.tiers): only differences the test can see.
SHADES = ("#dbe6f2", "#8fb3d9", "#2f6fb0")  # lowest tier, between, with the highest
NO_INTERVAL = "#e8e8e8"
ONE_SHADE = "#b9cde3"  # every cell alike: the highest and lowest can't be told apart


def heatmaps(
    table: pl.DataFrame, figure: str, knob_columns: list[str], lang: str | None = None
) -> Chart:
    """One heatmap per panel whose shades say only what the intervals can tell apart.

    Cells that can't be told from the highest share the dark shade, those that
    can't be told from the lowest the pale one, the rest a middle one (Holm
    over the comparisons, sweep_points.py); each cell shows its value and 95%
    interval. When the highest and lowest cells can't be told apart every
    cell has one shade and the caption says so.
    """
    from balancer import i18n

    grid = heatmap_grid(table, figure, knob_columns)
    points = points_of(table, figure)
    shade_of = tiers(points)
    flat = all(t == 2 for t in shade_of if t is not None)
    colours = [ONE_SHADE] * 3 if flat else list(SHADES)
    x_knob, y_knob, *rest = knob_columns
    titles = [title for title, *_ in grid]
    places = column_places(table, figure)
    cells: list[list[list[Cell | None]]] = [[[None] * len(xs) for _ in ys] for _, xs, ys, _ in grid]
    for i, row in enumerate(table.iter_rows(named=True)):
        panel = titles.index(" ".join(f"{k}={row[k]}" for k in rest))
        _, xs, ys, values = grid[panel]
        yi, xi = ys.index(str(row[y_knob])), xs.index(str(row[x_knob]))
        value = values[yi][xi]
        if value is None:
            continue
        point, tier = points[i], shade_of[i]
        if point is None or places is None:
            text = plain(value)
        else:  # at the column's precision, as the terminal table shows it
            low, high = fixed(point.low, places), fixed(point.high, places)
            text = f"{fixed(point.value, places)}\n[{low}, {high}]"
        fill = NO_INTERVAL if tier is None else colours[tier]
        cells[panel][yi][xi] = Cell(text, fill, dark=tier == 2 and not flat)
    if not any(p is not None for p in points):
        caption = i18n.text("sweep.heatmap.no_interval", lang, figure=figure)
    elif flat:
        caption = i18n.text("sweep.heatmap.flat", lang, figure=figure)
    else:
        caption = i18n.text("sweep.heatmap.tiers", lang, figure=figure)
    panels = [
        Panel(title, xs, ys, panel_cells)
        for (title, xs, ys, _), panel_cells in zip(grid, cells, strict=True)
    ]
    return heatmap_chart(panels, x_title=x_knob, y_title=y_knob, caption=caption)
