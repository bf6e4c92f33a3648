"""Kimekimera as compiled kernels: the same games as rules.py, game for game.

Every kernel is decorated with `balancer.jit.njit`, so it is compiled by
numba or, with BALANCER_JIT=0 (or no numba), run as plain Python with the
same results. The chance draws are those of rules.py, in the same order:
the deck is `arange(54)` shuffled by `rng.shuffle` on stream `rng.CHANCE`,
each breeding's blind pick is `below(6)`, each reshuffle shuffles the
discard (in its order) as the new deck. The bot in physical seat s draws
from stream `rng.bot_stream(s)`, and only when it has 2 or more legal moves.

State: one int64 array of `STATE_SIZE`, copied with `.copy()` and stepped
from any position with `current_player`, `legal` and `apply` (a Python
State's position comes in through `from_state`, or into a StepGame through
`StepGame.load`: where a search bot's rollouts start):

    [S_DECK, +54)      the deck, bottom first: the top card is deck[deck_n - 1]
    [S_DISCARD, +54)   the discard pile, in the order cards reached it
    [S_MINE, +8)       seat s's my chimera at S_MINE + 2s, +2s+1
    [S_FREE, +46)      slot i's free chimera at S_FREE + 2i, +2i+1; -1, -1 empty
    [S_THEME, +2)      the theme chimera
    [S_TOTALS, +4)     each seat's total so far
    [S_EVENTS, +5)     event counts in `SPEC.events` order
    S_DECK_N, S_DISCARD_N   cards in the deck and in the discard
    S_FILLED           free slots holding a chimera
    S_ROUND            rounds scored so far (the game is over at `rounds`)
    S_FIRST0, S_FIRST  first seat of round 1, first seat of this round
    S_TURN             turns of this round taken (or skipped)
    S_SEAT             the seat to move, -1 when the game is over
    [S_HELD, +4)       card impact: per seat, bit rules.CARD_KIND[c] set for every
                       card c its chimera held at any scoring

Cards are rules.py's (0..47 colour * 12 + number - 1, 48..51 rainbow, 52..53
grey). Actions are rules.py's: a free-chimera slot index, `KEEP` (-1) when
breeding is optional, `REPLACE` (-2), a robot's forced replacement; `legal`
lists them in the order of `State.legal_actions()`.

Tables: one int64 array per (rules, players), built by `encode_rules`, so a
knob value is data, never a compile-time constant:

    [0, T_HEADER)        players, free_chimeras, rounds and the knobs as ints
    [T_PAIR_SUM, +2916)  a*54+b -> the pair's sum, -1 when it holds grey
    [T_PAIR_CLASS, +2916) a*54+b -> colour classes CLASS[a] * 6 + CLASS[b]
    [T_MATCHES, +1296)   theme classes * 36 + pair classes -> colour matches
                         under this rule set's grey_blocks_colour_bonus

Speed: every call of a compiled function with array arguments costs
reference counting (atomic increments and decrements of each array), which
is most of a small kernel's time; so the common cases on the hot path (a
pair drawn from a deck of 2 or more, the next seat breeding) are written
out where they are needed, and the scripted bots score inline.

The compiled bots (`BOT_IDS`) read what their seat can see and nothing else:
the theme (S_THEME), their own chimera (S_MINE + 2 seat), the free chimeras
(S_FREE) and the scoring knobs in the tables; `random` reads only the number
of legal moves. Bot parameters are a float64 row per bot slot (`cautious`:
[rank]).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from balancer import knobs
from balancer.games.api import GameRecord
from balancer.games.kernel_api import ChunkColumns, StepBuffer
from balancer.games.kimekimera import bots as kk_bots
from balancer.games.kimekimera import rules as kk
from balancer.games.step_kernels import block as _block
from balancer.games.step_kernels import draw_ahead, stream_block
from balancer.jit import njit
from balancer.rng import CHANCE, Stream
from balancer.rng_kernels import below, init_streams, shuffle

DECK = kk.DECK_SIZE
GREY0 = kk.FIRST_GREY
KEEP = kk.KEEP
REPLACE = kk.REPLACE
MAX_PLAYERS = 4
MAX_FREE = 23
N_EVENTS = len(kk.EVENTS)
E_BONUS1, E_BONUS2, E_EXACT, E_ROBOTS, E_RESHUFFLES = range(N_EVENTS)
assert kk.EVENTS == (
    "colour_bonus_1",
    "colour_bonus_2",
    "exact_hits",
    "robots_made",
    "reshuffles",
)

S_DECK = 0
S_DISCARD = S_DECK + DECK
S_MINE = S_DISCARD + DECK
S_FREE = S_MINE + 2 * MAX_PLAYERS
S_THEME = S_FREE + 2 * MAX_FREE
S_TOTALS = S_THEME + 2
S_EVENTS = S_TOTALS + MAX_PLAYERS
S_DECK_N = S_EVENTS + N_EVENTS
S_DISCARD_N = S_DECK_N + 1
S_FILLED = S_DISCARD_N + 1
S_ROUND = S_FILLED + 1
S_FIRST0 = S_ROUND + 1
S_FIRST = S_FIRST0 + 1
S_TURN = S_FIRST + 1
S_SEAT = S_TURN + 1
S_HELD = S_SEAT + 1  # per seat: card impact's bitmask (rules.py chimera_held)
STATE_SIZE = S_HELD + MAX_PLAYERS

T_PLAYERS = 0
T_NFREE = 1
T_ROUNDS = 2
T_ROTATE = 3
T_OPTIONAL = 4
T_LEFTOVER_FREE = 5
T_RESHUFFLE = 6
T_REPLACE_AT_TURN = 7
T_GREY_BLOCKS = 8
T_FLOOR = 9
T_BONUS1 = 10
T_BONUS2 = 11
T_HEADER = 16
T_PAIR_SUM = T_HEADER
T_PAIR_CLASS = T_PAIR_SUM + DECK * DECK
T_MATCHES = T_PAIR_CLASS + DECK * DECK
TABLES_SIZE = T_MATCHES + 6**4

# rules.PAIRS and LEFTOVERS as arrays (constants of the game, not knobs).
PAIR_I = np.array([i for i, _ in kk.PAIRS], dtype=np.int64)
PAIR_J = np.array([j for _, j in kk.PAIRS], dtype=np.int64)
LEFT_K = np.array([k for k, _ in kk.LEFTOVERS], dtype=np.int64)
LEFT_M = np.array([m for _, m in kk.LEFTOVERS], dtype=np.int64)
# A sorting network for 6 (12 comparators; checked by the 0-1 principle in
# test_kk_kernel.py): after it, values are in descending order.
SORT6 = (
    (0, 5),
    (1, 3),
    (2, 4),
    (1, 2),
    (3, 4),
    (0, 3),
    (2, 5),
    (0, 1),
    (2, 3),
    (4, 5),
    (1, 2),
    (3, 4),
)
NET_HI = np.array([hi for hi, _ in SORT6], dtype=np.int64)
NET_LO = np.array([lo for _, lo in SORT6], dtype=np.int64)
NUMBER = np.array(kk.NUMBER, dtype=np.int64)
CLASS = np.array(kk.CLASS, dtype=np.int64)

BOT_IDS = {"random": 0, "expected": 1, "cautious": 2}
COMPILED_BOTS: frozenset[str] = frozenset(BOT_IDS)
N_PARAMS = 1
assert frozenset(kk_bots.BOTS) == COMPILED_BOTS

_CONSTANT_TABLES = np.concatenate(
    [np.array(kk.PAIR_SUM, dtype=np.int64), np.array(kk.PAIR_CLASS, dtype=np.int64)]
)
_MATCH_TABLES = {blocks: np.array(kk.MATCHES[blocks], dtype=np.int64) for blocks in (False, True)}


def encode_rules(rules: Mapping[str, Any], players: int) -> np.ndarray:
    """The tables for (rules, players): rules as `State` reads them (defaults filled in)."""
    rules = {**knobs.defaults(kk.KNOBS), **rules}
    reason = kk.unplayable(rules, players)
    if reason is not None:
        raise ValueError(reason)  # as State would: no deal could turn up a theme
    bonus = kk._check_colour_bonus(rules["colour_bonus"])
    tables = np.zeros(TABLES_SIZE, dtype=np.int64)
    tables[T_PLAYERS] = players
    tables[T_NFREE] = rules["free_chimeras"]
    tables[T_ROUNDS] = rules["rounds"]
    tables[T_ROTATE] = bool(rules["rotate_first_player"])
    tables[T_OPTIONAL] = bool(rules["breeding_optional"])
    tables[T_LEFTOVER_FREE] = rules["leftover"] == "free"
    tables[T_RESHUFFLE] = bool(rules["reshuffle_discards"])
    tables[T_REPLACE_AT_TURN] = rules["robot_replacement"] == "at_next_breeding"
    blocks = bool(rules["grey_blocks_colour_bonus"])
    tables[T_GREY_BLOCKS] = blocks
    tables[T_FLOOR] = bool(rules["floor_at_zero"])
    tables[T_BONUS1] = bonus[1]
    tables[T_BONUS2] = bonus[2]
    tables[T_PAIR_SUM:T_MATCHES] = _CONSTANT_TABLES
    tables[T_MATCHES:] = _MATCH_TABLES[blocks]
    return tables


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
        if a < GREY0 and b < GREY0:
            state[S_THEME] = a
            state[S_THEME + 1] = b
            return True
        _discard(state, a)
        _discard(state, b)


# -- a round --------------------------------------------------------------------


@njit
def _is_robot(state: np.ndarray, seat: int) -> bool:
    return state[S_MINE + 2 * seat] >= GREY0 or state[S_MINE + 2 * seat + 1] >= GREY0


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
    if a >= GREY0 or b >= GREY0:
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
def _theme_total_key(state: np.ndarray) -> tuple[int, int]:
    t0 = state[S_THEME]
    t1 = state[S_THEME + 1]
    return NUMBER[t0] + NUMBER[t1], (CLASS[t0] * 6 + CLASS[t1]) * 36


@njit
def _card_kind(card: int) -> int:
    """rules.CARD_KIND: a coloured card is its own kind; rainbows one, greys another."""
    if card < kk.FIRST_RAINBOW:
        return card
    return kk.FIRST_RAINBOW if card < kk.FIRST_GREY else kk.FIRST_RAINBOW + 1


@njit
def _score_round(state: np.ndarray, tables: np.ndarray) -> None:
    total, key = _theme_total_key(state)
    floor = tables[T_FLOOR] != 0
    for seat in range(tables[T_PLAYERS]):
        a, b = state[S_MINE + 2 * seat], state[S_MINE + 2 * seat + 1]
        state[S_HELD + seat] |= (np.int64(1) << _card_kind(a)) | (np.int64(1) << _card_kind(b))
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
            if _is_robot(state, seat) and _can_replace(state, tables):
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
            if _is_robot(state, seat):
                if replace_at_turn and _can_replace(state, tables):
                    state[S_SEAT] = seat
                    return
            elif state[S_FILLED] > 0:
                state[S_SEAT] = seat
                return
            state[S_TURN] += 1
        _score_round(state, tables)
        state[S_ROUND] += 1
        if state[S_ROUND] < rounds:
            _next_round(state, tables, streams)
    state[S_SEAT] = -1


# -- the step functions ---------------------------------------------------------


@njit
def new_game(state: np.ndarray, tables: np.ndarray, streams: np.ndarray) -> None:
    """Deal a game from `streams` (already `init_streams` for its seed and index)."""
    state[:] = 0
    for k in range(DECK):
        state[S_DECK + k] = k
    shuffle(streams, CHANCE, state[S_DECK : S_DECK + DECK], DECK)
    n = DECK
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
    if _is_robot(state, seat):
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
    if _is_robot(state, seat):
        _replace_robot(state, tables, streams, seat)
    elif action != KEEP:
        _breed(state, tables, streams, seat, action)
    turn = state[S_TURN] + 1
    state[S_TURN] = turn
    players = tables[T_PLAYERS]
    if turn < players:
        # _advance's common case, without the call: the next seat breeds.
        after = (state[S_FIRST] + turn) % players
        if state[S_FILLED] > 0 and not _is_robot(state, after):
            state[S_SEAT] = after
            return
    _advance(state, tables, streams)


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
    theme_total = NUMBER[t0] + NUMBER[t1]
    matches_at = T_MATCHES + (CLASS[t0] * 6 + CLASS[t1]) * 36
    bonus1 = tables[T_BONUS1]
    bonus2 = tables[T_BONUS2]
    floor = tables[T_FLOOR] != 0
    at = int(params[0]) - 1
    # scratch[8 + i], scratch[12 + i]: number and colour class of card i of
    # (mine0, mine1, free0, free1); a grey card's number is 0, no other's is.
    for i in range(2):
        card = state[S_MINE + 2 * seat + i]
        scratch[8 + i] = NUMBER[card]
        scratch[12 + i] = CLASS[card]
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
                scratch[10 + i] = NUMBER[card]
                scratch[14 + i] = CLASS[card]
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
            score = 0 if na == 0 or nb == 0 else abs(theme_total - na - nb)
            matches = tables[matches_at + scratch[12 + i] * 6 + scratch[12 + j]]
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


# -- whole games --------------------------------------------------------------------


@njit
def play_games(
    tables: np.ndarray,
    seed: int,
    start: int,
    stop: int,
    slot_bots: np.ndarray,
    slot_params: np.ndarray,
    rotate: bool,
    scores: np.ndarray,
    length: np.ndarray,
    events: np.ndarray,
    held: np.ndarray,
) -> None:
    """Games start..stop-1 into scores/length/events/held rows 0..stop-start-1.

    Each game is played by `advance_to_outside` with no seat outside: the loop
    a plugin run steps (`step`) is this one, so the two play the same games.
    """
    players = tables[T_PLAYERS]
    state = np.zeros(STATE_SIZE, dtype=np.int64)
    streams = np.zeros((1 + players, 2), dtype=np.uint64)
    moves = np.zeros(MAX_FREE + 1, dtype=np.int64)
    scratch = np.zeros(16, dtype=np.int64)
    plan = np.zeros(PLAN_SIZE, dtype=np.int64)
    params = slot_params.ravel()
    for g in range(start, stop):
        for seat in range(players):  # the plan of this game's seating
            slot = (seat + g) % players if rotate else seat
            plan[PLAN_KIND + seat] = slot_bots[slot]
            plan[PLAN_PARAMS + seat] = slot * N_PARAMS
        init_streams(streams, seed, g)
        new_game(state, tables, streams)
        advance_to_outside(state, tables, streams, plan, params, moves, scratch)
        row = g - start
        for s in range(players):
            scores[row, s] = state[S_TOTALS + s]
        length[row] = state[S_ROUND]
        for e in range(N_EVENTS):
            events[row, e] = state[S_EVENTS + e]
        for s in range(players):
            held[row, s] = state[S_HELD + s]


def encode_slots(
    slots: Sequence[tuple[str, Mapping[str, Any]]],
) -> tuple[np.ndarray, np.ndarray]:
    """Bot ids and a float64 parameter row per bot slot."""
    ids = np.zeros(len(slots), dtype=np.int64)
    params = np.zeros((len(slots), N_PARAMS), dtype=np.float64)
    for j, (name, values) in enumerate(slots):
        if name not in BOT_IDS:
            raise ValueError(f"no compiled Kimekimera bot {name!r}: {sorted(COMPILED_BOTS)}")
        ids[j] = BOT_IDS[name]
        if name == "cautious":
            defaults = knobs.defaults(kk_bots.PARAMS)
            params[j, 0] = float({**defaults, **values}["rank"])
    return ids, params


def play_chunk(
    rules: Mapping[str, Any],
    players: int,
    seed: int,
    start: int,
    stop: int,
    slots: Sequence[tuple[str, Mapping[str, Any]]],
    rotate: bool,
) -> ChunkColumns:
    """Games start..stop-1 of `seed` in one compiled call (the contract in games/kernel_api.py)."""
    if len(slots) != players:
        raise ValueError(f"{len(slots)} bot slots for {players} players")
    tables = encode_rules(rules, players)
    ids, params = encode_slots(slots)
    games = stop - start
    scores = np.zeros((games, players), dtype=np.float64)
    length = np.zeros(games, dtype=np.int64)
    events = np.zeros((games, N_EVENTS), dtype=np.float64)
    held = np.zeros((games, players), dtype=np.int64)
    play_games(tables, seed, start, stop, ids, params, bool(rotate), scores, length, events, held)
    return ChunkColumns(start, scores, length, events, held.astype(np.uint64))


# -- from a Python State ------------------------------------------------------------


def from_state(py: kk.State) -> tuple[np.ndarray, np.ndarray]:
    """(state, tables) arrays of a Python `State`, to step it in the kernel from there."""
    tables = encode_rules(py.rules, py.players)
    state = np.zeros(STATE_SIZE, dtype=np.int64)
    state[S_DECK : S_DECK + len(py.deck)] = py.deck
    state[S_DECK_N] = len(py.deck)
    state[S_DISCARD : S_DISCARD + len(py.discard)] = py.discard
    state[S_DISCARD_N] = len(py.discard)
    state[S_MINE : S_MINE + 2 * py.players] = py.mine
    state[S_FREE : S_FREE + 2 * MAX_FREE] = -1
    state[S_FREE : S_FREE + len(py.free)] = py.free
    state[S_THEME : S_THEME + 2] = py.theme
    state[S_TOTALS : S_TOTALS + py.players] = py.totals
    for e, name in enumerate(kk.EVENTS):
        state[S_EVENTS + e] = py.events[name]
    state[S_FILLED] = py.filled
    state[S_ROUND] = py.round
    state[S_FIRST0] = py.first0
    state[S_FIRST] = py.first
    state[S_TURN] = py.turn
    state[S_SEAT] = py.seat
    state[S_HELD : S_HELD + py.players] = py.chimera_held
    return state, tables


def streams_of(chance: Stream, seats: Sequence[Stream]) -> np.ndarray:
    """The kernel's stream array for a chance stream and one bot stream per seat, as they stand."""
    streams = np.zeros((1 + len(seats), 2), dtype=np.uint64)
    for row, stream in enumerate([chance, *seats]):
        streams[row, 0] = np.uint64(stream.key)
        streams[row, 1] = np.uint64(stream.counter)
    return streams


# =============================================================================
# Stepping: the game played on to the next decision made outside the kernel
# =============================================================================
#
# A plugin bot (sim/kernel_step.py) needs the compiled game played up to each
# decision it makes itself, and no further. A *step plan* says, per physical
# seat, which compiled bot plays it (a BOT_IDS value) or that its decisions
# are made outside (BOT_OUTSIDE); `advance_to_outside` plays every forced
# move and every compiled seat's move until an outside seat has a choice or
# the game ends, exactly as `play_games` plays them. These functions are plain
# @njit and call the engine's own (legal, apply, bot_action) rather than
# inlining them: `step` is then compiled from the engine's already-compiled
# functions and costs little compile time.

BOT_OUTSIDE = -1
"""A seat's kind in a step plan: its decisions (of two moves or more) are made outside."""

# The plan, int64: the bot of physical seat s at PLAN_KIND + s, the offset of
# its parameter row (N_PARAMS floats) in the params block at PLAN_PARAMS + s.
PLAN_KIND, PLAN_PARAMS = 0, MAX_PLAYERS
PLAN_SIZE = 2 * MAX_PLAYERS


@njit
def advance_to_outside(
    state: np.ndarray,
    tables: np.ndarray,
    streams: np.ndarray,
    plan: np.ndarray,
    params: np.ndarray,
    moves: np.ndarray,
    scratch: np.ndarray,
) -> int:
    """Play on from the current position to the next outside decision: forced
    moves without asking (and without a draw), compiled seats by `bot_action`
    with their own bot streams.

    Returns n >= 2 with the outside seat's legal moves in moves[:n] (the
    engine's order; `current_player` is the seat), or 0 when the game is over.
    """
    while state[S_SEAT] >= 0:
        n = legal(state, tables, moves)
        if n == 1:
            action = moves[0]  # forced: no bot is asked, no bot draw
        else:
            seat = state[S_SEAT]
            kind = plan[PLAN_KIND + seat]
            if kind == BOT_OUTSIDE:
                return n
            at = plan[PLAN_PARAMS + seat]
            row = params[at : at + N_PARAMS]
            action = bot_action(kind, row, state, tables, streams, moves, n, scratch)
        apply(state, tables, streams, action)
    return 0


# One int64 buffer holds every array of a stepped game, so the call Python
# makes at each outside decision passes one array (numba checks and counts
# references of each array argument it is handed). Its header is (start, stop)
# of each block; the uint64 streams and ahead and the float64 params are the
# buffer's bytes seen as those types.
B_STATE, B_TABLES, B_MOVES, B_SCRATCH, B_PLAN, B_STREAMS, B_PARAMS, B_AHEAD = range(0, 16, 2)
B_HEADER = 16
AHEAD = 16
"""Numbers of an outside seat's bot stream drawn ahead at the deal, for its plugin's
rng (sim/kernel_step.py): a Python draw costs a microsecond of big-integer arithmetic,
a compiled one nanoseconds. A uniform plugin draws about one number a decision, and a
seat decides once a round: the 5 rounds of a default game three times over; more are
drawn by the plugin's rng itself."""

STEP_ON, STEP_APPLY, STEP_DEAL = 0, 1, 2  # step()'s modes


@njit
def step(buf: np.ndarray, mode: int, action: int, seed: int, game: int) -> int:
    """Python's entry to `advance_to_outside` over a step buffer (`StepGame` makes it).

    `mode` STEP_DEAL first deals game `game` of `seed` (its streams from their
    start, the outside seats' first AHEAD numbers drawn ahead); STEP_APPLY first
    plays `action` for the outside seat to act; STEP_ON only plays on. Returns
    n * 8 + seat at an outside decision (n >= 2 moves in the moves block, seat
    to act), or 0 when the game is over.
    """
    state, tables, plan = _block(buf, B_STATE), _block(buf, B_TABLES), _block(buf, B_PLAN)
    streams = stream_block(buf, B_STREAMS)
    if mode == STEP_DEAL:
        init_streams(streams, seed, game)
        new_game(state, tables, streams)
        kinds = plan[PLAN_KIND : PLAN_KIND + tables[T_PLAYERS]]
        draw_ahead(streams, kinds, BOT_OUTSIDE, _block(buf, B_AHEAD).view(np.uint64), AHEAD)
    elif mode == STEP_APPLY:
        apply(state, tables, streams, action)
    params = _block(buf, B_PARAMS).view(np.float64)
    moves, scratch = _block(buf, B_MOVES), _block(buf, B_SCRATCH)
    n = advance_to_outside(state, tables, streams, plan, params, moves, scratch)
    if n == 0:
        return 0
    return n * 8 + state[S_SEAT]


class StepGame(StepBuffer):
    """Games of one (rules, players) stepped from Python, one after another in one buffer.

    The contract sim/kernel_step.py drives (games/kernel_api.py; fdc's kernel has
    the other StepGame): `slots[j]` is bot slot j's compiled bot, (name, parameters),
    or None for a slot whose decisions are made outside (a plugin). Each game
    is dealt with `deal(seed, game, seat_slots)` (seat_slots[s]: the slot
    sitting at physical seat s); `deal` and `play` return the step code of
    `step` (n * 8 + seat at an outside decision, 0 at the end); `legal(code)`
    is that decision's moves as the Python engine lists them (Python ints, its
    order), `view(seat)` the seat's View exactly as `rules.State.view` gives
    it, and `record()` the finished game's GameRecord, held kinds included.
    """

    def _build(self) -> None:
        rules, players, slots = self.rules, self.players, self.slots
        # The views' constants, read as rules.State reads them (same objects, same types).
        complete = kk._complete(rules)
        bonus = kk._check_colour_bonus(complete["colour_bonus"])
        self._view_rules = complete
        self._rounds = complete["rounds"]
        self._n_free = complete["free_chimeras"]
        self._bonus = (0, bonus[1], bonus[2])
        self._grey_blocks = complete["grey_blocks_colour_bonus"]
        self._floor = complete["floor_at_zero"]
        # An outside slot's row is never read: any compiled bot stands in for it.
        ids, params = encode_slots([slot or ("random", {}) for slot in slots])
        ids_of = ids.tolist()
        kinds = [BOT_OUTSIDE if slot is None else ids_of[j] for j, slot in enumerate(slots)]
        self._plans_for(kinds, N_PARAMS, PLAN_KIND, PLAN_PARAMS, PLAN_SIZE)
        blocks = [
            np.zeros(STATE_SIZE, np.int64),
            encode_rules(rules, players),
            np.zeros(MAX_FREE + 1, np.int64),
            np.zeros(16, np.int64),  # bot_action's scratch
            np.zeros(PLAN_SIZE, np.int64),
            np.zeros(2 * (players + 1), np.int64),  # the streams, (key, counter) a row
            params.ravel().view(np.int64),
            np.zeros(players * AHEAD, np.int64),
        ]
        assert len(blocks) * 2 == B_HEADER
        self._pack(blocks, B_HEADER)
        # Views of the buffer, for reading (and the plan for writing) from Python.
        self.state = self._block(B_STATE)
        self.moves = memoryview(self._block(B_MOVES))  # type: ignore[arg-type]
        self.plan = self._block(B_PLAN)
        self.streams = self._block(B_STREAMS).view(np.uint64).reshape(players + 1, 2)
        self.ahead = self._block(B_AHEAD).view(np.uint64)  # AHEAD per seat, after each deal

    # The entry `deal` and `play` call; a loop that writes `play` out (sim/kernel_step.py)
    # calls step(buf, STEP_APPLY, action, 0, 0) itself.
    step = staticmethod(step)
    STEP_DEAL = STEP_DEAL
    STEP_APPLY = STEP_APPLY
    STEP_ON = STEP_ON

    def load(self, py: kk.State, seat_slots: Sequence[int], seed: int, game: int) -> int:
        """Step from a Python `State`'s position (any: `State.arranged`, or a game mid-way),
        its chance draws going on from where the State's stream stands, compiled seats
        drawing from game `game` of `seed`'s bot streams from their start; plays on to the
        first outside decision (a search bot's rollouts start here)."""
        self._check_position(
            py.players, py.rules is self._view_rules or py.rules == self._view_rules
        )
        state, _ = from_state(py)
        self.state[:] = state
        return self._play_on_from(seat_slots, seed, game, py.rng)

    def view(self, seat: int) -> kk.View:
        """`rules.State.view(seat)` of the position, field for field."""
        s: list[int] = self.state.tolist()
        players = self.players
        return kk._new_view(  # positional: View's fields in order, as State.view
            seat,
            s[S_ROUND] + 1,
            self._rounds,
            (s[S_THEME], s[S_THEME + 1]),
            tuple(s[S_MINE : S_MINE + 2 * players]),
            tuple(s[S_FREE : S_FREE + 2 * self._n_free]),
            tuple(s[S_TOTALS : S_TOTALS + players]),
            s[S_DECK_N],
            s[S_DISCARD_N],
            self._bonus,
            self._grey_blocks,
            self._floor,
            self._view_rules,
        )

    def record(self) -> GameRecord:
        """The finished game's record, as `rules.State.record` gives it (held kinds too)."""
        s: list[int] = self.state.tolist()
        players = self.players
        return GameRecord(
            tuple(float(t) for t in s[S_TOTALS : S_TOTALS + players]),
            s[S_ROUND],
            {name: float(s[S_EVENTS + e]) for e, name in enumerate(kk.EVENTS)},
            tuple(s[S_HELD : S_HELD + players]),
        )
