"""Play a variant's games in batches, on one core or many, and collect the records.

Game i depends only on (seed, i) (see engine.derive_rng), so the games can be
split into chunks and spread over any number of workers: the result is the
same table, in game order, whatever the worker count or chunk size. A backend
(sim/backends/) maps a function over chunks and yields results in order: on
threads of this process (compiled chunks), in this process or forked worker
processes (step-by-step chunks), or on a Dask cluster.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import polars as pl

from balancer import environment, games, interrupts, jit, table
from balancer.bot import PluginFailure
from balancer.bots import host as plugin_host
from balancer.config.variant import Variant
from balancer.errors import GameFault, Terminated
from balancer.sim import DEFAULT_PLUGIN_MOVE_LIMIT, compiled, kernel_step
from balancer.sim import plan as planning
from balancer.sim.chunks import Chunk, ChunkResult
from balancer.sim.plan import Plan, PlayPath, SlotBot
from balancer.sim.play import Seat, play_game
from balancer.sim.sink import GamesFile, GamesWriter, summarize
from balancer.stats.card_tally import CardTally
from balancer.stats.how_it_plays import HowItPlaysCounts
from balancer.stats.streamed import GameCounts

# Set (to anything but "" or "0") to force --check on every run: the test suite does.
CHECK_ENV = environment.CHECK


def build_seats(
    variant: Variant,
    plugin_move_limit: float,
    first_game: int = 0,
    slots: Sequence[SlotBot] | None = None,
) -> list[Seat]:
    """One bot per slot, built once per chunk: bots are functions of their view.

    `slots` are the run plan's resolved bots (sim/plan.py); without them (a game
    played outside a run: replay, tests) they are resolved here, a plugin
    hosted unless plugins are trusted. A bot that fails to build is a GameFault
    of the chunk's first game, so the user is told which bot and how to replay.
    """
    if slots is None:
        slots = planning.resolve_slots(variant, host_plugins=not plugin_host.trusted())
    preload = [variant.spec.new_state.__module__]
    return [
        _build_seat(slot, number, variant, plugin_move_limit, first_game, preload)
        for number, slot in enumerate(slots)
    ]


def _build_seat(
    slot: SlotBot,
    number: int,
    variant: Variant,
    plugin_move_limit: float,
    first_game: int,
    preload: list[str],
) -> Seat:
    # A hosted plugin runs in a process of its own, which keeps its own time limits
    # (bots/host.py); a trusted one (--trust-plugins) here, under the move clock.
    try:
        if slot.hosted:
            bot = plugin_host.HostedBot(slot.name, slot.params, plugin_move_limit, preload=preload)
        else:
            bot = slot.spec.factory(**slot.params)
    except (KeyboardInterrupt, Terminated):
        if slot.hosted:
            raise  # the bot is in its own session: an interrupt here is the user's
        if not slot.plugin or interrupts.real():
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
            reason, index=first_game, seed=variant.seed, seat=number, bot=slot.label
        ) from None
    return Seat(
        label=slot.label,
        bot=bot,
        time_limit=plugin_move_limit if slot.plugin and not slot.hosted else None,
        plugin=slot.plugin,
    )


def play_chunk(chunk: Chunk) -> ChunkResult:
    """Play one chunk and count it (sim/sink.py's summarize) where it was played: a
    worker process or a Dask worker sends back its counts, and the run's process
    merges them instead of counting every game itself."""
    result = play_uncounted(chunk)
    result.summary = summarize(chunk.variant, result)
    return result


def play_uncounted(chunk: Chunk) -> ChunkResult:
    """Play one chunk the way its run's plan says (sim/plan.py): compiled, on the
    stepped kernel (sim/kernel_step.py), or on the Python engine (sim/play.py)."""
    plan, start, stop = chunk.plan, chunk.start, chunk.stop
    variant = plan.variant
    if plan.path is PlayPath.COMPILED:
        kernel = plan.kernel_to_play()
        out = compiled.play_columns(variant, start, stop, kernel, plan.compiled_slots())
        return ChunkResult(
            start, out.scores, out.length, out.events, out.held,
            figures=out.figures, decisions=out.decisions,
        )  # fmt: skip
    spec = variant.spec
    seats = build_seats(variant, plan.plugin_move_limit, start, plan.slots)
    if plan.path is PlayPath.STEPPED:
        stepped = kernel_step.play_chunk(variant, seats, start, stop, _stepper(plan))
        return ChunkResult.from_records(start, stepped, spec.events)
    records = []
    for index in range(start, stop):
        seated = variant.seated(seats, index)
        records.append(
            play_game(
                spec,
                variant.rules,
                seated,
                variant.seed,
                index,
                check=plan.check,
                margin=variant.margin,
            )  # fmt: skip
        )
    return ChunkResult.from_records(start, records, spec.events)


def _stepper(plan: Plan) -> Any:
    """The plan's kernel's StepGame for its variant, its plugin slots played from outside."""
    variant = plan.variant
    step_game = plan.kernel_to_play().step_game
    assert step_game is not None, "the stepped path is only planned for a kernel that steps"
    return step_game(variant.rules, variant.players, plan.kernel_slots())


def chunks_for(plan: Plan, workers: int) -> list[Chunk]:
    # Small enough chunks for a smooth progress bar and even load, big enough
    # that shipping them to a process costs little.
    games = plan.variant.games
    size = max(1, min(2000, games // max(1, workers * 16)))
    return [Chunk(plan, start, min(start + size, games)) for start in range(0, games, size)]


# Told the number of processes playing, once they are all started.
Started = Callable[[int], None]

# A backend plays chunks and yields their results in chunk order, and calls
# `started` (if given) once its workers are up. Game i's record depends only
# on (seed, i), so any backend gives the same table. They live in
# sim/backends/; this is the one place that picks one.
Backend = Callable[[Sequence[Chunk], int, Started | None], Iterator[ChunkResult]]


def pick_backend(
    plan: Plan, workers: int, backend: str = "local", scheduler: str | None = None
) -> Backend:
    """`local`: compiled chunks on threads of this process (sim/backends/threads.py);
    step-by-step ones in this process for one worker (but see _interruptible),
    else in forked workers. `dask`: a Dask cluster.

    A plugin bot never runs in this process, even with one worker: a plugin
    that forks, or hangs on to file descriptors, can't then keep the run from
    ending.
    """
    if backend == "dask":
        from balancer.sim.backends import dask

        modules = sorted({s.name.partition(":")[0] for s in plan.slots if s.plugin})
        game_file = games.portable(plan.variant.game)
        return functools.partial(
            dask.cluster_map,
            play_chunk,
            scheduler=scheduler,
            modules=modules,
            game_files=() if game_file is None else (game_file,),
        )
    from balancer.sim.backends import local

    # Without numba (BALANCER_JIT=0) the kernels are Python, holding the GIL like the step path.
    if jit.ENABLED and plan.path is PlayPath.COMPILED:
        from balancer.sim.backends import threads

        # Threads leave the counting to the run's main thread (GamesWriter): the compiled
        # pass releases the GIL there too, and with one playing thread it then runs on
        # the other core instead of after each chunk on the playing one.
        return functools.partial(threads.thread_pool, play_uncounted)
    if workers <= 1 and not plan.plugins and not _interruptible():
        return functools.partial(local.in_process, play_chunk)
    return functools.partial(local.process_pool, play_chunk)


def _interruptible() -> bool:
    """Whether the command line's Ctrl-C handler is in place (cli.main installs it).

    Then even one worker plays step-by-step chunks in a process of its own:
    a parent waiting on its worker's pipe stops the run at once, whatever
    the bot in this process was doing. (Compiled chunks play on threads, and
    the thread waiting for them takes the signal at once.)
    """
    import signal

    return signal.getsignal(signal.SIGINT) is interrupts.on_sigint


def _load_kernel(plan: Plan) -> None:
    """Load the plan's kernel in this process before any worker starts: the threads
    then share it, and forked workers its machine code."""
    if plan.path is PlayPath.COMPILED:
        if plan.variant.games:  # the kernel and the counting pass, loaded before the threads play
            play_chunk(Chunk(plan, 0, 1))
    elif plan.path is PlayPath.STEPPED:
        variant = plan.variant
        _stepper(plan).deal(variant.seed, 0, range(variant.players))  # a deal, no plugin asked


@dataclass
class RunResult:
    """A run's games: games.parquet on disk (sim/sink.py) and the counts its figures need.

    No per-game rows are held: `counts` (stats.streamed.GameCounts) gives
    every figure, and `games_file` the table, read only by whoever asks.
    """

    variant: Variant
    games: int
    counts: GameCounts
    games_file: GamesFile
    # Card impact's sums (stats/card_tally.py), for a game that records the cards held.
    cards: CardTally | None = None
    # How the games played, counted (stats/how_it_plays.py); None when some game kept no
    # record of its steps.
    how_it_plays: HowItPlaysCounts | None = None

    def frame(self) -> pl.DataFrame:
        """The whole games table, read back from games.parquet (tests; small runs)."""
        return self.games_file.read()

    def columns(self) -> dict[str, Any]:
        """The per-game table (games.parquet), column by column (table.py): numpy arrays,
        but polars Series for the labels and for how the games played, whose nulls (a
        figure undefined in a game) stay None, equal to themselves, where numpy says NaN."""
        frame = self.frame()
        kept = {*(table.bot(s) for s in range(self.variant.players)), *table.HOW_IT_PLAYS}
        return {
            name: frame[name] if name in kept else frame[name].to_numpy() for name in frame.columns
        }


def run(
    variant: Variant,
    *,
    workers: int = 1,
    check: bool = False,
    plugin_move_limit: float = DEFAULT_PLUGIN_MOVE_LIMIT,
    progress: Callable[[int], None] | None = None,
    started: Started | None = None,
    backend: str | Backend = "local",
    scheduler: str | None = None,
    on_chunk: Callable[[ChunkResult], bool] | None = None,
    scratch: str | Path | None = None,
) -> RunResult:
    """Play every game of the variant; `progress(n)` is told of each n games done,
    and `started(workers)` once the workers are up and playing.

    `backend` is "local" (this machine, `workers` processes), "dask" (a
    local Dask cluster, or the one at `scheduler`), or any function mapping
    chunks to results in chunk order.

    `on_chunk(result)` sees each chunk as it arrives, in game order; when it
    returns True the run stops there (early stopping: `run --until`), the
    backend is shut down, and the result holds the games played so far.

    Games are written to games.parquet as they arrive, in a scratch folder
    made under `scratch` (default: the system's temporary folder), and
    counted for the figures; memory stays flat however many games.
    """
    check = check or environment.check_requested()
    where = backend if isinstance(backend, str) else "local"
    plan = planning.decide(variant, check=check, plugin_move_limit=plugin_move_limit, backend=where)
    chunks = chunks_for(plan, workers)
    if isinstance(backend, str):
        if backend == "local":
            _load_kernel(plan)
        backend = pick_backend(plan, workers, backend, scheduler)
    games_file = GamesFile(scratch)
    writer = GamesWriter(variant, games_file)
    results = backend(chunks, workers, started)
    try:
        for result in results:
            writer.add(result)
            if progress is not None:
                progress(len(result.length))
            if on_chunk is not None and on_chunk(result):
                break
    except BaseException:
        writer.abort()
        games_file.remove()
        raise
    finally:
        close = getattr(results, "close", None)
        if close is not None:
            close()  # a generator backend's finally stops its workers now
    try:
        counts = writer.finish()
    except BaseException:
        writer.abort()
        games_file.remove()
        raise
    return RunResult(variant, writer.games, counts, games_file, writer.cards, writer.how_it_plays())
