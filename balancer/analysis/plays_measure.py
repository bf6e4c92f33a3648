"""A variant's `plays:` figures: real decisions and kingmaking (analysis/decisions.py, games
0..N-1 watched move by move) and the deal's share of the outcome and what search buys
(analysis/luck.py, duplicate play), as `balancer plays` measures them, with the variant's
sample instead of the command's flags (its "all seats" figures).

`sample_of` plays the sample once and keeps what each figure is computed from (per game,
per deal); `intervals` gives the figures at any level: 95% for report.json's
`how_it_plays` (`measure`, after a run's games), 1 − 2α for an `expect:` or `tune` target
(analysis/expect.py).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from balancer.analysis import decisions, luck
from balancer.config.plays_sample import RANDOM, PlaysSample
from balancer.config.variant import Variant
from balancer.report.figures import Interval as Pair
from balancer.report.how_it_plays import PlayFigure
from balancer.stats.intervals import Interval, share_interval


@dataclass(frozen=True)
class Sample:
    """What the `plays:` sample of one variant found, per unit."""

    real: np.ndarray | None  # per watched game: real decisions (every seat); None: no search
    turns: np.ndarray | None  # per watched game: every seat's turns
    kingmade: np.ndarray | None  # per watched game: 1 with a kingmaking move, else 0
    outcomes: np.ndarray | None  # duplicate play's y [deals, seats, bots]; None: no deals
    bots: tuple[str, ...] = ()
    field: str = ""


def games_needed(variant: Variant, sample: PlaysSample) -> int:
    """The games `sample_of` plays (its progress bar's total)."""
    duplicate = 0
    if sample.deals:
        bots = luck.measured_bots(variant.game, sample.search_budget)
        duplicate = luck.games_needed(variant, sample.deals, bots)
    return (sample.games if sample.search_budget > 0 else 0) + duplicate


def sample_of(
    variant: Variant,
    progress: Callable[[int], None] | None = None,
    move_time_limit: float | None = None,
) -> Sample:
    """Play `variant`'s `plays:` sample: the games watched with search's evaluations (none
    when its budget is 0: watching adds nothing the run has not counted) and the deals of
    duplicate play (none with 0 deals)."""
    from balancer.sim import DEFAULT_PLUGIN_MOVE_LIMIT

    asked = variant.plays
    if asked is None:
        raise ValueError(f"{variant.name} has no plays:")
    limit = DEFAULT_PLUGIN_MOVE_LIMIT if move_time_limit is None else move_time_limit
    budget = asked.search_budget
    real = turns = kingmade = outcomes = None
    if budget > 0:
        rows = decisions.watch_sample(
            variant, asked.games, budget, asked.margin, asked.threshold, progress, limit
        )
        real = np.array([r.real.sum() for r in rows], dtype=float)
        turns = np.array([r.turns.sum() for r in rows], dtype=float)
        kingmade = np.array([float(r.kingmaking.sum() > 0) for r in rows])
    bots: tuple[str, ...] = ()
    field = ""
    if asked.deals:
        bots = luck.measured_bots(variant.game, budget)
        field = luck.scripted_bot(variant.game)
        outcomes = luck.outcomes(variant, asked.deals, bots, budget, progress)
    return Sample(real, turns, kingmade, outcomes, bots, field)


def intervals(sample: Sample, level: float = 0.95) -> dict[str, Interval | None]:
    """Each figure the sample has (HowItPlaysFigures' field -> its `level` interval; the
    deal's share None when every outcome was the same: no variance to split)."""
    found: dict[str, Interval | None] = {}
    if sample.real is not None and sample.turns is not None and sample.kingmade is not None:
        # Σ real / Σ turns, clustered by game, as `balancer plays` gives every seat's.
        found["real_decisions"] = share_interval(sample.real, sample.turns, level=level)
        found["kingmaking"] = share_interval(sample.kingmade, level=level)
    if sample.outcomes is not None:
        played = luck.figures_of(sample.outcomes, sample.bots, sample.field, level)
        split = played.deal
        deals = sample.outcomes.shape[0]
        found["luck"] = (
            Interval(split.share, split.low, split.high, deals, split.se)
            if math.isfinite(split.share)
            else None
        )
        if played.field != RANDOM and played.field in played.search_over:
            found["search_over_scripted"] = played.search_over[played.field]
        if RANDOM in played.search_over:
            found["search_over_random"] = played.search_over[RANDOM]
    return found


def measure(
    variant: Variant,
    progress: Callable[[int], None] | None = None,
    move_time_limit: float | None = None,
) -> dict[str, PlayFigure | None]:
    """The `plays:` figures of `variant` as report.json keeps them, with 95% intervals."""
    found = intervals(sample_of(variant, progress, move_time_limit))
    return {
        key: None
        if interval is None
        else PlayFigure(
            mean=interval.estimate,
            ci95=Pair(interval.low, interval.high),
            se=interval.se,
            n=interval.n,
        )
        for key, interval in found.items()
    }
