"""fdc's `heuristic` compiled on a game file that plays its roles (roles/kernel/fdc_bridge.py).

Game for game (scores, length, every event) against the step-by-step engine with
the Python bot (roles/fdc_heuristic.py: fdc's heuristic through the file's view) in
the same seats, drawing from the same streams: fish-dash-cash-roles at 3, 4 and 6
players, several seeds, seats rotated, beside `random`; at knobs that reorder the
deck's roles, copy its cards and pay money per number. And, as
tests/reference/test_roles_fdc.py finds for the Python bots, the hand-written
fdc's own compiled heuristic plays the same games (its kernel is tested game for
game against its engine in test_fdc_kernel.py).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from balancer import knobs
from balancer.bot import bot_params_with_defaults
from balancer.games import definition
from balancer.games.fdc import kernel as fdc_kernel
from balancer.games.kernel_conformance import check_kernel
from balancer.games.roles import gamefile
from balancer.games.roles import kernel as K
from balancer.games.roles.compiled import RoleKernel
from balancer.games.roles.definition import build
from balancer.games.roles.engine import State
from balancer.games.roles.fdc_heuristic import heuristic_compiles
from balancer.games.roles.model import RoleGame
from balancer.games.roles.validate import check
from balancer.rng import CHANCE, Stream, bot_stream
from tests.kernels.test_roles_kernel import rules_of, shipped

Slots = Sequence[tuple[str, Mapping[str, Any]]]
HEURISTIC: tuple[str, Mapping[str, Any]] = ("heuristic", {})
RANDOM: tuple[str, Mapping[str, Any]] = ("random", {})
Record = tuple[tuple[float, ...], int, list[float]]
FDC_ROLES = shipped("fish-dash-cash-roles")


def engine_games(
    game: RoleGame, rules: Mapping[str, Any], seed: int, games: int, slots: Slots
) -> list[Record]:
    """Games 0..games-1 on the Python engine as sim/play.py plays them: seat s of game
    i sits slot (s + i) % players, a forced move is played unasked."""
    players = len(slots)
    offered = build(game).bots()
    bots = [
        offered[name].factory(**bot_params_with_defaults(offered[name], given))
        for name, given in slots
    ]
    out = []
    for index in range(games):
        state = State(game, rules, players, Stream(seed, index, CHANCE))
        streams = [Stream(seed, index, bot_stream(seat)) for seat in range(players)]
        while not state.is_terminal():
            legal = state.legal_actions()
            move = legal[0]
            if len(legal) > 1:
                seat = state.current_player()
                move = bots[(seat + index) % players].act(state.view(seat), legal, streams[seat])
            state.apply_action(move)
        record = state.record()
        out.append((record.scores, record.length, [record.events[e.name] for e in game.events]))
    return out


def columns(cols: Any, games: int) -> list[Record]:
    return [
        (
            tuple(float(x) for x in cols.scores[row]),
            int(cols.length[row]),
            [float(x) for x in cols.events[row]],
        )
        for row in range(games)
    ]


def kernel_games(
    game: RoleGame, rules: Mapping[str, Any], seed: int, games: int, slots: Slots
) -> list[Record]:
    return columns(K.play_chunk(game, rules, len(slots), seed, 0, games, slots, True), games)


def assert_same_games(
    game: RoleGame, rules: Mapping[str, Any], seed: int, games: int, slots: Slots
) -> None:
    expected = engine_games(game, rules, seed, games, slots)
    got = kernel_games(game, rules, seed, games, slots)
    for index, (kernel, engine) in enumerate(zip(got, expected, strict=True)):
        assert kernel == engine, f"{len(slots)} players, seed {seed}: game {index}"


SEATINGS = {
    3: [HEURISTIC] * 3,
    4: [HEURISTIC, RANDOM, HEURISTIC, RANDOM],
    6: [HEURISTIC, HEURISTIC, RANDOM, HEURISTIC, HEURISTIC, HEURISTIC],
}


@pytest.mark.parametrize("players", [3, 4, 6])
def test_the_compiled_heuristic_plays_the_python_bots_games(players: int) -> None:
    rules = rules_of(FDC_ROLES)
    for seed in (1, 20261203):
        assert_same_games(FDC_ROLES, rules, seed, 12, SEATINGS[players])


# Knobs the bridge reads apart from the trick's: roles listed in another order (a
# card's effect is its role's first step, not its index), two copies of each card
# (moves one per kind), money per number, an uncashed fish worth points.
ODD_KNOBS = {
    "deck": {
        "colours": ["red", "blue", "green"],
        "roles": ["cash", "fish", "dash"],
        "numbers": [1, 5],
        "copies": 2,
    },
    "cash_per_card": 1,
    "cash_per_number": 1,
    "uncashed_value": -2,
}


def test_the_compiled_heuristic_plays_the_python_bots_games_at_other_knobs() -> None:
    rules = rules_of(FDC_ROLES, **ODD_KNOBS)
    assert_same_games(FDC_ROLES, rules, 5, 12, [HEURISTIC, RANDOM, HEURISTIC, HEURISTIC])


def test_its_parameters_reach_the_kernel() -> None:
    careless = ("heuristic", {"fish_weight": 0.1, "rival_weight": 0.0, "cash_at": 9})
    rules = rules_of(FDC_ROLES)
    assert_same_games(FDC_ROLES, rules, 2, 8, [careless, HEURISTIC, HEURISTIC])
    # The control: the defaults play other games at this seed.
    assert kernel_games(FDC_ROLES, rules, 2, 8, [careless, HEURISTIC, HEURISTIC]) != (
        kernel_games(FDC_ROLES, rules, 2, 8, [HEURISTIC] * 3)
    )


# fdc's cash_value -> the file's (cash_per_card, cash_per_number), as the reference maps it.
CASH_VALUE = {"count": (1, 0), "face": (0, 1), "face_plus_one": (1, 1)}


@pytest.mark.parametrize(
    "overrides",
    [{}, {"cash_value": "face", "uncashed_value": -1}, {"neko_min_followers": 1}],
    ids=["defaults", "face", "neko-1"],
)
@pytest.mark.parametrize("players", [3, 4, 6])
def test_it_plays_the_hand_written_kernels_games(
    overrides: Mapping[str, Any], players: int
) -> None:
    fdc_rules = {**knobs.defaults(definition("fish-dash-cash").spec.knobs), **overrides}
    rules = rules_of(FDC_ROLES)
    for name in rules:
        if name in fdc_rules:
            rules[name] = fdc_rules[name]
    rules["cash_per_card"], rules["cash_per_number"] = CASH_VALUE[fdc_rules["cash_value"]]
    slots = SEATINGS[players]
    games = 60
    hand_written = fdc_kernel.play_chunk(fdc_rules, players, 20261203, 0, games, slots, True)
    assert kernel_games(FDC_ROLES, rules, 20261203, games, slots) == columns(hand_written, games)


def odd_bank(per_card: int | str) -> RoleGame:
    """fish-dash-cash-roles with its bank paying `per_card` (a knob name or a number)."""
    source = gamefile.read(gamefile.shipped_path("fish-dash-cash-roles"))  # type: ignore[arg-type]
    source.data["score"][0]["per_card"] = per_card
    game = check(source)[0]
    assert game is not None
    return game


def test_a_file_whose_bank_pays_otherwise_seats_the_heuristic_step_by_step() -> None:
    """Its heuristic values fish by the money knobs (fdc_view), which the kernel can't
    read when the bank pays otherwise: such a file keeps the heuristic, step by step."""
    constant = odd_bank(3)
    assert "heuristic" in build(constant).bots()
    assert not heuristic_compiles(constant)
    assert "heuristic" not in RoleKernel(constant).compiled_bots
    with pytest.raises(ValueError, match="heuristic"):
        K.play_chunk(constant, rules_of(constant), 3, 1, 0, 1, [HEURISTIC] * 3, True)
    # The control: the knob itself, and the shipped file, play it compiled.
    assert heuristic_compiles(odd_bank("cash_per_card"))
    assert "heuristic" in RoleKernel(FDC_ROLES).compiled_bots
    # And a file that plays other roles offers no heuristic at all.
    assert "heuristic" not in RoleKernel(shipped("mega-racer")).compiled_bots


def test_the_kernel_conformance_check_passes_with_the_heuristic() -> None:
    # games/kernel_conformance.py through the one kernel interface: `choose` move by
    # move, `play_out` from the deal and from the middle, `from_state`, against the
    # Python bot.
    fdc_roles = build(FDC_ROLES)
    rules = knobs.defaults(fdc_roles.spec.knobs)
    check_kernel(fdc_roles, rules, 4, [HEURISTIC, RANDOM] * 2, seed=9, games=2)
    check_kernel(fdc_roles, rules, 3, [HEURISTIC] * 3, seed=7, games=2)
