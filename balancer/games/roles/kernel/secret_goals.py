"""The secret goals compiled (roles/goals.py is the authority): their deal at the start
of a game (`deal_goals`, interpreter.py start_game) and the rivals' dealt again in a
world sampled for one seat (`redeal_goals`, play.py determinize), each drawing what
the Python deal and redeal draw. What `{goals: true}` scores is scoring.py's
`_goal_terms`: each goal card's terms are term rows of their own (tables.py).

A file without goals has no goal cards (X_NGOALS 0): neither draws anything, so its
games are dealt as before.
"""

from __future__ import annotations

import numpy as np

from balancer.games.roles.kernel.layout import (
    OVER,
    PHASE,
    T_PLAYERS,
    X_GOAL_DEAL,
    X_GOAL_POOL,
    X_NGOALS,
    inlined,
)
from balancer.games.roles.kernel.regions import _goal, _rb, _x
from balancer.rng import CHANCE
from balancer.rng_kernels import shuffle


@inlined
def deal_goals(state: np.ndarray, tables: np.ndarray, streams: np.ndarray) -> None:
    """goals.deal, after the hands and the first leader: the goal cards 0..n-1 shuffled
    on the chance stream (in the state's work block), `deal` to each seat in turn from
    seat 0. The work block is cleared after, so no world copies the deal's order."""
    n = _x(tables, X_NGOALS)
    if n == 0:
        return
    pool = _rb(state) + _x(tables, X_GOAL_POOL)
    for g in range(n):
        state[pool + g] = g
    shuffle(streams, CHANCE, state[pool : pool + n], n)
    held = _x(tables, X_GOAL_DEAL)
    first = _goal(state, tables, 0, 0)
    for i in range(tables[T_PLAYERS] * held):
        state[first + i] = state[pool + i]
    for g in range(n):
        state[pool + g] = 0


@inlined
def redeal_goals(
    state: np.ndarray, tables: np.ndarray, seat: int, rng: np.ndarray, out: np.ndarray
) -> None:
    """goals.redeal into the world `out` (a copy of `state`): the goals `seat` has seen
    kept (its own; every seat's once the game is over), the others dealt again, seat by
    seat from 0, from the goal cards it has not seen, listed by number (never in the
    true deal's order) and shuffled on rng's stream 0, as determinize.py shuffles the
    list after the cards' pool."""
    n = _x(tables, X_NGOALS)
    if n == 0:
        return
    held = _x(tables, X_GOAL_DEAL)
    players = tables[T_PLAYERS]
    over = state[PHASE] == OVER
    pool = _rb(out) + _x(tables, X_GOAL_POOL)
    for g in range(n):  # 1: a goal card the seat has not seen
        out[pool + g] = 1
    for s in range(players):
        if s == seat or over:
            for j in range(held):
                out[pool + state[_goal(state, tables, s, j)]] = 0
    m = 0
    for g in range(n):  # compacted in place: m <= g
        if out[pool + g] != 0:
            out[pool + m] = g
            m += 1
    shuffle(rng, 0, out[pool : pool + m], m)
    at = 0
    for s in range(players):
        if s != seat and not over:
            for j in range(held):
                out[_goal(out, tables, s, j)] = out[pool + at]
                at += 1
    for g in range(n):  # cleared, as the deal leaves it
        out[pool + g] = 0
