"""The report as text: the headline printed after a run, and summary.md.

Both are in the report's language (i18n.report_lang: the `lang` its resolved
variant records, English by default); the words come from balancer/i18n and
the game's own package, the figures from the Report alone.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import TYPE_CHECKING

from balancer import i18n
from balancer.escape import code_block, markdown, terminal
from balancer.i18n import ljust, rjust
from balancer.i18n.phrases import phrase
from balancer.numbers import column_decimals, fixed, percent, percent_decimals
from balancer.report.figures import Interval, SeatAdvantage, present

if TYPE_CHECKING:
    from balancer.report.model import Report

_SCORE_FIGURES = ("mean", "sd", "min", "q1", "median", "q3", "max")
SIGNIFICANCE = 0.05  # the level at which the verdict calls a seat advantage


def _pct(x: float, places: int | None = 1) -> str:
    """A share in percent, `places` decimals (a column's, numbers.percent_decimals; None: 1)."""
    return percent(x, places)


def _pct_places(intervals: Iterable[Interval | None]) -> int | None:
    """One precision, in percentage points, for a column of shares with these intervals."""
    return percent_decimals((i.low, i.high) for i in intervals if i is not None)


def _mean_places(intervals: Iterable[Interval | None]) -> int:
    """One precision for a column of means with these intervals (two decimals without)."""
    places = column_decimals((i.low, i.high) for i in intervals if i is not None)
    return 2 if places is None else places


def _p(p: float) -> str:
    return f"p = {p:.3g}"


def lang_of(report: Report, lang: str | None = None) -> str:
    """`lang` if given, else the language the report's variant records."""
    return lang if lang is not None else i18n.report_lang(report.variant)


def seat_advantage_text(adv: SeatAdvantage, lang: str | None = None, why: str | None = None) -> str:
    """The seat-advantage figure: its test and p, or why none (`why`, else the report's note)."""
    if adv.p_value is None:
        why = why or phrase(adv.note, lang) or i18n.text("headline.no_test", lang)
        return i18n.text("headline.advantage_untested", lang, why=why)
    shown = _p(adv.p_value)
    if adv.statistic is None:
        return i18n.text("headline.advantage", lang, shown=shown)
    name = "T²" if adv.test and adv.test.startswith("Hotelling") else "statistic"
    return i18n.text(
        "headline.advantage_statistic", lang, name=name, value=f"{adv.statistic:.2f}", shown=shown
    )


def sweep_point_lines(report: Report, lang: str | None = None) -> list[str]:
    """Which point of which sweep this report is, and where the sweep's page is."""
    at = report.sweep_point
    if at is None:
        return []
    lang = lang_of(report, lang)
    point = i18n.text(
        "sweep.point", lang, index=at.index, points=at.points, sweep=at.sweep, point=at.point
    )
    return [point, i18n.text("sweep.page", lang)]


def command_line_lines(report: Report, lang: str | None = None) -> list[str]:
    """What `run --set/--players/--bots` changed over the variant file, if anything."""
    if not report.command_line:
        return []
    changes = " ".join(report.command_line)
    return [i18n.text("command_line", lang_of(report, lang), changes=changes)]


def stopping_lines(report: Report, lang: str | None = None) -> list[str]:
    """What early stopping did: stopped after how many games, or played them all."""
    if report.until is None:
        return []
    lang = lang_of(report, lang)
    most = report.variant.get("games")
    why = i18n.text(
        "stopping.why_ci" if report.until.startswith("win_ci") else "stopping.why_diff", lang
    )
    if report.stopped_at is not None:
        return [
            i18n.text(
                "stopping.early",
                lang,
                games=report.stopped_at,
                most=most,
                rule=report.until,
                why=why,
            )
        ]
    return [i18n.text("stopping.all", lang, games=report.n_games, rule=report.until)]


def confounded(report: Report) -> bool:
    """Seats hold different bots in a fixed arrangement: seat and bot can't be told apart."""
    return report.bots is not None and not report.variant.get("seat_rotation", False)


def seat_verdict(report: Report, lang: str | None = None) -> str:
    """The seat-advantage verdict in words, never claiming an edge the test can't show.

    With p below SIGNIFICANCE it names the seat furthest from an even share
    (seat 0, when it plays first, is "the first player"); seats holding
    different bots without rotation are said to be confounded with them.
    """
    lang = lang_of(report, lang)
    if report.players < 2:
        return i18n.text("verdict.one_seat", lang)
    adv = present(report.seat_advantage, "seat_advantage")
    if adv.p_value is None:
        if confounded(report):
            return i18n.text("verdict.confounded", lang)
        why = phrase(adv.note, lang) or i18n.text("headline.no_test", lang)
        return i18n.text("verdict.untested", lang, why=why)
    if adv.note and adv.p_value >= SIGNIFICANCE:
        return i18n.text("verdict.too_few", lang, why=phrase(adv.note, lang), p=_p(adv.p_value))
    even = 1 / report.players
    if adv.p_value >= SIGNIFICANCE:
        return i18n.text("verdict.none", lang, p=_p(adv.p_value))
    seat = max(report.seats, key=lambda s: (abs(s.win_share - even), -s.seat))
    above = seat.win_share > even
    if seat.seat == 0 and _seat0_plays_first(report):
        kind = "verdict.first_edge" if above else "verdict.first_handicap"
        what = i18n.text(kind, lang)
    else:
        kind = "verdict.seat_edge" if above else "verdict.seat_handicap"
        what = i18n.text(kind, lang, seat=seat.seat)
    return i18n.text(
        "verdict.advantage",
        lang,
        seat=seat.seat,
        share=_pct(seat.win_share).strip(),
        even=_pct(even).strip(),
        what=what,
        p=_p(adv.p_value),
    )


def _seat0_plays_first(report: Report) -> bool:
    """Seat 0 leads or deals first unless a `first_*` knob draws the first player at random."""
    for section in ("rules", "scoring"):
        for name, value in (report.variant.get(section) or {}).items():
            if str(name).startswith("first_") and value == "random":
                return False
    return True


def ratio_of_events(
    report: Report, numerator: str, denominator: str
) -> tuple[float, Interval | None] | None:
    """sum(numerator) / sum(denominator) over the games, with a 95% interval (delta method).

    Games are the units: the interval is that of a ratio of two per-game
    means, sqrt(var(t - R d) / n) / mean(d). None when the report lacks
    either event; no interval when it lacks the per-game table.
    """
    if numerator not in report.events or denominator not in report.events:
        return None
    per_deal = report.events[denominator].per_game
    if per_deal <= 0:
        return None
    ratio = report.events[numerator].per_game / per_deal
    from balancer import table

    columns = (table.event(numerator), table.event(denominator))
    from balancer.report.games_table import game_columns

    frame = game_columns(report, columns)  # two columns, not the whole table
    if frame.height < 2 or not all(c in frame.columns for c in columns):
        return ratio, None
    t = frame[columns[0]].cast(float).to_numpy()
    d = frame[columns[1]].cast(float).to_numpy()
    residual = t - ratio * d
    se = math.sqrt(float(residual.var(ddof=1)) / len(t)) / float(d.mean())
    return ratio, Interval(ratio - 1.96 * se, ratio + 1.96 * se)


def tricks_per_deal(report: Report, lang: str | None = None) -> str | None:
    """Da Qi Zi's tricks per deal, beside the seed's "about 5"; None for other games."""
    found = ratio_of_events(report, "tricks", "deals")
    if found is None:
        return None
    ratio, ci = found
    interval = "" if ci is None else f" [{ci.low:.2f}, {ci.high:.2f}]"
    lang = lang_of(report, lang)
    return i18n.text("headline.tricks_per_deal", lang, ratio=f"{ratio:.2f}", interval=interval)


def value_events(report: Report) -> set[str]:
    """Events that are a value per game (a maximum), not a count of firings."""
    if report.value_events is not None:
        return set(report.value_events)
    from balancer import games

    if games.canonical(report.game) is None:
        return set()
    return set(games.get(report.game).value_events)


def headline(report: Report, lang: str | None = None) -> str:
    """What a run prints: seats, win shares with intervals, scores, verdict, rule rates."""
    lang = lang_of(report, lang)
    words = i18n.game_texts(report.game, lang, report.length_unit)
    better = i18n.text("higher" if report.higher_is_better else "lower", lang)
    lines = [
        i18n.text(
            "headline.title",
            lang,
            name=report.variant["name"],
            game=words.title,
            players=report.players,
            games=report.n_games,
            seed=report.seed,
        ),
        *stopping_lines(report, lang),
        *sweep_point_lines(report, lang),
        *command_line_lines(report, lang),
        "",
        f"{rjust(i18n.text('seat', lang), 4)}  {ljust(i18n.text('bot', lang), 24)} "
        f"{rjust(i18n.text('win share', lang), 9)}  {ljust(i18n.text('95% interval', lang), 17)} "
        f"{rjust(i18n.text('score mean', lang), 10)} {ljust(i18n.text('95% interval', lang), 16)} "
        f"{rjust(i18n.text('sd', lang), 6)}",
    ]
    shares = _pct_places(s.win_ci95 for s in report.seats)
    means = _mean_places(s.score_mean_ci95 for s in report.seats)
    for seat in report.seats:
        low, high = seat.win_ci95
        lines.append(
            f"{seat.seat:>4}  {ljust(seat.bot[:24], 24)} {_pct(seat.win_share, shares):>9}  "
            f"{'[' + _pct(low, shares) + ', ' + _pct(high, shares) + ']':<17} "
            f"{fixed(seat.score.mean, means):>10} "
            f"{_mean_interval(seat.score_mean_ci95, places=means):<16} {seat.score.sd:>6.2f}"
        )
    adv = present(report.seat_advantage, "seat_advantage")
    length = present(report.length, "length")
    # The report's note is English; another language says the confounding in its own words.
    translate = lang != i18n.DEFAULT_LANG and adv.p_value is None and confounded(report)
    why = i18n.text("headline.confounded", lang) if translate else None
    lines += [
        "",
        i18n.text(
            "headline.score", lang, better=better, advantage=seat_advantage_text(adv, lang, why)
        ),
        i18n.text("headline.verdict", lang, verdict=seat_verdict(report, lang)),
        i18n.text(
            "headline.length",
            lang,
            mean=_mean_with_interval(length.mean, length.ci95),
            unit=words.length_unit,
            min=f"{length.min:g}",
            max=f"{length.max:g}",
        ),
    ]
    if report.margin is not None:
        margin = _mean_with_interval(report.margin.mean, report.margin.ci95)
        lines.append(i18n.text("headline.margin", lang, mean=margin))
    if report.bots is not None:
        lines.append("")
        lines.append(
            f"{ljust(i18n.text('bot', lang), 28)} {rjust(i18n.text('win share', lang), 9)}  "
            f"{ljust(i18n.text('95% interval', lang), 17)} "
            f"{rjust(i18n.text('seat-games', lang), 10)}"
        )
        bot_places = _pct_places(b.win_ci95 for b in report.bots.values())
        for label, bot in report.bots.items():
            low, high = bot.win_ci95
            interval = f"[{_pct(low, bot_places)}, {_pct(high, bot_places)}]"
            lines.append(
                f"{ljust(label[:28], 28)} {_pct(bot.win_share, bot_places):>9}  {interval:<17} "
                f"{bot.seat_games:>10}"
            )
        lines.append("")
        lines.append(i18n.text("headline.head_to_head", lang))
        pairs = report.head_to_head or {}
        h2h = _pct_places(h.ci95 for row in pairs.values() for h in row.values())
        for a, row in pairs.items():
            cells = ", ".join(
                f"{b} {_pct(h.ahead_share, h2h).strip()} [{_pct(h.ci95.low, h2h).strip()}, "
                f"{_pct(h.ci95.high, h2h).strip()}]"
                for b, h in row.items()
            )
            lines.append(f"  {a}: {cells}")
    lines += _rule_rates(report, lang, words)
    return "\n".join(lines)


def _rule_rates(report: Report, lang: str, words: i18n.GameTexts) -> list[str]:
    """How often each rule fired: per game and share of games (a value event: its mean)."""
    if not report.events:
        return []
    values = value_events(report)
    labels = {name: _event_label(name, words, lang) for name in report.events}
    column = max(i18n.width(label) for label in labels.values()) + 2
    per_head, share_head = i18n.text("per game", lang), i18n.text("share of games", lang)
    per_width, share_width = max(9, i18n.width(per_head)), max(14, i18n.width(share_head))
    lines = [
        "",
        ljust(i18n.text("headline.rules_fired", lang), column + 2)
        + f"{rjust(per_head, per_width)}  {rjust(share_head, share_width)}",
    ]
    for name, e in report.events.items():
        start = "  " + ljust(labels[name], column)
        if name in values:
            figure = rjust(f"{e.per_game:.2f}", per_width)
            lines.append(f"{start}{figure}  " + i18n.text("headline.a_value", lang))
        else:
            figure = rjust(f"{e.per_game:.3f}", per_width)
            share = _pct(e.share_of_games).strip()
            lines.append(f"{start}{figure}  {rjust(share, share_width)}")
    lines.append(i18n.text("headline.meanings", lang, game=report.game))
    per_deal = tricks_per_deal(report, lang)
    if per_deal is not None:
        lines.append(per_deal)
    return lines


def _event_label(name: str, words: i18n.GameTexts, lang: str) -> str:
    """An event as the reader knows it: its id in English, its own name and id in Japanese."""
    local = words.event_name(name)
    return name if local == name or lang == i18n.DEFAULT_LANG else f"{local} ({name})"


def _mean_interval(interval: Interval | None, before: str = "", places: int = 2) -> str:
    """A mean's 95% interval as text at `places` decimals, or nothing for a report that
    lacks it."""
    if interval is None:
        return "" if before else "–"
    return f"{before}[{fixed(interval.low, places)}, {fixed(interval.high, places)}]"


def _mean_with_interval(mean: float, interval: Interval | None) -> str:
    """`5.37 [5.31, 5.43]` at the precision the interval backs (balancer/numbers.py)."""
    places = _mean_places([interval])
    return fixed(mean, places) + _mean_interval(interval, " ", places)


# Characters that act in a Markdown table cell wherever they stand: emphasis, code,
# links and images, HTML tags and entities, strikethrough, the cell's own edge.
_ACTING = frozenset("\\`*[]<>&|~")


def _table_text(text: str) -> str:
    """A game's own words (a game file's event meaning or name) as a Markdown table cell
    that shows them as written: what could act is backslashed. An underscore acts only
    at a word's edge, so `fish_cashed` and a shipped meaning read (and stay) as before."""
    safe = terminal(text)
    out = []
    for at, ch in enumerate(safe):
        inside = 0 < at < len(safe) - 1 and safe[at - 1].isalnum() and safe[at + 1].isalnum()
        acts = ch in _ACTING or (ch == "_" and not inside)
        out.append(f"\\{ch}" if acts else ch)
    return "".join(out)


def _how_it_plays_lines(report: Report, lang: str, words: i18n.GameTexts) -> list[str]:
    """summary.md's section on how the games played (none for a report without it)."""
    from balancer.report.how_it_plays import rows

    if report.how_it_plays is None:
        return []
    t = i18n.text
    head = [t(f"play.{k}", lang) for k in ("figure", "value", "interval", "meaning")]
    lines = [
        f"## {t('play.title', lang)}",
        "",
        t("play.note", lang, unit=words.length_unit),
        "",
        f"| {' | '.join(head)} |",
        "|---|---:|---:|---|",
    ]
    for row in rows(report.how_it_plays, lang):
        interval = f"[{row.low}, {row.high}]" if row.low else ""
        lines.append(f"| {row.label} | {row.value} | {interval} | {row.meaning} |")
    return [*lines, ""]


def summary_markdown(report: Report, lang: str | None = None) -> str:
    """summary.md: the headline, then every event with its meaning, scores and lengths."""
    lang = lang_of(report, lang)
    words = i18n.game_texts(report.game, lang, report.length_unit)
    t = i18n.text
    # The name and the bots' labels are the user's text: nothing in them may act as Markdown.
    lines = [f"# {markdown(report.variant['name'])}", "", code_block(headline(report, lang)), ""]
    lines += [
        f"## {t('summary.events', lang)}",
        "",
        f"| {t('event', lang)} | {t('per game', lang)} | {t('share of games', lang)} "
        f"| {t('meaning', lang)} |",
        "|---|---:|---:|---|",
    ]
    # One precision per column: per game, and share of games in percent.
    per_places = column_decimals(
        (e.per_game_ci95.low, e.per_game_ci95.high)
        for e in report.events.values()
        if e.per_game_ci95 is not None
    )
    per_places = 3 if per_places is None else per_places
    share_places = _pct_places(e.share_of_games_ci95 for e in report.events.values())
    for name, e in report.events.items():
        per_game = fixed(e.per_game, per_places)
        if e.per_game_ci95 is not None:
            low, high = e.per_game_ci95
            per_game += f" [{fixed(low, per_places)}, {fixed(high, per_places)}]"
        share = _pct(e.share_of_games, share_places).strip()
        if e.share_of_games_ci95 is not None:
            low, high = e.share_of_games_ci95
            share += f" [{_pct(low, share_places).strip()}, {_pct(high, share_places).strip()}]"
        label = _table_text(_event_label(name, words, lang))
        meaning = _table_text(words.event_meaning(name))
        lines.append(f"| {label} | {per_game} | {share} | {meaning} |")
    per_deal = tricks_per_deal(report, lang)
    if per_deal is not None:
        lines += ["", per_deal]
    lines += ["", f"## {t('summary.scores', lang)}", ""]
    head = [t(k, lang) for k in ("seat", "mean", "95% interval", *_SCORE_FIGURES[1:])]
    lines += [f"| {' | '.join(head)} |", "|---|" + "---:|" * 8]
    for seat in report.seats:
        cells = [f"{getattr(seat.score, k):.2f}" for k in _SCORE_FIGURES]
        cells.insert(1, _mean_interval(seat.score_mean_ci95))
        lines.append(f"| {seat.seat} | {' | '.join(cells)} |")
    margin = present(report.margin, "margin")
    length = present(report.length, "length")
    lines += [
        "",
        t(
            "summary.margin",
            lang,
            mean=f"{margin.mean:.2f}{_mean_interval(margin.ci95, ' ')}",
            median=f"{margin.median:.2f}",
        ),
        "",
        t(
            "summary.length",
            lang,
            mean=_mean_with_interval(length.mean, length.ci95),
            unit=words.length_unit,
        ),
        "",
        *_how_it_plays_lines(report, lang, words),
        t(
            "footer",
            lang,
            version=report.balancer_version,
            game=words.title,
            rules=report.rules_version,
        ),
        "",
    ]
    return "\n".join(lines)
