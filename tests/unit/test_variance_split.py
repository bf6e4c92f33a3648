"""The deal's share of the outcome (stats/variance_split.py) on tables worked out by hand."""

from __future__ import annotations

import numpy as np
import pytest

from balancer.stats.variance_split import deal_share

# Three hands, two bots each. Hand means 1, 0, 1/2, grand mean 1/2:
# SSB = 2 × (1/4 + 1/4 + 0) = 1 on 2 df, MSB = 1/2; SSW = 0 + 0 + 2 × 1/4 = 1/2 on 3 df,
# MSW = 1/6; share = (1/2 − 1/6) / (1/2 + 1/6) = 1/2.
HANDS = np.array([[1.0, 1.0], [0.0, 0.0], [1.0, 0.0]])


def _numpy_share(table: np.ndarray) -> float:
    """The same split another way: the variance of the group means and the mean of the
    groups' own variances (numpy's var), as the expected mean squares give them."""
    g, k = table.shape
    within = table.var(axis=1, ddof=1).mean()  # MSW
    between = k * table.mean(axis=1).var(ddof=1)  # MSB
    component = (between - within) / k  # σ²(hand)
    return float(component / (component + within))


def test_the_split_of_a_hand_worked_table() -> None:
    split = deal_share(HANDS)
    assert split.between == pytest.approx(0.5)
    assert split.within == pytest.approx(1 / 6)
    assert split.share == pytest.approx(0.5)
    assert _numpy_share(HANDS) == pytest.approx(0.5)


def test_the_split_matches_numpy_on_a_larger_table() -> None:
    rng = np.random.default_rng(3)
    hands = rng.random((40, 1)) + rng.random((40, 3))  # a hand effect and noise
    assert deal_share(hands).raw == pytest.approx(_numpy_share(hands), rel=1e-12)


def test_a_hand_every_bot_plays_alike_is_all_deal() -> None:
    """Every bot gets the same outcome from a hand: no variance within, share 1 (and an
    interval at 1: every resample says so too)."""
    hands = np.repeat(np.array([[1.0], [0.0], [0.0], [1.0], [0.5]]), 3, axis=1)
    split = deal_share(hands, clusters=np.array([0, 0, 1, 1, 2]))
    assert (split.share, split.low, split.high) == (1.0, 1.0, 1.0)


def test_hands_that_tell_nothing_are_clipped_to_zero() -> None:
    """Each hand holds one win and one loss: hand means all 1/2, MSB 0, MSW 1/2: the raw
    estimate (0 − 1/2) / (0 + 1/2) = −1 is clipped to 0."""
    hands = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 0.0], [0.0, 1.0]])
    split = deal_share(hands)
    assert split.raw == pytest.approx(-1.0)
    assert split.share == 0.0


def test_the_interval_holds_the_estimate_and_narrows_with_more_deals() -> None:
    rng = np.random.default_rng(5)

    def table(deals: int) -> np.ndarray:
        return rng.random((deals, 1)) + 0.5 * rng.random((deals, 3))

    small, large = deal_share(table(20)), deal_share(table(400))
    for split in (small, large):
        assert split.low <= split.share <= split.high
    assert large.high - large.low < small.high - small.low
