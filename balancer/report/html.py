"""report.html: the whole report as one page a designer opens in a browser.

The page is a single self-contained file: charts are matplotlib SVG inlined in
the markup, the CSS is inline, and a Content-Security-Policy forbids every
fetch, so it reads the same offline, attached to an e-mail or years later.
It is a pure function of (report.json, games.parquet): same inputs, same
bytes, so a rerun of the same seed reproduces it exactly.

Every string that came from the report (variant, bot and event names, knob
values) is HTML-escaped; names may hold Japanese or markup characters.
"""

from __future__ import annotations

import base64
import html
import io
import json
import math
import re
import textwrap
import unicodedata
import warnings
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from balancer.report.model import (
    BotFigures,
    Interval,
    Report,
    SeatAdvantage,
    SeatFigures,
    present,
    value_counts,
)

if TYPE_CHECKING:
    from matplotlib.figure import Figure

REPORT_HTML = "report.html"

# The charts, in page order; each sits in an element with data-chart="<name>".
CHARTS = ("win-by-seat", "win-by-bot", "scores", "length", "events")

ACCENT = "#2f6fb0"
ACCENT_LIGHT = "#9dbfe0"
INK = "#1d2330"
MUTED = "#5b6472"
GRID = "#e6e8ec"
BOT_COLOURS = ("#2f6fb0", "#d9822b", "#3a9a5b", "#b5464b", "#7a5cae", "#8c6d46", "#c15f9e")

WIDTH = 7.2  # inches; every figure is this wide so the page has one rhythm
SVG_LIMIT = 600_000  # bytes; past this a chart is embedded as PNG instead

_RC: dict[str, Any] = {
    # Fixed ids and no timestamp: identical inputs give identical bytes.
    "svg.hashsalt": "balancer-report",
    # Text stays text: small, selectable, and the browser draws CJK names
    # with its own fonts where DejaVu has no glyph.
    "svg.fonttype": "none",
    # A bot called "a$b$" must not be typeset as mathematics.
    "text.parse_math": False,
    "font.family": "sans-serif",
    "font.size": 9.5,
    "axes.titlesize": 10,
    "axes.labelsize": 9.5,
    "axes.edgecolor": "#9aa1ab",
    "axes.labelcolor": MUTED,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.axisbelow": True,
    "axes.grid": True,
    "grid.color": GRID,
    "grid.linewidth": 0.8,
    "xtick.color": MUTED,
    "ytick.color": MUTED,
    "xtick.labelcolor": INK,
    "ytick.labelcolor": INK,
    "legend.frameon": False,
    "figure.facecolor": "white",
    "savefig.facecolor": "white",
}

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
figure svg, figure img { display: block; width: 100%; height: auto; }
figure svg text { font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans",
  "Hiragino Sans", "Noto Sans CJK JP", sans-serif !important; }
.table-wrap { overflow-x: auto; }
table { border-collapse: collapse; width: 100%; font-size: 14px;
  font-variant-numeric: tabular-nums; margin: 8px 0 4px; }
th, td { padding: 6px 10px; border-bottom: 1px solid var(--line); text-align: left;
  vertical-align: top; }
th { color: var(--muted); font-weight: 600; font-size: 12.5px; white-space: nowrap; }
td.num, th.num { text-align: right; white-space: nowrap; }
tbody tr:hover { background: #f8f9fb; }
td code, .variant td { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas,
  "Noto Sans Mono", monospace; font-size: 13px; overflow-wrap: anywhere; }
.variant td:first-child { color: var(--muted); white-space: nowrap; width: 40%; }
.variant tr.group th { text-align: left; color: var(--ink); font-size: 13px; padding-top: 14px;
  text-transform: uppercase; letter-spacing: 0.05em; border-bottom: 1px solid #cfd4da; }
footer { color: var(--muted); font-size: 13px; text-align: center; margin-top: 28px; }
@media print {
  body { background: #fff; }
  section { break-inside: avoid; border: none; padding: 0; }
}
"""


# -- public entry point -------------------------------------------------------


def write_html(report: Report, folder: Path) -> None:
    """Write `folder/report.html`; `Report.save` calls this."""
    page = render_html(report)
    (Path(folder) / REPORT_HTML).write_text(page, encoding="utf-8")


def render_html(report: Report) -> str:
    """The page as a string: a pure function of the report and its counted per-game values."""
    charts = render_charts(report)
    value_events = _value_events(report)
    name = report.variant.get("name", report.game)
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        # The page must never reach the network: the browser refuses any fetch.
        '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; '
        "style-src 'unsafe-inline'; img-src data:\">",
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        '<meta name="generator" content="balancer">',
        f"<title>{_e(name)} — balancer report</title>",
        f"<style>{CSS}</style>",
        "</head>",
        "<body>",
        "<main>",
        _header(report),
        _wins_section(report, charts),
    ]
    if report.bots is not None:
        parts.append(_bots_section(report, report.bots, charts))
    parts += [
        _scores_section(report, charts),
        _length_section(report, charts),
        _events_section(report, charts, value_events),
        _variant_section(report),
        "<footer>",
        f"balancer {_e(report.balancer_version)} · {_e(report.game)} rules "
        f"version {_e(report.rules_version)} · seed {_e(report.seed)}",
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


def _better(report: Report) -> str:
    return "higher" if report.higher_is_better else "lower"


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
    markup = f'<markup class="{cls}">' if cls else "<markup>"
    out = [f'<div class="markup-wrap">{markup}']
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
    out.append("</tbody></markup></div>")
    return "".join(out)


def _figure(charts: dict[str, str], name: str, alt: str) -> str:
    return f'<figure data-chart="{name}" role="img" aria-label="{_e(alt)}">{charts[name]}</figure>'


def _interval(ci: Interval) -> str:
    return f"{_pct(ci.low)} – {_pct(ci.high)}"


def _mean_range(ci: Interval | None) -> str:
    return "—" if ci is None else f"{_num(ci.low)} – {_num(ci.high)}"


def _mean_ci(ci: Interval | None, decimals: int | None = None) -> str:
    """ ", 95% interval a – b" for a mean, or nothing for a report that lacks it."""
    if ci is None:
        return ""
    show = _num if decimals is None else (lambda x: f"{x:.{decimals}f}")
    return f" (95% interval {show(ci.low)} – {show(ci.high)})"


# -- page sections ------------------------------------------------------------


def _header(report: Report) -> str:
    name = report.variant.get("name", report.game)
    players = report.players
    length = present(report.length, "length")
    facts = [
        ("game", report.game),
        ("players", players),
        ("games played", f"{report.n_games:,}"),
        ("score", f"{_better(report)} is better"),
        ("mean length", f"{_num(length.mean)} {present(report.length_unit, 'length_unit')}"),
    ]
    items = "".join(f"<div><dt>{_e(k)}</dt><dd>{_e(v)}</dd></div>" for k, v in facts)
    noun = "player" if players == 1 else "players"
    return (
        "<header>"
        f"<h1>{_e(name)}</h1>"
        f'<p class="sub">{_e(report.game)} · {players} {noun} · '
        f"{report.n_games:,} simulated games · seed {_e(report.seed)} · "
        f"{_better(report)} score is better</p>"
        f'<dl class="facts">{items}</dl>'
        "</header>"
    )


def _wins_section(report: Report, charts: dict[str, str]) -> str:
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
        ("seat", True),
        ("bot", False),
        ("win share", True),
        ("95% interval", True),
        ("score mean", True),
        ("mean's 95% interval", True),
        ("sd", True),
        ("min", True),
        ("q1", True),
        ("median", True),
        ("q3", True),
        ("max", True),
    ]
    if players < 2:
        verdict = '<p class="note">One seat: there is no seat advantage to test.</p>'
        adv_table = ""
    else:
        adv = present(report.seat_advantage, "seat_advantage")
        verdict, adv_table = _seat_advantage_html(adv)
    rotation = report.variant.get("seat_rotation")
    rotating = (
        " Bots rotate through the seats, so a seat's share is the seat's, not a bot's."
        if rotation and report.bots is not None
        else ""
    )
    return (
        '<section id="wins"><h2>Win share by seat</h2>'
        f'<p class="note">Share of games won from each seat (a tie splits the win), with its '
        f"95% interval (from the per-game shares, so split ties count as the fractions they are); "
        f"the dashed line is an equal share, 1/{players} = "
        f"{_pct(1 / players)}.{rotating}</p>"
        + verdict
        + _figure(charts, "win-by-seat", "win share by seat with 95% intervals")
        + f"<h3>Headline (score: {_better(report)} is better)</h3>"
        + _table(head, rows)
        + adv_table
        + "</section>"
    )


def _seat_advantage_html(adv: SeatAdvantage) -> tuple[str, str]:
    """The seat-advantage verdict and its table; no claim at all when there is no p-value."""
    if adv.p_value is None:
        note = adv.note or "no seat-advantage test"
        return f'<p class="verdict">No seat-advantage test: {_e(note)}.</p>', ""
    flagged = adv.p_value < 0.05
    shown = _p_value(adv.p_value)
    p_text = _e(f"p {shown}" if shown.startswith("<") else f"p = {shown}")
    verdict = (
        f'<p class="verdict {"flag" if flagged else "ok"}">'
        + (
            f"Seat advantage: the seats' win shares differ more than chance explains ({p_text})."
            if flagged
            else f"No clear seat advantage: the differences are within chance ({p_text})."
        )
        + "</p>"
    )
    statistic = "–" if adv.statistic is None else f"{adv.statistic:.2f}"
    df = "–" if not adv.df else ", ".join(str(d) for d in adv.df)
    table = "<h3>Seat advantage</h3>" + _table(
        [("test", False), ("statistic", True), ("degrees of freedom", True), ("p-value", True)],
        [[_e(adv.test or "–"), statistic, df, _e(_p_value(adv.p_value))]],
    )
    if adv.note:
        table += f'<p class="note">{_e(adv.note)}</p>'
    return verdict, table


def _bots_section(report: Report, bots: Mapping[str, BotFigures], charts: dict[str, str]) -> str:
    rows = [
        [_e(label), _pct(b.win_share), _interval(b.win_ci95), f"{b.seat_games:,}"]
        for label, b in bots.items()
    ]
    return (
        '<section id="bots"><h2>Win share by bot</h2>'
        '<p class="note">Mean win share over the seat-games each bot played, with its 95% '
        "interval. A strong bot far above the dashed equal share means skill pays; a "
        "random bot winning as often as careful play means the game is a lottery.</p>"
        + _figure(charts, "win-by-bot", "win share by bot with 95% intervals")
        + _table(
            [("bot", False), ("win share", True), ("95% interval", True), ("seat-games", True)],
            rows,
        )
        + _head_to_head(report)
        + "</section>"
    )


def _head_to_head(report: Report) -> str:
    pairs = report.head_to_head
    if not pairs:
        return ""
    rows = [
        [_e(a), _e(b), _pct(h.ahead_share), _interval(h.ci95), f"{h.pairs:,}"]
        for a, row in pairs.items()
        for b, h in row.items()
    ]
    return (
        "<h3>Head to head</h3>"
        "<p class=\"note\">How often the first bot's seat finished ahead of the second's in "
        "games that seated both (a tie counts half).</p>"
        + _table(
            [
                ("bot", False),
                ("against", False),
                ("ahead", True),
                ("95% interval", True),
                ("seat pairs", True),
            ],
            rows,
        )
    )


def _scores_section(report: Report, charts: dict[str, str]) -> str:
    margin = present(report.margin, "margin")
    if report.players > 1:
        margin_text = (
            f"<p>Winning margin (the winner's lead over the runner-up): mean "
            f"{_num(margin.mean)}{_mean_ci(margin.ci95)}, median {_num(margin.median)}, quartiles "
            f"{_num(margin.q1)} – {_num(margin.q3)}, largest {_num(margin.max)}.</p>"
        )
    else:
        margin_text = ""
    return (
        '<section id="scores"><h2>Final scores</h2>'
        f'<p class="note">How often each final score occurred, per seat; the vertical line is '
        f"the seat's mean. A {_better(report)} score is better.</p>"
        + margin_text
        + _figure(charts, "scores", "histogram of final scores per seat")
        + "</section>"
    )


def _length_section(report: Report, charts: dict[str, str]) -> str:
    length = present(report.length, "length")
    unit_name = present(report.length_unit, "length_unit")
    unit = _e(unit_name)
    if length.min == length.max:
        summary = f"Every game lasted {_num(length.min)} {unit}."
    else:
        summary = (
            f"Mean {_num(length.mean)} {unit}{_mean_ci(length.ci95)} (sd {_num(length.sd)}), from "
            f"{_num(length.min)} to {_num(length.max)}."
        )
    return (
        f'<section id="length"><h2>Game length</h2><p class="note">{summary}</p>'
        + _figure(charts, "length", f"histogram of game length in {unit_name}")
        + "</section>"
    )


def _events_section(report: Report, charts: dict[str, str], value_events: set[str]) -> str:
    counts = value_counts(report)  # counted, never read from per-game rows
    rows = []
    for name, e in report.events.items():
        if name in value_events:
            spread = ""
            values = counts.event_counts(name) if name in counts.event_values else None
            if values is not None and values.n:
                spread = (
                    f" (a value, not a count: median {_num(values.quantile(0.5))}, "
                    f"max {_num(float(values.values[-1]))})"
                )
            else:
                spread = " (a value, not a count)"
            per_game = f"{_num(e.per_game)}{_mean_ci(e.per_game_ci95)}"
            rows.append([f"<code>{_e(name)}</code>{_e(spread)}", per_game, "—"])
        else:
            share = _pct(e.share_of_games)
            if e.share_of_games_ci95 is not None:
                share += f" ({_interval(e.share_of_games_ci95)})"
            per_game = f"{e.per_game:.3f}{_mean_ci(e.per_game_ci95, 3)}"
            rows.append([f"<code>{_e(name)}</code>", per_game, share])
    values_note = ""
    if value_events & set(report.events):
        values_note = (
            " Events that are a value per game rather than a count are listed in the table "
            "with their mean, and left out of the chart."
        )
    return (
        '<section id="events"><h2>How often each rule fires</h2>'
        '<p class="note">Left: mean number of times per game. Right: share of games in which '
        f"it fired at least once. Rare-but-repeated and common-but-single look alike in one "
        f"number, not in both.{values_note}</p>"
        + _figure(charts, "events", "event rates: per game and share of games")
        + _table([("event", False), ("per game", True), ("share of games", True)], rows)
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


def _variant_section(report: Report) -> str:
    """Every knob, grouped the way the YAML is: the run, the seats, then each rules section."""
    variant = report.variant
    groups: dict[str, list[tuple[str, str]]] = {"run": []}
    for key, value in variant.items():
        if key == "seats" and isinstance(value, list):
            groups["seats"] = [(f"seat {i}", _seat_knobs(seat)) for i, seat in enumerate(value)]
        elif isinstance(value, dict):
            groups[key] = [(k, _leaf(v)) for k, v in _flatten(value)]
        else:
            groups["run"].append((key, _leaf(value)))
    body = []
    for group, rows in groups.items():
        if not rows:
            continue
        body.append(f'<tr class="group"><th colspan="2">{_e(group)}</th></tr>')
        body += [f"<tr><td>{_e(k)}</td><td>{_e(v)}</td></tr>" for k, v in rows]
    return (
        '<section id="variant"><h2>Resolved variant</h2>'
        '<p class="note">Every knob as this run used it, defaults filled in.</p>'
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
# Margins are set in inches from the label lengths instead of by matplotlib's
# constrained layout: that layout pass was over a third of the page's time,
# and fixed arithmetic also keeps every figure's geometry reproducible.


def render_charts(report: Report) -> dict[str, str]:
    """Every chart as inline markup (<svg>, or <img> for an oversized one), by name."""
    import matplotlib

    value_events = _value_events(report)
    out: dict[str, str] = {}
    # rcdefaults inside the context: the page looks the same whatever the
    # user's matplotlibrc says, and the caller's settings come back on exit.
    with matplotlib.rc_context(), warnings.catch_warnings():
        matplotlib.rcdefaults()
        matplotlib.rcParams.update(_RC)  # type: ignore[arg-type]  # keys typed as Literals
        # DejaVu lacks CJK glyphs; the browser draws that text, so the warning is noise.
        warnings.filterwarnings("ignore", message=r"Glyph \d+ .*missing from", category=Warning)
        out["win-by-seat"] = _embed(_win_by_seat(report))
        if report.bots is not None:
            out["win-by-bot"] = _embed(_win_by_bot(report, report.bots))
        out["scores"] = _embed(_scores(report))
        out["length"] = _embed(_length(report))
        out["events"] = _embed(_events(report, value_events))
    return out


_SVG_START = re.compile(r"^.*?(?=<svg)", re.S)
# Inline SVG in HTML needs no namespace declarations (the parser supplies
# them), and matplotlib's RDF metadata names a dozen URLs: both go, so the
# page holds no http(s) address at all.
_SVG_NOISE = re.compile(r'\s*<metadata>.*?</metadata>|\s+xmlns(?::xlink)?="[^"]*"', re.S)


def _embed(fig: Figure) -> str:
    buffer = io.StringIO()
    fig.savefig(buffer, format="svg", metadata={"Date": None})
    svg = _SVG_NOISE.sub("", _SVG_START.sub("", buffer.getvalue(), count=1)).strip()
    if len(svg) <= SVG_LIMIT:
        return svg
    png = io.BytesIO()
    fig.savefig(png, format="png", dpi=150, metadata={"Software": None})
    data = base64.b64encode(png.getvalue()).decode("ascii")
    return f'<img alt="" src="data:image/png;base64,{data}">'


def _figure_in(
    height: float, *, left: float, right: float, top: float, bottom: float, **subplots: Any
) -> tuple[Figure, Any]:
    """A figure WIDTH × height inches whose axes sit the given margins (inches) from its edges."""
    from matplotlib.figure import Figure

    fig = Figure(figsize=(WIDTH, height))
    fig.subplots_adjust(
        left=left / WIDTH,
        right=1 - right / WIDTH,
        bottom=bottom / height,
        top=1 - top / height,
        **{k: v for k, v in subplots.items() if k in ("hspace", "wspace")},
    )
    kwargs = {k: v for k, v in subplots.items() if k not in ("hspace", "wspace")}
    return fig, fig.subplots(**kwargs)


def _text_width(text: str, size: float) -> float:
    """Roughly how wide `text` is in inches at `size` points (widest line)."""
    widest = 0.0
    for line in text.split("\n"):
        ems = sum(1.0 if unicodedata.east_asian_width(c) in "WF" else 0.6 for c in line)
        widest = max(widest, ems)
    return widest * size / 72


def _label(text: str, width: int = 28) -> str:
    """A name for a chart: long plugin names are shortened to keep the axis readable."""
    text = str(text)
    return text if len(text) <= width else text[: width - 1] + "…"


def _tick_label(text: str) -> str:
    """A bar's label under a narrow bar: wrapped onto at most two short lines."""
    lines = textwrap.wrap(str(text), 16, break_on_hyphens=False) or [""]
    if len(lines) > 2:
        lines = [lines[0], _label(lines[1], 15)]
    return "\n".join(lines)


def _share_bars(
    report: Report,
    labels: list[str],
    shares: list[float],
    cis: list[Interval],
    colours: list[str],
    height: float,
) -> Figure:
    """Win shares as bars with 95% interval whiskers and a dashed equal-share line."""
    lines = max(label.count("\n") + 1 for label in labels)
    fig, ax = _figure_in(
        height + 0.16 * (lines - 1), left=0.7, right=0.85, top=0.12, bottom=0.22 + 0.16 * lines
    )
    fair = 1 / report.players
    x = np.arange(len(labels))
    share = np.asarray(shares, dtype=float)
    low = np.asarray([c.low for c in cis], dtype=float)
    high = np.asarray([c.high for c in cis], dtype=float)
    whiskers = np.vstack([np.clip(share - low, 0, None), np.clip(high - share, 0, None)])
    ax.bar(x, share, width=0.6, color=colours, zorder=2)
    ax.errorbar(x, share, yerr=whiskers, fmt="none", ecolor=INK, elinewidth=1.2, capsize=6)
    ax.axhline(fair, color=INK, linestyle=(0, (5, 4)), linewidth=1.1, zorder=4)
    top = 1.08 if fair >= 1 else min(1.08, max(float(high.max()), fair) * 1.15)
    ax.set_ylim(0, top)
    digits = 0 if (100 * fair).is_integer() else 1
    ax.text(1.0, fair, f" equal\n {_pct(fair, digits)}", transform=ax.get_yaxis_transform(),
            va="center", ha="left", color=INK, fontsize=8.5, linespacing=1.1)  # fmt: skip
    for xi, value, hi in zip(x, share, high, strict=True):
        # Inside the bar's foot where there is room, so the label never
        # collides with the whisker or the dashed line.
        inside = value > 0.14 * top
        ax.text(
            xi,
            0.012 * top if inside else hi + 0.03 * top,
            _pct(float(value)),
            ha="center",
            va="bottom",
            fontsize=9,
            fontweight="bold",
            color="white" if inside else INK,
            zorder=5,
        )
    ax.set_xticks(x, labels)
    ax.tick_params(axis="x", length=0)
    # A lone bar or two would otherwise stretch across the whole chart.
    half = max(len(labels) / 2 + 0.1, 1.4)
    ax.set_xlim((len(labels) - 1) / 2 - half, (len(labels) - 1) / 2 + half)
    ax.yaxis.set_major_locator(_max_n_locator(6))
    ax.yaxis.set_major_formatter(_percent_formatter())
    ax.set_ylabel("win share")
    ax.grid(axis="x", visible=False)
    return fig


def _percent_formatter() -> Any:
    from matplotlib.ticker import PercentFormatter

    return PercentFormatter(1.0, decimals=0)


def _max_n_locator(n: int, integer: bool = False) -> Any:
    from matplotlib.ticker import MaxNLocator

    # Steps of 1, 2, 2.5 and 5 only: 25% and 10 read at a glance, 30% and 8 don't.
    return MaxNLocator(nbins=n, steps=[1, 2, 2.5, 5, 10], min_n_ticks=1, integer=integer)


def _seat_name(seat: SeatFigures) -> str:
    bot = seat.bot
    return f"seat {seat.seat}" + ("" if bot == "rotating" else f"\n{_tick_label(bot)}")


def _win_by_seat(report: Report) -> Figure:
    seats = report.seats
    return _share_bars(
        report,
        [_seat_name(s) for s in seats],
        [s.win_share for s in seats],
        [s.win_ci95 for s in seats],
        [ACCENT] * len(seats),
        height=2.9,
    )


def _win_by_bot(report: Report, bots: Mapping[str, BotFigures]) -> Figure:
    names = list(bots)
    return _share_bars(
        report,
        [_tick_label(n) for n in names],
        [bots[n].win_share for n in names],
        [bots[n].win_ci95 for n in names],
        [BOT_COLOURS[i % len(BOT_COLOURS)] for i in range(len(names))],
        height=2.5,
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


def _scores(report: Report) -> Figure:
    players = report.players
    counts = value_counts(report)
    columns = [counts.score_counts(s) for s in range(players)]
    edges = _bins(np.concatenate([c.values for c in columns]))
    names = [_seat_name(s) for s in report.seats]
    left = max(_text_width(n, 9.5) for n in names) + 0.65
    row, gap = 0.72, 0.14
    height = 0.62 + players * row + (players - 1) * gap
    fig, axes = _figure_in(
        height,
        left=left,
        right=0.2,
        top=0.12,
        bottom=0.5,
        nrows=players,
        sharex=True,
        sharey=True,
        squeeze=False,
        hspace=gap / row,
    )
    axes = axes[:, 0]
    games = max(1, counts.games)
    widths = np.diff(edges) * 0.88
    peak = 0.0
    for seat, (ax, seen) in enumerate(zip(axes, columns, strict=True)):
        games_in, _ = np.histogram(seen.values, bins=edges, weights=seen.counts)
        shares = games_in / games
        peak = max(peak, float(shares.max(initial=0)))
        ax.bar(edges[:-1] + 0.06 * np.diff(edges), shares, width=widths, align="edge",
               color=ACCENT_LIGHT, zorder=2)  # fmt: skip
        mean = report.seats[seat].score.mean
        ax.axvline(mean, color=ACCENT, linewidth=1.6, zorder=3)
        ax.text(mean, 0.97, f" mean {_num(mean)}", transform=ax.get_xaxis_transform(),
                va="top", ha="left", fontsize=8.5, color=ACCENT)  # fmt: skip
        ax.set_ylabel(names[seat], rotation=0, ha="right", va="center", color=INK, labelpad=8)
        ax.grid(axis="x", visible=False)
        ax.tick_params(axis="y", labelsize=8)
        ax.tick_params(axis="x", length=0 if ax is not axes[-1] else 3.5)
    axes[0].set_ylim(0, max(peak * 1.25, 0.01))
    axes[0].yaxis.set_major_locator(_max_n_locator(2))
    axes[0].yaxis.set_major_formatter(_percent_formatter())
    axes[-1].xaxis.set_major_locator(_max_n_locator(12, integer=edges.size > 2))
    axes[-1].set_xlabel(f"final score ({_better(report)} is better); bar height: share of games")
    return fig


def _length(report: Report) -> Figure:
    lengths = value_counts(report).length_counts()
    edges = _bins(lengths.values)
    counts, _ = np.histogram(lengths.values, bins=edges, weights=lengths.counts)
    shares = counts / max(1, lengths.n)
    length = present(report.length, "length")
    constant = length.min == length.max
    fig, ax = _figure_in(1.7 if constant else 2.3, left=0.7, right=0.2, top=0.12, bottom=0.5)
    ax.bar(edges[:-1] + 0.06 * np.diff(edges), shares, width=np.diff(edges) * 0.88,
           align="edge", color=ACCENT, zorder=2)  # fmt: skip
    if not constant:
        ax.axvline(length.mean, color=INK, linewidth=1.2, linestyle=(0, (5, 4)), zorder=3)
        ax.text(length.mean, 0.97, f" mean {_num(length.mean)}",
                transform=ax.get_xaxis_transform(), va="top", ha="left", fontsize=8.5)  # fmt: skip
    else:
        # One length only: pad the axis so a lone bar doesn't fill the chart.
        ax.set_xlim(max(-0.5, length.min - 6), length.min + 6)
    ax.xaxis.set_major_locator(_max_n_locator(14, integer=True))
    ax.set_ylim(0, max(float(shares.max(initial=0)) * 1.15, 0.01))
    ax.yaxis.set_major_locator(_max_n_locator(4))
    ax.yaxis.set_major_formatter(_percent_formatter())
    ax.set_xlabel(f"game length ({present(report.length_unit, 'length_unit')})")
    ax.set_ylabel("share of games")
    ax.grid(axis="x", visible=False)
    return fig


def _events(report: Report, value_events: set[str]) -> Figure:
    names = [n for n in report.events if n not in value_events]
    labels = [_label(n) for n in names]
    left = max((_text_width(n, 9.5) for n in labels), default=1.0) + 0.2
    height = 0.75 + 0.27 * max(1, len(names))
    fig, (per_ax, share_ax) = _figure_in(
        height,
        left=left,
        right=0.4,
        top=0.35,
        bottom=0.4,
        ncols=2,
        sharey=True,
        width_ratios=(1.2, 1),
        wspace=0.12,
    )
    if not names:
        for ax in (per_ax, share_ax):
            ax.set_axis_off()
        per_ax.text(0.5, 0.5, "no events counted", ha="center", va="center", color=MUTED)
        return fig
    y = np.arange(len(names))
    per_game = np.asarray([report.events[n].per_game for n in names], dtype=float)
    share = np.asarray([report.events[n].share_of_games for n in names], dtype=float)
    per_ax.barh(y, per_game, height=0.64, color=ACCENT, zorder=2)
    share_ax.barh(y, share, height=0.64, color=ACCENT_LIGHT, zorder=2)
    per_ax.set_xlim(0, (float(per_game.max()) or 1.0) * 1.2)
    share_ax.set_xlim(0, 1.0)
    for yi, value, fraction in zip(y, per_game, share, strict=True):
        per_ax.text(value, yi, f"  {_num(float(value))}", va="center", fontsize=8.5)
        share_ax.text(fraction, yi, f"  {_pct(float(fraction), 0)}", va="center", fontsize=8.5,
                      clip_on=False)  # fmt: skip
    per_ax.set_yticks(y, labels)
    per_ax.set_ylim(len(names) - 0.45, -0.55)
    per_ax.set_title("mean per game", loc="left", color=INK, fontsize=9.5)
    share_ax.set_title("share of games where it fired", loc="left", color=INK, fontsize=9.5)
    per_ax.xaxis.set_major_locator(_max_n_locator(5))
    share_ax.set_xticks([0, 0.25, 0.5, 0.75, 1.0])
    share_ax.xaxis.set_major_formatter(_percent_formatter())
    for ax in (per_ax, share_ax):
        ax.grid(axis="y", visible=False)
        ax.grid(axis="x", visible=True)
        ax.tick_params(axis="y", length=0)
    return fig
