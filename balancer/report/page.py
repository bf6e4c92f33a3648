"""The frame every analysis page shares with report.html: its stylesheet, header, sections, footer.

One self-contained file: the CSS inline (report.html's, plus what a page
adds), a Content-Security-Policy that forbids every fetch, `lang` on <html>
so a Japanese page gets the stylesheet's CJK fonts. Callers pass markup that
is already escaped: `heading` and `footer` are plain text and escaped here.
"""

from __future__ import annotations

import html
from collections.abc import Sequence

from balancer import i18n


def section(title: str, body: str) -> str:
    """A white card with its heading (`title` plain text, `body` markup)."""
    return f"<section><h2>{html.escape(title, quote=False)}</h2>{body}</section>"


def table_wrap(head: Sequence[str], rows: Sequence[Sequence[str]], cls: str = "") -> str:
    """A table that scrolls sideways on a narrow screen; cells are markup, a cell that
    starts with `<td` or `<th` is taken whole, any other is wrapped in <td>."""
    head_html = "".join(h if h.startswith("<th") else f"<th>{h}</th>" for h in head)
    body = "".join(
        "<tr>"
        + "".join(c if c.startswith(("<td", "<th")) else f"<td>{c}</td>" for c in row)
        + "</tr>"
        for row in rows
    )
    attr = f' class="{cls}"' if cls else ""
    return (
        f'<div class="table-wrap"><table{attr}><thead><tr>{head_html}</tr></thead>'
        f"<tbody>{body}</tbody></table></div>"
    )


def render_page(
    *,
    lang: str | None,
    title: str,
    heading: str,
    sub: str,
    sections: Sequence[str],
    generator: str,
    footer: str,
    extra_css: str = "",
) -> str:
    """The page: `sub` (markup) under the heading, then `sections` (markup) in order."""
    from balancer.report.html import CSS

    e = html.escape
    return "\n".join(
        [
            "<!DOCTYPE html>",
            f'<html lang="{e(lang or i18n.DEFAULT_LANG)}">',
            "<head>",
            '<meta charset="utf-8">',
            # The page must never reach the network: the browser refuses any fetch.
            '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; '
            "style-src 'unsafe-inline'\">",
            '<meta name="viewport" content="width=device-width, initial-scale=1">',
            f'<meta name="generator" content="{e(generator)}">',
            f"<title>{e(title)}</title>",
            f"<style>{CSS}{extra_css}</style>",
            "</head>",
            "<body>",
            "<main>",
            "<header>",
            f"<h1>{e(heading)}</h1>",
            f'<p class="sub">{sub}</p>',
            "</header>",
            *sections,
            f"<footer>{e(footer)}</footer>",
            "</main>",
            "</body>",
            "</html>",
            "",
        ]
    )
