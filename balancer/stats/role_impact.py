"""Card impact by role: what one more card of a role in the opening hand is worth.

Card impact (card_tally.py) compares the seats that held one kind with those that
did not, kind by kind; a designer who asks "is `speed` too strong?" wants the
role's worth as one number. For each role, over every (game, seat): x, the
distinct kinds of that role the seat held, and y, its win share (ties split).
The figure is the least-squares slope of y on x, pooled over seats and games:
the win share one more card of the role brings, other things as the deal made
them (a hand with more of one role holds fewer of the others, so the slopes of
the roles are not independent of each other: each says what trading another
card for one of this role is worth on average).

The seats of one game are not independent (their win shares add up to 1), so
the slope's standard error is clustered by game: the sandwich

    Var(b) = G / (G - 1) * sum over games of u_g^2 / Sxx^2,
    u_g = sum over seats of (x - mean x) * (y - mean y - b (x - mean x)),

with Sxx the pooled sum of squares of x. Every u_g is linear in three sums of
the game's seats (X1 = Σx, X2 = Σx², XY = Σxy; a game's win shares add up to
1): u_g = w_g · v with w_g = (XY, X1, X2, 1) and v set by the slope and means.
So per role, gathered block by block, four sums (games, ΣX1, ΣX2, ΣXY) and the
triangular factor R of the games' rows w_g (R'R = Σ w_g w_g', updated by a QR
of R stacked over each block's rows) are all it takes: Σ u_g² = |R v|².

Why a QR factor and not the ten sums Σ w_g w_g' expanded: when the residuals are
near 0 the expanded sum of squares is a difference of large terms and keeps only
half the digits (a half-width of 1.5e-8 where the long way gives 3e-17, on
3 games of 3 players), while |R v|² is a sum of squares, never below 0, and
loses no more than the inputs' rounding. Holm's correction runs over the roles
compared.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import polars as pl

from balancer import table
from balancer.stats.card_tally import ALPHA, BLOCK, Z95, has_cards

# The sums, per role: games, then Σ over games of X1, X2, XY (the module's docstring).
_SUMS = 4
# A game's row w_g = (XY, X1, X2, 1): R is 4 x 4.
_ROW = 4


@dataclass(frozen=True)
class RoleImpact:
    role: str
    mean_held: float  # distinct kinds of the role a seat held, on average
    slope: float  # win share per one more kind of the role held
    low: float  # its 95% interval, clustered by game
    high: float
    p_value: float = 1.0
    p_holm: float = 1.0  # after Holm's correction over the roles compared

    @property
    def significant(self) -> bool:
        return self.p_holm <= ALPHA


class RoleTally:
    """The sums of every role (module docstring), added a block of games at a time."""

    def __init__(self, players: int, role_of_kind: Sequence[int], n_roles: int) -> None:
        self.players = players
        self.n_roles = n_roles
        # kinds x roles, 1 where the kind is of the role: a seat's held kinds times
        # this are its count of each role.
        self.one_hot = np.zeros((len(role_of_kind), n_roles), dtype=np.int64)
        self.one_hot[np.arange(len(role_of_kind)), np.asarray(role_of_kind, dtype=np.int64)] = 1
        self.sums = np.zeros((_SUMS, n_roles))
        self.factor = np.zeros((n_roles, _ROW, _ROW))  # R per role, R'R = Σ w_g w_g'

    def add(self, wins: np.ndarray, held: np.ndarray) -> None:
        """wins float [games, players] (ties split); held bool [games, players, kinds]."""
        x = held.astype(np.int64) @ self.one_hot  # [games, players, roles]
        y = np.asarray(wins, dtype=np.float64)[:, :, None]
        x1 = x.sum(axis=1).astype(np.float64)  # [games, roles]
        x2 = (x * x).sum(axis=1).astype(np.float64)
        xy = (x * y).sum(axis=1)
        self.sums[0] += x.shape[0]
        for i, column in enumerate((x1, x2, xy), start=1):
            self.sums[i] += column.sum(axis=0)
        rows = np.stack((xy, x1, x2, np.ones_like(x1)), axis=2)  # [games, roles, 4]
        stacked = np.concatenate((self.factor, rows.transpose(1, 0, 2)), axis=1)
        # mode="r" returns R alone (numpy's stubs type every mode as the (Q, R) pair).
        self.factor = np.asarray(np.linalg.qr(stacked, mode="r"))

    def impact(self, roles: Sequence[str]) -> list[RoleImpact]:
        """Every role's row, in the order given (the deck's roles)."""
        g, sx1, sx2, sxy = self.sums
        p = self.players
        n = g * p
        with np.errstate(divide="ignore", invalid="ignore"):
            mean_x = np.where(n > 0, sx1 / np.maximum(n, 1), 0.0)
            mean_y = 1.0 / p
            sxx = sx2 - n * mean_x**2
            slope = np.where(sxx > 0, (sxy - mean_y * sx1) / np.where(sxx > 0, sxx, 1), 0.0)
            # u_g = XY + a X1 + b X2 + c (a game's win shares add up to 1).
            a = -mean_y + 2 * slope * mean_x
            b = -slope
            c = -slope * p * mean_x**2
            v = np.stack((np.ones_like(a), a, b, c), axis=1)  # [roles, 4]
            squares = (np.einsum("rij,rj->ri", self.factor, v) ** 2).sum(axis=1)
            variance = squares / np.where(sxx > 0, sxx, 1) ** 2
            se = np.sqrt(variance * g / np.maximum(g - 1, 1))
        comparable = (sxx > 1e-9 * np.maximum(n, 1)) & (g > 1)
        p_values = np.ones(self.n_roles)
        for k in np.flatnonzero(comparable):
            if se[k] > 0:
                p_values[k] = math.erfc(abs(slope[k]) / se[k] / math.sqrt(2))
            elif slope[k] != 0:
                p_values[k] = 0.0
        from balancer.stats.compare import holm

        p_holm = np.ones(self.n_roles)
        tested = np.flatnonzero(comparable)
        if tested.size:
            p_holm[tested] = holm(p_values[tested].tolist())
        rows = []
        for r, name in enumerate(roles):
            b_r = float(slope[r]) if comparable[r] else 0.0
            half = Z95 * float(se[r]) if comparable[r] else 0.0
            rows.append(
                RoleImpact(
                    name, float(mean_x[r]), b_r, b_r - half, b_r + half,
                    float(p_values[r]), float(p_holm[r]),
                )
            )  # fmt: skip
        return rows


def role_impact(
    games: pl.DataFrame | pl.LazyFrame,
    players: int,
    role_of_kind: Sequence[int],
    roles: Sequence[str],
) -> list[RoleImpact] | None:
    """Every role's impact from a games table (or a lazy scan of games.parquet, read a
    block at a time); None when the table records no cards held."""
    kinds = len(role_of_kind)
    columns = [table.win(s) for s in range(players)]
    columns += [table.held(s, w) for s in range(players) for w in range(table.held_words(kinds))]
    lazy = games.lazy() if isinstance(games, pl.DataFrame) else games
    if not has_cards(lazy.select(pl.all()).head(0).collect()):
        return None
    height = int(lazy.select(pl.len()).collect().item())
    tally = RoleTally(players, role_of_kind, len(roles))
    for lo in range(0, height, BLOCK):
        block = lazy.slice(lo, BLOCK).select(columns).collect()
        wins = np.stack([block[table.win(s)].to_numpy() for s in range(players)], axis=1)
        tally.add(wins, table.held_matrix(block, players, kinds))
    return tally.impact(roles)
