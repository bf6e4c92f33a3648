"""Luck and skill by duplicate play (analysis/luck.py) on hand-made games (tests/plays_games.py)."""

from __future__ import annotations

import numpy as np
import pytest

from balancer.analysis import luck
from tests import plays_games


def test_a_game_the_deal_decides_is_all_deal() -> None:
    """SUM: a seat's score is its hand's sum whatever it plays, so every bot wins or loses
    a hand alike: no variance within a hand, the deal's share 1 (interval too), and
    search buys nothing over either bot."""
    variant = plays_games.variant(plays_games.SUM)
    figures = luck.luck_figures(variant, deals=12, samples=4)
    assert figures.bots == ("search", "lookahead", "random")
    assert (figures.deal.share, figures.deal.low, figures.deal.high) == (1.0, 1.0, 1.0)
    for margin in figures.search_over.values():
        assert (margin.estimate, margin.low, margin.high) == (0.0, 0.0, 0.0)


def test_a_game_where_play_matters_splits_and_search_buys_wins() -> None:
    """PICK: the card played is the card that counts. Random plays its highest card one
    time in four, so it loses hands search wins: the hands' outcomes vary with the bot
    (a deal's share under 1) and search's margin over random is clear of 0."""
    variant = plays_games.variant(plays_games.PICK)
    figures = luck.luck_figures(variant, deals=16, samples=4)
    assert figures.deal.within > 0 and figures.deal.share < 1
    assert figures.search_over["random"].low > 0


def test_the_figures_of_a_table_worked_by_hand() -> None:
    """Two deals, two seats, bots (search, scripted, random). Per deal the mean over seats
    of search − scripted: deal 0 (1 − 1 + 0 − 0)/2 = 0, deal 1 (1 − 0 + 0 − 1)/2 = 0:
    margin 0. Search − random: deal 0 (1 + 0)/2 = 1/2, deal 1 (1 + 0)/2 = 1/2."""
    y = np.zeros((2, 2, 3))
    y[0, 0] = [1, 1, 0]
    y[0, 1] = [0, 0, 0]
    y[1, 0] = [1, 0, 0]
    y[1, 1] = [0, 1, 0]
    figures = luck.figures_of(y, ("search", "heuristic", "random"), "heuristic")
    assert figures.search_over["heuristic"].estimate == pytest.approx(0.0)
    assert figures.search_over["random"].estimate == pytest.approx(0.5)
    assert figures.win_share["search"].estimate == pytest.approx(0.5)
    # The split takes the four hands as its groups: means 2/3, 0, 1/3, 1/3.
    assert figures.deal.groups == 4 and figures.deal.per_group == 3


def test_the_field_is_the_games_best_scripted_bot() -> None:
    assert luck.scripted_bot("fish-dash-cash") == "heuristic"
    assert luck.scripted_bot("kimekimera") == "expected"
    assert luck.measured_bots("fish-dash-cash", 0) == ("heuristic", "random")


def test_a_win_share_interval_stays_within_zero_and_one() -> None:
    """Three deals, two seats: search wins seat 0 of deals 0 and 1, nothing else (per deal
    1/2, 1/2, 0: mean 1/3, sd 0.289, t(2) half-width 4.303 × 0.167 = 0.717): the t
    interval [−0.38, 1.05] is kept at [0, 1]."""
    y = np.zeros((3, 2, 2))
    y[0, 0, 0] = y[1, 0, 0] = 1
    y[:, 0, 1] = 0.5
    y[:, 1, 1] = 0.5
    share = luck.figures_of(y, ("search", "random"), "random").win_share["search"]
    assert share.estimate == pytest.approx(1 / 3)
    assert (share.low, share.high) == (0.0, 1.0)
