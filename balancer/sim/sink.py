"""Where a run's games go as they arrive: games.parquet on disk, and the counts of the figures.

A run never holds its games in memory. Chunks arrive in game order; they are
gathered into batches of about `BATCH_ROWS` games, each batch is counted
(stats.streamed.GameCounts: every figure is a function of those counts) and
handed to a writer thread, which streams the batches into games.parquet as
they come (polars' streaming engine sinking a Python source: one row group
per batch, in game order). Memory is a few batches, whatever the number of
games, and when the last game arrives only the last batch and the file's
footer are left to write.

Why not pyarrow's ParquetWriter: it is a new dependency of some 100 MB for
what polars, already here, does; and why not part files streamed into one at
the end (the first design): that second pass cost 1.1-1.9 s of CPU per
1,000,000 games after the games were played.
"""

from __future__ import annotations

import contextlib
import errno
import os
import queue
import shutil
import tempfile
import threading
import weakref
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import polars as pl

from balancer import table
from balancer.errors import UserError
from balancer.sim.chunks import ChunkResult, ChunkSummary
from balancer.stats.card_tally import CardTally
from balancer.stats.how_it_plays import HowItPlaysCounts
from balancer.stats.streamed import GameCounts

if TYPE_CHECKING:
    from balancer.config.variant import Variant

GAMES_PARQUET = "games.parquet"
# Games per batch counted and written (one row group each): about 12 MB of table.
BATCH_ROWS = 50_000
# Batches waiting for the writer thread before the run waits for it.
QUEUED_BATCHES = 1


class GamesFile:
    """A run's games.parquet in a scratch folder of its own, removed when nobody holds it.

    The folder is removed when this object is collected or the process exits;
    a run killed before then leaves it where the next run cleans it (a report
    run puts it beside its report folder, see cli/simulate.py).
    """

    def __init__(self, scratch: str | Path | None = None, prefix: str = "balancer-games-") -> None:
        try:
            if scratch is not None:
                Path(scratch).mkdir(parents=True, exist_ok=True)
            self.folder = Path(tempfile.mkdtemp(prefix=prefix, dir=scratch))
        except OSError as exc:  # a disk out of room (or of inodes) before the first game
            where = Path(scratch if scratch is not None else tempfile.gettempdir())
            raise write_error(exc, where / GAMES_PARQUET) from None
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


class _Done:
    """Put on the writer's queue: no more batches; `abort` says whether to fail the file."""

    def __init__(self, abort: bool) -> None:
        self.abort = abort


class _Aborted(Exception):
    pass


class _ParquetSink:
    """A thread streaming the frames put on its queue into one Parquet file, in order."""

    def __init__(self, path: Path, schema: dict[str, Any]) -> None:
        self.path = path
        self.schema = schema
        self.queue: queue.Queue[pl.DataFrame | _Done] = queue.Queue(maxsize=QUEUED_BATCHES)
        self.error: BaseException | None = None
        self.thread = threading.Thread(target=self._write, name="games.parquet", daemon=True)
        self.thread.start()

    def _batches(self, *_: Any) -> Iterator[pl.DataFrame]:
        while True:
            item = self.queue.get()
            if isinstance(item, _Done):
                if item.abort:
                    raise _Aborted
                return
            yield item

    def _write(self) -> None:
        from polars.io.plugins import register_io_source

        try:
            frames = register_io_source(self._batches, schema=self.schema)
            # zstd at level 1: as small as polars' default level here, a fifth less CPU.
            frames.sink_parquet(
                self.path,
                compression="zstd",
                compression_level=1,
                row_group_size=BATCH_ROWS,
                maintain_order=True,
            )
        except BaseException as exc:  # kept for the run's thread, which raises it
            self.error = exc

    def put(self, item: pl.DataFrame | _Done) -> None:
        """Hand over a batch; waits while the writer is behind, raises if it failed."""
        while True:
            self._raise()
            try:
                self.queue.put(item, timeout=0.2)
                return
            except queue.Full:
                continue

    def _raise(self) -> None:
        if self.error is not None:
            raise write_error(self.error, self.path)
        if not self.thread.is_alive():
            raise RuntimeError("the games.parquet writer stopped early")

    def close(self) -> None:
        self.put(_Done(abort=False))
        self.thread.join()
        self._raise_if_failed()

    def _raise_if_failed(self) -> None:
        if self.error is not None:
            raise write_error(self.error, self.path)

    def abort(self) -> None:
        """Stop writing (the run failed): the thread ends, the file is not to be used."""
        with contextlib.suppress(queue.Empty):
            while True:
                self.queue.get_nowait()
        with contextlib.suppress(queue.Full):
            self.queue.put_nowait(_Done(abort=True))
        self.thread.join(timeout=5)


def write_error(error: BaseException, path: Path) -> BaseException:
    """Any failure of the writer (a full disk, a folder gone, polars' own error) is one
    line naming the file: "can't write the games: ...". Only the abort it was asked
    for is not.

    polars reports the system's error in its own exception, "... (os error 28)", and
    on a full disk sometimes only as "parquet: File out of specification: Invalid
    thrift: transport error" (a write failed, its cause dropped): when the disk
    then has almost no room left (FULL_DISK_BYTES), that is a full disk, said as the
    system says it, with the free space and polars' words beside it.
    """
    import re

    if isinstance(error, _Aborted):
        return error
    text = str(error).strip()
    code = re.search(r"\(os error (\d+)\)", text)
    if isinstance(error, OSError) and error.strerror:
        reason = error.strerror
    elif code:  # polars' wording around the system's: say the system's alone
        reason = os.strerror(int(code.group(1)))
    else:
        said = text.splitlines()[0] if text else type(error).__name__
        free = _free_bytes(path)
        if free is not None and free < FULL_DISK_BYTES:
            reason = f"{os.strerror(errno.ENOSPC)} ({free // 1024} KB free; polars said: {said})"
        else:
            reason = said
    return UserError(f"can't write the games: {reason}", file=str(path))


# Less room than this left after polars' write failed without saying why is taken
# for a full disk (a judgement: the file it was writing still holds what fitted, so
# a full disk reads as a few KB free; a failure with room to spare says its own words).
FULL_DISK_BYTES = 1 << 20


def _free_bytes(path: Path) -> int | None:
    """The room left for an ordinary user on the disk holding `path`, if it can be known."""
    folder = path.parent
    while not folder.is_dir() and folder != folder.parent:  # a report folder not made yet
        folder = folder.parent
    try:
        info = os.statvfs(folder)
    except OSError:
        return None
    return info.f_bavail * info.f_frsize


def new_counts(variant: Variant) -> GameCounts:
    """The run's counts, empty: every chunk's and the run's are made here alike."""
    spec = variant.spec
    return GameCounts(
        players=variant.players,
        events=tuple(spec.events),
        labels=tuple(s.label for s in variant.seats),
        value_events=tuple(spec.value_events),
        higher_is_better=spec.higher_is_better,
        rotate=variant.seat_rotation,
    )


def summarize(variant: Variant, result: ChunkResult) -> ChunkSummary:
    """Count one chunk (GameCounts.count) and tally its cards held.

    A worker process or Dask worker calls it on the chunk it played
    (sim/runner.py's play_chunk) and sends the counts back; chunks played on
    threads are counted here, in the run's main thread (GamesWriter.add), by
    compiled passes that release the GIL: with one playing thread the counting
    then runs on the other core. The counts are integers, merged exactly in
    any order.
    """
    spec, players = variant.spec, variant.players
    n = len(result.length)
    scores = np.asarray(result.scores, dtype=np.float64).reshape(n, players)
    counts = new_counts(variant)
    wins = counts.count(result.start, scores, result.length, result.events)
    if wins is None:
        wins = table.win_shares_matrix(scores, spec.higher_is_better)
    cards = None
    if result.held is not None and spec.card_kinds is not None:
        cards = CardTally(players, len(spec.card_kinds(variant.rules)))
        cards.add(wins, result.held)
    played = None
    if result.figures is not None:
        played = HowItPlaysCounts()
        played.add(result.figures)
        if result.decisions is not None:
            played.add_decisions(result.decisions)
    return ChunkSummary(counts, wins, cards, played)


class GamesWriter:
    """Takes a run's chunks in game order; writes games.parquet and counts the figures."""

    def __init__(self, variant: Variant, games: GamesFile, batch_rows: int | None = None) -> None:
        spec = variant.spec
        self.variant = variant
        self.file = games
        self.batch_rows = BATCH_ROWS if batch_rows is None else batch_rows
        self.labels = [s.label for s in variant.seats]
        self.counts = new_counts(variant)
        self.games = 0  # rows written or waiting
        # Card impact's sums (stats/card_tally.py), for a game that records the cards held.
        kinds = spec.card_kinds(variant.rules) if spec.card_kinds is not None else None
        self.card_kinds: tuple[str, ...] | None = tuple(kinds) if kinds is not None else None
        self.cards: CardTally | None = None
        # How the games played (stats/how_it_plays.py), merged chunk by chunk like `counts`;
        # unknown for the run as soon as one chunk's games kept no record of their steps.
        self.played = HowItPlaysCounts()
        self.played_unknown = False
        self._pending: list[tuple[ChunkResult, np.ndarray]] = []  # with their win shares
        self._pending_rows = 0
        # Started with the first batch: after a process pool has forked its workers.
        self._sink: _ParquetSink | None = None

    def add(self, result: ChunkResult) -> None:
        """Take the next chunk: counted already by the process that played it, or here."""
        if result.start != self.games:
            raise ValueError(f"chunk of game {result.start} arrived when {self.games} was due")
        summary = result.summary if result.summary is not None else summarize(self.variant, result)
        result.summary = None  # its counts are merged: the pending chunk needn't hold them
        rows = len(result.length)
        self.games += rows
        self.counts.merge(summary.counts)
        if summary.cards is not None and self.card_kinds is not None:
            if self.cards is None:
                self.cards = CardTally(self.variant.players, len(self.card_kinds))
            self.cards.merge(summary.cards)
        if summary.how_it_plays is None:
            self.played_unknown = True
        else:
            self.played.merge(summary.how_it_plays)
        self._pending.append((result, summary.wins))
        self._pending_rows += rows
        if self._pending_rows >= self.batch_rows:
            self._flush()

    def _flush(self) -> None:
        if not self._pending:
            return
        variant, spec = self.variant, self.variant.spec
        players, events = variant.players, spec.events
        chunks = [c for c, _ in self._pending]
        start = chunks[0].start
        length = np.concatenate([c.length for c in chunks])
        # Shaped by the games' count, not -1: a game file may declare no events at all.
        rows = len(length)
        scores = np.concatenate([c.scores for c in chunks]).reshape(rows, players)
        values = np.concatenate([c.events for c in chunks]).reshape(rows, len(events))
        wins = np.concatenate([w for _, w in self._pending]).reshape(rows, players)
        held = None  # the card kinds each seat held (card impact), where the game records them
        if all(c.held is not None for c in chunks):
            held = np.concatenate([c.held for c in chunks if c.held is not None])
        figures = None  # how each game played, where the games kept a record of their steps
        if all(c.figures is not None for c in chunks):
            figures = np.concatenate([c.figures for c in chunks if c.figures is not None])
        decisions = None  # each game's turns and choices, where they were counted
        if all(c.decisions is not None for c in chunks):
            decisions = np.concatenate([c.decisions for c in chunks if c.decisions is not None])
        self._pending, self._pending_rows = [], 0
        words = held.shape[1] // players if held is not None and players else 0
        frame = batch_frame(variant, start, scores, length, values, held, wins, figures, decisions)
        self._writer(words).put(frame)

    def _writer(self, held_per_seat: int) -> _ParquetSink:
        if self._sink is None:
            spec = self.variant.spec
            schema = table.schema(self.variant.players, spec.events, held_per_seat)
            self._sink = _ParquetSink(self.file.path, schema)
        return self._sink

    def finish(self) -> GameCounts:
        """Write the last batch and close games.parquet; hand back the counts."""
        self._flush()
        if self._sink is None:  # no game at all: an empty table, with its columns
            schema = table.schema(self.variant.players, self.variant.spec.events)
            try:
                pl.DataFrame(schema=schema).write_parquet(self.file.path)
            except Exception as exc:  # a full disk, in polars' words or the system's
                raise write_error(exc, self.file.path) from None
        else:
            self._sink.close()
        return self.counts

    def how_it_plays(self) -> HowItPlaysCounts | None:
        """How the games played, counted; None when some game kept no record of its steps
        (or there was no game)."""
        return None if self.played_unknown or self.played.games == 0 else self.played

    def abort(self) -> None:
        if self._sink is not None:
            self._sink.abort()


def batch_frame(
    variant: Variant,
    start: int,
    scores: np.ndarray,
    length: np.ndarray,
    events: np.ndarray,
    held: np.ndarray | None = None,
    wins: np.ndarray | None = None,
    figures: np.ndarray | None = None,
    decisions: np.ndarray | None = None,
) -> pl.DataFrame:
    """Games start.. of the games table (table.py), from per-game arrays
    (`wins`: their win shares, when already computed; `figures`: how they played;
    `decisions`: their turns and choices)."""
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
        held_masks=held,
        wins=wins,
        figures=figures,
        decisions=decisions,
    )
    return table.frame(cols, players, spec.events)
