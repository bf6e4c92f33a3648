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
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from balancer.sim import table

Z95 = 1.959963984540054  # two-sided 95% normal quantile

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


@dataclass(frozen=True)
class CardImpact:
    card: str  # the kind's name ("red fish 3")
    held_seats: int  # (game, seat) pairs that held it
    held_win_share: float
    other_seats: int
    other_win_share: float
    difference: float  # held_win_share - other_win_share
    low: float  # 95% interval for the difference, clustered by game
    high: float


BLOCK = 65_536  # games per block: [BLOCK, kinds] float arrays stay a few MB


def _bits(words: list[np.ndarray], lo: int, hi: int, n_kinds: int) -> np.ndarray:
    """float64 [hi - lo, n_kinds]: bit k of each game's held words (little-endian bits)."""
    stacked = np.stack([w[lo:hi] for w in words], axis=1).astype("<u8")  # [B, words]
    bits = np.unpackbits(stacked.view(np.uint8), axis=1, bitorder="little")
    return bits[:, :n_kinds].astype(np.float64)


def has_cards(games: pl.DataFrame) -> bool:
    """Whether the games table records the card kinds each seat held."""
    return table.held(0, 0) in games.columns


def card_impact(games: pl.DataFrame, players: int, kinds: Sequence[str]) -> list[CardImpact]:
    """Every kind's impact (module docstring), sorted by difference, largest first.

    A kind every seat held, or none did, has nothing to compare: its share for
    the empty side is 0 and its difference and interval are 0 (a neutral row,
    kept so every kind is listed).
    """
    n_kinds = len(kinds)
    n_words = table.held_words(n_kinds)
    words = [
        [games[table.held(s, w)].to_numpy().astype(np.uint64) for w in range(n_words)]
        for s in range(players)
    ]
    wins = np.stack([games[table.win(s)].to_numpy() for s in range(players)], axis=1)  # [G, P]
    n_games = wins.shape[0]

    def blocks() -> Iterator[tuple[np.ndarray, np.ndarray, np.ndarray]]:
        """Per block of games: (a, n, W), a and n [B, K], W [B] (module docstring)."""
        for lo in range(0, n_games, BLOCK):
            hi = min(lo + BLOCK, n_games)
            a = np.zeros((hi - lo, n_kinds))
            n = np.zeros((hi - lo, n_kinds))
            for s in range(players):
                held = _bits(words[s], lo, hi, n_kinds)  # [B, K] 0/1
                a += wins[lo:hi, s, None] * held
                n += held
            yield a, n, wins[lo:hi].sum(axis=1)

    # Two passes, the shares first, then the spread around them: no cancellation.
    sums = np.zeros((3, n_kinds))  # a, n, W - a
    for a, n, w in blocks():
        sums += [a.sum(axis=0), n.sum(axis=0), (w[:, None] - a).sum(axis=0)]
    n1 = sums[1]
    n0 = players * n_games - n1
    p1 = np.divide(sums[0], n1, out=np.zeros(n_kinds), where=n1 > 0)
    p0 = np.divide(sums[2], n0, out=np.zeros(n_kinds), where=n0 > 0)
    comparable = (n1 > 0) & (n0 > 0) & (n_games > 1)
    safe1, safe0 = np.where(n1 > 0, n1, 1), np.where(n0 > 0, n0, 1)
    squares = np.zeros(n_kinds)
    for a, n, w in blocks():
        z = (a - p1 * n) / safe1 - ((w[:, None] - a) - p0 * (players - n)) / safe0
        squares += np.square(z).sum(axis=0)
    se = np.sqrt(squares * n_games / max(n_games - 1, 1))
    rows = []
    for k, name in enumerate(kinds):
        diff, half = (float(p1[k] - p0[k]), Z95 * float(se[k])) if comparable[k] else (0.0, 0.0)
        rows.append(
            CardImpact(
                name, int(n1[k]), float(p1[k]), int(n0[k]), float(p0[k]), diff, diff - half,
                diff + half,
            )
        )  # fmt: skip
    rows.sort(key=lambda r: -r.difference)
    return rows


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


def html_section(rows: Sequence[CardImpact], top: int = 20) -> str:
    """report.html's card-impact section: a heading, a line of reading, the chart."""
    return (
        '<section id="cards"><h2>Card impact</h2>'
        "<p>Win share of seats that held each card kind against seats that did not "
        "(95% interval, clustered by game); the largest effects either way. "
        "Every kind is in cards.csv. With many kinds, a few intervals miss 0 by chance.</p>"
        f"{chart_svg(rows, top)}</section>"
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
    """An SVG bar chart of the `top` largest effects either way, with their intervals,
    for report/html.py to place (matplotlib, drawn from the summary rows only)."""
    import io

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    shown = sorted(rows, key=lambda r: -abs(r.difference))[:top]
    shown.sort(key=lambda r: r.difference)
    fig, ax = plt.subplots(figsize=(6, 0.25 * len(shown) + 1))
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
    out = io.StringIO()
    fig.savefig(out, format="svg")
    plt.close(fig)
    return out.getvalue()
