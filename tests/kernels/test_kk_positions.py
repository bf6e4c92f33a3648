"""Kimekimera's StepGame steps from any position, as the Python engine plays on from it.

A search bot's rollouts start from the position it is in, not from a deal: a
Python `State` stopped mid-game (or laid by hand) is loaded into the kernel's
step buffer, and the game played on there must be the engine's: the same
legal moves and views at every decision, the same chance draws (the State's
chance stream goes on where it stands), the same record.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from balancer.config.variant import Variant, load
from balancer.games.kimekimera import bots as kk_bots
from balancer.games.kimekimera import engine as kk
from balancer.rng import CHANCE, Stream
from balancer.sim import kernel_step
from tests.helpers import (
    assert_compiled_seats_play_positions_out,
    assert_plays_on_as_the_engine,
    stopped_mid_game,
)
from tests.kernels.test_kk_step import knob_variant

ROOT = Path(__file__).parents[2]
SEED = 5


def variant_named(name: str) -> Variant:
    return knob_variant(int(name[6:])) if name.startswith("knobs-") else load(ROOT / name)


# kk-4p has 3 rounds of 4 seats; the knob cases move every rule (see test_kk_step.py).
CASES = ["variants/kk-4p.yaml", "variants/kk-2p.yaml", "knobs-0", "knobs-3", "knobs-5"]


@pytest.mark.parametrize("name", CASES)
def test_a_position_mid_game_plays_on_as_the_engine(name: str) -> None:
    variant = variant_named(name)
    players = variant.players
    steps = kernel_step.stepper("kimekimera", variant.rules, players, [None] * players)
    loaded = 0
    for index in range(40):
        py, rngs = stopped_mid_game(variant, SEED, index, 1 + index % 6)
        if py.is_terminal():
            continue
        loaded += 1
        code = steps.load(py.clone(), range(players), SEED, index)
        assert_plays_on_as_the_engine(steps, code, py, rngs)
    assert loaded >= 30  # most games are still going at their few first choices


@pytest.mark.parametrize("name", ["variants/kk-4p-bots.yaml", "knobs-1"])
def test_compiled_seats_play_a_position_out_as_the_engines_bots(name: str) -> None:
    """A rollout with every seat compiled: the kernel plays the position to the end in
    one call, and its record is the engine's with the same bots from there, their
    streams from their start."""
    assert_compiled_seats_play_positions_out(
        variant_named(name), kk_bots.BOTS, SEED, 30, lambda index: 2 + index % 5
    )


def test_a_loaded_position_refuses_other_rules_and_players() -> None:
    variant = load(ROOT / "variants" / "kk-4p.yaml")
    steps = kernel_step.stepper("kimekimera", variant.rules, 4, [None] * 4)
    three = kk.new_state(variant.rules, 3, Stream(1, 0, CHANCE))
    with pytest.raises(ValueError, match="3 players"):
        steps.load(three, range(4), 1, 0)
    other = knob_variant(0)
    assert other.rules != variant.rules
    with pytest.raises(ValueError, match="other rules"):
        steps.load(kk.new_state(other.rules, 4, Stream(1, 0, CHANCE)), range(4), 1, 0)
