"""Confidence sequences: small cases, chunking, error ≤ α under continuous monitoring."""

from __future__ import annotations

import math

import numpy as np
import pytest

from balancer.errors import UserError
from balancer.stats import intervals
from balancer.stats.compare import Figure
from balancer.stats.sequential import (
    AnytimeDiff,
    AnytimeRow,
    AsymptoticCS,
    BettingCS,
    WinShareMonitor,
    asymptotic_p_value,
    decide,
    parse_until,
)


def test_betting_cs_starts_as_the_whole_range() -> None:
    cs = BettingCS(lo=-1, hi=1)
    assert cs.interval() == (-1, 1)


def test_betting_cs_after_all_ones_excludes_low_means() -> None:
    # Twenty 1s: a bettor on "mean < m" wins at every step for small m.
    cs = BettingCS(grid=201)
    cs.extend(np.ones(20))
    low, high = cs.interval()
    assert high == 1.0 and 0.5 < low < 1.0


def test_betting_cs_does_not_depend_on_chunking() -> None:
    x = (np.random.default_rng(0).random(1500) < 0.4).astype(float)
    whole, pieces = BettingCS(grid=201), BettingCS(grid=201)
    whole.extend(x)
    for start in range(0, 1500, 97):
        pieces.extend(x[start : start + 97])
    assert whole.interval() == pytest.approx(pieces.interval())


def test_betting_cs_rejects_values_outside_the_range() -> None:
    with pytest.raises(ValueError):
        BettingCS().extend([0.5, 1.5])


def test_bets_tuned_to_n_star_are_tighter_there() -> None:
    x = (np.random.default_rng(1).random(5000) < 0.2).astype(float)
    plain, tuned = BettingCS(grid=2001), BettingCS(grid=2001, n_star=5000)
    plain.extend(x)
    tuned.extend(x)
    width = [cs.interval()[1] - cs.interval()[0] for cs in (plain, tuned)]
    fixed = intervals.share_interval(x)
    assert fixed.high - fixed.low < width[1] < 0.8 * width[0]


def test_cs_is_wider_than_the_fixed_n_interval() -> None:
    x = (np.random.default_rng(1).random(3000) < 0.3).astype(float)
    cs = BettingCS(grid=401)
    cs.extend(x)
    fixed = intervals.share_interval(x)
    low, high = cs.interval()
    assert low < fixed.low and high > fixed.high
    assert high - low < 3 * (fixed.high - fixed.low)


def test_decide() -> None:
    assert decide(0.01, 0.05) == "changed"
    assert decide(-0.05, -0.01) == "changed"
    assert decide(-0.005, 0.004, tolerance=0.01) == "equivalent"
    assert decide(-0.02, 0.004, tolerance=0.01) == ""
    assert decide(-0.005, 0.004) == ""


def test_parse_until() -> None:
    assert parse_until("win_ci<=0.02").width == 0.02
    assert parse_until(" win_ci <= 0.1 ").width == 0.1
    for bad in ("win_ci<0.02", "score<=1", "win_ci<=abc", "win_ci<=0", "win_ci<=2"):
        with pytest.raises(UserError, match="--until"):
            parse_until(bad)


def test_win_share_monitor_stops_when_narrow() -> None:
    rng = np.random.default_rng(2)
    monitor = WinShareMonitor(players=3)
    rule = parse_until("win_ci<=0.1")
    chunks = 0
    while not monitor.done(rule):
        monitor.update(np.eye(3)[rng.integers(0, 3, 200)])
        chunks += 1
        assert chunks < 50
    assert monitor.widest() <= 0.1
    assert chunks > 1


# --- error under continuous monitoring ------------------------------------------------


@pytest.mark.quality
@pytest.mark.parametrize("n_star", [None, 300])
def test_betting_cs_misses_at_most_alpha_over_every_look(n_star: int | None) -> None:
    rng = np.random.default_rng(3)
    reps, n, truth = 300, 1000, 0.3
    miss = naive_miss = 0
    for _ in range(reps):
        # Split ties: values 0, 1/2, 1 with mean 0.3.
        x = rng.choice([0.0, 0.5, 1.0], size=n, p=[0.6, 0.2, 0.2])
        path = BettingCS(grid=201, n_star=n_star).extend(x, track=True)
        miss += bool(((path[:, 0] > truth) | (path[:, 1] < truth)).any())
        # The fixed-n interval, looked at every 50 games, for contrast.
        naive_miss += any(
            not (iv.low <= truth <= iv.high)
            for iv in (intervals.share_interval(x[:k]) for k in range(50, n + 1, 50))
        )
    assert miss / reps <= 0.05
    assert naive_miss / reps >= 0.12


@pytest.mark.quality
def test_asymptotic_cs_misses_at_most_about_alpha() -> None:
    rng = np.random.default_rng(4)
    reps, n = 300, 2000
    miss = 0
    for _ in range(reps):
        x = rng.poisson(3.0, size=n) * 1.0
        cs = AsymptoticCS(n_star=n)
        bad = False
        for start in range(0, n, 25):
            cs.extend(x[start : start + 25])
            low, high = cs.interval()
            bad |= not (low <= 3.0 <= high)
        miss += bad
    assert miss / reps <= 0.05 + 0.02


def _tie_pair(rng: np.random.Generator, games: int) -> tuple[np.ndarray, np.ndarray]:
    raw = rng.random((games, 3))
    out = []
    for scores in (np.floor(raw * 3), raw):
        best = scores == scores.max(axis=1, keepdims=True)
        out.append(best / best.sum(axis=1, keepdims=True))
    return out[0], out[1]


def _pairs(rows: dict[str, tuple[str, np.ndarray, np.ndarray]]) -> list[tuple[Figure, Figure]]:
    return [(Figure(n, kind, a), Figure(n, kind, b)) for n, (kind, a, b) in rows.items()]


@pytest.mark.quality
def test_until_decided_on_a_null_claims_changed_at_most_alpha() -> None:
    """Paired runs whose seat shares don't change (only ties do); stop when decided or at cap."""
    rng = np.random.default_rng(5)
    reps, cap, chunk = 200, 1000, 100
    false_changed = 0
    for _ in range(reps):
        a, b = _tie_pair(rng, cap)
        watch = AnytimeDiff(alpha=0.05, tolerances={"win": "0.1"})
        for start in range(0, cap, chunk):
            part = slice(start, start + chunk)
            watch.update(_pairs({f"seat {s}": ("win", a[part, s], b[part, s]) for s in range(3)}))
            if watch.decided:
                break
        false_changed += watch.changed
    assert false_changed / reps <= 0.05


def test_betting_p_value_by_hand() -> None:
    # Values 1, 1 on [0, 1] against the mean 1/2. The first bet is λ = min(λ₁, c/m) =
    # min(6.5, 1) = 1: K⁺ = 1 + (1 − 1/2) = 1.5; the second again 1: K⁺ = 2.25.
    # p = min(1, 2 / max K) = 2 / 2.25.
    cs = BettingCS(null=0.5)
    cs.extend([1.0])
    assert cs.p_value() == 1.0
    cs.extend([1.0])
    assert cs.p_value() == pytest.approx(2 / 2.25)


def test_betting_p_value_agrees_with_the_interval() -> None:
    # The CS at 5% excludes the null exactly when p <= 5% (the null on the grid).
    rng = np.random.default_rng(8)
    for shift in (0.0, 0.05, 0.1):
        x = np.clip(rng.normal(shift, 0.4, 800), -1, 1)
        cs = BettingCS(lo=-1, hi=1, grid=2001, null=0.0)
        cs.extend(x)
        low, high = cs.interval()
        # The bounds are rounded outwards by a grid step: compare away from the edge.
        if abs(low) > 0.002 and abs(high) > 0.002:
            assert (cs.p_value() <= 0.05) == (low > 0 or high < 0)


def test_asymptotic_p_value_inverts_the_interval() -> None:
    # p is the level at which the boundary (ρ fixed by n_star and alpha = 0.05, as in
    # the CS) just reaches the mean: the half-width at level p equals |mean|.
    rng = np.random.default_rng(9)
    x = rng.normal(0.1, 1.0, 1000)
    cs = AsymptoticCS(alpha=0.05, n_star=1000)
    cs.extend(x)
    p = asymptotic_p_value(cs)
    n, mean, var = x.size, x.mean(), x.var(ddof=1)
    la = -2 * math.log(0.05)
    rho2 = (la + math.log(la + 1)) / 1000
    half = math.sqrt(
        var * 2 * (n * rho2 + 1) / (n * n * rho2) * math.log(math.sqrt(n * rho2 + 1) / p)
    )
    assert 0 < p < 0.05 and half == pytest.approx(abs(mean))
    low, high = cs.interval()
    assert low > 0  # p below 5%: the 95% CS excludes 0
    assert asymptotic_p_value(AsymptoticCS()) == 1.0


def test_asymptotic_p_value_of_a_small_variance_by_hand() -> None:
    # Values 0.1, 0.3, 0.1, 0.3: n 4, mean 0.2, variance 0.04 / 3 (well below 1). With
    # n_star 4 and alpha 0.05, ρ² = (λ + log(λ + 1)) / 4, λ = −2 log 0.05, and
    # p = sqrt(nρ² + 1) · exp(−mean² n² ρ² / (2 var (nρ² + 1))): about 0.0145.
    cs = AsymptoticCS(alpha=0.05, n_star=4)
    cs.extend([0.1, 0.3, 0.1, 0.3])
    la = -2 * math.log(0.05)
    rho2 = (la + math.log(la + 1)) / 4
    var = 0.04 / 3
    expected = math.sqrt(4 * rho2 + 1) * math.exp(-0.04 * 16 * rho2 / (2 * var * (4 * rho2 + 1)))
    assert asymptotic_p_value(cs) == pytest.approx(expected)
    assert 0.01 < expected < 0.02


def test_anytime_rows_bet_on_their_kind_and_its_tolerance() -> None:
    # Win and share rows are bounded: a betting CS whose bets are tuned to where it fits
    # inside ±tolerance, n* = ceil(2 log(2/0.05) · 1/4 / tol²): 738 for 0.05 and 185 for
    # 0.1. A score row gets the asymptotic CS.
    ones, zeros = np.ones(4), np.zeros(4)
    watch = AnytimeDiff(tolerances={"win": "0.05", "share": "0.1", "score": "0.1sd"})
    watch.update(
        _pairs(
            {
                "seat 0": ("win", zeros, ones),
                "fired": ("share", zeros, ones),
                "score": ("score", zeros, ones),
            }
        )
    )
    win, share, score = (watch.rows[n] for n in ("seat 0", "fired", "score"))
    assert isinstance(win.cs, BettingCS) and win.bounded and win.cs.n_star == 738
    assert isinstance(share.cs, BettingCS) and share.bounded and share.cs.n_star == 185
    assert isinstance(score.cs, AsymptoticCS) and not score.bounded


def test_anytime_row_per_game_sd_by_hand() -> None:
    # A 1, 1 (variance 0), B 0, 2 (variance 2): the pooled sd is sqrt((0 + 2) / 2) = 1.
    row = AnytimeRow("x", "score", AsymptoticCS(), bounded=False)
    row.extend(np.array([1.0, 1.0]), np.array([0.0, 2.0]))
    assert row.per_game_sd() == pytest.approx(1.0)
    swapped = AnytimeRow("x", "score", AsymptoticCS(), bounded=False)
    swapped.extend(np.array([0.0, 2.0]), np.array([1.0, 1.0]))
    assert swapped.per_game_sd() == pytest.approx(1.0)


def test_betting_cs_says_what_is_wrong_with_its_null() -> None:
    with pytest.raises(ValueError, match="the null mean must lie in the range"):
        BettingCS(null=1.5)
    with pytest.raises(ValueError, match="p_value needs the null mean"):
        BettingCS().p_value()


def test_a_value_a_rounding_error_below_the_range_counts_as_its_bottom() -> None:
    # -1e-13 is inside the tolerance of the range check: it is read as 0, exactly.
    cs = BettingCS()
    cs.extend([-1e-13])
    assert cs.mean == 0.0


def test_until_decided_finds_a_real_change() -> None:
    rng = np.random.default_rng(6)
    a = (rng.random(3000) < 0.3).astype(float)
    b = np.where(rng.random(3000) < 0.2, 1.0, a)  # B wins 20% of A's losses too: +0.14
    watch = AnytimeDiff(alpha=0.05, tolerances={"win": "0.01"})
    stopped = None
    for start in range(0, 3000, 100):
        part = slice(start, start + 100)
        watch.update(_pairs({"seat 0": ("win", a[part], b[part])}))
        if watch.decided:
            stopped = start + 100
            break
    assert watch.changed and stopped is not None and stopped < 3000
    low, high = watch.rows["seat 0"].interval()
    assert low > 0 and watch.rows["seat 0"].p_value() <= 0.05


def test_equivalence_decides_when_nothing_changes() -> None:
    rng = np.random.default_rng(7)
    a = rng.random(4000)
    watch = AnytimeDiff(alpha=0.05, tolerances={"score": "0.05"}, primary_kinds=("score",))
    watch.update(_pairs({"score": ("score", a, a + rng.normal(scale=0.2, size=4000))}))
    assert watch.verdicts() == {"score": "equivalent"} and watch.decided


def test_decided_needs_every_primary_row() -> None:
    # Seat 0 changes for sure (B always wins, A never); seat 1 is the same in every pair.
    n = 400
    a0, b0 = np.zeros(n), np.ones(n)
    same = (np.arange(n) % 2).astype(float)
    watch = AnytimeDiff(alpha=0.05, tolerances=None)
    watch.update(_pairs({"seat 0": ("win", a0, b0), "seat 1": ("win", same, same)}))
    assert watch.verdicts() == {"seat 0": "changed", "seat 1": ""}
    assert not watch.decided  # no tolerance: seat 1 can't be called equivalent
    # Holm's family holds only the rows that varied: seat 1 (no change in any pair) is out.
    assert set(watch.adjusted()) == {"seat 0"}
    with_tolerance = AnytimeDiff(alpha=0.05, tolerances={"win": "0.05"})
    with_tolerance.update(_pairs({"seat 0": ("win", a0, b0), "seat 1": ("win", same, same)}))
    assert with_tolerance.decided
    # A score row (not primary) undecided does not hold the diff open.
    score = np.random.default_rng(1).normal(size=n)
    mixed = AnytimeDiff(alpha=0.05, tolerances={"win": "0.05"})
    mixed.update(
        _pairs(
            {
                "seat 0": ("win", a0, b0),
                "seat 1": ("win", same, same),
                "score": ("score", score, score + 0.01),
            }
        )
    )
    assert mixed.decided and mixed.verdicts()["score"] != "equivalent"


def test_anytime_diff_does_not_depend_on_the_batches() -> None:
    rng = np.random.default_rng(10)
    n = 1200
    a, b = _tie_pair(rng, n)
    sa, sb = rng.poisson(3, n) * 1.0, rng.poisson(3.2, n) * 1.0
    rows = {"seat 0": ("win", a[:, 0], b[:, 0]), "score": ("score", sa, sb)}
    whole = AnytimeDiff(tolerances={"win": "0.05", "score": "0.1sd"})
    whole.update(_pairs(rows))
    pieces = AnytimeDiff(tolerances={"win": "0.05", "score": "0.1sd"})
    for start in range(0, n, 157):
        part = slice(start, start + 157)
        pieces.update(_pairs({k: (kind, x[part], y[part]) for k, (kind, x, y) in rows.items()}))
    assert pieces.games == whole.games == n
    for name in rows:
        assert pieces.rows[name].interval() == pytest.approx(whole.rows[name].interval())
        assert pieces.rows[name].p_value() == pytest.approx(whole.rows[name].p_value())
    assert pieces.verdicts() == whole.verdicts()
