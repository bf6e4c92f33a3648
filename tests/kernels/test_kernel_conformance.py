"""Every registered game's kernel plays its engine's games, through the one kernel interface.

games/kernel_conformance.py is the check; here it runs over every game with a
kernel, with every compiled bot in every seat and with a mixed table, at the
default knobs, and at every other player count with knobs the progress rows must
follow; controls show the check fails a kernel that is off by one move, one whose
worlds keep another seat's view than the one asked, and a chunk whose figures of how
each game played are another game's or missing.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from balancer import games, knobs
from balancer.bot import bot_params_with_defaults
from balancer.games.kernel_api import Position, SeatBots
from balancer.games.kernel_conformance import check_kernel
from balancer.games.progress import COMEBACK, NAMES

WITH_KERNEL = [name for name in games.names() if games.definition(name).kernel() is not None]


def _seats(name: str, bots: list[str]) -> list[tuple[str, dict[str, Any]]]:
    specs = games.definition(name).bots()
    return [(bot, dict(bot_params_with_defaults(specs[bot], {}))) for bot in bots]


@pytest.mark.parametrize("name", WITH_KERNEL)
def test_every_compiled_bot_plays_its_engine_twin_game_for_game(name: str) -> None:
    definition = games.definition(name)
    kernel = definition.kernel()
    assert kernel is not None
    spec = definition.spec
    rules = knobs.defaults(spec.knobs)
    players = spec.max_players
    compiled = sorted(kernel.compiled_bots)
    for bot in compiled:
        check_kernel(definition, rules, players, _seats(name, [bot] * players), seed=7, games=4)
    mixed = [compiled[s % len(compiled)] for s in range(players)]
    check_kernel(definition, rules, players, _seats(name, mixed), seed=11, games=4)


class _OneMoveOff:
    """A kernel whose bots pick the next legal move to the one its real bot picks."""

    def __init__(self, kernel: Any) -> None:
        self.kernel = kernel

    def __getattr__(self, attr: str) -> Any:
        return getattr(self.kernel, attr)

    def choose(self, position: Position, bots: SeatBots, n: int) -> int:
        picked = self.kernel.choose(position, bots, n)
        moves = position.moves[:n].tolist()
        return int(moves[(moves.index(picked) + 1) % n])


def test_the_check_fails_a_kernel_whose_bot_is_one_move_off() -> None:
    from dataclasses import replace

    definition = games.definition("fdc")
    real = definition.kernel()
    off = replace(definition, kernel=lambda: _OneMoveOff(real))
    rules = knobs.defaults(definition.spec.knobs)
    with pytest.raises(AssertionError, match="compiled bot plays"):
        check_kernel(off, rules, 4, _seats("fdc", ["random"] * 4), seed=7, games=2)


class _WrongSeatWorlds:
    """A kernel whose determinize keeps the next seat's view instead of the one asked."""

    def __init__(self, kernel: Any) -> None:
        self.kernel = kernel

    def __getattr__(self, attr: str) -> Any:
        return getattr(self.kernel, attr)

    def determinize(self, position: Position, seat: int, rng: Any, out: Position) -> int:
        players = len(position.streams) - 1
        return int(self.kernel.determinize(position, (seat + 1) % players, rng, out))


# Kimekimera is left out: every seat sees the same (all chimeras are face up; only the
# deck's order is hidden), so another seat's view is this one's.
@pytest.mark.parametrize("name", ["fish-dash-cash", "da-qi-zi"])
def test_the_check_fails_worlds_that_keep_another_seats_view(name: str) -> None:
    from dataclasses import replace

    definition = games.definition(name)
    real = definition.kernel()
    wrong = replace(definition, kernel=lambda: _WrongSeatWorlds(real))
    spec = definition.spec
    players = spec.max_players
    # The bot must read its view, or a world that changed it could not be told.
    seats = _seats(name, ["heuristic"] * players)
    with pytest.raises(AssertionError, match="other moves"):
        check_kernel(wrong, knobs.defaults(spec.knobs), players, seats, seed=7, games=8)


# Every player count the game allows but the largest (the test above plays that one),
# with knobs that the rows must follow: fdc's uncashed fish score in every trick's
# row (at the default 0 a row that left them out would pass), kk plays more rounds.
OTHER_KNOBS: dict[str, dict[str, Any]] = {
    "fish-dash-cash": {"uncashed_value": 2},
    "kimekimera": {"rounds": 7},
}
OTHER_COUNTS = [
    (name, players)
    for name in WITH_KERNEL
    for players in range(games.definition(name).spec.min_players, 7)
    if players < games.definition(name).spec.max_players
]


@pytest.mark.parametrize(("name", "players"), OTHER_COUNTS)
def test_every_player_count_plays_its_engine_twin_with_the_same_figures(
    name: str, players: int
) -> None:
    definition = games.definition(name)
    kernel = definition.kernel()
    assert kernel is not None
    compiled = sorted(kernel.compiled_bots)
    mixed = _seats(name, [compiled[s % len(compiled)] for s in range(players)])
    rules = {**knobs.defaults(definition.spec.knobs), **OTHER_KNOBS.get(name, {})}
    for seed in (3, 5):
        check_kernel(definition, rules, players, mixed, seed=seed, games=3)


class _FiguresOff:
    """A kernel whose chunk gives each game the figures of the game after it (the last
    keeps its own), or none at all."""

    def __init__(self, kernel: Any, keep: bool) -> None:
        self.kernel = kernel
        self.keep = keep

    def __getattr__(self, attr: str) -> Any:
        return getattr(self.kernel, attr)

    def play_chunk(self, *args: Any) -> Any:
        from dataclasses import replace

        chunk = self.kernel.play_chunk(*args)
        if not self.keep:
            return replace(chunk, figures=None)
        shifted = chunk.figures.copy()
        shifted[:-1] = chunk.figures[1:]
        return replace(chunk, figures=shifted)


@pytest.mark.parametrize(
    ("keep", "message"), [(True, "play_chunk's figures"), (False, "only the engine's")]
)
def test_the_check_fails_a_chunk_whose_figures_are_another_games_or_none(
    keep: bool, message: str
) -> None:
    from dataclasses import replace

    definition = games.definition("kimekimera")
    real = definition.kernel()
    off = replace(definition, kernel=lambda: _FiguresOff(real, keep))
    rules = knobs.defaults(definition.spec.knobs)
    # Seed 7's first three 4-player games differ in how they played (checked: the
    # control's first assertion), so a shifted row can't pass by chance.
    chunk = real.play_chunk(rules, 4, 7, 0, 3, _seats("kimekimera", ["random"] * 4), False)
    assert not np.array_equal(chunk.figures[0], chunk.figures[1], equal_nan=True)
    with pytest.raises(AssertionError, match=message):
        check_kernel(off, rules, 4, _seats("kimekimera", ["random"] * 4), seed=7, games=3)


@pytest.mark.parametrize("name", WITH_KERNEL)
def test_a_comeback_margin_reaches_the_chunk_as_it_reaches_the_engine(name: str) -> None:
    """A variant's comeback_margin (0: any winner not tied for the best at halfway came
    back) is the chunk's as it is the engine's, game for game."""
    definition = games.definition(name)
    kernel = definition.kernel()
    assert kernel is not None
    players = min(4, definition.spec.max_players)
    rules = knobs.defaults(definition.spec.knobs)
    seats = _seats(name, ["random"] * players)
    last_only = kernel.play_chunk(rules, players, 9, 0, 8, seats, False)
    behind = kernel.play_chunk(rules, players, 9, 0, 8, seats, False, 0)
    # The control: in these games margin 0 counts comebacks "last only" doesn't, so a
    # chunk or engine that dropped the margin fails the check below.
    assert (behind.figures[:, COMEBACK] > last_only.figures[:, COMEBACK]).any()
    others = [k for k in range(len(NAMES)) if k != COMEBACK]
    assert np.array_equal(behind.figures[:, others], last_only.figures[:, others], equal_nan=True)
    check_kernel(definition, rules, players, seats, seed=9, games=8, margin=0)
