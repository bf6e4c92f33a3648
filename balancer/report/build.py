"""A run's Report: every figure of report.json, from the counts of its games (stats.streamed).

The CSV tables (tables.py), the headline and summary.md (text.py) and
report.html (html.py) are then functions of the Report alone.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

import numpy as np
import polars as pl

from balancer import games, table
from balancer._version import __version__
from balancer.report.figures import (
    BotFigures,
    Distribution,
    EventFigures,
    HeadToHead,
    Interval,
    LengthFigures,
    SeatAdvantage,
    SeatFigures,
)
from balancer.report.how_it_plays import HowItPlaysFigures
from balancer.report.model import Report
from balancer.rng import RNG_VERSION
from balancer.stats.figures import RunFigures
from balancer.stats.how_it_plays import HowItPlaysCounts
from balancer.stats.streamed import Counted, GameCounts, share_interval

if TYPE_CHECKING:
    from balancer.sim.runner import RunResult
    from balancer.stats.card_tally import CardImpact


def games_frame(result: RunResult) -> pl.DataFrame:
    """The run's whole games table, read back from its games.parquet (tests, small runs)."""
    return result.frame()


def counts_of_frame(result: RunResult, frame: pl.DataFrame) -> GameCounts:
    """The counts of a whole games table at once: the in-memory computation."""
    variant = result.variant
    spec = variant.spec
    players = variant.players
    return GameCounts.from_arrays(
        frame.select([table.score(s) for s in range(players)]).to_numpy().astype(float),
        frame[table.LENGTH].to_numpy(),
        frame.select([table.event(e) for e in spec.events]).to_numpy().astype(float),
        event_names=spec.events,
        labels=[s.label for s in variant.seats],
        value_events=spec.value_events,
        higher_is_better=spec.higher_is_better,
        rotate=variant.seat_rotation,
    )


def how_it_plays_of_frame(frame: pl.DataFrame) -> HowItPlaysCounts | None:
    """How a whole games table played, counted at once (None: its games kept no record)."""
    if not table.has_how_it_plays(frame):
        return None
    counts = HowItPlaysCounts()
    counts.add(table.how_it_plays_matrix(frame))
    if table.has_decisions(frame):
        counts.add_decisions(table.decisions_matrix(frame))
    return counts


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


def from_run(
    result: RunResult, *, until: str | None = None, stopped_at: int | None = None
) -> Report:
    """The report of a finished run; `until` names the rule a run stopped by,
    `stopped_at` the games it had played when that rule stopped it (None: it didn't)."""
    report = build_report(result)
    if until is None:
        return report
    return replace(report, until=until.replace(" ", ""), stopped_at=stopped_at)


def build_report(result: RunResult, frame: pl.DataFrame | None = None) -> Report:
    """Every figure of report.json, from the counts the run gathered as its games arrived.

    With `frame` (the whole games table) the counts are taken from it at
    once instead, the in-memory computation; both give the same figures.
    The Report reads its games table from the run's games.parquet only if
    someone asks for it.
    """
    variant = result.variant
    spec = variant.spec
    players = variant.players
    counts = result.counts if frame is None else counts_of_frame(result, frame)
    played = result.how_it_plays if frame is None else how_it_plays_of_frame(frame)
    figures = counts.figures()
    seats = tuple(
        SeatFigures(
            seat=seat.seat,
            bot=seat.bot,
            win_share=seat.win.estimate,
            win_ci95=_interval(seat.win.ci95),
            score_mean_ci95=_interval(seat.score.ci95),
            score=_distribution(counts.score_counts(seat.seat)),
        )
        for seat in figures.seats
    )
    margin = Distribution(
        **counts.margin_counts().distribution(),
        ci95=_interval(figures.margin.ci95) if figures.margin else None,
    )
    whole_length = counts.length_counts().distribution()
    length = LengthFigures(
        **{key: whole_length[key] for key in ("mean", "sd", "min", "max")},
        ci95=_interval(figures.length.ci95),
    )
    events = {}
    for name in spec.events:
        rates = figures.events[name]
        share = rates.share_of_games
        values = counts.event_counts(name)
        fired = float(values.counts[values.values > 0].sum()) / values.n
        if share is None:
            # A value event (dqz's max_multiplier): the figures test no share of its games,
            # but the report gives one, and a share is read with its interval like any other.
            happened = (values.values > 0).astype(float)
            share = share_interval(happened, np.ones(len(happened)), values.counts)
        events[name] = EventFigures(
            per_game=values.mean(),
            share_of_games=fired,
            per_game_ci95=_interval(rates.per_game.ci95),
            share_of_games_ci95=_interval(share.ci95),
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
            for a, row in counts.head_to_head().items()
        }
    return Report(
        game=spec.name,
        players=players,
        n_games=counts.games,
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
        how_it_plays=None
        if played is None
        else HowItPlaysFigures.of(played.figures(), variant.comeback_margin),
        games=frame if frame is not None else result.games_file,
        counts=counts,
        cards=_card_rows(result, frame),
        game_file=games.game_file_of(spec.name),
    )


def _card_rows(result: RunResult, frame: pl.DataFrame | None) -> tuple[CardImpact, ...] | None:
    """Card impact (cards.csv, report.html), from the sums the run gathered, or the frame."""
    kinds_of = result.variant.spec.card_kinds
    if kinds_of is None:
        return None
    kinds = kinds_of(result.variant.rules)
    if frame is not None:
        from balancer.stats.card_tally import card_impact, has_cards

        if not has_cards(frame):
            return None
        return tuple(card_impact(frame, result.variant.players, kinds))
    if result.cards is None:
        return None
    return tuple(result.cards.impact(kinds))


def _distribution(counted: Counted) -> Distribution:
    d = counted.distribution()
    return Distribution(
        mean=d["mean"],
        sd=d["sd"],
        min=d["min"],
        q1=d["q1"],
        median=d["median"],
        q3=d["q3"],
        max=d["max"],
    )
