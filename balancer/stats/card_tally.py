"""Card impact: for every card kind, how seats that held it fared against seats that did not.

Its sums are gathered as a run's games arrive (CardTally), or from a whole
games table (card_impact); report/cards.py shows the rows.

From the games table's held_<s>_<w> columns (table.py; fdc: the opening
hand). For kind k, over every (game, seat): the win share of the seats that
held k, of those that did not, and their difference with a 95% interval.
Win shares split ties (1/k each for a k-way tie), as everywhere in stats/.

The seats of one game are not independent (one seat's win is the others'
loss, and the kinds in one hand are the kinds missing from the others), so
the interval is clustered by game: each share is a ratio of per-game sums,
and the difference's variance is the cluster-robust (sandwich) variance of
its linearisation, sum over games of z_g^2 times G / (G - 1), with

    z_g = (a_g - p1 n_g) / N1 - (b_g - p0 m_g) / N0

where a_g, n_g are game g's win shares and seat count among holders, b_g,
m_g among the others, and N1, N0 their totals. Rows come sorted by effect,
the difference from the largest down.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import polars as pl

from balancer import table
from balancer.jit import njit

Z95 = 1.959963984540054  # two-sided 95% normal quantile
ALPHA = 0.05  # family-wise error rate over the kinds (Holm)


@dataclass(frozen=True)
class CardImpact:
    card: str  # the kind's name ("red fish 3")
    held_seats: int  # (game, seat) pairs that held it
    held_win_share: float
    other_seats: int
    other_win_share: float
    difference: float  # held_win_share - other_win_share
    low: float  # 95% interval for the difference, clustered by game
    high: float
    # The two-sided test of "no difference" (z from the same clustered standard error),
    # and its p after Holm's correction over every kind compared: with 60 kinds tested at
    # 5% each, about 3 would look significant by chance; adjusted, the chance that any
    # does is at most 5%. 1.0 for a kind with nothing to compare.
    p_value: float = 1.0
    p_holm: float = 1.0

    @property
    def significant(self) -> bool:
        """Whether the kind's difference survives Holm's correction at 5%."""
        return self.p_holm <= ALPHA


BLOCK = 65_536  # games per block handed to the compiled tally

# The index of a lone set bit, by de Bruijn multiplication: (bit * DE_BRUIJN) >> 58 is
# distinct for each of the 64 bits. A table look-up instead of a floating-point log2
# (a third of the tally's time).
DE_BRUIJN = np.uint64(0x03F79D71B4CB0A89)
BIT_INDEX = np.zeros(64, dtype=np.int64)
for _bit in range(64):
    BIT_INDEX[((1 << _bit) * 0x03F79D71B4CB0A89 % (1 << 64)) >> 58] = _bit


@njit
def _tally(wins: np.ndarray, held: np.ndarray, players: int, sums: np.ndarray) -> None:
    """Add one block's games to sums [5, kinds]: a, n, a*a, a*n, n*n summed over games.

    a: the holders' win shares in a game, n: the holders (see CardTally). A
    kind no seat held adds nothing, so only the set bits are visited.
    """
    n_kinds = sums.shape[1]
    words = held.shape[1] // players
    a = np.zeros(n_kinds)
    n = np.zeros(n_kinds)
    touched = np.zeros(n_kinds, dtype=np.int64)
    one = np.uint64(1)
    shift = np.uint64(58)
    for g in range(wins.shape[0]):
        count = 0
        for s in range(players):
            w = wins[g, s]
            for word in range(words):
                bits = held[g, s * words + word]
                while bits != 0:
                    low = bits & (~bits + one)  # the lowest set bit
                    bits ^= low
                    k = word * 64 + BIT_INDEX[(low * DE_BRUIJN) >> shift]
                    if n[k] == 0.0:
                        touched[count] = k
                        count += 1
                    n[k] += 1.0
                    a[k] += w
        for i in range(count):
            k = touched[i]
            sums[0, k] += a[k]
            sums[1, k] += n[k]
            sums[2, k] += a[k] * a[k]
            sums[3, k] += a[k] * n[k]
            sums[4, k] += n[k] * n[k]
            a[k] = 0.0
            n[k] = 0.0


class CardTally:
    """The sums card impact needs, added block by block as a run's games arrive.

    Per kind and game: a (the holders' win shares), n (the holders), b (the
    others' win shares) and m (the others). The shares are ratios of their
    totals, and the clustered variance (the module docstring) expands into sums
    of products of a, n, b, m over games. A game's win shares add up to 1
    (ties split), so b = 1 - a and m = players - n, and five sums per kind
    are all it takes: Σa, Σn, Σa², Σan, Σn². One pass, nothing per game
    kept, the same whether the games come from a run as they are played
    (sim/sink.py) or from a report's games.parquet.
    """

    def __init__(self, players: int, n_kinds: int) -> None:
        self.players = players
        self.n_kinds = n_kinds
        self.games = 0
        self.sums = np.zeros((5, n_kinds))
        # A split win is 1/k of a game for some k <= players: times this scale every
        # share is a whole number, so the sums are exact, the same in any order or
        # batching (a run's streamed rows equal those read back from games.parquet).
        self.scale = math.lcm(*range(1, players + 1))

    def add(self, wins: np.ndarray, held: np.ndarray) -> None:
        """wins float [games, players] (ties split); held uint64 [games, players * words]."""
        wins = np.rint(np.asarray(wins, dtype=np.float64) * self.scale)
        held = np.ascontiguousarray(held, dtype=np.uint64)
        for lo in range(0, wins.shape[0], BLOCK):
            _tally(wins[lo : lo + BLOCK], held[lo : lo + BLOCK], self.players, self.sums)
        self.games += wins.shape[0]

    def merge(self, other: CardTally) -> None:
        """Add another tally's games (a chunk tallied where it was played): exact, any order."""
        self.sums += other.sums
        self.games += other.games

    def impact(self, kinds: Sequence[str]) -> list[CardImpact]:
        """Every kind's row (module docstring), sorted by difference, largest first.

        A kind every seat held, or none did, has nothing to compare: its share
        for the empty side is 0 and its difference and interval are 0 (a
        neutral row, kept so every kind is listed).
        """
        g, p, scale = self.games, self.players, self.scale
        sa, sn, saa, san, snn = self.sums
        sa, saa, san = sa / scale, saa / scale**2, san / scale
        # b = 1 - a, m = p - n (the class docstring)
        sb, sm = g - sa, p * g - sn
        sbb, sbm, smm = g - 2 * sa + saa, p * g - sn - p * sa + san, p * p * g - 2 * p * sn + snn
        sab, sam, snb, snm = sa - saa, p * sa - san, sn - san, p * sn - snn
        n1, n0 = sn, sm
        p1 = np.divide(sa, n1, out=np.zeros(self.n_kinds), where=n1 > 0)
        p0 = np.divide(sb, n0, out=np.zeros(self.n_kinds), where=n0 > 0)
        comparable = (n1 > 0) & (n0 > 0) & (g > 1)
        u1, u0 = np.where(n1 > 0, n1, 1), np.where(n0 > 0, n0, 1)
        # sum over games of z_g^2, z_g = (a - p1 n) / N1 - (b - p0 m) / N0, expanded.
        holders = saa - 2 * p1 * san + p1**2 * snn
        others = sbb - 2 * p0 * sbm + p0**2 * smm
        cross = sab - p0 * sam - p1 * snb + p1 * p0 * snm
        squares = holders / u1**2 + others / u0**2 - 2 * cross / (u1 * u0)
        se = np.sqrt(np.maximum(squares, 0.0) * g / max(g - 1, 1))
        from balancer.stats.compare import holm

        p_values = _p_values(p1 - p0, se, comparable)
        # Holm over the kinds with something to compare (the family of tests made).
        tested = np.flatnonzero(comparable)
        p_holm = np.ones(self.n_kinds)
        p_holm[tested] = holm(p_values[tested].tolist())
        rows = []
        for k, name in enumerate(kinds):
            diff, half = (float(p1[k] - p0[k]), Z95 * float(se[k])) if comparable[k] else (0.0, 0.0)
            rows.append(
                CardImpact(
                    name, int(n1[k]), float(p1[k]), int(n0[k]), float(p0[k]), diff,
                    diff - half, diff + half, float(p_values[k]), float(p_holm[k]),
                )
            )  # fmt: skip
        rows.sort(key=lambda r: -r.difference)
        return rows


def has_cards(games: pl.DataFrame) -> bool:
    """Whether the games table records the card kinds each seat held."""
    return table.held(0, 0) in games.columns


def card_impact(games: pl.DataFrame, players: int, kinds: Sequence[str]) -> list[CardImpact]:
    """Every kind's impact from a games table (CardTally.impact)."""
    n_words = table.held_words(len(kinds))
    tally = CardTally(players, len(kinds))
    columns = [table.held(s, w) for s in range(players) for w in range(n_words)]
    for lo in range(0, games.height, BLOCK):
        block = games.slice(lo, BLOCK)
        wins = np.stack([block[table.win(s)].to_numpy() for s in range(players)], axis=1)
        held = np.stack([block[c].to_numpy().astype(np.uint64) for c in columns], axis=1)
        tally.add(wins.astype(np.float64), held)
    return tally.impact(kinds)


def _p_values(diff: np.ndarray, se: np.ndarray, comparable: np.ndarray) -> np.ndarray:
    """Two-sided normal p of each difference over its standard error (1 where not compared)."""
    from scipy import special

    p = np.ones(diff.shape)
    for k in np.flatnonzero(comparable):
        if se[k] > 0:
            # 2 (1 - Φ(|z|)) = erfc(|z| / √2), exact in the far tail.
            p[k] = float(special.erfc(abs(diff[k]) / se[k] / math.sqrt(2)))
        elif diff[k] != 0:
            p[k] = 0.0  # no variation at all and a difference: nothing but the difference
    return p
