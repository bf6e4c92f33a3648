"""Compare two reports: what changed, by how much, and whether it is more than noise.

Every figure of the two runs becomes one row: A, B, the change B − A, an
effect size, a test and its p-value, and the p-value after Holm correction
over the whole table. Only rows still below alpha after the correction are
marked "significant", so a table of thirty figures doesn't cry wolf once in
every other diff.

Tests, per kind of figure:

- proportions (win share per seat and per bot, share of games a rule fired):
  pooled two-proportion z-test; effect size Cohen's h.
- the centre of a distribution (score per seat, winning margin, length, a
  rule's count per game): Mann–Whitney U; effect size Cliff's delta; A and B
  show the means.
- the whole distribution (score per seat, length): a second row, "... distribution
  (sd)", with the Kolmogorov–Smirnov test, so a change of spread or shape that
  keeps the centre still shows; effect size the KS statistic D; A and B show
  the sds (KS also reacts to a shift, so this row can be significant with
  equal sds). Two rows rather than the smaller of two p-values, which would
  overstate the evidence; Holm then accounts for both.

Win share per bot counts seat-games (as the report does); a bot holding two
seats in a game is counted twice, which the z-test treats as independent.

Paired mode: when A and B share the seed and the game count, game i of both
started from the same deal (common random numbers). Rows then use the
Wilcoxon signed-rank test on the per-game differences B − A (for 0/1 data
that is McNemar's test), which cancels the deal's luck and sees much smaller
changes. Effect sizes stay the unpaired ones so that they read the same in
both modes; the KS rows stay unpaired (KS compares whole distributions; with
positively correlated pairs it is only conservative).
"""

from __future__ import annotations

import csv
import io
import json
import math
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np
import polars as pl

from balancer.errors import UserError
from balancer.report.build import bot_figures
from balancer.report.model import BotFigures, Report
from balancer.sim import table
from balancer.stats import describe as stats

# --- comparing ----------------------------------------------------------------


@dataclass
class DiffRow:
    figure: str
    a: float
    b: float
    change: float
    effect: float
    effect_kind: str  # "h" (Cohen's h), "delta" (Cliff's delta), "D" (KS statistic)
    test: str
    p_value: float
    paired: bool
    p_holm: float = 1.0
    significant: bool = False

    @property
    def verdict(self) -> str:
        return "significant" if self.significant else ""


@dataclass
class DiffTable:
    a: str
    b: str
    a_about: str
    b_about: str
    paired: bool
    alpha: float
    rows: list[DiffRow] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    @property
    def changed(self) -> bool:
        return any(row.significant for row in self.rows)

    @property
    def mode(self) -> str:
        if self.paired:
            return "paired: same seed and games"
        return "unpaired: different seed or game count"


PROPORTION_TEST = "two-proportion z"
LOCATION_TEST = "Mann-Whitney U"
PAIRED_TEST = "Wilcoxon signed-rank"
SHAPE_TEST = "Kolmogorov-Smirnov"


def _proportion_row(figure: str, a: np.ndarray, b: np.ndarray, paired: bool) -> DiffRow:
    """A row for a share: `a` and `b` are per-unit values in [0, 1] (win shares, 0/1 flags)."""
    p_a, p_b = float(a.mean()), float(b.mean())
    if paired:
        p_value, test = stats.wilcoxon_paired(a, b), PAIRED_TEST
    else:
        p_value = stats.two_proportion(a.sum(), a.size, b.sum(), b.size)
        test = PROPORTION_TEST
    return DiffRow(
        figure, p_a, p_b, p_b - p_a, stats.cohens_h(p_a, p_b), "h", test, p_value, paired
    )


def _location_row(figure: str, a: np.ndarray, b: np.ndarray, paired: bool) -> DiffRow:
    mean_a, mean_b = float(a.mean()), float(b.mean())
    if paired:
        p_value, test = stats.wilcoxon_paired(a, b), PAIRED_TEST
    else:
        p_value, test = stats.mann_whitney(a, b), LOCATION_TEST
    effect = stats.cliffs_delta(a, b)
    return DiffRow(figure, mean_a, mean_b, mean_b - mean_a, effect, "delta", test, p_value, paired)


def _shape_row(figure: str, a: np.ndarray, b: np.ndarray) -> DiffRow:
    sd_a = float(a.std(ddof=1)) if a.size > 1 else 0.0
    sd_b = float(b.std(ddof=1)) if b.size > 1 else 0.0
    d, p_value = stats.ks_2samp(a, b)
    return DiffRow(figure, sd_a, sd_b, sd_b - sd_a, d, "D", SHAPE_TEST, p_value, False)


def _column(report: Report, name: str) -> np.ndarray:
    return report.games[name].cast(pl.Float64).to_numpy()


def _scores(report: Report) -> np.ndarray:
    return np.column_stack([_column(report, table.score(s)) for s in range(report.players)])


def _labels(report: Report) -> list[str]:
    games = report.games
    found = pl.concat([games[table.bot(s)] for s in range(report.players)]).unique().sort()
    return found.to_list()


def _about(r: Report) -> str:
    return (
        f"{r.game}, {r.players} players, {r.n_games} games, seed {r.seed}, "
        f"rules v{r.rules_version}, balancer {r.balancer_version}"
    )


def compare(a: Report, b: Report, alpha: float = 0.05) -> DiffTable:
    """Every figure of A against B, tested, Holm-corrected over the whole table."""
    must_match: tuple[tuple[str, object, object], ...] = (
        ("game", a.game, b.game),
        ("players", a.players, b.players),
    )
    for key, in_a, in_b in must_match:
        if in_a != in_b:
            raise UserError(
                f"can't compare: A ({a.folder}) has {key} {in_a!r}, "
                f"B ({b.folder}) has {key} {in_b!r}"
            )
    paired = a.seed == b.seed and a.n_games == b.n_games
    diff = DiffTable(str(a.folder), str(b.folder), _about(a), _about(b), paired, alpha)
    versions: tuple[tuple[str, object, object], ...] = (
        ("rules_version", a.rules_version, b.rules_version),
        ("balancer_version", a.balancer_version, b.balancer_version),
    )
    for key, in_a, in_b in versions:
        if in_a != in_b:
            diff.warnings.append(
                f"{key} differs (A {in_a}, B {in_b}): "
                "part of any change may come from the program, not the variant"
            )
    if a.higher_is_better != b.higher_is_better:
        diff.warnings.append("A and B disagree on whether high scores win; margins use A's")

    rows = diff.rows
    players = a.players
    for s in range(players):
        wins_a, wins_b = _column(a, table.win(s)), _column(b, table.win(s))
        rows.append(_proportion_row(f"win share seat {s}", wins_a, wins_b, paired))

    labels_a, labels_b = _labels(a), _labels(b)
    if len(labels_a) > 1 and len(labels_b) > 1:
        figures_a, figures_b = bot_figures(a.games, players), bot_figures(b.games, players)
        for label in sorted(set(labels_a) & set(labels_b)):
            rows.append(_bot_row(label, a, b, figures_a[label], figures_b[label], paired))
        for mine, only, theirs in ((labels_a, "A", labels_b), (labels_b, "B", labels_a)):
            lone = sorted(set(mine) - set(theirs))
            if lone:
                diff.warnings.append(f"bots only in {only}, not compared: {', '.join(lone)}")

    scores_a, scores_b = _scores(a), _scores(b)
    for s in range(players):
        rows.append(_location_row(f"score seat {s} mean", scores_a[:, s], scores_b[:, s], paired))
        rows.append(_shape_row(f"score seat {s} distribution (sd)", scores_a[:, s], scores_b[:, s]))

    if players > 1:
        higher = a.higher_is_better
        margin_a = stats.winning_margin(scores_a, higher)
        margin_b = stats.winning_margin(scores_b, higher)
        rows.append(_location_row("winning margin mean", margin_a, margin_b, paired))

    length_a, length_b = _column(a, "length"), _column(b, "length")
    rows.append(_location_row("length mean", length_a, length_b, paired))
    rows.append(_shape_row("length distribution (sd)", length_a, length_b))

    shared = [name for name in a.events if name in set(b.events)]
    # A value per game (Da Qi Zi's max_multiplier) has no "share of games it fired".
    values = set(a.value_events or ()) | set(b.value_events or ())
    for name in shared:
        ev_a, ev_b = _column(a, table.event(name)), _column(b, table.event(name))
        kind = "mean" if name in values else "per game"
        rows.append(_location_row(f"event {name} {kind}", ev_a, ev_b, paired))
        if name in values:
            continue
        fired_a, fired_b = (ev_a > 0).astype(float), (ev_b > 0).astype(float)
        rows.append(_proportion_row(f"event {name} share of games", fired_a, fired_b, paired))
    for events, only, other in ((a.events, "A", b.events), (b.events, "B", a.events)):
        lone = [name for name in events if name not in set(other)]
        if lone:
            diff.warnings.append(f"events only in {only}, not compared: {', '.join(lone)}")

    adjusted = stats.holm([row.p_value for row in rows])
    for row, p_holm in zip(rows, adjusted, strict=True):
        row.p_holm = float(p_holm)
        row.significant = bool(p_holm <= alpha)
    return diff


def _bot_row(
    label: str,
    a: Report,
    b: Report,
    fig_a: BotFigures,
    fig_b: BotFigures,
    paired: bool,
) -> DiffRow:
    """A bot's win share; paired per game only if the bot sat in every game of both runs."""
    figure = f"win share bot {label}"
    if paired:
        per_game_a = stats.bot_game_shares(a.games, a.players, label)
        per_game_b = stats.bot_game_shares(b.games, b.players, label)
        if not (np.isnan(per_game_a).any() or np.isnan(per_game_b).any()):
            row = _proportion_row(figure, per_game_a, per_game_b, paired=True)
            # Show the seat-game shares, as the report does, not the per-game means.
            p_a, p_b = fig_a.win_share, fig_b.win_share
            row.a, row.b, row.change, row.effect = p_a, p_b, p_b - p_a, stats.cohens_h(p_a, p_b)
            return row
    p_a, p_b = fig_a.win_share, fig_b.win_share
    n_a, n_b = fig_a.seat_games, fig_b.seat_games
    p_value = stats.two_proportion(p_a * n_a, n_a, p_b * n_b, n_b)
    effect = stats.cohens_h(p_a, p_b)
    return DiffRow(figure, p_a, p_b, p_b - p_a, effect, "h", PROPORTION_TEST, p_value, False)


# --- rendering ----------------------------------------------------------------

_HEADERS = ("figure", "A", "B", "change", "effect", "test", "p", "p (Holm)", "verdict")


def _num(x: float, signed: bool = False, digits: int = 4) -> str:
    if x == 0:
        return "0"
    if not math.isfinite(x):
        return "-"
    return f"{x:+.{digits}g}" if signed else f"{x:.{digits}g}"


def _pfmt(p: float) -> str:
    # Below this the normal approximations behind the number mean nothing, and
    # the smallest p-values underflow to 0; csv and json keep the raw value.
    if p < 1e-16:
        return "<1e-16"
    return f"{p:.2g}" if p < 0.001 else f"{p:.3f}"


def _cells(row: DiffRow) -> list[str]:
    # Effect sizes live on a scale of about ±1: three decimals say all they can.
    effect = (
        f"{row.effect_kind} {row.effect:+.3f}" if row.effect_kind != "D" else f"D {row.effect:.3f}"
    )
    return [
        row.figure,
        _num(row.a),
        _num(row.b),
        _num(row.change, signed=True, digits=3),
        effect,
        row.test,
        _pfmt(row.p_value),
        _pfmt(row.p_holm),
        row.verdict,
    ]


def _summary(table: DiffTable) -> str:
    n = sum(row.significant for row in table.rows)
    what = f"{n} significant change{'s' if n != 1 else ''}" if n else "no significant change"
    return f"{what} among {len(table.rows)} figures (Holm, alpha {table.alpha:g})"


def _render_table(table: DiffTable) -> str:
    lines = [f"A: {table.a} ({table.a_about})", f"B: {table.b} ({table.b_about})", table.mode]
    lines += [f"warning: {w}" for w in table.warnings]
    grid = [list(_HEADERS), *(_cells(row) for row in table.rows)]
    widths = [max(len(r[i]) for r in grid) for i in range(len(_HEADERS))]
    numeric = {1, 2, 3, 6, 7}
    lines.append("")
    for i, cells in enumerate(grid):
        parts = [
            c.rjust(w) if j in numeric else c.ljust(w)
            for j, (c, w) in enumerate(zip(cells, widths, strict=True))
        ]
        lines.append("  ".join(parts).rstrip())
        if i == 0:
            lines.append("  ".join("-" * w for w in widths))
    lines += ["", _summary(table)]
    return "\n".join(lines)


def _render_md(table: DiffTable) -> str:
    lines = [
        f"**A** `{table.a}` ({table.a_about})  ",
        f"**B** `{table.b}` ({table.b_about})  ",
        f"*{table.mode}*",
        "",
    ]
    lines += [f"> warning: {w}" for w in table.warnings]
    if table.warnings:
        lines.append("")
    lines.append("| " + " | ".join(_HEADERS) + " |")
    lines.append("|" + "|".join("---" if i in (0, 5, 8) else "---:" for i in range(9)) + "|")
    for row in table.rows:
        cells = _cells(row)
        if row.significant:
            cells[-1] = "**significant**"
        lines.append("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
    lines += ["", _summary(table)]
    return "\n".join(lines)


_CSV_FIELDS = [
    "figure",
    "a",
    "b",
    "change",
    "effect",
    "effect_kind",
    "test",
    "paired",
    "p_value",
    "p_holm",
    "verdict",
]
_FLOAT_FIELDS = {"a", "b", "change", "effect", "p_value", "p_holm"}


def _row_record(row: DiffRow) -> dict[str, Any]:
    record = asdict(row)
    record["verdict"] = row.verdict
    # numpy scalars would print as "np.float64(...)" in CSV and fail in JSON.
    return {key: float(record[key]) if key in _FLOAT_FIELDS else record[key] for key in _CSV_FIELDS}


def _render_csv(table: DiffTable) -> str:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=_CSV_FIELDS, lineterminator="\n")
    writer.writeheader()
    for row in table.rows:
        writer.writerow(
            {k: repr(v) if isinstance(v, float) else v for k, v in _row_record(row).items()}
        )
    return out.getvalue().rstrip("\n")


def _render_json(table: DiffTable) -> str:
    document = {
        "a": {"folder": table.a, "about": table.a_about},
        "b": {"folder": table.b, "about": table.b_about},
        "paired": table.paired,
        "mode": table.mode,
        "alpha": table.alpha,
        "correction": "holm",
        "changed": table.changed,
        "warnings": table.warnings,
        "rows": [_row_record(row) for row in table.rows],
    }
    # allow_nan=False: a NaN slipping through is a bug, not something to hand a parser.
    return json.dumps(document, indent=2, allow_nan=False)


_RENDERERS: dict[str, Callable[[DiffTable], str]] = {
    "table": _render_table,
    "md": _render_md,
    "csv": _render_csv,
    "json": _render_json,
}


def render(table: DiffTable, fmt: str) -> str:
    """The table as aligned terminal text ("table"), Markdown, CSV or JSON."""
    try:
        renderer = _RENDERERS[fmt]
    except KeyError:
        known = ", ".join(_RENDERERS)
        raise UserError(f"unknown format {fmt!r}; choose from {known}") from None
    return renderer(table)
