"""The design search's statistics, on planted settings: goals parsed and scored by hand,
finalists whose figures are known exactly, settled into one best or a front."""

from __future__ import annotations

import numpy as np
import pytest

from balancer.analysis import design
from balancer.analysis.plays import Games
from balancer.config.variant import Variant, load
from balancer.errors import UserError
from tests.helpers import VARIANTS

KK4 = load(VARIANTS / "kk-4p.yaml")


def test_goals_are_read_in_every_form() -> None:
    target = design.parse_goal("length.mean=8", KK4)
    assert (target.kind, target.value) == ("target", 8.0)
    assert design.parse_goal("length.mean <= 9.5", KK4).kind == "at_most"
    assert design.parse_goal("length.mean>=2", KK4).kind == "at_least"
    assert design.parse_goal("length.mean max", KK4).kind == "max"
    assert design.parse_goal("seat_win_share.spread min", KK4).figure.spread


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("length.mean", "FIGURE=VALUE"),
        ("length.mean=x", "not a number"),
        ("length.mean=inf", "finite"),
        ("seat_win_share<=0.3", "name a seat"),
        ("lenght.mean=3", "did you mean"),
    ],
)
def test_a_goal_that_cannot_be_read_is_one_line(text: str, words: str) -> None:
    with pytest.raises(UserError, match=words):
        design.parse_goal(text, KK4)


def test_losses_over_an_interval_worked_out_by_hand() -> None:
    def goal(text: str) -> design.Goal:
        return design.parse_goal(text, KK4)

    # Target 8 over [7, 10]: 8 is inside (least 0), 10 is 2 away (most 2).
    assert goal("length.mean=8").loss_range(7, 10) == (0.0, 2.0)
    assert goal("length.mean=8").loss_range(9, 10) == (1.0, 2.0)
    # At most 5: [4, 6] exceeds it by 0 to 1; [6, 7] by 1 to 2.
    assert goal("length.mean<=5").loss_range(4, 6) == (0.0, 1.0)
    assert goal("length.mean<=5").loss_range(6, 7) == (1.0, 2.0)
    assert goal("length.mean>=5").loss_range(3, 4) == (1.0, 2.0)
    assert goal("length.mean min").loss_range(3, 4) == (3.0, 4.0)
    assert goal("length.mean max").loss_range(3, 4) == (-4.0, -3.0)
    assert goal("length.mean<=5").met(4, 4.9) and not goal("length.mean<=5").met(4, 5.1)
    assert goal("length.mean max").met(1, 2) is None


def _games(variant: Variant, lengths: np.ndarray, seconds: np.ndarray) -> Games:
    """Planted games: `lengths` as the games' lengths, `seconds` as seat 0's scores."""
    n, seats = lengths.size, variant.players
    scores = np.zeros((n, seats))
    scores[:, 0] = seconds
    return Games(
        0,
        scores,
        np.full((n, seats), 1 / seats),
        np.full((n, seats), "expected", dtype=object),
        lengths.astype(float),
        {name: np.zeros(n) for name in variant.spec.events},
    )


def _finalist(point: int, lengths: np.ndarray, scores: np.ndarray) -> design.Finalist:
    return design.Finalist({"rounds": point}, point, _games(KK4, lengths, scores), f"f/{point}")


RNG = np.random.default_rng(5)
DEAL = RNG.standard_normal(2000)  # common seeds: game i's deal noise, whatever the setting


def test_one_setting_better_on_every_goal_is_the_answer() -> None:
    goals = [
        design.parse_goal("length.mean=5", KK4),
        design.parse_goal("seat_score_mean.0 max", KK4),
    ]
    good = _finalist(1, 5 + DEAL, 3 + DEAL)  # on target; the higher score
    worse = _finalist(2, 7 + DEAL, 2 + DEAL)  # 2 off target; a point lower, game for game
    answer = design.Answer(goals, [good, worse])
    design.settle(goals, answer.finalists)
    assert answer.kind == "best" and answer.kept == [good]
    assert worse.beaten_by == [0] and good.beaten_by == []


def test_a_trade_off_is_a_front() -> None:
    # One is on target but scores lower; the other scores higher but runs long: neither
    # is better on every goal, so both stay.
    goals = [
        design.parse_goal("length.mean=5", KK4),
        design.parse_goal("seat_score_mean.0 max", KK4),
    ]
    on_time = _finalist(1, 5 + DEAL, 2 + DEAL)
    high = _finalist(2, 7 + DEAL, 3 + DEAL)
    answer = design.Answer(goals, [on_time, high])
    design.settle(goals, answer.finalists)
    assert answer.kind == "front" and answer.kept == [on_time, high]


def test_settings_the_games_cannot_tell_apart_stay_together() -> None:
    # 0.01 apart on a goal whose games vary by 1 each: 2,000 games can't separate them.
    goals = [design.parse_goal("seat_score_mean.0 max", KK4)]
    own = RNG.standard_normal((2, 2000))
    a = _finalist(1, 5 + DEAL, 3 + own[0])
    b = _finalist(2, 5 + DEAL, 3.01 + own[1])
    design.settle(goals, [a, b])
    assert a.kept and b.kept
    # The control: a gap of 0.3 is told apart.
    c = _finalist(3, 5 + DEAL, 3.3 + own[1])
    design.settle(goals, [a, c])
    assert c.kept and not a.kept


def test_finalists_are_the_front_first_then_the_nearest() -> None:
    trials = [
        {"number": 0, "point": {"k": 0}, "losses": [3.0, 1.0]},
        {"number": 1, "point": {"k": 1}, "losses": [1.0, 3.0]},
        {"number": 2, "point": {"k": 2}, "losses": [4.0, 4.0]},  # beaten by both on both
        {"number": 3, "point": {"k": 3}, "losses": [1.5, 1.5]},
        {"number": 4, "point": {"k": 1}, "losses": [1.0, 3.0]},  # the same setting again
    ]
    goals = [design.parse_goal("length.mean min", KK4)] * 2
    chosen = design.choose_finalists(trials, goals, 3)
    # 0, 1 and 3 are the front (none beaten on both goals). Each loss scaled by its
    # spread over the trials (3) from its least (1): 0 and 1 sum 2/3, 3 sums 1/3.
    assert [t["number"] for t in chosen] == [3, 0, 1]
    assert [t["number"] for t in design.choose_finalists(trials, goals, 4)] == [3, 0, 1, 2]


def test_a_listed_knob_that_cannot_be_read_names_knob_not_set() -> None:
    # The listed form is read by sweep's parser; its errors name the option typed here.
    with pytest.raises(UserError, match=r"^--knob rounds=3,3: '3' is listed twice"):
        design.parse_knob("rounds=3,3", KK4)
    with pytest.raises(UserError, match=r"^--knob rounds=3,: an empty value"):
        design.parse_knob("rounds=3,", KK4)


def test_knobs_take_ranges_and_lists() -> None:
    assert design.parse_knob("rounds=2..6:2", KK4).values == (2, 4, 6)
    assert design.parse_knob("rules.rounds=3,5", KK4).values == (3, 5)
    assert design.parse_knob("players=2..3", KK4).values == (2, 3)
