"""Conditions on steps and amounts as small expressions on the compiled kernel: the
conditions.yaml game game for game against the Python interpreter (every condition
form, on the owner and on other seats, in a plain step, each option of a choose, a
hook and a cancelled card; every new amount), and the hand-made situations of
tests/unit/test_roles_conditions.py, converted from the engine's State and played on
the kernel alone, ending as worked out by hand there."""

from __future__ import annotations

from pathlib import Path

import pytest

from balancer.games.roles import kernel as K
from balancer.games.roles import load_file
from balancer.games.roles.engine import State
from balancer.rng import CHANCE, Stream, bot_stream
from tests.kernels.test_roles_kernel import assert_same_games, rules_of, stepped_alike
from tests.unit.test_roles_conditions import SITUATIONS, huge, huge_state, ladder

GAME = load_file(Path(__file__).parent / "conditions.yaml")


@pytest.mark.parametrize("players", [2, 3, 5])
def test_the_conditions_game_game_for_game(players: int) -> None:
    assert_same_games(GAME, rules_of(GAME), players, 8, 0, 120)
    assert_same_games(GAME, rules_of(GAME, low_at=0, factor=5), players, 9, 0, 60)


@pytest.mark.parametrize("players", [3, 4])
def test_the_conditions_game_steps_alike(players: int) -> None:
    """Position for position, legal moves included: a steal dropped by its condition
    still numbers the next steal's cards after its own, on both paths (a game for game
    test alone would not see it: each path plays its own numbers alike)."""
    rules = rules_of(GAME)
    for index in range(12):
        state = State(GAME, rules, players, Stream(5, index, CHANCE))
        pick, moves = Stream(5, index, bot_stream(0)), []
        while not state.is_terminal():
            legal = state.legal_actions()
            moves.append(legal[pick.randrange(len(legal))])
            state.apply_action(moves[-1])
        stepped_alike(State(GAME, rules, players, Stream(5, index, CHANCE)), moves)


def test_the_conditions_game_exercises_what_it_is_for() -> None:
    """Every conditioned step acts in some games (so its condition is met somewhere and
    the game-for-game test above compares what it did); that each is also stopped
    somewhere is the unit tests' to show, by hand."""
    cols = K.play_chunk(GAME, rules_of(GAME), 3, 8, 0, 120, [("random", {})] * 3, False)
    totals = dict(zip([e.name for e in GAME.events], cols.events.sum(axis=0), strict=True))
    for name in ("climbs", "boosts", "cashes", "grabs", "falls", "rests", "snatches"):
        assert totals[name] > 0, name


@pytest.mark.parametrize("name", list(SITUATIONS))
def test_each_situation_ends_as_worked_out_compiled(tmp_path: Path, name: str) -> None:
    situation = SITUATIONS[name]
    game = ladder(tmp_path)
    arrays, tables = K.from_state(situation.state(game))
    streams = K.new_streams(len(situation.cards))
    buffer = K.new_legal(arrays, tables)
    for move in situation.cards:
        assert move in buffer[: K.legal(arrays, tables, buffer)].tolist()
        K.apply(arrays, tables, streams, move)
    if situation.decision is not None:
        options, taken = situation.decision
        assert buffer[: K.legal(arrays, tables, buffer)].tolist() == options
        K.apply(arrays, tables, streams, taken)
    assert K.legal(arrays, tables, buffer) == 0  # over: one card each
    assert tuple(K.snapshot(arrays, tables, game)["counters"]["pos"]) == situation.after_pos
    record = K.record(arrays, tables, game)
    assert record.events == {k: float(v) for k, v in situation.expected_events().items()}


@pytest.mark.parametrize("name", list(SITUATIONS))
def test_each_situation_steps_alike(tmp_path: Path, name: str) -> None:
    situation = SITUATIONS[name]
    stepped_alike(situation.state(ladder(tmp_path)), situation.moves())


def test_the_largest_amounts_clamp_and_never_wrap_compiled(tmp_path: Path) -> None:
    """tests/unit/test_roles_conditions.py's largest amounts (10**18 each way) on the
    kernel's int64: clamped at the counter's bounds, not wrapped past them."""
    game = huge(tmp_path)
    arrays, tables = K.from_state(huge_state(game))
    streams = K.new_streams(2)
    for move in (1, 2):
        K.apply(arrays, tables, streams, move)
    assert K.snapshot(arrays, tables, game)["counters"]["pos"] == [10**9, -(10**9)]
