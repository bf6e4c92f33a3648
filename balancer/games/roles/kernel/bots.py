"""The role kernel's compiled bots and what plays them from any position: `random`
(RULES.md §4) and `lookahead` (kernel/lookahead.py), `choose` for the seat to act,
`play_out` to the end (a search bot's play-outs), with the same names and
signatures as every kernel's (games/kernel_api.py).

A seat's bot is its kind (layout.py BOT_KINDS) and a float64 parameter row
(layout.py P_*: lookahead's samples, goal_weight and win_bonus); a plan (fdc's
layout) holds each physical seat's kind and the offset of its row.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from balancer.games.fdc.kernel.bots import _random_move
from balancer.games.roles.kernel.interpreter import apply, current_player, legal, scores_of
from balancer.games.roles.kernel.layout import (
    BOT_KINDS,
    BOT_LOOKAHEAD,
    N_PARAMS,
    OVER,
    P_GOAL_WEIGHT,
    P_SAMPLES,
    P_WIN_BONUS,
    PHASE,
    PLAN_KIND,
    PLAN_PARAMS,
    PLAN_SIZE,
    TRICKS,
    inlined,
)
from balancer.games.roles.kernel.lookahead import X_MOVES, lookahead_move, new_scratch
from balancer.games.step_kernels import block


def check_bots(names: Sequence[str]) -> None:
    for name in names:
        if name not in BOT_KINDS:
            raise ValueError(f"no compiled role-game bot {name!r}; compiled: {sorted(BOT_KINDS)}")


def bot_params(name: str, given: Mapping[str, Any]) -> np.ndarray:
    """One seat's parameter row: lookahead's (samples, goal_weight, win_bonus), as
    given with its defaults filled in; zeros for `random`."""
    row = np.zeros(N_PARAMS, np.float64)
    if BOT_KINDS[name] == BOT_LOOKAHEAD:
        row[P_SAMPLES] = int(given["samples"])
        row[P_GOAL_WEIGHT] = given["goal_weight"]
        row[P_WIN_BONUS] = given["win_bonus"]
    return row


def most_samples(params: np.ndarray) -> int:
    """The most worlds any seat's row asks for (a scratch's size): 0 for `random`."""
    return int(params.reshape(-1, N_PARAMS)[:, P_SAMPLES].max(initial=0))


def encode_bots(seats: Sequence[tuple[str, Mapping[str, Any]]]) -> tuple[np.ndarray, np.ndarray]:
    """(plan, params) for `play_out`: seats[s] is physical seat s's compiled bot, its
    kind at plan[PLAN_KIND + s], its row at params[plan[PLAN_PARAMS + s]:][:N_PARAMS]."""
    check_bots([name for name, _ in seats])
    plan = np.zeros(PLAN_SIZE, np.int64)
    params = np.zeros(len(seats) * N_PARAMS, np.float64)
    for s, (name, given) in enumerate(seats):
        plan[PLAN_KIND + s] = BOT_KINDS[name]
        plan[PLAN_PARAMS + s] = s * N_PARAMS
        params[s * N_PARAMS : (s + 1) * N_PARAMS] = bot_params(name, given)
    return plan, params


def scratch_for(state: np.ndarray, tables: np.ndarray, params: np.ndarray) -> np.ndarray:
    """`play_out`'s and `choose`'s work space for the bots of `params`."""
    return new_scratch(state, tables, most_samples(params))


@inlined
def bot_move(
    state: np.ndarray,
    tables: np.ndarray,
    streams: np.ndarray,
    kind: int,
    params: np.ndarray,
    po: int,
    moves: np.ndarray,
    n: int,
    scratch: np.ndarray,
) -> int:
    """The move of compiled bot `kind` (its row at params[po:]) for the seat to act
    among moves[:n] (n >= 2), drawing from that seat's own stream."""
    seat = current_player(state, tables)
    if kind == BOT_LOOKAHEAD:
        return lookahead_move(
            state, tables, streams, seat, int(params[po + P_SAMPLES]),
            params[po + P_GOAL_WEIGHT], params[po + P_WIN_BONUS], moves, n, scratch,
        )  # fmt: skip
    return _random_move(streams, seat, moves, n)


@inlined
def choose(
    state: np.ndarray,
    tables: np.ndarray,
    streams: np.ndarray,
    kind: int,
    params: np.ndarray,
    po: int,
    moves: np.ndarray,
    n: int,
    scratch: np.ndarray,
) -> int:
    """`bot_move`, as every kernel offers it to Python (a search, the conformance check)."""
    return bot_move(state, tables, streams, kind, params, po, moves, n, scratch)


@inlined
def play_out(
    state: np.ndarray,
    tables: np.ndarray,
    streams: np.ndarray,
    plan: np.ndarray,
    params: np.ndarray,
    scratch: np.ndarray,
    scores: np.ndarray,
) -> int:
    """Play from `state` to the end, seat s by the bot of plan/params (`encode_bots`),
    drawing from its stream 1 + s; a forced move is played without asking (no draw),
    as the chunk loop plays. scores[s] gets seat s's score; returns the length."""
    moves = block(scratch, X_MOVES)
    while state[PHASE] != OVER:
        n = legal(state, tables, moves)
        if n == 1:
            action = moves[0]
        else:
            seat = current_player(state, tables)
            action = bot_move(
                state, tables, streams, plan[PLAN_KIND + seat], params,
                plan[PLAN_PARAMS + seat], moves, n, scratch,
            )  # fmt: skip
        apply(state, tables, streams, action)
    scores_of(state, tables, scores)
    return state[TRICKS]
