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
import textwrap
import warnings
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

import polars as pl

from balancer import knobs
from balancer.analysis.figure_names import (
    HIGH,
    LOW,
    NOT_MEANS,
    nearest,
    report_figures,
    variant_figures,
)
from balancer.analysis.sweep_points import Point, axis_limits, differs_from, highest, tiers
from balancer.analysis.sweep_table import decimals
from balancer.config.variant import Variant
from balancer.errors import UserError, shown
from balancer.report.model import Report
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


def parse_setting(text: str, variant: Variant) -> tuple[str, list[Any]]:
    """`rules.x=a,b,c` (or `scoring.x=...`, or `x=...`) -> (knob name, checked values).

    Values are read as YAML, so `true`, `3` and `{1: 2, 2: 5}` mean what they
    say; commas inside brackets or braces don't split values.
    """
    where = f"--set {text}"
    path, sep, raw = text.partition("=")
    if not sep or not raw.strip():
        raise UserError("expected --set section.knob=value1,value2,...", key=where)
    parts = path.strip().split(".")
    name = parts[-1]
    if len(parts) > 2 or (len(parts) == 2 and parts[0] not in knobs.SECTIONS):
        raise UserError("name a knob as rules.KNOB, scoring.KNOB or KNOB", key=where)
    by_name = {k.name: k for k in variant.spec.knobs}
    if name not in by_name:
        valid = ", ".join(by_name)
        raise UserError(f"{variant.game} has no knob {name!r} (knobs: {valid})", key=where)
    values: list[Any] = []
    written: list[str] = []  # each value as the user wrote it
    for item in _split_values(raw):
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


def _split_values(raw: str) -> list[str]:
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
        raise UserError("an empty value in the list", key=f"--set {raw}")
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


def chart_rc(lang: str | None) -> AbstractContextManager[None]:
    """matplotlib's settings for a chart in `lang`: Japanese text is left as SVG text for
    the browser to draw (as the report pages' is), since matplotlib's own fonts have no
    kana or kanji; English keeps its glyphs as paths, byte for byte as before."""
    import matplotlib

    if lang == "ja":
        return matplotlib.rc_context({"svg.hashsalt": "balancer", "svg.fonttype": "none"})
    return matplotlib.rc_context({"svg.hashsalt": "balancer"})


def chart(
    table: pl.DataFrame,
    figure: str,
    knob_columns: list[str],
    target: Path,
    lang: str | None = None,
) -> None:
    """The chosen figure over the grid: a line for one knob, a heatmap for two.

    Two knobs are a grid, not a sequence: joining their points with one line
    would draw a trend that isn't there. With three or more, one heatmap of
    the first two per combination of the others (small multiples, one scale).
    """

    if len(knob_columns) == 1:
        fig = _line_chart(table, figure, knob_columns[0], lang)
        with warnings.catch_warnings():
            # Long knob labels may not fit; the chart is still right, so no warning on stderr.
            warnings.simplefilter("ignore", UserWarning)
            fig.tight_layout()
    else:
        fig = _heatmaps(table, figure, knob_columns, lang)  # laid out as it is drawn
    with chart_rc(lang), warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        fig.savefig(target, format="svg", metadata={"Date": None})


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


def _line_chart(table: pl.DataFrame, figure: str, knob: str, lang: str | None = None) -> Any:
    from matplotlib.figure import Figure

    from balancer import i18n

    t = i18n.text

    labels = [str(v) for v in table[knob].to_list()]
    values = table[figure].to_list()
    fig = Figure(figsize=(max(5.0, 0.9 * len(labels) + 2), 4.4))
    ax = fig.add_subplot()
    points = points_of(table, figure)
    xs = list(range(len(values)))
    if any(p is not None for p in points):
        errors = [
            [0.0 if p is None else p.value - p.low for p in points],
            [0.0 if p is None else p.high - p.value for p in points],
        ]
        ax.errorbar(xs, values, yerr=errors, fmt="-", color="#2f6fb0", ecolor="#2f6fb0",
                    capsize=4, lw=1.2)  # fmt: skip
        top = highest(points)
        apart = differs_from(points, top) if top is not None else [False] * len(points)
        same = [i for i in xs if points[i] is not None and not apart[i]]
        below = [i for i in xs if apart[i]]
        ax.plot(same, [values[i] for i in same], "o", color="#2f6fb0", ms=7,
                label=t("sweep.chart.same", lang))  # fmt: skip
        if below:
            ax.plot(below, [values[i] for i in below], "o", mfc="white", mec="#2f6fb0", ms=7,
                    mew=1.6, label=t("sweep.chart.apart", lang))  # fmt: skip
        limits = axis_limits(points)
        if limits is not None:
            ax.set_ylim(*limits)
        ax.legend(loc="best", fontsize=8, frameon=False)
        ax.set_title(t("sweep.chart.bars", lang), fontsize=9, loc="left", color="#5b6472")
    else:
        ax.plot(xs, values, "o-")
        ax.set_title(t("sweep.chart.no_interval", lang), fontsize=9, loc="left", color="#5b6472")
    ax.set_xticks(xs, labels, rotation=20, ha="right")
    ax.set_xlabel(knob)
    ax.set_ylabel(figure)
    ax.grid(alpha=0.3)
    return fig


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


def _heatmaps(
    table: pl.DataFrame, figure: str, knob_columns: list[str], lang: str | None = None
) -> Any:
    """One heatmap per panel whose shades say only what the intervals can tell apart.

    Cells that can't be told from the highest share the dark shade, those that
    can't be told from the lowest the pale one, the rest a middle one (Holm
    over the comparisons, sweep_points.py); each cell shows its value and 95%
    interval. When the highest and lowest cells can't be told apart every
    cell has one shade and the title says so.
    """
    import numpy as np
    from matplotlib.colors import ListedColormap
    from matplotlib.figure import Figure

    panels = heatmap_grid(table, figure, knob_columns)
    points = points_of(table, figure)
    shade_of = tiers(points)
    flat = all(t == 2 for t in shade_of if t is not None)
    # Each table row's place in the panels: (panel, y, x), the order heatmap_grid fills.
    x_knob, y_knob, *rest = knob_columns
    titles = [title for title, *_ in panels]
    xs, ys = panels[0][1], panels[0][2]
    where = [
        (titles.index(" ".join(f"{k}={row[k]}" for k in rest)), ys.index(str(row[y_knob])),
         xs.index(str(row[x_knob])))
        for row in table.iter_rows(named=True)
    ]  # fmt: skip
    columns = min(3, len(panels))
    rows = -(-len(panels) // columns)
    width = max(3.2, 0.95 * len(xs) + 1.8)
    height = max(2.6, 0.6 * len(ys) + 1.6)
    fig = Figure(figsize=(width * columns + 1.0, height * rows + 0.6), layout="constrained")
    axes = fig.subplots(rows, columns, squeeze=False)
    colours = [ONE_SHADE] * 3 if flat else list(SHADES)
    cmap = ListedColormap([NO_INTERVAL, *colours])
    for index, (ax, (title, _, _, cells)) in enumerate(zip(axes.flat, panels, strict=False)):
        grid = np.full((len(ys), len(xs)), np.nan)
        texts: dict[tuple[int, int], str] = {}
        for i, (panel, yi, xi) in enumerate(where):
            if panel != index or cells[yi][xi] is None:
                continue
            tier = shade_of[i]
            grid[yi, xi] = 0 if tier is None else tier + 1
            point = points[i]
            places = None if point is None else decimals(point.low, point.high)
            if point is None or places is None:
                text = f"{cells[yi][xi]:.3g}"
            else:  # at the interval's precision, as the terminal table shows it
                text = (
                    f"{point.value:.{places}f}\n[{point.low:.{places}f}, {point.high:.{places}f}]"
                )
            texts[(yi, xi)] = text
        ax.imshow(grid, cmap=cmap, vmin=0, vmax=3, aspect="auto", interpolation="nearest")
        for (yi, xi), text in texts.items():
            dark = grid[yi, xi] == 3 and not flat
            ax.text(xi, yi, text, ha="center", va="center", color="white" if dark else "black",
                    fontsize=8.5)  # fmt: skip
        ax.set_xticks(range(len(xs)), xs, rotation=20, ha="right")
        ax.set_yticks(range(len(ys)), ys)
        ax.set_xlabel(knob_columns[0])
        ax.set_ylabel(knob_columns[1])
        if title:
            ax.set_title(title, fontsize=10)
    for ax in list(axes.flat)[len(panels) :]:
        ax.set_axis_off()
    from balancer import i18n

    if not any(p is not None for p in points):
        caption = i18n.text("sweep.heatmap.no_interval", lang, figure=figure)
    elif flat:
        caption = i18n.text("sweep.heatmap.flat", lang, figure=figure)
    else:
        caption = i18n.text("sweep.heatmap.tiers", lang, figure=figure)
    # Wrapped to the figure's width (about 14 characters an inch at this size; 7 wide ones).
    columns_wide = max(30, int(14 * (width * columns + 1.0)))
    if lang == "ja":
        lines = [
            caption[i : i + columns_wide // 2] for i in range(0, len(caption), columns_wide // 2)
        ]
    else:
        lines = textwrap.wrap(caption, columns_wide)
    fig.suptitle("\n".join(lines), fontsize=9, color="#3b4250")
    return fig
