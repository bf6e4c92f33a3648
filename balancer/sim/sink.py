"""Where a run's games go as they arrive: games.parquet on disk, and the counts of the figures.

A run never holds its games in memory. Chunks arrive in game order; they are
gathered into batches of about `BATCH_ROWS` games, each batch is counted
(stats.streamed.GameCounts: every figure is a function of those counts) and
written as one part file, and at the end the parts are streamed (polars'
streaming engine, a lazy scan of the parts) into one games.parquet, in game
order, and deleted. Memory is one batch, whatever the number of games.

Why part files and not one open Parquet writer: polars (the one Parquet
library here; pyarrow is not a dependency) writes whole frames, and a lazy
scan of the parts streams them into one file without holding them.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
import weakref
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import polars as pl

from balancer.sim import table
from balancer.stats.streamed import GameCounts

if TYPE_CHECKING:
    from balancer.config.variant import Variant
    from balancer.sim.runner import ChunkResult

GAMES_PARQUET = "games.parquet"
# Games per part file (and per batch counted): about 25 MB of table in memory at once.
BATCH_ROWS = 100_000
# Rows per row group of games.parquet: polars' own default for a frame.
ROW_GROUP_ROWS = 512 * 512


class GamesFile:
    """A run's games.parquet in a scratch folder of its own, removed when nobody holds it.

    The folder is removed when this object is collected or the process exits;
    a run killed before then leaves it where the next run cleans it (a report
    run puts it beside its report folder, see cli/simulate.py).
    """

    def __init__(self, scratch: str | Path | None = None, prefix: str = "balancer-games-") -> None:
        if scratch is not None:
            Path(scratch).mkdir(parents=True, exist_ok=True)
        self.folder = Path(tempfile.mkdtemp(prefix=prefix, dir=scratch))
        self.path = self.folder / GAMES_PARQUET
        self._cleanup = weakref.finalize(self, shutil.rmtree, self.folder, True)

    def remove(self) -> None:
        self._cleanup()

    def __deepcopy__(self, memo: dict) -> GamesFile:
        return self  # one file on disk, never changed once written: copies share it

    def place(self, target: Path) -> None:
        """Put the file at `target`: a hard link when it can (same disk: no copy), else a copy."""
        try:
            os.link(self.path, target)
        except OSError:
            shutil.copyfile(self.path, target)

    def read(self) -> pl.DataFrame:
        return pl.read_parquet(self.path)


class GamesWriter:
    """Takes a run's chunks in game order; writes games.parquet and counts the figures."""

    def __init__(self, variant: Variant, games: GamesFile, batch_rows: int | None = None) -> None:
        spec = variant.spec
        self.variant = variant
        self.file = games
        self.batch_rows = BATCH_ROWS if batch_rows is None else batch_rows
        self.labels = [s.label for s in variant.seats]
        self.counts = GameCounts(
            players=variant.players,
            events=tuple(spec.events),
            labels=tuple(self.labels),
            value_events=tuple(spec.value_events),
            higher_is_better=spec.higher_is_better,
            rotate=variant.seat_rotation,
        )
        self.games = 0  # rows written or waiting
        self._pending: list[ChunkResult] = []
        self._pending_rows = 0
        self._parts: list[Path] = []

    def add(self, result: ChunkResult) -> None:
        if result.start != self.games:
            raise ValueError(f"chunk of game {result.start} arrived when {self.games} was due")
        rows = len(result.length)
        self.games += rows
        self._pending.append(result)
        self._pending_rows += rows
        if self._pending_rows >= self.batch_rows:
            self._flush()

    def _flush(self) -> None:
        if not self._pending:
            return
        variant, spec = self.variant, self.variant.spec
        players, events = variant.players, spec.events
        start = self._pending[0].start
        scores = np.concatenate([c.scores for c in self._pending]).reshape(-1, players)
        length = np.concatenate([c.length for c in self._pending])
        values = np.concatenate([c.events for c in self._pending]).reshape(-1, len(events))
        self._pending, self._pending_rows = [], 0
        self.counts.add(start, scores, length, values)
        part = self.file.folder / f"part-{len(self._parts):06d}.parquet"
        frame = batch_frame(variant, start, scores, length, values)
        frame.write_parquet(part, row_group_size=ROW_GROUP_ROWS)
        self._parts.append(part)

    def finish(self) -> GameCounts:
        """Write games.parquet (every part, in game order) and hand back the counts."""
        self._flush()
        target = self.file.path
        if not self._parts:
            empty = batch_frame(
                self.variant,
                0,
                np.zeros((0, self.variant.players)),
                np.zeros(0, dtype=np.int64),
                np.zeros((0, len(self.variant.spec.events))),
            )
            empty.write_parquet(target)
        elif len(self._parts) == 1:
            os.replace(self._parts[0], target)
        else:
            # The streaming engine reads the parts in order and writes as it reads.
            pl.scan_parquet(self._parts).sink_parquet(
                target, row_group_size=ROW_GROUP_ROWS, maintain_order=True
            )
            for part in self._parts:
                with contextlib.suppress(OSError):
                    part.unlink()
        self._parts = []
        return self.counts


def batch_frame(
    variant: Variant, start: int, scores: np.ndarray, length: np.ndarray, events: np.ndarray
) -> pl.DataFrame:
    """Games start.. of the games table (sim/table.py), from per-game arrays."""
    spec = variant.spec
    n, players = scores.shape[0], variant.players
    cols = table.columns(
        start=start,
        scores=scores.reshape(n, players),
        length=length,
        events=events.reshape(n, len(spec.events)),
        event_names=spec.events,
        slots=table.seat_slots(start, start + n, players, variant.seat_rotation),
        labels=[s.label for s in variant.seats],
        higher_is_better=spec.higher_is_better,
        rules_version=spec.rules_version,
    )
    return table.frame(cols, players, spec.events)
