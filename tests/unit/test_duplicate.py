"""Duplicate play's head-to-head form: `others` fills every seat but the measured one."""

from __future__ import annotations

import pytest

from balancer import games, knobs
from balancer.analysis.duplicate import builtin_seat, duplicate_margin
from balancer.games.api import win_shares
from balancer.sim.play import play_game


def test_others_sit_everywhere_but_the_measured_seat() -> None:
    """Kimekimera, 4 games: `expected` (challenger) against `cautious` (incumbent) in the
    measured seat (game i: seat i), `random` in the three others. Each side's mean
    share is what the same tables, played here seat by seat, give; without `others`
    (the control) the incumbent fills the table and the shares differ."""
    spec = games.get("kk")
    rules = knobs.freeze(knobs.defaults(spec.knobs))
    margin = duplicate_margin(
        "kk", 4, rules, ("expected", {}), ("cautious", {}),
        seed=5, games_played=4, others=("random", {}),
    )  # fmt: skip
    expected = {"expected": 0.0, "cautious": 0.0}
    for index in range(4):
        for measured in expected:
            table = [builtin_seat(spec.name, "random", {}) for _ in range(4)]
            table[index] = builtin_seat(spec.name, measured, {})
            record = play_game(spec, rules, table, 5, index)
            expected[measured] += win_shares(record.scores, spec.higher_is_better)[index] / 4
    assert margin.challenger_share == expected["expected"]
    assert margin.incumbent_share == expected["cautious"]
    assert margin.mean == pytest.approx(expected["expected"] - expected["cautious"])
    plain = duplicate_margin(
        "kk", 4, rules, ("expected", {}), ("cautious", {}), seed=5, games_played=4
    )
    assert (plain.challenger_share, plain.incumbent_share) != (
        margin.challenger_share,
        margin.incumbent_share,
    )
