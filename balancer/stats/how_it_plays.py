"""How a game plays, over many games: each figure of games/progress.py (one game's
lead changes, decided-at, comeback, drama and leader-wins curve, from its progress)
with its 95% interval, and the decision share (of the seats' turns, those that offered
more than one legal move: each game's turns and choices, as the loop that played it
counted them).

`run_figures` (rows in memory) and `HowItPlaysCounts` (games counted per value:
memory flat, the same whatever the split) give each figure with its 95% interval,
by intervals.py's methods: a t interval for the means, the clustered Wilson
interval for the shares of the win. The per-game functions are re-exported here,
so a reader of the figures needs one module.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from balancer.games.progress import *  # noqa: F403 (the per-game figures, re-exported)
from balancer.games.progress import (
    CHECKPOINTS,
    CHOICES,
    COMEBACK,
    DECIDED_AT,
    DECISION_WORDS,
    DRAMA,
    FIGURES,
    LEAD_CHANGES,
    LEADER_WINS_25,
    NAMES,
    TURNS,
    decision_shares,
)
from balancer.stats import intervals, streamed

# --- a run's figures with their 95% intervals -------------------------------------


@dataclass(frozen=True)
class HowItPlays:
    """A run's how-it-plays figures, each with its 95% interval over games.

    Means (lead changes, decided at, drama): Student t on the per-game values.
    Shares of the win (comeback, leader wins): the design-effect Wilson
    interval of intervals.share_interval, clustered by game. A leader-wins
    share is over the games with a sole leader at its checkpoint (a ratio:
    Σ the leader's win share / games with a leader), None when no game had one.
    The decision share is the mean over games of each game's share of turns that
    were choices (games/progress.py's decision_shares), with the clustered Wilson
    interval; None where the games' turns were not counted (a report from before them).
    """

    lead_changes: intervals.Interval
    decided_at: intervals.Interval
    comeback: intervals.Interval
    drama: intervals.Interval
    leader_wins: tuple[intervals.Interval | None, ...]  # at CHECKPOINTS
    decision_share: intervals.Interval | None = None

    def to_json(self) -> dict[str, Any]:
        def one(iv: intervals.Interval | None) -> dict[str, Any] | None:
            if iv is None:
                return None
            return {"mean": iv.estimate, "ci95": iv.ci95, "se": iv.se, "n": iv.n}

        shown = {
            "lead_changes": self.lead_changes,
            "decided_at": self.decided_at,
            "comeback": self.comeback,
            "drama": self.drama,
        }
        out: dict[str, Any] = {name: one(iv) for name, iv in shown.items()}
        for k, iv in enumerate(self.leader_wins):
            out[NAMES[LEADER_WINS_25 + k]] = one(iv)
        if self.decision_share is not None:
            out["decision_share"] = one(self.decision_share)
        return out


def _leader_columns(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A leader-wins column as (the leader's win share, 1 where there was a sole leader)."""
    led = ~np.isnan(values)
    return np.where(led, values, 0.0), led.astype(np.float64)


def _checked(figures: np.ndarray) -> np.ndarray:
    figures = np.asarray(figures, dtype=np.float64)
    if figures.ndim != 2 or figures.shape[1] != FIGURES:
        raise ValueError(f"figures are a games × {FIGURES} matrix (game_figures' rows)")
    return figures


def _checked_decisions(decisions: np.ndarray) -> np.ndarray:
    decisions = np.asarray(decisions, dtype=np.int64)
    if decisions.ndim != 2 or decisions.shape[1] != DECISION_WORDS:
        raise ValueError(f"decisions are a games × {DECISION_WORDS} matrix (turns, choices)")
    # A game's turns are at most a few hundred; the keys of add_decisions need < 2**31.
    if decisions.size and not (decisions.min() >= 0 and decisions.max() < 2**31):
        raise ValueError("a game's turns and choices are counts under 2**31")
    return decisions


def decision_share(decisions: np.ndarray) -> intervals.Interval | None:
    """The mean of each game's decision share over games' (turns, choices) rows, with its
    Wilson interval; None for no game."""
    decisions = _checked_decisions(decisions)
    if len(decisions) == 0:
        return None
    return intervals.share_interval(decision_shares(decisions))


def run_figures(figures: np.ndarray, decisions: np.ndarray | None = None) -> HowItPlays:
    """A run's figures from its games' rows (games × FIGURES) held in memory, and their
    (turns, choices) rows (games × DECISION_WORDS) where they were counted."""
    figures = _checked(figures)
    leaders: list[intervals.Interval | None] = []
    for k in range(len(CHECKPOINTS)):
        y, m = _leader_columns(figures[:, LEADER_WINS_25 + k])
        leaders.append(intervals.share_interval(y, m) if m.any() else None)
    return HowItPlays(
        lead_changes=intervals.mean_interval(figures[:, LEAD_CHANGES]),
        decided_at=intervals.mean_interval(figures[:, DECIDED_AT]),
        comeback=intervals.share_interval(figures[:, COMEBACK]),
        drama=intervals.mean_interval(figures[:, DRAMA]),
        leader_wins=tuple(leaders),
        decision_share=None if decisions is None else decision_share(decisions),
    )


# A leader-wins value with no sole leader, as a count's key (a win share is never negative).
NO_LEADER = -1.0


def _distinct_per_column(figures: np.ndarray) -> list[tuple[int, float, int]]:
    """(column, value, games) for each distinct value of each column of a non-empty
    games × FIGURES batch, NaN counted as NO_LEADER.

    One sort of all the columns at once and one pass for the runs of equal values:
    np.unique per column cost 0.4 µs a game (a copy, a sort and its bookkeeping seven
    times per chunk), about 4% of a whole fdc-5p-random run; this is a tenth of it."""
    games = figures.shape[0]
    # Each column a contiguous row, sorted: equal values sit in runs.
    ranked = np.array(figures.T, order="C")
    np.copyto(ranked, NO_LEADER, where=np.isnan(ranked))
    ranked.sort(axis=1)
    flat = ranked.ravel()
    starts = np.empty(flat.shape[0], dtype=np.bool_)
    starts[0] = True
    np.not_equal(flat[1:], flat[:-1], out=starts[1:])
    starts[::games] = True  # a column's first value starts a run, whatever came before
    first = np.flatnonzero(starts)
    counts = np.diff(first, append=flat.shape[0])
    return list(zip((first // games).tolist(), flat[first].tolist(), counts.tolist(), strict=True))


@dataclass
class HowItPlaysCounts:
    """Games per value of each figure: run_figures' intervals with memory flat in the games.

    A figure's values are few (lead changes are whole numbers, decided-at is
    k / steps, shares are 1/k, drama a ratio of two scores), so the tables stay
    small; and they are counts, so any split of the games into batches, chunks
    or workers gives the same report (streamed.GameCounts' reasoning).
    """

    games: int = 0
    tables: list[dict[float, int]] = field(default_factory=lambda: [{} for _ in NAMES])
    # Games per (turns, choices) and how many were counted so (a game's turns are a few
    # dozen, so the pairs stay few); the decision share is known when all `games` were.
    decisions: dict[tuple[int, int], int] = field(default_factory=dict)
    decided_games: int = 0

    def add(self, figures: np.ndarray) -> None:
        """Count a batch of games' rows (games × FIGURES)."""
        figures = _checked(figures)
        games = figures.shape[0]
        self.games += games
        if games == 0:
            return
        for column, key, count in _distinct_per_column(figures):
            table = self.tables[column]
            table[key] = table.get(key, 0) + count

    def add_decisions(self, decisions: np.ndarray) -> None:
        """Count a batch of games' (turns, choices) rows (games × DECISION_WORDS), the same
        games as a batch of `add`."""
        rows = _checked_decisions(decisions)
        # One int64 key a game, turns in the high half: np.unique over rows (axis=0) sorts
        # a structured view and cost ten times as much (0.6 s of CPU per 1,000,000 games).
        keys, counts = np.unique(rows[:, TURNS] << 32 | rows[:, CHOICES], return_counts=True)
        self.decided_games += int(counts.sum())
        for key, count in zip(keys.tolist(), counts.tolist(), strict=True):
            pair = (key >> 32, key & 0xFFFFFFFF)
            self.decisions[pair] = self.decisions.get(pair, 0) + count

    def merge(self, other: HowItPlaysCounts) -> None:
        self.games += other.games
        for mine, theirs in zip(self.tables, other.tables, strict=True):
            for key, count in theirs.items():
                mine[key] = mine.get(key, 0) + count
        self.decided_games += other.decided_games
        for pair, count in other.decisions.items():
            self.decisions[pair] = self.decisions.get(pair, 0) + count

    def _decision_share(self) -> intervals.Interval | None:
        """The decision share over the counted games; None unless every game was counted."""
        if self.decided_games != self.games or not self.decisions:
            return None
        pairs = sorted(self.decisions)  # value order, as the other tables are summed
        shares = decision_shares(np.array(pairs, dtype=np.int64))
        counts = np.array([self.decisions[p] for p in pairs], dtype=np.float64)
        return streamed.share_interval(shares, np.ones(len(shares)), counts)

    def figures(self) -> HowItPlays:
        """run_figures over the counted games (to rounding: the sums are taken in value order)."""
        if self.games == 0:
            raise ValueError("how it plays: no games counted")
        counted = [streamed.Counted.of(table) for table in self.tables]
        leaders: list[intervals.Interval | None] = []
        for k in range(len(CHECKPOINTS)):
            values = counted[LEADER_WINS_25 + k]
            led = (values.values != NO_LEADER).astype(np.float64)
            y = values.values * led
            leaders.append(streamed.share_interval(y, led, values.counts) if led.any() else None)
        comeback = counted[COMEBACK]
        return HowItPlays(
            lead_changes=counted[LEAD_CHANGES].mean_interval(),
            decided_at=counted[DECIDED_AT].mean_interval(),
            comeback=streamed.share_interval(
                comeback.values, np.ones(len(comeback.values)), comeback.counts
            ),
            drama=counted[DRAMA].mean_interval(),
            leader_wins=tuple(leaders),
            decision_share=self._decision_share(),
        )
