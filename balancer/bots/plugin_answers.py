"""What counts as a plugin bot's answer: a legal move in exact built-in types.

Both modes share it: a hosted plugin's process (bots/keeper.py) turns its
bot's answer into an index here, and a trusted plugin's answer is checked
here by the move loop (sim/play.py). A subclass is never a move, so no
`__eq__` of a plugin's runs in the engine.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

_PLAIN = (int, str, bool, float, bytes, type(None))


def same_move(answer: Any, move: Any) -> bool:
    """`answer` is `move` in exact built-in types: no subclass, so no __eq__ of a plugin's."""
    kind = type(move)
    if type(answer) is not kind:
        return False
    if kind is tuple:
        return len(answer) == len(move) and all(map(same_move, answer, move))
    if kind in _PLAIN:
        return bool(answer == move)
    return False


def choose(answer: Any, legal: Sequence[Hashable]) -> int | None:
    """The index of `answer` among the legal moves, compared exactly; None if it is none."""
    kind = type(answer)
    if kind is int or kind is str:
        # The common answer, found by the list's own search: an exact int or
        # str compares by its built-in ==, so no code of the plugin's runs.
        # The first equal move must be of its very type (1 == True == 1.0).
        try:
            index = legal.index(answer)
        except ValueError:
            return None
        if type(legal[index]) is kind:
            return index
    for index, move in enumerate(legal):
        if same_move(answer, move):
            return index
    return None


def describe(answer: Any) -> str:
    """A short, safe description of a bot's answer: its repr only for plain built-in values."""
    if type(answer) in _PLAIN or (
        type(answer) is tuple and all(type(item) in _PLAIN for item in answer)
    ):
        text = repr(answer)
        return text if len(text) <= 60 else text[:57] + "..."
    return f"a {type(answer).__qualname__[:40]} (not a move)"
