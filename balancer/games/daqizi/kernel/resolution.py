"""The rules of Da Qi Zi as compiled kernels: combinations (fits, beats, discard ids),
legal moves, applying a move, tricks and deals.
"""

from __future__ import annotations

import numpy as np

from balancer import rng
from balancer.games.daqizi.engine import HAND, PLAYERS
from balancer.games.daqizi.kernel.layout import (
    BY_FORM_WIDTH,
    CHANCE,
    DISCARD_BASE,
    E_BUSTS,
    E_DEALER_WINS,
    E_DEALS,
    E_LAST_RULE,
    E_LEAD,
    E_MAX_MULT,
    E_TRICKS,
    E_ZERO,
    FD_BEAT,
    FD_CARDS,
    FD_PACKED,
    FD_SEAT,
    FD_UP,
    FD_WIDTH,
    GUARD,
    MAX_COMBO,
    N_CARDS,
    N_COMBOS,
    N_FORMS,
    R_BASE,
    R_BUST_AT,
    R_CAP,
    R_FIRST_MULT,
    R_LAST_RULE,
    R_MAX_DEALS,
    R_MAY_DISCARD,
    R_MIXED,
    R_PENALTY,
    R_RANDOM_DEALER,
    R_STARTING_CHIPS,
    R_STEP,
    S_BEST,
    S_BEST_SEAT,
    S_CAPTURED,
    S_CHIPS,
    S_DEAL,
    S_DEALER,
    S_DECK,
    S_DOWN,
    S_EVENTS,
    S_FD,
    S_FD_N,
    S_HAND_LEFT,
    S_HANDS,
    S_LAST_TRICK,
    S_LAST_WINNER,
    S_LEADER,
    S_LED,
    S_MULT,
    S_NCAP,
    S_OVER,
    S_PACKED,
    S_PUBLIC,
    S_PUBLIC_PACKED,
    S_SIZES,
    S_STREAK,
    S_TO_ACT,
    S_TRICKS,
    S_TURN,
    S_UP,
    S_UP_PLAYED,
    SINGLE,
    STATE_SIZE,
    T_ABOVE,
    T_ALLOWED,
    T_ALLOWED_N,
    T_BY_FORM,
    T_BY_FORM_N,
    T_CARD_KIND,
    T_DISC_ID,
    T_DISC_OFF,
    T_DISC_PACKED,
    T_FORM,
    T_MOVE_KINDS,
    T_MOVE_PACKED,
    T_MOVE_SIZE,
    K,
)
from balancer.jit import njit

# -- combinations ------------------------------------------------------------------


@njit
def fits(hand: np.int64, need: np.int64) -> bool:
    """combos.fits: whether the packed multiset `need` is within the packed `hand`."""
    return ((hand | GUARD) - need) & GUARD == GUARD


@njit
def can_beat(tables: np.ndarray, packed: np.int64, best: int) -> bool:
    """combos.can_beat_packed: whether any combination within `packed` beats `best`."""
    m = tables[R_MIXED]
    form = tables[T_FORM + best]
    if form == SINGLE:
        # Single `best` is kind `best`; every higher kind beats it.
        return (packed >> np.int64(4 * (best + 1))) != 0
    row = T_BY_FORM + (m * N_FORMS + form) * BY_FORM_WIDTH
    for i in range(tables[T_ABOVE + m * N_COMBOS + best], tables[T_BY_FORM_N + m * N_FORMS + form]):
        if fits(packed, tables[T_MOVE_PACKED + tables[row + i]]):
            return True
    return False


@njit
def discard_id(tables: np.ndarray, packed: np.int64, size: int) -> int:
    """The move id of the discard of multiset `packed` (of `size` cards)."""
    lo = tables[T_DISC_OFF + size - 1]
    hi = tables[T_DISC_OFF + size] - 1
    while lo < hi:
        mid = (lo + hi) // 2
        if tables[T_DISC_PACKED + mid] < packed:
            lo = mid + 1
        else:
            hi = mid
    return tables[T_DISC_ID + lo]


@njit
def _fill(hand: np.int64, kind: int, left: int | np.int64) -> np.int64:
    """The packed multiset taking as many as it can of each kind from `kind` up, `left` in all."""
    out = np.int64(0)
    for k in range(kind, K):
        if left == 0:
            break
        have = (hand >> np.int64(4 * k)) & np.int64(15)
        take = have if have < left else np.int64(left)
        out += take << np.int64(4 * k)
        left -= take
    return out


@njit
def _next_discard(hand: np.int64, current: np.int64) -> np.int64:
    """The discard after `current` in table order, or -1.

    Table order of multisets (sorted kind tuples, lexicographic) is: most of kind
    0 first, then most of kind 1, and so on. So the next one takes one card less
    of the highest kind j that can spare one to the kinds above it, and fills
    those kinds greedily again (combos.discard_options_packed's order).
    """
    count_above = np.int64(0)
    room_above = np.int64(0)
    for j in range(K - 1, -1, -1):
        shift = np.int64(4 * j)
        c = (current >> shift) & np.int64(15)
        if c > 0 and room_above >= count_above + 1:
            low = current & ((np.int64(1) << shift) - np.int64(1))
            return low + ((c - 1) << shift) + _fill(hand, j + 1, count_above + 1)
        count_above += c
        room_above += (hand >> shift) & np.int64(15)
    return np.int64(-1)


# -- the rules ---------------------------------------------------------------------


@njit
def current_player(state: np.ndarray) -> int:
    """The seat to act, or -1 when the game is over."""
    if state[S_OVER]:
        return -1
    return state[S_TO_ACT]


@njit
def _last_rule_binds(state: np.ndarray, tables: np.ndarray, seat: int) -> bool:
    return (
        state[S_LAST_TRICK] != 0
        and state[S_LED] == 1
        and tables[R_LAST_RULE] != 0
        and state[S_NCAP + seat] == 0
    )


@njit
def legal(state: np.ndarray, tables: np.ndarray, out: np.ndarray) -> int:
    """Fill out[:n] with the legal moves in engine.py's order; returns n (0 when over)."""
    if state[S_OVER]:
        return 0
    seat = state[S_TO_ACT]
    hand = state[S_PACKED + seat]
    m = tables[R_MIXED]
    n = 0
    if state[S_TURN] == 0:
        for i in range(tables[T_ALLOWED_N + m]):
            c = tables[T_ALLOWED + m * N_COMBOS + i]
            if fits(hand, tables[T_MOVE_PACKED + c]):
                out[n] = c
                n += 1
        return n
    led = state[S_LED]
    if _last_rule_binds(state, tables, seat):
        # Its single counts as a discard whatever it is: one move.
        out[0] = discard_id(tables, hand, 1)
        return 1
    best = state[S_BEST]
    form = tables[T_FORM + best]
    row = T_BY_FORM + (m * N_FORMS + form) * BY_FORM_WIDTH
    for i in range(tables[T_ABOVE + m * N_COMBOS + best], tables[T_BY_FORM_N + m * N_FORMS + form]):
        c = tables[row + i]
        if fits(hand, tables[T_MOVE_PACKED + c]):
            out[n] = c
            n += 1
    if n > 0 and tables[R_MAY_DISCARD] == 0:
        return n
    current = _fill(hand, 0, led)
    while current >= 0:
        out[n] = discard_id(tables, current, led)
        n += 1
        current = _next_discard(hand, current)
    return n


@njit
def _new_deal(state: np.ndarray, tables: np.ndarray, streams: np.ndarray, dealer: int) -> None:
    state[S_DEAL] += 1
    state[S_DEALER] = dealer
    if state[S_DEAL] == 1:
        multiplier = tables[R_FIRST_MULT]
    else:
        multiplier = 1 + tables[R_STEP] * state[S_STREAK]
    cap = tables[R_CAP]
    if cap >= 0 and multiplier > cap:
        multiplier = cap
    state[S_MULT] = multiplier
    if multiplier > state[S_EVENTS + E_MAX_MULT] or state[S_DEAL] == 1:
        state[S_EVENTS + E_MAX_MULT] = multiplier
    deck = state[S_DECK : S_DECK + N_CARDS]
    for card in range(N_CARDS):
        deck[card] = card
    rng.shuffle(streams, CHANCE, deck, N_CARDS)
    # Seat s gets shuffled cards 8s..8s+7, whoever deals (engine.py).
    for seat in range(PLAYERS):
        packed = np.int64(0)
        for k in range(K):
            state[S_HANDS + seat * K + k] = 0
            state[S_CAPTURED + seat * K + k] = 0
        for i in range(seat * HAND, (seat + 1) * HAND):
            kind = tables[T_CARD_KIND + deck[i]]
            state[S_HANDS + seat * K + kind] += 1
            packed += np.int64(1) << np.int64(4 * kind)
        state[S_PACKED + seat] = packed
        state[S_NCAP + seat] = 0
        state[S_SIZES + seat] = HAND
    for k in range(K):
        state[S_PUBLIC + k] = 0
    state[S_PUBLIC_PACKED] = 0
    state[S_FD_N] = 0
    for seat in range(PLAYERS):
        state[S_UP_PLAYED + seat] = 0
    state[S_HAND_LEFT] = HAND
    state[S_TRICKS] = 0
    _start_trick(state, dealer)


@njit
def _start_trick(state: np.ndarray, leader: int) -> None:
    state[S_LEADER] = leader
    state[S_TO_ACT] = leader
    state[S_TURN] = 0
    state[S_BEST] = -1
    state[S_BEST_SEAT] = -1
    state[S_LED] = 0
    state[S_LAST_TRICK] = 0
    state[S_UP] = 0
    state[S_DOWN] = 0


@njit
def new_game(state: np.ndarray, tables: np.ndarray, streams: np.ndarray) -> None:
    """Start a game in `state` (any contents): chips, the first dealer and the first deal."""
    for i in range(STATE_SIZE):
        state[i] = 0
    for seat in range(PLAYERS):
        state[S_CHIPS + seat] = tables[R_STARTING_CHIPS]
    state[S_LAST_WINNER] = -1
    # Drawn whatever the knob says, as engine.py does (common random numbers).
    pick = rng.below(streams, CHANCE, PLAYERS)
    _new_deal(state, tables, streams, pick if tables[R_RANDOM_DEALER] else 0)


@njit
def apply(state: np.ndarray, tables: np.ndarray, streams: np.ndarray, action: int) -> None:
    """Play `action` (a legal move) for the seat to act; deals the next deal when one ends."""
    seat = state[S_TO_ACT]
    size = tables[T_MOVE_SIZE + action]
    if state[S_TURN] == 0:
        state[S_LED] = size
        state[S_LAST_TRICK] = 1 if size == state[S_HAND_LEFT] else 0
        state[S_BEST] = action
        state[S_BEST_SEAT] = seat
        state[S_EVENTS + E_LEAD + tables[T_FORM + action]] += 1
    elif action >= DISCARD_BASE:
        # A single's kind orders like its strength (rank, then red).
        if (
            _last_rule_binds(state, tables, seat)
            and tables[T_MOVE_KINDS + action * MAX_COMBO]
            > tables[T_MOVE_KINDS + state[S_BEST] * MAX_COMBO]
        ):
            state[S_EVENTS + E_LAST_RULE] += 1
    else:
        state[S_BEST] = action
        state[S_BEST_SEAT] = seat
    face_up = action < DISCARD_BASE
    for i in range(size):
        kind = tables[T_MOVE_KINDS + action * MAX_COMBO + i]
        state[S_HANDS + seat * K + kind] -= 1
        if face_up:
            state[S_PUBLIC + kind] += 1
    state[S_PACKED + seat] -= tables[T_MOVE_PACKED + action]
    state[S_SIZES + seat] -= size
    if face_up:
        state[S_PUBLIC_PACKED] += tables[T_MOVE_PACKED + action]
        state[S_UP] += 1
        state[S_UP_PLAYED + seat] += tables[T_MOVE_PACKED + action]
    else:
        state[S_DOWN] += 1
        _note_face_down(state, tables, seat, action)
    state[S_TURN] += 1
    if state[S_TURN] < PLAYERS:
        state[S_TO_ACT] = (seat + 1) % PLAYERS
    else:
        _end_trick(state, tables, streams)


# Inlined: a call with the state array costs its reference counting at every
# face-down discard (8% of a random game when it was a call).
@njit(inline="always")
def _note_face_down(state: np.ndarray, tables: np.ndarray, seat: int, action: int) -> None:
    """Keep the face-down discard `action` of `seat` (called once its cards have left
    the hand): under must-beat a discard the last-trick rule did not force tells
    that the seat could not beat S_BEST (View.face_down)."""
    e = S_FD + state[S_FD_N] * FD_WIDTH
    state[S_FD_N] += 1
    state[e + FD_SEAT] = seat
    state[e + FD_CARDS] = tables[T_MOVE_SIZE + action]
    state[e + FD_PACKED] = tables[T_MOVE_PACKED + action]
    reveals = tables[R_MAY_DISCARD] == 0 and not _last_rule_binds(state, tables, seat)
    state[e + FD_BEAT] = state[S_BEST] if reveals else -1
    state[e + FD_UP] = state[S_UP_PLAYED + seat]


@njit
def _end_trick(state: np.ndarray, tables: np.ndarray, streams: np.ndarray) -> None:
    winner = state[S_BEST_SEAT]
    best = state[S_BEST]
    size = tables[T_MOVE_SIZE + best]
    for i in range(size):
        state[S_CAPTURED + winner * K + tables[T_MOVE_KINDS + best * MAX_COMBO + i]] += 1
    state[S_NCAP + winner] += size
    state[S_TRICKS] += 1
    state[S_EVENTS + E_TRICKS] += 1
    state[S_HAND_LEFT] -= state[S_LED]
    if state[S_HAND_LEFT] > 0:
        _start_trick(state, winner)
    else:
        _end_deal(state, tables, streams, winner)


@njit
def _end_deal(state: np.ndarray, tables: np.ndarray, streams: np.ndarray, winner: int) -> None:
    base = tables[R_BASE]
    penalty = tables[R_PENALTY]
    multiplier = state[S_MULT]
    for seat in range(PLAYERS):
        got = state[S_NCAP + seat]
        if got == 0:
            state[S_EVENTS + E_ZERO] += 1
        if seat == winner:
            continue
        owed = base - got
        if got == 0:
            owed += penalty
        owed *= multiplier
        state[S_CHIPS + seat] -= owed
        state[S_CHIPS + winner] += owed
    state[S_EVENTS + E_DEALS] += 1
    if winner == state[S_DEALER]:
        state[S_EVENTS + E_DEALER_WINS] += 1
    if winner == state[S_LAST_WINNER]:
        state[S_STREAK] += 1
    else:
        state[S_STREAK] = 1
    state[S_LAST_WINNER] = winner
    busts = 0
    for seat in range(PLAYERS):
        if state[S_CHIPS + seat] <= tables[R_BUST_AT]:
            busts += 1
    if busts > 0 or state[S_DEAL] >= tables[R_MAX_DEALS]:
        state[S_OVER] = 1
        state[S_EVENTS + E_BUSTS] = busts
        return
    _new_deal(state, tables, streams, winner)
