"""Secret goals and a random discard in one file: both draw from the game's chance
stream (the goals at the deal, after the hands and the first leader; the discards in
play, after the goals), and a world redeals the rivals' goals and then keys a chance
of its own, in that order on both paths. Each alone is held to the engine elsewhere
(test_roles_goals_kernel.py, test_roles_random_discard_kernel.py); here the two
orders meet, game for game, with random and lookahead seats and through the kernel
conformance check."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from balancer.games.kernel_conformance import check_kernel
from balancer.games.roles import kernel as K
from balancer.games.roles import load_file
from balancer.games.roles.definition import build
from balancer.games.roles.model import RoleGame
from tests.kernels import test_roles_lookahead_kernel as looking
from tests.kernels.test_roles_kernel import HERE, assert_same_games, rules_of

# secret_goals.yaml with a fifth role whose card discards one random card from a rival's
# vault (face down: the world must not know which) and counts it.
PURGE_ROLE = """  purge:
    - discard: {from: vault, at_random: true, target: rival, event: purges}
"""


def both_game(folder: Path) -> RoleGame:
    text = (HERE / "secret_goals.yaml").read_text(encoding="utf-8")
    text = text.replace("name: secret-goals-kernel", "name: goals-and-purges")
    text = text.replace("short: sgk", "short: gap")
    four = "roles: [stash, show, run, nudge]"
    text = text.replace(four, four[:-1] + ", purge]")
    text = text.replace("roles:\n  stash:", "roles:\n" + PURGE_ROLE + "  stash:")
    text += "  purges:\n    meaning: cards purged from a rival's vault\n"
    path = folder / "goals-and-purges.yaml"
    path.write_text(text, encoding="utf-8")
    return load_file(path)


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> RoleGame:
    return both_game(tmp_path_factory.mktemp("both"))


def test_the_file_purges_and_scores_goals(game: RoleGame) -> None:
    """The control: both mechanics fire (else the tests below would hold little)."""
    assert game.goals is not None
    cols = K.play_chunk(game, rules_of(game), 3, 11, 0, 80, [("random", {})] * 3, False)
    names = [e.name for e in game.events]
    assert cols.events[:, names.index("purges")].sum() > 20
    assert (cols.events[:, names.index("goal_points")] != 0).sum() > 40


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_bots_game_for_game(game: RoleGame, players: int) -> None:
    assert_same_games(game, rules_of(game), players, 11, 0, 80)


@pytest.mark.parametrize("players", [2, 4])
def test_lookahead_plays_the_python_bots_games(game: RoleGame, players: int) -> None:
    looking.assert_same_games(game, 5, 3, [looking.LOOKAHEAD] * players)


@pytest.mark.parametrize(
    "seats", [[looking.RANDOM] * 3, [looking.LOOKAHEAD, looking.RANDOM, looking.LOOKAHEAD]],
    ids=["random", "mixed"],
)  # fmt: skip
def test_the_kernel_conformance_check_passes(game: RoleGame, seats: list[Any]) -> None:
    check_kernel(build(game), rules_of(game), len(seats), seats, seed=7, games=4)
