"""report.html: the whole report as one page a designer opens in a browser.

The page is a single self-contained file: charts are SVG written here (report/svg.py)
inlined in the markup, the CSS is inline, and a Content-Security-Policy forbids every
fetch, so it reads the same offline, attached to an e-mail or years later.
It is a pure function of (report.json, games.parquet): same inputs, same
bytes, so a rerun of the same seed reproduces it exactly.

Every string that came from the report (variant, bot and event names, knob
values) is HTML-escaped; names may hold Japanese or markup characters.
"""

from __future__ import annotations

import html
import json
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from balancer import i18n
from balancer.i18n.phrases import phrase
from balancer.numbers import column_decimals, fixed, percent, percent_decimals
from balancer.report.charts import render_charts
from balancer.report.figures import BotFigures, EventFigures, Interval, SeatAdvantage, present
from balancer.report.games_table import value_counts
from balancer.report.html_format import (
    better_word,
    num,
    pct,
    value_events_of,
)
from balancer.report.text import seat_verdict, tricks_per_deal

if TYPE_CHECKING:
    from balancer.report.model import Report

REPORT_HTML = "report.html"

# The charts, in page order; each sits in an element with data-chart="<name>".
# "win-by-bot" only when seats hold different bots, "cards" only when the game records
# the cards each seat held.
CHARTS = ("win-by-seat", "win-by-bot", "scores", "length", "events", "cards", "leader-wins")


CSS = """
:root { --ink: #1d2330; --muted: #5b6472; --line: #e3e6ea; --accent: #2f6fb0;
  --bg: #f5f6f8; --good: #2e7d4f; --warn: #a5561b; }
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--ink);
  font: 15px/1.55 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans",
    "Hiragino Sans", "Noto Sans CJK JP", "Yu Gothic", sans-serif; }
main { max-width: 980px; margin: 0 auto; padding: 28px 20px 56px; }
header h1 { font-size: 28px; line-height: 1.2; margin: 0 0 6px; letter-spacing: -0.01em;
  overflow-wrap: anywhere; }
header .sub { color: var(--muted); margin: 0 0 18px; }
.facts { display: grid; grid-template-columns: repeat(auto-fit, minmax(150px, 1fr));
  gap: 10px; margin: 0; }
.facts div { background: #fff; border: 1px solid var(--line); border-radius: 8px;
  padding: 10px 14px; }
.facts dt { color: var(--muted); font-size: 12px; text-transform: uppercase;
  letter-spacing: 0.05em; }
.facts dd { margin: 2px 0 0; font-size: 16.5px; font-weight: 600;
  font-variant-numeric: tabular-nums; overflow-wrap: break-word; }
section { background: #fff; border: 1px solid var(--line); border-radius: 10px;
  padding: 20px 24px 22px; margin: 22px 0; }
h2 { font-size: 19px; margin: 0 0 4px; }
h3 { font-size: 15px; margin: 20px 0 6px; }
p { margin: 6px 0; }
.note { color: var(--muted); font-size: 13.5px; }
.verdict { font-weight: 600; }
.verdict.flag { color: var(--warn); }
.verdict.ok { color: var(--good); }
figure { margin: 12px 0 4px; }
figure svg { display: block; width: 100%; height: auto; }
figure svg text { font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans",
  "Hiragino Sans", "Noto Sans CJK JP", sans-serif !important; }
.table-wrap { overflow-x: auto; }
/* A table wider than its card scrolls with a bar that is always drawn (an overlay bar,
   shown only while scrolling, hides that there is more to the right). */
.table-wrap::-webkit-scrollbar { height: 10px; }
.table-wrap::-webkit-scrollbar-thumb { background: #9aa3ad; border-radius: 5px; }
.table-wrap::-webkit-scrollbar-track { background: #eef0f3; }
@supports not selector(::-webkit-scrollbar) {
  .table-wrap { scrollbar-color: #9aa3ad #eef0f3; }
}
table { border-collapse: collapse; width: 100%; font-size: 14px;
  font-variant-numeric: tabular-nums; margin: 8px 0 4px; }
th, td { padding: 6px 8px; border-bottom: 1px solid var(--line); text-align: left;
  vertical-align: top; }
th { color: var(--muted); font-weight: 600; font-size: 12.5px; white-space: nowrap; }
td.num, th.num { text-align: right; white-space: nowrap; }
tbody tr:hover { background: #f8f9fb; }
td code, .variant td { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas,
  "Noto Sans Mono", monospace; font-size: 13px; overflow-wrap: anywhere; }
.variant td:first-child { color: var(--muted); white-space: nowrap; width: 40%; }
.variant tr.group th { text-align: left; color: var(--ink); font-size: 13px; padding-top: 14px;
  text-transform: uppercase; letter-spacing: 0.05em; border-bottom: 1px solid #cfd4da; }
/* A Japanese page names CJK fonts first: Latin-first stacks draw kana with whatever
   fallback the system picks, and some pick a Chinese face for kanji. */
html:lang(ja) body, html:lang(ja) figure svg text {
  font-family: "Noto Sans CJK JP", "Noto Sans JP", "Hiragino Sans", "Hiragino Kaku Gothic ProN",
    "Yu Gothic", "YuGothic", "Meiryo", "IPAexGothic", "IPAGothic", sans-serif !important; }
.meaning { color: var(--muted); font-size: 13px; }
/* An event's id is the CSV column's: kept whole, never broken mid-name. */
table.events td:first-child { min-width: 9em; }
table.events td:first-child code { white-space: nowrap; overflow-wrap: normal; }
footer { color: var(--muted); font-size: 13px; text-align: center; margin-top: 28px; }
@media print {
  body { background: #fff; }
  section { break-inside: avoid; border: none; padding: 0; }
}
"""


# -- public entry point -------------------------------------------------------


def write_html(report: Report, folder: Path, lang: str | None = None) -> None:
    """Write `folder/report.html`; `Report.save` calls this."""
    page = render_html(report, lang)
    (Path(folder) / REPORT_HTML).write_text(page, encoding="utf-8")


def render_html(report: Report, lang: str | None = None) -> str:
    """The page as a string: a pure function of the report and its counted per-game values.

    In `lang`, else the language the report's variant records (English by default).
    """
    lang = lang or i18n.report_lang(report.variant)
    charts = render_charts(report, lang)
    value_events = value_events_of(report)
    name = report.variant.get("name", report.game)
    words = i18n.game_texts(report.game, lang, report.length_unit)
    parts = [
        "<!DOCTYPE html>",
        f'<html lang="{_e(lang)}">',
        "<head>",
        '<meta charset="utf-8">',
        # The page must never reach the network: the browser refuses any fetch.
        '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; '
        "style-src 'unsafe-inline'\">",
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        '<meta name="generator" content="balancer">',
        f"<title>{_e(i18n.text('html.title', lang, name=name))}</title>",
        f"<style>{CSS}</style>",
        "</head>",
        "<body>",
        "<main>",
        _header(report, lang, words),
        _wins_section(report, charts, lang),
    ]
    if report.bots is not None:
        parts.append(_bots_section(report, report.bots, charts, lang))
    parts += [
        _scores_section(report, charts, lang),
        _length_section(report, charts, lang, words),
        _events_section(report, charts, value_events, lang, words),
        *_cards_section(report, charts, lang),
        *_how_it_plays_section(report, charts, lang, words),
        _variant_section(report, lang),
        "<footer>",
        _e(
            i18n.text(
                "html.footer",
                lang,
                version=report.balancer_version,
                game=words.title,
                rules=report.rules_version,
                seed=report.seed,
            )
        ),
        "</footer>",
        "</main>",
        "</body>",
        "</html>",
        "",
    ]
    return "\n".join(parts)


# -- small helpers ------------------------------------------------------------


def _e(value: Any) -> str:
    return html.escape(str(value), quote=True)


def _p_value(p: float) -> str:
    if p < 0.001:
        return "< 0.001"
    return f"{p:.3f}"


def _table(head: Iterable[tuple[str, bool]], rows: Iterable[Iterable[str]], cls: str = "") -> str:
    """An HTML table; `head` is (label, numeric) pairs; cells arrive already escaped."""
    head = list(head)
    numeric = [n for _, n in head]
    # A <table>: the browser drops <tr>/<td> met outside one, and the cells run together.
    start = f'<table class="{cls}">' if cls else "<table>"
    out = [f'<div class="table-wrap">{start}']
    out.append(
        "<thead><tr>"
        + "".join(f"<th{' class=num' if n else ''}>{label}</th>" for label, n in head)
        + "</tr></thead><tbody>"
    )
    for row in rows:
        cells = "".join(
            f"<td{' class=num' if n else ''}>{cell}</td>"
            for cell, n in zip(row, numeric, strict=True)
        )
        out.append(f"<tr>{cells}</tr>")
    out.append("</tbody></table></div>")
    return "".join(out)


def _figure(charts: dict[str, str], name: str, alt: str) -> str:
    return f'<figure data-chart="{name}" role="img" aria-label="{_e(alt)}">{charts[name]}</figure>'


def _interval(ci: Interval, places: int | None) -> str:
    """A share's interval in percent at its column's decimals (numbers.percent_decimals)."""
    return f"{percent(ci.low, places)} – {percent(ci.high, places)}"


def _mean_range(ci: Interval | None, places: int | None) -> str:
    if ci is None:
        return "—"
    if places is None:
        return f"{num(ci.low)} – {num(ci.high)}"
    return f"{fixed(ci.low, places)} – {fixed(ci.high, places)}"


def _mean_ci(ci: Interval | None, decimals: int | None = None, lang: str | None = None) -> str:
    """ " (95% interval a – b)" for a mean, or nothing for a report that lacks it."""
    if ci is None:
        return ""
    show = num if decimals is None else (lambda x: f"{x:.{decimals}f}")
    return i18n.text("html.ci", lang, low=show(ci.low), high=show(ci.high))


# -- page sections ------------------------------------------------------------


def _header(report: Report, lang: str, words: i18n.GameTexts) -> str:
    t = i18n.text
    name = report.variant.get("name", report.game)
    players = report.players
    length = present(report.length, "length")
    better = better_word(report, lang)
    facts = [
        (t("html.game", lang), words.title),
        (t("html.players", lang), players),
        (t("html.games_played", lang), f"{report.n_games:,}"),
        (t("html.score", lang), t("html.better_is", lang, better=better)),
        (t("html.mean_length", lang), f"{num(length.mean)} {words.length_unit}"),
    ]
    items = "".join(f"<div><dt>{_e(k)}</dt><dd>{_e(v)}</dd></div>" for k, v in facts)
    noun = t("html.one_player" if players == 1 else "html.n_players", lang, n=players)
    sub = t(
        "html.sub",
        lang,
        game=words.title,
        players=noun,
        games=f"{report.n_games:,}",
        seed=report.seed,
        better=better,
    )
    return (
        "<header>"
        f"<h1>{_e(name)}</h1>"
        f'<p class="sub">{_e(sub)}</p>'
        f"{_sweep_point(report, lang)}"
        f"{_command_line(report, lang)}"
        f'<dl class="facts">{items}</dl>'
        "</header>"
    )


def _command_line(report: Report, lang: str) -> str:
    """A one-off run says what the command line changed over its variant file."""
    if not report.command_line:
        return ""
    said = i18n.text("command_line", lang, changes=" ".join(report.command_line))
    return f'<p class="sub" data-command-line>{_e(said)}</p>'


def _sweep_point(report: Report, lang: str) -> str:
    """A sweep point's report names its point and links the sweep's page, one folder up."""
    at = report.sweep_point
    if at is None:
        return ""
    t = i18n.text
    point = t("sweep.point", lang, index=at.index, points=at.points, sweep=at.sweep, point=at.point)
    link = f'<a href="../index.html" data-link="sweep">{_e(t("sweep.link", lang))}</a>'
    return f'<p class="sub" data-sweep-point>{_e(point)} · {link}</p>'


def _wins_section(report: Report, charts: dict[str, str], lang: str) -> str:
    t = i18n.text
    players = report.players
    rows = []
    shares = percent_decimals((s.win_ci95.low, s.win_ci95.high) for s in report.seats)
    means = column_decimals(
        (s.score_mean_ci95.low, s.score_mean_ci95.high)
        for s in report.seats
        if s.score_mean_ci95 is not None
    )
    for seat in report.seats:
        s = seat.score
        rows.append(
            [
                str(seat.seat),
                _e(seat.bot),
                percent(seat.win_share, shares),
                _interval(seat.win_ci95, shares),
                num(s.mean) if means is None else fixed(s.mean, means),
                _mean_range(seat.score_mean_ci95, means),
                *(num(x) for x in (s.sd, s.min, s.q1, s.median, s.q3, s.max)),
            ]
        )
    head = [
        (t("seat", lang), True),
        (t("bot", lang), False),
        (t("win share", lang), True),
        (t("95% interval", lang), True),
        (t("score mean", lang), True),
        (t("html.mean_ci", lang), True),
        *((t(k, lang), True) for k in ("sd", "min", "q1", "median", "q3", "max")),
    ]
    head = [(_e(label), numeric) for label, numeric in head]
    if players < 2:
        verdict = f'<p class="note">{_e(t("html.one_seat", lang))}</p>'
        adv_table = ""
    else:
        adv = present(report.seat_advantage, "seat_advantage")
        verdict, adv_table = _seat_advantage_html(report, adv, lang)
    rotation = report.variant.get("seat_rotation")
    rotating = t("html.rotating", lang) if rotation and report.bots is not None else ""
    note = t("html.wins_note", lang, players=players, even=pct(1 / players)) + rotating
    return (
        f'<section id="wins"><h2>{_e(t("html.wins", lang))}</h2>'
        f'<p class="note">{_e(note)}</p>'
        + verdict
        + _figure(charts, "win-by-seat", t("html.wins_alt", lang))
        + f"<h3>{_e(t('html.headline', lang, better=better_word(report, lang)))}</h3>"
        + _table(head, rows)
        + adv_table
        + "</section>"
    )


def _seat_advantage_html(report: Report, adv: SeatAdvantage, lang: str) -> tuple[str, str]:
    """The seat-advantage verdict and its table; no claim at all when there is no p-value.

    Below the verdict, the same sentence the terminal prints: which seat, by
    how much, or why nothing can be told.
    """
    t = i18n.text
    in_words = f'<p class="note">{_e(seat_verdict(report, lang))}</p>'
    if adv.p_value is None:
        note = phrase(adv.note, lang) if adv.note else "no seat-advantage test"
        if lang != i18n.DEFAULT_LANG:
            return f'<p class="verdict">{_e(seat_verdict(report, lang))}</p>', ""
        return f'<p class="verdict">{_e(t("html.no_test", lang, note=note))}</p>', ""
    flagged = adv.p_value < 0.05
    shown = _p_value(adv.p_value)
    p_text = f"p {shown}" if shown.startswith("<") else f"p = {shown}"
    sentence = t("html.flagged" if flagged else "html.not_flagged", lang, p=p_text)
    verdict = f'<p class="verdict {"flag" if flagged else "ok"}">{_e(sentence)}</p>'
    if flagged:
        verdict += in_words
    statistic = "–" if adv.statistic is None else f"{adv.statistic:.2f}"
    df = "–" if not adv.df else ", ".join(str(d) for d in adv.df)
    head = [
        (t("html.test", lang), False),
        (t("html.statistic", lang), True),
        (t("html.df", lang), True),
        (t("html.p_value", lang), True),
    ]
    table = f"<h3>{_e(t('html.advantage', lang))}</h3>" + _table(
        [(_e(label), numeric) for label, numeric in head],
        [
            [
                _e(phrase(adv.test, lang) if adv.test else "–"),
                statistic,
                df,
                _e(_p_value(adv.p_value)),
            ]
        ],
    )
    if adv.note:
        table += f'<p class="note">{_e(phrase(adv.note, lang))}</p>'
    return verdict, table


def _bots_section(
    report: Report, bots: Mapping[str, BotFigures], charts: dict[str, str], lang: str
) -> str:
    t = i18n.text
    places = percent_decimals((b.win_ci95.low, b.win_ci95.high) for b in bots.values())
    rows = [
        [
            _e(label),
            percent(b.win_share, places),
            _interval(b.win_ci95, places),
            f"{b.seat_games:,}",
        ]
        for label, b in bots.items()
    ]
    head = [
        (t("bot", lang), False),
        (t("win share", lang), True),
        (t("95% interval", lang), True),
        (t("seat-games", lang), True),
    ]
    return (
        f'<section id="bots"><h2>{_e(t("html.bots", lang))}</h2>'
        f'<p class="note">{_e(t("html.bots_note", lang))}</p>'
        + _figure(charts, "win-by-bot", t("html.bots_alt", lang))
        + _table([(_e(label), numeric) for label, numeric in head], rows)
        + _head_to_head(report, lang)
        + "</section>"
    )


def _head_to_head(report: Report, lang: str) -> str:
    t = i18n.text
    pairs = report.head_to_head
    if not pairs:
        return ""
    places = percent_decimals((h.ci95.low, h.ci95.high) for r in pairs.values() for h in r.values())
    rows = [
        [_e(a), _e(b), percent(h.ahead_share, places), _interval(h.ci95, places), f"{h.pairs:,}"]
        for a, row in pairs.items()
        for b, h in row.items()
    ]
    head = [
        (t("bot", lang), False),
        (t("html.against", lang), False),
        (t("html.ahead", lang), True),
        (t("95% interval", lang), True),
        (t("html.seat_pairs", lang), True),
    ]
    return (
        f"<h3>{_e(t('html.h2h', lang))}</h3>"
        f'<p class="note">{_e(t("html.h2h_note", lang))}</p>'
        + _table([(_e(label), numeric) for label, numeric in head], rows)
    )


def _scores_section(report: Report, charts: dict[str, str], lang: str) -> str:
    t = i18n.text
    margin = present(report.margin, "margin")
    if report.players > 1:
        sentence = t(
            "html.margin",
            lang,
            mean=num(margin.mean),
            ci=_mean_ci(margin.ci95, lang=lang),
            median=num(margin.median),
            q1=num(margin.q1),
            q3=num(margin.q3),
            max=num(margin.max),
        )
        margin_text = f"<p>{_e(sentence)}</p>"
    else:
        margin_text = ""
    note = t("html.scores_note", lang, better=better_word(report, lang))
    return (
        f'<section id="scores"><h2>{_e(t("html.scores", lang))}</h2>'
        f'<p class="note">{_e(note)}</p>'
        + margin_text
        + _figure(charts, "scores", t("html.scores_alt", lang))
        + "</section>"
    )


def _length_section(
    report: Report, charts: dict[str, str], lang: str, words: i18n.GameTexts
) -> str:
    t = i18n.text
    length = present(report.length, "length")
    unit = words.length_unit
    if length.min == length.max:
        summary = t("html.length_constant", lang, n=num(length.min), unit=unit)
    else:
        summary = t(
            "html.length_note",
            lang,
            mean=num(length.mean),
            unit=unit,
            ci=_mean_ci(length.ci95, lang=lang),
            sd=num(length.sd),
            min=num(length.min),
            max=num(length.max),
        )
    return (
        f'<section id="length"><h2>{_e(t("html.length", lang))}</h2>'
        f'<p class="note">{_e(summary)}</p>'
        + _figure(charts, "length", t("html.length_alt", lang, unit=unit))
        + "</section>"
    )


def _how_it_plays_section(
    report: Report, charts: dict[str, str], lang: str, words: i18n.GameTexts
) -> list[str]:
    """How the games played: the leader-wins curve, then every figure with its interval
    (none for a report from before it, or of a run whose games kept no record of it)."""
    from balancer.report.how_it_plays import rows

    if report.how_it_plays is None:
        return []
    t = i18n.text
    head = [(t(f"play.{k}", lang), k in ("value", "interval")) for k in
            ("figure", "value", "interval", "meaning")]  # fmt: skip
    table = _table(
        [(_e(label), numeric) for label, numeric in head],
        (
            [_e(r.label), _e(r.value), _e(f"{r.low} – {r.high}" if r.low else ""), _e(r.meaning)]
            for r in rows(report.how_it_plays, lang)
        ),
    )
    curve = (
        _figure(charts, "leader-wins", t("play.chart_alt", lang)) if "leader-wins" in charts else ""
    )
    return [
        f'<section id="how-it-plays"><h2>{_e(t("play.title", lang))}</h2>'
        f'<p class="note">{_e(t("play.note", lang, unit=words.length_unit))}</p>'
        f"{curve}{table}</section>"
    ]


def _cards_section(report: Report, charts: dict[str, str], lang: str) -> list[str]:
    """Card impact's chart (report/cards.py), when the run recorded the cards held."""
    if "cards" not in charts:
        return []
    from balancer.report.cards import html_section, roles_html, roles_of_report

    alt = i18n.text("cards.x_title", lang)
    roles = roles_of_report(report)
    by_role = roles_html(roles, lang) if roles else ""
    return [html_section(_figure(charts, "cards", alt) + by_role, lang)]


def _event_cell(name: str, lang: str, words: i18n.GameTexts) -> str:
    """An event as the table names it: its id (the CSV column's), under its own name in Japanese."""
    local = words.event_name(name)
    if lang == i18n.DEFAULT_LANG or local == name:
        return f"<code>{_e(name)}</code>"
    return f"{_e(local)}<br><code>{_e(name)}</code>"


def _share(e: EventFigures, places: int | None) -> str:
    """An event's share of games in percent, with its interval when the report has one."""
    if e.share_of_games_ci95 is None:
        return percent(e.share_of_games, places)
    if places is None:
        places = percent_decimals([(e.share_of_games_ci95.low, e.share_of_games_ci95.high)])
    share = percent(e.share_of_games, places)
    return f"{share} ({_interval(e.share_of_games_ci95, places)})"


def _events_section(
    report: Report,
    charts: dict[str, str],
    value_events: set[str],
    lang: str,
    words: i18n.GameTexts,
) -> str:
    """The rates chart, then a table of every event with its rates and what one count is."""
    t = i18n.text
    counts = value_counts(report)  # counted, never read from per-game rows
    rows = []
    # One precision per column (balancer/numbers.py): the counts' per game, the shares.
    counted = [e for n, e in report.events.items() if n not in value_events]
    per_places = column_decimals(
        (e.per_game_ci95.low, e.per_game_ci95.high) for e in counted if e.per_game_ci95 is not None
    )
    share_places = percent_decimals(
        (e.share_of_games_ci95.low, e.share_of_games_ci95.high)
        for e in counted
        if e.share_of_games_ci95 is not None
    )
    for name, e in report.events.items():
        meaning = f'<span class="meaning">{_e(words.event_meaning(name))}</span>'
        if name in value_events:
            values = counts.event_counts(name) if name in counts.event_values else None
            if values is not None and values.n:
                spread = t(
                    "html.a_value_spread",
                    lang,
                    median=num(values.quantile(0.5)),
                    max=num(float(values.values[-1])),
                )
            else:
                spread = t("html.a_value", lang)
            per_game = f"{num(e.per_game)}{_e(_mean_ci(e.per_game_ci95, lang=lang))}"
            # Its share of games at its own interval's precision: pressed against 100%
            # (every game has a multiplier), it is no row of the counted events' column.
            share = _share(e, None)
            rows.append([f"{_event_cell(name, lang, words)}{_e(spread)}", per_game, share, meaning])
        else:
            share = _share(e, share_places)
            places = 3 if per_places is None else per_places
            per_game = f"{fixed(e.per_game, places)}{_e(_mean_ci(e.per_game_ci95, places, lang))}"
            rows.append([_event_cell(name, lang, words), per_game, share, meaning])
    values_note = ""
    if value_events & set(report.events):
        values_note = t("html.values_note", lang)
    per_deal = tricks_per_deal(report, lang)
    ratio = f'<p class="verdict">{_e(per_deal)}</p>' if per_deal is not None else ""
    head = [
        (t("event", lang), False),
        (t("per game", lang), True),
        (t("share of games", lang), True),
        (t("meaning", lang), False),
    ]
    return (
        f'<section id="events"><h2>{_e(t("html.events", lang))}</h2>'
        f'<p class="note">{_e(t("html.events_note", lang) + values_note)}</p>'
        + ratio
        + _figure(charts, "events", t("html.events_alt", lang))
        + _table([(_e(label), numeric) for label, numeric in head], rows, "events")
        + "</section>"
    )


def _flatten(value: Any, prefix: str = "") -> list[tuple[str, Any]]:
    """Nested knobs as (dotted key, leaf) rows; lists of scalars stay one row."""
    if isinstance(value, dict):
        if not value:
            return [(prefix, {})]
        rows = []
        for key, inner in value.items():
            rows += _flatten(inner, f"{prefix}.{key}" if prefix else str(key))
        return rows
    if isinstance(value, list) and any(isinstance(v, dict | list) for v in value):
        rows = []
        for index, inner in enumerate(value):
            rows += _flatten(inner, f"{prefix}[{index}]")
        return rows
    return [(prefix, value)]


def _leaf(value: Any) -> str:
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False)


def _variant_section(report: Report, lang: str | None = None) -> str:
    """Every knob, grouped the way the YAML is: the run, the seats, then each rules section.

    Knob names and values are the YAML's own, in every language: they are what
    a designer types.
    """
    t = i18n.text
    variant = report.variant
    run, seats = t("html.group_run", lang), t("html.group_seats", lang)
    groups: dict[str, list[tuple[str, str]]] = {run: []}
    for key, value in variant.items():
        if key == "seats" and isinstance(value, list):
            groups[seats] = [
                (t("html.seat_n", lang, n=i), _seat_knobs(seat)) for i, seat in enumerate(value)
            ]
        elif isinstance(value, dict):
            heading = t(f"html.group_{key}", lang) if key in ("rules", "scoring") else key
            groups[heading] = [(k, _leaf(v)) for k, v in _flatten(value)]
        else:
            groups[run].append((key, _leaf(value)))
    body = []
    for group, rows in groups.items():
        if not rows:
            continue
        body.append(f'<tr class="group"><th colspan="2">{_e(group)}</th></tr>')
        body += [f"<tr><td>{_e(k)}</td><td>{_e(v)}</td></tr>" for k, v in rows]
    return (
        f'<section id="variant"><h2>{_e(t("html.variant", lang))}</h2>'
        f'<p class="note">{_e(t("html.variant_note", lang))}</p>'
        '<div class="table-wrap"><table class="variant"><tbody>'
        + "".join(body)
        + "</tbody></table></div></section>"
    )


def _seat_knobs(seat: Any) -> str:
    if not isinstance(seat, dict):
        return _leaf(seat)
    params = seat.get("params") or {}
    bot = str(seat.get("bot", "?"))
    return f"{bot} {_leaf(params)}" if params else bot
