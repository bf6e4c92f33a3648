"""Seat advantage (stats/seat_advantage.py) on tables of 12 and 15 games, against
Hotelling's T² → F computed independently here with numpy: other contrasts, numpy's own
covariance, a solve instead of a pseudo-inverse. At a few hundred games the finite-sample
factors barely move the p-value, so the calibration tests cannot see them; at a dozen
games they are far apart: the F scaling (n − P + 1)/((P − 1)(n − 1)), not 1/(P − 1), and,
with seats rotating, the n − P degrees of freedom of a covariance pooled within the P
phases, not n − 1."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats as sps

from balancer.stats.seat_advantage import seat_advantage

SEATS = 3
# Who won each game; -1 a three-way tie (each seat 1/3). Seat 0 wins most.
WINNERS_12 = (0, 0, 1, 0, 2, -1, 0, 1, 0, 2, 0, -1)
WINNERS_15 = (0, 1, 0, 0, 2, 1, -1, 0, 2, 0, 1, 0, 0, -1, 2)


def table(winners: tuple[int, ...]) -> np.ndarray:
    wins = np.zeros((len(winners), SEATS))
    for game, seat in enumerate(winners):
        wins[game] = 1 / SEATS if seat < 0 else np.eye(SEATS)[seat]
    return wins


def hotelling(
    contrasts: np.ndarray, mean: np.ndarray, cov_of_mean: np.ndarray, dof: int
) -> tuple[float, float, tuple[int, int]]:
    """T², F and its degrees of freedom, from the mean contrast and its covariance."""
    k = contrasts.shape[1]
    t2 = float(mean @ np.linalg.solve(cov_of_mean, mean))
    return t2, t2 * (dof - k + 1) / (k * dof), (k, dof - k + 1)


def test_twelve_games_fixed_seats() -> None:
    """n = 12, P = 3: T² = n m' S⁻¹ m with S the sample covariance (n − 1), F = T² · 10/22
    on (2, 10) degrees of freedom."""
    wins = table(WINNERS_12)
    n = len(wins)
    contrasts = wins[:, 1:] - wins[:, :1]  # seats 1 and 2 against seat 0
    cov = np.cov(contrasts, rowvar=False, ddof=1)
    t2, f, df = hotelling(contrasts, contrasts.mean(axis=0), cov / n, n - 1)
    assert df == (2, 10)
    assert f == pytest.approx(t2 * 10 / 22, rel=1e-12)
    result = seat_advantage(wins)
    assert result.statistic == pytest.approx(t2, rel=1e-9)
    assert result.df == df
    assert result.f == pytest.approx(f, rel=1e-9)
    assert result.p_value == pytest.approx(sps.f.sf(f, *df), rel=1e-9)


def test_fifteen_games_with_rotating_seats() -> None:
    """Rotation: game g is in phase g mod 3, five games a phase. The mean contrast is the
    average of the three phase means, its covariance S · (1/5 + 1/5 + 1/5) / 3² with S
    pooled within phases on n − P = 12 degrees of freedom; F = T² · 11/24 on (2, 11)."""
    wins = table(WINNERS_15)
    n = len(wins)
    phase = np.arange(n) % SEATS
    contrasts = wins[:, 1:] - wins[:, :1]
    means = np.array([contrasts[phase == p].mean(axis=0) for p in range(SEATS)])
    within = contrasts - means[phase]
    pooled = within.T @ within / (n - SEATS)
    sizes = np.bincount(phase)
    cov_of_mean = pooled * (1 / sizes).sum() / SEATS**2
    t2, f, df = hotelling(contrasts, means.mean(axis=0), cov_of_mean, n - SEATS)
    assert df == (2, 11)
    assert f == pytest.approx(t2 * 11 / 24, rel=1e-12)
    labels = np.array([["strong", "random", "random"]] * n)
    result = seat_advantage(wins, labels, rotate=True)
    assert result.statistic == pytest.approx(t2, rel=1e-9)
    assert result.df == df
    assert result.f == pytest.approx(f, rel=1e-9)
    assert result.p_value == pytest.approx(sps.f.sf(f, *df), rel=1e-9)
