"""Play a variant's games in batches, on one core or many, and collect the records.

Game i depends only on (seed, i) (see engine.derive_rng), so the games can be
split into chunks and spread over any number of processes: the result is the
same table, in game order, whatever the worker count or chunk size. A backend
(sim/backends/) maps a function over chunks and yields results in order: in
this process, forked worker processes, or a Dask cluster.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from balancer.bots import registry as bot_registry
from balancer.config.variant import Variant, bot_params_with_defaults, resolve_bot
from balancer.errors import GameFault, Terminated
from balancer.games.api import GameRecord
from balancer.sim import DEFAULT_PLUGIN_MOVE_LIMIT, table
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
    start: int
    records: list[GameRecord]


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
    variant = chunk.variant
    spec = variant.spec
    slots = build_seats(variant, chunk.plugin_move_limit, chunk.start)
    records = []
    for index in range(chunk.start, chunk.stop):
        seated = variant.seated(slots, index)
        records.append(
            play_game(spec, variant.rules, seated, variant.seed, index, check=chunk.check)
        )
    return ChunkResult(chunk.start, records)


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


# A backend plays chunks and yields their results in chunk order. Game i's
# record depends only on (seed, i), so any backend gives the same table.
# They live in sim/backends/; this is the one place that picks one.
Backend = Callable[[Sequence[Chunk], int], Iterator[ChunkResult]]


def pick_backend(
    variant: Variant, workers: int, backend: str = "local", scheduler: str | None = None
) -> Backend:
    """`local`: in-process for one worker, else forked workers; `dask`: a Dask cluster.

    A plugin bot never runs in this process, even with one worker: a plugin
    that forks, or hangs on to file descriptors, can't then keep the run from
    ending.
    """
    if backend == "dask":
        from balancer.sim.backends import dask

        modules = sorted({s.bot.partition(":")[0] for s in variant.seats if ":" in s.bot})
        return functools.partial(dask.cluster_map, play_chunk, scheduler=scheduler, modules=modules)
    from balancer.sim.backends import local

    plugins = any(bot_registry.is_plugin(s.bot) for s in variant.seats)
    if workers <= 1 and not plugins:
        return functools.partial(local.in_process, play_chunk)
    return functools.partial(local.process_pool, play_chunk)


@dataclass
class RunResult:
    variant: Variant
    records: list[GameRecord]

    def columns(self) -> dict[str, Any]:
        """The per-game table (games.parquet), column by column (sim/table.py)."""
        variant = self.variant
        spec = variant.spec
        players = variant.players
        labels = [s.label for s in variant.seats]
        n = len(self.records)
        return table.columns(
            start=0,
            scores=np.array([r.scores for r in self.records], dtype=np.float64).reshape(n, players),
            length=np.array([r.length for r in self.records], dtype=np.int64),
            events=np.array(
                [[r.events[name] for name in spec.events] for r in self.records], dtype=np.float64
            ).reshape(n, len(spec.events)),
            event_names=spec.events,
            bot_labels=[[labels[variant.bot_slot(s, i)] for i in range(n)] for s in range(players)],
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
    backend: str | Backend = "local",
    scheduler: str | None = None,
) -> RunResult:
    """Play every game of the variant; `progress(n)` is told of each n games done.

    `backend` is "local" (this machine, `workers` processes), "dask" (a
    local Dask cluster, or the one at `scheduler`), or any function mapping
    chunks to results in chunk order.
    """
    check = check or os.environ.get(CHECK_ENV, "") not in ("", "0")
    chunks = chunks_for(variant, workers, check, plugin_move_limit)
    if isinstance(backend, str):
        backend = pick_backend(variant, workers, backend, scheduler)
    results = backend(chunks, workers)
    records: list[GameRecord] = []
    for result in results:
        records.extend(result.records)
        if progress is not None:
            progress(len(result.records))
    return RunResult(variant, records)
