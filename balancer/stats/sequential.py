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
- `AnytimeDiff`: every row of a paired diff (`diff --until-decided`), with
  a CS and an anytime-valid p-value per row, Holm over the rows, and
  `decided` once every primary row (the win shares) is `changed` or
  `equivalent`.
- `UntilWatch`: `run --until "win_ci<=W"`, every seat's and bot's win-share
  CS at most W wide.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from balancer.errors import UserError

_CHUNK = 512  # observations per vectorised step (memory: chunk × grid floats)
# A step costs (observations × candidates still alive). At the start every grid point is
# alive, and most die within the first few dozen values: short steps while many are alive
# drop them sooner (a 4001-point diff row's first 125 values cost a tenth as much).
_CELLS = 32_768  # observations × alive candidates per step, at most (but ≥ _MIN_STEP rows)
_MIN_STEP = 8


class BettingCS:
    """Hedged betting confidence sequence for the mean of independent values in [lo, hi].

    Feed values with `extend` in any chunks (the result does not depend on
    the chunking); `interval()` is the current CS, valid simultaneously over
    all sample sizes with probability ≥ 1 − alpha. Assumes independent values
    with a common mean, each inside [lo, hi] (checked).

    The bets are the paper's predictable plug-in ones, λ_t ∝ 1/sqrt(t log t),
    which keep the CS reasonably tight at every n; with `n_star` they are
    λ_t ∝ 1/sqrt(n_star) instead (its eq. (27) for a planned sample size),
    tightest near n_star games (about 1.4× a fixed-n interval there) and
    still valid at every n: any bet chosen from past values is.

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
        n_star: int | None = None,
    ) -> None:
        if not 0 < alpha < 1:
            raise ValueError("alpha must be in (0, 1)")
        if not hi > lo:
            raise ValueError("the range needs hi > lo")
        self.alpha, self.lo, self.hi, self.c = alpha, lo, hi, truncation
        if n_star is not None and n_star < 1:
            raise ValueError("n_star must be at least 1")
        self.n_star = n_star
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
        with np.errstate(divide="ignore"):
            cap_plus, cap_minus = self.c / m, self.c / (1 - m)
        dx = x[:, None] - m[None, :]
        # In place, the same operations in the same order: log1p(λ⁺(x − m)) and
        # log1p(−λ⁻(x − m)), summed over time from `start`.
        plus = np.minimum(lam[:, None], cap_plus[None, :])
        plus *= dx
        np.log1p(plus, out=plus)
        plus = np.cumsum(plus, axis=0, out=plus)
        plus += start[0]
        minus = np.minimum(lam[:, None], cap_minus[None, :])
        np.negative(minus, out=minus)
        minus *= dx
        np.log1p(minus, out=minus)
        minus = np.cumsum(minus, axis=0, out=minus)
        minus += start[1]
        return plus, minus

    def extend(self, values: np.ndarray | list[float], track: bool = False) -> np.ndarray | None:
        """Take in new values in order. With `track`, return the CS after each one (k × 2)."""
        x_all = self._scaled(values)
        path: list[np.ndarray] | None = [] if track else None
        start = 0
        while start < x_all.size:
            alive = int(np.count_nonzero(self.alive))
            step = min(_CHUNK, max(_MIN_STEP, _CELLS // max(alive, 1)))
            x = x_all[start : start + step]
            start += step
            k = x.size
            t = self.n + np.arange(1, k + 1)  # index of each new value
            sums = self._sum + np.cumsum(x)
            mu = (0.5 + sums) / (t + 1)
            devs = self._dev + np.cumsum((x - mu) ** 2)
            # σ̂²_{t−1}: built from values before x_t only, so the bet is predictable.
            prev_dev = np.concatenate([[self._dev], devs[:-1]])
            sigma2 = (0.25 + prev_dev) / t
            if self.n_star is None:
                lam = np.sqrt(2 * math.log(2 / self.alpha) / (sigma2 * t * np.log1p(t)))
            else:
                lam = np.sqrt(2 * math.log(2 / self.alpha) / (sigma2 * self.n_star))
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


DIFF_GRID = 4001  # candidate means per row's betting CS: resolution 0.001 on a change in [-1, 1]


@dataclass
class AnytimeRow:
    """One row of an anytime-valid diff: its CS on the per-game change B − A, and a p-value.

    Bounded rows (`bounded`: per-game values of both runs in [0, 1], so the
    change is in [-1, 1]) get the exact betting CS; the rest the asymptotic
    CS. `sums` keep n, Σ and Σ² of A's and B's per-game values, for a
    tolerance given in per-game sds.
    """

    figure: str
    kind: str
    cs: BettingCS | AsymptoticCS
    bounded: bool
    sums: np.ndarray = field(default_factory=lambda: np.zeros(5))  # n, Σa, Σa², Σb, Σb²
    varied: bool = False  # some pair's change was not 0: the row has something to test

    def extend(self, a: np.ndarray, b: np.ndarray) -> None:
        d = b - a
        self.cs.extend(d)
        self.sums += [a.size, a.sum(), (a**2).sum(), b.sum(), (b**2).sum()]
        self.varied |= bool(np.any(d != 0))

    def interval(self) -> tuple[float, float]:
        return self.cs.interval()

    def p_value(self) -> float:
        """Anytime-valid p of "no change": valid at any stopping time, so Holm may combine them."""
        if isinstance(self.cs, BettingCS):
            return self.cs.p_value()
        return asymptotic_p_value(self.cs)

    def per_game_sd(self) -> float:
        """The pooled per-game sd of A's and B's values (for 'sd' tolerances)."""
        n, sa, qa, sb, qb = self.sums
        if n < 2:
            return 0.0
        var_a = max(0.0, (qa - sa * sa / n) / (n - 1))
        var_b = max(0.0, (qb - sb * sb / n) / (n - 1))
        return math.sqrt((var_a + var_b) / 2)


def asymptotic_p_value(cs: AsymptoticCS) -> float:
    """The smallest α at which `cs`'s interval would exclude 0: its anytime p-value.

    Inverts the half-width formula of AsymptoticCS at the current n (the
    boundary holds at every n at once, so reading it at a stopping time is
    valid, asymptotically).
    """
    if cs.n < 2:
        return 1.0
    mean = cs._sum / cs.n + (cs._shift or 0.0)
    var = max(0.0, (cs._sumsq - cs.n * (cs._sum / cs.n) ** 2) / (cs.n - 1))
    if var == 0:
        return 1.0 if mean == 0 else 0.0
    la = -2 * math.log(cs.alpha)
    rho2 = (la + math.log(la + 1)) / cs.n_star
    n = cs.n
    exponent = mean * mean * n * n * rho2 / (2 * var * (n * rho2 + 1))
    return float(min(1.0, math.sqrt(n * rho2 + 1) * math.exp(-exponent)))


def decide(low: float, high: float, tolerance: float | None = None) -> str:
    """'changed' when the interval excludes 0, 'equivalent' when inside ±tolerance, else ''."""
    if low > 0 or high < 0:
        return "changed"
    if tolerance is not None and -tolerance < low and high < tolerance:
        return "equivalent"
    return ""


def holm_adjust(p_values: Mapping[str, float]) -> dict[str, float]:
    """Holm step-down adjusted p-values by name (valid under any dependence)."""
    from balancer.stats.compare import holm

    names = list(p_values)
    adjusted = holm([p_values[name] for name in names])
    return {name: float(p) for name, p in zip(names, adjusted, strict=True)}


@dataclass
class AnytimeDiff:
    """Every row of a paired diff, watched batch by batch; `decided` says when to stop.

    Feed each batch's (A, B) figure pairs (stats.compare.Figure, per game,
    game g of A paired with game g of B) with `update`, in game order; the
    result does not depend on how the games were batched. Each row's 95% CS
    and anytime p-value stay valid at any stopping time, however it was
    chosen, so:

    - a row is `changed` when its p, Holm-adjusted over the rows that have
      shown any variation, is at most alpha (the chance of any false
      "changed" in the table, whenever the diff stops, is at most alpha);
    - `equivalent` when its tolerance is given and its 95% CS lies inside
      ±tolerance (each side's error at most alpha / 2, at any stopping time);
    - `decided` once every primary row (the win shares) is one or the other.

    Assumes independent pairs of games with a common mean change; bounded
    rows (win shares, shares of games) need per-game values in [0, 1]; a
    bot's per-game value is its summed shares over its seats, divided by
    them (the same number of seats in every game, as every balancer run).
    """

    alpha: float = 0.05
    tolerances: Mapping[str, str] | None = None
    primary_kinds: tuple[str, ...] = ("win",)
    n_star: int = 5000  # the asymptotic CSs are tightest near this many games
    rows: dict[str, AnytimeRow] = field(default_factory=dict)
    games: int = 0

    def update(self, pairs: Sequence[tuple[Any, Any]]) -> None:
        """Take the next batch's figure pairs (the same figures, in the same order, each batch)."""
        for fig_a, fig_b in pairs:
            a = _per_game(fig_a)
            b = _per_game(fig_b)
            row = self.rows.get(fig_a.name)
            if row is None:
                bounded = fig_a.kind in ("win", "share")
                cs: BettingCS | AsymptoticCS
                if bounded:
                    cs = BettingCS(
                        alpha=0.05,
                        lo=-1.0,
                        hi=1.0,
                        grid=DIFF_GRID,
                        null=0.0,
                        n_star=self._bet_horizon(fig_a.kind),
                    )
                else:
                    cs = AsymptoticCS(alpha=0.05, n_star=self.n_star)
                row = self.rows[fig_a.name] = AnytimeRow(fig_a.name, fig_a.kind, cs, bounded)
            row.extend(a, b)
        if pairs:
            self.games += len(pairs[0][0].values)

    def _bet_horizon(self, kind: str) -> int | None:
        """Games a betting row's bets are tuned for: where its CS can fit inside ±tolerance.

        Half-width σ·sqrt(2 log(2/α) / n*) = tolerance with σ² = 1/4 (a
        change of shares that is usually small), and never past the most
        games the diff may play. None (the plug-in bets, good at every n)
        when the kind's tolerance is not an absolute number.
        """
        from balancer.stats.compare import parse_tolerance

        spec = (self.tolerances or {}).get(kind)
        if not spec:
            return None
        value, relative = parse_tolerance(spec)
        if relative:
            return None
        return max(1, min(self.n_star, math.ceil(2 * math.log(2 / 0.05) * 0.25 / value**2)))

    def tolerance(self, row: AnytimeRow) -> float | None:
        from balancer.stats.compare import parse_tolerance

        spec = (self.tolerances or {}).get(row.kind)
        if not spec:
            return None
        value, relative = parse_tolerance(spec)
        if not relative:
            return value
        sd = row.per_game_sd()
        return value * sd if sd > 0 else None

    def adjusted(self, family: Sequence[str] | None = None) -> dict[str, float]:
        """Holm-adjusted anytime p of the family (default: every row that varied so far)."""
        names = family if family is not None else [f for f, r in self.rows.items() if r.varied]
        return holm_adjust({name: self.rows[name].p_value() for name in names})

    def verdicts(self, family: Sequence[str] | None = None) -> dict[str, str]:
        adjusted = self.adjusted(family)
        out = {}
        for figure, row in self.rows.items():
            if adjusted.get(figure, 1.0) <= self.alpha:
                out[figure] = "changed"
                continue
            low, high = row.interval()
            tol = self.tolerance(row)
            inside = tol is not None and -tol < low and high < tol
            out[figure] = "equivalent" if inside else ""
        return out

    @property
    def changed(self) -> bool:
        return "changed" in self.verdicts().values()

    @property
    def decided(self) -> bool:
        """Every primary row is `changed` or `equivalent`."""
        verdicts = self.verdicts()
        primary = [v for f, v in verdicts.items() if self.rows[f].kind in self.primary_kinds]
        return bool(primary) and all(primary)


def _per_game(figure: Any) -> np.ndarray:
    """A figure's per-game values; a ratio's (a bot's) summed shares over its seats that game."""
    values = np.asarray(figure.values, dtype=float)
    if figure.weights is None:
        return values
    weights = np.asarray(figure.weights, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(weights > 0, values / np.where(weights > 0, weights, 1), 0.0)


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

    def __init__(self, players: int, alpha: float = 0.05, width: float | None = None) -> None:
        self.alpha = alpha
        # Bets tuned to the games at which a share of variance ≤ 1/4 reaches the width:
        # half-width σ·sqrt(2 log(2/α) / n*) = width / 2 with σ² = 1/4.
        self.n_star = (
            None if width is None else max(1, math.ceil(2 * math.log(2 / alpha) / width**2))
        )
        self.seats = [self._cs() for _ in range(players)]
        self.bots: dict[str, BettingCS] = {}

    def update(self, wins: np.ndarray, bot_shares: Mapping[str, np.ndarray] | None = None) -> None:
        wins = np.asarray(wins, dtype=float)
        for s, cs in enumerate(self.seats):
            cs.extend(wins[:, s])
        for label, shares in (bot_shares or {}).items():
            cs = self.bots.setdefault(label, self._cs())
            cs.extend(shares)

    def _cs(self) -> BettingCS:
        return BettingCS(alpha=self.alpha, grid=MONITOR_GRID, n_star=self.n_star)

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
    comes from table.seat_slots). `stopped_at` is the number of games
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
        self.monitor = WinShareMonitor(len(slot_labels), alpha, width=rule.width)
        self.distinct = sorted(set(slot_labels))
        self.games = 0
        self.stopped_at: int | None = None

    def __call__(self, chunk: Any) -> bool:
        from balancer import table

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
