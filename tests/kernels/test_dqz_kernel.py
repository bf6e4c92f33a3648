"""Da Qi Zi's compiled kernel plays exactly the Python engine's games (games/kernel_api.py).

Game for game: every shipped variant with random bots and with its own bots,
non-default knobs and bot parameters; move for move: the legal lists agree at
every step, also from hand-made and mid-game positions converted from a
Python `State`; and the kernel means the same with BALANCER_JIT=0.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from balancer import jit, knobs, rng
from balancer.config.variant import load
from balancer.games.daqizi import combos as dc
from balancer.games.daqizi import engine as daqizi
from balancer.games.daqizi import kernel as kn
from balancer.games.daqizi.bots import BOTS, PARAMS
from balancer.rng import CHANCE, Stream, bot_stream
from balancer.sim.play import Seat, play_game
from tests.unit.test_daqizi import arrange, combo, discard, new

ROOT = Path(__file__).parents[2]
DEFAULTS = knobs.defaults(daqizi.KNOBS)
VARIANTS = sorted(p for p in (ROOT / "variants").glob("dqz-*.yaml") if p.stem != "dqz-base")
SEED = 20261130
Slots = Sequence[tuple[str, Mapping[str, Any]]]

# Every knob at a non-default value somewhere (heuristic params too).
ODD_RULES = [
    {
        "mixed_suit_combos": True,
        "may_discard_when_able": True,
        "no_capture_last_single_rule": False,
        "first_dealer": "random",
        "max_deals": 7,
        "starting_chips": 12,
        "bust_at": -3,
        # 3 soldiers (no four or five) and 3 generals a suit (general pairs).
        "deck": {"soldier": 3, "general": 3},
    },
    {
        "first_dealer": "random",
        "base_payment": 6,
        "zero_capture_penalty": 3,
        "first_deal_multiplier": 0,
        "renchan_step": 2,
        "multiplier_cap": 5,
        "starting_chips": 60,
        "bust_at": 4,
        # 7 soldiers a suit (a packed count's most), 1 of each piece of the cannon sequence.
        "deck": {"soldier": 7, "cannon": 1, "horse": 1, "chariot": 1, "general": 2},
    },
]
ODD_PARAMS = [
    {"reserve_min": 6, "cheap_beat": 11, "safe_lead": False},
    {"reserve_min": 13, "cheap_beat": -1, "safe_lead": True},
]


def python_columns(
    rules: Mapping[str, Any], slots: Slots, rotate: bool, seed: int, start: int, stop: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """What kernel.play_chunk returns, from the Python engine's play_game."""
    bots = [
        Seat(name, BOTS[name].factory(**_with_defaults(name, params))) for name, params in slots
    ]
    scores, length, events = [], [], []
    for index in range(start, stop):
        seats = [bots[(seat + index) % 4 if rotate else seat] for seat in range(4)]
        record = play_game(daqizi.SPEC, rules, seats, seed, index)
        scores.append(record.scores)
        length.append(record.length)
        events.append([record.events[name] for name in daqizi.SPEC.events])
    return np.array(scores, dtype=float), np.array(length), np.array(events, dtype=float)


def _with_defaults(name: str, params: Mapping[str, Any]) -> dict[str, Any]:
    return {**{p.name: p.default for p in BOTS[name].params}, **params}


def assert_same_games(
    rules: Mapping[str, Any], slots: Slots, rotate: bool, games: int, seed: int = SEED
) -> None:
    start = 1000  # not from 0: game indices are part of the streams
    got = kn.play_chunk(rules, 4, seed, start, start + games, slots, rotate)
    scores, length, events = python_columns(rules, slots, rotate, seed, start, start + games)
    assert got.start == start
    assert got.scores.dtype == np.float64 and got.events.dtype == np.float64
    assert got.length.dtype == np.int64
    for i in range(games):
        same = (
            np.array_equal(got.scores[i], scores[i])
            and got.length[i] == length[i]
            and np.array_equal(got.events[i], events[i])
        )
        assert same, (
            f"game {start + i}: kernel {got.scores[i]}, {got.length[i]}, {got.events[i]}; "
            f"python {scores[i]}, {length[i]}, {events[i]}"
        )


def variant_rules(path: Path) -> dict[str, Any]:
    return dict(load(path).rules)


# -- game for game -------------------------------------------------------------------


def test_the_shipped_variants_are_the_ones_expected() -> None:
    names = {p.stem for p in VARIANTS}
    assert "dqz-4p-may-discard" in names and "dqz-4p-must-beat" not in names
    assert variant_rules(ROOT / "variants" / "dqz-4p.yaml") == DEFAULTS
    may = variant_rules(ROOT / "variants" / "dqz-4p-may-discard.yaml")
    assert may == {**DEFAULTS, "may_discard_when_able": True}


# One test per distinct rule set of the shipped variants, so they spread over the cores.
RULE_SETS = {json.dumps(variant_rules(p), sort_keys=True): p.stem for p in VARIANTS}


def test_the_shipped_variants_hold_several_rule_sets() -> None:
    assert len(RULE_SETS) >= 6


@pytest.mark.parametrize("text", sorted(RULE_SETS), ids=lambda t: RULE_SETS[t])
def test_every_variants_rules_with_random_bots(text: str) -> None:
    """1,000 games of each distinct rule set of the shipped variants, random in every seat."""
    assert_same_games(json.loads(text), [("random", {})] * 4, False, 1000)


@pytest.mark.parametrize("path", VARIANTS, ids=[p.stem for p in VARIANTS])
def test_every_variant_with_its_own_bots(path: Path) -> None:
    variant = load(path)
    slots = [(s.bot, dict(s.params)) for s in variant.seats]
    # The heuristic in every seat (dqz-4p) is the scripted-bot run of 1,000 games.
    games = {"dqz-4p": 1000, "dqz-4p-vs-random": 400}.get(path.stem, 150)
    assert_same_games(dict(variant.rules), slots, variant.seat_rotation, games)


@pytest.mark.parametrize("changes", ODD_RULES)
def test_non_default_knobs_and_params(changes: dict[str, Any]) -> None:
    rules = {**DEFAULTS, **changes}
    assert_same_games(rules, [("random", {})] * 4, False, 300)
    slots = [("heuristic", ODD_PARAMS[0]), ("random", {}), ("heuristic", ODD_PARAMS[1])]
    slots.append(("heuristic", {}))
    assert_same_games(rules, slots, True, 200)


def test_the_kernel_plays_every_built_in_bot() -> None:
    assert frozenset(BOTS) == kn.COMPILED_BOTS
    assert tuple(p.name for p in PARAMS) == kn.PARAM_NAMES
    with pytest.raises(ValueError):
        kn.play_chunk(DEFAULTS, 4, 1, 0, 1, [("nobody", {})] * 4, False)


@pytest.mark.skipif(not jit.ENABLED, reason="numba is off")
def test_knobs_and_params_are_data_not_compile_time_constants() -> None:
    for changes in [{}, *ODD_RULES]:
        kn.play_chunk({**DEFAULTS, **changes}, 4, 3, 0, 5, [("heuristic", ODD_PARAMS[0])] * 4, True)
    assert len(kn._play_games.signatures) == 1


# -- move for move, from any position -------------------------------------------------


def _lockstep(state: daqizi.State, bot_rngs: list[Stream], names: Sequence[str]) -> None:
    """Play a Python state to the end beside its kernel copy, checking every step."""
    tables = kn.encode_rules(state.rules)
    array = kn.from_python(state)
    streams = kn.streams_from(state.rng, bot_rngs)
    out = np.zeros(kn.MAX_LEGAL, dtype=np.int64)
    bots = [BOTS[name].factory() for name in names]
    kinds, params = kn.bot_arrays([(name, {}) for name in names])
    while True:
        assert kn.current_player(array) == state.current_player()
        legal = state.legal_actions()
        n = kn.legal(array, tables, out)
        assert list(out[:n]) == legal
        if state.is_terminal():
            break
        seat = state.current_player()
        if n == 1:
            action = legal[0]
        else:
            action = bots[seat].act(state.view(seat), legal, bot_rngs[seat])
            kernel_action = kn.choose(array, tables, streams, out, n, kinds[seat], params[seat])
            assert kernel_action == action
        state.apply_action(action)
        kn.apply(array, tables, streams, action)
        for field in (kn.S_CHIPS, kn.S_DEAL, kn.S_TURN, kn.S_TO_ACT, kn.S_BEST):
            assert array[field] == _python_field(state, field)
    record = state.record()
    assert tuple(array[kn.S_CHIPS : kn.S_CHIPS + 4]) == record.scores
    assert [array[kn.S_EVENTS + e] for e in range(kn.N_EVENTS)] == [
        record.events[name] for name in daqizi.SPEC.events
    ]


def _python_field(state: daqizi.State, field: int) -> int:
    return {
        kn.S_CHIPS: state.chips[0],
        kn.S_DEAL: state.deal,
        kn.S_TURN: state.turn,
        kn.S_TO_ACT: state.to_act,
        kn.S_BEST: state.best,
    }[field]


@pytest.mark.parametrize("names", [["random"] * 4, ["heuristic", "random"] * 2])
@pytest.mark.parametrize(
    "changes", [{}, {"may_discard_when_able": True, "mixed_suit_combos": True}]
)
def test_legal_lists_and_choices_agree_at_every_step(names: list[str], changes: dict) -> None:
    for index in range(15):
        rules = {**DEFAULTS, **changes}
        state = daqizi.new_state(rules, 4, Stream(5, index, CHANCE))
        _lockstep(state, [Stream(5, index, bot_stream(s)) for s in range(4)], names)


def test_stepping_from_a_mid_game_python_state() -> None:
    """Play some moves in Python, convert, and both must go on identically."""
    for index in range(30):
        rules = {**DEFAULTS, "may_discard_when_able": index % 2 == 1}
        state = daqizi.new_state(rules, 4, Stream(8, index, CHANCE))
        walk = Stream(99, index, 0)
        for _ in range(walk.below(120)):
            if state.is_terminal():
                break
            legal = state.legal_actions()
            state.apply_action(legal[walk.below(len(legal))])
        _lockstep(state, [Stream(8, index, bot_stream(s)) for s in range(4)], ["heuristic"] * 4)


def _from_hand_made(state: daqizi.State) -> None:
    _lockstep(state, [Stream(3, 0, bot_stream(s)) for s in range(4)], ["random"] * 4)


def test_hand_made_must_beat_position() -> None:
    state = new()
    arrange(state, [["rC", "bS"], ["bH", "bS"], ["bS", "bS"], ["rR", "bC"]], 0)
    state.apply_action(combo("rC"))
    array, tables = kn.from_python(state), kn.encode_rules(state.rules)
    out = np.zeros(kn.MAX_LEGAL, dtype=np.int64)
    assert list(out[: kn.legal(array, tables, out)]) == [combo("bH")]
    _from_hand_made(state)


def test_hand_made_may_discard_position() -> None:
    state = new(may_discard_when_able=True)
    arrange(state, [["rC", "bS"], ["bH", "bS"], ["bS", "bS"], ["rR", "bC"]], 0)
    state.apply_action(combo("rC"))
    array, tables = kn.from_python(state), kn.encode_rules(state.rules)
    out = np.zeros(kn.MAX_LEGAL, dtype=np.int64)
    expected = [combo("bH"), discard("bS"), discard("bH")]
    assert list(out[: kn.legal(array, tables, out)]) == expected
    _from_hand_made(state)


def test_hand_made_last_trick_rule_position() -> None:
    state = new()
    arrange(state, [["bC"], ["rG"], ["bH"], ["rA"]], 0, [["bS"], [], ["bR"], []])
    state.apply_action(combo("bC"))
    array, tables = kn.from_python(state), kn.encode_rules(state.rules)
    out = np.zeros(kn.MAX_LEGAL, dtype=np.int64)
    assert list(out[: kn.legal(array, tables, out)]) == [discard("rG")]
    streams = kn.streams_from(state.rng, [Stream(3, 0, bot_stream(s)) for s in range(4)])
    kn.apply(array, tables, streams, discard("rG"))
    assert array[kn.S_EVENTS + kn.E_LAST_RULE] == 1
    _from_hand_made(state)


def test_hand_made_big_discards() -> None:
    """Five soldiers led: every distinct five-card discard of an eight-card hand, in order."""
    state = new(may_discard_when_able=True)
    hands = [
        ["bS"] * 5 + ["bC", "bH", "bR"],
        ["rS"] * 5 + ["rC", "rH", "rR"],
        ["bE", "bE", "rE", "bA", "rA", "bG", "rC", "bH"],
        ["rE", "bA", "rA", "rG", "bC", "rH", "bR", "rR"],
    ]
    arrange(state, hands, 0)  # all 32 cards in hand: the first trick
    state.apply_action(combo(*["bS"] * 5))
    legal = state.legal_actions()
    assert legal[0] == combo(*["rS"] * 5) and len(legal) == 1 + len(
        dc.discard_options(state.hands[1], 5)
    )
    _from_hand_made(state)


def test_a_copied_state_steps_on_its_own() -> None:
    tables = kn.encode_rules(DEFAULTS)
    state = kn.new_state()
    streams = kn.new_streams()
    rng.init_streams(streams, 1, 0)
    kn.new_game(state, tables, streams)
    out = np.zeros(kn.MAX_LEGAL, dtype=np.int64)
    copy, copy_streams = state.copy(), streams.copy()
    n = kn.legal(copy, tables, out)
    kn.apply(copy, tables, copy_streams, out[n - 1])
    assert state[kn.S_TURN] == 0 and copy[kn.S_TURN] == 1
    assert kn.current_player(state) == 0 and kn.current_player(copy) == 1
    plan, params = kn.encode_bots([("random", {})] * 4)
    kn.play_out(copy, tables, copy_streams, plan, params, kn.new_scratch(copy), np.zeros(4))
    assert kn.current_player(copy) == -1 and state[kn.S_OVER] == 0
    assert copy[kn.S_CHIPS : kn.S_CHIPS + 4].sum() == 80


# -- the same without numba -------------------------------------------------------------

_PLAIN = """
import json, sys
from balancer import jit, knobs, rng
from balancer.games.daqizi import kernel as kn, engine as r
assert not jit.ENABLED
rules = {**knobs.defaults(r.KNOBS), **json.loads(sys.argv[1])}
slots = [("heuristic", {"reserve_min": 6}), ("random", {}), ("random", {}), ("heuristic", {})]
cols = kn.play_chunk(rules, 4, 77, 5, 17, slots, True)
print(json.dumps([cols.scores.tolist(), cols.length.tolist(), cols.events.tolist()]))
"""


@pytest.mark.parametrize(
    "changes", [{}, {"mixed_suit_combos": True, "may_discard_when_able": True}]
)
def test_plain_python_kernel_gives_identical_results(changes: dict) -> None:
    env = {**os.environ, jit.JIT_ENV: "0", "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", _PLAIN, json.dumps(changes)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    )
    scores, length, events = json.loads(done.stdout)
    slots = [("heuristic", {"reserve_min": 6}), ("random", {}), ("random", {}), ("heuristic", {})]
    cols = kn.play_chunk({**DEFAULTS, **changes}, 4, 77, 5, 17, slots, True)
    assert cols.scores.tolist() == scores
    assert cols.length.tolist() == length
    assert cols.events.tolist() == events


def test_heuristic_tie_break_between_equal_safe_leads() -> None:
    """A black soldier triple and a black chariot-horse-cannon: both size 3, strength 0.

    Nothing unseen beats either (three red soldiers and both generals are
    captured, and both red cannons), so both are safe leads of the most cards;
    bots.py's max() keeps the first in table order, the triple.
    """
    state = new()
    hands = [
        ["bS", "bS", "bS", "bR", "bH", "bC"],
        ["bS", "bS", "bC", "bH", "bE", "bE"],
        ["bR", "bA", "bA", "rS", "rS", "rA"],
        ["rH", "rH", "rR", "rR", "rE", "rE"],
    ]
    arrange(state, hands, 0, [[], ["rS", "rS", "rS", "rG", "bG", "rC", "rC"], [], []])
    legal = state.legal_actions()
    triple, sequence = combo("bS", "bS", "bS"), combo("bR", "bH", "bC")
    assert triple in legal and sequence in legal
    python = BOTS["heuristic"].factory().act(state.view(0), legal, Stream(0, 0, 1))
    array, tables = kn.from_python(state), kn.encode_rules(state.rules)
    out = np.zeros(kn.MAX_LEGAL, dtype=np.int64)
    n = kn.legal(array, tables, out)
    params = kn.bot_arrays([("heuristic", {})])[1][0]
    assert python == triple == kn.heuristic(array, tables, out, n, params)
