"""A variant's `plays:` figures, measured for a run after its games: real decisions and
kingmaking (analysis/decisions.py, games 0..N-1 watched move by move) and the deal's share
of the outcome and what search buys (analysis/luck.py, duplicate play), each as report.json's
`how_it_plays` keeps a figure (report/how_it_plays.py's PlayFigure: value, 95% interval,
standard error, units).

The same code as `balancer plays`, with the variant's sample instead of the command's flags;
the figures and their intervals are the command's "all seats" ones.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from balancer.analysis import decisions, luck
from balancer.config.plays_sample import RANDOM, PlaysSample
from balancer.config.variant import Variant
from balancer.report.figures import Interval as Pair
from balancer.report.how_it_plays import PlayFigure
from balancer.stats.intervals import Interval
from balancer.stats.variance_split import Split


def games_needed(variant: Variant, sample: PlaysSample) -> int:
    """The games `measure` plays (its progress bar's total)."""
    duplicate = 0
    if sample.deals:
        bots = luck.measured_bots(variant.game, sample.search_budget)
        duplicate = luck.games_needed(variant, sample.deals, bots)
    return (sample.games if sample.search_budget > 0 else 0) + duplicate


def _figure(interval: Interval) -> PlayFigure:
    return PlayFigure(
        mean=interval.estimate,
        ci95=Pair(interval.low, interval.high),
        se=interval.se,
        n=interval.n,
    )


def _luck(split: Split, deals: int) -> PlayFigure | None:
    """The deal's share with its bootstrap interval and standard error; None when every
    outcome was the same (no variance to split)."""
    if not math.isfinite(split.share):
        return None
    return PlayFigure(mean=split.share, ci95=Pair(split.low, split.high), se=split.se, n=deals)


def measure(
    variant: Variant,
    sample: PlaysSample,
    progress: Callable[[int], None] | None = None,
    move_time_limit: float | None = None,
) -> dict[str, PlayFigure | None]:
    """The `plays:` figures of `variant` (HowItPlaysFigures' field -> figure), those the
    sample asks for: none needing search when its budget is 0, none of duplicate play
    with 0 deals."""
    from balancer.sim import DEFAULT_PLUGIN_MOVE_LIMIT

    limit = DEFAULT_PLUGIN_MOVE_LIMIT if move_time_limit is None else move_time_limit
    found: dict[str, PlayFigure | None] = {}
    budget = sample.search_budget
    if budget > 0:  # without search, watching adds nothing the run has not counted
        watched = decisions.decision_figures(
            variant,
            sample.games,
            budget,
            sample.margin,
            sample.threshold,
            progress=progress,
            move_time_limit=limit,
        )
        found["real_decisions"] = _figure(watched.real[-1])  # every seat's turns together
        assert watched.kingmaking_games is not None  # made whenever search evaluated
        found["kingmaking"] = _figure(watched.kingmaking_games)
    if sample.deals:
        played = luck.luck_figures(variant, sample.deals, budget, progress)
        found["luck"] = _luck(played.deal, sample.deals)
        if played.field != RANDOM and played.field in played.search_over:
            found["search_over_scripted"] = _figure(played.search_over[played.field])
        if RANDOM in played.search_over:
            found["search_over_random"] = _figure(played.search_over[RANDOM])
    return found
