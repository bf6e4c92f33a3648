"""A run's Report: every figure of report.json, computed from the per-game table.

The CSV tables (tables.py), the headline and summary.md (text.py) and
report.html (html.py) are then functions of the Report alone.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import polars as pl

from balancer import __version__
from balancer.report.model import (
    BotFigures,
    Distribution,
    EventFigures,
    HeadToHead,
    Interval,
    LengthFigures,
    Report,
    SeatAdvantage,
    SeatFigures,
)
from balancer.rng import RNG_VERSION
from balancer.sim import table
from balancer.stats import describe as stats
from balancer.stats.figures import RunData, RunFigures, figures_for_run

if TYPE_CHECKING:
    from balancer.sim.runner import RunResult


def games_frame(result: RunResult) -> pl.DataFrame:
    return table.frame(result.columns(), result.variant.players, result.variant.spec.events)


def run_figures(result: RunResult, frame: pl.DataFrame) -> RunFigures:
    """Every interval of the run (stats.figures: cluster-by-game intervals, seat advantage)."""
    variant = result.variant
    spec = variant.spec
    data = RunData.from_frame(
        frame,
        variant.players,
        spec.events,
        spec.value_events,
        spec.higher_is_better,
        variant.seat_rotation,
    )
    return figures_for_run(data)


def _interval(values: list[float]) -> Interval:
    return Interval(*values)


def bot_figures(figures: RunFigures) -> dict[str, BotFigures]:
    """Per bot label, its win share over the seat-games it played, clustered by game."""
    return {
        label: BotFigures(
            win_share=iv.estimate,
            win_ci95=_interval(iv.ci95),
            seat_games=figures.bot_seat_games[label],
        )
        for label, iv in figures.bots.items()
    }


def seat_advantage(figures: RunFigures) -> SeatAdvantage:
    adv = figures.seat_advantage
    return SeatAdvantage(
        test=adv.test,
        statistic=adv.statistic,
        df=tuple(adv.df) if adv.df else None,
        p_value=adv.p_value,
        note=adv.note or None,
    )


def build_report(result: RunResult, frame: pl.DataFrame) -> Report:
    """Every figure of report.json, from the per-game table `frame` (which the Report keeps)."""
    variant = result.variant
    spec = variant.spec
    players = variant.players
    figures = run_figures(result, frame)
    scores = frame.select([table.score(s) for s in range(players)]).to_numpy()
    seats = tuple(
        SeatFigures(
            seat=seat.seat,
            bot=seat.bot,
            win_share=seat.win.estimate,
            win_ci95=_interval(seat.win.ci95),
            score_mean_ci95=_interval(seat.score.ci95),
            score=_distribution(scores[:, seat.seat]),
        )
        for seat in figures.seats
    )
    margin = Distribution(
        **stats.distribution(stats.winning_margin(scores, spec.higher_is_better)),
        ci95=_interval(figures.margin.ci95) if figures.margin else None,
    )
    length = LengthFigures(
        **stats.length_summary(frame["length"].to_numpy()),
        ci95=_interval(figures.length.ci95),
    )
    events = {}
    for name in spec.events:
        rates = figures.events[name]
        share = rates.share_of_games
        events[name] = EventFigures(
            **stats.event_rates(frame[table.event(name)].to_numpy()),
            per_game_ci95=_interval(rates.per_game.ci95),
            share_of_games_ci95=_interval(share.ci95) if share else None,
        )
    bots, head_to_head = None, None
    if len({s.label for s in variant.seats}) > 1:
        bots = bot_figures(figures)
        head_to_head = {
            a: {
                b: HeadToHead(
                    ahead_share=h["ahead_share"],
                    ci95=Interval(*h["ci95"]),
                    games=h["games"],
                    pairs=h["pairs"],
                )
                for b, h in row.items()
            }
            for a, row in stats.head_to_head(frame, players, spec.higher_is_better).items()
        }
    return Report(
        game=spec.name,
        players=players,
        n_games=len(frame),
        seed=variant.seed,
        variant=variant.resolved(),
        seats=seats,
        seat_advantage=seat_advantage(figures),
        length=length,
        events=events,
        margin=margin,
        value_events=tuple(spec.value_events),
        higher_is_better=spec.higher_is_better,
        length_unit=spec.length_unit,
        balancer_version=__version__,
        rules_version=spec.rules_version,
        rng_version=RNG_VERSION,
        bots=bots,
        head_to_head=head_to_head,
        games=frame,
    )


def _distribution(values: np.ndarray) -> Distribution:
    d = stats.distribution(values)
    return Distribution(
        mean=d["mean"],
        sd=d["sd"],
        min=d["min"],
        q1=d["q1"],
        median=d["median"],
        q3=d["q3"],
        max=d["max"],
    )
