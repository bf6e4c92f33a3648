"""Intervals of one run: hand-worked examples, then coverage where the truth is known."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from balancer.stats import describe, intervals

# --- hand-worked -------------------------------------------------------------------


def test_mean_interval_by_hand() -> None:
    # 1..5: mean 3, sd sqrt(2.5), se sqrt(2.5/5) = 0.7071068; t(0.975, 4) = 2.7764451.
    iv = intervals.mean_interval([1, 2, 3, 4, 5])
    half = 2.7764451051977987 * math.sqrt(0.5)
    assert iv.estimate == 3
    assert iv.low == pytest.approx(3 - half, abs=1e-12)
    assert iv.high == pytest.approx(3 + half, abs=1e-12)
    assert iv.se == pytest.approx(math.sqrt(0.5))


def test_mean_interval_of_constant_values_is_the_value() -> None:
    iv = intervals.mean_interval([7.0] * 10)
    assert (iv.low, iv.estimate, iv.high) == (7.0, 7.0, 7.0)


def test_mean_interval_rejects_no_values() -> None:
    with pytest.raises(ValueError):
        intervals.mean_interval([])


def test_share_of_plain_outcomes_is_wilson() -> None:
    # 0/1 values: n_eff = n, so the interval is Wilson's for 3 of 10.
    iv = intervals.share_interval([1, 1, 1, 0, 0, 0, 0, 0, 0, 0])
    assert iv.ci95 == pytest.approx(list(describe.wilson(3, 10)), abs=1e-12)


def test_share_with_split_tie_uses_the_effective_count() -> None:
    # Values 1, 0, 0, 1/2: p = 3/8. Deviations 5/8, -3/8, -3/8, 1/8; Σ = 0.6875;
    # var(p̂) = 0.6875 / 16 = 0.04296875; n_eff = (3/8)(5/8) / 0.04296875 = 5.4545...
    iv = intervals.share_interval([1, 0, 0, 0.5])
    n_eff = 0.234375 / 0.04296875
    assert iv.estimate == 0.375
    assert iv.ci95 == pytest.approx(list(describe.wilson(0.375 * n_eff, n_eff)), abs=1e-12)
    # Narrower than Wilson on 1.5 "wins" of 4 games, which treats 1/2 as a coin flip.
    plain = describe.wilson(1.5, 4)
    assert iv.high - iv.low < plain[1] - plain[0]


def test_share_never_seen_is_wilson_at_zero() -> None:
    iv = intervals.share_interval(np.zeros(20))
    assert iv.low == 0.0
    assert iv.high == pytest.approx(1.959963984540054**2 / (20 + 1.959963984540054**2))


def test_a_share_of_no_games_can_be_anything() -> None:
    # No games: nothing is known, the interval is the whole of [0, 1] (not wider).
    assert intervals.wilson_effective(0.5, 0.0, 0) == (0.0, 1.0)


def test_bot_share_is_per_seat_game_clustered_by_game() -> None:
    # Two games, bot "a" holds seats 0 and 1, "b" seat 2.
    # Game 1: a wins (seat 0); game 2: b wins. a: y = [1, 0], m = [2, 2] -> 1/4.
    wins = np.array([[1.0, 0, 0], [0, 0, 1.0]])
    labels = np.array([["a", "a", "b"], ["a", "a", "b"]])
    bots = intervals.bot_share_intervals(wins, labels)
    assert bots["a"].estimate == 0.25
    assert bots["b"].estimate == 0.5
    # Influences (y − r m)/m̄ = (1 − 0.5)/2, (0 − 0.5)/2 = ±0.25: var = 2·0.0625/4.
    assert bots["a"].se == pytest.approx(math.sqrt(0.125 / 4))


def test_bot_sitting_out_a_game_counts_no_seat_game_there() -> None:
    wins = np.array([[1.0, 0.0], [0.0, 1.0], [0.5, 0.5]])
    labels = np.array([["a", "b"], ["b", "b"], ["a", "b"]])
    bots = intervals.bot_share_intervals(wins, labels)
    assert bots["a"].estimate == pytest.approx(1.5 / 2)
    assert bots["b"].estimate == pytest.approx(1.5 / 4)


# --- coverage by simulation ------------------------------------------------------------

# Five seats, each scoring 0, 1 or 2; the highest score wins, ties split.
# Seat 0 is favoured. Many ties: the case where Wilson on fractional wins over-covers.
SCORE_P = np.array(
    [
        [0.25, 0.35, 0.40],
        [0.30, 0.40, 0.30],
        [0.30, 0.40, 0.30],
        [0.35, 0.35, 0.30],
        [0.35, 0.40, 0.25],
    ]
)


def _true_shares() -> np.ndarray:
    """Expected win share per seat, by enumerating all 3^5 outcomes."""
    truth = np.zeros(5)
    for outcome in itertools.product(range(3), repeat=5):
        p = math.prod(SCORE_P[s, v] for s, v in enumerate(outcome))
        best = max(outcome)
        winners = [s for s, v in enumerate(outcome) if v == best]
        for s in winners:
            truth[s] += p / len(winners)
    return truth


def _simulate_wins(rng: np.random.Generator, games: int) -> np.ndarray:
    u = rng.random((games, 5, 1))
    scores = (u > np.cumsum(SCORE_P, axis=1)[None, :, :-1]).sum(axis=2)
    best = scores == scores.max(axis=1, keepdims=True)
    return best / best.sum(axis=1, keepdims=True)


REPS = 2000
GAMES = 300


def _coverage(hits: list[bool]) -> float:
    return float(np.mean(hits))


def test_seat_intervals_cover_with_split_ties() -> None:
    rng = np.random.default_rng(20261201)
    truth = _true_shares()
    hits = np.zeros(5)
    old_hits = np.zeros(5)
    for _ in range(REPS):
        wins = _simulate_wins(rng, GAMES)
        for s, iv in enumerate(intervals.seat_share_intervals(wins)):
            hits[s] += iv.low <= truth[s] <= iv.high
            low, high = describe.wilson(wins[:, s].sum(), GAMES)
            old_hits[s] += low <= truth[s] <= high
    coverage = hits / REPS
    assert np.all(np.abs(coverage - 0.95) <= 0.015), coverage
    # The interval it replaces over-covers here: the test can tell the two apart.
    assert (old_hits / REPS).mean() > 0.965


@pytest.mark.parametrize("rotate", [False, True])
@pytest.mark.quality
def test_bot_holding_four_of_five_seats_covers(rotate: bool) -> None:
    rng = np.random.default_rng(7 + rotate)
    truth_seat = _true_shares()
    slots = np.array(["big"] * 4 + ["solo"])
    games = np.arange(GAMES)
    # Slot j sits at seat (j + g) mod 5 with rotation: seat s holds slot (s − g) mod 5.
    seat_slot = (np.arange(5)[None, :] - games[:, None] * rotate) % 5
    labels = slots[seat_slot]
    if rotate:
        # Under rotation each bot is at each seat equally often: its share is the seat mean.
        truth = {"big": truth_seat.mean(), "solo": truth_seat.mean()}
    else:
        truth = {"big": truth_seat[:4].mean(), "solo": truth_seat[4]}
    hits = {"big": 0, "solo": 0}
    widths = {"big": [], "solo": []}
    for _ in range(REPS):
        wins = _simulate_wins(rng, GAMES)
        for label, iv in intervals.bot_share_intervals(wins, labels).items():
            hits[label] += iv.low <= truth[label] <= iv.high
            widths[label].append(iv.high - iv.low)
    for label in hits:
        assert abs(hits[label] / REPS - 0.95) <= 0.015, (label, hits[label] / REPS)
    # Clustered: the big bot's interval is far narrower than 4n independent seat-games'.
    naive = describe.wilson(0.2 * 4 * GAMES, 4 * GAMES)
    assert np.mean(widths["big"]) < 0.6 * (naive[1] - naive[0])


def test_mean_intervals_cover_scores_counts_and_margins() -> None:
    rng = np.random.default_rng(3)
    # Score: a skewed discrete value (0, 1, 2, 10 with probs .4, .3, .2, .1): mean 1.7.
    values = np.array([0.0, 1.0, 2.0, 10.0])
    probs = np.array([0.4, 0.3, 0.2, 0.1])
    hits_score = hits_count = 0
    for _ in range(REPS):
        score = rng.choice(values, size=GAMES, p=probs)
        iv = intervals.mean_interval(score)
        hits_score += iv.low <= 1.7 <= iv.high
        count = rng.poisson(0.3, size=GAMES)  # a rule firing 0.3 times per game
        iv = intervals.mean_interval(count)
        hits_count += iv.low <= 0.3 <= iv.high
    assert abs(hits_score / REPS - 0.95) <= 0.015
    assert abs(hits_count / REPS - 0.95) <= 0.015


def test_share_of_games_interval_covers() -> None:
    rng = np.random.default_rng(4)
    hits = 0
    for _ in range(REPS):
        fired = (rng.random(GAMES) < 0.12).astype(float)
        iv = intervals.share_interval(fired)
        hits += iv.low <= 0.12 <= iv.high
    assert abs(hits / REPS - 0.95) <= 0.015
