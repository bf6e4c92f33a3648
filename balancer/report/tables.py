"""The CSV tables of a report folder: functions of the Report (figures and games table) only.

So `balancer csv` regenerates them byte for byte from report.json and games.parquet.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

import polars as pl

from balancer.escape import csv_frame
from balancer.numbers import ends
from balancer.report.csv_numbers import for_csv
from balancer.report.figures import Interval
from balancer.report.games_table import value_counts
from balancer.report.how_it_plays import CHECKPOINTS

if TYPE_CHECKING:
    from balancer.report.model import Report

# What a report folder holds (DESIGN.md), and what `balancer csv` writes: the same and,
# for a spreadsheet, the per-game table (95 MB at 1,000,000 games, so not by default).
# how_it_plays.csv only where the report knows how its games played (report/how_it_plays.py).
HOW_IT_PLAYS_CSV = "how_it_plays.csv"
REPORT_TABLES = ("seats.csv", "scores.csv", "events.csv", HOW_IT_PLAYS_CSV)
CSV_TABLES = (*REPORT_TABLES, "games.csv")
_SCORE_FIGURES = ("mean", "sd", "min", "q1", "median", "q3", "max")


def seats_table(report: Report) -> pl.DataFrame:
    rows = []
    for seat in report.seats:
        rows.append(
            {
                "seat": seat.seat,
                "bot": seat.bot,
                "win_share": seat.win_share,
                **_low_high("win_share", seat.win_ci95),
                # seats.csv's own columns (score_mean, ...), not the games table's score_<seat>.
                "score_mean": seat.score.mean,
                **_low_high("score_mean", seat.score_mean_ci95),
                **{f"score_{k}": getattr(seat.score, k) for k in _SCORE_FIGURES[1:]},
            }
        )
    return pl.DataFrame(rows)


def scores_table(report: Report) -> pl.DataFrame:
    """How many games ended with each score, per seat: a histogram to chart.

    From the report's counts of scores (a run's, or its games table's), never its rows.
    """
    counts = value_counts(report)
    per_seat = [counts.scores[s] for s in range(report.players)]
    scores = sorted(set().union(*per_seat))
    histogram = pl.DataFrame({"score": pl.Series(scores, dtype=pl.Float64)})
    for seat, seen in enumerate(per_seat):
        column = [seen.get(score, 0) for score in scores]
        histogram = histogram.with_columns(pl.Series(f"seat_{seat}", column, dtype=pl.UInt32))
    return histogram


def _low_high(figure: str, interval: Interval | None) -> dict[str, float | None]:
    """`figure`'s interval as two CSV columns, `FIGURE.ci95_low` and `FIGURE.ci95_high` (one
    spelling in every file: numbers.ends); empty for a report (or figure) that lacks it."""
    low, high = ends(figure)
    return {
        low: None if interval is None else interval.low,
        high: None if interval is None else interval.high,
    }


def events_table(report: Report) -> pl.DataFrame:
    columns = ("per_game", *ends("per_game"), "share_of_games", *ends("share_of_games"))
    return pl.DataFrame(
        [
            {
                "event": name,
                "per_game": e.per_game,
                **_low_high("per_game", e.per_game_ci95),
                "share_of_games": e.share_of_games,
                **_low_high("share_of_games", e.share_of_games_ci95),
            }
            for name, e in report.events.items()
        ],
        schema={"event": pl.String, **dict.fromkeys(columns, pl.Float64)},
    )


def how_it_plays_table(report: Report) -> pl.DataFrame | None:
    """A row per how-it-plays figure, as report.json's `how_it_plays` has it (None: it has
    none). `games` is the games the figure is over (all of them: a leader-wins share is
    over those with a sole leader at its checkpoint, the others counting no weight)."""
    played = report.how_it_plays
    if played is None:
        return None
    figures = {
        **played.means(),
        **{f"leader_wins_{c}": f for c, f in zip(CHECKPOINTS, played.leader_wins(), strict=True)},
    }
    return pl.DataFrame(
        [
            {
                "figure": name,
                "value": None if f is None else f.mean,
                **_low_high("value", None if f is None else f.ci95),
                "se": None if f is None else f.se,
                "games": None if f is None else f.n,
            }
            for name, f in figures.items()
        ],
        schema={
            "figure": pl.String,
            **dict.fromkeys(("value", *ends("value"), "se"), pl.Float64),
            "games": pl.Int64,
        },
    )


def write_csv_tables(
    report: Report, folder: Path, *, excel: bool = False, games: bool = True
) -> list[Path]:
    """The CSV tables into `folder`; `games=False` leaves out the per-game games.csv."""
    tables = {
        "seats.csv": seats_table(report),
        "scores.csv": scores_table(report),
        "events.csv": events_table(report),
        HOW_IT_PLAYS_CSV: how_it_plays_table(report),
    }
    written = []
    for name in CSV_TABLES if games else REPORT_TABLES:
        contents = report.games if name == "games.csv" else tables[name]
        if contents is None:  # a report that doesn't know how its games played
            continue
        target = folder / name
        # Each table lands whole or not at all, even when rewritten in place.
        partial = folder / f".{name}.tmp-{os.getpid()}"
        try:
            # Numbers as a CSV shows them; a cell a spreadsheet would run as a formula
            # (=, +, -, @) is written as text.
            csv_frame(for_csv(contents)).write_csv(partial, include_bom=excel)
            os.replace(partial, target)
        finally:
            partial.unlink(missing_ok=True)
        written.append(target)
    return written
