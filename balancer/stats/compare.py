"""A/B rows: the change B − A of a figure, its 95% interval, a test of what the label says.

Every figure is a mean: of per-game values (score, margin, length, an
event's count per game, a seat's win share, 0/1 "the rule fired"), or a
ratio Σy / Σm over games (a bot's win share per seat-game: y its summed
shares, m its seats). Each game contributes one influence value to the
estimate (y − r·m) / m̄, so one machinery serves both, and a bot's several
seats in a game stay one cluster.

- paired (same seed and game count: game g of both runs began from the same
  deal): the per-game differences of influences, Student t with n − 1 df.
  This tests the mean change, unlike a signed-rank test, which tests
  symmetry of the differences and fires when a rule only changes how often
  games tie.
- unpaired: Welch's t (unequal variances, Satterthwaite df).

A row is `changed` when its Holm-adjusted p ≤ alpha, `equivalent` when a
tolerance δ was given and both one-sided tests of |change| ≥ δ reject at
alpha (TOST: the 90% interval lies inside ±δ), else blank. Holm's family is
the rows with variation; rows with none (the figure is the same in every
game of both runs, or identical in every pair) and rows that duplicate
another row's test (same |t| from collinear per-game data: 2-player seats,
an event that fires at most once per game) are left out of the count, and a
duplicate takes its original's adjusted p and verdict.

Assumes independent games within a run and enough of them for the t
approximation (the per-game values of games are bounded or light-tailed).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from balancer.stats.intervals import ratio_influence

# `play`: how the games played, as a mean over games (lead changes, decided-at, drama).
KINDS = ("win", "share", "score", "margin", "length", "event", "play")

# Tolerances used when the designer gives none for a kind: a percentage point
# for shares (a win share moving by less is below what designers act on),
# a tenth of a per-game sd for means (Cohen's "negligible" is 0.2 sd).
DEFAULT_TOLERANCES: dict[str, str] = {
    "win": "0.01",
    "share": "0.01",
    "score": "0.1sd",
    "margin": "0.1sd",
    "length": "0.1sd",
    "event": "0.1sd",
    "play": "0.1sd",
}

POWER = 0.8  # the power "games needed" is computed for


@dataclass(frozen=True)
class Figure:
    """One figure of one run: per-game values and, for a ratio, per-game weights.

    `values` has one entry per game; `weights` (None: all 1) the denominator
    per game (a bot's seats). `kind` is one of KINDS and picks the tolerance.
    """

    name: str
    kind: str
    values: np.ndarray
    weights: np.ndarray | None = None
    note: str = ""

    def estimate(self) -> tuple[float, np.ndarray]:
        """The figure's value and each game's influence on it (summing to 0)."""
        m = np.ones(len(self.values)) if self.weights is None else self.weights
        return ratio_influence(self.values, m)

    def per_game_sd(self) -> float:
        """Per-game sd of the values (per-seat-game values for a ratio), for 'sd' tolerances."""
        r, u = self.estimate()
        return float(np.std(u, ddof=1)) if len(u) > 1 else 0.0


@dataclass(frozen=True)
class Estimate:
    """A figure known by its estimate and standard error alone, from `n` units (games or
    deals of a variant's `plays:` sample; a bootstrap's standard error for the deal's share):
    two are compared by a z-test of the change over √(se_A² + se_B²), unpaired."""

    name: str
    kind: str
    value: float
    se: float
    n: int
    note: str = ""

    def per_game_sd(self) -> float:
        """The per-unit sd the standard error implies, for 'sd' tolerances."""
        return self.se * math.sqrt(self.n)


Z_TEST = "z (standard errors)"


@dataclass
class Difference:
    """B − A with its standard error, degrees of freedom and the per-game data behind it."""

    a: float
    b: float
    change: float
    se: float
    df: float
    paired: bool
    n_a: int
    n_b: int
    signature: np.ndarray  # per-game data that determines the test, for duplicate detection

    # The t distribution's functions straight from scipy.special: what scipy.stats.t's
    # ppf/sf/cdf compute (the same values, bit for bit, edge cases included), without
    # their argument checking, 40 times slower; a diff of a few hundred rows called them
    # thousands of times.
    def t_quantile(self, level: float) -> float:
        from scipy import special

        return float(special.stdtrit(self.df, 0.5 + level / 2)) if self.df > 0 else math.inf

    def interval(self, level: float = 0.95) -> tuple[float, float]:
        """Two-sided t interval for the change (exact point when there is no variation)."""
        if self.se == 0:
            return (self.change, self.change)
        half = self.t_quantile(level) * self.se
        return (self.change - half, self.change + half)

    @property
    def constant(self) -> bool:
        """No variation at all: the change is exact and zero; no test is meaningful."""
        return self.se == 0 and self.change == 0

    def p_value(self) -> float:
        """Two-sided t-test p of 'no change'; exact 0 when a non-zero change has no noise."""
        from scipy import special

        if self.se == 0:
            return 1.0 if self.change == 0 else 0.0
        return float(min(1.0, 2 * special.stdtr(self.df, -(abs(self.change) / self.se))))

    def tost(self, tolerance: float) -> float:
        """p of TOST: H0 |change| ≥ tolerance against |change| < tolerance (max of two t-tests)."""
        from scipy import special

        if tolerance <= 0:
            return 1.0
        if self.se == 0:
            return 0.0 if abs(self.change) < tolerance else 1.0
        lower = special.stdtr(self.df, -((self.change + tolerance) / self.se))
        upper = special.stdtr(self.df, (self.change - tolerance) / self.se)
        return float(max(lower, upper))

    def games_needed(self, tolerance: float, alpha: float, power: float = POWER) -> int | None:
        """Games (per run) for a two-sided t-test at `alpha` to detect a change of `tolerance`.

        Normal approximation: n · (se · (z_{1−α/2} + z_power) / tolerance)², with
        the per-game variance this comparison measured. None without variation.
        """
        from scipy import special

        if tolerance <= 0 or self.se == 0:
            return None
        # ndtri is what scipy.stats.norm.ppf computes, without its 0.2 ms of checking.
        z = float(special.ndtri(1 - alpha / 2) + special.ndtri(power))
        n = max(self.n_a, self.n_b)
        return int(math.ceil(n * (self.se * z / tolerance) ** 2))


def estimate_difference(a: Estimate, b: Estimate) -> Difference:
    """B − A of two estimates: a normal test (infinite degrees of freedom) on their
    standard errors, the two samples independent (their pairing, if any, unused)."""
    se = math.sqrt(a.se**2 + b.se**2)
    # No per-game data: an empty signature is never taken for another row's test.
    return Difference(
        a.value, b.value, b.value - a.value, se, math.inf, False, a.n, b.n, np.zeros(0)
    )


def difference(a: Figure, b: Figure, paired: bool) -> Difference:
    """B − A of one figure: paired t on per-game differences of influences, or Welch.

    Paired assumes game g of A and game g of B share their deal (same seed,
    same index) and both runs have the same games; unpaired assumes the runs
    are independent.
    """
    r_a, u_a = a.estimate()
    r_b, u_b = b.estimate()
    n_a, n_b = len(u_a), len(u_b)
    change = r_b - r_a
    if paired:
        if n_a != n_b:
            raise ValueError("paired figures need the same number of games")
        d = u_b - u_a
        se = math.sqrt(float((d**2).sum()) / (n_a * (n_a - 1))) if n_a > 1 else 0.0
        return Difference(r_a, r_b, change, se, n_a - 1, True, n_a, n_b, d)
    v_a = float((u_a**2).sum()) / (n_a * (n_a - 1)) if n_a > 1 else 0.0
    v_b = float((u_b**2).sum()) / (n_b * (n_b - 1)) if n_b > 1 else 0.0
    se = math.sqrt(v_a + v_b)
    if se > 0:
        # Welch–Satterthwaite; a run with no variance contributes no df.
        parts = [v**2 / (n - 1) for v, n in ((v_a, n_a), (v_b, n_b)) if v > 0]
        df = (v_a + v_b) ** 2 / sum(parts)
    else:
        df = float(n_a + n_b - 2)
    return Difference(r_a, r_b, change, se, df, False, n_a, n_b, np.concatenate([u_a, u_b]))


@dataclass
class Row:
    """One row of a diff, carrying the JSON contract's fields and what stands behind them.

    Contract fields: figure, a, b, change, ci95, test, p_value, p_adjusted,
    verdict ("changed", "equivalent" or ""). The rest explain the row.
    """

    figure: str
    kind: str
    a: float
    b: float
    change: float
    ci95: tuple[float, float]
    test: str
    p_value: float
    p_adjusted: float
    verdict: str
    paired: bool
    n_a: int
    n_b: int
    tolerance: float | None = None
    p_equivalence: float | None = None
    games_needed: int | None = None
    in_family: bool = True
    duplicate_of: str | None = None
    note: str = ""

    def contract(self) -> dict[str, object]:
        """The fields of the diff JSON contract, as plain Python values."""
        return {
            "figure": self.figure,
            "a": float(self.a),
            "b": float(self.b),
            "change": float(self.change),
            "ci95": [float(self.ci95[0]), float(self.ci95[1])],
            "test": self.test,
            "p_value": float(self.p_value),
            "p_adjusted": float(self.p_adjusted),
            "verdict": self.verdict,
        }

    def record(self) -> dict[str, object]:
        """Contract fields plus the explanatory ones (JSON-safe: no NaN, no numpy scalars)."""
        out = self.contract()
        out.update(
            {
                "kind": self.kind,
                "paired": self.paired,
                "n_a": self.n_a,
                "n_b": self.n_b,
                "tolerance": self.tolerance,
                "p_equivalence": self.p_equivalence,
                "games_needed": self.games_needed,
                "in_family": self.in_family,
                "duplicate_of": self.duplicate_of,
                "note": self.note,
            }
        )
        return out


PAIRED_TEST = "paired t"
WELCH_TEST = "Welch t"


def parse_tolerance(text: str) -> tuple[float, bool]:
    """'0.01' -> (0.01, False); '0.1sd' -> (0.1, True): a fraction of the per-game sd.

    Raises ValueError with the offending text; the CLI names the option.
    """
    raw = text.strip().lower()
    relative = raw.endswith("sd")
    number = raw[:-2] if relative else raw
    try:
        value = float(number)
    except ValueError:
        raise ValueError(f"tolerance {text!r}: expected a number, or a number and 'sd'") from None
    if not math.isfinite(value) or value <= 0:
        raise ValueError(f"tolerance {text!r} must be a finite number above 0")
    return value, relative


def parse_tolerances(spec: str | None) -> dict[str, str]:
    """'win=0.01,score=0.1sd' merged over DEFAULT_TOLERANCES; every value checked.

    Raises ValueError naming an unknown kind or a bad value.
    """
    out = dict(DEFAULT_TOLERANCES)
    if not spec:
        return out
    for part in spec.split(","):
        if not part.strip():
            continue
        kind, sep, value = part.partition("=")
        kind = kind.strip()
        if not sep or kind not in KINDS:
            raise ValueError(
                f"tolerance {part.strip()!r}: expected KIND=VALUE, KIND one of {', '.join(KINDS)}"
            )
        parse_tolerance(value)
        out[kind] = value.strip()
    return out


def _tolerance_for(
    fig_a: Figure | Estimate, fig_b: Figure | Estimate, spec: str | None
) -> float | None:
    if spec is None:
        return None
    value, relative = parse_tolerance(spec)
    if not relative:
        return value
    sd = math.sqrt((fig_a.per_game_sd() ** 2 + fig_b.per_game_sd() ** 2) / 2)
    return value * sd if sd > 0 else None


def holm(p_values: Sequence[float]) -> np.ndarray:
    """Holm step-down adjusted p-values, in the input order (monotone, capped at 1).

    Controls the family-wise error at alpha under any dependence between rows.
    """
    p = np.asarray(p_values, dtype=float).ravel()
    m = p.size
    if m == 0:
        return p
    order = np.argsort(p, kind="stable")
    scaled = np.minimum(1.0, p[order] * (m - np.arange(m)))
    adjusted = np.empty(m)
    adjusted[order] = np.maximum.accumulate(scaled)
    return adjusted


def _same_test(x: Difference, y: Difference) -> bool:
    """Two rows whose tests are one test: collinear per-game data and equal |t|."""
    if x.paired != y.paired or len(x.signature) != len(y.signature) or x.se == 0 or y.se == 0:
        return False
    if not math.isclose(abs(x.change) / x.se, abs(y.change) / y.se, rel_tol=1e-9, abs_tol=1e-12):
        return False
    nx, ny = np.linalg.norm(x.signature), np.linalg.norm(y.signature)
    if nx == 0 or ny == 0:
        return False
    cosine = float(x.signature @ y.signature) / (nx * ny)
    return bool(abs(abs(cosine) - 1.0) < 1e-9)


def compare_figures(
    pairs: Sequence[tuple[Figure, Figure] | tuple[Estimate, Estimate]],
    paired: bool,
    tolerances: dict[str, str] | None = None,
    alpha: float = 0.05,
) -> list[Row]:
    """Rows for (A, B) figure pairs, tested, Holm-adjusted over the family, with verdicts.

    `tolerances` maps a kind to a tolerance ('0.01' absolute, '0.1sd'
    relative to the per-game sd); None means no equivalence testing (no
    `equivalent` verdicts, no games-needed figures).
    """
    rows: list[Row] = []
    diffs: list[Difference] = []
    for fig_a, fig_b in pairs:
        by_estimate = isinstance(fig_a, Estimate) and isinstance(fig_b, Estimate)
        d: Difference
        if isinstance(fig_a, Estimate) and isinstance(fig_b, Estimate):
            d = estimate_difference(fig_a, fig_b)
        elif isinstance(fig_a, Figure) and isinstance(fig_b, Figure):
            d = difference(fig_a, fig_b, paired)
        else:
            raise TypeError("a pair is two figures or two estimates")
        spec = (tolerances or {}).get(fig_a.kind)
        tol = _tolerance_for(fig_a, fig_b, spec) if spec else None
        rows.append(
            Row(
                figure=fig_a.name,
                kind=fig_a.kind,
                a=d.a,
                b=d.b,
                change=d.change,
                ci95=d.interval(0.95),
                test=Z_TEST if by_estimate else PAIRED_TEST if paired else WELCH_TEST,
                p_value=d.p_value(),
                p_adjusted=1.0,
                verdict="",
                paired=d.paired,
                n_a=d.n_a,
                n_b=d.n_b,
                tolerance=tol,
                p_equivalence=d.tost(tol) if tol else None,
                note="; ".join(n for n in (fig_a.note, fig_b.note) if n),
            )
        )
        diffs.append(d)
    family: list[int] = []
    for i, (row, d) in enumerate(zip(rows, diffs, strict=True)):
        if d.constant:
            row.in_family = False
            row.test = "none (no variation)"
            continue
        original = next((j for j in family if _same_test(diffs[j], d)), None)
        if original is not None:
            row.in_family = False
            row.duplicate_of = rows[original].figure
            continue
        family.append(i)
    adjusted = holm([rows[i].p_value for i in family])
    for i, p in zip(family, adjusted, strict=True):
        rows[i].p_adjusted = float(p)
    by_name = {row.figure: row for row in rows}
    m = max(1, len(family))
    for row, d in zip(rows, diffs, strict=True):
        if row.duplicate_of is not None:
            row.p_adjusted = by_name[row.duplicate_of].p_adjusted
        tested = row.in_family or row.duplicate_of is not None
        if tested and row.p_adjusted <= alpha:
            row.verdict = "changed"
        if row.tolerance:
            # Bonferroni's alpha/m: a safe (slightly generous) count for Holm's first step.
            row.games_needed = d.games_needed(row.tolerance, alpha / m)
        if not row.verdict and row.p_equivalence is not None and row.p_equivalence <= alpha:
            row.verdict = "equivalent"
    return rows


def games_needed_line(rows: Sequence[Row]) -> str:
    """One line: how many games per run would detect a change of each kind's tolerance.

    The largest need within each kind, at 80% power and the family's alpha.
    """
    need: dict[str, tuple[int, float]] = {}
    for row in rows:
        if row.games_needed is None or row.tolerance is None:
            continue
        if row.kind not in need or row.games_needed > need[row.kind][0]:
            need[row.kind] = (row.games_needed, row.tolerance)
    if not need:
        return "games needed: no tolerance given"
    parts = [f"{kind} ±{tol:.3g}: {n:,}" for kind, (n, tol) in need.items()]
    return f"games per run to detect a change of the tolerance (80% power): {'; '.join(parts)}"
