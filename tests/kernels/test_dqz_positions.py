"""Da Qi Zi's StepGame steps from any position, as the Python engine plays on from it.

A search bot's rollouts start from the position it is in, not from a deal: a
Python `State` stopped mid-game (or laid by hand) is loaded into the kernel's
step buffer, and the game played on there must be the engine's: the same
legal moves and views at every decision (the trick's and the deal's face-up
plays so far among them), the same chance draws (the State's chance stream
goes on where it stands), the same record (the opening hands' held kinds too).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from balancer.config.variant import Variant, load
from balancer.games.daqizi import bots as dqz_bots
from balancer.games.daqizi import engine as daqizi
from balancer.rng import CHANCE, Stream, bot_stream
from balancer.sim import kernel_step
from tests.helpers import (
    assert_compiled_seats_play_positions_out,
    assert_plays_on_as_the_engine,
    stopped_mid_game,
)
from tests.kernels.test_dqz_step import knob_variant
from tests.unit.test_daqizi import arrange, combo, new

ROOT = Path(__file__).parents[2]
SEED = 5


def variant_named(name: str) -> Variant:
    return knob_variant(int(name[6:])) if name.startswith("knobs-") else load(ROOT / name)


CASES = ["variants/dqz-4p.yaml", "variants/dqz-4p-may-discard.yaml", "knobs-0", "knobs-1"]


@pytest.mark.parametrize("name", CASES)
def test_a_position_mid_game_plays_on_as_the_engine(name: str) -> None:
    """Stopped at its 1st to 60th choice: mid-trick (face-up plays and discards in it)
    and deals on (a history to carry)."""
    variant = variant_named(name)
    steps = kernel_step.stepper("da-qi-zi", variant.rules, 4, [None] * 4)
    loaded = mid_trick = later_deal = 0
    for index in range(40):
        py, rngs = stopped_mid_game(variant, SEED, index, 1 + (index * 7) % 60)
        if py.is_terminal():
            continue
        loaded += 1
        mid_trick += py.turn > 0
        later_deal += py.deal > 1
        code = steps.load(py.clone(), range(4), SEED, index)
        assert_plays_on_as_the_engine(steps, code, py, rngs)
    assert loaded >= 30 and mid_trick >= 10 and later_deal >= 10


@pytest.mark.parametrize("name", ["variants/dqz-4p-vs-random.yaml", "knobs-1"])
def test_compiled_seats_play_a_position_out_as_the_engines_bots(name: str) -> None:
    """A rollout with every seat compiled: the kernel plays the position to the end in
    one call, and its record is the engine's with the same bots from there, their
    streams from their start."""
    assert_compiled_seats_play_positions_out(
        variant_named(name), dqz_bots.BOTS, SEED, 30, lambda index: 2 + index % 9
    )


def test_a_position_laid_by_hand_plays_on_as_the_engine() -> None:
    """test_daqizi.py's hand-made positions: a lead to beat (by a seat that may discard,
    so it has a choice: its view shows the lead), and a last single where the last-trick
    rule binds; played on from there by every seat outside."""
    rngs = [Stream(3, 0, bot_stream(s)) for s in range(4)]
    for may_discard in (False, True):
        py = new(may_discard_when_able=may_discard)
        arrange(py, [["rC", "bS"], ["bH", "bS"], ["bS", "bS"], ["rR", "bC"]], 0)
        py.apply_action(combo("rC"))
        steps = kernel_step.stepper("da-qi-zi", py.rules, 4, [None] * 4)
        code = steps.load(py.clone(), range(4), SEED, 0)
        if may_discard:
            assert code == 3 * 8 + 1 and steps.view(1).trick == ((0, combo("rC")),)
        assert_plays_on_as_the_engine(steps, code, py, rngs)
    py = new()
    arrange(py, [["bC"], ["rG"], ["bH"], ["rA"]], 0, [["bS"], [], ["bR"], []])
    py.apply_action(combo("bC"))
    steps = kernel_step.stepper("da-qi-zi", py.rules, 4, [None] * 4)
    code = steps.load(py.clone(), range(4), SEED, 0)
    assert_plays_on_as_the_engine(steps, code, py, rngs)
    assert py.events["last_trick_rule"] >= 1  # the rule bound in the laid trick


def test_a_loaded_position_refuses_other_rules() -> None:
    variant = load(ROOT / "variants" / "dqz-4p.yaml")
    steps = kernel_step.stepper("da-qi-zi", variant.rules, 4, [None] * 4)
    other = knob_variant(0)
    assert other.rules != variant.rules
    with pytest.raises(ValueError, match="other rules"):
        steps.load(daqizi.new_state(other.rules, 4, Stream(1, 0, CHANCE)), range(4), 1, 0)
