"""The numbers in balancer.stats.describe, checked against values worked by hand."""

from __future__ import annotations

import math
import warnings

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from balancer.stats import describe as stats

Z = stats.Z95


# --- Wilson -------------------------------------------------------------------


def test_wilson_five_of_ten_by_hand() -> None:
    # p = 1/2, z² = 3.841459; denominator 1 + z²/10 = 1.3841459.
    # Centre (0.5 + z²/20) / 1.3841459 = 0.5 exactly (symmetric).
    # Half-width z·sqrt(0.025 + z²/400) / 1.3841459 = 1.959964 · 0.1860204 / 1.3841459.
    half = 1.959963984540054 * math.sqrt(0.025 + 3.841458820694124 / 400) / 1.3841458820694124
    low, high = stats.wilson(5, 10)
    assert low == pytest.approx(0.5 - half, abs=1e-12)
    assert high == pytest.approx(0.5 + half, abs=1e-12)
    # The published interval for 5/10: [0.2366, 0.7634].
    assert (round(low, 4), round(high, 4)) == (0.2366, 0.7634)


def test_wilson_zero_successes_starts_at_zero() -> None:
    # p = 0: centre = half = (z²/20) / (1 + z²/10), so the upper bound is twice that.
    low, high = stats.wilson(0, 10)
    assert low == 0.0
    assert high == pytest.approx(2 * (Z * Z / 20) / (1 + Z * Z / 10), abs=1e-12)
    assert round(high, 4) == 0.2775


def test_wilson_all_successes_mirrors_none() -> None:
    low, high = stats.wilson(10, 10)
    assert high == 1.0
    assert low == pytest.approx(1 - stats.wilson(0, 10)[1], abs=1e-12)


def test_wilson_fractional_successes_and_no_games() -> None:
    # A three-way tie gives each winner a third of a win: 2.5 of 10 is allowed.
    low, high = stats.wilson(2.5, 10)
    assert 0 < low < 0.25 < high < 1
    assert stats.wilson(0, 0) == (0.0, 1.0)


@settings(max_examples=200, deadline=None)
@given(n=st.integers(1, 10_000), frac=st.floats(0, 1))
def test_wilson_contains_the_estimate_and_stays_in_unit_interval(n: int, frac: float) -> None:
    successes = frac * n
    low, high = stats.wilson(successes, n)
    assert 0.0 <= low <= successes / n + 1e-12
    assert successes / n - 1e-12 <= high <= 1.0


# --- seat advantage -----------------------------------------------------------


def _wins_from_totals(totals: list[int]) -> np.ndarray:
    rows = []
    for seat, count in enumerate(totals):
        row = np.zeros(len(totals))
        row[seat] = 1.0
        rows += [row] * count
    return np.array(rows)


def test_seat_advantage_by_hand() -> None:
    # Totals 30, 20, 10 of 60: expected 20 each; chi² = (100 + 0 + 100) / 20 = 10.
    # With 2 degrees of freedom the chi-square tail is exp(-x/2): p = exp(-5).
    chi2, p = stats.seat_advantage(_wins_from_totals([30, 20, 10]))
    assert chi2 == pytest.approx(10.0)
    assert p == pytest.approx(math.exp(-5))


def test_seat_advantage_equal_totals_and_split_ties() -> None:
    chi2, p = stats.seat_advantage(_wins_from_totals([7, 7, 7, 7]))
    assert (chi2, p) == (0.0, 1.0)
    # A two-way tie every game between seats 0 and 1 of 2: no advantage.
    chi2, p = stats.seat_advantage(np.full((50, 2), 0.5))
    assert (chi2, p) == (0.0, 1.0)


def test_seat_advantage_degenerate() -> None:
    assert stats.seat_advantage(np.ones((10, 1))) == (0.0, 1.0)
    assert stats.seat_advantage(np.zeros((10, 3))) == (0.0, 1.0)
    with pytest.raises(ValueError):
        stats.seat_advantage(np.ones(5))


# --- describing distributions -------------------------------------------------


def test_distribution_by_hand() -> None:
    d = stats.distribution([5, 1, 4, 2, 3])
    # Sample variance of 1..5: (4 + 1 + 0 + 1 + 4) / 4 = 2.5.
    assert d == {
        "mean": 3.0,
        "sd": pytest.approx(math.sqrt(2.5)),
        "min": 1.0,
        "q1": 2.0,
        "median": 3.0,
        "q3": 4.0,
        "max": 5.0,
    }
    assert all(type(v) is float for v in d.values())


def test_distribution_interpolates_quartiles_like_a_spreadsheet() -> None:
    # QUARTILE.INC of 1,2,3,4: positions 0.75 and 2.25 -> 1.75 and 3.25.
    d = stats.distribution([1, 2, 3, 4])
    assert (d["q1"], d["median"], d["q3"]) == (1.75, 2.5, 3.25)


def test_distribution_single_value_and_empty() -> None:
    d = stats.distribution([7])
    assert d["sd"] == 0.0 and d["q1"] == d["q3"] == 7.0
    with pytest.raises(ValueError):
        stats.distribution([])


def test_length_summary_and_event_rates() -> None:
    assert stats.length_summary(pl.Series([10, 12, 14])) == {
        "mean": 12.0,
        "sd": 2.0,
        "min": 10.0,
        "max": 14.0,
    }
    # Fired in 2 of 4 games, 3 times in all.
    assert stats.event_rates(np.array([0, 2, 0, 1])) == {"per_game": 0.75, "share_of_games": 0.5}


# --- per bot ------------------------------------------------------------------


def _rotating_frame() -> pl.DataFrame:
    # Two seats, bots swap seats every game; seat 0 always wins.
    return pl.DataFrame(
        {
            "game": [0, 1, 2, 3],
            "win_0": [1.0, 1.0, 1.0, 0.5],
            "win_1": [0.0, 0.0, 0.0, 0.5],
            "bot_0": ["a", "b", "a", "b"],
            "bot_1": ["b", "a", "b", "a"],
        }
    )


def test_bot_figures_count_seat_games() -> None:
    figures = stats.bot_figures(_rotating_frame(), 2)
    # a: wins 1, 0, 1, 0.5 over 4 seat-games; b: 0, 1, 0, 0.5.
    assert list(figures) == ["a", "b"]
    assert figures["a"]["win_share"] == pytest.approx(2.5 / 4)
    assert figures["b"]["win_share"] == pytest.approx(1.5 / 4)
    assert figures["a"]["seat_games"] == 4
    assert figures["a"]["win_ci95"] == pytest.approx(list(stats.wilson(2.5, 4)))


def test_bot_figures_same_bot_in_two_seats() -> None:
    frame = _rotating_frame().with_columns(pl.lit("a").alias("bot_0"), pl.lit("a").alias("bot_1"))
    figures = stats.bot_figures(frame, 2)
    assert figures == {
        "a": {"win_share": 0.5, "win_ci95": list(stats.wilson(4, 8)), "seat_games": 8}
    }


def test_bot_game_shares_nan_where_absent() -> None:
    frame = _rotating_frame().with_columns(
        pl.Series("bot_0", ["a", "a", "c", "c"]), pl.Series("bot_1", ["a", "b", "b", "b"])
    )
    shares = stats.bot_game_shares(frame, 2, "a")
    assert shares[:2] == pytest.approx([0.5, 1.0])
    assert np.isnan(shares[2:]).all()


# --- winning margin -----------------------------------------------------------


def test_winning_margin_both_directions_and_ties() -> None:
    scores = np.array([[10, 7, 3], [5, 5, 1], [2, 9, 2]])
    assert stats.winning_margin(scores, True).tolist() == [3, 0, 7]
    # Low wins: best 3 vs 7; best 1 vs 5; tie at 2.
    assert stats.winning_margin(scores, False).tolist() == [4, 4, 0]
    assert stats.winning_margin(np.array([[4.0], [2.0]]), True).tolist() == [0, 0]


# --- tests for diff -----------------------------------------------------------


def test_two_proportion_by_hand() -> None:
    # 50/100 vs 60/100: pooled 0.55, se = sqrt(0.55·0.45·(2/100)) = 0.0703562,
    # z = 0.1 / 0.0703562 = 1.421338, two-sided p = 2·(1 − Φ(1.421338)) = 0.155218.
    assert stats.two_proportion(50, 100, 60, 100) == pytest.approx(0.155218, abs=1e-6)
    assert stats.two_proportion(60, 100, 50, 100) == stats.two_proportion(50, 100, 60, 100)


def test_two_proportion_degenerate() -> None:
    assert stats.two_proportion(0, 100, 0, 50) == 1.0
    assert stats.two_proportion(100, 100, 50, 50) == 1.0
    assert stats.two_proportion(3, 0, 1, 10) == 1.0


def test_cohens_h_by_hand() -> None:
    # 2·asin(sqrt(.5)) − 2·asin(sqrt(.25)) = π/2 − π/3 = π/6.
    assert stats.cohens_h(0.25, 0.5) == pytest.approx(math.pi / 6)
    assert stats.cohens_h(0.5, 0.25) == pytest.approx(-math.pi / 6)
    assert stats.cohens_h(0.3, 0.3) == 0.0


def test_cliffs_delta_by_hand() -> None:
    assert stats.cliffs_delta([1, 2], [3, 4]) == 1.0
    assert stats.cliffs_delta([3, 4], [1, 2]) == -1.0
    # Pairs (a, b): (1,2) b>a, (3,2) b<a -> 0.
    assert stats.cliffs_delta([1, 3], [2]) == 0.0
    # (1,1) tie, (1,2) b>a, (2,1) b<a, (2,2) tie, b=[1,2] vs a=[1,2]: 0.
    assert stats.cliffs_delta([1, 2], [1, 2]) == 0.0
    # a=[1,2,3], b=[2]: b>1, tie 2, b<3 -> 0; b=[3]: 2 greater, 1 tie -> 2/3.
    assert stats.cliffs_delta([1, 2, 3], [3]) == pytest.approx(2 / 3)
    assert stats.cliffs_delta([], [1]) == 0.0


def test_holm_by_hand() -> None:
    # Sorted 0.01, 0.03, 0.04 times 3, 2, 1: 0.03, 0.06, 0.04 -> monotone 0.03, 0.06, 0.06.
    assert stats.holm([0.01, 0.04, 0.03]).tolist() == pytest.approx([0.03, 0.06, 0.06])
    # 0.5·2 = 1, and 0.9 may not fall below it.
    assert stats.holm([0.5, 0.9]).tolist() == [1.0, 1.0]
    assert stats.holm([0.001, 0.9]).tolist() == pytest.approx([0.002, 0.9])
    assert stats.holm([]).size == 0


@settings(max_examples=100, deadline=None)
@given(st.lists(st.floats(0, 1), min_size=1, max_size=30))
def test_holm_never_below_raw_and_keeps_order(p: list[float]) -> None:
    adjusted = stats.holm(p)
    assert (adjusted >= np.array(p) - 1e-15).all() and (adjusted <= 1).all()
    order = np.argsort(p, kind="stable")
    assert (np.diff(adjusted[order]) >= 0).all()


def test_rank_tests_see_a_clear_shift() -> None:
    rng = np.random.default_rng(1)
    a = rng.normal(0, 1, 300)
    b = a + 0.5 + rng.normal(0, 0.1, 300)
    assert stats.mann_whitney(a, b) < 1e-6
    assert stats.ks_2samp(a, b)[1] < 1e-6
    assert stats.wilcoxon_paired(a, b) < 1e-6


def test_degenerate_tests_give_p_one_without_warnings() -> None:
    same = np.full(20, 3.0)
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        assert stats.mann_whitney(same, same) == 1.0
        assert stats.ks_2samp(same, same) == (0.0, 1.0)
        assert stats.wilcoxon_paired(same, same) == 1.0
        assert stats.wilcoxon_paired([0.1 + 0.2], [0.3]) == 1.0  # float noise is no change
        assert stats.mann_whitney([], same) == 1.0
        assert stats.ks_2samp([], same) == (0.0, 1.0)
        # A single differing pair is no evidence either.
        assert stats.wilcoxon_paired([1.0, 2.0], [1.0, 5.0]) == 1.0
        big = np.random.default_rng(0).integers(0, 40, 9000).astype(float)
        stats.ks_2samp(big, big + 1)


def test_wilcoxon_on_flags_is_mcnemar() -> None:
    # 30 games flip 0→1 and 10 flip 1→0: McNemar z = (30 − 10)/sqrt(40).
    a = np.array([0.0] * 30 + [1.0] * 10 + [0.0] * 60)
    b = np.array([1.0] * 30 + [0.0] * 10 + [0.0] * 60)
    z = 20 / math.sqrt(40)
    expected = math.erfc(z / math.sqrt(2))
    assert stats.wilcoxon_paired(a, b) == pytest.approx(expected, rel=1e-9)
    with pytest.raises(ValueError):
        stats.wilcoxon_paired([1.0], [1.0, 2.0])


def test_head_to_head_by_hand() -> None:
    """Game 0: A 3, B 1, B 3 -> A beats one B and ties the other: 0.75.
    Game 1: B 2, A 5, B 1 -> A beats both: 1.0. Mean 0.875; B over A 0.125.
    The interval is over the 2 games: 0.875 +- 1.96 * sd(0.75, 1.0) / sqrt(2)."""
    frame = pl.DataFrame(
        {
            "bot_0": ["A", "B"],
            "bot_1": ["B", "A"],
            "bot_2": ["B", "B"],
            "score_0": [3.0, 2.0],
            "score_1": [1.0, 5.0],
            "score_2": [3.0, 1.0],
        }
    )
    h2h = stats.head_to_head(frame, 3, higher_is_better=True)
    assert h2h["A"]["B"]["ahead_share"] == pytest.approx(0.875)
    assert h2h["B"]["A"]["ahead_share"] == pytest.approx(0.125)
    assert h2h["A"]["B"]["games"] == 2 and h2h["A"]["B"]["pairs"] == 4
    half = 1.959963984540054 * np.std([0.75, 1.0], ddof=1) / np.sqrt(2)
    assert h2h["A"]["B"]["ci95"] == pytest.approx([0.875 - half, 1.0])
    lower = stats.head_to_head(frame, 3, higher_is_better=False)
    assert lower["A"]["B"]["ahead_share"] == pytest.approx(0.125)
