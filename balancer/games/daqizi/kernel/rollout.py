"""Rollouts: a game played out from any position by the seats' compiled bots, and a
world sampled from what one seat can see (a search bot's two steps, issue 30).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from balancer.games.daqizi.engine import PLAYERS
from balancer.games.daqizi.kernel.chunk import bot_arrays
from balancer.games.daqizi.kernel.heuristic import choose
from balancer.games.daqizi.kernel.layout import (
    CHANCE,
    E_DEALS,
    FD_BEAT,
    FD_CARDS,
    FD_PACKED,
    FD_SEAT,
    FD_UP,
    FD_WIDTH,
    MAX_COMBO,
    MAX_FD,
    MAX_LEGAL,
    N_CARDS,
    N_EVENTS,
    N_PARAMS,
    PLAN_KIND,
    PLAN_PARAMS,
    PLAN_SIZE,
    S_CHIPS,
    S_DEAL,
    S_DECK,
    S_EVENTS,
    S_FD,
    S_FD_N,
    S_HANDS,
    S_OVER,
    S_PACKED,
    S_PUBLIC_PACKED,
    S_SIZES,
    S_TO_ACT,
    S_UP_PLAYED,
    T_FULL_DECK,
    T_MOVE_KINDS,
    T_MOVE_SIZE,
    K,
)
from balancer.games.daqizi.kernel.resolution import apply, can_beat, legal
from balancer.jit import njit
from balancer.rng_kernels import below as draw_below
from balancer.rng_kernels import next_u64 as draw_u64

# =============================================================================
# Rollouts: played out from any position, and a world sampled from a seat's view
# =============================================================================
#
# A search bot (issue 30) samples a world its seat can't tell from the true
# state (`determinize`) and plays it out with the seats' compiled bots
# (`play_out`), many times a decision. The signatures are every kernel's
# (fdc's and kk's alike). docs/determinize.md is the contract, step for step.

MAX_ATTEMPTS = 32
"""Rejected samples in a row after which `determinize` drops the multi-card
constraint that failed most often."""
ANY_KIND = K - 1  # a slot's cap when no single constraint binds it


def encode_bots(seats: Sequence[tuple[str, Mapping[str, Any]]]) -> tuple[np.ndarray, np.ndarray]:
    """(plan, params) for `play_out`: seats[s] is the compiled bot of physical seat s,
    (name, parameters); its kind at plan[PLAN_KIND + s], its float64 parameter row at
    params[plan[PLAN_PARAMS + s]:][:N_PARAMS]."""
    kinds, rows = bot_arrays(seats)
    plan = np.zeros(PLAN_SIZE, np.int64)
    for s in range(len(seats)):
        plan[PLAN_KIND + s] = kinds[s]
        plan[PLAN_PARAMS + s] = s * N_PARAMS
    return plan, rows.ravel()


def new_scratch(state: np.ndarray) -> np.ndarray:
    """`play_out`'s work space (int64): the legal-move list."""
    return np.zeros(MAX_LEGAL, np.int64)


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
    """Play from `state` to the end of the game, seat s by the bot of plan/params
    (`encode_bots`), drawing from its stream 1 + s, later deals from streams[CHANCE];
    a forced move is played unasked (no draw), as the chunk loop plays. scores[s]
    gets seat s's chips; returns the deals played."""
    while state[S_OVER] == 0:
        n = legal(state, tables, scratch)
        if n == 1:
            action = scratch[0]
        else:
            seat = state[S_TO_ACT]
            at = plan[PLAN_PARAMS + seat]
            action = choose(
                state,
                tables,
                streams,
                scratch,
                n,
                plan[PLAN_KIND + seat],
                params[at : at + N_PARAMS],
            )
        apply(state, tables, streams, action)
    for s in range(PLAYERS):
        scores[s] = state[S_CHIPS + s]
    return state[S_EVENTS + E_DEALS]


@njit
def play_deal_out(
    state: np.ndarray,
    tables: np.ndarray,
    streams: np.ndarray,
    plan: np.ndarray,
    params: np.ndarray,
    scratch: np.ndarray,
    scores: np.ndarray,
    deal: int,
) -> int:
    """`play_out` while deal `deal` (S_DEAL, 1-based) is being played, then stop: a
    search's `horizon: deal`. scores[s] gets seat s's chips once that deal is paid
    (nothing is played if it already is). The next deal is already dealt in `state`
    then (payment and deal are one step of `apply`): the position is for reading
    chips, not for playing on. Returns the deals played.

    `play_out`'s loop written out again with one more test, not shared with it: a
    shared inlined step made the whole-game play-out about 10% slower (measured
    side by side, docs/performance.md)."""
    deals = state[S_EVENTS + E_DEALS]
    while state[S_OVER] == 0 and state[S_DEAL] == deal:
        n = legal(state, tables, scratch)
        if n == 1:
            action = scratch[0]
        else:
            seat = state[S_TO_ACT]
            at = plan[PLAN_PARAMS + seat]
            action = choose(
                state,
                tables,
                streams,
                scratch,
                n,
                plan[PLAN_KIND + seat],
                params[at : at + N_PARAMS],
            )
        apply(state, tables, streams, action)
    for s in range(PLAYERS):
        scores[s] = state[S_CHIPS + s]
    return state[S_EVENTS + E_DEALS] - deals


@njit
def unseen_pool(state: np.ndarray, tables: np.ndarray, seat: int, pool: np.ndarray) -> int:
    """The kinds of the cards `seat` has not seen this deal, ascending, into pool[:n];
    returns n. Worked out from what it has seen alone: every card less its hand, its
    own face-down discards and the deal's face-up plays."""
    hidden = tables[T_FULL_DECK] - state[S_PACKED + seat] - state[S_PUBLIC_PACKED]
    for j in range(state[S_FD_N]):
        e = S_FD + j * FD_WIDTH
        if state[e + FD_SEAT] == seat:
            hidden -= state[e + FD_PACKED]
    n = 0
    for k in range(K):
        for _ in range((hidden >> np.int64(4 * k)) & np.int64(15)):
            pool[n] = k
            n += 1
    return n


@njit
def deal_unseen(
    state: np.ndarray,
    tables: np.ndarray,
    seat: int,
    rng: np.ndarray,
    out: np.ndarray,
    out_streams: np.ndarray,
    pool: np.ndarray,
    n: int,
) -> int:
    """Deal the n kinds of pool (ascending) to the slots `seat` can't see, into `out`
    (a copy of `state`), by docs/determinize.md's steps from rng's stream 0; returns
    how many multi-card constraints had to be dropped.

    Slots: the other seats' hands (ascending seat), then the other seats' face-down
    discards of the deal (in order). A must-beat discard of a single caps every slot of
    its seat's cards held then (hand, that discard and later ones) at the single's
    kind; slots are filled by (cap, slot order), each a uniform pick among the kinds
    left under its cap. A must-beat discard under a combination of several cards is
    checked after the fill; a fill that breaks one is drawn again, and after
    MAX_ATTEMPTS in a row the constraint failed most often is dropped.
    """
    n_fd = state[S_FD_N]
    owner = np.empty(n, np.int64)  # a hand slot: its seat; a discard's: PLAYERS + entry
    cap = np.empty(n, np.int64)
    got = np.empty(n, np.int64)
    order = np.empty(n, np.int64)
    left = np.empty(n, np.int64)
    fails = np.zeros(MAX_FD, np.int64)
    active = np.zeros(MAX_FD, np.bool_)
    slots = 0
    for r in range(PLAYERS):
        if r != seat:
            for _ in range(state[S_SIZES + r]):
                owner[slots] = r
                slots += 1
    for j in range(n_fd):
        e = S_FD + j * FD_WIDTH
        if state[e + FD_SEAT] != seat:
            for _ in range(state[e + FD_CARDS]):
                owner[slots] = PLAYERS + j
                slots += 1
    assert slots == n
    for i in range(n):
        cap[i] = ANY_KIND
    for j in range(n_fd):
        e = S_FD + j * FD_WIDTH
        r, beat = state[e + FD_SEAT], state[e + FD_BEAT]
        if r == seat or beat < 0:
            continue
        if tables[T_MOVE_SIZE + beat] > 1:
            active[j] = True
            continue
        single = tables[T_MOVE_KINDS + beat * MAX_COMBO]
        for i in range(n):
            o = owner[i]
            held = o == r or (o >= PLAYERS + j and state[S_FD + (o - PLAYERS) * FD_WIDTH] == r)
            if held and single < cap[i]:
                cap[i] = single
    m = 0  # the slots by (cap, slot order)
    for c in range(K):
        for i in range(n):
            if cap[i] == c:
                order[m] = i
                m += 1
    dropped = 0
    attempts = 0
    while True:
        for i in range(n):
            left[i] = pool[i]
        n_left = n
        for k in range(n):
            i = order[k]
            under = 0
            while under < n_left and left[under] <= cap[i]:
                under += 1
            if under == 0:  # no real game's view gets here: the cap is let go
                under = n_left
            pick = draw_below(rng, 0, under)
            got[i] = left[pick]
            for q in range(pick, n_left - 1):
                left[q] = left[q + 1]
            n_left -= 1
        ok = True
        for j in range(n_fd):
            if active[j] and not _holds_under(state, tables, j, owner, got, n):
                fails[j] += 1
                ok = False
        if ok:
            break
        attempts += 1
        if attempts == MAX_ATTEMPTS:
            worst = -1
            for j in range(n_fd):
                if active[j] and (worst < 0 or fails[j] > fails[worst]):
                    worst = j
            active[worst] = False
            dropped += 1
            attempts = 0
            for j in range(n_fd):
                fails[j] = 0
    for r in range(PLAYERS):
        if r != seat:
            for k in range(K):
                out[S_HANDS + r * K + k] = 0
            out[S_PACKED + r] = 0
    for j in range(n_fd):
        if state[S_FD + j * FD_WIDTH + FD_SEAT] != seat:
            out[S_FD + j * FD_WIDTH + FD_PACKED] = 0
    for i in range(n):
        o, kind = owner[i], got[i]
        one = np.int64(1) << np.int64(4 * kind)
        if o < PLAYERS:
            out[S_HANDS + o * K + kind] += 1
            out[S_PACKED + o] += one
        else:
            out[S_FD + (o - PLAYERS) * FD_WIDTH + FD_PACKED] += one
    for i in range(N_CARDS):  # the deal's shuffle, left behind: every hand in it
        out[S_DECK + i] = 0
    # The event counts, as in every world (docs/determinize.md): no view shows them,
    # and one tells what a face-down discard was (a last-trick single above the best).
    for e in range(N_EVENTS):
        out[S_EVENTS + e] = 0
    out_streams[CHANCE, 0] = draw_u64(rng, 0)
    out_streams[CHANCE, 1] = 0
    return dropped


@njit
def _holds_under(
    state: np.ndarray, tables: np.ndarray, j: int, owner: np.ndarray, got: np.ndarray, n: int
) -> bool:
    """Whether face-down discard j's seat, with the kinds `got` dealt to the slots, held
    nothing beating FD_BEAT when it discarded: its hand, discard j and its later ones,
    and its face-up plays since."""
    e = S_FD + j * FD_WIDTH
    r = state[e + FD_SEAT]
    held = state[S_UP_PLAYED + r] - state[e + FD_UP]
    for i in range(n):
        o = owner[i]
        if o == r or (o >= PLAYERS + j and state[S_FD + (o - PLAYERS) * FD_WIDTH] == r):
            held += np.int64(1) << np.int64(4 * got[i])
    return not can_beat(tables, held, state[e + FD_BEAT])


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
    copied, the kinds it has not seen (`unseen_pool`, by kind) dealt again to the other
    hands and the other seats' face-down discards under what must-beat discards
    revealed (`deal_unseen`), from rng's stream 0 (a uint64 (key, counter) row,
    advanced), the chance stream of `out_streams` reseeded from it (the last draw).
    Returns the constraints dropped. `state` is only read.

    It reads the deal's record of face-down discards (S_FD_N, S_UP_PLAYED, S_FD): a
    position played in the kernel keeps it as it goes (`_note_face_down`), one
    converted from a Python State gets the same from `from_python`.
    """
    out[:] = state
    pool = np.empty(N_CARDS, np.int64)
    n = unseen_pool(state, tables, seat, pool)
    return deal_unseen(state, tables, seat, rng, out, out_streams, pool, n)
