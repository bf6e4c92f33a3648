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

from balancer import interrupts
from balancer.bots import host as plugin_host
from balancer.bots import registry as bot_registry
from balancer.bots.api import PluginFailure
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
        # A plugin runs in a process of its own, which keeps its own time
        # limits (bots/host.py), unless plugins are trusted (--trust-plugins).
        hosted = plugin and not plugin_host.trusted()
        try:
            if hosted:
                bot = plugin_host.HostedBot(
                    seat_spec.bot, params, plugin_move_limit, preload=[spec.new_state.__module__]
                )
            else:
                bot = bot_spec.factory(**params)
        except (KeyboardInterrupt, Terminated):
            if hosted:
                raise  # the bot is in its own session: an interrupt here is the user's
            if not plugin or interrupts.real():
                raise
            reason = "building the bot raised KeyboardInterrupt or Terminated"
        except PluginFailure as failure:
            reason = failure.reason
        except BaseException as exc:  # a plugin's constructor may fail in any way, exit too
            reason = f"building the bot raised {type(exc).__name__}: {exc}"
        else:
            reason = ""
        if reason:
            raise GameFault(
                reason, index=first_game, seed=variant.seed, seat=slot, bot=seat_spec.label
            ) from None
        seats.append(
            Seat(
                label=seat_spec.label,
                bot=bot,
                time_limit=plugin_move_limit if plugin and not hosted else None,
                plugin=plugin,
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
Backend = Callable[[Sequence[Chunk], int], Iterator[ChunkResult]]


def in_process(chunks: Sequence[Chunk], workers: int = 1) -> Iterator[ChunkResult]:
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


def process_pool(chunks: Sequence[Chunk], workers: int) -> Iterator[ChunkResult]:
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
    backend: Backend | None = None,
) -> RunResult:
    """Play every game of the variant; `progress(n)` is told of each n games done.

    `backend` maps chunks to results in chunk order; by default in-process for
    one worker and a process pool for more.
    """
    check = check or os.environ.get(CHECK_ENV, "") not in ("", "0")
    chunks = chunks_for(variant, workers, check, plugin_move_limit)
    if backend is None:
        backend = in_process if workers <= 1 else process_pool
    results = backend(chunks, workers)
    records: list[GameRecord] = []
    for result in results:
        records.extend(result.records)
        if progress is not None:
            progress(len(result.records))
    return RunResult(variant, records)
