"""Play a variant's games in batches, on one core or many, and collect the records.

Game i depends only on (seed, i) (see engine.derive_rng), so the games can be
split into chunks and spread over any number of processes: the result is the
same table, in game order, whatever the worker count or chunk size. A backend
is anything that maps a function over chunks and yields results in order; the
local ones are in-process and a process pool. A cluster backend (Dask) plugs
in the same way.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import traceback
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any

import numpy as np

from balancer.bots import registry as bot_registry
from balancer.config.variant import Variant, bot_params_with_defaults, resolve_bot
from balancer.errors import GameFault, Terminated
from balancer.games.api import GameRecord
from balancer.sim import DEFAULT_PLUGIN_MOVE_LIMIT, compiled, table
from balancer.sim.play import Seat, play_game

# Set (to anything but "" or "0") to force --check on every run: the test suite does.
CHECK_ENV = "BALANCER_CHECK"


@dataclass(frozen=True)
class Chunk:
    variant: Variant
    start: int
    stop: int
    check: bool
    plugin_move_limit: float


@dataclass
class ChunkResult:
    """Games start..start+n-1 as per-game arrays (cheap to send between processes)."""

    start: int
    scores: np.ndarray  # float64 [n, players], per physical seat
    length: np.ndarray  # int64 [n]
    events: np.ndarray  # float64 [n, events], in the game's event order

    @classmethod
    def from_records(
        cls, start: int, records: Sequence[GameRecord], events: Sequence[str]
    ) -> ChunkResult:
        n = len(records)
        players = len(records[0].scores) if records else 0
        return cls(
            start,
            np.array([r.scores for r in records], dtype=np.float64).reshape(n, players),
            np.array([r.length for r in records], dtype=np.int64),
            np.array([[r.events[e] for e in events] for r in records], dtype=np.float64).reshape(
                n, len(events)
            ),
        )


def build_seats(variant: Variant, plugin_move_limit: float, first_game: int = 0) -> list[Seat]:
    """One bot per slot, built once per chunk: bots are functions of their view.

    A bot that fails to build is a GameFault of the chunk's first game, so the
    user is told which bot and how to replay.
    """
    seats = []
    spec = variant.spec
    for slot, seat_spec in enumerate(variant.seats):

        def fail(message: str, slot: int = slot) -> Exception:
            return ValueError(f"bot slot {slot}: {message}")

        bot_spec = resolve_bot(spec, seat_spec.bot, fail)
        plugin = bot_registry.is_plugin(seat_spec.bot)
        given = seat_spec.params
        params = given if plugin else bot_params_with_defaults(bot_spec, given)
        try:
            bot = bot_spec.factory(**params)
        except (KeyboardInterrupt, Terminated):
            raise
        except BaseException as exc:  # a plugin's constructor may fail in any way, exit too
            raise GameFault(
                f"building the bot raised {type(exc).__name__}: {exc}",
                index=first_game,
                seed=variant.seed,
                seat=slot,
                bot=seat_spec.label,
            ) from None
        seats.append(
            Seat(
                label=seat_spec.label,
                bot=bot,
                time_limit=plugin_move_limit if plugin else None,
            )
        )
    return seats


def play_chunk(chunk: Chunk) -> ChunkResult:
    """Play one chunk: compiled when every seat's bot is (and no --check), else step by step."""
    variant = chunk.variant
    if not chunk.check and compiled.can_compile(variant):
        scores, length, events = compiled.play(variant, chunk.start, chunk.stop)
        return ChunkResult(chunk.start, scores, length, events)
    spec = variant.spec
    slots = build_seats(variant, chunk.plugin_move_limit, chunk.start)
    records = []
    for index in range(chunk.start, chunk.stop):
        seated = variant.seated(slots, index)
        records.append(
            play_game(spec, variant.rules, seated, variant.seed, index, check=chunk.check)
        )
    return ChunkResult.from_records(chunk.start, records, spec.events)


def chunks_for(
    variant: Variant, workers: int, check: bool, plugin_move_limit: float
) -> list[Chunk]:
    # Small enough chunks for a smooth progress bar and even load, big enough
    # that shipping them to a process costs little.
    size = max(1, min(2000, variant.games // max(1, workers * 16)))
    return [
        Chunk(variant, start, min(start + size, variant.games), check, plugin_move_limit)
        for start in range(0, variant.games, size)
    ]


# Told the number of processes playing, once they are all started.
Started = Callable[[int], None]

# A backend plays chunks and yields their results in chunk order, and calls
# `started` (if given) once its workers are up. Game i's record depends only
# on (seed, i), so any backend gives the same table.
Backend = Callable[[Sequence[Chunk], int, Started | None], Iterator[ChunkResult]]


def in_process(
    chunks: Sequence[Chunk], workers: int = 1, started: Started | None = None
) -> Iterator[ChunkResult]:
    if started is not None:
        started(1)
    for chunk in chunks:
        yield play_chunk(chunk)


def _worker(chunks: Sequence[Chunk], results: Connection) -> None:
    """A worker process: play its share of the chunks, send each result back in order."""
    # The parent handles Ctrl-C and SIGTERM and ends the workers; a worker just
    # stops when told, without a traceback of its own.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    try:
        for chunk in chunks:
            results.send(("ok", play_chunk(chunk)))
    except GameFault as fault:
        results.send(("fault", fault))
    except BaseException:
        results.send(("bug", traceback.format_exc()))
    finally:
        results.close()


def process_pool(
    chunks: Sequence[Chunk], workers: int, started: Started | None = None
) -> Iterator[ChunkResult]:
    """Chunks dealt round-robin to `workers` processes, results yielded in chunk order.

    A plain set of processes rather than multiprocessing.Pool: on an interrupt
    or a fault every worker is killed at once, where a Pool waits for its
    workers' current chunks and its handler threads.
    """
    context = multiprocessing.get_context("fork")
    workers = min(workers, len(chunks))
    pipes, procs = [], []
    try:
        for k in range(workers):
            receive, send = context.Pipe(duplex=False)
            proc = context.Process(target=_worker, args=(chunks[k::workers], send), daemon=True)
            proc.start()
            send.close()  # the parent keeps only the reading end
            pipes.append(receive)
            procs.append(proc)
        if started is not None:
            started(workers)
        for j in range(len(chunks)):
            try:
                kind, payload = pipes[j % workers].recv()
            except EOFError:
                raise RuntimeError(f"worker {j % workers} died without a result") from None
            if kind == "fault":
                raise payload
            if kind == "bug":
                raise RuntimeError(f"a worker failed:\n{payload}")
            yield payload
    finally:
        for proc in procs:
            if proc.is_alive():
                proc.kill()
        for proc in procs:
            proc.join()
        for pipe in pipes:
            pipe.close()


@dataclass
class RunResult:
    """Every game of a run, chunk by chunk in game order."""

    variant: Variant
    chunks: list[ChunkResult]

    @property
    def games(self) -> int:
        return sum(len(c.length) for c in self.chunks)

    def columns(self) -> dict[str, Any]:
        """The per-game table (games.parquet), column by column (sim/table.py)."""
        variant = self.variant
        spec = variant.spec
        players = variant.players
        n = self.games
        empty = ChunkResult.from_records(0, [], spec.events)
        parts = self.chunks or [empty]
        return table.columns(
            start=0,
            scores=np.concatenate([c.scores for c in parts]).reshape(n, players),
            length=np.concatenate([c.length for c in parts]),
            events=np.concatenate([c.events for c in parts]).reshape(n, len(spec.events)),
            event_names=spec.events,
            slots=table.seat_slots(0, n, players, variant.seat_rotation),
            labels=[s.label for s in variant.seats],
            higher_is_better=spec.higher_is_better,
            rules_version=spec.rules_version,
        )


def run(
    variant: Variant,
    *,
    workers: int = 1,
    check: bool = False,
    plugin_move_limit: float = DEFAULT_PLUGIN_MOVE_LIMIT,
    progress: Callable[[int], None] | None = None,
    started: Started | None = None,
    backend: Backend | None = None,
) -> RunResult:
    """Play every game of the variant; `progress(n)` is told of each n games done,
    and `started(workers)` once the workers are up and playing.

    `backend` maps chunks to results in chunk order; by default in-process for
    one worker and a process pool for more.
    """
    check = check or os.environ.get(CHECK_ENV, "") not in ("", "0")
    chunks = chunks_for(variant, workers, check, plugin_move_limit)
    if backend is None:
        backend = in_process if workers <= 1 else process_pool
    results = backend(chunks, workers, started)
    played: list[ChunkResult] = []
    for result in results:
        played.append(result)
        if progress is not None:
            progress(len(result.length))
    return RunResult(variant, played)
