"""report.html's charts: hand-written SVG, one function per chart (render_charts)."""

from __future__ import annotations

import math
import textwrap
from collections.abc import Mapping
from typing import TYPE_CHECKING

import numpy as np

from balancer import i18n
from balancer.numbers import percent, percent_decimals
from balancer.report import svg
from balancer.report.figures import BotFigures, Interval, SeatFigures, present
from balancer.report.games_table import value_counts

if TYPE_CHECKING:
    from balancer.report.model import Report
from balancer.report.html_format import (
    ACCENT,
    ACCENT_LIGHT,
    BOT_COLOURS,
    better_word,
    num,
    pct,
    value_events_of,
)

# -- charts -------------------------------------------------------------------
#
# Each chart is hand-written SVG (report/svg.py): its geometry is fixed arithmetic
# from the label lengths and the number of rows, so the same report draws the
# same bytes, and the browser draws the text (CJK names included).


def render_charts(report: Report, lang: str | None = None) -> dict[str, str]:
    """Every chart as inline <svg> markup, by name."""
    lang = lang or i18n.report_lang(report.variant)
    out = {"win-by-seat": _win_by_seat(report, lang)}
    if report.bots is not None:
        out["win-by-bot"] = _win_by_bot(report, report.bots, lang)
    out["scores"] = _scores(report, lang)
    out["length"] = _length(report, lang)
    out["events"] = _events(report, value_events_of(report), lang)
    from balancer.report.cards import chart_svg, of_report

    # A run's report has its rows; one read from a folder sums them from games.parquet.
    cards = report.cards if report.cards is not None else of_report(report)
    if cards:
        out["cards"] = chart_svg(cards, lang=lang)
    if report.how_it_plays is not None and any(report.how_it_plays.leader_wins()):
        out["leader-wins"] = _leader_wins(report, lang)
    return out


def _leader_wins(report: Report, lang: str) -> str:
    """How early the game is clear: the sole leader's win share at 25%, 50% and 75% of
    the game, each with its 95% interval, over a dashed line at a player picked at
    random (1 / players). A checkpoint where no game had a sole leader has no mark."""
    from balancer.report.how_it_plays import CHECKPOINTS
    from balancer.report.svg_plots import PlotPoint, Series, interval_chart

    played = present(report.how_it_plays, "how_it_plays")
    points = [
        PlotPoint(k, f.mean, f.ci95.low, f.ci95.high)
        for k, f in enumerate(played.leader_wins())
        if f is not None
    ]
    even = 1 / report.players
    ticks = [v for v in svg.ticks(0, 1, 6) if v <= 1 + 1e-12]
    chart = interval_chart(
        [f"{at}%" for at in CHECKPOINTS],
        [Series(points, ACCENT)],
        (0.0, 1.0),
        x_title=i18n.text("play.chart_x", lang),
        y_title=i18n.text("play.chart_y", lang),
        note=i18n.text("play.chart_note", lang),
        legend=[("line", svg.MUTED, i18n.text("play.chart_even", lang, share=pct(even, 0)))],
        reference=(even, ""),
        tick_labels=svg.pct_labels(ticks),
    )
    return chart.render()


def _tick_label(text: str) -> str:
    """A bar's label under a narrow bar: wrapped onto at most two short lines."""
    lines = textwrap.wrap(str(text), 16, break_on_hyphens=False) or [""]
    if len(lines) > 2:
        lines = [lines[0], svg.shortened(lines[1], 15)]
    return "\n".join(lines)


def _y_title(chart: svg.Chart, text: str, left: float, top: float, bottom: float) -> None:
    """An axis title up the plot's left side, clear of its percent tick labels."""
    chart.text(left - 48, (top + bottom) / 2, text, anchor="middle", fill=svg.MUTED, rotate=-90)


def _x_title(chart: svg.Chart, text: str, left: float, right: float, y: float) -> None:
    chart.text((left + right) / 2, y, text, anchor="middle", fill=svg.MUTED)


def _bar_labels(labels: list[str], flat: list[str], slot: float) -> tuple[list[str], bool]:
    """The labels under bars `slot` wide, and whether they are slanted: a wrapped
    label wider than its slot would run into its neighbour's, so then every label
    goes on one slanted line instead (`flat`: the labels as one line each)."""
    fits = all(svg.text_width(label, svg.SMALL) <= 0.95 * slot for label in labels)
    if fits:
        return labels, False
    return [svg.shortened(label, 24) for label in flat], True


SLANT = -35.0  # degrees: slanted bar labels
_HALF_SLOT = 14.0  # about half the narrowest slot: how far a first bar sits in from the axis


def _slots(n: int, left: float, right: float) -> svg.Scale:
    """Bar i's centre at scale(i); a lone bar or two would otherwise stretch across the chart."""
    half = max(n / 2 + 0.1, 1.4)
    return svg.Scale((n - 1) / 2 - half, (n - 1) / 2 + half, left, svg.WIDTH - right)


def _share_value(
    chart: svg.Chart,
    x: float,
    bar: float,
    foot: float,
    whisker_top: float,
    share: float,
    slot: float,
    places: int | None,
) -> None:
    """A bar's win share, at `places` decimals (its table's column's, so the bar and the
    table say the same number): inside the bar's foot where there is room, so it never
    collides with the whisker or the dashed line, else above the whisker; turned
    upright when the bars are too narrow for it to read across."""
    text = percent(share, places)
    wide = 1.1 * svg.text_width(text, svg.SMALL)  # bold
    across = wide <= 0.95 * slot
    inside = bar > (svg.SMALL + 8 if across else wide + 8)
    y = foot - 5 if inside else whisker_top - 5
    fill = "white" if inside else svg.INK
    if across:
        chart.text(x, y, text, anchor="middle", size=svg.SMALL, bold=True, fill=fill, cls="value")
    else:
        chart.text(x + 0.35 * svg.SMALL, y, text, size=svg.SMALL, bold=True, fill=fill,
                   rotate=-90, cls="value")  # fmt: skip


def _bar_layout(
    labels: list[tuple[str, str]], right: float
) -> tuple[svg.Scale, list[str], bool, float]:
    """Where the bars stand, the labels as drawn, whether they are slanted, and the
    room they take under the axis."""
    xs = _slots(len(labels), 64.0, right)
    shown, slanted = _bar_labels([w for w, _ in labels], [f for _, f in labels], xs(1) - xs(0))
    if not slanted:
        lines = max(label.count("\n") + 1 for label in shown)
        return xs, shown, False, 12 + lines * svg.LINE * svg.SMALL
    # A slanted label reaches left of its bar: the first one must stay in the chart.
    reach = max(svg.text_width(label, svg.SMALL) for label in shown)
    left = max(64.0, reach * math.cos(math.radians(SLANT)) + 8 - _HALF_SLOT)
    bottom = 16 + reach * math.sin(math.radians(-SLANT)) + svg.SMALL
    return _slots(len(labels), left, right), shown, True, bottom


def _draw_bar_labels(
    chart: svg.Chart, xs: svg.Scale, shown: list[str], slanted: bool, base: float
) -> None:
    for i, label in enumerate(shown):
        if slanted:
            # Anchored at the end, just right of the bar's centre: it reads down to its bar.
            chart.text(xs(i) + 4, base + 14, label, anchor="end", size=svg.SMALL, rotate=SLANT,
                       cls="label")  # fmt: skip
        else:
            chart.text(xs(i), base + 6 + svg.SMALL, label, anchor="middle", size=svg.SMALL,
                       cls="label")  # fmt: skip


def _share_bars(
    report: Report,
    labels: list[tuple[str, str]],
    shares: list[float],
    cis: list[Interval],
    colours: list[str],
    plot_height: float,
    lang: str,
) -> str:
    """Win shares as bars with 95% interval whiskers and a dashed equal-share line;
    `labels` are each bar's (wrapped, one-line) names."""
    right, top = 84.0, 12.0
    xs, shown, slanted, bottom = _bar_layout(labels, right)
    left, slot = xs.start, xs(1) - xs(0)
    base = top + plot_height
    chart = svg.Chart(base + bottom)
    fair = 1 / report.players
    high = max(c.high for c in cis)
    ymax = 1.08 if fair >= 1 else min(1.08, max(high, fair) * 1.15)
    ys = svg.Scale(0, ymax, base, top)
    values = [v for v in svg.ticks(0, ymax, 6) if v <= ymax]
    svg.y_grid(chart, ys, values, left, svg.WIDTH - right, svg.pct_labels(values))
    width = 0.6 * slot
    for i, (share, colour) in enumerate(zip(shares, colours, strict=True)):
        chart.rect(xs(i) - width / 2, ys(share), width, ys(0) - ys(share), colour, cls="bar")
    for i, ci in enumerate(cis):
        chart.whisker(xs(i), ys(max(ci.low, 0)), ys(min(ci.high, ymax)), min(12, 0.3 * slot))
    chart.line(left, ys(fair), svg.WIDTH - right, ys(fair), svg.INK, 1.1, dash="5 4", cls="even")
    equal = i18n.text("chart.equal", lang, share=pct(fair, 0 if (100 * fair).is_integer() else 1))
    chart.text(svg.WIDTH - right + 6, ys(fair), "\n".join(x.strip() for x in equal.split("\n")),
               size=svg.SMALL, middle=True)  # fmt: skip
    # The precision of the table beside the chart (html.py: one per column, numbers.py).
    places = percent_decimals((ci.low, ci.high) for ci in cis)
    for i, (share, ci) in enumerate(zip(shares, cis, strict=True)):
        top_of = ys(min(ci.high, ymax))
        _share_value(chart, xs(i), ys(0) - ys(share), ys(0), top_of, share, slot, places)
    svg.axis_line(chart, left, base, svg.WIDTH - right, base)
    svg.axis_line(chart, left, top, left, base)
    _draw_bar_labels(chart, xs, shown, slanted, base)
    _y_title(chart, i18n.text("chart.win_share", lang), left, top, base)
    return chart.render()


def _seat_name(seat: SeatFigures, lang: str, sep: str = "\n") -> str:
    """ "seat 2" and, unless the bots rotate, its bot: wrapped onto lines under it,
    or after it on one line (`sep`)."""
    bot = seat.bot
    name = i18n.text("html.seat_n", lang, n=seat.seat)
    if bot == "rotating":
        return name
    return name + sep + (_tick_label(bot) if sep == "\n" else bot)


def _win_by_seat(report: Report, lang: str) -> str:
    seats = report.seats
    return _share_bars(
        report,
        [(_seat_name(s, lang), _seat_name(s, lang, " ")) for s in seats],
        [s.win_share for s in seats],
        [s.win_ci95 for s in seats],
        [ACCENT] * len(seats),
        plot_height=200,
        lang=lang,
    )


def _win_by_bot(report: Report, bots: Mapping[str, BotFigures], lang: str) -> str:
    names = list(bots)
    return _share_bars(
        report,
        [(_tick_label(n), n) for n in names],
        [bots[n].win_share for n in names],
        [bots[n].win_ci95 for n in names],
        [BOT_COLOURS[i % len(BOT_COLOURS)] for i in range(len(names))],
        plot_height=170,
        lang=lang,
    )


def _bins(values: np.ndarray) -> np.ndarray:
    """Histogram edges, at most about 40 bins.

    Integer values get whole-number bins centred on the values, so a score of
    3 never straddles two bars; wide ranges group several values per bar.
    """
    if values.size == 0:
        return np.array([-0.5, 0.5])
    lo, hi = float(values.min()), float(values.max())
    integral = bool(np.all(np.mod(values, 1) == 0))
    if integral:
        step = max(1, math.ceil((hi - lo + 1) / 40))
        return np.arange(lo - 0.5, hi + 0.5 + step, step)
    if lo == hi:
        return np.array([lo - 0.5, hi + 0.5])
    return np.linspace(lo, hi, 41)


def _histogram(
    chart: svg.Chart, xs: svg.Scale, ys: svg.Scale, edges: np.ndarray, shares: np.ndarray, fill: str
) -> None:
    """One bar per bin, a little narrower than the bin so neighbours stay apart."""
    for lo, hi, share in zip(edges[:-1], edges[1:], shares, strict=True):
        if share > 0:
            x = xs(lo + 0.06 * (hi - lo))
            chart.rect(x, ys(share), xs(lo + 0.94 * (hi - lo)) - x, ys(0) - ys(share), fill,
                       cls="bar")  # fmt: skip


def _mean_mark(
    chart: svg.Chart, x: float, top: float, bottom: float, text: str, colour: str, dash: bool
) -> None:
    """A mean's vertical line with its value at the top, turned left near the right edge."""
    chart.line(x, top, x, bottom, colour, 1.6 if not dash else 1.2, dash="5 4" if dash else None,
               cls="mean")  # fmt: skip
    near_edge = x > svg.WIDTH - 110
    chart.text(x - 4 if near_edge else x + 4, top + svg.SMALL, text.strip(), size=svg.SMALL,
               fill=colour, anchor="end" if near_edge else "start")  # fmt: skip


def _x_span(edges: np.ndarray) -> tuple[float, float]:
    lo, hi = float(edges[0]), float(edges[-1])
    pad = 0.02 * (hi - lo)
    return lo - pad, hi + pad


def _scores(report: Report, lang: str) -> str:
    players = report.players
    counts = value_counts(report)
    columns = [counts.score_counts(s) for s in range(players)]
    edges = _bins(np.concatenate([c.values for c in columns]))
    names = [_seat_name(s, lang) for s in report.seats]
    left = max(svg.text_width(n) for n in names) + 58
    right, top, row, gap = 16.0, 8.0, 62.0, 14.0
    bottom_of = [top + i * (row + gap) + row for i in range(players)]
    chart = svg.Chart(bottom_of[-1] + 44)
    games = max(1, counts.games)
    shares = [np.histogram(c.values, bins=edges, weights=c.counts)[0] / games for c in columns]
    ymax = max(max(float(s.max(initial=0)) for s in shares) * 1.25, 0.01)
    lo, hi = _x_span(edges)
    xs = svg.Scale(lo, hi, left, svg.WIDTH - right)
    values = [v for v in svg.ticks(0, ymax, 2) if v <= ymax]
    for seat, (bar_shares, base) in enumerate(zip(shares, bottom_of, strict=True)):
        ys = svg.Scale(0, ymax, base, base - row)
        svg.y_grid(chart, ys, values, left, svg.WIDTH - right, svg.pct_labels(values))
        _histogram(chart, xs, ys, edges, bar_shares, ACCENT_LIGHT)
        mean = report.seats[seat].score.mean
        text = i18n.text("chart.mean", lang, value=num(mean))
        _mean_mark(chart, xs(mean), base - row, base, text, ACCENT, dash=False)
        svg.axis_line(chart, left, base, svg.WIDTH - right, base)
        chart.text(left - 44, base - row / 2, names[seat], anchor="end", middle=True, cls="label")
    x_values = [v for v in svg.ticks(lo, hi, 12, integer=edges.size > 2) if lo <= v <= hi]
    svg.x_grid(chart, xs, x_values, bottom_of[-1], bottom_of[-1],
               [svg.tick_text(v) for v in x_values])  # fmt: skip
    better = better_word(report, lang)
    _x_title(chart, i18n.text("chart.scores_x", lang, better=better), left, svg.WIDTH - right,
             bottom_of[-1] + 38)  # fmt: skip
    return chart.render()


def _length(report: Report, lang: str) -> str:
    lengths = value_counts(report).length_counts()
    edges = _bins(lengths.values)
    counts, _ = np.histogram(lengths.values, bins=edges, weights=lengths.counts)
    shares = counts / max(1, lengths.n)
    length = present(report.length, "length")
    constant = length.min == length.max
    left, right, top = 64.0, 16.0, 12.0
    base = top + (100 if constant else 150)
    chart = svg.Chart(base + 44)
    # One length only: pad the axis so a lone bar doesn't fill the chart.
    lo, hi = (max(-0.5, length.min - 6), length.min + 6) if constant else _x_span(edges)
    xs = svg.Scale(lo, hi, left, svg.WIDTH - right)
    ymax = max(float(shares.max(initial=0)) * 1.15, 0.01)
    ys = svg.Scale(0, ymax, base, top)
    values = [v for v in svg.ticks(0, ymax, 4) if v <= ymax]
    svg.y_grid(chart, ys, values, left, svg.WIDTH - right, svg.pct_labels(values))
    _histogram(chart, xs, ys, edges, shares, ACCENT)
    if not constant:
        text = i18n.text("chart.mean", lang, value=num(length.mean))
        _mean_mark(chart, xs(length.mean), top, base, text, svg.INK, dash=True)
    svg.axis_line(chart, left, base, svg.WIDTH - right, base)
    svg.axis_line(chart, left, top, left, base)
    x_values = [v for v in svg.ticks(lo, hi, 14, integer=True) if lo <= v <= hi]
    svg.x_grid(chart, xs, x_values, base, base, [svg.tick_text(v) for v in x_values])
    unit = i18n.game_texts(report.game, lang, report.length_unit).length_unit
    _x_title(chart, i18n.text("chart.length_x", lang, unit=unit), left, svg.WIDTH - right,
             base + 38)  # fmt: skip
    _y_title(chart, i18n.text("chart.share_of_games", lang), left, top, base)
    return chart.render()


def _events(report: Report, value_events: set[str], lang: str) -> str:
    names = [n for n in report.events if n not in value_events]
    if not names:
        chart = svg.Chart(60)
        chart.text(svg.WIDTH / 2, 30, i18n.text("chart.no_events", lang), anchor="middle",
                   fill=svg.MUTED, middle=True)  # fmt: skip
        return chart.render()
    words = i18n.game_texts(report.game, lang, report.length_unit)
    labels = [svg.shortened(words.event_name(n) if lang != i18n.DEFAULT_LANG else n) for n in names]
    left = max(svg.text_width(n) for n in labels) + 18
    right, top, row, gap = 44.0, 28.0, 22.0, 28.0
    base = top + row * len(names)
    chart = svg.Chart(base + 26)
    per_game = [report.events[n].per_game for n in names]
    share = [report.events[n].share_of_games for n in names]
    split = left + (svg.WIDTH - right - left - gap) * 1.2 / 2.2
    per_max = (max(per_game) or 1.0) * 1.2
    panels = [
        (svg.Scale(0, per_max, left, split), per_game, ACCENT, "chart.per_game",
         [v for v in svg.ticks(0, per_max, 5) if v <= per_max], num),
        (svg.Scale(0, 1, split + gap, svg.WIDTH - right), share, ACCENT_LIGHT, "chart.share_fired",
         [0, 0.25, 0.5, 0.75, 1.0], lambda v: pct(v, 0)),
    ]  # fmt: skip
    for xs, values, colour, title, ticks, show in panels:
        tick_labels = svg.pct_labels(ticks) if xs.hi == 1 else [svg.tick_text(v) for v in ticks]
        svg.x_grid(chart, xs, ticks, top, base, tick_labels)
        for i, value in enumerate(values):
            y = top + i * row
            chart.rect(xs(0), y + 0.18 * row, xs(value) - xs(0), 0.64 * row, colour, cls="bar")
            chart.text(xs(value) + 4, y + row / 2, show(value), size=svg.SMALL, middle=True,
                       cls="value")  # fmt: skip
        svg.axis_line(chart, xs(0), top, xs(0), base)
        chart.text(xs.start, top - 10, i18n.text(title, lang), cls="title")
    for i, label in enumerate(labels):
        chart.text(left - 8, top + (i + 0.5) * row, label, anchor="end", middle=True, cls="label")
    return chart.render()
