"""打棋子 Da Qi Zi as compiled kernels: the same games as rules.py, move for move.

Everything a kernel touches is a flat numpy array, so a state can be copied
(`state.copy()`) and stepped from any position, and knobs are runtime data:

- `tables` (int64): the rules header (`R_*`, built by `encode_rules` once per
  rule set) followed by the combination tables of `combos.py`, enumerated once
  at import (`T_*` offsets): per move its packed multiset, size, kinds and top
  kind; per combination its form and strength; per (mixed, form) the allowed
  combinations in strength order, and per (mixed, combination) where in that
  list the stronger ones start, so "what beats this?" is a suffix of one list;
  per discard size the discards sorted by packed value, to look a move id up.
- `state` (int64, `STATE_SIZE`), offsets `S_*`:

      S_HANDS    4 x 14  cards per kind in each hand
      S_PACKED   4       each hand packed, 4 bits per kind (combos.pack)
      S_CAPTURED 4 x 14  captured cards per kind, face up
      S_NCAP     4       captured cards per seat
      S_SIZES    4       cards in each hand
      S_PUBLIC   14      cards per kind seen face up this deal
      S_CHIPS    4
      S_DEAL .. S_OVER   scalars: deal (1-based), dealer, multiplier, streak,
                         last deal winner, leader, turn (plays so far this
                         trick), seat to act, best combination (-1 before the
                         lead), its seat, cards led, cards left per hand,
                         last trick (0/1), face-up plays and face-down
                         discards this trick, tricks this deal, game over
      S_PUBLIC_PACKED    S_PUBLIC packed (combos.pack)
      S_EVENTS   13      SPEC.events order, counts (max_multiplier a value)
      S_DECK     32      scratch for the shuffle of a deal
      S_FD_N, S_UP_PLAYED, S_FD   the deal's face-down discards as their seats
                         remember them (`_note_face_down`, for `determinize`)

- `streams` (uint64, (1 + 4, 2)): rng.py's streams, row 0 the game's chance,
  row 1 + s the bot in physical seat s.

Actions are rules.py's move ids (combos.py): below `DISCARD_BASE` a
combination played face up, from `DISCARD_BASE` on a multiset of kinds
discarded face down; `legal` lists them in rules.py's order (combinations in
table order, then discards in table order), so `legal[below(n)]` is the
random bot's move on both paths.

Compiled bots (`BOT_RANDOM`, `BOT_HEURISTIC`; parameters a float64 row in
`bots.PARAMS` order) read only what the seat to act can see: its own hand
(S_HANDS, S_PACKED, S_SIZES of that seat), its own captured count (S_NCAP),
the face-up cards of the deal (S_PUBLIC), and the trick's public state
(S_BEST, S_TURN, S_LASTTRICK). The random bot reads nothing but its stream.

Plugin seats (sim/kernel_step.py) step the same engine through `step` and
`StepGame` (the "Stepping" section at the end), and a Python `State`'s position
comes into a StepGame through `StepGame.load` (a search bot's rollouts). The
deal's face-up plays and the opening hands' held kinds, which a view and a
record show and the state does not keep, are kept there beside the state, so
the whole-game path above does no more work for them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from balancer import rng
from balancer.games.api import GameRecord
from balancer.games.daqizi import bots as dqz_bots
from balancer.games.daqizi import combos as dc
from balancer.games.daqizi.rules import EVENTS, HAND, PLAYERS, State, View, _new_view
from balancer.games.kernel_api import ChunkColumns, StepBuffer
from balancer.games.step_kernels import block as _block
from balancer.games.step_kernels import draw_ahead, stream_block
from balancer.jit import njit
from balancer.rng import Stream
from balancer.rng_kernels import below as draw_below
from balancer.rng_kernels import next_u64 as draw_u64

K = dc.N_KINDS
GUARD = np.int64(dc.GUARD)
DISCARD_BASE = dc.DISCARD_BASE
N_MOVES = dc.N_MOVES
N_COMBOS = dc.N_COMBOS
# The most moves a position can offer: 70 discards of 4 from 8 distinct kinds,
# or fewer beats and discards of other sizes; with room to spare.
MAX_LEGAL = 128

# -- the rules header of `tables` ----------------------------------------------

R_MIXED = 0
R_MAY_DISCARD = 1
R_LAST_RULE = 2
R_RANDOM_DEALER = 3
R_MAX_DEALS = 4
R_STARTING_CHIPS = 5
R_BUST_AT = 6
R_BASE = 7
R_PENALTY = 8
R_FIRST_MULT = 9
R_STEP = 10
R_CAP = 11  # -1: no cap
R_SIZE = 16

# -- the static tables, laid out after the header ----------------------------------


def _static_tables() -> tuple[np.ndarray, dict[str, int], int]:
    parts: list[np.ndarray] = []
    offsets: dict[str, int] = {}
    at = R_SIZE

    def put(name: str, values: Sequence[Any] | np.ndarray) -> None:
        nonlocal at
        array = np.asarray(values, dtype=np.int64).ravel()
        offsets[name] = at
        parts.append(array)
        at += len(array)

    put("move_packed", dc.MOVE_PACKED)
    put("move_size", dc.MOVE_SIZE)
    put("move_kinds", [list(k) + [-1] * (dc.MAX_COMBO - len(k)) for k in dc.MOVE_KINDS])
    put("move_top", [k[-1] for k in dc.MOVE_KINDS])
    put("form", dc.COMBO_FORM)
    put("strength", dc.COMBO_STRENGTH)
    width = max(len(f) for m in (0, 1) for f in dc.BY_FORM[m])
    by_form = np.full((2, len(dc.FORMS), width), -1, dtype=np.int64)
    by_form_n = np.zeros((2, len(dc.FORMS)), dtype=np.int64)
    above = np.zeros((2, N_COMBOS), dtype=np.int64)
    for m in (0, 1):
        for f, combos in enumerate(dc.BY_FORM[m]):
            by_form[m, f, : len(combos)] = combos
            by_form_n[m, f] = len(combos)
        for best in range(N_COMBOS):
            combos = dc.BY_FORM[m][dc.COMBO_FORM[best]]
            strength = dc.COMBO_STRENGTH[best]
            above[m, best] = next(
                (i for i, c in enumerate(combos) if dc.COMBO_STRENGTH[c] > strength), len(combos)
            )
    put("by_form", by_form)
    put("by_form_n", by_form_n)
    put("above", above)
    allowed = np.full((2, N_COMBOS), -1, dtype=np.int64)
    for m in (0, 1):
        allowed[m, : len(dc.ALLOWED[m])] = dc.ALLOWED[m]
    put("allowed", allowed)
    put("allowed_n", [len(dc.ALLOWED[0]), len(dc.ALLOWED[1])])
    # Discards of each size sorted by packed value (a packed value names one multiset).
    disc_packed: list[int] = []
    disc_id: list[int] = []
    disc_off = [0]
    for size in range(1, dc.MAX_COMBO + 1):
        ids = [m for m in range(DISCARD_BASE, N_MOVES) if dc.MOVE_SIZE[m] == size]
        ids.sort(key=lambda m: dc.MOVE_PACKED[m])
        disc_packed += [dc.MOVE_PACKED[m] for m in ids]
        disc_id += ids
        disc_off.append(len(disc_id))
    put("disc_packed", disc_packed)
    put("disc_id", disc_id)
    put("disc_off", disc_off)  # size n: entries disc_off[n - 1] .. disc_off[n] - 1
    put("full_deck", [dc.FULL_DECK])
    put("card_kind", dc.CARD_KIND)
    return np.concatenate(parts), offsets, width


_STATIC, _OFF, _BY_FORM_WIDTH = _static_tables()
T_MOVE_PACKED = _OFF["move_packed"]
T_MOVE_SIZE = _OFF["move_size"]
T_MOVE_KINDS = _OFF["move_kinds"]
T_MOVE_TOP = _OFF["move_top"]
T_FORM = _OFF["form"]
T_STRENGTH = _OFF["strength"]
T_BY_FORM = _OFF["by_form"]
T_BY_FORM_N = _OFF["by_form_n"]
T_ABOVE = _OFF["above"]
T_ALLOWED = _OFF["allowed"]
T_ALLOWED_N = _OFF["allowed_n"]
T_DISC_PACKED = _OFF["disc_packed"]
T_DISC_ID = _OFF["disc_id"]
T_DISC_OFF = _OFF["disc_off"]
T_FULL_DECK = _OFF["full_deck"]
T_CARD_KIND = _OFF["card_kind"]
N_FORMS = len(dc.FORMS)
BY_FORM_WIDTH = _BY_FORM_WIDTH
MAX_COMBO = dc.MAX_COMBO
N_CARDS = dc.N_CARDS
SINGLE = dc.SINGLE
CHANCE = rng.CHANCE

# -- the state layout ------------------------------------------------------------

S_HANDS = 0
S_PACKED = S_HANDS + PLAYERS * K
S_CAPTURED = S_PACKED + PLAYERS
S_NCAP = S_CAPTURED + PLAYERS * K
S_SIZES = S_NCAP + PLAYERS
S_PUBLIC = S_SIZES + PLAYERS
S_CHIPS = S_PUBLIC + K
S_DEAL = S_CHIPS + PLAYERS
S_DEALER = S_DEAL + 1
S_MULT = S_DEAL + 2
S_STREAK = S_DEAL + 3
S_LAST_WINNER = S_DEAL + 4
S_LEADER = S_DEAL + 5
S_TURN = S_DEAL + 6
S_TO_ACT = S_DEAL + 7
S_BEST = S_DEAL + 8
S_BEST_SEAT = S_DEAL + 9
S_LED = S_DEAL + 10
S_HAND_LEFT = S_DEAL + 11
S_LAST_TRICK = S_DEAL + 12
S_UP = S_DEAL + 13
S_DOWN = S_DEAL + 14
S_TRICKS = S_DEAL + 15
S_OVER = S_DEAL + 16
S_PUBLIC_PACKED = S_DEAL + 17
S_EVENTS = S_PUBLIC_PACKED + 1
N_EVENTS = len(EVENTS)
S_DECK = S_EVENTS + N_EVENTS
# What a seat remembers of the deal's face-down discards (`_note_face_down`), for
# `determinize`: their number, each seat's face-up plays so far this deal (packed),
# then per discard (seat, cards, packed kinds, the best combination it could not
# beat or -1, that seat's S_UP_PLAYED when it discarded).
S_FD_N = S_DECK + N_CARDS
S_UP_PLAYED = S_FD_N + 1
S_FD = S_UP_PLAYED + PLAYERS
FD_SEAT, FD_CARDS, FD_PACKED, FD_BEAT, FD_UP = range(5)
FD_WIDTH = 5
MAX_FD = N_CARDS  # a discard is a card at least
STATE_SIZE = S_FD + MAX_FD * FD_WIDTH

E_DEALS = EVENTS.index("deals")
E_TRICKS = EVENTS.index("tricks")
E_BUSTS = EVENTS.index("busts")
E_MAX_MULT = EVENTS.index("max_multiplier")
E_DEALER_WINS = EVENTS.index("dealer_wins")
E_ZERO = EVENTS.index("zero_capture")
E_LAST_RULE = EVENTS.index("last_trick_rule")
E_LEAD = EVENTS.index("lead_single")  # lead_<form> is E_LEAD + form (combos.FORMS order)
assert tuple(EVENTS[E_LEAD : E_LEAD + N_FORMS]) == tuple(f"lead_{f}" for f in dc.FORMS)

BOT_RANDOM = 0
BOT_HEURISTIC = 1
BOT_KINDS = {"random": BOT_RANDOM, "heuristic": BOT_HEURISTIC}
COMPILED_BOTS: frozenset[str] = frozenset(BOT_KINDS)
PARAM_NAMES = tuple(p.name for p in dqz_bots.PARAMS)
N_PARAMS = len(PARAM_NAMES)
P_RESERVE_MIN = PARAM_NAMES.index("reserve_min")
P_CHEAP_BEAT = PARAM_NAMES.index("cheap_beat")
P_SAFE_LEAD = PARAM_NAMES.index("safe_lead")
RESERVE_COST = dqz_bots.RESERVE_COST


def encode_rules(rules: Mapping[str, Any]) -> np.ndarray:
    """The `tables` array of one rule set: its knobs as the header, then the static tables."""
    header = np.zeros(R_SIZE, dtype=np.int64)
    header[R_MIXED] = bool(rules["mixed_suit_combos"])
    header[R_MAY_DISCARD] = bool(rules["may_discard_when_able"])
    header[R_LAST_RULE] = bool(rules["no_capture_last_single_rule"])
    header[R_RANDOM_DEALER] = rules["first_dealer"] == "random"
    header[R_MAX_DEALS] = rules["max_deals"]
    header[R_STARTING_CHIPS] = rules["starting_chips"]
    header[R_BUST_AT] = rules["bust_at"]
    header[R_BASE] = rules["base_payment"]
    header[R_PENALTY] = rules["zero_capture_penalty"]
    header[R_FIRST_MULT] = rules["first_deal_multiplier"]
    header[R_STEP] = rules["renchan_step"]
    cap = rules["multiplier_cap"]
    header[R_CAP] = -1 if cap is None else cap
    return np.concatenate([header, _STATIC])


def new_state() -> np.ndarray:
    """An empty state array (call `new_game` to deal)."""
    return np.zeros(STATE_SIZE, dtype=np.int64)


def new_streams() -> np.ndarray:
    return np.zeros((1 + PLAYERS, 2), dtype=np.uint64)


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
    """Fill out[:n] with the legal moves in rules.py's order; returns n (0 when over)."""
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
    # Seat s gets shuffled cards 8s..8s+7, whoever deals (rules.py).
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
    # Drawn whatever the knob says, as rules.py does (common random numbers).
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


@njit
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


# -- the bots (bots.py) ------------------------------------------------------------


@njit
def _unseen(state: np.ndarray, tables: np.ndarray, seat: int) -> np.int64:
    return tables[T_FULL_DECK] - state[S_PACKED + seat] - state[S_PUBLIC_PACKED]


@njit
def _reserve(
    state: np.ndarray, tables: np.ndarray, seat: int, unseen: np.int64, params: np.ndarray
) -> int:
    """Heuristic._reserve: the single kind kept for the last trick, or -1."""
    for kind in range(K - 1, -1, -1):
        if state[S_HANDS + seat * K + kind] > 0:
            # The single of kind k is combination k (singles come first, in kind order).
            if kind >= params[P_RESERVE_MIN] or not can_beat(tables, unseen, kind):
                return kind
            return -1
    return -1


@njit
def _uses_reserve(
    state: np.ndarray, tables: np.ndarray, seat: int, move: int, reserve: int
) -> bool:
    if reserve < 0:
        return False
    taken = (tables[T_MOVE_PACKED + move] >> np.int64(4 * reserve)) & np.int64(15)
    return taken >= state[S_HANDS + seat * K + reserve]


@njit
def heuristic(
    state: np.ndarray, tables: np.ndarray, moves: np.ndarray, n: int, params: np.ndarray
) -> int:
    """bots.Heuristic.act, the same choice from the same view (see its docstring)."""
    seat = state[S_TO_ACT]
    unseen = _unseen(state, tables, seat)
    reserve = _reserve(state, tables, seat, unseen, params)
    captured_any = state[S_NCAP + seat] > 0
    if state[S_BEST] < 0:
        size = state[S_SIZES + seat]
        safe_lead = params[P_SAFE_LEAD] != 0
        # One pass for bots.py's two: a safe lead of the whole hand wins wherever it
        # stands, and otherwise the best sparing safe lead (max keeps the first of
        # equal keys: most cards, then the weakest).
        pick = -1
        pick_size = 0
        pick_strength = 0
        for i in range(n):
            c = moves[i]
            if can_beat(tables, unseen, c):
                continue
            c_size = tables[T_MOVE_SIZE + c]
            if c_size == size:
                return c
            if not safe_lead or _uses_reserve(state, tables, seat, c, reserve):
                continue
            c_strength = tables[T_STRENGTH + c]
            if (
                pick < 0
                or c_size > pick_size
                or (c_size == pick_size and c_strength < pick_strength)
            ):
                pick, pick_size, pick_strength = c, c_size, c_strength
        if pick >= 0:
            return pick
        # The pool is the moves sparing the reserve, or all; then its singles, or all of it.
        spare_any = False
        for i in range(n):
            if not _uses_reserve(state, tables, seat, moves[i], reserve):
                spare_any = True
                break
        first = -1
        last = -1
        first_any = -1
        last_any = -1
        for i in range(n):
            c = moves[i]
            if spare_any and _uses_reserve(state, tables, seat, c, reserve):
                continue
            if first_any < 0:
                first_any = c
            last_any = c
            if tables[T_FORM + c] == SINGLE:
                if first < 0:
                    first = c
                last = c
        if first < 0:
            first, last = first_any, last_any
        return first if captured_any else last
    n_beats = 0
    while n_beats < n and moves[n_beats] < DISCARD_BASE:
        n_beats += 1
    if n_beats > 0:
        if state[S_LAST_TRICK]:
            return moves[n_beats - 1]
        after = PLAYERS - 1 - state[S_TURN]
        for i in range(n_beats):
            c = moves[i]
            if not _uses_reserve(state, tables, seat, c, reserve) and (
                after == 0 or not can_beat(tables, unseen, c)
            ):
                return c
        for i in range(n_beats):
            c = moves[i]
            if not _uses_reserve(state, tables, seat, c, reserve) and (
                not captured_any or tables[T_MOVE_TOP + c] <= params[P_CHEAP_BEAT]
            ):
                return c
        if n_beats == n:  # must beat: discarding is barred
            for i in range(n_beats):
                if not _uses_reserve(state, tables, seat, moves[i], reserve):
                    return moves[i]
            return moves[0]
    pick = -1
    pick_cost = 0
    for i in range(n_beats, n):
        d = moves[i]
        cost = 0
        for j in range(tables[T_MOVE_SIZE + d]):
            kind = tables[T_MOVE_KINDS + d * MAX_COMBO + j]
            cost += RESERVE_COST if kind == reserve else kind
        if pick < 0 or cost < pick_cost:
            pick, pick_cost = d, cost
    return pick


@njit
def choose(
    state: np.ndarray,
    tables: np.ndarray,
    streams: np.ndarray,
    moves: np.ndarray,
    n: int,
    bot: int,
    params: np.ndarray,
) -> int:
    """The move bot `bot` (BOT_*) with `params` picks among moves[:n] for the seat to act."""
    if bot == BOT_HEURISTIC:
        return heuristic(state, tables, moves, n, params)
    # rng.bot_stream(seat) is 1 + seat.
    return moves[rng.below(streams, 1 + state[S_TO_ACT], n)]


@njit
def _play_to_end(
    state: np.ndarray,
    tables: np.ndarray,
    streams: np.ndarray,
    seat_bots: np.ndarray,
    seat_params: np.ndarray,
    moves: np.ndarray,
) -> None:
    """Play from `state` to the end: seat s plays bot seat_bots[s] with seat_params[s].

    A forced move is played without asking its bot (engine.py's rule). The chunk
    loop's own (`play_out` is the rollouts' entry, with every kernel's signature).
    """
    while state[S_OVER] == 0:
        n = legal(state, tables, moves)
        if n == 1:
            action = moves[0]
        else:
            seat = state[S_TO_ACT]
            action = choose(state, tables, streams, moves, n, seat_bots[seat], seat_params[seat])
        apply(state, tables, streams, action)


@njit
def _play_games(
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
    dealt: np.ndarray,
) -> None:
    """dealt[g, s, k] gets the opening hand's count of kind k (card impact)."""
    state = np.zeros(STATE_SIZE, dtype=np.int64)
    streams = np.zeros((1 + PLAYERS, 2), dtype=np.uint64)
    moves = np.zeros(MAX_LEGAL, dtype=np.int64)
    seat_bots = np.zeros(PLAYERS, dtype=np.int64)
    seat_params = np.zeros((PLAYERS, slot_params.shape[1]), dtype=np.float64)
    for game in range(start, stop):
        for seat in range(PLAYERS):
            slot = (seat + game) % PLAYERS if rotate else seat
            seat_bots[seat] = slot_bots[slot]
            for p in range(slot_params.shape[1]):
                seat_params[seat, p] = slot_params[slot, p]
        rng.init_streams(streams, seed, game)
        new_game(state, tables, streams)
        row = game - start
        for seat in range(PLAYERS):
            for k in range(K):
                dealt[row, seat, k] = state[S_HANDS + seat * K + k]
        _play_to_end(state, tables, streams, seat_bots, seat_params, moves)
        for seat in range(PLAYERS):
            scores[row, seat] = state[S_CHIPS + seat]
        length[row] = state[S_EVENTS + E_DEALS]
        for e in range(N_EVENTS):
            events[row, e] = state[S_EVENTS + e]


# -- from Python --------------------------------------------------------------------


def bot_arrays(
    slots: Sequence[tuple[str, Mapping[str, Any]]],
) -> tuple[np.ndarray, np.ndarray]:
    """(bot kind per slot, float64 params per slot in bots.PARAMS order)."""
    kinds = np.zeros(len(slots), dtype=np.int64)
    params = np.zeros((len(slots), N_PARAMS), dtype=np.float64)
    defaults = {p.name: p.default for p in dqz_bots.PARAMS}
    for j, (name, values) in enumerate(slots):
        if name not in BOT_KINDS:
            raise ValueError(f"da-qi-zi has no compiled bot {name!r}")
        kinds[j] = BOT_KINDS[name]
        merged = {**defaults, **values}
        for p, param in enumerate(PARAM_NAMES):
            params[j, p] = float(merged[param])
    return kinds, params


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
    if players != PLAYERS:
        raise ValueError(f"da-qi-zi needs {PLAYERS} players, got {players}")
    tables = encode_rules(rules)
    kinds, params = bot_arrays(slots)
    games = stop - start
    scores = np.zeros((games, PLAYERS), dtype=np.float64)
    length = np.zeros(games, dtype=np.int64)
    events = np.zeros((games, N_EVENTS), dtype=np.float64)
    dealt = np.zeros((games, PLAYERS, K), dtype=np.int64)
    _play_games(
        tables, seed, start, stop, kinds, params, bool(rotate), scores, length, events, dealt
    )
    return ChunkColumns(
        start=start, scores=scores, length=length, events=events, held=held_masks(dealt)
    )


def held_masks(dealt: np.ndarray) -> np.ndarray:
    """rules.held_of_counts for many games at once: counts [games, seats, kinds] to
    uint64 [games, seats] bitmasks over rules.CARD_KINDS (ranks, then suits)."""
    by_rank_suit = dealt.reshape(dealt.shape[0], PLAYERS, -1, 2)  # kind k: rank k // 2, suit k % 2
    held = np.concatenate([by_rank_suit.sum(axis=3) > 0, by_rank_suit.sum(axis=2) > 0], axis=2)
    bits = np.left_shift(np.uint64(1), np.arange(held.shape[2], dtype=np.uint64))
    return (held.astype(np.uint64) * bits).sum(axis=2, dtype=np.uint64)


def from_python(state: State) -> np.ndarray:
    """The kernel state of a Python `State` (rules.py), at the same point of play.

    The trick's cards in play and the face-down discard are not kept: nothing
    that is still to come depends on them.
    """
    out = new_state()
    for seat in range(PLAYERS):
        out[S_HANDS + seat * K : S_HANDS + (seat + 1) * K] = state.hands[seat]
        out[S_CAPTURED + seat * K : S_CAPTURED + (seat + 1) * K] = state.captured[seat]
        out[S_PACKED + seat] = state.packed[seat]
        out[S_NCAP + seat] = state.n_captured[seat]
        out[S_SIZES + seat] = state.sizes[seat]
        out[S_CHIPS + seat] = state.chips[seat]
    out[S_PUBLIC : S_PUBLIC + K] = state.public
    out[S_PUBLIC_PACKED] = dc.pack(state.public)
    out[S_DEAL] = state.deal
    out[S_DEALER] = state.dealer
    out[S_MULT] = state.multiplier
    out[S_STREAK] = state.streak
    out[S_LAST_WINNER] = state.last_winner
    out[S_LEADER] = state.leader
    out[S_TURN] = state.turn
    out[S_TO_ACT] = state.to_act
    out[S_BEST] = state.best
    out[S_BEST_SEAT] = state.best_seat
    out[S_LED] = state.led_size
    out[S_HAND_LEFT] = state.hand_left
    out[S_LAST_TRICK] = state.last_trick
    out[S_UP] = len(state.trick_up)
    out[S_DOWN] = state.trick_down
    out[S_TRICKS] = state.tricks
    out[S_OVER] = state.over
    for e, name in enumerate(EVENTS):
        out[S_EVENTS + e] = int(state.events[name])
    return out


def streams_from(chance: Stream, bots: Sequence[Stream]) -> np.ndarray:
    """The kernel's stream array holding Python streams at their current counters."""
    out = new_streams()
    for row, stream in enumerate([chance, *bots]):
        out[row, 0] = np.uint64(stream.key)
        out[row, 1] = np.uint64(stream.counter)
    return out


# =============================================================================
# Stepping: the game played on to the next decision made outside the kernel
# =============================================================================
#
# A plugin bot (sim/kernel_step.py) needs the compiled game played up to each
# decision it makes itself, and no further. A *step plan* says, per physical
# seat, which compiled bot plays it (a BOT_* kind) or that its decisions are
# made outside (BOT_OUTSIDE); `advance_to_outside` plays every forced move and
# every compiled seat's move until an outside seat has a choice or the game
# ends, exactly as `_play_to_end` plays them. These functions are plain @njit and
# call the engine's own (legal, choose, apply), so `step` is compiled from the
# engine's already-compiled functions.
#
# A view shows what the state array does not keep: the deal's face-up plays
# (View.history; the trick's are its last S_UP) and, for the record, the
# opening hands' held kinds. The stepped game keeps them in blocks of its own,
# beside the state (`_apply_kept`, `_held`), so the compiled whole-game path
# (`_play_to_end`, `apply`) does nothing more than before.

BOT_OUTSIDE = -1
"""A seat's kind in a step plan: its decisions (of two moves or more) are made outside."""

# The plan, int64: the bot of physical seat s at PLAN_KIND + s, the offset of
# its parameter row (N_PARAMS floats) in the params block at PLAN_PARAMS + s.
PLAN_KIND, PLAN_PARAMS = 0, PLAYERS
PLAN_SIZE = 2 * PLAYERS

# The deal's face-up plays: their number at H_COUNT, then play i (0-based) at
# H_PLAYS + i as move * 8 + seat. A deal has 32 cards, so at most 32 of them.
H_COUNT, H_PLAYS = 0, 1
HIST_SIZE = H_PLAYS + N_CARDS
N_RANKS = K // 2  # kind k: rank k // 2, suit k % 2 (combos.py); held bits: ranks, then suits


@njit
def _apply_kept(
    state: np.ndarray, tables: np.ndarray, streams: np.ndarray, action: int, hist: np.ndarray
) -> None:
    """`apply`, keeping the deal's face-up plays in `hist` (emptied when a deal starts)."""
    if action < DISCARD_BASE:
        n = hist[H_COUNT]
        hist[H_PLAYS + n] = action * 8 + state[S_TO_ACT]
        hist[H_COUNT] = n + 1
    deal = state[S_DEAL]
    apply(state, tables, streams, action)
    if state[S_DEAL] != deal:
        hist[H_COUNT] = 0


@njit
def advance_to_outside(
    state: np.ndarray,
    tables: np.ndarray,
    streams: np.ndarray,
    plan: np.ndarray,
    params: np.ndarray,
    moves: np.ndarray,
    hist: np.ndarray,
) -> int:
    """Play on from the current position to the next outside decision: forced
    moves without asking (and without a draw), compiled seats by `choose` with
    their own bot streams; the deal's face-up plays kept in `hist`.

    Returns n >= 2 with the outside seat's legal moves in moves[:n] (rules.py's
    order; `current_player` is the seat), or 0 when the game is over.
    """
    while state[S_OVER] == 0:
        n = legal(state, tables, moves)
        if n == 1:
            action = moves[0]  # forced: no bot is asked, no bot draw
        else:
            seat = state[S_TO_ACT]
            kind = plan[PLAN_KIND + seat]
            if kind == BOT_OUTSIDE:
                return n
            at = plan[PLAN_PARAMS + seat]
            action = choose(state, tables, streams, moves, n, kind, params[at : at + N_PARAMS])
        _apply_kept(state, tables, streams, action, hist)
    return 0


# One int64 buffer holds every array of a stepped game (games/kernel_api.py's
# StepBuffer), so the call Python makes at each outside decision passes one
# array. Its header is (start, stop) of each block; the uint64 streams and
# ahead and the float64 params are the buffer's bytes seen as those types.
B_STATE, B_TABLES, B_MOVES, B_PLAN, B_STREAMS, B_PARAMS, B_AHEAD, B_HIST, B_HELD = range(0, 18, 2)
B_HEADER = 18
AHEAD = 32
"""Numbers of an outside seat's bot stream drawn ahead at the deal, for its plugin's
rng (sim/kernel_step.py): a Python draw costs a microsecond of big-integer arithmetic,
a compiled one nanoseconds. A uniform plugin draws about one number a decision; a
default game asks a seat about 20 times; more are drawn by the plugin's rng itself."""

STEP_ON, STEP_APPLY, STEP_DEAL = 0, 1, 2  # step()'s modes


@njit
def step(buf: np.ndarray, mode: int, action: int, seed: int, game: int) -> int:
    """Python's entry to `advance_to_outside` over a step buffer (`StepGame` makes it).

    `mode` STEP_DEAL first deals game `game` of `seed` (its streams from their
    start, the outside seats' first AHEAD numbers drawn ahead, the opening
    hands' held kinds kept); STEP_APPLY first plays `action` for the outside
    seat to act; STEP_ON only plays on. Returns n * 8 + seat at an outside
    decision (n >= 2 moves in the moves block, seat to act), or 0 when the
    game is over.
    """
    state, tables, plan = _block(buf, B_STATE), _block(buf, B_TABLES), _block(buf, B_PLAN)
    streams = stream_block(buf, B_STREAMS)
    hist = _block(buf, B_HIST)
    if mode == STEP_DEAL:
        rng.init_streams(streams, seed, game)
        new_game(state, tables, streams)
        hist[H_COUNT] = 0
        _held(state, _block(buf, B_HELD))
        kinds = plan[PLAN_KIND : PLAN_KIND + PLAYERS]
        draw_ahead(streams, kinds, BOT_OUTSIDE, _block(buf, B_AHEAD).view(np.uint64), AHEAD)
    elif mode == STEP_APPLY:
        _apply_kept(state, tables, streams, action, hist)
    params = _block(buf, B_PARAMS).view(np.float64)
    n = advance_to_outside(state, tables, streams, plan, params, _block(buf, B_MOVES), hist)
    if n == 0:
        return 0
    return n * 8 + state[S_TO_ACT]


@njit
def _held(state: np.ndarray, held: np.ndarray) -> None:
    """held[s]: rules.held_of_counts of the hands as dealt (bit r for rank r held,
    bit N_RANKS + suit for each suit held), as `held_masks` gives it."""
    for seat in range(PLAYERS):
        mask = 0
        for k in range(K):
            if state[S_HANDS + seat * K + k] > 0:
                mask |= (1 << (k >> 1)) | (1 << (N_RANKS + (k & 1)))
        held[seat] = mask


class StepGame(StepBuffer):
    """Games of one rule set stepped from Python, one after another in one buffer.

    The contract sim/kernel_step.py drives (games/kernel_api.py; fdc's and kk's
    kernels have the others): `slots[j]` is bot slot j's compiled bot, (name,
    parameters), or None for a slot whose decisions are made outside (a plugin).
    Each game is dealt with `deal(seed, game, seat_slots)` (seat_slots[s]: the
    slot sitting at physical seat s); `deal` and `play` return the step code of
    `step` (n * 8 + seat at an outside decision, 0 at the end); `legal(code)` is
    that decision's moves as the Python engine lists them (Python ints, its
    order), `view(seat)` the seat's View exactly as `rules.State.view` gives it,
    and `record()` the finished game's GameRecord, held kinds included.
    """

    def _build(self) -> None:
        rules, players, slots = self.rules, self.players, self.slots
        if players != PLAYERS:
            raise ValueError(f"da-qi-zi needs {PLAYERS} players, got {players}")
        # An outside slot's row is never read: any compiled bot stands in for it.
        kinds, params = bot_arrays([slot or ("random", {}) for slot in slots])
        kinds_of = kinds.tolist()
        plan_kinds = [BOT_OUTSIDE if slot is None else kinds_of[j] for j, slot in enumerate(slots)]
        self._plans_for(plan_kinds, N_PARAMS, PLAN_KIND, PLAN_PARAMS, PLAN_SIZE)
        blocks = [
            np.zeros(STATE_SIZE, np.int64),
            encode_rules(rules),
            np.zeros(MAX_LEGAL, np.int64),
            np.zeros(PLAN_SIZE, np.int64),
            np.zeros(2 * (PLAYERS + 1), np.int64),  # the streams, (key, counter) a row
            params.ravel().view(np.int64),
            np.zeros(PLAYERS * AHEAD, np.int64),
            np.zeros(HIST_SIZE, np.int64),
            np.zeros(PLAYERS, np.int64),  # the opening hands' held kinds
        ]
        assert len(blocks) * 2 == B_HEADER
        self._pack(blocks, B_HEADER)
        # Views of the buffer, for reading (and the plan for writing) from Python.
        self.state = self._block(B_STATE)
        self.moves = memoryview(self._block(B_MOVES))  # type: ignore[arg-type]
        self.plan = self._block(B_PLAN)
        self.streams = self._block(B_STREAMS).view(np.uint64).reshape(PLAYERS + 1, 2)
        self.ahead = self._block(B_AHEAD).view(np.uint64)  # AHEAD per seat, after each deal
        self.hist = self._block(B_HIST)
        self.held = self._block(B_HELD)

    # The entry `deal` and `play` call; a loop that writes `play` out (sim/kernel_step.py)
    # calls step(buf, STEP_APPLY, action, 0, 0) itself.
    step = staticmethod(step)
    STEP_DEAL = STEP_DEAL
    STEP_APPLY = STEP_APPLY
    STEP_ON = STEP_ON

    def load(self, py: State, seat_slots: Sequence[int], seed: int, game: int) -> int:
        """Step from a Python `State`'s position (any: a game mid-way, or laid by hand),
        its chance draws going on from where the State's stream stands, compiled seats
        drawing from game `game` of `seed`'s bot streams from their start; plays on to the
        first outside decision (a search bot's rollouts start here)."""
        self._check_position(len(py.chips), py.rules is self.rules or py.rules == self.rules)
        self.state[:] = from_python(py)
        self.hist[H_COUNT] = len(py.history)
        for i, (seat, move) in enumerate(py.history):
            self.hist[H_PLAYS + i] = move * 8 + seat
        self.held[:] = py.opening_held
        return self._play_on_from(seat_slots, seed, game, py.rng)

    def view(self, seat: int) -> View:
        """`rules.State.view(seat)` of the position, field for field."""
        s: list[int] = self.state.tolist()
        n = int(self.hist[H_COUNT])
        history = tuple(
            [(code & 7, code >> 3) for code in self.hist[H_PLAYS : H_PLAYS + n].tolist()]
        )
        up = s[S_UP]
        hands = S_HANDS + seat * K
        captured = S_CAPTURED
        return _new_view(  # positional: View's fields in order, as State.view
            seat,
            tuple(s[hands : hands + K]),
            tuple(s[S_SIZES : S_SIZES + PLAYERS]),
            tuple([tuple(s[captured + p * K : captured + (p + 1) * K]) for p in range(PLAYERS)]),
            tuple(s[S_CHIPS : S_CHIPS + PLAYERS]),
            s[S_DEALER],
            s[S_DEAL],
            s[S_MULT],
            s[S_STREAK],
            s[S_LEADER],
            history[n - up :] if up else (),
            s[S_DOWN],
            s[S_BEST],
            s[S_BEST_SEAT],
            s[S_LED],
            s[S_LAST_TRICK] != 0,
            history,
            tuple(s[S_PUBLIC : S_PUBLIC + K]),
            self.rules,
        )

    def record(self) -> GameRecord:
        """The finished game's record, as `rules.State.record` gives it (held kinds too)."""
        s: list[int] = self.state.tolist()
        return GameRecord(
            tuple(float(c) for c in s[S_CHIPS : S_CHIPS + PLAYERS]),
            s[S_EVENTS + E_DEALS],
            {name: s[S_EVENTS + e] for e, name in enumerate(EVENTS)},
            tuple(self.held.tolist()),
        )


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

    A position converted from a Python State (`from_python`) carries no record of the
    deal's face-down discards: its world treats them as revealing nothing and cannot
    take the seat's own discards out of the pool; a position played in the kernel has
    it.
    """
    out[:] = state
    pool = np.empty(N_CARDS, np.int64)
    n = unseen_pool(state, tables, seat, pool)
    return deal_unseen(state, tables, seat, rng, out, out_streams, pool, n)
