"""Kimekimera's compiled kernel plays the Python engine's games, game for game.

For the same (rules, players, seed, game index) and bots, `kernel.play_chunk`
must give `play_game`'s record exactly: per-seat totals, length, every event.
Checked over every shipped variant, every bot and every knob at a non-default
value; then step by step from hand-laid positions (through `from_state`),
and once with the kernels run as plain Python (BALANCER_JIT=0).
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

from balancer import knobs
from balancer.config import variant
from balancer.games.kimekimera import engine as kk
from balancer.games.kimekimera import kernel as K
from balancer.games.kimekimera.bots import BOTS, PARAMS
from balancer.rng import CHANCE, Stream, bot_stream, init_streams
from balancer.sim.play import Seat, derive_rng, play_game

ROOT = Path(__file__).resolve().parents[2]
VARIANTS = sorted(p.name for p in (ROOT / "variants").glob("kk-*.yaml") if p.stem != "kk-base")
DEFAULTS = knobs.defaults(kk.KNOBS)
GREY = (52, 53)

Slots = Sequence[tuple[str, Mapping[str, Any]]]


def with_defaults(name: str, params: Mapping[str, Any]) -> dict[str, Any]:
    return {**knobs.defaults(BOTS[name].params), **params}


def engine_columns(
    rules: Mapping[str, Any],
    players: int,
    seed: int,
    start: int,
    stop: int,
    slots: Slots,
    rotate: bool,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The Python engine's scores, lengths and events for the same games."""
    bots = [Seat(name, BOTS[name].factory(**params)) for name, params in slots]
    scores, length, events = [], [], []
    for index in range(start, stop):
        seated = [bots[(s + index) % players if rotate else s] for s in range(players)]
        record = play_game(kk.SPEC, rules, seated, seed, index)
        scores.append(record.scores)
        length.append(record.length)
        events.append([record.events[name] for name in kk.SPEC.events])
    return np.array(scores, dtype=float), np.array(length), np.array(events, dtype=float)


def assert_same_games(
    rules: Mapping[str, Any], players: int, seed: int, games: int, slots: Slots, rotate: bool
) -> None:
    slots = [(name, with_defaults(name, params)) for name, params in slots]
    got = K.play_chunk(rules, players, seed, 0, games, slots, rotate)
    scores, length, events = engine_columns(rules, players, seed, 0, games, slots, rotate)
    assert got.start == 0
    assert got.scores.dtype == np.float64 and got.scores.shape == (games, players)
    assert got.length.dtype == np.int64 and got.events.shape == (games, len(kk.SPEC.events))
    for name, mine, theirs in (("scores", got.scores, scores), ("length", got.length, length)):
        bad = np.flatnonzero((mine != theirs).reshape(games, -1).any(axis=1))
        assert not bad.size, (
            f"{name} differ first in game {bad[0]}: {mine[bad[0]]} {theirs[bad[0]]}"
        )
    bad = np.flatnonzero((got.events != events).any(axis=1))
    assert not bad.size, (
        f"events differ first in game {bad[0]}: {got.events[bad[0]]} {events[bad[0]]}"
    )


# -- every shipped variant, every bot, every knob ----------------------------------


@pytest.mark.parametrize("name", VARIANTS)
def test_every_shipped_variant_with_random_bots(name: str) -> None:
    v = variant.load(ROOT / "variants" / name)
    assert_same_games(v.rules, v.players, v.seed, 1000, [("random", {})] * v.players, True)


@pytest.mark.parametrize("name", VARIANTS)
def test_every_shipped_variant_with_its_own_bots(name: str) -> None:
    v = variant.load(ROOT / "variants" / name)
    slots = [(s.bot, s.params) for s in v.seats]
    assert_same_games(v.rules, v.players, v.seed + 1, 300, slots, v.seat_rotation)


def test_every_scripted_bot_over_a_thousand_games() -> None:
    slots = [("expected", {}), ("cautious", {}), ("cautious", {"rank": 1}), ("random", {})]
    assert_same_games(DEFAULTS, 4, 11, 1000, slots, True)


# Every knob at a non-default value somewhere, with scripted bots beside random.
KNOB_CASES: list[tuple[dict[str, Any], int, list[tuple[str, dict[str, Any]]]]] = [
    ({"free_chimeras": 2, "rounds": 9, "rotate_first_player": False}, 3, []),
    ({"free_chimeras": 7, "rounds": 3}, 2, []),
    ({"breeding_optional": True}, 4, []),
    ({"breeding_optional": True, "floor_at_zero": True}, 3, [("cautious", {"rank": 3})]),
    ({"leftover": "free"}, 4, []),
    ({"leftover": "free", "reshuffle_discards": False, "rounds": 8}, 4, []),
    ({"reshuffle_discards": False, "robot_replacement": "after_scoring"}, 4, []),
    ({"reshuffle_discards": False, "rounds": 12, "free_chimeras": 6}, 3, []),
    ({"robot_replacement": "after_scoring", "breeding_optional": True}, 2, []),
    ({"colour_bonus": {1: 0, 2: 12}, "grey_blocks_colour_bonus": False}, 4, []),
    ({"colour_bonus": {1: -2, 2: 1}, "floor_at_zero": True}, 1, [("cautious", {"rank": 6})]),
    ({"free_chimeras": 20, "rounds": 4}, 4, [("cautious", {"rank": 5})]),
    # Decks (tests/test_decks.py has more): a small one that reshuffles often; copies,
    # a rainbow numbered 0 (not grey) and 5 greys; one colour numbered from 0, no
    # rainbow, no grey.
    (
        {"deck": {"colours": 2, "numbers": [1, 6], "rainbow": 1, "grey": 1}, "free_chimeras": 2},
        2,
        [],
    ),
    ({"deck": {"copies": 2, "numbers": [3, 9], "rainbow_number": 0, "grey": 5}}, 4, []),
    (
        {"deck": {"colours": 1, "numbers": [0, 20], "rainbow": 0, "grey": 0}, "free_chimeras": 3},
        3,
        [("cautious", {"rank": 1})],
    ),
]


@pytest.mark.parametrize("case", range(len(KNOB_CASES)))
def test_non_default_knobs(case: int) -> None:
    changes, players, extra = KNOB_CASES[case]
    rules = {**DEFAULTS, **changes}
    assert kk.unplayable(rules, players) is None
    mixed = [*extra, ("expected", {}), ("random", {}), ("cautious", {}), ("random", {})]
    assert_same_games(rules, players, 100 + case, 400, mixed[:players], rotate=case % 2 == 0)


def test_compiled_bots_are_every_built_in_bot_and_params_are_data() -> None:
    assert frozenset(BOTS) == K.COMPILED_BOTS
    assert [p.name for p in PARAMS] == ["rank"]
    ids, params = K.encode_slots([("cautious", {"rank": 4}), ("expected", {}), ("random", {})])
    assert list(ids) == [K.BOT_IDS["cautious"], K.BOT_IDS["expected"], K.BOT_IDS["random"]]
    assert params.dtype == np.float64 and params[0, 0] == 4.0
    with pytest.raises(ValueError, match="no compiled"):
        K.encode_slots([("pkg.mod:Bot", {})])
    with pytest.raises(ValueError, match="at most 20 free chimeras"):
        K.play_chunk({**DEFAULTS, "free_chimeras": 21}, 4, 0, 0, 1, [("random", {})] * 4, True)
    # Two ranks in one compiled function give different games somewhere.
    a = K.play_chunk(DEFAULTS, 1, 3, 0, 200, [("cautious", {"rank": 1})], False)
    b = K.play_chunk(DEFAULTS, 1, 3, 0, 200, [("cautious", {"rank": 6})], False)
    assert (a.scores != b.scores).any()


def test_the_sorting_network_sorts_any_6_values() -> None:
    # The 0-1 principle: a comparator network that sorts every 0/1 input sorts all.
    for bits in range(64):
        values = [(bits >> k) & 1 for k in range(6)]
        for hi, lo in K.SORT6:
            values[hi], values[lo] = max(values[hi], values[lo]), min(values[hi], values[lo])
        assert values == sorted(values, reverse=True), bits


def test_a_chunk_is_the_same_games_wherever_it_starts() -> None:
    slots = [("expected", {}), ("random", {}), ("cautious", {"rank": 2})]
    whole = K.play_chunk(DEFAULTS, 3, 5, 0, 60, slots, True)
    part = K.play_chunk(DEFAULTS, 3, 5, 25, 60, slots, True)
    assert part.start == 25
    assert (part.scores == whole.scores[25:]).all() and (part.events == whole.events[25:]).all()


# -- step by step from a Python State ----------------------------------------------


def live(state: np.ndarray, tables: np.ndarray) -> dict[str, list[int]]:
    """The meaningful part of a kernel state (the stale tail of deck and discard left out)."""
    players, n_free = int(tables[K.T_PLAYERS]), int(tables[K.T_NFREE])
    deck_n, discard_n = int(state[K.S_DECK_N]), int(state[K.S_DISCARD_N])
    return {
        "deck": state[K.S_DECK : K.S_DECK + deck_n].tolist(),
        "discard": state[K.S_DISCARD : K.S_DISCARD + discard_n].tolist(),
        "mine": state[K.S_MINE : K.S_MINE + 2 * players].tolist(),
        "free": state[K.S_FREE : K.S_FREE + 2 * n_free].tolist(),
        "theme": state[K.S_THEME : K.S_THEME + 2].tolist(),
        "totals": state[K.S_TOTALS : K.S_TOTALS + players].tolist(),
        "events": state[K.S_EVENTS : K.S_EVENTS + len(kk.EVENTS)].tolist(),
        "scalars": state[K.S_FILLED :].tolist(),
    }


def step_both(py: kk.State, bots: Sequence[str], seed: int, game: int) -> int:
    """Play `py` to the end in Python and, from the same position, in the kernel;
    compare the two after every move. Returns the number of moves."""
    seats = [derive_rng(seed, game, bot_stream(s)) for s in range(py.players)]
    state, tables = K.from_state(py)
    streams = K.streams_of(py.rng, seats)
    players = [BOTS[name].factory() for name in bots]
    params = [K.encode_slots([(name, with_defaults(name, {}))])[1][0] for name in bots]
    moves = np.zeros(K.MAX_FREE + 1, dtype=np.int64)
    scratch = np.zeros(16, dtype=np.int64)
    done = 0
    assert live(state, tables) == live(*K.from_state(py))
    while not py.is_terminal():
        seat = py.current_player()
        assert K.current_player(state) == seat
        legal = py.legal_actions()
        n = K.legal(state, tables, moves)
        assert moves[:n].tolist() == legal
        if n == 1:
            action = legal[0]
            kernel_action = int(moves[0])
        else:
            action = players[seat].act(py.view(seat), legal, seats[seat])
            bot = K.BOT_IDS[bots[seat]]
            kernel_action = K.bot_action(
                bot, params[seat], state, tables, streams, moves, n, scratch
            )
        assert kernel_action == action, (done, legal)
        py.apply_action(action)
        K.apply(state, tables, streams, kernel_action)
        py.check_invariants()
        assert live(state, tables) == live(*K.from_state(py)), done
        counters = [py.rng.counter] + [s.counter for s in seats]
        assert streams[:, 1].tolist() == counters
        done += 1
    assert K.current_player(state) == -1 and K.legal(state, tables, moves) == 0
    return done


def c(name: str) -> int:
    return kk.parse_card(name)


def cs(*names: str) -> list[int]:
    return [c(n) for n in names]


# Hand-laid positions that reach every path: robots under both rules (dealt,
# bred, replaced by a robot, kept for want of cards), reshuffles, a dry deck,
# leftover free, keeping.
POSITIONS: list[tuple[dict[str, Any], dict[str, Any]]] = [
    (
        {"rounds": 4},
        {
            "mine": [[GREY[0], c("r1")], cs("y5", "g5"), cs("b2", "b3")],
            "free": [[c("r2"), GREY[1]], cs("y1", "y2")],
            "theme": cs("r5", "b7"),
        },
    ),
    (
        {"rounds": 5, "robot_replacement": "after_scoring"},
        {
            "mine": [[GREY[0], c("r1")], cs("y5", "g5")],
            "free": [[c("r2"), GREY[1]]],
            "theme": cs("r5", "b7"),
        },
    ),
    (
        {"rounds": 6},
        {
            "mine": [[GREY[0], c("r1")]],
            "free": [cs("y1", "y2")],
            "theme": cs("r5", "b7"),
            "deck": [GREY[1], *cs("g2", "g3", "g4")],
        },
    ),
    (
        {"rounds": 5, "reshuffle_discards": False},
        {
            "mine": [[GREY[0], c("r1")], cs("y5", "g5"), cs("b2", "b3")],
            "free": [cs("y1", "y2"), cs("g1", "g2")],
            "theme": cs("r5", "b7"),
            "deck": [GREY[1], *cs("g4", "g6", "g7", "g8", "g9", "g10")],
            "rest": "discard",
        },
    ),
    (
        {"rounds": 5},
        {
            "mine": [cs("y3", "g12"), [GREY[0], c("r1")]],
            "free": [cs("y1", "y2")],
            "theme": cs("r5", "b7"),
            "deck": cs("g1", "g2", "g3"),
            "rest": "discard",
        },
    ),
    (
        {"rounds": 5, "leftover": "free", "breeding_optional": True},
        {
            "mine": [cs("y3", "g12"), [GREY[0], GREY[1]], cs("r3", "b9")],
            "free": [cs("y1", "y2"), (), cs("g1", "rainbow")],
            "theme": cs("r5", "b7"),
        },
    ),
]


@pytest.mark.parametrize("bots", [("random",) * 3, ("expected", "cautious", "random")])
@pytest.mark.parametrize("case", range(len(POSITIONS)))
def test_hand_laid_positions_step_the_same(case: int, bots: tuple[str, ...]) -> None:
    changes, laid = POSITIONS[case]
    players = len(laid["mine"])
    for game in range(12):
        rng = derive_rng(77, game, CHANCE)
        py = kk.State.arranged({**DEFAULTS, **changes}, rng=rng, **laid)
        step_both(py, bots[:players], 77, game)


def test_positions_part_way_through_dealt_games_step_the_same() -> None:
    moves = 0
    for game in range(40):
        rules = {**DEFAULTS, "reshuffle_discards": game % 3 != 0}
        if game % 4 == 1:
            rules["robot_replacement"] = "after_scoring"
        py = kk.new_state(rules, 4, derive_rng(9, game, CHANCE))
        walk = Stream(9, game, 99)
        for _ in range(game % 13):
            if py.is_terminal():
                break
            legal = py.legal_actions()
            py.apply_action(legal[walk.below(len(legal))])
        moves += step_both(py, ("expected", "cautious", "random", "expected"), 9, game)
    assert moves > 100


def test_a_copied_state_plays_on_alone() -> None:
    tables = K.encode_rules(DEFAULTS, 4)
    streams = np.zeros((5, 2), dtype=np.uint64)
    init_streams(streams, 1, 2)
    state = np.zeros(K.STATE_SIZE, dtype=np.int64)
    K.new_game(state, tables, streams)
    moves = np.zeros(K.MAX_FREE + 1, dtype=np.int64)
    K.legal(state, tables, moves)
    before, saved_streams = state.copy(), streams.copy()
    copy, copy_streams = state.copy(), streams.copy()
    while K.current_player(copy) >= 0:
        K.legal(copy, tables, moves)
        K.apply(copy, tables, copy_streams, moves[0])
    assert (state == before).all() and (streams == saved_streams).all()
    assert copy[K.S_ROUND] == 5


# -- plain Python gives the same numbers -------------------------------------------

_PLAIN = """
import json, sys
from balancer import jit, knobs
from balancer.games.kimekimera import kernel, engine as rules
assert not jit.ENABLED
slots = [("expected", {}), ("cautious", {"rank": 2}), ("random", {})]
out = []
for changes in ({}, {"robot_replacement": "after_scoring", "reshuffle_discards": False}):
    r = {**knobs.defaults(rules.KNOBS), **changes}
    cols = kernel.play_chunk(r, 3, 4, 10, 22, slots, True)
    out.append([cols.scores.tolist(), cols.length.tolist(), cols.events.tolist()])
json.dump(out, sys.stdout)
"""


def test_plain_python_kernels_give_the_same_games() -> None:
    env = {**os.environ, "BALANCER_JIT": "0", "PYTHONPATH": str(ROOT)}
    result = subprocess.run(
        [sys.executable, "-c", _PLAIN], env=env, capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 0, result.stderr
    plain = json.loads(result.stdout)
    slots = [("expected", {}), ("cautious", {"rank": 2}), ("random", {})]
    cases = ({}, {"robot_replacement": "after_scoring", "reshuffle_discards": False})
    for got, changes in zip(plain, cases, strict=True):
        cols = K.play_chunk({**DEFAULTS, **changes}, 3, 4, 10, 22, slots, True)
        assert got == [cols.scores.tolist(), cols.length.tolist(), cols.events.tolist()]
