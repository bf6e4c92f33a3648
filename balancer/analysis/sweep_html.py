"""index.html of a sweep: the chart, and a row per point linking its report beside its figure.

One self-contained page like report.html (inline CSS and SVG, a
Content-Security-Policy that forbids any fetch); its only links are the
relative ones to each point's own report.html in the sweep folder, so the
folder can be moved or zipped whole. Every name and value is HTML-escaped.
"""

from __future__ import annotations

import html
from pathlib import Path
from typing import Any
from urllib.parse import quote

import polars as pl

from balancer.analysis.sweep_table import cell, column_places, shown_figures
from balancer.stats.play_names import ALL

INDEX_HTML = "index.html"

# The points' table is the page's purpose: the page is wider than a report's, and a
# figure's name may wrap at its dots, so knobs, four figures and the link fit a 1280 px
# window. The link to a point's report comes first, so it is in the card even when many
# knobs make the table scroll (tests/cli/test_sweep_page.py measures both in Chromium).
_CSS = """
main { max-width: 1240px; }
.points td.figure { font-weight: 600; }
.points td a { white-space: nowrap; }
.points th { white-space: normal; }
"""


def _e(value: Any) -> str:
    return html.escape(str(value), quote=True)


def _breakable(name: str) -> str:
    """A column's name, escaped, that may wrap after each dot (`events.<wbr>x.<wbr>per_game`)."""
    return "<wbr>".join(_e(part) for part in name.replace(".", ".\0").split("\0"))


def _inline_svg(svg_text: str) -> str:
    """sweep.svg's drawing as markup inside the page (without the file's XML prolog)."""
    start = svg_text.find("<svg")
    return svg_text[start:] if start >= 0 else ""


# How it plays on a sweep page: the figures a designer compares across points to see
# whether a knob makes the game closer or more open (the leader-wins curve's middle
# point stands for the curve; every figure is in sweep.csv).
PLAY_COLUMNS = (
    "how_it_plays.lead_changes.mean",
    "how_it_plays.decided_at.mean",
    "how_it_plays.comeback.share",
    "how_it_plays.drama.mean",
    "how_it_plays.leader_wins_50.share",
    "how_it_plays.decision_share.share",
)


def _play_section(table: pl.DataFrame, knob_columns: list[str], lang: str | None) -> str:
    """A table of how each point played, its knobs naming it (its link is in the table
    above), or "" when the points' reports have no how-it-plays block (older reports, or
    runs that kept no record of their steps)."""
    from balancer import i18n

    columns = [c for c in PLAY_COLUMNS if c in table.columns and table[c].null_count() == 0]
    if not columns:
        return ""
    t = i18n.text

    def title(column: str) -> str:
        key = ALL[column]
        if key.startswith("leader_wins_"):
            return t("play.leader_wins", lang, at=key.rsplit("_", 1)[1])
        return t(f"play.{key}", lang)

    places = {c: column_places(table, c) for c in columns}
    rows = []
    for row in table.iter_rows(named=True):
        cells = [f"<td><code>{_e(row[k])}</code></td>" for k in knob_columns]
        cells += [f'<td class="num">{_e(cell(row, c, places[c]))}</td>' for c in columns]
        rows.append(f"<tr>{''.join(cells)}</tr>")
    return "".join(
        [
            f'<section class="how-it-plays"><h2>{_e(t("play.title", lang))}</h2>',
            '<div class="table-wrap"><table class="points"><thead><tr>',
            "".join(f"<th>{_breakable(k)}</th>" for k in knob_columns),
            "".join(f"<th>{_e(title(c))}</th>" for c in columns),
            "</tr></thead><tbody>",
            *rows,
            "</tbody></table></div></section>",
        ]
    )


def render_index(
    name: str,
    table: pl.DataFrame,
    figure: str,
    knob_columns: list[str],
    folders: list[str],
    svg_text: str,
    lang: str | None = None,
) -> str:
    """The page: `folders[i]` is point i's report folder, relative to the sweep folder."""
    from balancer import i18n
    from balancer.report.html import CSS

    t = i18n.text
    report_word = t("sweep.report", lang)

    # As the terminal table: the charted figure, then those the knobs move beyond their
    # noise, each with its 95% interval at the interval's precision.
    shown = shown_figures(table, knob_columns, figure)[1:]
    head = [report_word, *knob_columns, figure, *shown]
    rows = []
    places = {f: column_places(table, f) for f in [figure, *shown]}
    for folder, row in zip(folders, table.iter_rows(named=True), strict=True):
        href = quote(f"{folder}/report.html", safe="/=")
        cells = [f'<td><a href="{_e(href)}" title="{_e(folder)}">{_e(report_word)}</a></td>']
        cells += [f"<td><code>{_e(row[k])}</code></td>" for k in knob_columns]
        cells.append(f'<td class="num figure">{_e(cell(row, figure, places[figure]))}</td>')
        cells += [f'<td class="num">{_e(cell(row, c, places[c]))}</td>' for c in shown]
        rows.append(f"<tr>{''.join(cells)}</tr>")
    knobs = ", ".join(knob_columns)
    sub = html.escape(t("sweep.html.sub", lang, n=len(folders), figure=figure), quote=False)
    parts = [
        "<!DOCTYPE html>",
        f'<html lang="{lang or i18n.DEFAULT_LANG}">',
        "<head>",
        '<meta charset="utf-8">',
        '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; '
        "style-src 'unsafe-inline'; img-src data:\">",
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        '<meta name="generator" content="balancer sweep">',
        f"<title>{_e(t('sweep.html.title', lang, name=name))}</title>",
        f"<style>{CSS}{_CSS}</style>",
        "</head>",
        "<body>",
        "<main>",
        "<header>",
        f"<h1>{_e(t('sweep.html.h1', lang, name=name, knobs=knobs))}</h1>",
        # quote=False: the apostrophe of "the knobs'" stays one, as it always was.
        f'<p class="sub">{sub}</p>',
        "</header>",
        f'<section><h2>{_e(figure)}</h2><figure data-chart="sweep">{_inline_svg(svg_text)}'
        "</figure></section>",
        f"<section><h2>{_e(t('sweep.html.points', lang))}</h2>"
        '<div class="table-wrap"><table class="points"><thead><tr>',
        "".join(f"<th>{_breakable(h)}</th>" for h in head),
        "</tr></thead><tbody>",
        *rows,
        "</tbody></table></div></section>",
        _play_section(table, knob_columns, lang),
        "</main>",
        "<footer>balancer sweep</footer>",
        "</body>",
        "</html>",
        "",
    ]
    return "\n".join(parts)


def write_index(
    folder: Path,
    name: str,
    table: pl.DataFrame,
    figure: str,
    knob_columns: list[str],
    points: list[str],
    lang: str | None = None,
) -> Path:
    """Write folder/index.html beside folder/sweep.svg (which it inlines)."""
    svg = (folder / "sweep.svg").read_text(encoding="utf-8")
    target = folder / INDEX_HTML
    page = render_index(name, table, figure, knob_columns, points, svg, lang)
    target.write_text(page, encoding="utf-8")
    return target
