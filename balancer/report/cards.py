"""Card impact as a report shows it: cards.csv, report.html's chart, `balancer cards`' table.

The figures themselves (win shares held and not held, the difference's 95%
interval clustered by game) are stats/card_tally.py's.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from balancer import table
from balancer.numbers import column_decimals, ends, fixed, raw
from balancer.stats.card_tally import ALPHA, CardImpact, card_impact, has_cards
from balancer.stats.role_impact import RoleImpact, role_impact

CSV_NAME = "cards.csv"
ROLES_CSV_NAME = "roles.csv"
# roles.csv: per role, the mean distinct kinds of it a seat held, the win share one
# more brings (slope) with its 95% interval clustered by game, p and p after Holm.
ROLES_CSV_HEADER = (
    "role",
    "mean_held",
    "slope",
    *ends("slope"),
    "p_value",
    "p_holm",
    "significant",
)
BAR = "#2f6fb0"  # report.html's accent: a kind that differs beyond chance
PALE = "#b8cbe0"  # a kind whose difference chance explains
# cards.csv's columns before p_value, p_holm and significant were added: a file with
# this header is still one balancer wrote (`cards -o` may replace it).
OLD_CSV_HEADER = (
    "card",
    "held_seats",
    "held_win_share",
    "other_seats",
    "other_win_share",
    "difference",
    "low",
    "high",
)
# p_holm: p after Holm's correction over the kinds compared; significant: p_holm <= 0.05.
# Before interval ends had one spelling in every file (`difference.ci95_low`), they were
# `low` and `high`: a file with that header is balancer's too.
LOW_HIGH_CSV_HEADER = (*OLD_CSV_HEADER, "p_value", "p_holm", "significant")
CSV_HEADER = (*OLD_CSV_HEADER[:-2], *ends("difference"), *LOW_HIGH_CSV_HEADER[-3:])
# Every header of a cards.csv balancer wrote, newest first (`cards -o` may replace one).
OUR_CSV_HEADERS = (CSV_HEADER, LOW_HIGH_CSV_HEADER, OLD_CSV_HEADER)


def readable_held(games: pl.DataFrame, players: int, kinds: Sequence[str]) -> pl.DataFrame:
    """The games table with each seat's held_<s>_<w> bitmask words replaced by `held_<s>`,
    the kinds it held as a readable list ("blue fish 3; red cash 9"), in kind order.

    For games.csv: an 18-digit mask is no number a spreadsheet keeps exactly
    (it holds 15 significant digits), and no one can read one anyway.
    """
    held = table.held_matrix(games, players, len(kinds))
    names = np.asarray(kinds, dtype=object)
    words = table.held_words(len(kinds))
    masks = [table.held(s, w) for s in range(players) for w in range(words)]
    first = games.columns.index(masks[0])
    readable = [
        pl.Series(f"held_{s}", ["; ".join(names[row]) for row in held[:, s, :]], dtype=pl.String)
        for s in range(players)
    ]
    rest = games.drop(masks)
    columns = [*rest.columns[:first], *(c.name for c in readable), *rest.columns[first:]]
    return rest.with_columns(readable).select(columns)


def variant_of(report: Any, where: str = "report.json") -> Any:
    """The variant a report played, to read its cards by: a role game's by the game's
    name, which its kept copy of the game file registered (report/checks.py) should the
    file have changed or gone since the run."""
    from balancer.config import variant as variants

    as_stored = json.loads(json.dumps(report.variant))
    if report.game_file is not None:
        as_stored["game"] = report.game
    return variants.from_resolved(as_stored, where, allow_plugins=True)


def kinds_of_report(report: Any) -> list[str] | None:
    """The card kinds of a report's game and rules, or None when its games hold no cards."""
    if not has_cards(report.games):
        return None
    loaded = variant_of(report)
    kinds_of = loaded.spec.card_kinds
    return None if kinds_of is None else list(kinds_of(loaded.rules))


def roles_of_report(report: Any) -> list[RoleImpact] | None:
    """Card impact by role (stats/role_impact.py) of a report, or None when its game's
    cards have no roles or its games record no cards held: roles.csv and report.html's
    table. Reads only the seats' win and held columns of games.parquet."""
    from balancer import games
    from balancer.report.games_table import game_columns

    # Asked of the game first: a hand-written game's report (no roles) never loads its
    # variant here, so a page of it draws whatever its variant holds.
    if games.canonical(report.game) is None or games.get(report.game).card_roles is None:
        return None
    loaded = variant_of(report)
    roles_of = loaded.spec.card_roles
    if roles_of is None:
        return None
    of_kind = roles_of(loaded.rules)
    roles = list(dict.fromkeys(of_kind))
    players = report.players
    columns = [table.win(s) for s in range(players)]
    columns += [
        table.held(s, w) for s in range(players) for w in range(table.held_words(len(of_kind)))
    ]
    frame = game_columns(report, columns)
    return role_impact(frame, players, [roles.index(r) for r in of_kind], roles)


def of_report(report: Any) -> list[CardImpact] | None:
    """Card impact of a report.model.Report, or None when its game or games table
    records no cards held: what report/build.py and report/html.py call to add
    cards.csv (`write_csv`) and the chart (`html_section`)."""
    kinds = kinds_of_report(report)
    return None if kinds is None else card_impact(report.games, report.players, kinds)


def html_section(chart: str, lang: str | None = None) -> str:
    """report.html's card-impact section in the report's language: a heading, a line of
    reading, the chart (chart_svg, embedded by report/html.py)."""
    import html

    from balancer import i18n

    title, note = (
        html.escape(i18n.text(key, lang), quote=False) for key in ("cards.title", "cards.note")
    )
    return f'<section id="cards"><h2>{title}</h2><p>{note}</p>{chart}</section>'


def _csv(header: Sequence[str], rows: Iterable[Sequence[object]]) -> str:
    out = io.StringIO(newline="")
    writer = csv.writer(out)
    writer.writerow(header)
    writer.writerows(rows)
    return out.getvalue()


def _tail(low: float, high: float, p_value: float, p_holm: float, significant: bool) -> list[str]:
    """The columns both tables end with: the interval, p, p after Holm, the verdict."""
    return [raw(low), raw(high), raw(p_value), raw(p_holm), "yes" if significant else "no"]


def csv_text(rows: Sequence[CardImpact]) -> str:
    """cards.csv's text: one row per kind, in the order given (by effect)."""
    return _csv(
        CSV_HEADER,
        (
            [
                r.card,
                r.held_seats,
                raw(r.held_win_share),
                r.other_seats,
                raw(r.other_win_share),
                raw(r.difference),
                *_tail(r.low, r.high, r.p_value, r.p_holm, r.significant),
            ]  # fmt: skip
            for r in rows
        ),
    )


def roles_csv_text(rows: Sequence[RoleImpact]) -> str:
    """roles.csv's text: one row per role, in the deck's order."""
    return _csv(
        ROLES_CSV_HEADER,
        (
            [
                r.role,
                raw(r.mean_held),
                raw(r.slope),
                *_tail(r.low, r.high, r.p_value, r.p_holm, r.significant),
            ]  # fmt: skip
            for r in rows
        ),
    )


def write_csv(rows: Sequence[CardImpact], path: Path, *, excel: bool = False) -> None:
    """cards.csv (csv_text) into `path`; `excel`: with a BOM, as `balancer csv --excel`."""
    path.write_bytes(csv_text(rows).encode("utf-8-sig" if excel else "utf-8"))


def write_roles_csv(rows: Sequence[RoleImpact], path: Path, *, excel: bool = False) -> None:
    """roles.csv (roles_csv_text) into `path`; `excel` as write_csv's."""
    path.write_bytes(roles_csv_text(rows).encode("utf-8-sig" if excel else "utf-8"))


def render_roles(
    rows: Sequence[RoleImpact],
    paint: Callable[[str, str], str] | None = None,
    lang: str | None = None,
) -> str:
    """Card impact by role as text: what `balancer cards` prints after the kinds."""
    from balancer import i18n

    t = i18n.text
    role = t("roles.role", lang)
    width = max([i18n.width(role), *(len(r.role) for r in rows)])
    lines = [
        t("roles.title", lang),
        f"{i18n.ljust(role, width)}  {i18n.rjust(t('roles.mean_held', lang), 9)}  "
        f"{i18n.rjust(t('roles.slope', lang), 10)}  {i18n.ljust(t('cards.interval', lang), 16)}"
        f"  {'p (Holm)':>8}  {t('cards.verdict', lang)}",
    ]
    helps, hurts = t("cards.helps", lang), t("cards.hurts", lang)
    places = _places((r.low, r.high) for r in rows)
    for r in rows:
        verdict = (helps if r.slope > 0 else hurts) if r.significant else ""
        shown = paint(verdict, "changed") if paint and verdict else verdict
        lines.append(
            f"{r.role:<{width}}  {r.mean_held:>9.2f}  {fixed(r.slope, places, signed=True):>10}  "
            f"{_interval(r.low, r.high, places):<16}  {_p(r.p_holm):>8}  {shown}".rstrip()
        )
    lines += ["", *t("roles.key", lang).split("\n")]
    return "\n".join(lines)


def roles_html(rows: Sequence[RoleImpact], lang: str | None = None) -> str:
    """report.html's table of card impact by role (under the card chart)."""
    import html

    from balancer import i18n

    def e(text: str) -> str:
        return html.escape(text, quote=False)

    t = i18n.text
    head = "".join(
        f"<th>{e(t(key, lang))}</th>"
        for key in ("roles.role", "roles.mean_held", "roles.slope", "cards.interval")
    )
    places = _places((r.low, r.high) for r in rows)
    body = "".join(
        f"<tr><td>{'● ' if r.significant else ''}{e(r.role)}</td><td>{r.mean_held:.2f}</td>"
        f"<td>{fixed(r.slope, places, signed=True)}</td>"
        f"<td>{_interval(r.low, r.high, places)}</td></tr>"
        for r in rows
    )
    return (
        f'<h3>{e(t("roles.title", lang))}</h3><p class="note">{e(t("roles.note", lang))}</p>'
        f'<table class="roles"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>'
    )


def render(
    rows: Sequence[CardImpact],
    paint: Callable[[str, str], str] | None = None,
    lang: str | None = None,
) -> str:
    """The table as text, by effect: what `balancer cards` prints, its words in `lang`.

    `paint(text, verdict)` colours a verdict for a terminal (cli/colour.py); None: plain.
    """
    from balancer import i18n

    t = i18n.text
    card = t("cards.card", lang)
    width = max([i18n.width(card), *(len(r.card) for r in rows)])
    lines = [
        f"{i18n.ljust(card, width)}  {i18n.rjust(t('cards.held', lang), 6)}  "
        f"{i18n.rjust(t('cards.others', lang), 6)}  {i18n.rjust(t('cards.difference', lang), 10)}"
        f"  {i18n.ljust(t('cards.interval', lang), 16)}  {'p (Holm)':>8}  "
        f"{t('cards.verdict', lang)}",
    ]
    helps, hurts = t("cards.helps", lang), t("cards.hurts", lang)
    places = _places((r.low, r.high) for r in rows)
    for r in rows:
        verdict = (helps if r.difference > 0 else hurts) if r.significant else ""
        shown = paint(verdict, "changed") if paint and verdict else verdict
        held, others = (fixed(v, places) for v in (r.held_win_share, r.other_win_share))
        lines.append(
            f"{r.card:<{width}}  {held:>6}  {others:>6}  "
            f"{fixed(r.difference, places, signed=True):>10}  "
            f"{_interval(r.low, r.high, places):<16}  {_p(r.p_holm):>8}  {shown}".rstrip()
        )
    tested = sum(r.low != r.high or r.difference != 0 for r in rows)
    significant = sum(r.significant for r in rows)
    lines += [
        "",
        *t("cards.key", lang, n=significant, tested=tested, alpha=f"{ALPHA:g}").split("\n"),
    ]
    return "\n".join(lines)


def _p(p: float) -> str:
    return "<0.001" if p < 0.001 else f"{p:.3f}"


def _places(intervals: Iterable[tuple[float, float]]) -> int:
    """One precision for a table's estimates, by their intervals' widths (numbers.py);
    3 decimals where no interval has a width (nothing compared)."""
    found = column_decimals([(low, high) for low, high in intervals if high > low])
    return 3 if found is None else found


def _interval(low: float, high: float, places: int) -> str:
    return f"[{fixed(low, places, signed=True)}, {fixed(high, places, signed=True)}]"


def chart_svg(rows: Sequence[CardImpact], top: int = 20, lang: str | None = None) -> str:
    """The `top` largest effects either way with their intervals, as inline SVG,
    drawn from the summary rows only (report/html.py embeds it like its other charts).

    The largest difference at the top; a bar per kind from zero to its
    difference, its 95% interval as a whisker, and zero as a grey line.
    """
    from balancer.report import svg

    # Ties broken by name: the same rows in any order draw the same chart.
    shown = sorted(rows, key=lambda r: (-abs(r.difference), r.card))[:top]
    shown.sort(key=lambda r: (-r.difference, r.card))
    # A kind that differs beyond chance (after Holm) is marked and drawn dark; the rest pale.
    labels = [("● " if r.significant else "") + svg.shortened(r.card) for r in shown]
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
        colour, kind = (BAR, "bar significant") if r.significant else (PALE, "bar")
        chart.rect(xs(0), y - 0.35 * row, xs(r.difference) - xs(0), 0.7 * row, colour, cls=kind)
        chart.whisker(y, xs(r.low), xs(r.high), 0.4 * row, vertical=False)
        chart.text(left - 8, y, label, anchor="end", middle=True, cls="label")
    chart.line(xs(0), top_margin, xs(0), base, "#8a929e", 1.2, cls="zero")
    from balancer import i18n

    chart.text((left + svg.WIDTH - right) / 2, base + 38, i18n.text("cards.x_title", lang),
               anchor="middle", fill=svg.MUTED)  # fmt: skip
    return chart.render()
