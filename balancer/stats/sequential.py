"""Anytime-valid intervals: look after every chunk of games, stop when you like.

A fixed-n interval checked again and again until it says what one hoped
inflates its error (10 looks turn 5% into about 19% two-sided). A confidence
sequence (CS) is a sequence of intervals that covers the truth at *every*
sample size at once with probability ≥ 1 − α, so stopping at any time,
chosen by looking, keeps the guarantee.

- `BettingCS`: the hedged betting CS of Waudby-Smith & Ramdas (JRSS-B 2024,
  "Estimating means of bounded random variables by betting", Theorem 3 with
  the predictable plug-in bets of eq. (26)) for the mean of independent
  values in a known range [lo, hi]. Exact, nonasymptotic: assumes only
  independence, a common mean and the range. Computed on a grid of candidate
  means (the reported bounds are rounded outwards by one grid step), and
  intersected over time.
- `AsymptoticCS`: the asymptotic CS of Waudby-Smith, Arbour, Sinha, Kennedy
  & Ramdas (Annals of Statistics 2024, "Time-uniform central limit theory
  and asymptotic confidence sequences", Theorem 2.2), for unbounded values
  (scores, lengths): valid as the sample grows, assumes iid values with a
  finite moment beyond the second.
- `paired_cs`: a CS for the mean per-game difference B − A of paired values.
- `SequentialDiff`: watches a set of paired rows and says when the diff is
  decided: some row's CS excludes 0 ("changed"), or every row's CS lies
  inside its tolerance ("equivalent"). Bonferroni over the rows (α / rows)
  keeps the chance of any false "changed", at any stopping time, ≤ α.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from balancer.errors import UserError

_CHUNK = 512  # observations per vectorised step (memory: chunk × grid floats)


class BettingCS:
    """Hedged betting confidence sequence for the mean of independent values in [lo, hi].

    Feed values with `extend` in any chunks (the result does not depend on
    the chunking); `interval()` is the current CS, valid simultaneously over
    all sample sizes with probability ≥ 1 − alpha. Assumes independent values
    with a common mean, each inside [lo, hi] (checked).

    With `null` (a candidate mean, e.g. 0 for a difference) the bettor's
    wealth against that one mean is followed at every step, dead or alive,
    and `p_value()` is the anytime-valid p-value of "the mean is `null`":
    min(1, 2 / max over time of max(K⁺, K⁻)). P(it ever drops to a) ≤ a for
    every a at once (Ville's inequality on each side, a/2 each), so it may
    be read at a stopping time chosen by looking, and Holm's correction
    over several such p-values keeps the family-wise error.
    """

    def __init__(
        self,
        alpha: float = 0.05,
        lo: float = 0.0,
        hi: float = 1.0,
        grid: int = 1001,
        truncation: float = 0.5,
        null: float | None = None,
    ) -> None:
        if not 0 < alpha < 1:
            raise ValueError("alpha must be in (0, 1)")
        if not hi > lo:
            raise ValueError("the range needs hi > lo")
        self.alpha, self.lo, self.hi, self.c = alpha, lo, hi, truncation
        self.m = np.linspace(0.0, 1.0, grid)
        self.step = 1.0 / (grid - 1)
        self.log_plus = np.zeros(grid)
        self.log_minus = np.zeros(grid)
        self.alive = np.ones(grid, dtype=bool)
        self.n = 0
        self._sum = 0.0  # Σ x (on the [0, 1] scale)
        self._dev = 0.0  # Σ (x_i − μ̂_i)², μ̂_i including x_i (the paper's σ̂² recursion)
        self._bounds = (lo, hi)
        self._threshold = math.log(2.0 / alpha)  # θ = 1/2 each side: reject at θK ≥ 1/α
        self.null = null
        if null is not None and not lo <= null <= hi:
            raise ValueError("the null mean must lie in the range")
        self._null_m = None if null is None else np.array([(null - lo) / (hi - lo)])
        self._null_log = np.zeros(2)  # log K⁺, log K⁻ against the null mean
        self._null_max = 0.0  # running max over time of log max(K⁺, K⁻)

    def _scaled(self, values: np.ndarray | list[float]) -> np.ndarray:
        x = (np.asarray(values, dtype=float).ravel() - self.lo) / (self.hi - self.lo)
        if x.size and (x.min() < -1e-12 or x.max() > 1 + 1e-12 or not np.isfinite(x).all()):
            raise ValueError(f"values outside the declared range [{self.lo}, {self.hi}]")
        return np.clip(x, 0.0, 1.0)

    def _log_wealth(
        self, x: np.ndarray, lam: np.ndarray, m: np.ndarray, start: tuple[np.ndarray, np.ndarray]
    ) -> tuple[np.ndarray, np.ndarray]:
        """Cumulative log-wealth of both bettors (k × len(m) each) against candidate means m."""
        mm = m[None, :]
        with np.errstate(divide="ignore"):
            lam_plus = np.minimum(lam[:, None], self.c / mm)
            lam_minus = np.minimum(lam[:, None], self.c / (1 - mm))
        plus = start[0] + np.cumsum(np.log1p(lam_plus * (x[:, None] - mm)), axis=0)
        minus = start[1] + np.cumsum(np.log1p(-lam_minus * (x[:, None] - mm)), axis=0)
        return plus, minus

    def extend(self, values: np.ndarray | list[float], track: bool = False) -> np.ndarray | None:
        """Take in new values in order. With `track`, return the CS after each one (k × 2)."""
        x_all = self._scaled(values)
        path: list[np.ndarray] | None = [] if track else None
        for start in range(0, x_all.size, _CHUNK):
            x = x_all[start : start + _CHUNK]
            k = x.size
            t = self.n + np.arange(1, k + 1)  # index of each new value
            sums = self._sum + np.cumsum(x)
            mu = (0.5 + sums) / (t + 1)
            devs = self._dev + np.cumsum((x - mu) ** 2)
            # σ̂²_{t−1}: built from values before x_t only, so the bet is predictable.
            prev_dev = np.concatenate([[self._dev], devs[:-1]])
            sigma2 = (0.25 + prev_dev) / t
            lam = np.sqrt(2 * math.log(2 / self.alpha) / (sigma2 * t * np.log1p(t)))
            # Only candidates still alive are bet on: a rejected mean stays out (running
            # intersection), so its wealth is never needed again. After the first few
            # hundred values that is a few dozen of the grid's points, not all of them.
            idx = np.flatnonzero(self.alive)
            if idx.size:
                plus, minus = self._log_wealth(
                    x, lam, self.m[idx], (self.log_plus[idx], self.log_minus[idx])
                )
                rejected = np.maximum(plus, minus) >= self._threshold
                alive_path = ~np.logical_or.accumulate(rejected, axis=0)
                if path is not None:
                    path.append(self._path_bounds(alive_path, idx))
                self.alive[idx] = alive_path[-1]
                self.log_plus[idx], self.log_minus[idx] = plus[-1], minus[-1]
            elif path is not None:
                path.append(np.tile(self._bounds_of(self.alive), (k, 1)))
            if self._null_m is not None:
                plus, minus = self._log_wealth(
                    x, lam, self._null_m, (self._null_log[:1], self._null_log[1:])
                )
                self._null_log = np.array([plus[-1, 0], minus[-1, 0]])
                self._null_max = max(self._null_max, float(np.maximum(plus, minus).max()))
            self.n += k
            self._sum, self._dev = float(sums[-1]), float(devs[-1])
            self._bounds = self._bounds_of(self.alive)
        if path is None:
            return None
        return np.concatenate(path) if path else np.empty((0, 2))

    def _path_bounds(self, alive: np.ndarray, idx: np.ndarray) -> np.ndarray:
        """Bounds after each row of a (k × len(idx)) alive mask over grid points idx (k × 2)."""
        any_alive = alive.any(axis=1)
        first = idx[np.argmax(alive, axis=1)]
        last = idx[alive.shape[1] - 1 - np.argmax(alive[:, ::-1], axis=1)]
        low = np.maximum(0.0, self.m[first] - self.step)
        high = np.minimum(1.0, self.m[last] + self.step)
        span = self.hi - self.lo
        out = np.column_stack([self.lo + span * low, self.lo + span * high])
        if not any_alive.all():
            # Rows with nothing left: collapsed, as interval() does.
            out[~any_alive] = self._bounds_of(np.zeros_like(self.alive))
        return out

    def _bounds_of(self, alive: np.ndarray) -> tuple[float, float]:
        idx = np.flatnonzero(alive)
        if idx.size == 0:
            # Only on a miss (probability ≤ α): keep the last interval, collapsed, rather than fail.
            low, high = self._bounds
            centre = (low + high) / 2
            return (centre, centre)
        low = max(0.0, self.m[idx[0]] - self.step)
        high = min(1.0, self.m[idx[-1]] + self.step)
        span = self.hi - self.lo
        return (self.lo + span * low, self.lo + span * high)

    def interval(self) -> tuple[float, float]:
        """The current CS [low, high] on the values' own scale."""
        return self._bounds

    def p_value(self) -> float:
        """Anytime-valid p-value of "the mean is `null`" (needs `null`); 1 before any value."""
        if self._null_m is None:
            raise ValueError("p_value needs the null mean given to BettingCS(null=...)")
        return float(min(1.0, 2.0 * math.exp(-self._null_max)))

    @property
    def mean(self) -> float:
        return self.lo + (self.hi - self.lo) * self._sum / self.n if self.n else math.nan


@dataclass
class AsymptoticCS:
    """Asymptotic (Robbins normal-mixture) confidence sequence for the mean of iid values.

    Half-width at n: σ̂ · sqrt(2(nρ² + 1) / (n²ρ²) · log(sqrt(nρ² + 1) / α)), with ρ
    tuned to be tightest near `n_star` games. Assumes iid values with finite
    variance (and a little more); valid as n grows, not at tiny n.
    """

    alpha: float = 0.05
    n_star: int = 5000
    n: int = 0
    _sum: float = 0.0
    _sumsq: float = 0.0
    _shift: float | None = None  # first value, subtracted for numerical stability

    def extend(self, values: np.ndarray | list[float]) -> None:
        x = np.asarray(values, dtype=float).ravel()
        if x.size == 0:
            return
        if self._shift is None:
            self._shift = float(x[0])
        x = x - self._shift
        self.n += x.size
        self._sum += float(x.sum())
        self._sumsq += float((x**2).sum())

    def interval(self) -> tuple[float, float]:
        if self.n < 2:
            return (-math.inf, math.inf)
        mean = self._sum / self.n
        var = max(0.0, (self._sumsq - self.n * mean**2) / (self.n - 1))
        la = -2 * math.log(self.alpha)
        rho2 = (la + math.log(la + 1)) / self.n_star
        n = self.n
        half = math.sqrt(var) * math.sqrt(
            2 * (n * rho2 + 1) / (n * n * rho2) * math.log(math.sqrt(n * rho2 + 1) / self.alpha)
        )
        centre = mean + (self._shift or 0.0)
        return (centre - half, centre + half)


def paired_cs(
    a: np.ndarray,
    b: np.ndarray,
    alpha: float = 0.05,
    bounds: tuple[float, float] | None = (0.0, 1.0),
) -> tuple[float, float]:
    """CS for the mean per-game difference B − A of paired values.

    With `bounds` (both runs' values inside [lo, hi]) the betting CS on
    d ∈ [lo − hi, hi − lo]; with None the asymptotic CS. Assumes game g of A
    and game g of B are a pair and pairs are independent.
    """
    d = np.asarray(b, dtype=float) - np.asarray(a, dtype=float)
    cs: BettingCS | AsymptoticCS
    if bounds is None:
        cs = AsymptoticCS(alpha=alpha)
    else:
        width = bounds[1] - bounds[0]
        cs = BettingCS(alpha=alpha, lo=-width, hi=width)
    cs.extend(d)
    return cs.interval()


def decide(low: float, high: float, tolerance: float | None = None) -> str:
    """'changed' when the interval excludes 0, 'equivalent' when inside ±tolerance, else ''."""
    if low > 0 or high < 0:
        return "changed"
    if tolerance is not None and -tolerance < low and high < tolerance:
        return "equivalent"
    return ""


@dataclass
class SequentialRow:
    """One watched row: its CS on the paired difference and its tolerance (None: none)."""

    figure: str
    cs: BettingCS | AsymptoticCS
    tolerance: float | None = None

    @property
    def verdict(self) -> str:
        return decide(*self.cs.interval(), self.tolerance)


@dataclass
class SequentialDiff:
    """Watches paired rows chunk by chunk; `decided` says whether to stop.

    Add rows with `add(figure, bounds, tolerance)`: bounds (lo, hi) of the
    per-game values of both runs (win shares and fired/not: (0, 1)) give an
    exact betting CS; None gives the asymptotic CS. Each row gets α / rows,
    so P(any false "changed" at any stopping time) ≤ α when the rows are
    fixed before the first look. Assumes paired runs (same seed; game g of
    A and B share the deal) and independent games.
    """

    alpha: float = 0.05
    rows: dict[str, SequentialRow] = field(default_factory=dict)
    planned_rows: int | None = None  # the family size (the Bonferroni count), fixed up front
    grid: int = 1001  # candidate means per betting CS: resolution 2/grid on a difference in [-1, 1]

    def _row_alpha(self) -> float:
        return self.alpha / max(1, self.planned_rows or len(self.rows) or 1)

    def add(self, figure: str, bounds: tuple[float, float] | None, tolerance: float | None) -> None:
        if self.planned_rows is None:
            raise ValueError("set planned_rows before adding rows (the Bonferroni count)")
        if len(self.rows) >= self.planned_rows:
            raise ValueError("more rows than planned_rows")
        cs: BettingCS | AsymptoticCS
        if bounds is None:
            cs = AsymptoticCS(alpha=self._row_alpha())
        else:
            width = bounds[1] - bounds[0]
            cs = BettingCS(alpha=self._row_alpha(), lo=-width, hi=width, grid=self.grid)
        self.rows[figure] = SequentialRow(figure, cs, tolerance)

    def update(self, a: Mapping[str, np.ndarray], b: Mapping[str, np.ndarray]) -> None:
        """Take the next games' per-game values of each row from A and B (same games, in order)."""
        for figure, row in self.rows.items():
            row.cs.extend(np.asarray(b[figure], dtype=float) - np.asarray(a[figure], dtype=float))

    def verdicts(self) -> dict[str, str]:
        return {figure: row.verdict for figure, row in self.rows.items()}

    @property
    def changed(self) -> bool:
        return any(v == "changed" for v in self.verdicts().values())

    @property
    def decided(self) -> bool:
        """Some row changed, or every row is inside its tolerance."""
        verdicts = list(self.verdicts().values())
        return bool(verdicts) and (
            "changed" in verdicts or all(v == "equivalent" for v in verdicts)
        )


# --- run --until -------------------------------------------------------------------


@dataclass(frozen=True)
class UntilRule:
    """`--until "win_ci<=W"`: stop when every win share's CS is at most W wide."""

    figure: str
    width: float


_UNTIL_FIGURES = ("win_ci",)


def parse_until(text: str) -> UntilRule:
    """Parse 'win_ci<=0.02'. Raises UserError (key --until) on anything else."""
    name, sep, value = text.replace(" ", "").partition("<=")
    if not sep or name not in _UNTIL_FIGURES:
        raise UserError(
            f"expected {' or '.join(f'{f}<=WIDTH' for f in _UNTIL_FIGURES)}, got {text!r}",
            key="--until",
        )
    try:
        width = float(value)
    except ValueError:
        raise UserError(f"width {value!r} is not a number", key="--until") from None
    if not 0 < width <= 1:
        raise UserError(f"width {value!r} must be in (0, 1]", key="--until")
    return UntilRule(name, width)


# Candidate means per win-share CS under --until: the bounds are rounded outwards by one
# step (1/4000), so a width of 0.01 is not inflated by more than 5%.
MONITOR_GRID = 4001


class WinShareMonitor:
    """Betting CSs for every seat's win share (and every bot's per-game share) during a run.

    Feed each finished chunk's games × seats win shares (and, with bots, the
    per-game mean share of each bot's seats, in [0, 1]). Each CS is valid at
    any stopping time (per interval, α each). A bot's per-game mean share
    equals its per-seat-game share when it holds the same number of seats in
    every game (fixed seats, or rotation).
    """

    def __init__(self, players: int, alpha: float = 0.05) -> None:
        self.alpha = alpha
        self.seats = [BettingCS(alpha=alpha, grid=MONITOR_GRID) for _ in range(players)]
        self.bots: dict[str, BettingCS] = {}

    def update(self, wins: np.ndarray, bot_shares: Mapping[str, np.ndarray] | None = None) -> None:
        wins = np.asarray(wins, dtype=float)
        for s, cs in enumerate(self.seats):
            cs.extend(wins[:, s])
        for label, shares in (bot_shares or {}).items():
            cs = self.bots.setdefault(label, BettingCS(alpha=self.alpha, grid=MONITOR_GRID))
            cs.extend(shares)

    def widest(self) -> float:
        widths = [cs.interval()[1] - cs.interval()[0] for cs in [*self.seats, *self.bots.values()]]
        return max(widths) if widths else math.inf

    def done(self, rule: UntilRule) -> bool:
        return self.widest() <= rule.width


class UntilWatch:
    """`on_chunk` for sim.runner.run under `--until`: True once the rule holds.

    Each chunk's per-seat scores become win shares (ties split), and each
    bot's per-game share is the mean over the seats it holds in that game
    (`slot_labels[slot]` names the bot of each slot; which slot sits where
    comes from sim.table.seat_slots). `stopped_at` is the number of games
    seen when the rule first held.
    """

    def __init__(
        self,
        rule: UntilRule,
        slot_labels: list[str],
        rotate: bool,
        higher_is_better: bool,
        alpha: float = 0.05,
    ) -> None:
        self.rule = rule
        self.labels = np.asarray(slot_labels)
        self.rotate = rotate
        self.higher_is_better = higher_is_better
        self.monitor = WinShareMonitor(len(slot_labels), alpha)
        self.distinct = sorted(set(slot_labels))
        self.games = 0
        self.stopped_at: int | None = None

    def __call__(self, chunk: Any) -> bool:
        from balancer.sim import table

        scores = np.asarray(chunk.scores, dtype=float)
        n, players = scores.shape
        wins = table.win_shares_matrix(scores, self.higher_is_better)
        bots = None
        if len(self.distinct) > 1:
            held = self.labels[table.seat_slots(chunk.start, chunk.start + n, players, self.rotate)]
            bots = {}
            for label in self.distinct:
                mask = held == label
                bots[label] = (wins * mask).sum(axis=1) / mask.sum(axis=1)
        self.monitor.update(wins, bots)
        self.games += n
        if self.monitor.done(self.rule):
            self.stopped_at = self.games
            return True
        return False
