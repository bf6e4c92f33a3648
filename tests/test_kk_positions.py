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

from balancer.config.variant import Variant, bot_params_with_defaults, load
from balancer.games.kimekimera import bots as kk_bots
from balancer.games.kimekimera import rules as kk
from balancer.rng import CHANCE, Stream, bot_stream
from balancer.sim import kernel_step
from tests.helpers import assert_plays_on_as_the_engine
from tests.test_kk_step import knob_variant

ROOT = Path(__file__).parent.parent
SEED = 5


def variant_named(name: str) -> Variant:
    return knob_variant(int(name[6:])) if name.startswith("knobs-") else load(ROOT / name)


def stopped_mid_game(variant: Variant, index: int, decisions: int) -> tuple[kk.State, list[Stream]]:
    """Game `index` played by the engine to its `decisions`-th real choice, each seat
    choosing uniformly from its own stream; the State and the seats' streams as they stand."""
    py = kk.new_state(variant.rules, variant.players, Stream(SEED, index, CHANCE))
    rngs = [Stream(SEED, index, bot_stream(s)) for s in range(variant.players)]
    made = 0
    while not py.is_terminal() and made < decisions:
        legal = py.legal_actions()
        if len(legal) > 1:
            made += 1
        py.apply_action(legal[rngs[py.current_player()].randrange(len(legal))])
    return py, rngs


# kk-4p has 3 rounds of 4 seats; the knob cases move every rule (see test_kk_step.py).
CASES = ["variants/kk-4p.yaml", "variants/kk-2p.yaml", "knobs-0", "knobs-3", "knobs-5"]


@pytest.mark.parametrize("name", CASES)
def test_a_position_mid_game_plays_on_as_the_engine(name: str) -> None:
    variant = variant_named(name)
    players = variant.players
    steps = kernel_step.stepper("kimekimera", variant.rules, players, [None] * players)
    loaded = 0
    for index in range(40):
        py, rngs = stopped_mid_game(variant, index, 1 + index % 6)
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
    variant = variant_named(name)
    players = variant.players
    builtin = kk_bots.BOTS
    slots = [
        (s.bot, dict(bot_params_with_defaults(builtin[s.bot], s.params))) for s in variant.seats
    ]
    steps = kernel_step.stepper("kimekimera", variant.rules, players, slots)
    for index in range(30):
        py, _ = stopped_mid_game(variant, index, 2 + index % 5)
        if py.is_terminal():
            continue
        assert steps.load(py.clone(), range(players), SEED, index) == 0
        bots = [builtin[name].factory(**params) for name, params in slots]
        rngs = [Stream(SEED, index, bot_stream(s)) for s in range(players)]
        while not py.is_terminal():
            seat, legal = py.current_player(), py.legal_actions()
            # As the engine: a bot is asked (and may draw) only when it has a choice.
            move = legal[0] if len(legal) == 1 else bots[seat].act(py.view(seat), legal, rngs[seat])
            py.apply_action(move)
        assert steps.record() == py.record(), index


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
