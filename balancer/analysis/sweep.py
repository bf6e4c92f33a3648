"""Sweeps: run a variant over a grid of knob values, with common seeds.

Every point of the grid plays the same seed and game count, so game i of each
point starts from the same deal and differences between points are the knobs',
not the shuffles'. The sweep folder holds one report folder per point,
`sweep.csv` (one row per point: the knob values and the headline figures with
their intervals) and `sweep.svg`, a chart of one figure against the points.
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
from balancer.config.variant import Variant
from balancer.config.yamlsafe import load_yaml_text
from balancer.errors import UserError
from balancer.report.model import Report, present

SWEEP_CSV = "sweep.csv"


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
    """One sweep.csv row: the knob values, then the headline figures with intervals."""
    row: dict[str, Any] = {name: _show(value) for name, value in point.items()}
    for seat in report.seats:
        s = seat.seat
        row[f"seat{s}_win_share"] = seat.win_share
        row[f"seat{s}_win_low"], row[f"seat{s}_win_high"] = seat.win_ci95
        row[f"seat{s}_score_mean"] = seat.score.mean
    for label, bot in (report.bots or {}).items():
        row[f"bot_{label}_win_share"] = bot.win_share
        row[f"bot_{label}_win_low"], row[f"bot_{label}_win_high"] = bot.win_ci95
    margin = present(report.margin, "margin")
    row["seat_advantage_p"] = present(report.seat_advantage, "seat_advantage").p_value
    row["margin_mean"] = margin.mean
    row["margin_sd"] = margin.sd
    row["length_mean"] = present(report.length, "length").mean
    for name, event in report.events.items():
        row[f"{name}_per_game"] = event.per_game
    return row


def chart(table: pl.DataFrame, figure: str, knob_columns: list[str], target: Path) -> None:
    """The chosen figure against the grid points, with its interval when it has one."""
    import matplotlib
    from matplotlib.figure import Figure

    labels = [" ".join(str(r[c]) for c in knob_columns) for r in table.iter_rows(named=True)]
    values = table[figure].to_list()
    fig = Figure(figsize=(max(5.0, 0.9 * len(labels) + 2), 4))
    ax = fig.add_subplot()
    low_col = figure.replace("_win_share", "_win_low")
    if figure.endswith("_win_share") and low_col in table.columns:
        low = table[low_col].to_list()
        high = table[figure.replace("_win_share", "_win_high")].to_list()
        errors = [
            [v - lo for v, lo in zip(values, low, strict=True)],
            [h - v for v, h in zip(values, high, strict=True)],
        ]
        ax.errorbar(range(len(values)), values, yerr=errors, fmt="o-", capsize=4)
    else:
        ax.plot(range(len(values)), values, "o-")
    ax.set_xticks(range(len(labels)), labels, rotation=20, ha="right")
    ax.set_xlabel(", ".join(knob_columns))
    ax.set_ylabel(figure)
    ax.grid(alpha=0.3)
    with warnings.catch_warnings():
        # Long knob labels may not fit; the chart is still right, so no warning on stderr.
        warnings.simplefilter("ignore", UserWarning)
        fig.tight_layout()
    with matplotlib.rc_context({"svg.hashsalt": "balancer"}):
        fig.savefig(target, format="svg", metadata={"Date": None})


def table_text(table: pl.DataFrame, knob_columns: list[str], figure: str) -> str:
    shown = [*knob_columns, figure, "margin_mean", "length_mean", "seat_advantage_p"]
    shown = list(dict.fromkeys(c for c in shown if c in table.columns))
    with pl.Config(tbl_rows=len(table), tbl_cols=len(shown), tbl_hide_dataframe_shape=True):
        return str(table.select(shown))
