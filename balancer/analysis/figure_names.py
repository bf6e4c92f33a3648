"""One name per figure, the same in every command that names one.

`expect:` targets, `tune --target`, `sweep --figure`, the rows of `diff`, the
columns of sweep.csv: each says `seat_win_share.0`, `bots.LABEL.win_share`,
`seat_score_mean.0`, `margin.mean`, `margin.sd`, `length.mean`,
`seat_advantage.p_value`, `events.NAME.per_game`,
`events.NAME.share_of_games` or how the games played (stats/play_names.py:
`how_it_plays.comeback.share`, ...; those a variant's `plays:` asks for only with it:
`how_it_plays.real_decisions.share`, `how_it_plays.luck.share`, ...). Most are also
where report.json keeps the figure (`length.mean`, `events.NAME.per_game`,
`bots.LABEL.win_share`); a seat's are under `seats[S]` there (`seats[S].win_share`,
`seats[S].score.mean`), because report.json is a list of seats, not a name per seat.

This module reads a finished report by those names (what sweep.csv holds per
point) and says which names a variant's reports will have before any game is
played, so a misspelled name is refused up front with the nearest valid one.
"""

from __future__ import annotations

import difflib
import math
import re
from collections import Counter
from typing import TYPE_CHECKING

from balancer.numbers import CI95_HIGH, CI95_LOW
from balancer.stats.play_names import (
    ALL,
    DECISION_SHARE,
    HOW_IT_PLAYS,
    LUCK,
    OPT_IN,
    SEARCH_OVER_RANDOM,
    SEARCH_OVER_SCRIPTED,
    opt_in_names,
)

if TYPE_CHECKING:
    from balancer.config.variant import Variant
    from balancer.report.figures import Interval
    from balancer.report.model import Report

# Figures that are no mean of per-game values (a spread, a test's p): charted by sweep,
# but with no interval, so no target (expect:, tune) can be tested on them.
NOT_MEANS = frozenset({"margin.sd", "seat_advantage.p_value"})

# The columns of a figure's 95% interval in sweep.csv: `<figure>.ci95_low`, `<figure>.ci95_high`,
# as in every file balancer writes (balancer/numbers.py).
LOW, HIGH = CI95_LOW, CI95_HIGH


def _words(name: str) -> list[str]:
    """`seat0_win_share` -> [seat, 0, win, share]: the words, whatever joins them."""
    return re.findall(r"[a-z]+|[0-9]+", name.lower())


def nearest(name: str, valid: list[str]) -> str | None:
    """The valid name closest to a mistyped one, or None when none is close.

    Names written with other joins or in another order (`seat0_win_share`,
    `length_mean`, `neko_ni_koban_per_game`) are matched by their words first:
    the valid name holding all of them with the fewest others, if only one
    does. Else the closest spelling.
    """
    words = Counter(_words(name))
    if words:
        holding = [v for v in valid if not words - Counter(_words(v))]
        if holding:
            extra = {v: len(_words(v)) - sum(words.values()) for v in holding}
            fewest = min(extra.values())
            best = [v for v in holding if extra[v] == fewest]
            if len(best) == 1:
                return best[0]
    close = difflib.get_close_matches(name, valid, n=1, cutoff=0.6)
    return close[0] if close else None


def report_figures(report: Report) -> dict[str, tuple[float, Interval | None]]:
    """Every figure of a report by its name: (value, its 95% interval or None)."""
    from balancer.report.figures import present

    found: dict[str, tuple[float, Interval | None]] = {}
    for seat in report.seats:
        found[f"seat_win_share.{seat.seat}"] = (seat.win_share, seat.win_ci95)
    for label, bot in (report.bots or {}).items():
        found[f"bots.{label}.win_share"] = (bot.win_share, bot.win_ci95)
    for seat in report.seats:
        found[f"seat_score_mean.{seat.seat}"] = (seat.score.mean, seat.score_mean_ci95)
    margin = present(report.margin, "margin")
    found["margin.mean"] = (margin.mean, margin.ci95)
    found["margin.sd"] = (margin.sd, None)
    length = present(report.length, "length")
    found["length.mean"] = (length.mean, length.ci95)
    p_value = present(report.seat_advantage, "seat_advantage").p_value
    found["seat_advantage.p_value"] = (math.nan if p_value is None else p_value, None)
    values = set(report.value_events or ())
    for name, event in report.events.items():
        found[f"events.{name}.per_game"] = (event.per_game, event.per_game_ci95)
        if name not in values:
            found[f"events.{name}.share_of_games"] = (
                event.share_of_games,
                event.share_of_games_ci95,
            )
    if report.how_it_plays is not None:  # a report from before it, or of a stepped plugin run
        for name, key in HOW_IT_PLAYS.items():
            figure = getattr(report.how_it_plays, key)
            # A leader-wins share is null when no game had a sole leader at its checkpoint.
            found[name] = (math.nan, None) if figure is None else (figure.mean, figure.ci95)
        share = report.how_it_plays.decision_share
        if share is not None:  # a report from before turns were counted has none
            found[DECISION_SHARE] = (share.mean, share.ci95)
        asked = report.variant.get("plays")
        for name, key in OPT_IN.items():
            figure = getattr(report.how_it_plays, key)
            if figure is not None:
                found[name] = (figure.mean, figure.ci95)
            elif isinstance(asked, dict) and name in _sample_names(report.game, asked):
                # Asked for but without a value: every duplicate outcome alike (no split).
                found[name] = (math.nan, None)
    return found


def _sample_names(game: str, asked: dict) -> list[str]:
    """The `plays:` figures a report's resolved `plays:` asked for."""
    from balancer.config.plays_sample import RANDOM, scripted_bot

    budget, deals = int(asked.get("search_budget", 0)), int(asked.get("deals", 0))
    return opt_in_names(budget, deals, scripted_bot(game) == RANDOM)


def plays_names(variant: Variant) -> list[str]:
    """The `plays:` figures a run of `variant` will measure (none without `plays:`)."""
    if variant.plays is None:
        return []
    return _sample_names(variant.game, variant.plays.to_json())


def needs_plays(name: str, variant: Variant) -> str | None:
    """Why `variant`'s reports can't have the `plays:` figure `name` (None: they will, or
    `name` is no `plays:` figure): the one line a command refuses it with."""
    if name not in OPT_IN or name in plays_names(variant):
        return None
    if variant.plays is None:
        return (
            f"{name} needs `plays:` in the variant: it is measured on that sample after the "
            "games (docs/analysis.md)"
        )
    sample = variant.plays
    if name in (LUCK, SEARCH_OVER_RANDOM, SEARCH_OVER_SCRIPTED) and sample.deals == 0:
        return f"{name} needs duplicate play: deals above 0 in the variant's `plays:`"
    if sample.search_budget == 0:
        return f"{name} needs search: search_budget above 0 in the variant's `plays:`"
    return f"{name}: {variant.game} has no scripted bot, so duplicate play's field is random"


def variant_figures(variant: Variant) -> list[str]:
    """The names report_figures gives every report of `variant`, known before it is played."""
    seats = range(variant.players)
    names = [f"seat_win_share.{s}" for s in seats]
    labels = sorted({seat.label for seat in variant.seats})
    if len(labels) > 1:  # a report has `bots` only when its seats' bots differ
        names += [f"bots.{label}.win_share" for label in labels]
    names += [f"seat_score_mean.{s}" for s in seats]
    names += ["margin.mean", "margin.sd", "length.mean", "seat_advantage.p_value"]
    for name in variant.spec.events:
        names.append(f"events.{name}.per_game")
        if name not in variant.spec.value_events:
            names.append(f"events.{name}.share_of_games")
    names += list(ALL)  # every game records its steps and counts its turns
    return names + plays_names(variant)
