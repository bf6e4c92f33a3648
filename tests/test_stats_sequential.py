"""Confidence sequences: small cases, chunking, error ≤ α under continuous monitoring."""

from __future__ import annotations

import numpy as np
import pytest

from balancer.errors import UserError
from balancer.stats import intervals
from balancer.stats.sequential import (
    AsymptoticCS,
    BettingCS,
    SequentialDiff,
    WinShareMonitor,
    decide,
    paired_cs,
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
def test_betting_cs_misses_at_most_alpha_over_every_look() -> None:
    rng = np.random.default_rng(3)
    reps, n, truth = 300, 1000, 0.3
    miss = naive_miss = 0
    for _ in range(reps):
        # Split ties: values 0, 1/2, 1 with mean 0.3.
        x = rng.choice([0.0, 0.5, 1.0], size=n, p=[0.6, 0.2, 0.2])
        path = BettingCS(grid=201).extend(x, track=True)
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


@pytest.mark.quality
def test_until_decided_on_a_null_claims_changed_at_most_alpha() -> None:
    """Paired runs whose seat shares don't change; stop at the first 'changed' or at the cap."""
    rng = np.random.default_rng(5)
    reps, cap, chunk = 200, 1000, 100
    false_changed = 0
    for _ in range(reps):
        a, b = _tie_pair(rng, cap)
        watch = SequentialDiff(alpha=0.05, planned_rows=3, grid=201)
        for s in range(3):
            watch.add(f"seat {s}", (0.0, 1.0), tolerance=None)
        for start in range(0, cap, chunk):
            part = slice(start, start + chunk)
            watch.update(
                {f"seat {s}": a[part, s] for s in range(3)},
                {f"seat {s}": b[part, s] for s in range(3)},
            )
            if watch.decided:
                break
        false_changed += watch.changed
    assert false_changed / reps <= 0.05


def test_until_decided_finds_a_real_change() -> None:
    rng = np.random.default_rng(6)
    a = (rng.random(3000) < 0.3).astype(float)
    b = np.where(rng.random(3000) < 0.2, 1.0, a)  # B wins 20% of A's losses too: +0.14
    watch = SequentialDiff(alpha=0.05, planned_rows=1)
    watch.add("seat 0", (0.0, 1.0), tolerance=0.01)
    stopped = None
    for start in range(0, 3000, 100):
        watch.update({"seat 0": a[start : start + 100]}, {"seat 0": b[start : start + 100]})
        if watch.decided:
            stopped = start + 100
            break
    assert watch.changed and stopped is not None and stopped < 3000
    low, high = paired_cs(a[:stopped], b[:stopped])
    assert low > 0


def test_equivalence_decides_when_nothing_changes() -> None:
    rng = np.random.default_rng(7)
    a = rng.random(4000)
    watch = SequentialDiff(alpha=0.05, planned_rows=1)
    watch.add("score", None, tolerance=0.05)
    watch.update({"score": a}, {"score": a + rng.normal(scale=0.2, size=4000)})
    assert watch.verdicts() == {"score": "equivalent"} and watch.decided
