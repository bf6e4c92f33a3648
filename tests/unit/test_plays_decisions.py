"""Decision share, real decisions and kingmaking (analysis/decisions.py) on hand-made games
(tests/plays_games.py) whose counts are worked out by hand."""

from __future__ import annotations

import numpy as np
import pytest

from balancer import games, knobs
from balancer.analysis import decisions
from balancer.bot import RandomBot
from balancer.games.roles import load_file
from balancer.games.roles.definition import game_knobs
from balancer.games.roles.engine import State
from balancer.rng import CHANCE
from balancer.sim.play import Seat, derive_rng, play_game
from balancer.sim.runner import build_seats
from tests import plays_games


def test_every_move_forced_is_no_choice() -> None:
    """One card in hand: each of a seat's 3 turns (6 cards, 2 seats, one a trick) is forced."""
    variant = plays_games.variant(plays_games.FORCED)
    figures = decisions.decision_figures(variant, 4, samples=0)
    assert figures.turns == (12, 12, 24)
    assert [iv.estimate for iv in figures.choice] == [0.0, 0.0, 0.0]
    assert figures.real == () and figures.kingmaking_games is None


def test_two_choices_in_three_turns() -> None:
    """Hands of 3: a seat plays from 3 cards, then 2, then 1: 2 choices in 3 turns, every
    game, so 2/3 with no spread between games (the interval is Wilson's for 8 of 12)."""
    variant = plays_games.variant(plays_games.SUM)
    figures = decisions.decision_figures(variant, 4, samples=0)
    assert figures.turns == (12, 12, 24)
    assert [iv.estimate for iv in figures.choice] == pytest.approx([2 / 3] * 3)


def test_choices_that_change_nothing_are_no_real_decision() -> None:
    """In SUM every card is played whatever the order: in every world every move gives the
    same outcome, so none of the choices is a real decision. The control: in PICK the
    card played is the card that scores, and some choices are real."""
    same = decisions.decision_figures(plays_games.variant(plays_games.SUM), 4, 6)
    assert [iv.estimate for iv in same.real] == [0.0, 0.0, 0.0]
    assert same.choice[2].estimate == pytest.approx(2 / 3)
    pick = decisions.decision_figures(plays_games.variant(plays_games.PICK), 8, 6)
    assert pick.real[2].estimate > 0


# -- kingmaking: seat 2, with no point, gives 1 to seat 0 or seat 1 ----------------------


def _king(points: list[int]) -> tuple[State, str]:
    path = plays_games.game_file(plays_games.KING)
    name = games.register_file(path)
    game = load_file(path)
    rules = knobs.defaults(game_knobs(game))
    # Idle 3 and idle 2 resolve first and do nothing; then seat 2's gift 1 is its choice.
    return State.arranged(game, rules, [[5], [4], [0]], counters={"points": points}), name


def _watch(state: State, name: str, margin: float = 0.1) -> decisions.Watched:
    seats = [Seat("random", RandomBot()) for _ in range(3)]
    return decisions.watch(state, seats, 1, 0, decisions.SeatValues(name, 4), margin)


def test_a_gift_that_decides_between_two_leaders_is_kingmaking() -> None:
    """5-5-0: seat 2 can't win, and its gift makes seat 0 (6-5) or seat 1 (5-6) the
    winner: on every world (here the true one: nothing is hidden at the gift) the swing
    of seat 0's lead over seat 1 is 1 − (−1) = 2."""
    watched = _watch(*_king([5, 5, 0]))
    assert watched.turns.tolist() == [1, 1, 2]  # seat 2: its card, then the gift
    assert watched.choices.tolist() == [0, 0, 1]
    assert watched.out.tolist() == [0, 0, 1]
    assert watched.kingmaking.tolist() == [0, 0, 1]
    assert watched.real.tolist() == [0, 0, 0]  # seat 2 loses either way


def test_a_gift_that_cannot_change_the_winner_is_none() -> None:
    """5-3-0: seat 0 wins whichever rival gets the point (6-3 or 5-4)."""
    watched = _watch(*_king([5, 3, 0]))
    assert watched.out.tolist() == [0, 0, 1]
    assert watched.kingmaking.tolist() == [0, 0, 0]


def test_kingmaking_needs_a_swing_beyond_the_margin() -> None:
    """Worlds × moves × seats, seat 2 moving, move 0 made. Move 1 makes seat 1 the
    favourite: seat 0's lead over seat 1 goes from +0.2 to −0.2 in every world, a swing
    of 0.4: kingmaking at margin 0.3, not at 0.5."""
    values = np.array([[[0.6, 0.4, 0.0], [0.4, 0.6, 0.0]]] * 3)
    assert decisions.kingmaking(values, seat=2, chosen=0, margin=0.3)
    assert not decisions.kingmaking(values, seat=2, chosen=0, margin=0.5)


def test_a_difference_the_worlds_disagree_on_is_not_sure() -> None:
    """Two moves whose own values differ by +1 in one world and −1 in another, then +1:
    mean 1/3, sd 1.155, lower bound 1/3 − 1.645 × 0.667 < 0.1: no real decision. The
    control: the same mean difference in every world is one."""
    noisy = np.array([[[1.0], [0.0]], [[0.0], [1.0]], [[1.0], [0.0]]])
    assert not decisions.is_real(noisy, 0, 0.1)
    steady = np.array([[[1 / 3], [0.0]]] * 3)
    assert decisions.is_real(steady, 0, 0.1)


def test_watching_a_game_plays_the_runs_game() -> None:
    """The watcher's search draws from a stream of its own: games 0..5 of PICK watched
    with search's estimates end as `run` plays them (random bots, whose moves follow
    their seats' streams, so another stream would change the cards played)."""
    variant = plays_games.variant(plays_games.PICK)
    spec, seed = variant.spec, variant.seed
    evaluator = decisions.SeatValues(variant.game, 3)
    for index in range(6):
        seats = variant.seated(build_seats(variant, 1.0, index), index)
        state = spec.new_state(variant.rules, 2, derive_rng(seed, index, CHANCE))
        decisions.watch(state, seats, seed, index, evaluator)
        ran = play_game(spec, variant.rules, seats, seed, index)
        assert state.record().scores == ran.scores, index
