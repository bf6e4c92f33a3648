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
import math
import textwrap
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from balancer import i18n
from balancer.i18n.phrases import phrase
from balancer.report import svg
from balancer.report.figures import BotFigures, Interval, SeatAdvantage, SeatFigures, present
from balancer.report.games_table import value_counts
from balancer.report.text import seat_verdict, tricks_per_deal

if TYPE_CHECKING:
    from balancer.report.model import Report

REPORT_HTML = "report.html"

# The charts, in page order; each sits in an element with data-chart="<name>".
# "win-by-bot" only when seats hold different bots, "cards" only when the game records
# the cards each seat held.
CHARTS = ("win-by-seat", "win-by-bot", "scores", "length", "events", "cards")

ACCENT = "#2f6fb0"
ACCENT_LIGHT = "#9dbfe0"
BOT_COLOURS = ("#2f6fb0", "#d9822b", "#3a9a5b", "#b5464b", "#7a5cae", "#8c6d46", "#c15f9e")

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
    value_events = _value_events(report)
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


def _pct(x: float, digits: int = 1) -> str:
    return f"{100 * x:.{digits}f}%"


def _num(x: float) -> str:
    """A figure with as many decimals as its size deserves."""
    if not math.isfinite(x):
        return str(x)
    if float(x).is_integer() and abs(x) < 1e6:
        return str(int(x))
    magnitude = abs(x)
    if magnitude >= 100:
        return f"{x:.0f}"
    if magnitude >= 10:
        return f"{x:.1f}"
    return f"{x:.2f}"


def _p_value(p: float) -> str:
    if p < 0.001:
        return "< 0.001"
    return f"{p:.3f}"


def _better(report: Report, lang: str | None = None) -> str:
    return i18n.text("higher" if report.higher_is_better else "lower", lang)


def _value_events(report: Report) -> set[str]:
    """Events that are a per-game value (a maximum, say), not a count of firings.

    A report may say so itself; otherwise the game's spec does. A report of
    a game this build doesn't know treats every event as a count.
    """
    if report.value_events is not None:
        return set(report.value_events)
    try:
        from balancer import games

        return set(games.get(report.game).value_events)
    except (KeyError, ImportError, AttributeError):
        return set()


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


def _interval(ci: Interval) -> str:
    return f"{_pct(ci.low)} – {_pct(ci.high)}"


def _mean_range(ci: Interval | None) -> str:
    return "—" if ci is None else f"{_num(ci.low)} – {_num(ci.high)}"


def _mean_ci(ci: Interval | None, decimals: int | None = None, lang: str | None = None) -> str:
    """ " (95% interval a – b)" for a mean, or nothing for a report that lacks it."""
    if ci is None:
        return ""
    show = _num if decimals is None else (lambda x: f"{x:.{decimals}f}")
    return i18n.text("html.ci", lang, low=show(ci.low), high=show(ci.high))


# -- page sections ------------------------------------------------------------


def _header(report: Report, lang: str, words: i18n.GameTexts) -> str:
    t = i18n.text
    name = report.variant.get("name", report.game)
    players = report.players
    length = present(report.length, "length")
    better = _better(report, lang)
    facts = [
        (t("html.game", lang), words.title),
        (t("html.players", lang), players),
        (t("html.games_played", lang), f"{report.n_games:,}"),
        (t("html.score", lang), t("html.better_is", lang, better=better)),
        (t("html.mean_length", lang), f"{_num(length.mean)} {words.length_unit}"),
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
    for seat in report.seats:
        s = seat.score
        rows.append(
            [
                str(seat.seat),
                _e(seat.bot),
                _pct(seat.win_share),
                _interval(seat.win_ci95),
                _num(s.mean),
                _mean_range(seat.score_mean_ci95),
                *(_num(x) for x in (s.sd, s.min, s.q1, s.median, s.q3, s.max)),
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
    note = t("html.wins_note", lang, players=players, even=_pct(1 / players)) + rotating
    return (
        f'<section id="wins"><h2>{_e(t("html.wins", lang))}</h2>'
        f'<p class="note">{_e(note)}</p>'
        + verdict
        + _figure(charts, "win-by-seat", t("html.wins_alt", lang))
        + f"<h3>{_e(t('html.headline', lang, better=_better(report, lang)))}</h3>"
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
    rows = [
        [_e(label), _pct(b.win_share), _interval(b.win_ci95), f"{b.seat_games:,}"]
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
    rows = [
        [_e(a), _e(b), _pct(h.ahead_share), _interval(h.ci95), f"{h.pairs:,}"]
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
            mean=_num(margin.mean),
            ci=_mean_ci(margin.ci95, lang=lang),
            median=_num(margin.median),
            q1=_num(margin.q1),
            q3=_num(margin.q3),
            max=_num(margin.max),
        )
        margin_text = f"<p>{_e(sentence)}</p>"
    else:
        margin_text = ""
    note = t("html.scores_note", lang, better=_better(report, lang))
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
        summary = t("html.length_constant", lang, n=_num(length.min), unit=unit)
    else:
        summary = t(
            "html.length_note",
            lang,
            mean=_num(length.mean),
            unit=unit,
            ci=_mean_ci(length.ci95, lang=lang),
            sd=_num(length.sd),
            min=_num(length.min),
            max=_num(length.max),
        )
    return (
        f'<section id="length"><h2>{_e(t("html.length", lang))}</h2>'
        f'<p class="note">{_e(summary)}</p>'
        + _figure(charts, "length", t("html.length_alt", lang, unit=unit))
        + "</section>"
    )


def _cards_section(report: Report, charts: dict[str, str], lang: str) -> list[str]:
    """Card impact's chart (report/cards.py), when the run recorded the cards held."""
    if "cards" not in charts:
        return []
    from balancer.report.cards import html_section

    alt = i18n.text("cards.x_title", lang)
    return [html_section(_figure(charts, "cards", alt), lang)]


def _event_cell(name: str, lang: str, words: i18n.GameTexts) -> str:
    """An event as the table names it: its id (the CSV column's), under its own name in Japanese."""
    local = words.event_name(name)
    if lang == i18n.DEFAULT_LANG or local == name:
        return f"<code>{_e(name)}</code>"
    return f"{_e(local)}<br><code>{_e(name)}</code>"


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
    for name, e in report.events.items():
        meaning = f'<span class="meaning">{_e(words.event_meaning(name))}</span>'
        if name in value_events:
            values = counts.event_counts(name) if name in counts.event_values else None
            if values is not None and values.n:
                spread = t(
                    "html.a_value_spread",
                    lang,
                    median=_num(values.quantile(0.5)),
                    max=_num(float(values.values[-1])),
                )
            else:
                spread = t("html.a_value", lang)
            per_game = f"{_num(e.per_game)}{_e(_mean_ci(e.per_game_ci95, lang=lang))}"
            rows.append([f"{_event_cell(name, lang, words)}{_e(spread)}", per_game, "—", meaning])
        else:
            share = _pct(e.share_of_games)
            if e.share_of_games_ci95 is not None:
                share += f" ({_interval(e.share_of_games_ci95)})"
            per_game = f"{e.per_game:.3f}{_e(_mean_ci(e.per_game_ci95, 3, lang=lang))}"
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
    out["events"] = _events(report, _value_events(report), lang)
    from balancer.report.cards import chart_svg, of_report

    # A run's report has its rows; one read from a folder sums them from games.parquet.
    cards = report.cards if report.cards is not None else of_report(report)
    if cards:
        out["cards"] = chart_svg(cards, lang=lang)
    return out


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
) -> None:
    """A bar's win share: inside the bar's foot where there is room, so it never
    collides with the whisker or the dashed line, else above the whisker; turned
    upright when the bars are too narrow for it to read across."""
    text = _pct(share)
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
    equal = i18n.text("chart.equal", lang, share=_pct(fair, 0 if (100 * fair).is_integer() else 1))
    chart.text(svg.WIDTH - right + 6, ys(fair), "\n".join(x.strip() for x in equal.split("\n")),
               size=svg.SMALL, middle=True)  # fmt: skip
    for i, (share, ci) in enumerate(zip(shares, cis, strict=True)):
        _share_value(chart, xs(i), ys(0) - ys(share), ys(0), ys(min(ci.high, ymax)), share, slot)
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
        text = i18n.text("chart.mean", lang, value=_num(mean))
        _mean_mark(chart, xs(mean), base - row, base, text, ACCENT, dash=False)
        svg.axis_line(chart, left, base, svg.WIDTH - right, base)
        chart.text(left - 44, base - row / 2, names[seat], anchor="end", middle=True, cls="label")
    x_values = [v for v in svg.ticks(lo, hi, 12, integer=edges.size > 2) if lo <= v <= hi]
    svg.x_grid(chart, xs, x_values, bottom_of[-1], bottom_of[-1],
               [svg.tick_text(v) for v in x_values])  # fmt: skip
    better = _better(report, lang)
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
        text = i18n.text("chart.mean", lang, value=_num(length.mean))
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
         [v for v in svg.ticks(0, per_max, 5) if v <= per_max], _num),
        (svg.Scale(0, 1, split + gap, svg.WIDTH - right), share, ACCENT_LIGHT, "chart.share_fired",
         [0, 0.25, 0.5, 0.75, 1.0], lambda v: _pct(v, 0)),
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
