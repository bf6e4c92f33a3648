"""`diff A B --until-decided`: play both variants batch by batch, stop once the diff is decided.

Game g of A and game g of B are played from the same seed and index, so
they share their deal (common random numbers), and the batches of both
have the same games. After each batch the anytime-valid diff
(stats.sequential.AnytimeDiff) is brought up to date; the run stops when
every primary row (the win shares of seats and bots) is `changed` or
`equivalent`, or at the most games allowed. Its confidence sequences and
p-values hold at any stopping time, which is what makes stopping on the
result safe here and not when a designer reruns by hand.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from balancer import table
from balancer.config.variant import Variant
from balancer.errors import GameFault
from balancer.sim import plan as planning
from balancer.sim import runner
from balancer.sim.sink import GamesFile, GamesWriter
from balancer.stats.figures import RunData, figure_pairs
from balancer.stats.sequential import AnytimeDiff

UNTIL_DECIDED = "until-decided"  # the Report's `until` for runs a decided diff stopped


class FaultInB(Exception):
    """A bot broke one of B's games (A's faults come out of the runner as they are)."""

    def __init__(self, fault: GameFault) -> None:
        self.fault = fault
        super().__init__(str(fault))


@dataclass
class Decided:
    """Both runs as far as they were played, and where they stopped (None: at the maximum)."""

    a: runner.RunResult
    b: runner.RunResult
    stopped_at: int | None
    watch: AnytimeDiff


def chunk_data(variant: Variant, chunk: runner.ChunkResult) -> RunData:
    """One chunk's games as stats.figures reads them (through the games-table schema)."""
    spec = variant.spec
    n = len(chunk.length)
    columns = table.columns(
        start=chunk.start,
        scores=chunk.scores,
        length=chunk.length,
        events=chunk.events,
        event_names=spec.events,
        slots=table.seat_slots(
            chunk.start, chunk.start + n, variant.players, variant.seat_rotation
        ),
        labels=[s.label for s in variant.seats],
        higher_is_better=spec.higher_is_better,
        rules_version=spec.rules_version,
        figures=chunk.figures,  # how the games played: their rows, batch by batch too
        decisions=chunk.decisions,
    )
    frame = table.frame(columns, variant.players, spec.events)
    return RunData.from_frame(
        frame,
        variant.players,
        spec.events,
        spec.value_events,
        spec.higher_is_better,
        variant.seat_rotation,
    )


def play_until_decided(
    a: Variant,
    b: Variant,
    *,
    tolerances: Mapping[str, str],
    alpha: float = 0.05,
    workers: int = 1,
    check: bool = False,
    plugin_move_limit: float = runner.DEFAULT_PLUGIN_MOVE_LIMIT,
    progress: Callable[[int], None] | None = None,
    started: runner.Started | None = None,
) -> Decided:
    """Play A and B game for game, at most `a.games` each, until every primary row is decided.

    A is played by the runner (in `workers` processes); each chunk of A, as
    it arrives, is matched by the same games of B, played here. Both must
    have the same game count (the most to play); usually the same seed too,
    so game g of both shares its deal (with different seeds the pairs are
    independent games, still a valid paired comparison, only noisier).
    """
    if a.games != b.games:
        raise ValueError("A and B must allow the same number of games")
    watch = AnytimeDiff(alpha=alpha, tolerances=dict(tolerances), n_star=a.games)
    plan_b = planning.decide(b, check=check or _forced_check(), plugin_move_limit=plugin_move_limit)
    play_b = runner.pick_backend(plan_b, 1)
    # B's games are streamed to a games.parquet of their own, as A's are by the runner.
    games_b = GamesFile()
    writer_b = GamesWriter(b, games_b)
    decided_at: list[int] = []

    def after_chunk(chunk_a: runner.ChunkResult) -> bool:
        stop = chunk_a.start + len(chunk_a.length)
        chunk = runner.Chunk(plan_b, chunk_a.start, stop)
        try:
            # A plugin never plays in this process (the runner's rule): B's chunk then goes
            # to a worker of its own, which the backend stops once the chunk is done.
            chunk_b = (
                list(play_b([chunk], 1, None))[0] if plan_b.plugins else runner.play_chunk(chunk)
            )
        except GameFault as fault:
            raise FaultInB(fault) from None
        writer_b.add(chunk_b)
        pairs, _ = figure_pairs(chunk_data(a, chunk_a), chunk_data(b, chunk_b))
        watch.update(pairs)
        if watch.decided:
            decided_at.append(stop)
            return True
        return False

    try:
        result_a = runner.run(
            a,
            workers=workers,
            check=check,
            plugin_move_limit=plugin_move_limit,
            progress=progress,
            started=started,
            on_chunk=after_chunk,
        )
        counts_b = writer_b.finish()
    except BaseException:
        writer_b.abort()
        games_b.remove()
        raise
    result_b = runner.RunResult(
        b, writer_b.games, counts_b, games_b, writer_b.cards, writer_b.how_it_plays()
    )
    stopped_at = decided_at[0] if decided_at and decided_at[0] < a.games else None
    return Decided(result_a, result_b, stopped_at, watch)


def _forced_check() -> bool:
    import os

    return os.environ.get(runner.CHECK_ENV, "") not in ("", "0")
