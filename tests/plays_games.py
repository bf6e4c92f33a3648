"""Hand-made game files for `balancer plays` (tests/unit/test_plays_*.py), each with what
it is for. Cards: (role × numbers + number − 1), one colour, one copy."""

from __future__ import annotations

import tempfile
from pathlib import Path

from balancer.config.variant import Variant, load

_COUNTER = """counters:
  points: {start: 0, min: 0, max: 100}
score:
  - {counter: points}
win: highest
"""

# Two players, six cards 1..6 dealt three each, no pile; every card adds its number to
# its owner. Tricks of 3, 2 and 1 cards: each seat's 3 turns offer 3, 2 and 1 moves (2
# choices of 3 turns), and its score is its hand's sum whatever it plays: the deal
# decides (21 in all, odd: never a tie).
SUM = (
    """name: hp-sum
short: hpsum
players: [2, 2]
deck: {colours: [red], roles: [score], numbers: [1, 6], copies: 1}
hand_size: 3
roles:
  score:
    - add: {counter: points, by: number}
"""
    + _COUNTER
)

# As SUM, one card in hand: each trick's card is drawn, every move forced.
FORCED = (
    SUM.replace("hp-sum", "hp-forced")
    .replace("hpsum", "hpfor")
    .replace("hand_size: 3", "hand_size: 1")
)

# Two players, cards 1..8 dealt four each; one trick: each plays one card, the higher
# wins. Playing the highest card is never worse and often better: play matters.
PICK = (
    SUM.replace("hp-sum", "hp-pick")
    .replace("hpsum", "hppick")
    .replace("numbers: [1, 6]", "numbers: [1, 8]")
    .replace("hand_size: 3", "hand_size: 4")
    + "end:\n  - {tricks: 1}\n"
)

# Three players, one trick: a gift gives 1 point to the rival its owner picks (a
# decision: move -2 gives it to seat 0, -3 to seat 1, for seat 2); an idle card does
# nothing. Gifts 1..3 are cards 0..2, idle 1..3 cards 3..5.
KING = (
    """name: hp-king
short: hpking
players: [3, 3]
deck: {colours: [red], roles: [gift, idle], numbers: [1, 3], copies: 1}
hand_size: 1
roles:
  gift:
    - add: {counter: points, by: 1, target: rival}
  idle:
    - add: {counter: points, by: 0}
end:
  - {tricks: 1}
"""
    + _COUNTER
)


_FOLDER: list[Path] = []


def variant(game: str, players: int = 2, bots: str = "random") -> Variant:
    """A variant of `game` (one of the texts above). Each file is written once per test
    process, into one folder: a game's name may be registered from one path only."""
    if not _FOLDER:
        _FOLDER.append(Path(tempfile.mkdtemp(prefix="balancer-plays-")))
    folder = _FOLDER[0]
    name = game.split("\n", 1)[0].removeprefix("name: ")
    file = folder / f"{name}.yaml"
    if not file.exists():
        file.write_text(game, encoding="utf-8")
    path = folder / f"{name}-{players}-{bots}.yaml"
    path.write_text(
        f"game: ./{name}.yaml\nplayers: {players}\ngames: 10\nseed: 7\nbots: {bots}\n",
        encoding="utf-8",
    )
    return load(path)


def game_file(game: str) -> Path:
    """The file of `game` (written as `variant` writes it)."""
    variant(game, players=int(game.split("players: [", 1)[1].split(",")[0]))
    return _FOLDER[0] / f"{game.split(chr(10), 1)[0].removeprefix('name: ')}.yaml"
