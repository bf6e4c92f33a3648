"""Compare two reports: what changed, by how much, and whether it is more than noise.

Every figure of the two runs is one row (stats.figures.diff_rows): A, B, the
change B − A with its 95% interval, the test, its p-value, the p-value after
Holm's correction over the family, and a verdict:

- `changed`: the adjusted p is at most alpha;
- `equivalent`: a tolerance applies to the row's kind (--tolerance, or the
  defaults in stats.compare.DEFAULT_TOLERANCES) and the equivalence test
  (TOST) puts the change inside ±tolerance;
- blank: can't tell yet (more games would).

Every figure is a mean of per-game values (a bot's win share a ratio over
its seat-games, clustered by game), tested as a mean: paired t on the
per-game differences when A and B share seed and game count (game g of both
began from the same deal), else Welch's t. Holm's family is the rows with
variation that are not duplicates of another row (stats.compare explains).
Bots are matched by name whatever their parameters; a parameter change is
shown under the table.
"""

from __future__ import annotations

import csv
import io
import json
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from balancer.analysis.until_decided import UNTIL_DECIDED
from balancer.errors import UserError
from balancer.report.model import Report
from balancer.stats import compare as stats_compare
from balancer.stats.compare import Row
from balancer.stats.figures import DiffResult, RunData, anytime_diff_rows, diff_rows

# --- comparing ----------------------------------------------------------------

VERDICTS = ("changed", "equivalent", "")


@dataclass
class DiffTable:
    a: str
    b: str
    a_about: str
    b_about: str
    paired: bool
    alpha: float
    rows: list[Row] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    games_needed: str = ""
    family_size: int = 0
    stopped_at: int | None = None  # games per run when an early-stopping diff stopped
    anytime: bool = False  # rows from confidence sequences (diff --until-decided)
    most_games: int | None = None  # with anytime: the most games each run could play

    @property
    def changed(self) -> bool:
        return any(row.verdict == "changed" for row in self.rows)

    @property
    def stopping(self) -> str:
        """What --until-decided did: stopped early after how many games, or played them all."""
        if not self.anytime:
            return ""
        if self.stopped_at is not None:
            return (
                f"stopped early after {self.stopped_at} games per run (at most {self.most_games}): "
                "every win share is changed or equivalent."
            )
        return f"not decided within {self.most_games} games per run: played them all."

    @property
    def mode(self) -> str:
        if self.anytime:
            return "anytime-valid: game g of A paired with game g of B, confidence sequences"
        if self.paired:
            return "paired: same seed and games"
        return "unpaired: different seed or game count"


def run_data(report: Report) -> RunData:
    """A report's per-game arrays, as stats.figures reads them."""
    return RunData.from_frame(
        report.games,
        report.players,
        list(report.events),
        list(report.value_events or ()),
        report.higher_is_better,
        bool(report.variant.get("seat_rotation", False)),
    )


def _about(r: Report) -> str:
    return (
        f"{r.game}, {r.players} players, {r.n_games} games, seed {r.seed}, "
        f"rules v{r.rules_version}, balancer {r.balancer_version}"
    )


def compare(
    a: Report,
    b: Report,
    alpha: float = 0.05,
    tolerances: Mapping[str, str] | None = None,
    anytime: bool = False,
) -> DiffTable:
    """Every figure of A against B, tested, Holm-corrected over the family, with verdicts.

    `tolerances`: kind → '0.01' or '0.1sd' (stats.compare.parse_tolerances
    gives them with the defaults filled in); None uses the defaults.

    `anytime`: the rows of `diff --until-decided` (stats.figures.anytime_diff_rows),
    valid however the number of games was chosen: game g of A paired with
    game g of B, which needs equal game counts. Reports that an
    `--until-decided` run stopped get these rows whether asked or not.
    """
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
    # Runs a decided diff stopped: their game count was chosen by looking at this very
    # comparison, so only the anytime rows are valid for them, whoever asks again.
    decided = UNTIL_DECIDED in (a.until, b.until)
    anytime = anytime or (decided and a.n_games == b.n_games)
    if anytime and a.n_games != b.n_games:
        raise UserError(
            f"an anytime diff pairs the games one by one: A has {a.n_games}, B {b.n_games}"
        )
    diff = DiffTable(str(a.folder), str(b.folder), _about(a), _about(b), paired or anytime, alpha)
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
    if tolerances is None:
        tolerances = stats_compare.parse_tolerances(None)
    result: DiffResult
    if anytime:
        most = int(a.variant.get("games") or a.n_games)
        result = anytime_diff_rows(run_data(a), run_data(b), dict(tolerances), alpha, n_star=most)
        result.stopped_at = a.stopped_at if a.stopped_at == b.stopped_at else None
        diff.anytime, diff.most_games = True, most
    else:
        result = diff_rows(run_data(a), run_data(b), paired, dict(tolerances), alpha)
    diff.rows = result.rows
    diff.warnings += result.warnings
    diff.games_needed = stats_compare.games_needed_line(result.rows)
    diff.family_size = result.family_size
    diff.stopped_at = result.stopped_at
    return diff


# --- rendering ----------------------------------------------------------------

_HEADERS = ("figure", "A", "B", "B−A", "95% interval", "test", "p", "adjusted p", "verdict")
_NUMERIC = {1, 2, 3, 4, 6, 7}


def _num(x: float, signed: bool = False, digits: int = 4) -> str:
    if x == 0:
        return "0"
    if not math.isfinite(x):
        return "-"
    return f"{x:+.{digits}g}" if signed else f"{x:.{digits}g}"


def _pfmt(p: float) -> str:
    # Below this the approximations behind the number mean nothing, and the
    # smallest p-values underflow to 0; csv and json keep the raw value.
    if p < 1e-16:
        return "<1e-16"
    return f"{p:.2g}" if p < 0.001 else f"{p:.3f}"


def _adjusted(row: Row) -> str:
    """The adjusted p, or why the row has none of its own."""
    if row.duplicate_of is not None:
        return f"{_pfmt(row.p_adjusted)} (= {row.duplicate_of})"
    if not row.in_family:
        return "-"  # no variation: nothing to test, not counted in Holm's family
    return _pfmt(row.p_adjusted)


def _cells(row: Row) -> list[str]:
    low, high = row.ci95
    return [
        row.figure,
        _num(row.a),
        _num(row.b),
        _num(row.change, signed=True, digits=3),
        f"[{_num(low, signed=True, digits=3)}, {_num(high, signed=True, digits=3)}]",
        row.test,
        _pfmt(row.p_value) if row.in_family or row.duplicate_of else "-",
        _adjusted(row),
        row.verdict,
    ]


def _summary(table: DiffTable) -> str:
    changed = sum(row.verdict == "changed" for row in table.rows)
    same = sum(row.verdict == "equivalent" for row in table.rows)
    what = f"{changed} changed" if changed else "nothing changed"
    line = (
        f"{what}, {same} equivalent within tolerance, {len(table.rows) - changed - same} "
        f"can't tell yet; Holm's family: {table.family_size} of {len(table.rows)} rows, "
        f"alpha {table.alpha:g}"
    )
    return f"{table.stopping}\n{line}" if table.stopping else line


def _notes(table: DiffTable) -> list[str]:
    return [f"{row.figure}: {row.note}" for row in table.rows if row.note]


def _render_table(table: DiffTable) -> str:
    lines = [f"A: {table.a} ({table.a_about})", f"B: {table.b} ({table.b_about})", table.mode]
    lines += [f"warning: {w}" for w in table.warnings]
    grid = [list(_HEADERS), *(_cells(row) for row in table.rows)]
    widths = [max(len(r[i]) for r in grid) for i in range(len(_HEADERS))]
    lines.append("")
    for i, cells in enumerate(grid):
        parts = [
            c.rjust(w) if j in _NUMERIC else c.ljust(w)
            for j, (c, w) in enumerate(zip(cells, widths, strict=True))
        ]
        lines.append("  ".join(parts).rstrip())
        if i == 0:
            lines.append("  ".join("-" * w for w in widths))
    lines += ["", table.games_needed]
    lines += [f"note: {n}" for n in _notes(table)]
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
    lines.append(
        "|" + "|".join("---:" if i in _NUMERIC else "---" for i in range(len(_HEADERS))) + "|"
    )
    for row in table.rows:
        cells = _cells(row)
        if row.verdict:
            cells[-1] = f"**{row.verdict}**"
        lines.append("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
    lines += ["", table.games_needed + "  "]
    lines += [f"note: {n}  " for n in _notes(table)]
    lines += ["", _summary(table)]
    return "\n".join(lines)


_CSV_FIELDS = [
    "figure",
    "a",
    "b",
    "change",
    "ci95_low",
    "ci95_high",
    "test",
    "paired",
    "p_value",
    "p_adjusted",
    "verdict",
    "kind",
    "tolerance",
    "p_equivalence",
    "games_needed",
    "in_family",
    "duplicate_of",
    "note",
]


def _csv_record(row: Row) -> dict[str, object]:
    record = row.record()
    interval: tuple[float, float] = record.pop("ci95")  # type: ignore[assignment]
    record["ci95_low"], record["ci95_high"] = interval
    return {key: record[key] for key in _CSV_FIELDS}


def _render_csv(table: DiffTable) -> str:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=_CSV_FIELDS, lineterminator="\n")
    writer.writeheader()
    for row in table.rows:
        writer.writerow(
            {
                k: repr(v) if isinstance(v, float) else ("" if v is None else v)
                for k, v in _csv_record(row).items()
            }
        )
    return out.getvalue().rstrip("\n")


def _render_json(table: DiffTable) -> str:
    """The diff JSON contract: changed, stopped_at, rows (figure, a, b, change, ci95, ...)."""
    document = {
        "changed": table.changed,
        "stopped_at": table.stopped_at,
        "anytime": table.anytime,
        "stopping": table.stopping or None,
        "a": {"folder": table.a, "about": table.a_about},
        "b": {"folder": table.b, "about": table.b_about},
        "paired": table.paired,
        "mode": table.mode,
        "alpha": table.alpha,
        "correction": "holm",
        "family_size": table.family_size,
        "games_needed": table.games_needed,
        "warnings": table.warnings,
        "rows": [row.record() for row in table.rows],
    }
    # allow_nan=False: a NaN slipping through is a bug, not something to hand a parser.
    return json.dumps(document, indent=2, ensure_ascii=False, allow_nan=False)


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
