"""Play chosen ranges of games of many variants in one go, and hold their per-game arrays.

`ladder`, `check` and `tune` need more than `runner.run` gives one variant:
many lineups (or knob values) in one process pool, games start..stop of a
variant (a tuning candidate continues where its last round stopped, or where
a sweep's report left off), and the per-game arrays the statistics take.
Game i depends only on (seed, i), so games 100..199 played here are the very
games a run of 200 would have played: common seeds across variants come free.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from balancer import table
from balancer.config.variant import Variant
from balancer.errors import UserError
from balancer.games.progress import DECISION_WORDS, FIGURES
from balancer.sim import DEFAULT_PLUGIN_MOVE_LIMIT, runner
from balancer.sim import plan as planning

if TYPE_CHECKING:
    from balancer.analysis import plays_measure
    from balancer.report.model import Report


@dataclass(frozen=True)
class Job:
    """Games start..stop-1 of one variant."""

    variant: Variant
    start: int
    stop: int


@dataclass
class Games:
    """Per-game arrays of consecutive games of one variant (rows: games, columns: seats)."""

    start: int
    scores: np.ndarray  # float [n, players]
    wins: np.ndarray  # float [n, players]: 1, 1/k in a k-way tie for best, 0
    labels: np.ndarray  # str [n, players]: the bot label at each seat
    lengths: np.ndarray  # float [n]
    events: dict[str, np.ndarray]  # name -> float [n]
    # float [n, FIGURES]: how each game played (games/progress.py), NaN where undefined;
    # None when the games kept no record of their steps (a stepped plugin seat).
    figures: np.ndarray | None = None
    # int [n, DECISION_WORDS]: each game's turns and choices; None where not counted.
    decisions: np.ndarray | None = None
    # The variant these are games of: its `plays:` sample is measured (once) when a
    # target names one of its figures (plays_sample); None for games built by hand.
    variant: Variant | None = None
    _plays: plays_measure.Sample | None = field(default=None, repr=False, compare=False)

    def plays_sample(self) -> plays_measure.Sample:
        """The variant's `plays:` sample, measured on first asking and kept: it is games
        0..N-1 and deals 0..D-1 of the variant whatever games these are."""
        if self._plays is None:
            if self.variant is None or self.variant.plays is None:
                raise UserError("these games' variant has no plays: to measure")
            from balancer.analysis.plays_measure import sample_of

            self._plays = sample_of(self.variant)
        return self._plays

    def _keeping(self, games: Games) -> Games:
        """`games` (of the same variant) keeping the variant and the sample measured of
        either (the variant's sample is the same whichever games it is asked of)."""
        games.variant = self.variant or games.variant
        if self._plays is not None:
            games._plays = self._plays
        return games

    @property
    def n(self) -> int:
        return int(self.lengths.size)

    @classmethod
    def empty(cls, variant: Variant, start: int = 0) -> Games:
        players = variant.players
        return cls(
            start,
            np.zeros((0, players)),
            np.zeros((0, players)),
            np.zeros((0, players), dtype=str),
            np.zeros(0),
            {name: np.zeros(0) for name in variant.spec.events},
            np.zeros((0, FIGURES)),
            np.zeros((0, DECISION_WORDS), dtype=np.int64),
            variant,
        )

    @classmethod
    def from_chunks(cls, variant: Variant, results: Sequence[runner.ChunkResult]) -> Games:
        if not results:
            return cls.empty(variant)
        spec = variant.spec
        start = results[0].start
        scores = np.concatenate([r.scores for r in results]).reshape(-1, variant.players)
        n = scores.shape[0]
        events = np.concatenate([r.events for r in results]).reshape(n, len(spec.events))
        slots = table.seat_slots(start, start + n, variant.players, variant.seat_rotation)
        names = np.array([s.label for s in variant.seats], dtype=object)
        figures = None
        if all(r.figures is not None for r in results):
            figures = np.concatenate([r.figures for r in results if r.figures is not None])
        decisions = None
        if all(r.decisions is not None for r in results):
            decisions = np.concatenate([r.decisions for r in results if r.decisions is not None])
        return cls(
            start,
            scores,
            table.win_shares_matrix(scores, spec.higher_is_better),
            names[slots].astype(str),
            np.concatenate([r.length for r in results]).astype(float),
            {name: events[:, k].astype(float) for k, name in enumerate(spec.events)},
            figures,
            decisions,
            variant,
        )

    @classmethod
    def from_report(cls, report: Report, variant: Variant) -> Games:
        """A report's games (all of them, from game 0), as `variant` plays them."""
        from balancer.stats.figures import RunData

        spec = variant.spec
        data = RunData.from_frame(
            report.games,
            variant.players,
            spec.events,
            spec.value_events,
            spec.higher_is_better,
            variant.seat_rotation,
        )
        return cls(
            0,
            data.scores,
            data.wins,
            data.bot_labels,
            data.lengths,
            {k: np.asarray(v, dtype=float) for k, v in data.events.items()},
            table.how_it_plays_matrix(report.games)
            if table.has_how_it_plays(report.games)
            else None,
            data.decisions,
            variant,
        )

    def then(self, more: Games) -> Games:
        """These games followed by the next ones (`more` starts where these stop)."""
        if more.n == 0:
            return self
        if self.n == 0:
            return self._keeping(more)
        if more.start != self.start + self.n:
            raise ValueError("games must follow on")
        return self._keeping(
            Games(
                self.start,
                np.vstack([self.scores, more.scores]),
                np.vstack([self.wins, more.wins]),
                np.vstack([self.labels, more.labels]),
                np.concatenate([self.lengths, more.lengths]),
                {k: np.concatenate([v, more.events[k]]) for k, v in self.events.items()},
                None
                if self.figures is None or more.figures is None
                else np.vstack([self.figures, more.figures]),
                None
                if self.decisions is None or more.decisions is None
                else np.vstack([self.decisions, more.decisions]),
            )
        )

    def head(self, n: int) -> Games:
        """The first n of these games."""
        return self._keeping(
            Games(
                self.start,
                self.scores[:n],
                self.wins[:n],
                self.labels[:n],
                self.lengths[:n],
                {k: v[:n] for k, v in self.events.items()},
                None if self.figures is None else self.figures[:n],
                None if self.decisions is None else self.decisions[:n],
            )
        )


def chunk_size(total: int, workers: int) -> int:
    # As runner.chunks_for: small enough for a smooth bar and even load.
    return max(1, min(2000, total // max(1, workers * 16)))


def play(
    jobs: Sequence[Job],
    *,
    workers: int = 1,
    progress: Callable[[int], None] | None = None,
    started: Callable[[int], None] | None = None,
    check: bool = False,
    plugin_move_limit: float = DEFAULT_PLUGIN_MOVE_LIMIT,
    on_chunk: Callable[[int, runner.ChunkResult], bool] | None = None,
    chunk: int | None = None,
) -> list[Games]:
    """Play every job (in one backend: one pool for all), their Games in job order.

    `on_chunk(job index, result)` sees chunks in order; True stops the whole
    play there (the Games then hold what was played). `chunk` fixes the games per
    chunk (how often on_chunk looks); the games played do not depend on it.
    """
    total = sum(job.stop - job.start for job in jobs)
    size = chunk or chunk_size(total, workers)
    chunks: list[runner.Chunk] = []
    owner: list[int] = []
    plans = [
        planning.decide(job.variant, check=check, plugin_move_limit=plugin_move_limit)
        for job in jobs
    ]
    for index, (job, plan) in enumerate(zip(jobs, plans, strict=True)):
        for start in range(job.start, job.stop, size):
            stop = min(start + size, job.stop)
            chunks.append(runner.Chunk(plan, start, stop))
            owner.append(index)
    played: list[list[runner.ChunkResult]] = [[] for _ in jobs]
    if chunks:
        # A plugin anywhere means no bot runs in this process (runner.pick_backend).
        with_plugins = [plan for plan in plans if plan.plugins]
        backend = runner.pick_backend((with_plugins or plans)[0], workers)
        results = backend(chunks, workers, started)
        try:
            for number, result in enumerate(results):
                played[owner[number]].append(result)
                if progress is not None:
                    progress(len(result.length))
                if on_chunk is not None and on_chunk(owner[number], result):
                    break
        finally:
            close = getattr(results, "close", None)
            if close is not None:
                close()
    out = []
    for job, results_of in zip(jobs, played, strict=True):
        games = Games.from_chunks(job.variant, results_of)
        out.append(games if results_of else Games.empty(job.variant, job.start))
    return out
