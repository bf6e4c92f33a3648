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

from balancer import games
from balancer.analysis import diff_setup
from balancer.analysis.until_decided import UNTIL_DECIDED
from balancer.errors import UserError
from balancer.escape import contrast
from balancer.report.model import Report
from balancer.stats import compare as stats_compare
from balancer.stats.compare import Row
from balancer.stats.figures import DiffResult, RunData, anytime_diff_rows, diff_rows
from balancer.stats.play_names import OPT_IN

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
    anytime: bool = False  # rows from confidence sequences (diff --until-decided)
    most_games: int | None = None  # with anytime: the most games each run could play

    @property
    def changed(self) -> bool:
        """Whether any row's verdict is "changed" (Holm-adjusted p at most alpha)."""
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


def plays_estimates(
    a: Report, b: Report
) -> tuple[list[tuple[stats_compare.Estimate, stats_compare.Estimate]], list[str]]:
    """The `plays:` figures both reports measured, as estimates with their standard errors
    (compared by z: there are no per-game values to pair), and a warning for those only
    one has."""
    pairs = []
    lone: dict[str, list[str]] = {"A": [], "B": []}
    for name, key in OPT_IN.items():
        in_a = None if a.how_it_plays is None else getattr(a.how_it_plays, key)
        in_b = None if b.how_it_plays is None else getattr(b.how_it_plays, key)
        if in_a is not None and in_b is not None:
            estimate_a = stats_compare.Estimate(name, "share", in_a.mean, in_a.se, in_a.n)
            estimate_b = stats_compare.Estimate(name, "share", in_b.mean, in_b.se, in_b.n)
            pairs.append((estimate_a, estimate_b))
        elif in_a is not None or in_b is not None:
            lone["A" if in_a is not None else "B"].append(name)
    warnings = [
        f"plays: figures only in {only}, not compared: {', '.join(names)}"
        for only, names in lone.items()
        if names
    ]
    return pairs, warnings


def _about(r: Report) -> str:
    return (
        f"{r.game}, {r.players} players, {r.n_games} games, seed {r.seed}, "
        f"rules v{r.rules_version}, balancer {r.balancer_version}"
    )


def pairing_hint(a: Report, b: Report) -> str:
    """Why a diff is unpaired and how to make it paired: the same seed and game count."""
    return (
        f"unpaired: A played {a.n_games} games from seed {a.seed}, B {b.n_games} from seed "
        f"{b.seed}, so each change is tested by Welch's t, which needs more games than a "
        f"paired test to see the same change. To pair them, run B's variant with "
        f"--seed {a.seed} --games {a.n_games} (or write seed: {a.seed} and games: {a.n_games} "
        "in it), or diff the two variant files, which plays both with the same seed."
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
    must_match: tuple[tuple[str, object, object], ...] = (("players", a.players, b.players),)
    # Two game files are two versions of a designer's game: comparable, and the header
    # says what changed between them (diff_setup.game_file_changes).
    if a.game_file is None or b.game_file is None:
        # A game by its short name (fdc) is the game by its long one.
        must_match = (
            ("game", games.canonical(a.game) or a.game, games.canonical(b.game) or b.game),
            *must_match,
        )
    for key, in_a, in_b in must_match:
        if in_a != in_b:
            shown_a, shown_b = contrast(in_a, in_b)
            raise UserError(
                f"can't compare: A ({a.folder}) has {key} {shown_a}, "
                f"B ({b.folder}) has {key} {shown_b}"
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
    diff.setup = diff_setup.of_reports(a, b)
    if not diff.paired:
        diff.warnings.append(pairing_hint(a, b))
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
        if any(plays_estimates(a, b)):  # no confidence sequence for a figure of one sample
            result.warnings.append("plays: figures are left out of an anytime diff")
        diff.anytime, diff.most_games = True, most
    else:
        estimates, lone = plays_estimates(a, b)
        result = diff_rows(
            run_data(a), run_data(b), paired, dict(tolerances), alpha, estimates=estimates
        )
        result.warnings += lone
    diff.rows = result.rows
    diff.warnings += result.warnings
    diff.games_needed = stats_compare.games_needed_line(result.rows)
    diff.family_size = result.family_size
    diff.stopped_at = result.stopped_at
    return diff
