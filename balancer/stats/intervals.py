"""Intervals for the figures of one run: win shares (seat, bot), means, shares of games.

Every function takes per-game values: games are the independent units (each
game is seeded from its own stream), seats within a game are not. So a bot's
several seats in one game are one cluster, and a split tie's 1/k shares are
used as the numbers they are rather than as coin flips.

Two kinds of interval:

- means of unbounded per-game values (score, margin, length, event counts):
  Student t on the per-game values. Assumes independent games and a sample
  large enough for the central limit theorem (a few dozen games for the
  moderately skewed figures games produce).
- shares in [0, 1] (win shares, share of games a rule fired): Wilson's score
  interval on an *effective* sample size n_eff = p(1 − p) / var(p̂), where
  var(p̂) is estimated from the per-game values (cluster by game). For plain
  0/1 outcomes n_eff = n and this is Wilson's interval; split ties make the
  per-game variance smaller than p(1 − p) and the interval narrower; a bot's
  correlated seats make it wider or narrower as the data say. Wilson rather
  than p ± z·se keeps the interval inside [0, 1] and covering near 0 and 1.
  This design-effect Wilson interval is the Korn–Graubard style adjustment
  surveys use for clustered proportions.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np

Z95 = 1.959963984540054  # two-sided 95% normal quantile


@dataclass(frozen=True)
class Interval:
    """An estimate with its 95% interval, the per-unit count it rests on and its standard error."""

    estimate: float
    low: float
    high: float
    n: int
    se: float

    @property
    def ci95(self) -> list[float]:
        """[low, high], the form report.json stores."""
        return [self.low, self.high]


@functools.lru_cache(maxsize=4096)
def _t_quantile(df: float, level: float = 0.95) -> float:
    """Two-sided t quantile, cached: reports ask for the same few df again and again."""
    from scipy import stats as sps

    if not math.isfinite(df) or df > 1e7:
        return float(sps.norm.ppf(0.5 + level / 2))
    return float(sps.t.ppf(0.5 + level / 2, df))


def _values(values: np.ndarray | list[float], what: str) -> np.ndarray:
    arr = np.asarray(values, dtype=float).ravel()
    if arr.size == 0:
        raise ValueError(f"{what} of no values")
    if not np.isfinite(arr).all():
        raise ValueError(f"{what}: values must be finite")
    return arr


def mean_interval(values: np.ndarray | list[float], level: float = 0.95) -> Interval:
    """Mean of independent per-game values with its Student t interval (df = n − 1).

    Assumes the games are independent and identically distributed and n large
    enough for the mean to be near normal. One game, or all values equal,
    gives a zero-width interval at the value (there is no spread to estimate).
    """
    arr = _values(values, "mean interval")
    n = arr.size
    mean = float(arr.mean())
    if n < 2:
        return Interval(mean, mean, mean, n, 0.0)
    se = float(arr.std(ddof=1)) / math.sqrt(n)
    half = _t_quantile(n - 1, level) * se
    return Interval(mean, mean - half, mean + half, n, se)


def wilson_effective(
    estimate: float, variance: float, n: int, level: float = 0.95
) -> tuple[float, float]:
    """Wilson score interval for a share `estimate` whose estimator has variance `variance`.

    Uses the effective sample size n_eff = p(1 − p) / variance. When that is
    undefined (p at 0 or 1, or no variance) falls back to the nominal `n`,
    which gives Wilson's interval for n plain 0/1 outcomes: at p = 0 that is
    [0, z²/(n + z²)], the interval that says "never seen, but could be rare".
    Assumes `variance` is a consistent estimate (enough independent games).
    """
    if n <= 0:
        return (0.0, 1.0)
    p = min(1.0, max(0.0, float(estimate)))
    n_eff = float(n)
    if 0.0 < p < 1.0 and variance > 0:
        n_eff = p * (1.0 - p) / variance
    z = _t_quantile(math.inf, level)
    z2 = z * z
    denom = 1.0 + z2 / n_eff
    centre = (p + z2 / (2 * n_eff)) / denom
    half = z * math.sqrt(p * (1 - p) / n_eff + z2 / (4 * n_eff * n_eff)) / denom
    low = 0.0 if p == 0 else max(0.0, centre - half)
    high = 1.0 if p == 1 else min(1.0, centre + half)
    return (low, high)


def ratio_influence(values: np.ndarray, weights: np.ndarray) -> tuple[float, np.ndarray]:
    """Ratio r = Σ values / Σ weights and each game's influence (y − r·m) / m̄ on it.

    The linearisation of a ratio estimator: var(r̂) ≈ Σ u² / (n (n − 1)) with
    u the influences (which sum to 0). With all weights 1 the ratio is the
    mean and u = y − ȳ. A game with weight 0 (the bot sat out) has influence 0.
    Assumes Σ weights > 0 and independent games.
    """
    y = np.asarray(values, dtype=float).ravel()
    m = np.asarray(weights, dtype=float).ravel()
    if y.shape != m.shape:
        raise ValueError("values and weights must have one entry per game")
    total = float(m.sum())
    if total <= 0:
        raise ValueError("ratio of no weight (the bot never sat)")
    r = float(y.sum()) / total
    return r, (y - r * m) / (total / m.size)


def share_interval(
    values: np.ndarray | list[float],
    weights: np.ndarray | list[float] | None = None,
    level: float = 0.95,
) -> Interval:
    """A share in [0, 1] from per-game values, clustered by game, with its Wilson interval.

    Without `weights`, the share is the mean of per-game values in [0, 1] (a
    seat's win share with split ties as 1/k, or 0/1 "the rule fired").
    With `weights` m_g (a bot's seats in game g) and values y_g (the bot's win
    shares summed over those seats), the share is Σy / Σm: per seat-game, as
    reports show, with the variance computed over games, so a bot's seats in
    one game are one cluster. Assumes independent games; see the module note
    for the interval.
    """
    y = _values(values, "share interval")
    m = np.ones_like(y) if weights is None else _values(weights, "share interval weights")
    r, u = ratio_influence(y, m)
    n = y.size
    # Σu²/n² (not n(n − 1)): for plain 0/1 values this makes n_eff = n exactly,
    # so the interval is Wilson's; the difference is 1/n, nothing at report sizes.
    variance = float((u**2).sum()) / (n * n)
    # The nominal count for the fallback: seat-games for a bot, games otherwise.
    nominal = int(round(float(m.sum())))
    low, high = wilson_effective(r, variance, nominal, level)
    return Interval(r, low, high, n, math.sqrt(variance))


def seat_share_intervals(wins: np.ndarray, level: float = 0.95) -> list[Interval]:
    """Per seat, its win share with the interval from the per-game shares (split ties kept).

    `wins` is games × seats, each row the game's win shares (1, 1/k for a k-way
    tie, 0). Assumes independent games.
    """
    wins = np.asarray(wins, dtype=float)
    if wins.ndim != 2:
        raise ValueError("wins must be a games × seats matrix")
    return [share_interval(wins[:, s], level=level) for s in range(wins.shape[1])]


def bot_columns(wins: np.ndarray, labels: np.ndarray, label: str) -> tuple[np.ndarray, np.ndarray]:
    """Per game, the bot's summed win shares y and its number of seats m."""
    held = np.asarray(labels) == label
    return (np.asarray(wins, dtype=float) * held).sum(axis=1), held.sum(axis=1).astype(float)


def bot_share_intervals(
    wins: np.ndarray, labels: np.ndarray, level: float = 0.95
) -> dict[str, Interval]:
    """Per bot label: win share per seat-game, its interval clustered by game, sorted by label.

    `wins` and `labels` are games × seats (the label of the bot at each seat
    in each game). A bot holding 4 of 5 seats has y = 1 − (the fifth seat's
    share) in every game, so its seats' shares are strongly dependent: the
    interval uses the per-game totals, not 4n independent seat-games.
    Assumes independent games.
    """
    labels = np.asarray(labels).astype(str)
    out: dict[str, Interval] = {}
    for label in sorted(set(labels.ravel().tolist())):
        y, m = bot_columns(wins, labels, label)
        out[label] = share_interval(y, m, level=level)
    return out
