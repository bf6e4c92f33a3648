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

from collections.abc import Mapping
from dataclasses import dataclass, field

from balancer.analysis import diff_setup
from balancer.errors import UserError
from balancer.report.model import Report
from balancer.stats import compare as stats_compare
from balancer.stats.compare import Row
from balancer.stats.figures import DiffResult, RunData, diff_rows

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
    setup: diff_setup.Setup | None = None  # the knobs and bots that differ (the header)

    @property
    def changed(self) -> bool:
        return any(row.verdict == "changed" for row in self.rows)

    @property
    def mode(self) -> str:
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
) -> DiffTable:
    """Every figure of A against B, tested, Holm-corrected over the family, with verdicts.

    `tolerances`: kind → '0.01' or '0.1sd' (stats.compare.parse_tolerances
    gives them with the defaults filled in); None uses the defaults.
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
    diff = DiffTable(str(a.folder), str(b.folder), _about(a), _about(b), paired, alpha)
    diff.setup = diff_setup.of_reports(a, b)
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
    result: DiffResult = diff_rows(run_data(a), run_data(b), paired, dict(tolerances), alpha)
    diff.rows = result.rows
    diff.warnings += result.warnings
    diff.games_needed = stats_compare.games_needed_line(result.rows)
    diff.family_size = result.family_size
    diff.stopped_at = result.stopped_at
    return diff


# --- rendering (analysis/diff_render.py) ----------------------------------------


def render(table: DiffTable, fmt: str) -> str:
    """The table as aligned terminal text ("table"), Markdown, CSV or JSON."""
    from balancer.analysis.diff_render import render as render_as

    return render_as(table, fmt)
