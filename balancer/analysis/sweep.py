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
import warnings
from pathlib import Path
from typing import Any

import polars as pl

from balancer import knobs
from balancer.analysis.figure_names import HIGH, LOW, nearest, report_figures, variant_figures
from balancer.config.variant import Variant
from balancer.config.yamlsafe import load_yaml_text
from balancer.errors import UserError
from balancer.report.model import Report

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
    for item in _split_values(raw):
        value = load_yaml_text(item, where).data
        try:
            checked = by_name[name].check(value)
        except ValueError as exc:
            raise UserError(f"{item!r}: {exc}", key=where) from None
        if checked in values:
            raise UserError(f"{item!r} is listed twice", key=where)
        values.append(checked)
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
    grid) has been played. tests/test_sweep.py checks it against real runs.
    """
    columns = list(knob_names)
    for name in variant_figures(variant):
        columns.append(name)
        if name not in _NO_INTERVAL:
            columns += [name + LOW, name + HIGH]
    return columns


# The figures that are not a mean of per-game values, so have no 95% interval.
_NO_INTERVAL = frozenset({"margin.sd", "seat_advantage.p_value"})


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


def chart(table: pl.DataFrame, figure: str, knob_columns: list[str], target: Path) -> None:
    """The chosen figure over the grid: a line for one knob, a heatmap for two.

    Two knobs are a grid, not a sequence: joining their points with one line
    would draw a trend that isn't there. With three or more, one heatmap of
    the first two per combination of the others (small multiples, one scale).
    """
    import matplotlib

    if len(knob_columns) == 1:
        fig = _line_chart(table, figure, knob_columns[0])
        with warnings.catch_warnings():
            # Long knob labels may not fit; the chart is still right, so no warning on stderr.
            warnings.simplefilter("ignore", UserWarning)
            fig.tight_layout()
    else:
        fig = _heatmaps(table, figure, knob_columns)  # laid out as it is drawn
    with matplotlib.rc_context({"svg.hashsalt": "balancer"}), warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        fig.savefig(target, format="svg", metadata={"Date": None})


def _line_chart(table: pl.DataFrame, figure: str, knob: str) -> Any:
    from matplotlib.figure import Figure

    labels = [str(v) for v in table[knob].to_list()]
    values = table[figure].to_list()
    fig = Figure(figsize=(max(5.0, 0.9 * len(labels) + 2), 4))
    ax = fig.add_subplot()
    bounds = _interval_columns(table, figure)
    if bounds is not None:
        low, high = (table[c].to_list() for c in bounds)
        errors = [
            [v - lo for v, lo in zip(values, low, strict=True)],
            [h - v for v, h in zip(values, high, strict=True)],
        ]
        ax.errorbar(range(len(values)), values, yerr=errors, fmt="o-", capsize=4)
    else:
        ax.plot(range(len(values)), values, "o-")
    ax.set_xticks(range(len(labels)), labels, rotation=20, ha="right")
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


def _heatmaps(table: pl.DataFrame, figure: str, knob_columns: list[str]) -> Any:
    import numpy as np
    from matplotlib.figure import Figure

    panels = heatmap_grid(table, figure, knob_columns)
    bounds = _interval_columns(table, figure)
    # A win share's cell also says its 95% interval: a colour alone hides the noise.
    lows, highs = (
        (heatmap_grid(table, column, knob_columns) for column in bounds)
        if bounds is not None
        else (None, None)
    )
    xs, ys = panels[0][1], panels[0][2]
    values = [v for *_, cells in panels for line in cells for v in line if v is not None]
    low, high = (min(values), max(values)) if values else (0.0, 1.0)
    if low == high:
        low, high = low - 0.5, high + 0.5
    columns = min(3, len(panels))
    rows = -(-len(panels) // columns)
    width = max(3.2, 0.95 * len(xs) + 1.8)
    height = max(2.6, 0.6 * len(ys) + 1.6)
    fig = Figure(figsize=(width * columns + 1.0, height * rows), layout="constrained")
    axes = fig.subplots(rows, columns, squeeze=False)
    image = None
    for index, (ax, (title, _, _, cells)) in enumerate(zip(axes.flat, panels, strict=False)):
        grid = np.array([[np.nan if v is None else v for v in line] for line in cells])
        image = ax.imshow(
            grid, cmap="viridis", vmin=low, vmax=high, aspect="auto", interpolation="nearest"
        )
        middle = (low + high) / 2
        for yi, line in enumerate(cells):
            for xi, value in enumerate(line):
                if value is None:
                    continue
                colour = "black" if value > middle else "white"
                text = f"{value:.3g}"
                if lows is not None and highs is not None:
                    lo, hi = lows[index][3][yi][xi], highs[index][3][yi][xi]
                    if lo is not None and hi is not None:
                        text += f"\n[{lo:.2f}, {hi:.2f}]"
                ax.text(xi, yi, text, ha="center", va="center", color=colour,
                        fontsize=8.5)  # fmt: skip
        ax.set_xticks(range(len(xs)), xs, rotation=20, ha="right")
        ax.set_yticks(range(len(ys)), ys)
        ax.set_xlabel(knob_columns[0])
        ax.set_ylabel(knob_columns[1])
        if title:
            ax.set_title(title, fontsize=10)
    for ax in list(axes.flat)[len(panels) :]:
        ax.set_axis_off()
    if image is not None:
        fig.colorbar(image, ax=list(axes.flat), label=figure, shrink=0.9)
    return fig
