"""Where a role game's state keeps each thing: the index of a zone's length or cards,
a counter, flag, place, secret goal, event or scalar of the role region, found
through the program's directory in the tables (layout.py). The interpreter's
modules read and write the role region through these alone."""

from __future__ import annotations

import numpy as np

from balancer.games.roles.kernel.layout import (
    O_ROLES,
    T_DECK,
    T_DIR,
    T_PLAYERS,
    X_CNT,
    X_EVT,
    X_FLG,
    X_GOAL_DEAL,
    X_GOALS,
    X_PLC,
    X_SCALARS,
    X_ZCARDS,
    X_ZLEN,
    inlined,
)


@inlined
def _rb(state: np.ndarray) -> int:
    """Where the state's role region starts: after the pile."""
    return state[O_ROLES]


@inlined
def _x(tables: np.ndarray, key: int) -> int:
    """Directory entry `key` of the program."""
    return tables[T_DIR + key]


@inlined
def _scalar(state: np.ndarray, tables: np.ndarray, which: int) -> int:
    return _rb(state) + _x(tables, X_SCALARS) + which


@inlined
def _zone_len(state: np.ndarray, tables: np.ndarray, zone: int, seat: int) -> int:
    """Index of the length of `zone` of `seat`."""
    return _rb(state) + _x(tables, X_ZLEN) + zone * tables[T_PLAYERS] + seat


@inlined
def _zone_at(state: np.ndarray, tables: np.ndarray, zone: int, seat: int) -> int:
    """Index of the first card of `zone` of `seat`."""
    players = tables[T_PLAYERS]
    return _rb(state) + _x(tables, X_ZCARDS) + (zone * players + seat) * tables[T_DECK]


@inlined
def _flag(state: np.ndarray, tables: np.ndarray, flag: int, seat: int) -> int:
    return _rb(state) + _x(tables, X_FLG) + flag * tables[T_PLAYERS] + seat


@inlined
def _counter(state: np.ndarray, tables: np.ndarray, counter: int, seat: int) -> int:
    return _rb(state) + _x(tables, X_CNT) + counter * tables[T_PLAYERS] + seat


@inlined
def _place(state: np.ndarray, tables: np.ndarray, glob: int, seat: int) -> int:
    """Index of `seat`'s place behind global `glob` (0: none yet)."""
    return _rb(state) + _x(tables, X_PLC) + glob * tables[T_PLAYERS] + seat


@inlined
def _goal(state: np.ndarray, tables: np.ndarray, seat: int, j: int) -> int:
    """Index of `seat`'s j-th secret goal (a goal card's number, roles/goals.py)."""
    return _rb(state) + _x(tables, X_GOALS) + seat * _x(tables, X_GOAL_DEAL) + j


@inlined
def _event(state: np.ndarray, tables: np.ndarray, event: int) -> int:
    return _rb(state) + _x(tables, X_EVT) + event


# The same, under public names: the primitives' compiled acts (games/roles/primitives/,
# a package of its own, which takes no private names) and the score terms' compiled
# values (scores/) find the role region with these.
role_base, directory, zone_len, zone_at = _rb, _x, _zone_len, _zone_at
flag_at, counter_at, event_at, place_at = _flag, _counter, _event, _place
goal_at = _goal
