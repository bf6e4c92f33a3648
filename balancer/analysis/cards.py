"""Card impact: for every card kind, how seats that held it fared against seats that did not.

From the games table's held_<s>_<w> columns (sim/table.py; fdc: the opening
hand). For kind k, over every (game, seat): the win share of the seats that
held k, of those that did not, and their difference with a 95% interval.
Win shares split ties (1/k each for a k-way tie), as everywhere in stats/.

The seats of one game are not independent (one seat's win is the others'
loss, and the kinds in one hand are the kinds missing from the others), so
the interval is clustered by game: each share is a ratio of per-game sums,
and the difference's variance is the cluster-robust (sandwich) variance of
its linearisation, sum over games of z_g^2 times G / (G - 1), with

    z_g = (a_g - p1 n_g) / N1 - (b_g - p0 m_g) / N0

where a_g, n_g are game g's win shares and seat count among holders, b_g,
m_g among the others, and N1, N0 their totals. Rows come sorted by effect,
the difference from the largest down.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from balancer.sim import table
from balancer.stats.card_tally import BLOCK, CardImpact, CardTally

CSV_NAME = "cards.csv"
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


def has_cards(games: pl.DataFrame) -> bool:
    """Whether the games table records the card kinds each seat held."""
    return table.held(0, 0) in games.columns


def card_impact(games: pl.DataFrame, players: int, kinds: Sequence[str]) -> list[CardImpact]:
    """Every kind's impact from a games table (CardTally.impact)."""
    n_words = table.held_words(len(kinds))
    tally = CardTally(players, len(kinds))
    columns = [table.held(s, w) for s in range(players) for w in range(n_words)]
    for lo in range(0, games.height, BLOCK):
        block = games.slice(lo, BLOCK)
        wins = np.stack([block[table.win(s)].to_numpy() for s in range(players)], axis=1)
        held = np.stack([block[c].to_numpy().astype(np.uint64) for c in columns], axis=1)
        tally.add(wins.astype(np.float64), held)
    return tally.impact(kinds)


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
    (chart_figure, embedded by report/html.py)."""
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


def chart_figure(rows: Sequence[CardImpact], top: int = 20) -> Any:
    """A matplotlib Figure: the `top` largest effects either way, with their intervals,
    drawn from the summary rows only (report/html.py embeds it like its other charts)."""
    from matplotlib.figure import Figure

    shown = sorted(rows, key=lambda r: -abs(r.difference))[:top]
    shown.sort(key=lambda r: r.difference)
    fig = Figure(figsize=(6, 0.25 * len(shown) + 1))
    ax = fig.subplots()
    y = np.arange(len(shown))
    ax.barh(y, [r.difference for r in shown], color="#4c72b0")
    ax.errorbar(
        [r.difference for r in shown],
        y,
        xerr=[[r.difference - r.low for r in shown], [r.high - r.difference for r in shown]],
        fmt="none",
        ecolor="black",
        linewidth=0.8,
    )
    ax.set_yticks(y, [r.card for r in shown])
    ax.axvline(0, color="grey", linewidth=0.8)
    ax.set_xlabel("win share held minus not held (95% interval)")
    fig.tight_layout()
    return fig
