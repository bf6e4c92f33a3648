"""The compiled bots (bots.py): the heuristic, and `choose` between it and the random bot."""

from __future__ import annotations

import numpy as np

from balancer import rng
from balancer.games.daqizi.engine import PLAYERS
from balancer.games.daqizi.kernel.layout import (
    BOT_HEURISTIC,
    DISCARD_BASE,
    MAX_COMBO,
    P_CHEAP_BEAT,
    P_RESERVE_MIN,
    P_SAFE_LEAD,
    RESERVE_COST,
    S_BEST,
    S_HANDS,
    S_LAST_TRICK,
    S_NCAP,
    S_PACKED,
    S_PUBLIC_PACKED,
    S_SIZES,
    S_TO_ACT,
    S_TURN,
    SINGLE,
    T_FORM,
    T_FULL_DECK,
    T_MOVE_KINDS,
    T_MOVE_PACKED,
    T_MOVE_SIZE,
    T_MOVE_TOP,
    T_STRENGTH,
    K,
)
from balancer.games.daqizi.kernel.resolution import can_beat
from balancer.jit import njit

# -- the bots (bots.py) ------------------------------------------------------------


@njit
def _unseen(state: np.ndarray, tables: np.ndarray, seat: int) -> np.int64:
    return tables[T_FULL_DECK] - state[S_PACKED + seat] - state[S_PUBLIC_PACKED]


@njit
def _reserve(
    state: np.ndarray, tables: np.ndarray, seat: int, unseen: np.int64, params: np.ndarray
) -> int:
    """Heuristic._reserve: the single kind kept for the last trick, or -1."""
    for kind in range(K - 1, -1, -1):
        if state[S_HANDS + seat * K + kind] > 0:
            # The single of kind k is combination k (singles come first, in kind order).
            if kind >= params[P_RESERVE_MIN] or not can_beat(tables, unseen, kind):
                return kind
            return -1
    return -1


@njit
def _uses_reserve(
    state: np.ndarray, tables: np.ndarray, seat: int, move: int, reserve: int
) -> bool:
    if reserve < 0:
        return False
    taken = (tables[T_MOVE_PACKED + move] >> np.int64(4 * reserve)) & np.int64(15)
    return taken >= state[S_HANDS + seat * K + reserve]


@njit
def heuristic(
    state: np.ndarray, tables: np.ndarray, moves: np.ndarray, n: int, params: np.ndarray
) -> int:
    """bots.Heuristic.act, the same choice from the same view (see its docstring)."""
    seat = state[S_TO_ACT]
    unseen = _unseen(state, tables, seat)
    reserve = _reserve(state, tables, seat, unseen, params)
    captured_any = state[S_NCAP + seat] > 0
    if state[S_BEST] < 0:
        size = state[S_SIZES + seat]
        safe_lead = params[P_SAFE_LEAD] != 0
        # One pass for bots.py's two: a safe lead of the whole hand wins wherever it
        # stands, and otherwise the best sparing safe lead (max keeps the first of
        # equal keys: most cards, then the weakest).
        pick = -1
        pick_size = 0
        pick_strength = 0
        for i in range(n):
            c = moves[i]
            if can_beat(tables, unseen, c):
                continue
            c_size = tables[T_MOVE_SIZE + c]
            if c_size == size:
                return c
            if not safe_lead or _uses_reserve(state, tables, seat, c, reserve):
                continue
            c_strength = tables[T_STRENGTH + c]
            if (
                pick < 0
                or c_size > pick_size
                or (c_size == pick_size and c_strength < pick_strength)
            ):
                pick, pick_size, pick_strength = c, c_size, c_strength
        if pick >= 0:
            return pick
        # The pool is the moves sparing the reserve, or all; then its singles, or all of it.
        spare_any = False
        for i in range(n):
            if not _uses_reserve(state, tables, seat, moves[i], reserve):
                spare_any = True
                break
        first = -1
        last = -1
        first_any = -1
        last_any = -1
        for i in range(n):
            c = moves[i]
            if spare_any and _uses_reserve(state, tables, seat, c, reserve):
                continue
            if first_any < 0:
                first_any = c
            last_any = c
            if tables[T_FORM + c] == SINGLE:
                if first < 0:
                    first = c
                last = c
        if first < 0:
            first, last = first_any, last_any
        return first if captured_any else last
    n_beats = 0
    while n_beats < n and moves[n_beats] < DISCARD_BASE:
        n_beats += 1
    if n_beats > 0:
        if state[S_LAST_TRICK]:
            return moves[n_beats - 1]
        after = PLAYERS - 1 - state[S_TURN]
        for i in range(n_beats):
            c = moves[i]
            if not _uses_reserve(state, tables, seat, c, reserve) and (
                after == 0 or not can_beat(tables, unseen, c)
            ):
                return c
        for i in range(n_beats):
            c = moves[i]
            if not _uses_reserve(state, tables, seat, c, reserve) and (
                not captured_any or tables[T_MOVE_TOP + c] <= params[P_CHEAP_BEAT]
            ):
                return c
        if n_beats == n:  # must beat: discarding is barred
            for i in range(n_beats):
                if not _uses_reserve(state, tables, seat, moves[i], reserve):
                    return moves[i]
            return moves[0]
    pick = -1
    pick_cost = 0
    for i in range(n_beats, n):
        d = moves[i]
        cost = 0
        for j in range(tables[T_MOVE_SIZE + d]):
            kind = tables[T_MOVE_KINDS + d * MAX_COMBO + j]
            cost += RESERVE_COST if kind == reserve else kind
        if pick < 0 or cost < pick_cost:
            pick, pick_cost = d, cost
    return pick


@njit
def choose(
    state: np.ndarray,
    tables: np.ndarray,
    streams: np.ndarray,
    moves: np.ndarray,
    n: int,
    bot: int,
    params: np.ndarray,
) -> int:
    """The move bot `bot` (BOT_*) with `params` picks among moves[:n] for the seat to act."""
    if bot == BOT_HEURISTIC:
        return heuristic(state, tables, moves, n, params)
    # rng.bot_stream(seat) is 1 + seat.
    return moves[rng.below(streams, 1 + state[S_TO_ACT], n)]
