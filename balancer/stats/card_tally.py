"""Card impact's sums, gathered as a run's games arrive (analysis/cards.py says what they mean).

For kind k, over every (game, seat): the win share of the seats that held
k against those that did not, and the difference's 95% interval clustered
by game (the sandwich variance of its linearisation; analysis/cards.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

Z95 = 1.959963984540054  # two-sided 95% normal quantile


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


BLOCK = 65_536  # games per block: [BLOCK, kinds] float arrays stay a few MB


def _bits(held: np.ndarray, players: int, n_kinds: int) -> np.ndarray:
    """float64 [games, players, n_kinds]: bit k of each seat's held words (little-endian)."""
    games = held.shape[0]
    words = held.reshape(games, players, -1).astype("<u8")
    bits = np.unpackbits(words.view(np.uint8), axis=2, bitorder="little")
    return bits[:, :, :n_kinds].astype(np.float64)


class CardTally:
    """The sums card impact needs, added block by block as a run's games arrive.

    Per kind and game: a (holders' win shares), n (holders), b (the others'
    win shares), m (the others). The shares are ratios of their totals, and
    the clustered variance of the module docstring expands into sums of
    products of a, n, b, m over games, so one pass over the games suffices
    and nothing per game is kept: the same whether the games come from a
    run as they are played (sim/sink.py) or from a report's games.parquet.
    """

    _PRODUCTS = ("aa", "an", "nn", "bb", "bm", "mm", "ab", "am", "nb", "nm")

    def __init__(self, players: int, n_kinds: int) -> None:
        self.players = players
        self.n_kinds = n_kinds
        self.games = 0
        self.sums = {key: np.zeros(n_kinds) for key in ("a", "n", "b", "m", *self._PRODUCTS)}

    def add(self, wins: np.ndarray, held: np.ndarray) -> None:
        """wins float [games, players] (ties split); held uint64 [games, players * words]."""
        for lo in range(0, wins.shape[0], BLOCK):
            self._add_block(wins[lo : lo + BLOCK], held[lo : lo + BLOCK])

    def _add_block(self, wins: np.ndarray, held: np.ndarray) -> None:
        bits = _bits(held, self.players, self.n_kinds)  # [B, P, K]
        per_game = {
            "a": np.einsum("gs,gsk->gk", wins, bits),
            "n": bits.sum(axis=1),
        }
        per_game["b"] = wins.sum(axis=1)[:, None] - per_game["a"]
        per_game["m"] = self.players - per_game["n"]
        sums = self.sums
        for key, values in per_game.items():
            sums[key] += values.sum(axis=0)
        for key in self._PRODUCTS:
            sums[key] += np.einsum("gk,gk->k", per_game[key[0]], per_game[key[1]])
        self.games += wins.shape[0]

    def impact(self, kinds: Sequence[str]) -> list[CardImpact]:
        """Every kind's row (module docstring), sorted by difference, largest first.

        A kind every seat held, or none did, has nothing to compare: its share
        for the empty side is 0 and its difference and interval are 0 (a
        neutral row, kept so every kind is listed).
        """
        s, g = self.sums, self.games
        n1, n0 = s["n"], s["m"]
        p1 = np.divide(s["a"], n1, out=np.zeros(self.n_kinds), where=n1 > 0)
        p0 = np.divide(s["b"], n0, out=np.zeros(self.n_kinds), where=n0 > 0)
        comparable = (n1 > 0) & (n0 > 0) & (g > 1)
        u1, u0 = np.where(n1 > 0, n1, 1), np.where(n0 > 0, n0, 1)
        # sum over games of z_g^2, z_g = (a - p1 n) / N1 - (b - p0 m) / N0, expanded.
        holders = s["aa"] - 2 * p1 * s["an"] + p1**2 * s["nn"]
        others = s["bb"] - 2 * p0 * s["bm"] + p0**2 * s["mm"]
        cross = s["ab"] - p0 * s["am"] - p1 * s["nb"] + p1 * p0 * s["nm"]
        squares = holders / u1**2 + others / u0**2 - 2 * cross / (u1 * u0)
        se = np.sqrt(np.maximum(squares, 0.0) * g / max(g - 1, 1))
        rows = []
        for k, name in enumerate(kinds):
            diff, half = (float(p1[k] - p0[k]), Z95 * float(se[k])) if comparable[k] else (0.0, 0.0)
            rows.append(
                CardImpact(
                    name, int(n1[k]), float(p1[k]), int(n0[k]), float(p0[k]), diff,
                    diff - half, diff + half,
                )
            )  # fmt: skip
        rows.sort(key=lambda r: -r.difference)
        return rows
