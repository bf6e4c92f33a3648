"""Card impact's sums (stats/card_tally.py) against a plain count, bit by bit.

The compiled tally finds each set bit of a held mask by a de Bruijn look-up;
a plain Python loop over every kind and seat gives the same five sums, for
kinds in any word and at any bit (bit 63 included), and chunks merge exactly.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from balancer.stats.card_tally import BIT_INDEX, DE_BRUIJN, Z95, CardTally


def plain_sums(wins: np.ndarray, held: np.ndarray, kinds: int) -> np.ndarray:
    """Σa, Σn, Σa², Σan, Σn² per kind, a and n per game by looping over seats and kinds."""
    games, players = wins.shape
    words = held.shape[1] // players
    scale = math.lcm(*range(1, players + 1))
    sums = np.zeros((5, kinds))
    for g in range(games):
        for k in range(kinds):
            a = n = 0.0
            for s in range(players):
                if (int(held[g, s * words + k // 64]) >> (k % 64)) & 1:
                    n += 1
                    a += round(wins[g, s] * scale)
            sums[:, k] += (a, n, a * a, a * n, n * n)
    return sums


def test_each_lone_bit_has_its_index() -> None:
    for bit in range(64):
        low = np.uint64(1 << bit)
        assert BIT_INDEX[int((low * DE_BRUIJN) >> np.uint64(58))] == bit


def test_the_tally_is_a_plain_count_of_every_kind_held() -> None:
    rng = np.random.default_rng(8)
    players, kinds, games = 3, 130, 120  # three words a seat; the last one partly used
    wins = rng.integers(0, 2, size=(games, players)).astype(float)
    wins = wins / np.maximum(wins.sum(axis=1, keepdims=True), 1)  # ties split, or no winner
    held = rng.integers(0, 1 << 63, size=(games, players * 3), dtype=np.uint64)
    held[:, 0] |= np.uint64(1 << 63)  # bit 63 of word 0: kind 63, held by seat 0 every game
    for s in range(players):
        held[:, s * 3 + 2] &= np.uint64((1 << 2) - 1)  # kinds 128 and 129 only
    tally = CardTally(players, kinds)
    tally.add(wins, held)
    assert np.array_equal(tally.sums, plain_sums(wins, held, kinds))
    parts = CardTally(players, kinds)
    for lo in range(0, games, 50):
        part = CardTally(players, kinds)
        part.add(wins[lo : lo + 50], held[lo : lo + 50])
        parts.merge(part)
    assert parts.games == games and np.array_equal(parts.sums, tally.sums)


def test_two_games_by_hand() -> None:
    """Two seats, kinds 0 and 1: game 0 seat 0 wins holding kind 0, seat 1 holds both;
    game 1 a tie, seat 1 holds kind 1. Scale 2: a win is 2, half a win 1."""
    wins = np.array([[1.0, 0.0], [0.5, 0.5]])
    held = np.array([[0b01, 0b11], [0b00, 0b10]], dtype=np.uint64)
    tally = CardTally(2, 2)
    tally.add(wins, held)
    # kind 0: game 0 a=2 (seat 0), n=2 (seats 0, 1); game 1 nobody.
    # kind 1: game 0 a=0, n=1 (seat 1); game 1 a=1, n=1.
    assert tally.sums.tolist() == [[2, 1], [2, 2], [4, 1], [4, 1], [4, 2]]


def test_the_clustered_interval_of_three_games_by_hand() -> None:
    """Two seats, one kind. Game 0: seat 0 holds it and wins; game 1: seat 0 holds it,
    seat 1 wins; game 2: seat 1 holds it and wins. Holders 2 wins of 3 seats (p1 = 2/3),
    the others 1 of 3 (p0 = 1/3). z_g = (a − p1 n)/3 − (b − p0 m)/3: 2/9, −4/9, 2/9;
    Σz² = 24/81, times G/(G − 1) = 3/2: a variance of 4/9, se 2/3. The holders' and the
    others' terms are not independent (their cross term is −2/3): the se counts it."""
    wins = np.array([[1.0, 0.0], [0.0, 1.0], [0.0, 1.0]])
    held = np.array([[1, 0], [1, 0], [0, 1]], dtype=np.uint64)
    tally = CardTally(2, 1)
    tally.add(wins, held)
    (row,) = tally.impact(["k0"])
    assert (row.held_seats, row.other_seats) == (3, 3)
    assert row.held_win_share == 2 / 3 and row.other_win_share == 1 / 3
    assert row.difference == 2 / 3 - 1 / 3
    assert row.low == pytest.approx(1 / 3 - Z95 * 2 / 3)
    assert row.high == pytest.approx(1 / 3 + Z95 * 2 / 3)


def _null_tally(seed: int, games: int = 4000, players: int = 5, kinds: int = 60) -> CardTally:
    """Each seat holds 12 random kinds of 60, and wins at random: no kind matters."""
    rng = np.random.default_rng(seed)
    tally = CardTally(players, kinds)
    winners = rng.integers(0, players, games)
    wins = np.zeros((games, players))
    wins[np.arange(games), winners] = 1.0
    held = np.zeros((games, players), dtype=np.uint64)
    for g in range(games):
        deck = rng.permutation(kinds)
        for s in range(players):
            mask = 0
            for k in deck[s * 12 : (s + 1) * 12]:
                mask |= 1 << int(k)
            held[g, s] = mask
    tally.add(wins, held)
    return tally


def test_each_kind_p_value_agrees_with_its_interval() -> None:
    rows = _null_tally(3).impact([f"k{i}" for i in range(60)])
    for r in rows:
        excludes_zero = r.low > 0 or r.high < 0
        assert excludes_zero == (r.p_value < 0.05), r
        assert r.p_holm >= r.p_value


def test_holm_keeps_chance_differences_from_looking_significant() -> None:
    # Twenty null runs of 60 kinds: unadjusted, about 3 kinds a run miss 0 at 95%; after
    # Holm, a run with any significant kind should come about 1 time in 20 or less.
    raw, runs_flagged = 0, 0
    for seed in range(20):
        rows = _null_tally(seed, games=1500).impact([f"k{i}" for i in range(60)])
        raw += sum(r.p_value < 0.05 for r in rows)
        runs_flagged += any(r.significant for r in rows)
    assert raw >= 20  # the uncorrected intervals do flag kinds (the control)
    assert runs_flagged <= 3


def test_a_kind_that_matters_stays_significant_after_correction() -> None:
    games, players = 4000, 5
    # Kind 0 always wins: every holder of it in some games takes the win there.
    rng = np.random.default_rng(9)
    wins = np.zeros((games, players))
    held = np.zeros((games, players), dtype=np.uint64)
    for g in range(games):
        holder = int(rng.integers(0, players))
        held[g, holder] = 1
        wins[g, holder] = 1.0
        for s in range(players):
            if s != holder:
                held[g, s] = np.uint64(1 << int(rng.integers(1, 60)))
    tally = CardTally(players, 60)
    tally.add(wins, held)
    rows = {r.card: r for r in tally.impact([f"k{i}" for i in range(60)])}
    assert rows["k0"].significant and rows["k0"].difference > 0.9
