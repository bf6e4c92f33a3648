"""`run --trace N`: each seat's score after each step of a run's first N games.

A run keeps one row per game (games.parquet) and, per game, the figures of how
it played (games/progress.py), but not the progress they come from: the scores
seat by seat after each natural step (a trick, a round, a deal). `--trace N`
keeps that progress for a sample of games, as `trace.parquet` beside
games.parquet, so a person or another tool can read how those games went and
recompute their figures with `games.progress.figures_of`.

The sample is the run's **first N games** (games 0..N-1, or every game when
the run played fewer). Each game's draws come from (seed, index) alone, so the
first N are as random a sample of the run as any other N, and they are the
ones `balancer replay --game I` shows. A prefix also stays inside a run that
`--until` stopped early, whatever the number of games it played.

The games are played again on the Python engine, from (seed, index) with the
run's seating, as `balancer replay` plays them, rather than recorded inside the
kernels: every path plays the same games (the kernel conformance check holds
each kernel to its engine game for game, progress and figures included), so
the rows are the run's, while the kernels stay as they are on the hot path and
any backend (local, Dask) gets the same trace. The cost is N games at the
engine's speed, in this process.

The file, long format, one row per (game, step, seat), in that order:

    game    int64  the game's index in the run: the `game` column of games.parquet
    step    int64  1 .. the game's length: the row is the scores after that step
    seat    int64  the physical seat, as score_<seat> in games.parquet
    score   int64  that seat's score after that step

and, in the parquet file's key-value metadata under `METADATA_KEY`, a JSON
object saying how to read it: the game, variant and seed, the games traced,
what a step is (`length_unit`: "tricks", "rounds", "deals") and whether a
higher score is better (`higher_is_better`), and where the final scores are
(`final_scores`): the figures read the end of a game from its final scores,
games.parquet's `score_<seat>` of the same game.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from balancer.config.variant import Variant
from balancer.errors import UserError
from balancer.sim.play import play_game
from balancer.sim.runner import build_seats

TRACE_PARQUET = "trace.parquet"
METADATA_KEY = "balancer.trace"
TRACE_FORMAT = 1
COLUMNS = ("game", "step", "seat", "score")


@dataclass(frozen=True)
class Trace:
    """The progress of a run's first games: the rows of trace.parquet and how to read them."""

    frame: pl.DataFrame  # COLUMNS, one row per (game, step, seat)
    about: Mapping[str, Any]  # the file's metadata (module docstring)

    @property
    def games(self) -> int:
        return int(self.about["games"])

    def first(self, games: int) -> Trace:
        """The trace of the first `games` games only: a run `--until` stopped early
        played no more, and its trace holds no game the report lacks."""
        if games >= self.games:
            return self
        frame = self.frame.filter(pl.col("game") < games)
        return Trace(frame, {**self.about, "games": games})

    def write(self, path: Path) -> None:
        text = json.dumps(dict(self.about), sort_keys=True, ensure_ascii=False)
        self.frame.write_parquet(path, metadata={METADATA_KEY: text})

    def progress(self, game: int) -> np.ndarray:
        """Game `game`'s progress: int64 [steps, seats], row j - 1 the scores after step j,
        as `games.progress.figures_of` takes it."""
        rows = self.frame.filter(pl.col("game") == game).sort("step", "seat")
        if rows.height == 0:
            raise KeyError(f"game {game} is not in the trace")
        seats = int(rows["seat"].max()) + 1  # type: ignore[arg-type]
        return rows["score"].to_numpy().astype(np.int64).reshape(-1, seats)


def trace_games(
    variant: Variant,
    games: int,
    move_time_limit: float,
    check: bool = False,
    advance: Callable[[int], None] | None = None,
) -> Trace:
    """The first `games` games of `variant` (at most its games) played again on the
    engine, each seat's score after each step kept. `advance(1)` after each game.

    A bot's failure is the GameFault the run's own play of that game raises.
    """
    spec = variant.spec
    count = min(games, variant.games)
    seats = build_seats(variant, move_time_limit)
    parts: list[np.ndarray] = []
    for index in range(count):
        seated = variant.seated(seats, index)
        record = play_game(spec, variant.rules, seated, variant.seed, index, check=check)
        if not record.progress:
            raise UserError(
                f"{spec.name} keeps no scores step by step, so there is nothing to trace",
                key="--trace",
            )
        parts.append(_long_rows(index, np.asarray(record.progress, dtype=np.int64)))
        if advance is not None:
            advance(1)
    rows = np.concatenate(parts) if parts else np.empty((0, len(COLUMNS)), dtype=np.int64)
    frame = pl.DataFrame(
        {name: rows[:, k] for k, name in enumerate(COLUMNS)},
        schema={name: pl.Int64 for name in COLUMNS},
    )
    about = {
        "format": TRACE_FORMAT,
        "game": spec.name,
        "variant": variant.name,
        "seed": variant.seed,
        "games": count,
        "length_unit": spec.length_unit,
        "higher_is_better": spec.higher_is_better,
        "final_scores": "games.parquet: score_<seat> of the same game",
    }
    if variant.comeback_margin is not None:  # figures_of's `margin`; not said: last only
        about["comeback_margin"] = variant.comeback_margin
    return Trace(frame, about)


def _long_rows(game: int, progress: np.ndarray) -> np.ndarray:
    """One game's progress (steps × seats) as (game, step, seat, score) rows, step by step."""
    steps, seats = progress.shape
    rows = np.empty((steps * seats, len(COLUMNS)), dtype=np.int64)
    rows[:, 0] = game
    rows[:, 1] = np.repeat(np.arange(1, steps + 1), seats)
    rows[:, 2] = np.tile(np.arange(seats), steps)
    rows[:, 3] = progress.reshape(-1)
    return rows


def read_trace(path: Path) -> Trace:
    """A trace.parquet read back, with its metadata (the module docstring says what is in it)."""
    frame = pl.read_parquet(path)
    about = json.loads(pl.read_parquet_metadata(path)[METADATA_KEY])
    return Trace(frame, about)
