"""The numbers: win rates, intervals, tests, spreads, event rates.

Pure functions over numpy arrays and polars frames; no I/O. `report.py` uses
the descriptive half (what one run looks like), `diff.py` the testing half
(whether two runs differ). Figures come back as plain Python floats, never
NaN, and without warnings: a degenerate input (all values equal, nothing to
compare) gets the neutral answer, an interval of [0, 1] or a p-value of 1.
Summaries of no values at all raise ValueError, since a report of no games is
a bug upstream.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import numpy as np
import polars as pl
from scipy import stats as sps

from balancer import table

Z95 = 1.959963984540054  # two-sided 95% normal quantile

ArrayLike = np.ndarray | Sequence[float] | pl.Series


def _array(values: ArrayLike) -> np.ndarray:
    return np.asarray(values, dtype=float).ravel()


def _nonempty(values: ArrayLike, what: str) -> np.ndarray:
    arr = _array(values)
    if arr.size == 0:
        raise ValueError(f"{what} of no values")
    return arr


@contextmanager
def _quiet() -> Iterator[None]:
    """Silence scipy's notes on method fallbacks and small samples (they vary by version).

    The degenerate cases that make scipy warn are handled before the call; what
    is left is advice the user can't act on.
    """
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        warnings.simplefilter("ignore", UserWarning)
        yield


def _p(value: float) -> float:
    """A p-value scipy may have left as NaN (zero variance) becomes 1: no evidence."""
    value = float(value)
    if not math.isfinite(value):
        return 1.0
    return min(1.0, max(0.0, value))


# --- describing one run ------------------------------------------------------


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion of `successes` out of `n`.

    Wilson rather than the textbook p ± z·se because win rates near 0 or 1
    (a dominant seat, a rare rule) are exactly where the latter runs outside
    [0, 1] and undercovers. Fractional successes are allowed: a k-way tie
    gives each winner 1/k of a win.
    """
    if n <= 0:
        return (0.0, 1.0)
    p = min(1.0, max(0.0, successes / n))
    z2 = z * z
    denom = 1.0 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denom
    # At p = 0 or 1 the bound is exactly 0 or 1; rounding must not leave 0.9999999999999999.
    low = 0.0 if p == 0 else max(0.0, centre - half)
    high = 1.0 if p == 1 else min(1.0, centre + half)
    return (low, high)


def seat_advantage(wins: np.ndarray) -> tuple[float, float]:
    """Chi-square statistic and p-value of per-seat win totals against equal shares.

    `wins` is games × seats of win shares. Under "no seat advantage" every seat
    expects total/P wins, so Pearson's goodness-of-fit test with P-1 degrees of
    freedom asks whether the seats' totals stray further than chance allows.
    Split ties make the totals fractional; the approximation still holds.
    """
    wins = np.asarray(wins, dtype=float)
    if wins.ndim != 2:
        raise ValueError("wins must be a games × seats matrix")
    players = wins.shape[1]
    totals = wins.sum(axis=0)
    total = float(totals.sum())
    if players < 2 or total <= 0:
        return (0.0, 1.0)
    expected = total / players
    chi2 = float(((totals - expected) ** 2 / expected).sum())
    return (chi2, _p(sps.chi2.sf(chi2, players - 1)))


def distribution(values: ArrayLike) -> dict[str, float]:
    """Mean, sample sd, min, quartiles and max of a set of values.

    Quartiles interpolate linearly between order statistics, as a spreadsheet's
    QUARTILE.INC does, so a designer re-checking the CSV gets the same numbers.
    """
    arr = _nonempty(values, "distribution")
    q1, median, q3 = np.quantile(arr, [0.25, 0.5, 0.75])
    return {
        "mean": float(arr.mean()),
        "sd": float(arr.std(ddof=1)) if arr.size > 1 else 0.0,
        "min": float(arr.min()),
        "q1": float(q1),
        "median": float(median),
        "q3": float(q3),
        "max": float(arr.max()),
    }


def length_summary(values: ArrayLike) -> dict[str, float]:
    """Mean, sample sd, min and max of game length (in the game's length unit)."""
    full = distribution(values)
    return {key: full[key] for key in ("mean", "sd", "min", "max")}


def event_rates(values: ArrayLike) -> dict[str, float]:
    """How often a rule fires: mean count per game and share of games where it fired at all.

    Both, because "0.3 per game" hides whether it is rare-but-repeated or common-but-single.
    """
    arr = _nonempty(values, "event rates")
    return {"per_game": float(arr.mean()), "share_of_games": float((arr > 0).mean())}


def _seat_games(frame: pl.DataFrame, players: int) -> pl.DataFrame:
    """One row per (game, seat): the bot label there and its win share."""
    return pl.concat(
        [
            frame.select(
                pl.col("game"),
                pl.col(table.bot(s)).alias("bot"),
                pl.col(table.win(s)).cast(pl.Float64).alias("win"),
            )
            for s in range(players)
        ]
    )


def bot_figures(frame: pl.DataFrame, players: int) -> dict[str, dict[str, Any]]:
    """Per bot label: mean win share over the seat-games it played, its Wilson interval, count.

    The unit is a seat-game, so a bot holding two seats counts twice per game;
    with seat rotation this separates a bot's strength from its seat's advantage.
    Labels come out sorted, for stable reports.
    """
    grouped = (
        _seat_games(frame, players)
        .group_by("bot")
        .agg(pl.col("win").sum().alias("wins"), pl.len().alias("n"))
        .sort("bot")
    )
    out: dict[str, dict[str, Any]] = {}
    for label, wins, n in grouped.iter_rows():
        low, high = wilson(wins, n)
        out[label] = {"win_share": wins / n, "win_ci95": [low, high], "seat_games": int(n)}
    return out


def bot_game_shares(frame: pl.DataFrame, players: int, label: str) -> np.ndarray:
    """Per game, the mean win share of the seats `label` held; NaN in games it sat out.

    This is the per-game record a paired comparison of one bot needs.
    """
    seat_games = _seat_games(frame, players).filter(pl.col("bot") == label)
    per_game = seat_games.group_by("game").agg(pl.col("win").mean())
    joined = frame.select("game").join(per_game, on="game", how="left", maintain_order="left")
    return joined["win"].to_numpy().astype(float)


def winning_margin(scores: np.ndarray, higher_is_better: bool) -> np.ndarray:
    """Per game, how far the winner finished ahead of the runner-up (0 for a tie).

    Always non-negative: best minus second best when high scores win, second
    best minus best when low scores win. A game for one player has no margin (0).
    """
    scores = np.asarray(scores, dtype=float)
    if scores.ndim != 2:
        raise ValueError("scores must be a games × seats matrix")
    if scores.shape[1] < 2:
        return np.zeros(scores.shape[0])
    ordered = np.sort(scores, axis=1)
    if higher_is_better:
        return ordered[:, -1] - ordered[:, -2]
    return ordered[:, 1] - ordered[:, 0]


# --- comparing two runs -------------------------------------------------------


def two_proportion(successes_a: float, n_a: int, successes_b: float, n_b: int) -> float:
    """Two-sided p-value of the pooled two-proportion z-test (= 2×2 chi-square, no correction).

    Used for win shares and "share of games where a rule fired" between two
    independent runs. With both proportions at 0 or both at 1 there is no
    variance and no evidence of a change: p = 1.
    """
    if n_a <= 0 or n_b <= 0:
        return 1.0
    pooled = (successes_a + successes_b) / (n_a + n_b)
    variance = pooled * (1 - pooled) * (1 / n_a + 1 / n_b)
    if variance <= 0:
        return 1.0
    z = (successes_b / n_b - successes_a / n_a) / math.sqrt(variance)
    return _p(2 * sps.norm.sf(abs(z)))


def cohens_h(p_a: float, p_b: float) -> float:
    """Cohen's h for a change of proportion from p_a to p_b (positive: B higher).

    The arcsine scale makes 0.50→0.55 and 0.02→0.07 comparable in
    detectability; |h| ≈ 0.2 is "small", 0.5 "medium".
    """
    p_a = min(1.0, max(0.0, p_a))
    p_b = min(1.0, max(0.0, p_b))
    return 2 * math.asin(math.sqrt(p_b)) - 2 * math.asin(math.sqrt(p_a))


def cliffs_delta(a: ArrayLike, b: ArrayLike) -> float:
    """Cliff's delta: P(B > A) − P(B < A) for a random pair, in [-1, 1] (positive: B higher).

    Equal to the rank-biserial correlation of the Mann–Whitney test, so it is
    the effect size matching that test; computed from ranks in O(n log n).
    """
    a, b = _array(a), _array(b)
    if a.size == 0 or b.size == 0:
        return 0.0
    ranks = sps.rankdata(np.concatenate([a, b]))
    u_b = ranks[a.size :].sum() - b.size * (b.size + 1) / 2
    return float(2 * u_b / (a.size * b.size) - 1)


def mann_whitney(a: ArrayLike, b: ArrayLike) -> float:
    """Two-sided Mann–Whitney U p-value: does B tend to be larger or smaller than A?

    Rank-based, so skewed score distributions and a few outlier games don't
    drive it the way they would a t-test.
    """
    a, b = _array(a), _array(b)
    if a.size == 0 or b.size == 0 or np.ptp(np.concatenate([a, b])) == 0:
        return 1.0
    with _quiet():
        return _p(sps.mannwhitneyu(b, a, alternative="two-sided").pvalue)


def ks_2samp(a: ArrayLike, b: ArrayLike) -> tuple[float, float]:
    """Kolmogorov–Smirnov statistic D and two-sided p-value of two samples.

    Catches a change of shape (spread, a second mode) that leaves the median
    where it was, which Mann–Whitney would miss. Conservative on integer data.
    """
    a, b = _array(a), _array(b)
    if a.size == 0 or b.size == 0:
        return (0.0, 1.0)
    # On large samples the exact method can fail; scipy then falls back to the
    # asymptotic p-value, which is what we want, and warns about it, which isn't.
    with _quiet():
        result = sps.ks_2samp(a, b)
    return (float(result.statistic), _p(result.pvalue))


def wilcoxon_paired(a: ArrayLike, b: ArrayLike) -> float:
    """Two-sided Wilcoxon signed-rank p-value on the per-game differences B − A.

    For paired records (same seed, same game index: the same deal in both
    runs), the deal's luck cancels in the difference, so far smaller changes
    show. Games with no difference are left out (Wilcoxon's convention); for
    0/1 data this is McNemar's test. No differences at all: p = 1.
    """
    a, b = _array(a), _array(b)
    if a.shape != b.shape:
        raise ValueError("paired samples must have the same length")
    diff = b - a
    # Float noise in equal derived values must not count as a change.
    scale = np.maximum(1.0, np.maximum(np.abs(a), np.abs(b)))
    diff = diff[np.abs(diff) > 1e-12 * scale]
    if diff.size == 0:
        return 1.0
    with _quiet():
        return _p(sps.wilcoxon(diff).pvalue)


def holm(p_values: ArrayLike) -> np.ndarray:
    """Holm step-down adjusted p-values, in the input order.

    Controls the chance of any false "significant" across the whole table at
    alpha, like Bonferroni, but rejects more when several changes are real.
    """
    p = _array(p_values)
    m = p.size
    if m == 0:
        return p
    order = np.argsort(p, kind="stable")
    scaled = np.minimum(1.0, p[order] * (m - np.arange(m)))
    adjusted = np.empty(m)
    adjusted[order] = np.maximum.accumulate(scaled)
    return adjusted


def head_to_head(
    frame: pl.DataFrame, players: int, higher_is_better: bool
) -> dict[str, dict[str, dict[str, Any]]]:
    """For bot labels A and B: how often A's seat finishes ahead of B's seat.

    In each game that seats both, every (seat of A, seat of B) pair scores 1
    when A's score is better and 1/2 for a tie; the game's value is the mean
    over its pairs, and `ahead_share` the mean over games. This is the skill
    signal a designer reads: a careful bot that finishes ahead of the random
    one only half the time says the game is a lottery. The pairs within one
    game are not independent, so the interval is over games (a normal
    interval of the per-game values, clipped to [0, 1]), not over pairs.
    """
    labels = [frame[table.bot(s)].to_numpy() for s in range(players)]
    scores = [frame[table.score(s)].to_numpy().astype(float) for s in range(players)]
    names = sorted({str(x) for column in labels for x in column})
    sign = 1.0 if higher_is_better else -1.0
    out: dict[str, dict[str, dict[str, Any]]] = {}
    for a in names:
        for b in names:
            if a == b:
                continue
            ahead = np.zeros(frame.height)
            pairs = np.zeros(frame.height)
            for sa in range(players):
                for sb in range(players):
                    if sa == sb:
                        continue
                    both = (labels[sa] == a) & (labels[sb] == b)
                    diff = sign * (scores[sa] - scores[sb])
                    ahead += both * ((diff > 0) + 0.5 * (diff == 0))
                    pairs += both
            seated = pairs > 0
            if not seated.any():
                continue
            per_game = ahead[seated] / pairs[seated]
            share = float(per_game.mean())
            half = (
                Z95 * float(per_game.std(ddof=1)) / math.sqrt(len(per_game))
                if len(per_game) > 1
                else 0.0
            )
            out.setdefault(a, {})[b] = {
                "ahead_share": share,
                "ci95": [max(0.0, share - half), min(1.0, share + half)],
                "games": int(seated.sum()),
                "pairs": int(pairs.sum()),
            }
    return out
