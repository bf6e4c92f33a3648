"""How much of the outcome the deal explains: a one-way random-effects split, with an interval.

The table's rows are groups (in duplicate play, one seat's hand of one deal), its
columns the same number k of outcomes in each group (the win share of that hand
played by each bot). The one-way analysis of variance splits the spread:

    MSB = k · Σ_g (ȳ_g − ȳ)² / (G − 1)          between groups
    MSW = Σ_g Σ_j (y_gj − ȳ_g)² / (G (k − 1))   within groups
    share = (MSB − MSW) / (MSB + (k − 1) MSW)

`share` is the intraclass correlation ICC(1): the between-group variance component
over the total, the part of an outcome's variance that is the group's (the deal's)
whoever plays it. 1: every bot gets the same outcome from a hand; 0: the hand tells
nothing. The estimator can fall below 0 when groups differ less than chance would
make them: the share is clipped to [0, 1] (`raw` keeps the unclipped value).

The interval is a percentile bootstrap over clusters of groups (a deal's seats: their
outcomes are tied, the win shares of one game summing to 1), so it assumes
independent clusters, not normal outcomes; its resamples are drawn from a fixed
seed, so the same table always gives the same interval.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

BOOTSTRAP_RESAMPLES = 2000
BOOTSTRAP_SEED = 20261206


@dataclass(frozen=True)
class Split:
    """The split of one table: mean squares, the share and its 95% interval."""

    groups: int
    per_group: int
    between: float  # MSB
    within: float  # MSW
    raw: float  # (MSB − MSW) / (MSB + (k − 1) MSW); NaN when every outcome is the same
    share: float  # raw clipped to [0, 1]
    low: float
    high: float
    # The bootstrap's standard deviation of the share (0: no resample split): what a diff's
    # z-test of two runs' shares takes as the share's standard error.
    se: float = 0.0


def _shares(
    count: np.ndarray, sums: np.ndarray, squares: np.ndarray, within: np.ndarray, k: int
) -> np.ndarray:
    """The clipped share for each row of cluster weights `count` (resamples × clusters),
    from each cluster's number of groups, Σ group means, Σ group means² and within SS."""
    groups = count @ sums[0]
    mean_sum = count @ sums[1]
    mean_squares = count @ squares
    within_ss = count @ within
    between = k * (mean_squares - mean_sum**2 / groups) / (groups - 1)
    within_ms = within_ss / (groups * (k - 1))
    denominator = between + (k - 1) * within_ms
    with np.errstate(divide="ignore", invalid="ignore"):
        raw = (between - within_ms) / denominator
    return np.clip(raw, 0.0, 1.0)


def deal_share(table: np.ndarray, clusters: np.ndarray | None = None, level: float = 0.95) -> Split:
    """The split of `table` (groups × k), its `level` interval (95% unless told)
    resampling `clusters` (one label per group; None: every group its own cluster).
    Needs 2 groups and k ≥ 2."""
    y = np.asarray(table, dtype=float)
    if y.ndim != 2 or y.shape[0] < 2 or y.shape[1] < 2:
        raise ValueError("a variance split needs at least 2 groups of at least 2 outcomes")
    g, k = y.shape
    means = y.mean(axis=1)
    between = k * float(((means - means.mean()) ** 2).sum()) / (g - 1)
    within_ss = ((y - means[:, None]) ** 2).sum(axis=1)
    within = float(within_ss.sum()) / (g * (k - 1))
    denominator = between + (k - 1) * within
    raw = (between - within) / denominator if denominator > 0 else math.nan
    share = min(1.0, max(0.0, raw)) if denominator > 0 else math.nan
    labels = np.arange(g) if clusters is None else np.asarray(clusters)
    names, index = np.unique(labels, return_inverse=True)
    c = names.size
    if c < 2 or math.isnan(raw):
        return Split(g, k, between, within, raw, share, share, share)
    # Each cluster's sufficient statistics: a resample's split is a weighted sum of them.
    per = np.zeros((2, c))
    np.add.at(per[0], index, 1.0)
    np.add.at(per[1], index, means)
    squares = np.zeros(c)
    np.add.at(squares, index, means**2)
    within_per = np.zeros(c)
    np.add.at(within_per, index, within_ss)
    rng = np.random.default_rng(BOOTSTRAP_SEED)
    count = rng.multinomial(c, np.full(c, 1.0 / c), size=BOOTSTRAP_RESAMPLES).astype(float)
    shares = _shares(count, per, squares, within_per, k)
    # A resample of one repeated cluster, or of identical outcomes, has no split: left out.
    shares = shares[np.isfinite(shares)]
    if shares.size == 0:
        return Split(g, k, between, within, raw, share, share, share)
    tail = 100 * (1 - level) / 2
    low, high = np.percentile(shares, [tail, 100 - tail])
    se = float(shares.std(ddof=1)) if shares.size > 1 else 0.0
    return Split(g, k, between, within, raw, share, float(low), float(high), se)
