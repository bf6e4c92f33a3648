"""Card impact by role (stats/role_impact.py): the slope of win share on the cards of a
role held, with its interval clustered by game, against hand-worked and brute-force
numbers."""

from __future__ import annotations

import math

import numpy as np
import polars as pl
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from balancer import table
from balancer.stats.role_impact import RoleTally, role_impact

# Four kinds: 0 and 1 are role 0 ("speed"), 2 and 3 role 1 ("block").
ROLE_OF_KIND = (0, 0, 1, 1)
ROLES = ("speed", "block")


def held(*hands: tuple[int, ...]) -> np.ndarray:
    out = np.zeros((1, len(hands), 4), dtype=bool)
    for seat, kinds in enumerate(hands):
        out[0, seat, list(kinds)] = True
    return out


def test_two_games_worked_by_hand() -> None:
    """Game 1: seat 0 holds both speeds and wins, seat 1 both blocks. Game 2 the other
    way round. Speeds held: 2, 0, 0, 2 (mean 1); wins 1, 0, 0, 1 (mean 1/2). Sxx = 4,
    Sxy = 1·½ + (−1)(−½) + (−1)(−½) + 1·½ = 2: one more speed is worth +0.5 of a win,
    and every point lies on the line, so no residual: an interval of width 0 (to the
    rounding of the QR factor the residuals are summed through). Blocks are the
    mirror: −0.5."""
    tally = RoleTally(2, ROLE_OF_KIND, 2)
    tally.add(np.array([[1.0, 0.0]]), held((0, 1), (2, 3)))
    tally.add(np.array([[0.0, 1.0]]), held((2, 3), (0, 1)))
    speed, block = tally.impact(ROLES)
    assert (speed.role, speed.mean_held, speed.slope) == ("speed", 1.0, 0.5)
    assert speed.low == pytest.approx(0.5, abs=1e-12) and speed.p_value == 0.0
    assert speed.high == pytest.approx(0.5, abs=1e-12)
    assert block.slope == -0.5
    assert block.low == pytest.approx(-0.5, abs=1e-12)
    assert block.high == pytest.approx(-0.5, abs=1e-12)


def test_a_role_every_seat_holds_alike_has_nothing_to_compare() -> None:
    tally = RoleTally(2, ROLE_OF_KIND, 2)
    tally.add(np.array([[1.0, 0.0]]), held((0, 2), (1, 3)))
    tally.add(np.array([[0.5, 0.5]]), held((0, 3), (1, 2)))
    for row in tally.impact(ROLES):
        assert (row.slope, row.low, row.high, row.p_holm) == (0.0, 0.0, 0.0, 1.0)


def brute_force(wins: np.ndarray, counts: np.ndarray) -> tuple[float, float]:
    """The slope and its clustered standard error, the long way (one role)."""
    games, players = wins.shape
    x, y = counts.ravel().astype(float), wins.ravel()
    mx, my = x.mean(), y.mean()
    sxx = ((x - mx) ** 2).sum()
    slope = ((x - mx) * (y - my)).sum() / sxx
    u = [
        sum((counts[g, s] - mx) * (wins[g, s] - my - slope * (counts[g, s] - mx))
            for s in range(players))
        for g in range(games)
    ]  # fmt: skip
    return slope, math.sqrt(sum(v * v for v in u) / sxx**2 * games / (games - 1))


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 5), st.integers(3, 40), st.integers(0, 2**31))
@example(players=3, games=3, seed=483397023)  # a near-perfect fit: the half-width is 0
@example(players=2, games=3, seed=32)  # every game a tie: no spread in win share at all
def test_the_sums_give_the_long_ways_slope_and_interval(
    players: int, games: int, seed: int
) -> None:
    """The streamed sums agree with the long way to 1e-9 of the figure's scale: a slope
    is win share (at most 1) per card held, so its scale is 1 / sd(cards held). The
    explicit example is a fit with no residual, where expanded sums of squares lost
    half the digits (a half-width of 1.5e-8 for 3e-17)."""
    rng = np.random.default_rng(seed)
    hands = rng.random((games, players, 4)) < 0.5
    winner = rng.integers(0, players, games)
    wins = np.zeros((games, players))
    wins[np.arange(games), winner] = 1.0
    tie = rng.random(games) < 0.2  # some games split between every seat
    wins[tie] = 1.0 / players
    tally = RoleTally(players, ROLE_OF_KIND, 2)
    tally.add(wins[: games // 2], hands[: games // 2])  # two blocks: the sums add
    tally.add(wins[games // 2 :], hands[games // 2 :])
    for r, row in enumerate(tally.impact(ROLES)):
        counts = hands[:, :, [k for k, of in enumerate(ROLE_OF_KIND) if of == r]].sum(axis=2)
        if counts.std() == 0:
            continue
        slope, se = brute_force(wins, counts)
        tolerance = 1e-9 / counts.std()
        assert row.slope == pytest.approx(slope, abs=tolerance)
        assert row.high - row.slope == pytest.approx(1.959963984540054 * se, abs=tolerance)


def test_from_a_games_table() -> None:
    """The games table's held_<s>_<w> bitmasks and win_<s> columns, as a run writes them."""
    frame = pl.DataFrame(
        {
            table.win(0): [1.0, 0.0],
            table.win(1): [0.0, 1.0],
            table.held(0, 0): [0b0011, 0b1100],
            table.held(1, 0): [0b1100, 0b0011],
        }
    )
    speed, block = role_impact(frame, 2, ROLE_OF_KIND, ROLES)  # type: ignore[misc]
    assert (speed.slope, block.slope) == (0.5, -0.5)
    assert (
        role_impact(frame.drop(table.held(0, 0), table.held(1, 0)), 2, ROLE_OF_KIND, ROLES) is None
    )


def test_a_table_read_in_blocks_counts_every_game_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Seven games of three players read two games at a time (four blocks, the last of
    one game): the same rows as the tally fed the whole table at once. (The two-game
    table above is one block, and symmetric: blocks that overlap or a table read
    transposed give it the same slopes; mutation testing found both.)"""
    import balancer.stats.role_impact as module

    rng = np.random.default_rng(11)
    games, players = 7, 3
    hands = rng.random((games, players, 4)) < 0.5
    wins = np.zeros((games, players))
    wins[np.arange(games), rng.integers(0, players, games)] = 1.0
    bits = (hands * (1 << np.arange(4))).sum(axis=2)
    frame = pl.DataFrame(
        {table.win(s): wins[:, s] for s in range(players)}
        | {table.held(s, 0): bits[:, s] for s in range(players)}
    )
    whole = RoleTally(players, ROLE_OF_KIND, 2)
    whole.add(wins, hands)
    monkeypatch.setattr(module, "BLOCK", 2)
    got = role_impact(frame, players, ROLE_OF_KIND, ROLES)
    assert got is not None
    for row, expected in zip(got, whole.impact(ROLES), strict=True):
        assert row.slope == pytest.approx(expected.slope, abs=1e-12)
        assert row.high == pytest.approx(expected.high, abs=1e-12)
        assert row.mean_held == pytest.approx(expected.mean_held, abs=1e-12)
