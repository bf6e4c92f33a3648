"""What a run's chunks are: the games a worker is sent to play, and what it sends back.

Here, beneath both runner.py (which deals chunks out to the backends) and
sink.py (which counts and writes what comes back), so that neither needs the
other's module for them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from balancer.games.api import GameRecord
from balancer.stats.card_tally import CardTally
from balancer.stats.how_it_plays import DECISION_WORDS, FIGURES, HowItPlaysCounts
from balancer.stats.streamed import GameCounts

if TYPE_CHECKING:
    from balancer.config.variant import Variant
    from balancer.sim.plan import Plan


@dataclass(frozen=True)
class Chunk:
    """Games start..stop-1 of the run whose plan (sim/plan.py) says how to play them."""

    plan: Plan
    start: int
    stop: int

    @property
    def variant(self) -> Variant:
        return self.plan.variant


@dataclass
class ChunkResult:
    """Games start..start+n-1 as per-game arrays (cheap to send between processes)."""

    start: int
    scores: np.ndarray  # float64 [n, players], per physical seat
    length: np.ndarray  # int64 [n]
    events: np.ndarray  # float64 [n, events], in the game's event order
    # uint64 [n, players * words]: card kinds held (GameRecord.held), or None
    held: np.ndarray | None = None
    # Its counts, taken where it was played (sim/sink.py's summarize), or None: then the
    # run's writer takes them.
    summary: ChunkSummary | None = None
    # float64 [n, FIGURES]: how each game played (games/progress.py), NaN where undefined;
    # None when the games kept no record of their steps (a stepped plugin seat).
    figures: np.ndarray | None = None
    # int64 [n, DECISION_WORDS]: each game's turns and choices (GameRecord.decisions); None
    # where they were not counted.
    decisions: np.ndarray | None = None

    @classmethod
    def from_records(
        cls, start: int, records: Sequence[GameRecord], events: Sequence[str]
    ) -> ChunkResult:
        n = len(records)
        players = len(records[0].scores) if records else 0
        held = None
        if records and records[0].held:
            held = np.array([r.held for r in records], dtype=np.uint64)
        figures = None
        if records and all(r.figures for r in records):
            figures = np.array([r.figures for r in records], dtype=np.float64).reshape(n, FIGURES)
        decisions = None
        if records and all(r.decisions for r in records):
            decisions = np.array([r.decisions for r in records], dtype=np.int64).reshape(
                n, DECISION_WORDS
            )
        return cls(
            start,
            np.array([r.scores for r in records], dtype=np.float64).reshape(n, players),
            np.array([r.length for r in records], dtype=np.int64),
            np.array([[r.events[e] for e in events] for r in records], dtype=np.float64).reshape(
                n, len(events)
            ),
            held,
            figures=figures,
            decisions=decisions,
        )


@dataclass
class ChunkSummary:
    """A chunk's share of the run's counts (`summarize`)."""

    counts: GameCounts
    wins: np.ndarray  # float64 [n, players]: table.win_shares_matrix of the chunk's scores
    cards: CardTally | None  # card impact's sums, for a game that records the cards held
    # How the games played, counted (None: the chunk has no figures, see ChunkResult).
    how_it_plays: HowItPlaysCounts | None = None
