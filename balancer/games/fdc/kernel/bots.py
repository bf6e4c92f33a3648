"""The compiled bots: `choose` dispatches to the random bot or the heuristic (bots.py
Heuristic, move for move): its play (heuristic.py) or its dash choice (here)."""

from __future__ import annotations

import numpy as np

from balancer.games.fdc.kernel.heuristic import _heuristic_play
from balancer.games.fdc.kernel.layout import (
    BOT_RANDOM,
    EFFECT,
    EFFECT_STEAL_OR_PROTECT,
    MONEY,
    O_TERR,
    PCARD,
    PHASE,
    PLAY,
    PLAYERS,
    PROT,
    PROTECT,
    QAT,
    QCARD,
    QLEN,
    QSEAT,
    T_CARDS,
    T_DECK,
    TCAP,
    TLEN,
    TURN,
    TWORTH,
    inlined,
)
from balancer.games.fdc.kernel.resolution import _u, current_player
from balancer.games.trick.kernel.lists import in_plays, seat_after
from balancer.games.trick.kernel.random_bot import random_move

# -- bots -------------------------------------------------------------------------------


@inlined
def choose(
    state: np.ndarray,
    tables: np.ndarray,
    streams: np.ndarray,
    kind: int,
    params: np.ndarray,
    moves: np.ndarray,
    n: int,
    iwork: np.ndarray,
    fwork: np.ndarray,
) -> int:
    """The move of compiled bot `kind` (parameter row `params`, see `bot_params`)
    for the current player among moves[:n] (n >= 2).

    `random` draws legal[below(n)] from the seat's own stream (RULES.md §4).
    `heuristic` (bots.py Heuristic) reads only what its seat may see: the
    current player's seat (its own hand is `moves`), the trick's plays
    (PSEAT/PCARD), the territories (O_TERR/TLEN, face up), protection
    (PROT), the cards still to resolve after its dash (QSEAT/QCARD from QAT)
    and the public tables; never another hand, the pile or the cashed cards.
    """
    return _choose(state, tables, streams, kind, params, 0, moves, n, iwork, fwork)


@inlined
def _choose(
    state: np.ndarray,
    tables: np.ndarray,
    streams: np.ndarray,
    kind: int,
    params: np.ndarray,
    po: int,
    moves: np.ndarray,
    n: int,
    iwork: np.ndarray,
    fwork: np.ndarray,
) -> int:
    """`choose` with the bot's parameters at params[po : po + N_PARAMS]: a chunk
    keeps every slot's in one flat array (a row view per move would cost atomic
    reference counting)."""
    seat = current_player(state)
    if kind == BOT_RANDOM:
        return random_move(streams, seat, moves, n)
    if state[PHASE] == PLAY:
        return _heuristic_play(state, tables, params, po, seat, moves, n, iwork, fwork)
    return _heuristic_dash(state, tables, seat, moves, n)


@inlined
def _richest(state: np.ndarray, tables: np.ndarray, seat: int) -> tuple[int, int]:
    """bots.py _richest_fish: (victim, index in its territory) of the most valuable
    stealable fish from the territory worth most (TWORTH: all its cards, played
    this trick or not, as Python sums them), victims from the next seat on;
    (-1, -1) if none."""
    money = T_CARDS + MONEY * tables[T_DECK]
    players, o_terr, tcap, turn = state[PLAYERS], state[O_TERR], state[TCAP], state[TURN]
    best_victim, best_at = -1, -1
    best_worth, best_money = -1, -1
    for k in range(1, players):
        victim = seat_after(seat, k, players)
        worth = state[_u(TWORTH + victim)]
        # (worth, money) beats the best only if worth is at least the best's.
        if state[_u(PROT + victim)] != 0 or worth < best_worth:
            continue
        base = o_terr + victim * tcap
        for i in range(state[_u(TLEN + victim)]):
            fish = state[_u(base + i)]
            if in_plays(state, PCARD, turn, fish):
                continue
            value = tables[_u(money + fish)]
            if worth > best_worth or (worth == best_worth and value > best_money):
                best_victim, best_at = victim, i
                best_worth, best_money = worth, value
    return best_victim, best_at


@inlined
def _heuristic_dash(
    state: np.ndarray, tables: np.ndarray, seat: int, moves: np.ndarray, n: int
) -> int:
    """bots.py Heuristic._dash: steal the richest fish unless a later rival dash
    threatens more at home than the steal would bring."""
    d = tables[T_DECK]
    money = T_CARDS + MONEY * d
    eff = T_CARDS + EFFECT * d
    tcap = state[TCAP]
    o_terr = state[O_TERR]
    turn = state[TURN]
    victim, at = _richest(state, tables, seat)
    if victim < 0:
        return PROTECT
    steal = state[_u(o_terr + victim * tcap + at)]
    steal_worth = tables[_u(money + steal)]
    mine = 0
    base = o_terr + seat * tcap
    for i in range(state[_u(TLEN + seat)]):
        fish = state[_u(base + i)]
        if not in_plays(state, PCARD, turn, fish):
            mine += tables[_u(money + fish)]
    threatened = False
    for i in range(state[QAT] + 1, state[QLEN]):
        if (
            state[_u(QSEAT + i)] != seat
            and tables[_u(eff + state[_u(QCARD + i)])] == EFFECT_STEAL_OR_PROTECT
        ):
            threatened = True
    if threatened and mine > steal_worth:
        return PROTECT
    for i in range(n):
        if moves[_u(i)] == steal:
            return steal
    return PROTECT
