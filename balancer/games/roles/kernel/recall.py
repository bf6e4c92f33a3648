"""What every seat can still tell of the face-down zones, compiled (engine.py State.unsure).

Every card that goes into a face-down zone was face up just before (in the
trick, or in a face-up zone), so every seat saw it go in and recalls it
(View.recalled). Only a steal from one face-down zone into another hides
which card went: the seats who didn't steal saw a card go, not which, so that
card and every card left in the zone it came from are flagged unsure. A card
that comes face up again is seen by all: its flag is cleared. So a flag is
set only on a card in a face-down zone (the state's unsure block, one word a
card: layout.py X_UNSURE).
"""

from __future__ import annotations

import numpy as np

from balancer.games.roles.kernel.layout import O_ROLES, T_DIR, X_UNSURE, X_ZFACE, inlined


@inlined
def unsure_at(state: np.ndarray, tables: np.ndarray) -> int:
    """Index of card 0's unsure flag (card c's is at this + c)."""
    return state[O_ROLES] + tables[T_DIR + X_UNSURE]


@inlined
def face_down(tables: np.ndarray, zone: int) -> bool:
    return tables[tables[T_DIR + X_ZFACE] + zone] != 0


@inlined
def after_move_all(
    state: np.ndarray, tables: np.ndarray, goal: int, first: int, moved: int
) -> None:
    """The `moved` cards at state[first:] just went into zone `goal`."""
    if not face_down(tables, goal):
        flags = unsure_at(state, tables)
        for j in range(moved):
            state[flags + state[first + j]] = 0


@inlined
def after_steal(
    state: np.ndarray,
    tables: np.ndarray,
    source: int,
    goal: int,
    left_at: int,
    left: int,
    taken: int,
) -> None:
    """`taken` just went from zone `source` (its `left` cards now at state[left_at:])
    into zone `goal`."""
    flags = unsure_at(state, tables)
    if not face_down(tables, goal):
        state[flags + taken] = 0
    elif face_down(tables, source):
        state[flags + taken] = 1
        for j in range(left):
            state[flags + state[left_at + j]] = 1
