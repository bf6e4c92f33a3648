"""The role kernel against the Python interpreter over 1,000 games a player count.

tests/kernels/test_roles_kernel.py holds the kernel to the interpreter game for
game on 150 games per case; here the three shipped game files play 1,000 games at
each of 2 to 6 players with `random` in every seat, records compared game for
game (the same check, at the power issue 29 asks for).
"""

from __future__ import annotations

import pytest

from tests.kernels.test_roles_kernel import SHIPPED, assert_same_games, rules_of, shipped


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("name", SHIPPED)
def test_a_thousand_games_a_player_count_game_for_game(name: str, players: int) -> None:
    game = shipped(name)
    assert_same_games(game, rules_of(game), players, 2029, 0, 1000)
