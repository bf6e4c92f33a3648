"""The betting confidence sequence (stats/sequential.py's BettingCS) followed step by step
against the paper's recursions written out plainly (Waudby-Smith & Ramdas 2024, Theorem 3
with the predictable plug-in bets of eq. (26)): the wealth of both bettors, bets that use
only the values before the current one, and the rejection threshold log(2/α) of a
two-sided sequence. The coverage and A/A tests cannot see these: the sequence is
conservative, so bets that peek at the current value or a threshold of log(1/α) still
cover."""

from __future__ import annotations

import math

import numpy as np
import pytest

from balancer.stats.sequential import BettingCS

ALPHA = 0.05
GRID = 11  # candidate means 0, 0.1, ..., 1
TRUNCATION = 0.5  # c: a bet on m is at most c/m (for "above") or c/(1 - m) (for "below")
VALUES = (1.0, 1.0, 0.8, 1.0, 0.9, 1.0, 0.7, 1.0)


def bets(values: tuple[float, ...], peek: bool = False) -> list[float]:
    """λ_t = sqrt(2 log(2/α) / (σ̂²_{t−1} t log(1 + t))), with σ̂²_{t−1} = (1/4 + Σ_{i<t}
    (x_i − μ̂_i)²) / t and μ̂_i = (1/2 + Σ_{j≤i} x_j) / (i + 1). `peek`: σ̂² taken with
    x_t in it as well, the defect the tests guard against."""
    out, total, dev = [], 0.0, 0.0
    for t, x in enumerate(values, start=1):
        total += x
        mean = (0.5 + total) / (t + 1)
        if peek:
            dev += (x - mean) ** 2
        sigma2 = (0.25 + dev) / t
        out.append(math.sqrt(2 * math.log(2 / ALPHA) / (sigma2 * t * math.log(1 + t))))
        if not peek:
            dev += (x - mean) ** 2
    return out


def wealth(values: tuple[float, ...], m: float, lams: list[float]) -> list[float]:
    """max(K⁺_t, K⁻_t) against the candidate mean m after each value: K⁺ = Π (1 + λ⁺(x − m)),
    K⁻ = Π (1 − λ⁻(x − m)), each bet capped at c/m and c/(1 − m)."""
    up = down = 1.0
    out = []
    for x, lam in zip(values, lams, strict=True):
        up *= 1 + (lam if m == 0 else min(lam, TRUNCATION / m)) * (x - m)
        down *= 1 - (lam if m == 1 else min(lam, TRUNCATION / (1 - m))) * (x - m)
        out.append(max(up, down))
    return out


def test_the_first_bet_by_hand() -> None:
    """Step 1: σ̂²_0 = 1/4, so λ_1 = sqrt(2 ln 40 / (¼ · 1 · ln 2)) = 6.525. Against m = 0.1
    the bet is capped at c/m = 5: after x_1 = 1, K⁺ = 1 + 5 · 0.9 = 5.5 and the p-value of
    "the mean is 0.1" is 2/5.5. Against m = 0 the cap is off: K⁺ = 1 + 6.525 = 7.525."""
    lam = math.sqrt(2 * math.log(40) / (0.25 * math.log(2)))
    assert lam == pytest.approx(6.525, abs=5e-4)
    cs = BettingCS(alpha=ALPHA, grid=GRID, null=0.1)
    cs.extend([1.0])
    assert cs.p_value() == pytest.approx(2 / 5.5, rel=1e-12)
    at_zero = BettingCS(alpha=ALPHA, grid=GRID, null=0.0)
    at_zero.extend([1.0])
    assert at_zero.p_value() == pytest.approx(2 / (1 + lam), rel=1e-12)


@pytest.mark.parametrize("m", [0.0, 0.1, 0.3, 0.5, 0.9, 1.0])
def test_the_wealth_follows_the_recursion_with_predictable_bets(m: float) -> None:
    """The anytime p-value of "the mean is m" is 2 / (the largest wealth so far), so it
    reads the wealth process itself: after every value it matches the recursion with bets
    from the earlier values only."""
    expected = wealth(VALUES, m, bets(VALUES))
    cs = BettingCS(alpha=ALPHA, grid=GRID, null=m)
    best = 0.0
    for t, x in enumerate(VALUES):
        cs.extend([x])
        best = max(best, expected[t])
        assert cs.p_value() == pytest.approx(min(1.0, 2 / best), rel=1e-12)


@pytest.mark.parametrize("m", [0.0, 0.1])
def test_bets_that_peek_give_another_wealth(m: float) -> None:
    """The control for the test above: near 0 the bets are below their cap c/m, so bets
    that peek at the current value give a wealth the comparison tells apart. (From
    m = 0.3 up the cap, c/m ≤ 1.7, is below every λ_t here, about 3 or more: there the
    bets are the cap whatever the values say.)"""
    honest = wealth(VALUES, m, bets(VALUES))
    peeking = wealth(VALUES, m, bets(VALUES, peek=True))
    assert max(peeking) != pytest.approx(max(honest), rel=1e-6)


def test_which_grid_points_are_rejected_step_by_step() -> None:
    """A candidate mean is out once max(K⁺, K⁻) reaches 2/α = 40 (θ = ½ on each side: the
    two-sided sequence), and stays out. After two 1s, m = 0 has wealth 42.4 (out) while
    m = 0.1 has 28.4: in, though a threshold of 1/α = 20 would have put it out."""
    lams = bets(VALUES)
    grid = [i / (GRID - 1) for i in range(GRID)]
    paths = [wealth(VALUES, m, lams) for m in grid]
    assert paths[0][1] == pytest.approx(42.4, abs=0.05)
    assert paths[1][1] == pytest.approx(28.4, abs=0.05)
    cs = BettingCS(alpha=ALPHA, grid=GRID)
    for t, x in enumerate(VALUES):
        cs.extend([x])
        out = [i for i, path in enumerate(paths) if max(path[: t + 1]) >= 2 / ALPHA]
        assert np.flatnonzero(~cs.alive).tolist() == out, f"after {t + 1} values"
    # After all eight, 0 to 0.4 are out (0.4 reached 55 at the last value): the interval
    # starts a grid step below the first candidate still in.
    assert np.flatnonzero(~cs.alive).tolist() == [0, 1, 2, 3, 4]
    assert cs.interval() == pytest.approx((0.4, 1.0))
