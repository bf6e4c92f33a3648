"""`lookahead`'s pull toward a counter goal (roles/lookahead.py): progress is the counter
over the goal, capped at 1, so a machine past the goal is no further along than one on it.

MEGA RACER's cards: (colour * 3 + role) * 6 + number - 1 (red 0; speed 0)."""

from __future__ import annotations

import pytest

from balancer import knobs
from balancer.games.roles import gamefile, load_file
from balancer.games.roles.definition import game_knobs
from balancer.games.roles.engine import State
from balancer.games.roles.lookahead import Lookahead, goal_progress
from balancer.rng import Stream

RACER = load_file(gamefile.shipped_path("mega-racer"))  # type: ignore[arg-type]


def speed(number: int) -> int:
    return number - 1  # red speed


def rules(goal: int) -> dict[str, object]:
    return {**knobs.defaults(game_knobs(RACER)), "goal": goal}


def test_progress_is_capped_at_one_past_the_goal() -> None:
    """Goal 8: positions 4, 8, 11 and 0 are 1/2, 1, 1 (not 11/8) and 0 of the way."""
    state = State.arranged(RACER, rules(8), [[], [], [], []], counters={"position": [4, 8, 11, 0]})
    assert goal_progress(state) == [0.5, 1.0, 1.0, 0.0]


def test_two_machines_past_the_goal_pull_alike() -> None:
    """Seat 0 at 5 plays speed 6 (to 11), seat 1 at 7 its only card, speed 2 (to 9); goal 8,
    both past it, and the race ends with seat 0 ahead: value = margin 2 + 4 × (1 − 1) + 100
    = 102 (uncapped progress would add 4 × (11 − 9)/8 = 1). Every other card is in the
    discard, so each sampled world is the true one."""
    state = State.arranged(RACER, rules(8), [[speed(6)], [speed(2)]], counters={"position": [5, 7]})
    values = Lookahead(RACER).values(state.view(0), state.legal_actions(), Stream(1, 0, 0))
    assert values == pytest.approx([102.0])
