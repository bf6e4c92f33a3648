"""The compiled bots (the Python ones are games/kimekimera/bots.py): `bot_action`,
random, expected and cautious, move for move.
"""

from __future__ import annotations

import numpy as np

from balancer.games.kimekimera.kernel.layout import (
    KEEP,
    NET_HI,
    NET_LO,
    PAIR_I,
    PAIR_J,
    S_FREE,
    S_MINE,
    S_SEAT,
    S_THEME,
    T_BONUS1,
    T_BONUS2,
    T_CLASS,
    T_FLOOR,
    T_MATCHES,
    T_NUMBER,
)
from balancer.jit import njit
from balancer.rng_kernels import below

# -- the bots ---------------------------------------------------------------------


@njit
def bot_action(
    bot: int,
    params: np.ndarray,
    state: np.ndarray,
    tables: np.ndarray,
    streams: np.ndarray,
    moves: np.ndarray,
    n: int,
    scratch: np.ndarray,
) -> int:
    """What bot `bot` (a BOT_IDS value) in the seat to move picks from moves[:n].

    `scratch` is an int64 work array of at least 16. Scripted bots score each
    move's 6 outcomes as bots.lotteries does (PAIRS order, then the floor);
    the scoring is written out here rather than called, since every call
    with array arguments costs reference counting.
    """
    seat = state[S_SEAT]
    if bot == 0:
        return moves[below(streams, 1 + seat, n)]
    if n == 1:
        return moves[0]
    t0 = state[S_THEME]
    t1 = state[S_THEME + 1]
    theme_total = tables[T_NUMBER + t0] + tables[T_NUMBER + t1]
    matches_at = T_MATCHES + (tables[T_CLASS + t0] * 6 + tables[T_CLASS + t1]) * 36
    bonus1 = tables[T_BONUS1]
    bonus2 = tables[T_BONUS2]
    floor = tables[T_FLOOR] != 0
    at = int(params[0]) - 1
    # scratch[8 + i], scratch[12 + i]: number and colour class of card i of
    # (mine0, mine1, free0, free1); a grey card's class is 5 (its number is
    # 0, but a deck may give other cards 0 too).
    for i in range(2):
        card = state[S_MINE + 2 * seat + i]
        scratch[8 + i] = tables[T_NUMBER + card]
        scratch[12 + i] = tables[T_CLASS + card]
    best = moves[0]
    best_a = 0
    best_b = 0
    for k in range(n):
        action = moves[k]
        if action == KEEP:  # keeping: the same pair 6 times over
            scratch[10] = scratch[8]
            scratch[11] = scratch[9]
            scratch[14] = scratch[12]
            scratch[15] = scratch[13]
        else:
            for i in range(2):
                card = state[S_FREE + 2 * action + i]
                scratch[10 + i] = tables[T_NUMBER + card]
                scratch[14 + i] = tables[T_CLASS + card]
        total = 0
        worst = 0
        for p in range(6):
            if action == KEEP:
                i = 0
                j = 1
            else:
                i = PAIR_I[p]
                j = PAIR_J[p]
            na = scratch[8 + i]
            nb = scratch[8 + j]
            ca = scratch[12 + i]
            cb = scratch[12 + j]
            score = 0 if ca == 5 or cb == 5 else abs(theme_total - na - nb)
            matches = tables[matches_at + ca * 6 + cb]
            if matches == 1:
                score -= bonus1
            elif matches == 2:
                score -= bonus2
            if floor and score < 0:
                score = 0
            scratch[p] = score
            total += score
            if p == 0 or score > worst:
                worst = score
        if bot == 1:
            # expected: the lowest (sum, worst), the first in legal order on a tie.
            ka = total
            kb = worst
        else:
            # cautious: the lowest (rank-th worst of the 6, sum). Sorted worst
            # first by a sorting network: no data-dependent branches to mispredict.
            for c in range(12):
                x = scratch[NET_HI[c]]
                y = scratch[NET_LO[c]]
                scratch[NET_HI[c]] = max(x, y)
                scratch[NET_LO[c]] = min(x, y)
            ka = scratch[at]
            kb = total
        if k == 0 or ka < best_a or (ka == best_a and kb < best_b):
            best = action
            best_a = ka
            best_b = kb
    return best
