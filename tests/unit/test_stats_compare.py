"""A/B rows: paired and Welch t, TOST, Holm, the family by hand; A/A and null calibration."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats as sps

from balancer.stats import compare, describe
from balancer.stats.compare import Difference, Figure
from tests.quality.test_stats_calibration import consistent_with_at_most


def fig(values: list[float] | np.ndarray, kind: str = "score", name: str = "x") -> Figure:
    return Figure(name, kind, np.asarray(values, dtype=float))


# --- hand-worked ---------------------------------------------------------------------


def test_paired_difference_by_hand() -> None:
    # d = [1, 0, 2, 1]: mean 1, sd sqrt(2/3), se sqrt(2/3)/2 = 0.4082483, t = 2.4494897, df 3.
    d = compare.difference(fig([1, 2, 3, 4]), fig([2, 2, 5, 5]), paired=True)
    se = math.sqrt(2 / 3) / 2
    assert d.change == 1.0
    assert d.se == pytest.approx(se)
    assert d.df == 3
    assert d.p_value() == pytest.approx(2 * sps.t.sf(1 / se, 3))
    assert d.p_value() == pytest.approx(sps.ttest_rel([2, 2, 5, 5], [1, 2, 3, 4]).pvalue)
    low, high = d.interval()
    assert low == pytest.approx(1 - 3.182446305284263 * se)
    assert high == pytest.approx(1 + 3.182446305284263 * se)


def test_welch_difference_matches_scipy() -> None:
    a, b = [1.0, 2.0, 3.0, 4.0], [2.0, 4.0, 6.0, 8.0, 10.0]
    d = compare.difference(fig(a), fig(b), paired=False)
    # var(a)/4 = 1.6667/4, var(b)/5 = 10/5: se² = 0.4166667 + 2 = 2.4166667.
    assert d.change == 6.0 - 2.5
    assert d.se == pytest.approx(math.sqrt(5 / 12 + 2))
    assert d.p_value() == pytest.approx(sps.ttest_ind(b, a, equal_var=False).pvalue)


def test_ratio_figures_pair_through_influences() -> None:
    # A bot with 2 seats in game 1 and 1 seat in game 2: Σy/Σm.
    a = Figure("bot", "win", np.array([1.0, 0.0]), np.array([2.0, 1.0]))
    b = Figure("bot", "win", np.array([1.0, 1.0]), np.array([2.0, 1.0]))
    d = compare.difference(a, b, paired=True)
    assert d.a == pytest.approx(1 / 3)
    assert d.b == pytest.approx(2 / 3)


def test_tost_by_hand() -> None:
    d = Difference(0.0, 0.1, 0.1, 0.05, 1e9, True, 100, 100, np.zeros(1))
    # δ = 0.2: max(P(T > (0.1 + 0.2)/0.05), P(T < (0.1 − 0.2)/0.05)) = Φ(−2) = 0.02275.
    assert d.tost(0.2) == pytest.approx(sps.norm.cdf(-2), rel=1e-6)
    assert d.tost(0.15) == pytest.approx(sps.norm.cdf(-1), rel=1e-6)


def test_games_needed_by_hand() -> None:
    # se 0.01 at n = 1000; tolerance 0.01; z(0.975) + z(0.8) = 2.8016: n = 1000 · 2.8016².
    d = Difference(0.5, 0.5, 0.0, 0.01, 999, True, 1000, 1000, np.zeros(1))
    z = sps.norm.ppf(0.975) + sps.norm.ppf(0.8)
    assert d.games_needed(0.01, 0.05) == math.ceil(1000 * z**2)


def test_holm_by_hand() -> None:
    # Sorted 0.01, 0.03, 0.04 scaled by 3, 2, 1: 0.03, 0.06, 0.04 -> monotone 0.03, 0.06, 0.06.
    assert compare.holm([0.01, 0.04, 0.03]) == pytest.approx([0.03, 0.06, 0.06])


def test_parse_tolerances() -> None:
    merged = compare.parse_tolerances("win=0.02, score=0.2sd")
    assert merged["win"] == "0.02" and merged["score"] == "0.2sd"
    assert merged["length"] == compare.DEFAULT_TOLERANCES["length"]
    assert compare.parse_tolerance("0.1sd") == (0.1, True)
    for bad in ("speed=0.1", "win", "win=abc", "win=-1", "win=0"):
        with pytest.raises(ValueError):
            compare.parse_tolerances(bad)


def test_constant_rows_leave_the_family_and_duplicates_share_a_verdict() -> None:
    rng = np.random.default_rng(0)
    a = rng.normal(size=200)
    b = a + 0.5 + rng.normal(scale=0.1, size=200)
    pairs = [
        (fig(a, name="x"), fig(b, name="x")),
        (fig(-2 * a + 1, name="mirror"), fig(-2 * b + 1, name="mirror")),  # same test as x
        (fig(np.full(200, 10.0), name="length"), fig(np.full(200, 10.0), name="length")),
        (fig(rng.normal(size=200), name="y"), fig(rng.normal(size=200), name="y")),
    ]
    rows = compare.compare_figures(pairs, paired=True)
    x, mirror, length, y = rows
    assert x.in_family and y.in_family
    assert not mirror.in_family and mirror.duplicate_of == "x"
    assert mirror.p_adjusted == x.p_adjusted and mirror.verdict == x.verdict == "changed"
    assert not length.in_family and length.verdict == "" and length.p_value == 1.0
    # Holm over two rows, not four.
    assert y.p_adjusted == pytest.approx(min(1.0, max(2 * min(x.p_value, y.p_value), y.p_value)))


def test_deterministic_change_is_changed() -> None:
    # Every game one point more: no noise, the change is exact.
    rows = compare.compare_figures([(fig([1, 2, 3]), fig([2, 3, 4]))], paired=True)
    assert rows[0].p_value == 0.0 and rows[0].verdict == "changed"
    assert rows[0].ci95 == (1.0, 1.0)


def test_equivalent_needs_a_tolerance() -> None:
    rng = np.random.default_rng(1)
    a = rng.normal(size=4000)
    b = a + rng.normal(scale=0.1, size=4000)
    pair = [(fig(a), fig(b))]
    assert compare.compare_figures(pair, paired=True)[0].verdict == ""
    row = compare.compare_figures(pair, True, {"score": "0.1sd"})[0]
    assert row.verdict == "equivalent" and row.p_equivalence < 0.05


def test_a_noiseless_change_beside_a_noisy_row_is_no_duplicate() -> None:
    # Row "fixed": A 0, B 1 in every game (se 0, change 1: in the family, p = 0); row "x"
    # varies. Comparing the two for a shared test must not divide by the first's se of 0.
    pairs = [
        (fig([0, 0, 0, 0], name="fixed"), fig([1, 1, 1, 1], name="fixed")),
        (fig([1, 2, 3, 4], name="x"), fig([2, 2, 5, 5], name="x")),
    ]
    for order in (pairs, pairs[::-1]):
        rows = {row.figure: row for row in compare.compare_figures(order, paired=True)}
        assert rows["fixed"].in_family and rows["x"].in_family
        assert rows["fixed"].duplicate_of is None and rows["x"].duplicate_of is None
        assert rows["fixed"].verdict == "changed"


def test_equivalent_when_the_tost_p_is_alpha_exactly() -> None:
    # d = B − A = [-3, 1, 1, 3]: change 0.5, se sqrt(19/12). With the tolerance 0.5 the
    # upper one-sided test sits at t = 0: p = 1/2 exactly, the lower one is smaller. At
    # alpha 1/2 the rule "p <= alpha" calls it equivalent; the t-test's p (0.72) is not
    # below 1/2, so the row is not "changed" first.
    pair = [(fig([0, 0, 0, 0]), fig([-3, 1, 1, 3]))]
    row = compare.compare_figures(pair, True, {"score": "0.5"}, alpha=0.5)[0]
    assert row.p_equivalence == 0.5 and row.p_adjusted > 0.5
    assert row.verdict == "equivalent"


def test_welch_with_one_game_in_a() -> None:
    # A one game (no variance of its own), B [1, 2, 3]: se² = var(B)/3 = 1/3, and
    # Welch–Satterthwaite gives B's df alone, 2.
    d = compare.difference(fig([3.0]), fig([1, 2, 3]), paired=False)
    assert d.change == -1.0
    assert d.se == pytest.approx(math.sqrt(1 / 3))
    assert d.df == pytest.approx(2.0)


def test_row_contract_fields_are_plain() -> None:
    row = compare.compare_figures([(fig([1, 2, 3]), fig([1, 3, 3]))], paired=True)[0]
    contract = row.contract()
    assert list(contract) == [
        "figure",
        "a",
        "b",
        "change",
        "ci95",
        "test",
        "p_value",
        "p_adjusted",
        "verdict",
    ]
    assert all(type(v) in (str, float, list) for v in contract.values())


# --- calibration by simulation ----------------------------------------------------------


def _tie_game_wins(
    rng: np.random.Generator, games: int, fine: bool
) -> tuple[np.ndarray, np.ndarray]:
    """Five exchangeable seats; the same deal scored coarsely (many ties) or finely.

    The coarse score is the deal's value rounded to 0, 1, 2; the fine one breaks
    coarse ties by the deal's exact value. Every seat's share is 1/5 under both.
    Returns (coarse wins, fine wins) from the same deals: a paired null.
    """
    raw = rng.random((games, 5))
    coarse = np.floor(raw * 3)
    wins = []
    for scores in (coarse, raw):
        best = scores == scores.max(axis=1, keepdims=True)
        wins.append(best / best.sum(axis=1, keepdims=True))
    return wins[0], wins[1]


def test_tie_rate_change_does_not_flag_win_shares() -> None:
    """The count-vs-face null: scoring changes how often games tie, not who wins on average."""
    rng = np.random.default_rng(11)
    reps, games = 400, 500
    flagged = wilcoxon_flagged = 0
    for rep in range(reps):
        coarse, fine = _tie_game_wins(rng, games, True)
        pairs = [
            (fig(coarse[:, s], "win", f"seat {s}"), fig(fine[:, s], "win", f"seat {s}"))
            for s in range(5)
        ]
        rows = compare.compare_figures(pairs, paired=True)
        flagged += any(r.verdict == "changed" for r in rows)
        if rep < 50:
            p = [describe.wilcoxon_paired(coarse[:, s], fine[:, s]) for s in range(5)]
            wilcoxon_flagged += bool((describe.holm(p) <= 0.05).any())
    assert consistent_with_at_most(flagged, reps, 0.05), flagged / reps
    # The signed-rank test it replaces flags most of these diffs: the null is a real trap.
    assert wilcoxon_flagged / 50 >= 0.5


def _aa_run(rng: np.random.Generator, games: int) -> dict[str, np.ndarray]:
    wins = _tie_game_wins(rng, games, True)[0]
    return {
        **{f"seat {s}": wins[:, s] for s in range(5)},
        "score": rng.poisson(3, games) * 1.0,
        "length": rng.integers(5, 9, games) * 1.0,
        "event": rng.poisson(0.4, games) * 1.0,
    }


def test_unpaired_a_a_flags_nothing_95_percent_of_the_time() -> None:
    rng = np.random.default_rng(12)
    reps, games = 300, 300
    flagged = 0
    for _ in range(reps):
        a, b = _aa_run(rng, games), _aa_run(rng, games)
        pairs = [(fig(a[k], "score", k), fig(b[k], "score", k)) for k in a]
        rows = compare.compare_figures(pairs, paired=False)
        flagged += any(r.verdict == "changed" for r in rows)
    assert consistent_with_at_most(flagged, reps, 0.05), flagged / reps


def test_paired_t_size_and_tost_size() -> None:
    """Paired t rejects a true null at ≈ α; TOST calls a change of exactly δ 'equivalent' ≤ α."""
    rng = np.random.default_rng(13)
    reps, games, delta = 2000, 400, 0.1
    reject = equivalent_at_delta = equivalent_at_zero = 0
    for _ in range(reps):
        a = rng.normal(size=games)
        noise = rng.normal(scale=0.8, size=games)
        null = compare.difference(fig(a), fig(a + noise), paired=True)
        reject += null.p_value() <= 0.05
        equivalent_at_zero += null.tost(delta * 4) <= 0.05
        at_delta = compare.difference(fig(a), fig(a + noise + delta), paired=True)
        equivalent_at_delta += at_delta.tost(delta) <= 0.05
    assert abs(reject / reps - 0.05) <= 0.015
    assert equivalent_at_delta / reps <= 0.05 + 0.015
    # With a tolerance well above the noise, no change is called equivalent nearly always.
    assert equivalent_at_zero / reps >= 0.9
