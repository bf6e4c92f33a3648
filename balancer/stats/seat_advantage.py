"""Seat advantage: do the seats' expected win shares differ, beyond chance?

The test is Hotelling's T² on the P − 1 contrasts w_s − w_{P−1} of the
per-game win-share vectors, with the per-game covariance of the seats'
shares. Seats' shares in one game are dependent (they sum to 1 when someone
wins; split ties give fractions), which Pearson's chi-square on the totals
ignores (it is conservative: its variance assumes independent seat-games).
Under exchangeable seats the contrasts have mean zero and, by the central
limit theorem, T² scaled to F(P − 1, n − P + 1) gives a uniform p-value.

With seat rotation (slot j at seat (j + g) mod P in game g) every seat holds
every bot equally often across a cycle; the means are then averaged over the
P rotation phases with equal weight and the covariance is pooled within
phases, so bot strength neither biases the means nor inflates the variance.
Without rotation, seats holding different bots cannot be told apart from
bots of different strength: the p-value is None with a note.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

CONFOUNDED_NOTE = (
    "seats hold different bots without rotation: seat and bot are confounded, "
    "so no seat-advantage test (turn on seat_rotation to separate them)"
)


@dataclass(frozen=True)
class SeatAdvantage:
    """Hotelling's T², its F statistic and degrees of freedom, and p (None when not testable)."""

    statistic: float | None
    f: float | None
    df: tuple[int, int] | None
    p_value: float | None
    test: str
    note: str = ""


def confounded(labels: np.ndarray | None, rotate: bool) -> bool:
    """True when seats hold different bots in a fixed arrangement (no rotation).

    `labels` is games × seats of bot labels (None: all seats the same bot).
    """
    if labels is None or rotate:
        return False
    labels = np.asarray(labels).astype(str)
    return len(set(labels.ravel().tolist())) > 1


TEST = "Hotelling T² on seat shares (per-game covariance)"


def seat_advantage(
    wins: np.ndarray,
    labels: np.ndarray | None = None,
    rotate: bool = False,
) -> SeatAdvantage:
    """Test of equal expected win shares across seats from games × seats win shares.

    Assumes independent games and, for the p-value to be uniform under the
    null, enough games for the mean share vector to be near normal (a few
    hundred for 5 seats). `labels` (games × seats bot labels) and `rotate`
    (the variant's seat_rotation; game g has phase g mod P) decide whether the
    test is meaningful and how games are grouped.
    """
    wins = np.asarray(wins, dtype=float)
    if wins.ndim != 2:
        raise ValueError("wins must be a games × seats matrix")
    n, players = wins.shape
    if confounded(labels, rotate):
        return SeatAdvantage(None, None, None, None, TEST, CONFOUNDED_NOTE)
    phases = np.arange(n) % max(1, players) if rotate else None
    return counted_seat_advantage(wins, np.ones(n), phases)


def counted_seat_advantage(
    wins: np.ndarray, counts: np.ndarray, phases: np.ndarray | None
) -> SeatAdvantage:
    """The test from distinct win-share rows, each seen `counts` times.

    A run's streamed counts (stats/streamed.py) group its games by (phase,
    winners); one row per game with counts of 1 is the per-game test. With
    `phases` (seat rotation: each row's game index mod P) the means are
    averaged over the phases with equal weight and the covariance is pooled
    within phases; None treats every game alike.
    """
    from scipy import special

    c = np.asarray(counts, dtype=float)
    n, players = int(c.sum()), wins.shape[1]
    if players < 2 or n < 2:
        return SeatAdvantage(0.0, 0.0, None, 1.0, TEST, "too few seats or games to test")
    # Contrasts against the last seat: any full-rank set of P − 1 contrasts gives the same T².
    contrasts = wins[:, :-1] - wins[:, -1:]
    if phases is not None:
        present = sorted(set(phases.tolist()))
        per_phase = np.array([c[phases == p].sum() for p in present])
        means = (
            np.array([(contrasts[phases == p] * c[phases == p, None]).sum(axis=0) for p in present])
            / per_phase[:, None]
        )
        centre = means.mean(axis=0)
        centred = contrasts - means[np.searchsorted(present, phases)]
        dof = n - len(present)
        # Equal-weight average of phase means: var = Σ_p Σ / (n_p · q²), q phases.
        scale = float((1.0 / per_phase).sum()) / len(present) ** 2
    else:
        centre = (contrasts * c[:, None]).sum(axis=0) / n
        centred = contrasts - centre
        dof = n - 1
        scale = 1.0 / n
    if dof < 1:
        return SeatAdvantage(0.0, 0.0, None, 1.0, TEST, "too few games to test")
    cov = (centred * c[:, None]).T @ centred / dof * scale
    # A contrast with no variance (a seat that never wins, or shares fixed by the
    # rules) carries no noise: pinv drops it, and a non-zero mean on it is exact.
    rank = int(np.linalg.matrix_rank(cov, tol=1e-12 * max(1.0, float(np.abs(cov).max()))))
    if rank == 0:
        exact = bool(np.abs(centre).max() > 1e-12)
        # Exactly unequal shares have no finite statistic: none is given (report.json
        # holds finite numbers only), p 0 says it all.
        return SeatAdvantage(
            None if exact else 0.0,
            None if exact else 0.0,
            None,
            0.0 if exact else 1.0,
            TEST,
            "no per-game variation in seat shares",
        )
    t2 = float(centre @ np.linalg.pinv(cov, rcond=1e-12) @ centre)
    k = rank
    denom_df = dof - k + 1
    if denom_df < 1:
        return SeatAdvantage(t2, None, None, 1.0, TEST, "too few games to test")
    f = t2 * denom_df / (k * dof)
    p = float(special.fdtrc(k, denom_df, f))  # scipy.stats's f.sf, without its import
    return SeatAdvantage(t2, f, (k, denom_df), min(1.0, max(0.0, p)), TEST)
