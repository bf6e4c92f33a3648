"""The diff as one page: what differs between A and B, then each change drawn with its interval.

Like report.html the page is a single self-contained file: the charts are
inline SVG written here (no matplotlib: one small chart per row, drawn from
numbers), the CSS is inline, and a Content-Security-Policy forbids every
fetch, so it reads the same offline or attached to an e-mail. Same diff,
same bytes.

Each row's chart is the change B − A centred on zero, on one scale shared by
every row of its kind (every win share on one, every score on another, ...;
stats.compare's kinds), so a bar twice as long is a change twice as big: the
95% interval as a bar with caps, the change as a dot, the tolerance (when
the row has one) as a grey band around zero. The scale's reach is written at
the chart's right end. A row whose interval misses
zero after Holm's correction is `changed`, drawn in the accent colour; one
whose interval lies inside the band is `equivalent`, drawn in green.

Every string that came from a report (folders, variant, bot and event names,
knob values) is HTML-escaped.
"""

from __future__ import annotations

import html
import math
from pathlib import Path
from typing import Any

from balancer import i18n
from balancer.analysis.diff import DiffTable
from balancer.analysis.diff_render import (
    _SYMBOLS,
    _adjusted,
    _header,
    _main_test,
    _notes,
    _pfmt,
    _summary,
    _terminal_cells,
    section_of,
    section_title,
    verdict_word,
)
from balancer.errors import UserError
from balancer.i18n.phrases import phrase
from balancer.stats.compare import Row

ACCENT = "#2f6fb0"  # report.html's accent: a changed row
GOOD = "#2e7d4f"  # equivalent
MUTED = "#8a929e"  # can't tell yet
BAND = "#e3e6ea"  # the tolerance
GENERATOR = "balancer diff"  # names the page as balancer's own, so --html may replace it

CHART_W, CHART_H = 220, 26

EXTRA_CSS = """
main { max-width: 1120px; }
table.changes { table-layout: fixed; }
.changes th:nth-child(1) { width: 19%; }
.changes th:nth-child(2), .changes th:nth-child(3), .changes th:nth-child(4) { width: 7%; }
.changes th:nth-child(5) { width: 14%; }
.changes th:nth-child(6) { width: 236px; }
.changes th:nth-child(7) { width: 8%; }
.changes th:nth-child(8) { width: 96px; }
.changes td.figure { overflow: hidden; text-overflow: ellipsis; }
.changes td.chart { padding: 2px 6px; }
.changes td.figure { white-space: nowrap; }
.changes td.chart svg { display: block; }
.changes tr.changed td { background: #eef4fb; }
.changes tr.changed td.verdict { color: #2f6fb0; font-weight: 600; }
.changes tr.equivalent td.verdict { color: #2e7d4f; }
ul.differs { margin: 6px 0 0; padding-left: 20px; }
ul.differs code { font-size: 13px; }
.legend svg { vertical-align: middle; }
"""


def _e(value: Any) -> str:
    return html.escape(str(value), quote=True)


def _x(value: float, scale: float) -> float:
    return round(CHART_W / 2 + value / scale * (CHART_W / 2 - 10), 2)


def row_reach(row: Row) -> float:
    """How far from zero the row's chart must reach: its interval, change and tolerance."""
    low, high = row.ci95
    return max(abs(low), abs(high), abs(row.change), row.tolerance or 0.0)


def kind_reaches(rows: list[Row]) -> dict[str, float]:
    """Per kind of figure, the reach that holds every row of that kind: one scale each."""
    reaches: dict[str, float] = {}
    for row in rows:
        reach = row_reach(row)
        if math.isfinite(reach):
            reaches[row.kind] = max(reaches.get(row.kind, 0.0), reach)
    return reaches


def row_chart(row: Row, reach: float | None = None) -> str:
    """The change and its interval centred on zero, as inline SVG.

    `reach`: the scale's half-width, shared by the rows of a kind (kind_reaches);
    None: the row's own.
    """
    low, high = row.ci95
    tolerance = row.tolerance or 0.0
    if reach is None:
        reach = row_reach(row)
    if not all(math.isfinite(v) for v in (low, high, row.change, reach)):
        return ""
    scale = reach * 1.05 if reach > 0 else 1.0
    colour = {"changed": ACCENT, "equivalent": GOOD}.get(row.verdict, MUTED)
    mid = CHART_H / 2
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{CHART_W}" height="{CHART_H}" '
        f'viewBox="0 0 {CHART_W} {CHART_H}" role="img" '
        f'aria-label="{_e(row.figure)}: change {row.change:+.4g}, '
        f'95% interval {low:+.4g} to {high:+.4g}">'
    ]
    if tolerance > 0:
        left, right = _x(-tolerance, scale), _x(tolerance, scale)
        parts.append(
            f'<rect x="{left}" y="3" width="{round(right - left, 2)}" height="{CHART_H - 6}" '
            f'fill="{BAND}"/>'
        )
    centre = _x(0, scale)
    parts.append(
        f'<line x1="{centre}" y1="1" x2="{centre}" y2="{CHART_H - 1}" stroke="#5b6472" '
        'stroke-width="1" stroke-dasharray="2 2"/>'
    )
    x_low, x_high, x_change = _x(low, scale), _x(high, scale), _x(row.change, scale)
    parts.append(
        f'<line x1="{x_low}" y1="{mid}" x2="{x_high}" y2="{mid}" stroke="{colour}" '
        'stroke-width="3"/>'
    )
    for x in (x_low, x_high):
        parts.append(
            f'<line x1="{x}" y1="{mid - 6}" x2="{x}" y2="{mid + 6}" stroke="{colour}" '
            'stroke-width="2"/>'
        )
    parts.append(f'<circle cx="{x_change}" cy="{mid}" r="5" fill="{colour}"/>')
    # The scale's reach, so charts of different kinds are not read as one scale.
    parts.append(
        f'<text x="{CHART_W - 1}" y="{CHART_H - 2}" text-anchor="end" font-size="8" '
        f'fill="{MUTED}" class="reach">±{reach * 1.05 if reach > 0 else 1.0:.2g}</text>'
    )
    parts.append("</svg>")
    return "".join(parts)


def _differs(table: DiffTable, lang: str | None = None) -> str:
    """The header: A and B, the knobs and bots that differ, the mode, the warnings."""
    title = i18n.text("diff.html.differs", lang)
    out = ['<section class="differs-section">', f"<h2>{_e(title)}</h2>"]
    open_list = False
    warning = i18n.text("diff.warning", lang) + ": "
    for line in _header(table, lang):
        if line.startswith("  "):
            if not open_list:
                out.append('<ul class="differs">')
                open_list = True
            out.append(f"<li><code>{_e(line.strip())}</code></li>")
            continue
        if open_list:
            out.append("</ul>")
            open_list = False
        css = ' class="note warn"' if line.startswith(warning) else ""
        out.append(f"<p{css}>{_e(line)}</p>")
    if open_list:
        out.append("</ul>")
    out.append("</section>")
    return "\n".join(out)


def _legend(alpha: float, lang: str | None = None) -> str:
    def swatch(colour: str) -> str:
        return (
            f'<svg width="14" height="14" viewBox="0 0 14 14"><circle cx="7" cy="7" r="5" '
            f'fill="{colour}"/></svg>'
        )

    return i18n.text(
        "diff.html.legend",
        lang,
        accent=swatch(ACCENT),
        good=swatch(GOOD),
        muted=swatch(MUTED),
        alpha=f"{alpha:g}",
    )


_COLUMNS = (
    ("figure", ""),
    ("A", "num"),
    ("B", "num"),
    ("B − A", "num"),
    ("95% interval", "num"),
    ("change and interval", ""),
    ("p (Holm)", "num"),
    ("verdict", ""),
)


def _section(
    title: str, rows: list[tuple[str, Row]], reaches: dict[str, float], lang: str | None = None
) -> str:
    t = i18n.text
    head = "".join(
        f'<th class="{css}">{_e(name if name in _SYMBOLS else t("diff.column." + name, lang))}</th>'
        for name, css in _COLUMNS
    )
    body = []
    for label, row in rows:
        cells = _terminal_cells(row, label, lang)
        p = _pfmt(row.p_value) if row.in_family or row.duplicate_of else "-"
        # The test and the unadjusted p, for whoever hovers: the table says them once.
        detail = i18n.text("diff.html.detail", lang, test=phrase(row.test, lang), p=p)
        values = [
            (cells[0], "figure"),
            (cells[1], "num"),
            (cells[2], "num"),
            (cells[3], "num"),
            (cells[4], "num"),
            (None, "chart"),
            (_adjusted(row), "num"),
            (verdict_word(row.verdict, lang), "verdict"),
        ]
        tds = []
        for value, css in values:
            inner = row_chart(row, reaches.get(row.kind)) if value is None else _e(value)
            tds.append(f'<td class="{css}">{inner}</td>' if css else f"<td>{inner}</td>")
        kind = f' class="{row.verdict}"' if row.verdict else ""
        body.append(
            f'<tr{kind} data-figure="{_e(row.figure)}" title="{_e(detail)}">{"".join(tds)}</tr>'
        )
    return (
        f'<section data-section="{_e(title)}"><h2>{_e(section_title(title, lang))}</h2>'
        f'<div class="table-wrap"><table class="changes"><thead><tr>{head}</tr></thead>'
        f"<tbody>{''.join(body)}</tbody></table></div></section>"
    )


HEADLINE_NAMES = 3  # the changed figures a headline names before "..."


def headline(table: DiffTable) -> str:
    """The diff in one English line, as the overview lists it: `2 of 14 figures changed
    (seat_win_share.0, margin.mean), 3 equivalent`."""
    changed = [row.figure for row in table.rows if row.verdict == "changed"]
    same = sum(row.verdict == "equivalent" for row in table.rows)
    line = f"{len(changed)} of {len(table.rows)} figures changed"
    if changed:
        named = ", ".join(changed[:HEADLINE_NAMES])
        line += f" ({named}{', ...' if len(changed) > HEADLINE_NAMES else ''})"
    return f"{line}, {same} equivalent"


def render_html(table: DiffTable, lang: str | None = None) -> str:
    """The page as a string: a pure function of the diff."""
    from balancer.report.html import CSS

    sections: dict[str, list[tuple[str, Row]]] = {}
    for row in table.rows:
        section, label = section_of(row.figure)
        sections.setdefault(section, []).append((label, row))
    a_name = table.setup.a.name if table.setup else table.a
    b_name = table.setup.b.name if table.setup else table.b
    usual = _main_test(table)
    t = i18n.text
    parts = [
        "<!DOCTYPE html>",
        f'<html lang="{lang or i18n.DEFAULT_LANG}">',
        "<head>",
        '<meta charset="utf-8">',
        # The page must never reach the network: the browser refuses any fetch.
        '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; '
        "style-src 'unsafe-inline'; img-src data:\">",
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f'<meta name="generator" content="{GENERATOR}">',
        # Read by reports/index.html (analysis/overview.py) for the diff's row.
        f'<meta name="description" content="{_e(headline(table))}">',
        f"<title>{_e(a_name)} → {_e(b_name)} — {_e(i18n.text('diff.html.title', lang))}</title>",
        f"<style>{CSS}{EXTRA_CSS}</style>",
        "</head>",
        "<body>",
        "<main>",
        "<header>",
        f"<h1>{_e(a_name)} → {_e(b_name)}</h1>",
        f'<p class="sub">{_e(_summary(table, lang))}</p>',
        "</header>",
        _differs(table, lang),
        f"<section><h2>{_e(t('diff.html.how', lang))}</h2>{_legend(table.alpha, lang)}"
        + (
            f'<p class="note">{_e(t("diff.html.tested", lang, test=phrase(usual, lang)))}</p>'
            if usual
            else ""
        )
        + "</section>",
    ]
    reaches = kind_reaches(table.rows)
    parts += [_section(title, rows, reaches, lang) for title, rows in sections.items()]
    note_word = t("diff.note", lang)
    notes = [phrase(table.games_needed, lang), *(f"{note_word}: {n}" for n in _notes(table, lang))]
    parts.append(
        f"<section><h2>{_e(t('diff.html.notes', lang))}</h2>"
        + "".join(f'<p class="note">{_e(n)}</p>' for n in notes)
    )
    parts.append("</section>")
    parts += ["</main>", "<footer>balancer diff</footer>", "</body>", "</html>", ""]
    return "\n".join(parts)


def write_html(table: DiffTable, target: str | Path, lang: str | None = None) -> Path:
    """Write the page to `target`, whole or not at all.

    A file already there is replaced only when it is a diff page balancer
    wrote; anything else is a user's file, refused with one line.
    """
    import os

    path = check_target(target)
    page = render_html(table, lang)
    partial = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    try:
        partial.write_text(page, encoding="utf-8")
        os.replace(partial, path)
    except OSError as exc:
        raise UserError(f"can't be written: {exc.strerror or exc}", file=str(path)) from None
    finally:
        partial.unlink(missing_ok=True)
    return path


def check_target(target: str | Path) -> Path:
    """Refuse, in one line, a place the page can't or mustn't be written to (before any game)."""
    import os

    path = Path(target)
    if path.is_dir():
        raise UserError("is a folder; name the page's file, e.g. diff.html", file=str(path))
    if path.is_symlink() or (path.exists() and not is_ours(path)):
        raise UserError(
            "exists and is not a diff page balancer wrote, so it is left alone", file=str(path)
        )
    parent = path.parent if str(path.parent) else Path(".")
    if not parent.is_dir():
        raise UserError(f"can't be written: there is no folder {parent}", file=str(path))
    if not os.access(parent, os.W_OK | os.X_OK):
        raise UserError(f"can't be written: the folder {parent} is write-protected", file=str(path))
    return path


def is_ours(path: Path) -> bool:
    """Whether `path` is a diff page balancer wrote (its generator mark), so may be replaced."""
    try:
        with path.open("rb") as handle:
            head = handle.read(2000)
    except OSError:
        return False
    return f'<meta name="generator" content="{GENERATOR}">'.encode() in head
