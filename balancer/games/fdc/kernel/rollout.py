"""Rollouts: a game played to its end from any position by the seats' compiled bots, and
a world sampled from what one seat can see (a search bot's two steps, issue 30).

`play_out(state, tables, streams, plan, params, scratch, scores)` plays on from
the position in `state` (changed in place: play a copy) until the game ends,
every decision by the compiled bot of its seat, and writes each seat's score
to `scores`; it returns the game's length (tricks). `encode_bots` makes the
(plan, params) of one bot a seat, `new_scratch` the work space.

`determinize(state, tables, seat, rng, out, out_streams)` writes into `out` (a
state shaped like `state`, not the same array) a world `seat` can't tell from
`state`: everything it sees copied, the cards it can't see (the other hands and
the pile) dealt again from the unseen pool, the event counts reset. The pool is the set of cards the
seat has not seen, listed by card number before it is shuffled, never in the
order the true state holds them, so two states that differ only in hidden
cards give the same world from the same `rng` (docs/determinize.md, step for
step). fdc draws chance only at the deal: `out_streams` is left as it is.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from balancer.games.fdc.kernel.bots import _choose
from balancer.games.fdc.kernel.layout import (
    BOT_KINDS,
    CMONEY,
    DECK,
    EVENTS,
    HANDS,
    HCAP,
    HLEN,
    N_EVENTS,
    N_PARAMS,
    O_PILE,
    OVER,
    PHASE,
    PILE_LEN,
    PLAN_KIND,
    PLAN_PARAMS,
    PLAN_SIZE,
    PLAYERS,
    T_UNCASHED,
    TLEN,
    TRICKS,
    inlined,
)
from balancer.games.fdc.kernel.resolution import apply, current_player, legal
from balancer.games.fdc.kernel.tables import bot_params, new_legal, new_work
from balancer.games.step_kernels import block
from balancer.rng_kernels import shuffle

# The scratch buffer (`new_scratch`): a header of (start, stop) pairs, then the
# legal-move list, the heuristic's int64 work array and its float64 one (as bits).
X_MOVES, X_IWORK, X_FWORK = 0, 2, 4
X_HEADER = 6


def encode_bots(seats: Sequence[tuple[str, Mapping[str, Any]]]) -> tuple[np.ndarray, np.ndarray]:
    """(plan, params) for `play_out`: seats[s] is the compiled bot of physical seat s,
    (name, parameters); its kind at plan[PLAN_KIND + s], its float64 parameter row at
    params[plan[PLAN_PARAMS + s]:][:N_PARAMS]."""
    plan = np.zeros(PLAN_SIZE, np.int64)
    params = np.zeros(len(seats) * N_PARAMS, np.float64)
    for s, (name, given) in enumerate(seats):
        params[s * N_PARAMS : (s + 1) * N_PARAMS] = bot_params(name, given)
        plan[PLAN_KIND + s] = BOT_KINDS[name]
        plan[PLAN_PARAMS + s] = s * N_PARAMS
    return plan, params


def new_scratch(state: np.ndarray) -> np.ndarray:
    """`play_out`'s work space (int64) for states shaped like `state`."""
    iwork, fwork = new_work(state)
    parts = [new_legal(state), iwork, fwork.view(np.int64)]
    header = np.zeros(X_HEADER, np.int64)
    at = X_HEADER
    for i, part in enumerate(parts):
        header[2 * i], header[2 * i + 1] = at, at + len(part)
        at += len(part)
    return np.concatenate([header, *parts])


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
    as the chunk loop plays. scores[s] gets seat s's score (the record's); returns
    the game's length in tricks."""
    moves, iwork = block(scratch, X_MOVES), block(scratch, X_IWORK)
    fwork = block(scratch, X_FWORK).view(np.float64)
    while state[PHASE] != OVER:
        n = legal(state, tables, moves)
        if n == 1:
            action = moves[0]
        else:
            seat = current_player(state)
            action = _choose(
                state, tables, streams, plan[PLAN_KIND + seat], params, plan[PLAN_PARAMS + seat],
                moves, n, iwork, fwork,
            )  # fmt: skip
        apply(state, tables, streams, action)
    for s in range(state[PLAYERS]):
        scores[s] = float(state[CMONEY + s] + tables[T_UNCASHED] * state[TLEN + s])
    return state[TRICKS]


@inlined
def unseen_pool(state: np.ndarray, seat: int, out: np.ndarray) -> int:
    """List the cards `seat` has not seen, by card number, at out's pile block; return
    how many. They are the other hands and the pile; only which cards they are is
    read (a flag per card), never where or in what order the state holds them."""
    pile, d = state[O_PILE], state[DECK]
    for c in range(d):
        out[pile + c] = 0
    hcap = state[HCAP]
    for s in range(state[PLAYERS]):
        if s != seat:
            for j in range(state[HLEN + s]):
                out[pile + state[HANDS + s * hcap + j]] = 1
    for j in range(state[PILE_LEN]):
        out[pile + state[pile + j]] = 1
    n = 0
    for c in range(d):  # compacted in place: n <= c
        if out[pile + c] != 0:
            out[pile + n] = c
            n += 1
    return n


@inlined
def deal_unseen(state: np.ndarray, seat: int, rng: np.ndarray, out: np.ndarray, n: int) -> None:
    """Shuffle the pool of n cards at out's pile block on rng's stream 0 and deal it:
    seat by seat from 0 (not `seat`) each its hand's size, from the pool's start, and
    the rest, in pool order, is the pile (its last card drawn first). The event counts
    are reset, as in every world (docs/determinize.md): no view shows them, and a
    play-out counts from the sampled position on."""
    for i in range(EVENTS, EVENTS + N_EVENTS):
        out[i] = 0
    pile = state[O_PILE]
    shuffle(rng, 0, out[pile : pile + n], n)
    hcap = state[HCAP]
    at = 0
    for s in range(state[PLAYERS]):
        if s != seat:
            for j in range(state[HLEN + s]):
                out[HANDS + s * hcap + j] = out[pile + at]
                at += 1
    for k in range(n - at):  # moved down in place: at >= 0
        out[pile + k] = out[pile + at + k]


@inlined
def determinize(
    state: np.ndarray,
    tables: np.ndarray,
    seat: int,
    rng: np.ndarray,
    out: np.ndarray,
    out_streams: np.ndarray,
) -> int:
    """A world for `seat` into `out` (module docstring): `state` copied, then the other
    hands and the pile dealt again from the unseen pool on rng's stream 0 (a uint64
    (key, counter) row, advanced). `state` is only read. Returns the constraints
    dropped, as every kernel's determinize: none in fdc, where every deal of the
    pool is possible."""
    for i in range(state.shape[0]):
        out[i] = state[i]
    deal_unseen(state, seat, rng, out, unseen_pool(state, seat, out))
    return 0
