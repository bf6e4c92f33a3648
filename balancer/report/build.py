"""A run's Report: every figure of report.json, computed from the per-game table.

The CSV tables (tables.py), the headline and summary.md (text.py) and
report.html (html.py) are then functions of the Report alone.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

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
from balancer.sim import table
from balancer.stats import describe as stats

if TYPE_CHECKING:
    from balancer.sim.runner import RunResult


def games_frame(result: RunResult) -> pl.DataFrame:
    return table.frame(result.columns(), result.variant.players, result.variant.spec.events)


def bot_figures(frame: pl.DataFrame, players: int) -> dict[str, BotFigures]:
    """Per bot label, its win share over the seat-games it played (stats.describe.bot_figures)."""
    return {
        label: BotFigures(
            win_share=bot["win_share"],
            win_ci95=Interval(*bot["win_ci95"]),
            seat_games=bot["seat_games"],
        )
        for label, bot in stats.bot_figures(frame, players).items()
    }


def build_report(result: RunResult, frame: pl.DataFrame) -> Report:
    """Every figure of report.json, from the per-game table `frame` (which the Report keeps)."""
    variant = result.variant
    spec = variant.spec
    players = variant.players
    wins = frame.select([table.win(s) for s in range(players)]).to_numpy()
    scores = frame.select([table.score(s) for s in range(players)]).to_numpy()
    seats = []
    for seat in range(players):
        labels = frame[table.bot(seat)].unique(maintain_order=True).to_list()
        seats.append(
            SeatFigures(
                seat=seat,
                bot=labels[0] if len(labels) == 1 else "rotating",
                win_share=float(wins[:, seat].mean()),
                win_ci95=Interval(*stats.wilson(float(wins[:, seat].sum()), len(frame))),
                score=Distribution(**stats.distribution(scores[:, seat])),
            )
        )
    chi2, p_value = stats.seat_advantage(wins)
    margin = stats.distribution(stats.winning_margin(scores, spec.higher_is_better))
    bots, head_to_head = None, None
    if len({s.label for s in variant.seats}) > 1:
        bots = bot_figures(frame, players)
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
        seats=tuple(seats),
        seat_advantage=SeatAdvantage(chi2=chi2, p_value=p_value),
        length=LengthFigures(**stats.length_summary(frame["length"].to_numpy())),
        events={
            name: EventFigures(**stats.event_rates(frame[table.event(name)].to_numpy()))
            for name in spec.events
        },
        margin=Distribution(**margin),
        value_events=tuple(spec.value_events),
        higher_is_better=spec.higher_is_better,
        length_unit=spec.length_unit,
        balancer_version=__version__,
        rules_version=spec.rules_version,
        bots=bots,
        head_to_head=head_to_head,
        games=frame,
    )
