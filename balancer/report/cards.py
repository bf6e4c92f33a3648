"""Card impact as a report shows it: cards.csv, report.html's chart, `balancer cards`' table.

The figures themselves (win shares held and not held, the difference's 95%
interval clustered by game) are stats/card_tally.py's.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from balancer.stats.card_tally import CardImpact, card_impact, has_cards

CSV_NAME = "cards.csv"
BAR = "#2f6fb0"  # report.html's accent
X_TITLE = "win share held minus not held (95% interval)"
CSV_HEADER = (
    "card",
    "held_seats",
    "held_win_share",
    "other_seats",
    "other_win_share",
    "difference",
    "low",
    "high",
)


def of_report(report: Any) -> list[CardImpact] | None:
    """Card impact of a report.model.Report, or None when its game or games table
    records no cards held: what report/build.py and report/html.py call to add
    cards.csv (`write_csv`) and the chart (`html_section`)."""
    from balancer.config import variant as variants

    if not has_cards(report.games):
        return None
    # As report.json holds it: a report built in memory may still hold tuples.
    as_stored = json.loads(json.dumps(report.variant))
    loaded = variants.from_resolved(as_stored, "report.json", allow_plugins=True)
    kinds_of = loaded.spec.card_kinds
    if kinds_of is None:
        return None
    return card_impact(report.games, report.players, kinds_of(loaded.rules))


def html_section(chart: str) -> str:
    """report.html's card-impact section: a heading, a line of reading, the chart
    (chart_svg, embedded by report/html.py)."""
    return (
        '<section id="cards"><h2>Card impact</h2>'
        "<p>Win share of seats that held each card kind against seats that did not "
        "(95% interval, clustered by game); the largest effects either way. "
        "Every kind is in cards.csv. With many kinds, a few intervals miss 0 by chance.</p>"
        f"{chart}</section>"
    )


def write_csv(rows: Sequence[CardImpact], path: Path) -> None:
    """cards.csv: one row per kind, in the order given (by effect)."""
    with path.open("w", newline="", encoding="utf-8") as out:
        writer = csv.writer(out)
        writer.writerow(CSV_HEADER)
        for r in rows:
            writer.writerow(
                [
                    r.card,
                    r.held_seats,
                    f"{r.held_win_share:.6f}",
                    r.other_seats,
                    f"{r.other_win_share:.6f}",
                    f"{r.difference:.6f}",
                    f"{r.low:.6f}",
                    f"{r.high:.6f}",
                ]
            )


def render(rows: Sequence[CardImpact]) -> str:
    """The table as text, by effect: what `balancer cards` prints."""
    width = max([len("card"), *(len(r.card) for r in rows)])
    lines = [
        f"{'card':<{width}}  {'held':>6}  {'others':>6}  {'difference':>10}  95% interval",
    ]
    for r in rows:
        lines.append(
            f"{r.card:<{width}}  {r.held_win_share:>6.3f}  {r.other_win_share:>6.3f}  "
            f"{r.difference:>+10.3f}  [{r.low:+.3f}, {r.high:+.3f}]"
        )
    return "\n".join(lines)


def chart_svg(rows: Sequence[CardImpact], top: int = 20) -> str:
    """The `top` largest effects either way with their intervals, as inline SVG,
    drawn from the summary rows only (report/html.py embeds it like its other charts).

    The largest difference at the top; a bar per kind from zero to its
    difference, its 95% interval as a whisker, and zero as a grey line.
    """
    from balancer.report import svg

    # Ties broken by name: the same rows in any order draw the same chart.
    shown = sorted(rows, key=lambda r: (-abs(r.difference), r.card))[:top]
    shown.sort(key=lambda r: (-r.difference, r.card))
    labels = [svg.shortened(r.card) for r in shown]
    left = max((svg.text_width(label) for label in labels), default=40) + 18
    right, top_margin, row = 20.0, 10.0, 20.0
    base = top_margin + row * len(shown)
    chart = svg.Chart(base + 46)
    lo = min([0.0, *(r.low for r in shown)])
    hi = max([0.0, *(r.high for r in shown)])
    pad = 0.05 * (hi - lo) or 0.01
    xs = svg.Scale(lo - pad, hi + pad, left, svg.WIDTH - right)
    ticks = [v for v in svg.ticks(xs.lo, xs.hi, 6) if xs.lo <= v <= xs.hi]
    svg.x_grid(chart, xs, ticks, top_margin, base, svg.pct_labels(ticks, signed=True))
    for i, (r, label) in enumerate(zip(shown, labels, strict=True)):
        y = top_margin + (i + 0.5) * row
        chart.rect(xs(0), y - 0.35 * row, xs(r.difference) - xs(0), 0.7 * row, BAR, cls="bar")
        chart.whisker(y, xs(r.low), xs(r.high), 0.4 * row, vertical=False)
        chart.text(left - 8, y, label, anchor="end", middle=True, cls="label")
    chart.line(xs(0), top_margin, xs(0), base, "#8a929e", 1.2, cls="zero")
    chart.text((left + svg.WIDTH - right) / 2, base + 38, X_TITLE, anchor="middle",
               fill=svg.MUTED)  # fmt: skip
    return chart.render()
