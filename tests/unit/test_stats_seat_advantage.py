"""Seat advantage: Hotelling T² by hand, confounding, and p uniform under exchangeable seats."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats as sps

from balancer.stats import describe
from balancer.stats.seat_advantage import CONFOUNDED_NOTE, seat_advantage


def test_two_seats_is_the_paired_t_squared() -> None:
    # Contrasts w0 − w1 = [1, 1, −1, 1]: mean 1/2, var 1, se² 1/4, T² = 1.
    # F = T² (n − k) / (k (n − 1)) = 1 · 3 / 3 = 1 on (1, 3) df.
    wins = np.array([[1.0, 0.0], [1.0, 0.0], [0.0, 1.0], [1.0, 0.0]])
    result = seat_advantage(wins)
    assert result.statistic == pytest.approx(1.0)
    assert result.df == (1, 3)
    assert result.p_value == pytest.approx(sps.f.sf(1.0, 1, 3))
    assert result.p_value == pytest.approx(2 * sps.t.sf(1.0, 3))


def test_fixed_seats_with_different_bots_are_confounded() -> None:
    wins = np.eye(3)[[0, 1, 2, 0]]
    labels = np.array([["careful", "random", "random"]] * 4)
    result = seat_advantage(wins, labels, rotate=False)
    assert result.p_value is None and result.note == CONFOUNDED_NOTE
    assert seat_advantage(wins, labels, rotate=True).p_value is not None
    same = np.array([["random"] * 3] * 4)
    assert seat_advantage(wins, same, rotate=False).p_value is not None


def test_no_variation_and_equal_shares_is_p_one() -> None:
    wins = np.full((10, 4), 0.25)  # every game a four-way tie
    assert seat_advantage(wins).p_value == 1.0


def test_no_variation_and_unequal_shares_is_p_zero_with_no_infinite_statistic() -> None:
    wins = np.tile([1.0, 0.0], (10, 1))  # seat 0 wins every game, by the rules alone
    result = seat_advantage(wins)
    assert result.p_value == 0.0
    assert result.statistic is None and result.f is None  # report.json takes no infinity


def _exchangeable_wins(rng: np.random.Generator, games: int, seats: int = 5) -> np.ndarray:
    scores = rng.integers(0, 4, size=(games, seats))  # ties are common
    best = scores == scores.max(axis=1, keepdims=True)
    return best / best.sum(axis=1, keepdims=True)


def test_p_is_uniform_under_exchangeable_seats() -> None:
    rng = np.random.default_rng(5)
    runs, games = 1000, 200
    p = np.array([seat_advantage(_exchangeable_wins(rng, games)).p_value for _ in range(runs)])
    assert abs((p < 0.05).mean() - 0.05) <= 0.02
    assert abs((p < 0.5).mean() - 0.5) <= 0.05
    # The chi-square on totals it replaces is conservative here.
    chi = np.array([describe.seat_advantage(_exchangeable_wins(rng, games))[1] for _ in range(300)])
    assert (chi < 0.05).mean() < 0.035


def test_rotation_with_bots_of_different_strength_is_calibrated() -> None:
    """A strong bot rotating over the seats: seats are exchangeable, bots are not."""
    rng = np.random.default_rng(6)
    runs, games, seats = 1000, 403, 4  # 403: the last rotation cycle is not complete
    strength = np.array([1, 0, 0, 0])  # slot 0 adds 1 to its score: wins ~45%, not ~25%
    slots = np.arange(seats)
    p = []
    for _ in range(runs):
        g = np.arange(games)[:, None]
        slot_at_seat = (slots[None, :] - g) % seats
        scores = rng.integers(0, 4, size=(games, seats)) + strength[slot_at_seat]
        best = scores == scores.max(axis=1, keepdims=True)
        wins = best / best.sum(axis=1, keepdims=True)
        labels = np.where(slot_at_seat == 0, "strong", "random")
        p.append(seat_advantage(wins, labels, rotate=True).p_value)
    assert abs((np.array(p) < 0.05).mean() - 0.05) <= 0.02


def test_a_real_seat_edge_is_found() -> None:
    rng = np.random.default_rng(8)
    games = 2000
    scores = rng.integers(0, 4, size=(games, 5)) + (rng.random((games, 5)) < 0.2) * [1, 0, 0, 0, 0]
    best = scores == scores.max(axis=1, keepdims=True)
    wins = best / best.sum(axis=1, keepdims=True)
    assert seat_advantage(wins).p_value < 1e-3
