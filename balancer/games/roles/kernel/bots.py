"""The role kernel's compiled bots and what plays them from any position: `random`
(RULES.md §4), `lookahead` (kernel/lookahead.py) and, on a file that plays Fish!
Dash! Cash!'s roles, fdc's `heuristic` (kernel/fdc_bridge.py), `choose` for the
seat to act, `play_out` to the end (a search bot's play-outs), with the same names
and signatures as every kernel's (games/kernel_api.py).

A seat's bot is its kind (`KINDS`) and a float64 parameter row of `ROW` words
(layout.py P_*: lookahead's samples, goal_weight and win_bonus; then, from
`P_HEURISTIC`, the heuristic's row as fdc's kernel lays it out); a plan (the trick
procedure's layout) holds each physical seat's kind and the offset of its row.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from balancer.games.roles.kernel import fdc_bridge
from balancer.games.roles.kernel.fdc_bridge import BOT_HEURISTIC, heuristic_move
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
    T_DECK,
    T_PLAYERS,
    TRICKS,
    inlined,
)
from balancer.games.roles.kernel.lookahead import X_MOVES, lookahead_move, new_scratch
from balancer.games.step_kernels import block
from balancer.games.trick.kernel.random_bot import random_move

# layout.py's kinds and the heuristic's: only a file that plays fdc's roles seats it
# (roles/compiled.py offers it where roles/fdc_heuristic.py's heuristic_compiles).
KINDS = {**BOT_KINDS, "heuristic": BOT_HEURISTIC}
COMPILED_BOTS: frozenset[str] = frozenset(KINDS)
P_HEURISTIC = N_PARAMS  # the heuristic's row starts after lookahead's three words
ROW = N_PARAMS + fdc_bridge.N_PARAMS


def check_bots(names: Sequence[str]) -> None:
    for name in names:
        if name not in KINDS:
            raise ValueError(f"no compiled role-game bot {name!r}; compiled: {sorted(KINDS)}")


def bot_params(name: str, given: Mapping[str, Any]) -> np.ndarray:
    """One seat's parameter row: lookahead's (samples, goal_weight, win_bonus), as
    given with its defaults filled in; the heuristic's as fdc's kernel reads it (its
    four parameters and the discard costs); zeros for `random`."""
    row = np.zeros(ROW, np.float64)
    if KINDS[name] == BOT_LOOKAHEAD:
        row[P_SAMPLES] = int(given["samples"])
        row[P_GOAL_WEIGHT] = given["goal_weight"]
        row[P_WIN_BONUS] = given["win_bonus"]
    elif KINDS[name] == BOT_HEURISTIC:
        row[P_HEURISTIC:] = fdc_bridge.heuristic_params(given)
    return row


def most_samples(params: np.ndarray) -> int:
    """The most worlds any seat's row asks for (a scratch's size): 0 for `random`."""
    return int(params.reshape(-1, ROW)[:, P_SAMPLES].max(initial=0))


def encode_bots(seats: Sequence[tuple[str, Mapping[str, Any]]]) -> tuple[np.ndarray, np.ndarray]:
    """(plan, params) for `play_out`: seats[s] is physical seat s's compiled bot, its
    kind at plan[PLAN_KIND + s], its row at params[plan[PLAN_PARAMS + s]:][:ROW]."""
    check_bots([name for name, _ in seats])
    plan = np.zeros(PLAN_SIZE, np.int64)
    params = np.zeros(len(seats) * ROW, np.float64)
    for s, (name, given) in enumerate(seats):
        plan[PLAN_KIND + s] = KINDS[name]
        plan[PLAN_PARAMS + s] = s * ROW
        params[s * ROW : (s + 1) * ROW] = bot_params(name, given)
    return plan, params


def scratch_for(state: np.ndarray, tables: np.ndarray, params: np.ndarray) -> np.ndarray:
    """`play_out`'s and `choose`'s work space for the bots of `params`: lookahead's
    (kernel/lookahead.py), then the heuristic's at its end (kernel/fdc_bridge.py: a
    few hundred words, made whoever sits, as a scratch is kept per shape)."""
    bridge = fdc_bridge.words(int(tables[T_PLAYERS]), int(tables[T_DECK]))
    lookahead = new_scratch(state, tables, most_samples(params))
    return np.concatenate([lookahead, np.zeros(bridge, np.int64)])


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
    if kind == BOT_HEURISTIC:
        return heuristic_move(state, tables, streams, params, po + P_HEURISTIC, moves, n, scratch)
    return random_move(streams, seat, moves, n)


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
