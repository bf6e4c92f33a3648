"""The rules of Kimekimera as compiled kernels: drawing, breeding, robots, scoring a
round, and the step functions (new_game, current_player, legal, apply).
"""

from __future__ import annotations

import numpy as np

from balancer.games.kimekimera.kernel.layout import (
    DECK,
    E_BONUS1,
    E_BONUS2,
    E_EXACT,
    E_RESHUFFLES,
    E_ROBOTS,
    KEEP,
    LEFT_K,
    LEFT_M,
    MAX_FREE,
    PAIR_I,
    PAIR_J,
    REPLACE,
    S_DECK,
    S_DECK_N,
    S_DISCARD,
    S_DISCARD_N,
    S_EVENTS,
    S_FILLED,
    S_FIRST,
    S_FIRST0,
    S_FREE,
    S_HELD,
    S_MINE,
    S_PROGRESS,
    S_ROUND,
    S_SEAT,
    S_THEME,
    S_TOTALS,
    S_TURN,
    T_BONUS1,
    T_BONUS2,
    T_CLASS,
    T_DECK_SIZE,
    T_FLOOR,
    T_GREY0,
    T_KIND,
    T_LEFTOVER_FREE,
    T_MATCHES,
    T_NFREE,
    T_NUMBER,
    T_OPTIONAL,
    T_PAIR_CLASS,
    T_PAIR_SUM,
    T_PLAYERS,
    T_REPLACE_AT_TURN,
    T_RESHUFFLE,
    T_ROTATE,
    T_ROUNDS,
)
from balancer.jit import njit
from balancer.rng import CHANCE
from balancer.rng_kernels import below, shuffle

# -- drawing ------------------------------------------------------------------


@njit
def _draw(state: np.ndarray, tables: np.ndarray, streams: np.ndarray) -> int:
    """The top card, reshuffling the discard into the deck when it is empty; -1 if none."""
    n = state[S_DECK_N]
    if n == 0:
        dn = state[S_DISCARD_N]
        if tables[T_RESHUFFLE] == 0 or dn == 0:
            return -1
        for k in range(dn):
            state[S_DECK + k] = state[S_DISCARD + k]
        state[S_DISCARD_N] = 0
        shuffle(streams, CHANCE, state[S_DECK : S_DECK + DECK], dn)
        state[S_EVENTS + E_RESHUFFLES] += 1
        n = dn
    state[S_DECK_N] = n - 1
    return state[S_DECK + n - 1]


@njit
def _push_deck(state: np.ndarray, card: int) -> None:
    state[S_DECK + state[S_DECK_N]] = card
    state[S_DECK_N] += 1


@njit
def _discard(state: np.ndarray, card: int) -> None:
    state[S_DISCARD + state[S_DISCARD_N]] = card
    state[S_DISCARD_N] += 1


@njit
def _draw_pair(state: np.ndarray, tables: np.ndarray, streams: np.ndarray) -> tuple[int, int]:
    """Two cards, or (-1, -1): half a chimera is none, so a lone card goes back on top."""
    n = state[S_DECK_N]
    if n >= 2:
        # The common case, without the calls (each call with arrays costs refcounting).
        state[S_DECK_N] = n - 2
        return state[S_DECK + n - 1], state[S_DECK + n - 2]
    a = _draw(state, tables, streams)
    if a < 0:
        return -1, -1
    b = _draw(state, tables, streams)
    if b < 0:
        _push_deck(state, a)
        return -1, -1
    return a, b


@njit
def _turn_up_theme(state: np.ndarray, tables: np.ndarray, streams: np.ndarray) -> bool:
    """A grey-free theme, grey ones discarded whole; False when the deck can't give one."""
    while True:
        if tables[T_RESHUFFLE] == 0 and state[S_DECK_N] < 2:
            return False
        a, b = _draw_pair(state, tables, streams)
        if a < 0:
            return False
        grey0 = tables[T_GREY0]
        if a < grey0 and b < grey0:
            state[S_THEME] = a
            state[S_THEME + 1] = b
            return True
        _discard(state, a)
        _discard(state, b)


# -- a round --------------------------------------------------------------------


@njit
def _is_robot(state: np.ndarray, tables: np.ndarray, seat: int) -> bool:
    grey0 = tables[T_GREY0]
    return state[S_MINE + 2 * seat] >= grey0 or state[S_MINE + 2 * seat + 1] >= grey0


@njit
def _can_replace(state: np.ndarray, tables: np.ndarray) -> bool:
    # With a reshuffle the robot's own cards reach the discard before the draw.
    return tables[T_RESHUFFLE] != 0 or state[S_DECK_N] >= 2


@njit
def _replace_robot(state: np.ndarray, tables: np.ndarray, streams: np.ndarray, seat: int) -> None:
    _discard(state, state[S_MINE + 2 * seat])
    _discard(state, state[S_MINE + 2 * seat + 1])
    a, b = _draw_pair(state, tables, streams)
    state[S_MINE + 2 * seat] = a
    state[S_MINE + 2 * seat + 1] = b


@njit
def _breed(
    state: np.ndarray, tables: np.ndarray, streams: np.ndarray, seat: int, slot: int
) -> None:
    m = S_MINE + 2 * seat
    f = S_FREE + 2 * slot
    c0 = state[m]
    c1 = state[m + 1]
    c2 = state[f]
    c3 = state[f + 1]
    pick = below(streams, CHANCE, 6)
    i = PAIR_I[pick]
    j = PAIR_J[pick]
    a = c0 if i == 0 else (c1 if i == 1 else (c2 if i == 2 else c3))
    b = c0 if j == 0 else (c1 if j == 1 else (c2 if j == 2 else c3))
    k = LEFT_K[pick]
    q = LEFT_M[pick]
    x = c0 if k == 0 else (c1 if k == 1 else (c2 if k == 2 else c3))
    y = c0 if q == 0 else (c1 if q == 1 else (c2 if q == 2 else c3))
    state[m] = a
    state[m + 1] = b
    if a >= tables[T_GREY0] or b >= tables[T_GREY0]:
        state[S_EVENTS + E_ROBOTS] += 1
    if tables[T_LEFTOVER_FREE] != 0:
        state[f] = x
        state[f + 1] = y
        return
    # The leftovers reach the discard before the refill (RULES.md §6).
    _discard(state, x)
    _discard(state, y)
    n = state[S_DECK_N]
    if n >= 2:  # _draw_pair's common case, without the call
        state[S_DECK_N] = n - 2
        r0 = state[S_DECK + n - 1]
        r1 = state[S_DECK + n - 2]
    else:
        r0, r1 = _draw_pair(state, tables, streams)
    state[f] = r0
    state[f + 1] = r1
    if r0 < 0:
        state[S_FILLED] -= 1


@njit
def _pair_score(tables: np.ndarray, total: int, key: int, a: int, b: int) -> tuple[int, int, int]:
    """(round score before any floor, error, matches) of pair a+b; `key` the theme's classes."""
    k = a * DECK + b
    s = tables[T_PAIR_SUM + k]
    error = 0 if s < 0 else abs(total - s)
    matches = tables[T_MATCHES + key + tables[T_PAIR_CLASS + k]]
    if matches == 1:
        return error - tables[T_BONUS1], error, matches
    if matches == 2:
        return error - tables[T_BONUS2], error, matches
    return error, error, matches


@njit
def _theme_total_key(state: np.ndarray, tables: np.ndarray) -> tuple[int, int]:
    t0 = state[S_THEME]
    t1 = state[S_THEME + 1]
    total = tables[T_NUMBER + t0] + tables[T_NUMBER + t1]
    return total, (tables[T_CLASS + t0] * 6 + tables[T_CLASS + t1]) * 36


@njit
def _score_round(state: np.ndarray, tables: np.ndarray) -> None:
    total, key = _theme_total_key(state, tables)
    floor = tables[T_FLOOR] != 0
    one = np.int64(1)
    for seat in range(tables[T_PLAYERS]):
        a, b = state[S_MINE + 2 * seat], state[S_MINE + 2 * seat + 1]
        # rules' card_kind: a coloured card's kind is its face; rainbows one, greys another.
        state[S_HELD + seat] |= (one << tables[T_KIND + a]) | (one << tables[T_KIND + b])
        score, error, matches = _pair_score(tables, total, key, a, b)
        if floor and score < 0:
            score = 0
        state[S_TOTALS + seat] += score
        if error == 0:
            state[S_EVENTS + E_EXACT] += 1
        if matches == 1:
            state[S_EVENTS + E_BONUS1] += 1
        elif matches == 2:
            state[S_EVENTS + E_BONUS2] += 1


@njit
def _next_round(state: np.ndarray, tables: np.ndarray, streams: np.ndarray) -> None:
    players = tables[T_PLAYERS]
    if tables[T_REPLACE_AT_TURN] == 0:
        for seat in range(players):
            if _is_robot(state, tables, seat) and _can_replace(state, tables):
                _replace_robot(state, tables, streams, seat)
    old0 = state[S_THEME]
    old1 = state[S_THEME + 1]
    if tables[T_RESHUFFLE] != 0:
        # Discarded first, so a reshuffle for the new theme takes the old one in.
        _discard(state, old0)
        _discard(state, old1)
        _turn_up_theme(state, tables, streams)
    elif _turn_up_theme(state, tables, streams):
        _discard(state, old0)
        _discard(state, old1)
    state[S_TURN] = 0
    if tables[T_ROTATE] != 0:
        state[S_FIRST] = (state[S_FIRST0] + state[S_ROUND]) % players


@njit
def _advance(state: np.ndarray, tables: np.ndarray, streams: np.ndarray) -> None:
    """On to the next seat with a move (a decision or a robot's REPLACE), scoring rounds."""
    players = tables[T_PLAYERS]
    rounds = tables[T_ROUNDS]
    replace_at_turn = tables[T_REPLACE_AT_TURN] != 0
    while state[S_ROUND] < rounds:
        while state[S_TURN] < players:
            seat = (state[S_FIRST] + state[S_TURN]) % players
            if _is_robot(state, tables, seat):
                if replace_at_turn and _can_replace(state, tables):
                    state[S_SEAT] = seat
                    return
            elif state[S_FILLED] > 0:
                state[S_SEAT] = seat
                return
            state[S_TURN] += 1
        _score_round(state, tables)
        # Written here, not where a move ends: one move can end several rounds.
        at = S_PROGRESS + state[S_ROUND] * players
        if at + players <= state.shape[0]:
            for s in range(players):
                state[at + s] = state[S_TOTALS + s]
        state[S_ROUND] += 1
        if state[S_ROUND] < rounds:
            _next_round(state, tables, streams)
    state[S_SEAT] = -1


# -- the step functions ---------------------------------------------------------


@njit
def new_game(state: np.ndarray, tables: np.ndarray, streams: np.ndarray) -> None:
    """Deal a game from `streams` (already `init_streams` for its seed and index)."""
    state[:] = 0
    size = tables[T_DECK_SIZE]
    for k in range(size):
        state[S_DECK + k] = k
    shuffle(streams, CHANCE, state[S_DECK : S_DECK + DECK], size)
    n = size
    for k in range(2 * tables[T_PLAYERS]):
        n -= 1
        state[S_MINE + k] = state[S_DECK + n]
    for k in range(2 * MAX_FREE):
        state[S_FREE + k] = -1
    for k in range(2 * tables[T_NFREE]):
        n -= 1
        state[S_FREE + k] = state[S_DECK + n]
    state[S_DECK_N] = n
    state[S_FILLED] = tables[T_NFREE]
    state[S_SEAT] = -1
    # `unplayable` leaves cards enough for a theme.
    _turn_up_theme(state, tables, streams)
    _advance(state, tables, streams)


@njit
def current_player(state: np.ndarray) -> int:
    """The seat to move, -1 when the game is over."""
    return state[S_SEAT]


@njit
def legal(state: np.ndarray, tables: np.ndarray, out: np.ndarray) -> int:
    """Fill out[:n] with the legal actions, in `State.legal_actions()` order; return n."""
    seat = state[S_SEAT]
    if seat < 0:
        return 0
    if _is_robot(state, tables, seat):
        out[0] = REPLACE
        return 1
    n = 0
    for slot in range(tables[T_NFREE]):
        if state[S_FREE + 2 * slot] >= 0:
            out[n] = slot
            n += 1
    if tables[T_OPTIONAL] != 0:
        out[n] = KEEP
        n += 1
    return n


@njit
def apply(state: np.ndarray, tables: np.ndarray, streams: np.ndarray, action: int) -> None:
    """Play `action`, one of `legal`'s (not checked here: the Python engine checks)."""
    seat = state[S_SEAT]
    if _is_robot(state, tables, seat):
        _replace_robot(state, tables, streams, seat)
    elif action != KEEP:
        _breed(state, tables, streams, seat, action)
    turn = state[S_TURN] + 1
    state[S_TURN] = turn
    players = tables[T_PLAYERS]
    if turn < players:
        # _advance's common case, without the call: the next seat breeds.
        after = (state[S_FIRST] + turn) % players
        if state[S_FILLED] > 0 and not _is_robot(state, tables, after):
            state[S_SEAT] = after
            return
    _advance(state, tables, streams)
