"""Rollouts: a game played out from any position by the seats' compiled bots, and a
world sampled from what one seat can see (a search bot's two steps, issue 30).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from balancer.games.kimekimera.kernel.convert import encode_slots
from balancer.games.kimekimera.kernel.layout import (
    DECK,
    MAX_FREE,
    MAX_PLAYERS,
    N_EVENTS,
    N_PARAMS,
    PLAN_KIND,
    PLAN_PARAMS,
    PLAN_SIZE,
    S_DECK,
    S_DECK_N,
    S_EVENTS,
    S_HELD,
    S_ROUND,
    S_TOTALS,
    T_PLAYERS,
)
from balancer.games.kimekimera.kernel.stepping import advance_to_outside
from balancer.games.progress import DECISION_WORDS
from balancer.jit import njit
from balancer.rng import CHANCE
from balancer.rng_kernels import next_u64, shuffle

# =============================================================================
# Rollouts: played out from any position, and a world sampled from a seat's view
# =============================================================================
#
# A search bot (issue 30) samples a world its seat can't tell from the true
# state (`determinize`) and plays it out with the seats' compiled bots
# (`play_out`), many times a decision: both compiled, called from compiled code.
# The signatures are those of every kernel's rollouts (fdc's and dqz's alike).

# play_out's scratch: the legal-move list, bot_action's work array, then the turns and
# choices advance_to_outside counts (a rollout reads none of them).
X_MOVES = MAX_FREE + 1
X_DECISIONS = X_MOVES + 16
SCRATCH_SIZE = X_DECISIONS + DECISION_WORDS


def encode_bots(seats: Sequence[tuple[str, Mapping[str, Any]]]) -> tuple[np.ndarray, np.ndarray]:
    """(plan, params) for `play_out`: seats[s] is the compiled bot of physical seat s,
    (name, parameters); its id at plan[PLAN_KIND + s], its float64 parameter row at
    params[plan[PLAN_PARAMS + s]:][:N_PARAMS]."""
    ids, rows = encode_slots(seats)
    plan = np.zeros(PLAN_SIZE, np.int64)
    for s in range(len(seats)):
        plan[PLAN_KIND + s] = ids[s]
        plan[PLAN_PARAMS + s] = s * N_PARAMS
    return plan, rows.ravel()


def new_scratch(state: np.ndarray) -> np.ndarray:
    """`play_out`'s work space (int64)."""
    return np.zeros(SCRATCH_SIZE, np.int64)


@njit
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
    drawing from its stream 1 + s, chance (breeding lotteries, reshuffles) from
    streams[CHANCE]; a forced move is played unasked (no draw), as the chunk loop
    plays. scores[s] gets seat s's total; returns the rounds played."""
    moves, work = scratch[:X_MOVES], scratch[X_MOVES:X_DECISIONS]
    advance_to_outside(state, tables, streams, plan, params, moves, work, scratch[X_DECISIONS:])
    for s in range(tables[T_PLAYERS]):
        scores[s] = state[S_TOTALS + s]
    return state[S_ROUND]


@njit
def unseen_pool(state: np.ndarray, out: np.ndarray) -> int:
    """List the cards of the deck, by card number, at out's deck block; return how
    many. Every other card is face up or was (mine, free, theme, discard): the
    deck's contents are known to every seat, its order to none, and only which
    cards it holds is read here (a flag per card), never in what order."""
    for c in range(DECK):
        out[S_DECK + c] = 0
    for j in range(state[S_DECK_N]):
        out[S_DECK + state[S_DECK + j]] = 1
    n = 0
    for c in range(DECK):  # compacted in place: n <= c
        if out[S_DECK + c] != 0:
            out[S_DECK + n] = c
            n += 1
    return n


@njit
def deal_unseen(rng: np.ndarray, out: np.ndarray, n: int, out_streams: np.ndarray) -> None:
    """Shuffle the pool of n cards at out's deck block on rng's stream 0 as the deck
    (its last card the top), then the world's chance stream: key one number of rng,
    counter 0 (the last draw), so the world never knows a future lottery or shuffle.
    What no view shows is reset, as in every world (docs/determinize.md): the event
    counts and the card-impact bits (a play-out counts from the sampled position on)."""
    for i in range(N_EVENTS):
        out[S_EVENTS + i] = 0
    for s in range(MAX_PLAYERS):
        out[S_HELD + s] = 0
    shuffle(rng, 0, out[S_DECK : S_DECK + DECK], n)
    out_streams[CHANCE, 0] = next_u64(rng, 0)
    out_streams[CHANCE, 1] = 0


@njit
def determinize(
    state: np.ndarray,
    tables: np.ndarray,
    seat: int,
    rng: np.ndarray,
    out: np.ndarray,
    out_streams: np.ndarray,
) -> int:
    """A world for `seat` into `out` (docs/determinize.md, draw for draw): `state`
    copied, the deck's cards shuffled again on rng's stream 0 (a uint64 (key,
    counter) row, advanced), the chance stream of `out_streams` reseeded from rng.
    Every seat sees the same in kk, so `seat` changes nothing. `state` is only read.
    Returns the constraints dropped, as every kernel's determinize: none in kk."""
    out[:] = state
    deal_unseen(rng, out, unseen_pool(state, out), out_streams)
    return 0
