"""A report's games table: given whole, or a games.parquet read only when (and as far as) asked.

A run's Report is built from counts and keeps its games on disk; a renderer
that needs a column or the value counts gets them here, without the rest.
"""

from __future__ import annotations

import typing
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import polars as pl

from balancer import table
from balancer.stats.streamed import GameCounts

if TYPE_CHECKING:
    from balancer.report.model import Report


class GamesSource(typing.Protocol):
    """A games.parquet on disk that a Report reads only when asked (sim/sink.py's GamesFile)."""

    def read(self) -> pl.DataFrame: ...

    def place(self, target: Path) -> None: ...


class _GamesTable:
    """`Report.games`: the games table, a frame given whole or read from a file on first use.

    A run's Report is built from counts (stats.streamed) and keeps its games
    on disk, so a run of 10,000,000 games never holds them; whoever reads
    `report.games` (diff's paired tests, a library user) pays for it then.
    """

    def __set_name__(self, owner: type, name: str) -> None:
        self.given = f"_{name}_given"
        self.read = f"_{name}_read"

    @typing.overload
    def __get__(self, report: None, owner: type | None = None) -> None: ...

    @typing.overload
    def __get__(self, report: Report, owner: type | None = None) -> pl.DataFrame: ...

    def __get__(self, report: Report | None, owner: type | None = None) -> pl.DataFrame | None:
        if report is None:
            return None  # the field's default: no games (an empty frame)
        given = report.__dict__[self.given]
        if isinstance(given, pl.DataFrame):
            return given
        if self.read not in report.__dict__:
            report.__dict__[self.read] = given.read()
        frame: pl.DataFrame = report.__dict__[self.read]
        return frame

    def __set__(self, report: Report, value: pl.DataFrame | GamesSource | None) -> None:
        if value is None or isinstance(value, _GamesTable):  # the default: no games
            value = pl.DataFrame()
        report.__dict__[self.given] = value
        report.__dict__.pop(self.read, None)


@dataclass(frozen=True)
class SavedGames:
    """The games.parquet of a report balancer just saved: read as it is when asked."""

    path: Path

    def read(self) -> pl.DataFrame:
        return pl.read_parquet(self.path)

    def place(self, target: Path) -> None:
        import shutil

        shutil.copyfile(self.path, target)


def games_given(report: Report) -> pl.DataFrame | GamesSource:
    """What the report's games were given as (a frame, or a file not yet read)."""
    given: pl.DataFrame | GamesSource = report.__dict__["_games_given"]
    return given


def game_columns(report: Report, names: typing.Sequence[str]) -> pl.DataFrame:
    """Just these columns of the games table (those it has), without reading the rest.

    A headline figure that needs two per-game columns of a 10,000,000-game
    run reads those two from games.parquet, never the whole table.
    """
    given = games_given(report)
    if isinstance(given, pl.DataFrame) or "_games_read" in report.__dict__:
        frame = report.games
        return frame.select([n for n in names if n in frame.columns])
    path = getattr(given, "path", None)
    if path is None:
        frame = report.games
        return frame.select([n for n in names if n in frame.columns])
    lazy = pl.scan_parquet(path)
    present_names = [n for n in names if n in lazy.collect_schema().names()]
    return lazy.select(present_names).collect()


def value_counts(report: Report) -> GameCounts:
    """The report's per-game values counted (scores per seat, length, events): for charts.

    A run's report has them already; a report read from a folder counts its
    games table. Only the value counts are meant: the bots' figures are in
    report.json.
    """
    if report.counts is not None:
        return report.counts
    if "_value_counts" in report.__dict__:  # counted once per report read
        cached: GameCounts = report.__dict__["_value_counts"]
        return cached
    frame = report.games
    players = report.players
    names = list(report.events)
    report.__dict__["_value_counts"] = GameCounts.from_arrays(
        frame.select([table.score(s) for s in range(players)]).to_numpy().astype(float),
        frame[table.LENGTH].to_numpy().astype(float),
        frame.select([table.event(e) for e in names]).to_numpy().astype(float),
        event_names=names,
        labels=[""] * players,
        value_events=report.value_events or (),
        higher_is_better=report.higher_is_better,
    )
    return value_counts(report)
