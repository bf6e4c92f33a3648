"""Fish! Dash! Cash! as compiled kernels: the same games as rules.py, move for move.

The Python engine (rules.py) is the authority; these kernels play exactly its
games (same chance draws, same legal-move lists in the same order, same bot
choices), only as numba code over small integer arrays, so a chunk of games
runs in one compiled call and a search bot can copy a state and step it.

Card roles are data. Each card carries an *effect code* in a per-card table,
and resolution dispatches on the effect, not on a role name:

    EFFECT_TERRITORY (fish)   the card goes face up into its owner's territory
    EFFECT_STEAL_OR_PROTECT (dash)  steal a stealable card from another
                              territory, or protect the owner's territory
    EFFECT_CASH (cash)        every uncashed card in the owner's territory
                              becomes money

`ROLE_EFFECTS` maps a deck role name to its effect; a new role is a new row
there (and, for a new kind of effect, a new branch in `_resolve`). Every knob
is runtime data in the `tables` array (built once per (rules, players) by
`make_tables`); nothing is compiled per knob value.

Action encoding (the Python engine's): to play, the card number
(`rules.py`'s card encoding); for a dash choice, `PROTECT` (-1) or the card
number of the fish to steal. Identical copies are one move (the first copy in
hand or territory order, as `Deck.distinct`).

Tables, int64 (`make_tables`): a header (T_* below) and five per-card columns
of length D (deck size) from `T_CARDS`: colour, effect, number, money when
cashed (by `cash_value`) and kind (card // copies: copies share a kind), at
`T_CARDS + k * D`.

State, int64, self-describing (`new_state`; P players, HCAP hand capacity,
TCAP territory capacity, D deck size):

    [0, 24)                 header: PHASE, LEADER, TURN (= cards played this
                            trick), NORDER, QLEN, QAT, NEXT_LEADER, TRICKS,
                            SOLE (sole money leader, -1 none), PILE_LEN,
                            PLAYERS, HCAP, TCAP, O_TERR, O_PILE, DECK, and
                            the eight events (SPEC.events order) from EVENTS
    ORDER   [24, 30)        seats playing this trick, leader first
    PSEAT, PCARD            the trick's plays so far, in play order
    QSEAT, QCARD            surviving plays in resolution order (QAT..QLEN-1 to go)
    PROT                    1 if the seat is protected this trick
    CMONEY, CCOUNT          per seat: money cashed, and how many cards cashed
    HLEN, TLEN              per seat: hand and territory lengths
    TWORTH, TMAXM, TMAX2    per seat: its territory's money, its richest and second
                            richest card's money (-1: none), kept as cards land,
                            are stolen and are cashed (`_territory_stats`): the
                            heuristic reads them at every decision
    HANDS   [102, O_TERR)   hand of seat s at HANDS + s * HCAP, in the engine's order
    O_TERR  [.., O_PILE)    territory of seat s at O_TERR + s * TCAP, in order
    O_PILE  [.., +D)        the draw pile; the top card is pile[PILE_LEN - 1]

(the thirteen per-seat blocks are MAXP = 6 wide whatever P is). Cashed cards are
kept only as money and count: nothing in the game reads which they were.

Step functions: `start_game` (deal game i of a seed), `current_player`,
`legal`, `apply`, `choose` (a compiled bot's move), `write_record`; a state
is copied with `.copy()`. `from_state` converts any rules.State position;
`snapshot` reads a position back as plain lists. `play_chunk` is the batch
entry point. `advance_to_outside` (compiled callers) and `step` / `StepGame`
(Python: plugin seats, sim/kernel_step.py; positions via `StepGame.load`)
play on to the next decision made outside the kernel (end of this file).
Kernels compile inlined, without reference counting and with numpy's error
model (see `inlined`): that is what makes a move cheap.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from balancer import jit
from balancer.games.api import GameRecord, held_words
from balancer.games.fdc import bots as py_bots
from balancer.games.fdc import rules as fdc
from balancer.games.kernel_api import ChunkColumns, StepBuffer
from balancer.games.step_kernels import block, draw_ahead, stream_block
from balancer.rng import CHANCE
from balancer.rng_kernels import ZERO, below, init_streams, next_u64, shuffle

# -- effects, phases, actions ---------------------------------------------------

EFFECT_TERRITORY = 0
EFFECT_STEAL_OR_PROTECT = 1
EFFECT_CASH = 2
N_EFFECTS = 3
ROLE_EFFECTS = {"fish": EFFECT_TERRITORY, "dash": EFFECT_STEAL_OR_PROTECT, "cash": EFFECT_CASH}

PROTECT = fdc.PROTECT
PLAY, DASH_CHOICE, OVER = fdc.PLAY, fdc.DASH_CHOICE, fdc.OVER

# -- the state layout -------------------------------------------------------------

MAXP = 6
PHASE, LEADER, TURN, NORDER, QLEN, QAT, NEXT_LEADER, TRICKS = 0, 1, 2, 3, 4, 5, 6, 7
SOLE, PILE_LEN, PLAYERS, HCAP, TCAP, O_TERR, O_PILE, DECK = 8, 9, 10, 11, 12, 13, 14, 15
EVENTS = 16
N_EVENTS = len(fdc.EVENTS)
E_NEKO, E_CANCELLED, E_STEALS, E_PROTECTS, E_CASH, E_CASHED, E_UNCASHED, E_LEAD = range(8)
ORDER = EVENTS + N_EVENTS
PSEAT = ORDER + MAXP
PCARD = PSEAT + MAXP
QSEAT = PCARD + MAXP
QCARD = QSEAT + MAXP
PROT = QCARD + MAXP
CMONEY = PROT + MAXP
CCOUNT = CMONEY + MAXP
HLEN = CCOUNT + MAXP
TLEN = HLEN + MAXP
TWORTH = TLEN + MAXP
TMAXM = TWORTH + MAXP
TMAX2 = TMAXM + MAXP
HANDS = TMAX2 + MAXP

assert fdc.EVENTS == (
    "neko_ni_koban",
    "cards_cancelled",
    "steals",
    "protects",
    "cash_events",
    "fish_cashed",
    "fish_uncashed_at_end",
    "lead_changes",
)
assert fdc.SPEC.max_players <= MAXP

# -- the tables layout ------------------------------------------------------------

T_PLAYERS, T_DECK, T_COPIES, T_HAND_SIZE, T_FIRST_RANDOM = 0, 1, 2, 3, 4
T_NEKO, T_NEKO_MIN, T_NEKO_DEDUPE, T_LEADER_NEXT, T_UNCASHED = 5, 6, 7, 8, 9
T_TERRITORY_CARDS = 10  # cards with EFFECT_TERRITORY: no territory holds more
T_CARDS = 16
COLOUR, EFFECT, NUMBER, MONEY, KIND = 0, 1, 2, 3, 4  # column k of the per-card tables
N_COLUMNS = 5

# -- bots: kinds, parameters, work arrays -----------------------------------------

BOT_RANDOM, BOT_HEURISTIC = 0, 1
BOT_KINDS = {"random": BOT_RANDOM, "heuristic": BOT_HEURISTIC}
COMPILED_BOTS: frozenset[str] = frozenset(BOT_KINDS)
assert frozenset(py_bots.BOTS) == COMPILED_BOTS

# float64 parameter row of a heuristic bot: its PARAMS, then the discard cost per effect
P_FISH_WEIGHT, P_RIVAL_WEIGHT, P_LEAD_RESOLVES, P_CASH_AT, P_COST = 0, 1, 2, 3, 4
N_PARAMS = P_COST + N_EFFECTS

# int64 work array of the heuristic (blocks MAXP long): the survivors of the
# trick foreseen with a candidate, the foreseen territory lengths and
# protection, each territory's money as foreseen (W_RUN; its money now is the
# state's TWORTH), the trick so far sorted out as the lead colour's (W_BSEAT,
# W_BCARD) and as 猫に小判's (W_NSEAT, W_NCARD), the three lists' lengths,
# then the foreseen territories and a flag per card (`_foresee`); 24..30 and
# 36..48 are free
W_SSEAT, W_SCARD, W_TLEN, W_PROT, W_RUN = 0, 6, 12, 18, 30
W_BSEAT, W_BCARD, W_NSEAT, W_NCARD = 48, 54, 60, 66
W_SLEN, W_BLEN, W_NLEN = 72, 73, 74
W_TERR = 76

# float64 work array of the heuristic: the foreseen gains per seat (F_GAIN),
# then the gain of each card of W_BASE (F_BTERM) and of W_NEKO (F_NTERM) if it
# resolves in a trick without a dash (`_dashless_gains`)
F_GAIN, F_BTERM, F_NTERM = 0, MAXP, 2 * MAXP
F_SIZE = 3 * MAXP


# =============================================================================
# Python side: tables, states, conversion
# =============================================================================


def make_tables(rules: Mapping[str, Any], players: int) -> np.ndarray:
    """The rules of one (rules, players) as an int64 array (layout: module docstring)."""
    if not fdc.SPEC.min_players <= players <= fdc.SPEC.max_players:
        raise ValueError(f"fdc is for 2 to 6 players, not {players}")
    deck = fdc.deck_for(rules)
    money = fdc.money_values(rules)
    d = deck.size
    tables = np.zeros(T_CARDS + N_COLUMNS * d, np.int64)
    tables[T_PLAYERS] = players
    tables[T_DECK] = d
    tables[T_COPIES] = deck.copies
    tables[T_HAND_SIZE] = rules["hand_size"]
    tables[T_FIRST_RANDOM] = {"seat0": 0, "random": 1}[rules["first_leader"]]
    tables[T_NEKO] = bool(rules["neko_ni_koban"])
    tables[T_NEKO_MIN] = rules["neko_min_followers"]
    tables[T_NEKO_DEDUPE] = bool(rules["neko_cancel_duplicates"])
    tables[T_LEADER_NEXT] = {"same": 0, "next": 1}[rules["leader_if_nothing_resolves"]]
    tables[T_UNCASHED] = rules["uncashed_value"]
    for card in range(d):
        effect = ROLE_EFFECTS[fdc.ROLE_NAMES[deck.role[card]]]
        tables[T_CARDS + COLOUR * d + card] = deck.colour[card]
        tables[T_CARDS + EFFECT * d + card] = effect
        tables[T_CARDS + NUMBER * d + card] = deck.number[card]
        tables[T_CARDS + MONEY * d + card] = money[card]
        tables[T_CARDS + KIND * d + card] = card // deck.copies  # copies of a card: one kind
        tables[T_TERRITORY_CARDS] += effect == EFFECT_TERRITORY
    return tables


def new_state(tables: np.ndarray, hand_capacity: int | None = None) -> np.ndarray:
    """An empty state array laid out for these tables (deal into it with `start_game`).

    Hands never outgrow max(hand_size, the longest hand + 1) from any position
    (each player with cards plays one per trick and draws at most one).
    """
    players, d = int(tables[T_PLAYERS]), int(tables[T_DECK])
    hcap = max(int(tables[T_HAND_SIZE]), 1, hand_capacity or 0)
    tcap = max(int(tables[T_TERRITORY_CARDS]), 1)
    o_terr = HANDS + players * hcap
    o_pile = o_terr + players * tcap
    state = np.zeros(o_pile + d, np.int64)
    state[PLAYERS], state[HCAP], state[TCAP] = players, hcap, tcap
    state[O_TERR], state[O_PILE], state[DECK] = o_terr, o_pile, d
    state[PHASE] = OVER
    return state


def new_streams(players: int) -> np.ndarray:
    """Stream states for one game: rng.CHANCE and one bot stream per seat."""
    return np.zeros((1 + players, 2), np.uint64)


def new_work(state: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The heuristic's scratch arrays (int64, float64) for states shaped like `state`."""
    players = int(state[PLAYERS])
    size = W_TERR + 2 * players * int(state[TCAP])  # territories, and a flag per card
    return np.zeros(size, np.int64), np.zeros(F_SIZE, np.float64)


def new_legal(state: np.ndarray) -> np.ndarray:
    """A buffer long enough for any legal-move list of states shaped like `state`."""
    return np.zeros(2 + max(int(state[HCAP]), int(state[PLAYERS]) * int(state[TCAP])), np.int64)


def from_state(py: fdc.State) -> tuple[np.ndarray, np.ndarray]:
    """A Python `State` (any position, e.g. `State.arranged(...)`) as (state, tables) arrays."""
    tables = make_tables(py.rules, py.players)
    state = new_state(tables, max(len(h) for h in py.hands) + 1)
    players, hcap, tcap = py.players, int(state[HCAP]), int(state[TCAP])
    money = py.money_of
    state[PHASE] = py.phase
    state[LEADER] = py.leader
    state[NEXT_LEADER] = py.next_leader
    state[TRICKS] = py.tricks
    state[SOLE] = py.sole_leader
    for i, name in enumerate(fdc.EVENTS):
        state[EVENTS + i] = py.events[name]
    state[NORDER] = len(py.order)
    state[ORDER : ORDER + len(py.order)] = py.order
    state[TURN] = len(py.plays)
    for i, (seat, card) in enumerate(py.plays):
        state[PSEAT + i], state[PCARD + i] = seat, card
    if py.phase == DASH_CHOICE:
        state[QLEN], state[QAT] = len(py.resolve_queue), py.resolve_at
        for i, (seat, card) in enumerate(py.resolve_queue):
            state[QSEAT + i], state[QCARD + i] = seat, card
    o_terr = int(state[O_TERR])
    for s in range(players):
        state[PROT + s] = py.protected[s]
        state[CMONEY + s] = sum(money[c] for c in py.cashed[s])
        state[CCOUNT + s] = len(py.cashed[s])
        state[HLEN + s] = len(py.hands[s])
        state[HANDS + s * hcap : HANDS + s * hcap + len(py.hands[s])] = py.hands[s]
        state[TLEN + s] = len(py.territory[s])
        state[o_terr + s * tcap : o_terr + s * tcap + len(py.territory[s])] = py.territory[s]
        values = sorted((money[c] for c in py.territory[s]), reverse=True) + [-1, -1]
        state[TWORTH + s] = sum(money[c] for c in py.territory[s])
        state[TMAXM + s], state[TMAX2 + s] = values[0], values[1]
    o_pile = int(state[O_PILE])
    state[PILE_LEN] = len(py.pile)
    state[o_pile : o_pile + len(py.pile)] = py.pile
    return state, tables


def snapshot(state: np.ndarray) -> dict[str, Any]:
    """Everything about a position that can change play, as plain lists (for comparisons).

    Reads only the live part of each block: what a finished trick left behind
    is not part of the position.
    """
    players, hcap, tcap = int(state[PLAYERS]), int(state[HCAP]), int(state[TCAP])
    o_terr, o_pile = int(state[O_TERR]), int(state[O_PILE])
    phase = int(state[PHASE])
    turn = int(state[TURN])

    def ints(a: np.ndarray) -> list[int]:
        return [int(x) for x in a]

    out: dict[str, Any] = {
        "phase": phase,
        "tricks": int(state[TRICKS]),
        "sole_leader": int(state[SOLE]),
        "events": ints(state[EVENTS : EVENTS + N_EVENTS]),
        "hands": [
            ints(state[HANDS + s * hcap : HANDS + s * hcap + state[HLEN + s]])
            for s in range(players)
        ],
        "territory": [
            ints(state[o_terr + s * tcap : o_terr + s * tcap + state[TLEN + s]])
            for s in range(players)
        ],
        "cashed_money": ints(state[CMONEY : CMONEY + players]),
        "cashed_count": ints(state[CCOUNT : CCOUNT + players]),
        # Kept as play goes (from_state works them out): compared, they check the upkeep.
        "territory_money": ints(state[TWORTH : TWORTH + players]),
        "territory_richest": ints(state[TMAXM : TMAXM + players]),
        "territory_second": ints(state[TMAX2 : TMAX2 + players]),
        "pile": ints(state[o_pile : o_pile + state[PILE_LEN]]),
    }
    if phase != OVER:
        out["leader"] = int(state[LEADER])
        out["order"] = ints(state[ORDER : ORDER + state[NORDER]])
        out["plays"] = list(
            zip(ints(state[PSEAT : PSEAT + turn]), ints(state[PCARD : PCARD + turn]), strict=True)
        )
        out["protected"] = ints(state[PROT : PROT + players])
    if phase == DASH_CHOICE:
        qat, qlen = int(state[QAT]), int(state[QLEN])
        out["to_resolve"] = list(
            zip(
                ints(state[QSEAT + qat : QSEAT + qlen]),
                ints(state[QCARD + qat : QCARD + qlen]),
                strict=True,
            )
        )
        out["next_leader"] = int(state[NEXT_LEADER])
    return out


def snapshot_of(py: fdc.State) -> dict[str, Any]:
    """`snapshot` of a Python `State`, to compare with the kernel's."""
    return snapshot(from_state(py)[0])


def bot_params(name: str, params: Mapping[str, Any] | None = None) -> np.ndarray:
    """A compiled bot's float64 parameter row (defaults filled in from bots.PARAMS)."""
    if name not in COMPILED_BOTS:
        raise ValueError(f"no compiled fdc bot {name!r}; compiled: {sorted(COMPILED_BOTS)}")
    row = np.zeros(N_PARAMS, np.float64)
    if name == "heuristic":
        given = {**{p.name: p.default for p in py_bots.PARAMS}, **(params or {})}
        row[P_FISH_WEIGHT] = given["fish_weight"]
        row[P_RIVAL_WEIGHT] = given["rival_weight"]
        row[P_LEAD_RESOLVES] = given["lead_resolves"]
        row[P_CASH_AT] = given["cash_at"]
        for role, cost in py_bots.DISCARD_COST.items():
            row[P_COST + ROLE_EFFECTS[fdc.ROLE_NAMES[role]]] = cost
    return row


def record(state: np.ndarray, tables: np.ndarray) -> GameRecord:
    """A finished kernel game as the Python engine's `GameRecord`."""
    players = int(state[PLAYERS])
    scores = np.zeros(players, np.float64)
    events = np.zeros(N_EVENTS, np.float64)
    length = write_record(state, tables, scores, events)
    return GameRecord(
        tuple(float(x) for x in scores),
        int(length),
        {name: float(events[i]) for i, name in enumerate(fdc.EVENTS)},
    )


def play_chunk(
    rules: Mapping[str, Any],
    players: int,
    seed: int,
    start: int,
    stop: int,
    slots: Sequence[tuple[str, Mapping[str, Any]]],
    rotate: bool,
) -> ChunkColumns:
    """Games start..stop-1 of `seed`, in one compiled call (the contract in games/kernel_api.py).

    The bot in physical seat `seat` of game `i` is slot `(seat + i) % players`
    if `rotate`, else slot `seat`; it draws from stream rng.bot_stream(seat).
    """
    if len(slots) != players:
        raise ValueError(f"{len(slots)} bot slots for {players} players")
    tables = make_tables(rules, players)
    kinds = np.zeros(players, np.int64)
    params = np.zeros(players * N_PARAMS, np.float64)  # slot j's row at j * N_PARAMS
    for j, (name, given) in enumerate(slots):
        params[j * N_PARAMS : (j + 1) * N_PARAMS] = bot_params(name, given)
        kinds[j] = BOT_KINDS[name]
    state = new_state(tables)
    streams = new_streams(players)
    legal_out = new_legal(state)
    iwork, fwork = new_work(state)
    games = max(0, stop - start)
    scores = np.zeros((games, players), np.float64)
    length = np.zeros(games, np.int64)
    events = np.zeros((games, N_EVENTS), np.float64)
    words = held_words(int(tables[T_DECK] // tables[T_COPIES]))
    held = np.zeros((games, players * words), np.uint64)
    _play_games(
        tables, kinds, params, seed, start, stop, bool(rotate), start % players,
        state, streams, legal_out, iwork, fwork, scores, length, events, held, words,
    )  # fmt: skip
    return ChunkColumns(start=start, scores=scores, length=length, events=events, held=held)


# =============================================================================
# Kernels
# =============================================================================


# Numba keeps atomic reference counts on every array a compiled function is
# handed whenever a call or an exception path lies in between: about 60 ns a
# call here, most of what a move costs. So kernels are inlined into their
# compiled callers at numba-IR level (`inline="always"`), and integer `%` is
# compiled without Python's ZeroDivisionError path (`error_model="numpy"`; no
# kernel divides by a value that can be 0). Plain Python when jit is off.
_FAST: dict[str, Any] = {"error_model": "numpy", "_nrt": False}

inlined = jit.njit(inline="always", **_FAST)
"""A kernel inlined into its compiled callers."""

outermost = jit.njit(**_FAST)
"""A kernel that is only called from Python."""


@inlined
def _below(streams: np.ndarray, s: int, n: int) -> np.int64:
    """rng.below, draw for draw (tests/test_fdc_kernel.py checks it): a uniform
    integer in [0, n), n >= 1, redrawing the next_u64 under 2**64 mod n. A copy
    not for want of options but because rng.below is compiled apart with
    Python's error model (its `%` raises on n = 0): from every move of the
    random bot that is a call with an exception path, which brings back the
    reference counting `inlined` avoids."""
    nn = np.uint64(n)
    threshold = (ZERO - nn) % nn
    while True:
        x = next_u64(streams, s)
        if x >= threshold:
            return np.int64(x % nn)


@inlined
def start_game(
    state: np.ndarray, tables: np.ndarray, streams: np.ndarray, seed: int, game: int
) -> None:
    """Set the streams to game `game` of `seed` and deal it (rules.py State.__init__)."""
    init_streams(streams, seed, game)
    deal(state, tables, streams)


@inlined
def deal(state: np.ndarray, tables: np.ndarray, streams: np.ndarray) -> None:
    """Shuffle 0..D-1 on the chance stream, deal, and start the first trick."""
    players = state[PLAYERS]
    d = state[DECK]
    hcap = state[HCAP]
    size = tables[T_HAND_SIZE]
    pile = state[O_PILE]
    for i in range(EVENTS, EVENTS + N_EVENTS):
        state[i] = 0
    for s in range(MAXP):
        state[PROT + s] = 0
        state[CMONEY + s] = 0
        state[CCOUNT + s] = 0
        state[HLEN + s] = 0
        state[TLEN + s] = 0
        state[TWORTH + s] = 0
        state[TMAXM + s] = -1
        state[TMAX2 + s] = -1
    # Shuffle in the pile's own space: cards[0..D) as the engine's list.
    for i in range(d):
        state[pile + i] = i
    shuffle(streams, CHANCE, state[pile : pile + d], d)
    for s in range(players):
        for j in range(size):
            state[HANDS + s * hcap + j] = state[pile + s * size + j]
        state[HLEN + s] = size
    # The rest, reversed: the engine pops its pile from the end, cards[P*size] first.
    rest = d - players * size
    for k in range(rest):
        state[pile + k] = state[pile + players * size + k]
    for k in range(rest >> 1):
        tmp = state[pile + k]
        state[pile + k] = state[pile + rest - 1 - k]
        state[pile + rest - 1 - k] = tmp
    state[PILE_LEN] = rest
    state[QLEN] = 0
    state[QAT] = 0
    state[NEXT_LEADER] = -1
    state[TRICKS] = 0
    state[SOLE] = -1
    first = np.int64(0)
    if tables[T_FIRST_RANDOM] != 0:
        # below() is uint64 when compiled: mixed with int64 it would turn float.
        first = np.int64(below(streams, CHANCE, players))
    state[LEADER] = first
    _start_trick(state, int(first))


@inlined
def current_player(state: np.ndarray) -> int:
    """The seat to act, or -1 when the game is over."""
    phase = state[PHASE]
    if phase == PLAY:
        return state[ORDER + state[TURN]]
    if phase == DASH_CHOICE:
        return state[QSEAT + state[QAT]]
    return -1


@inlined
def legal(state: np.ndarray, tables: np.ndarray, out: np.ndarray) -> int:
    """Fill out[:n] with the legal actions, in the engine's order; return n (0 when over)."""
    phase = state[PHASE]
    if phase == PLAY:
        seat = state[ORDER + state[TURN]]
        base = HANDS + seat * state[HCAP]
        n = state[HLEN + seat]
        copies = tables[T_COPIES]
        m = 0
        for i in range(n):
            card = state[base + i]
            if copies > 1 and _kind_seen(tables, state, base, i, card):
                continue
            out[m] = card
            m += 1
        return m
    if phase == DASH_CHOICE:
        out[0] = PROTECT
        return 1 + _stealable(state, tables, state[QSEAT + state[QAT]], out, 1)
    return 0


@inlined
def apply(state: np.ndarray, tables: np.ndarray, streams: np.ndarray, action: int) -> None:
    """Play `action` (one of `legal`) for the current player; the game runs on to the
    next decision. `streams` is unused after the deal: chance draws only at the start."""
    phase = state[PHASE]
    if phase == PLAY:
        turn = state[TURN]
        seat = state[ORDER + turn]
        base = HANDS + seat * state[HCAP]
        n = state[HLEN + seat]
        _remove_at(state, base, n, _index_of(state, base, n, action))
        state[HLEN + seat] = n - 1
        state[PSEAT + turn] = seat
        state[PCARD + turn] = action
        state[TURN] = turn + 1
        if turn + 1 == state[NORDER]:
            _cancel_and_order(state, tables)
            _resolve(state, tables)
    elif phase == DASH_CHOICE:
        seat = state[QSEAT + state[QAT]]
        _dash(state, tables, seat, action)
        state[QAT] += 1
        state[PHASE] = PLAY
        _resolve(state, tables)


@inlined
def write_record(
    state: np.ndarray, tables: np.ndarray, scores: np.ndarray, events: np.ndarray
) -> int:
    """A finished game's per-seat scores and events (SPEC.events order); returns its length."""
    players = state[PLAYERS]
    tcount = 0
    for s in range(players):
        scores[s] = float(state[CMONEY + s] + tables[T_UNCASHED] * state[TLEN + s])
        tcount += state[TLEN + s]
    for i in range(N_EVENTS):
        events[i] = float(state[EVENTS + i])
    events[E_UNCASHED] = float(tcount)
    return state[TRICKS]


# -- a trick, step by step ------------------------------------------------------------


@inlined
def _kind_seen(tables: np.ndarray, arr: np.ndarray, base: int, upto: int, card: int) -> bool:
    """Whether arr[base : base + upto] holds a copy of `card`."""
    kinds = T_CARDS + KIND * tables[T_DECK]
    kind = tables[kinds + card]
    # Loops, not any(...): compiled code takes no generator expressions.
    for j in range(upto):  # noqa: SIM110
        if tables[kinds + arr[base + j]] == kind:
            return True
    return False


@inlined
def _seat_after(seat: int, k: int, players: int) -> int:
    """(seat + k) % players for 0 <= seat, k < players, without `%`: an integer
    `%` or `//` anywhere in a kernel makes numba keep reference counting (atomic
    calls) around every array passed in its loops, several times slower."""
    s = seat + k
    return s - players if s >= players else s


@inlined
def _u(i: int) -> np.uint64:
    """Index `i` (>= 0) as unsigned, as the heuristic indexes its arrays: numba
    wraps a signed index it can't prove non-negative around (a shift, a mask
    and an add of the array's length, which in a function the size of a
    whole game is often reloaded from the stack), and the heuristic's loads
    are chains of data-dependent indices (a seat, its card, the card's
    effect). Only the index's type changes, never a value read."""
    return np.uint64(i)


@inlined
def _index_of(arr: np.ndarray, base: int, n: int, value: int) -> int:
    for i in range(n):
        if arr[base + i] == value:
            return i
    return -1


@inlined
def _remove_at(arr: np.ndarray, base: int, n: int, i: int) -> None:
    """Remove arr[base + i] of a list of n, keeping the order (list.remove)."""
    for j in range(i, n - 1):
        arr[base + j] = arr[base + j + 1]


@inlined
def _in_plays(arr: np.ndarray, pcard: int, n: int, card: int) -> bool:
    for i in range(n):  # noqa: SIM110
        if arr[pcard + i] == card:
            return True
    return False


@inlined
def _start_trick(state: np.ndarray, leader: int) -> None:
    players = state[PLAYERS]
    anyone = False
    for s in range(players):
        if state[HLEN + s] > 0:
            anyone = True
    if not anyone:
        state[PHASE] = OVER
        return
    while state[HLEN + leader] == 0:
        leader = _seat_after(leader, 1, players)
    state[LEADER] = leader
    n = 0
    for k in range(players):
        seat = _seat_after(leader, k, players)
        if state[HLEN + seat] > 0:
            state[ORDER + n] = seat
            n += 1
    state[NORDER] = n
    state[TURN] = 0
    state[PHASE] = PLAY


@inlined
def sort_out(
    tables: np.ndarray,
    src: np.ndarray,
    pseat: int,
    pcard: int,
    n: int,
    dst: np.ndarray,
    sseat: int,
    scard: int,
) -> tuple[int, int, bool]:
    """Cancelling and order (rules.py sort_out) of the n plays at src[pseat..], src[pcard..].

    Writes the survivors in resolution order to dst[sseat..], dst[scard..] and
    returns (survivors, cards cancelled, whether 猫に小判 fired).
    """
    d = tables[T_DECK]
    col = T_CARDS + COLOUR * d
    num = T_CARDS + NUMBER * d
    lead_colour = tables[col + src[pcard]]
    neko = tables[T_NEKO] != 0 and n - 1 >= tables[T_NEKO_MIN]
    if neko:
        for i in range(1, n):
            if tables[col + src[pcard + i]] == lead_colour:
                neko = False
                break
    first = 0
    cancelled = 0
    dedupe = True
    if neko:
        first = 1
        cancelled = 1
        dedupe = tables[T_NEKO_DEDUPE] != 0
    m = 0
    for i in range(first, n):
        card = src[pcard + i]
        if not neko and tables[col + card] != lead_colour:
            cancelled += 1
            continue
        number = tables[num + card]
        if dedupe:
            same = 0
            for j in range(first, n):
                other = src[pcard + j]
                if (neko or tables[col + other] == lead_colour) and tables[num + other] == number:
                    same += 1
            if same > 1:
                cancelled += 1
                continue
        # Insertion after equal numbers keeps play order among them (a stable sort).
        pos = m
        while pos > 0:
            before = tables[num + dst[scard + pos - 1]]
            if (before > number) if neko else (before < number):
                dst[sseat + pos] = dst[sseat + pos - 1]
                dst[scard + pos] = dst[scard + pos - 1]
                pos -= 1
            else:
                break
        dst[sseat + pos] = src[pseat + i]
        dst[scard + pos] = card
        m += 1
    return m, cancelled, neko


@inlined
def _cancel_and_order(state: np.ndarray, tables: np.ndarray) -> None:
    m, cancelled, neko = sort_out(tables, state, PSEAT, PCARD, state[TURN], state, QSEAT, QCARD)
    if neko:
        state[EVENTS + E_NEKO] += 1
    state[EVENTS + E_CANCELLED] += cancelled
    state[QLEN] = m
    state[QAT] = 0
    state[NEXT_LEADER] = state[QSEAT] if m > 0 else -1


@inlined
def _resolve(state: np.ndarray, tables: np.ndarray) -> None:
    """Resolve queued cards, dispatching on each card's effect, until a dash needs
    a choice or the trick ends."""
    eff = T_CARDS + EFFECT * tables[T_DECK]
    while state[QAT] < state[QLEN]:
        qat = state[QAT]
        seat = state[QSEAT + qat]
        card = state[QCARD + qat]
        effect = tables[eff + card]
        if effect == EFFECT_TERRITORY:
            _land(state, tables, seat, card)
        elif effect == EFFECT_CASH:
            _cash(state, tables, seat)
        elif effect == EFFECT_STEAL_OR_PROTECT:
            if _has_stealable(state, seat):
                state[PHASE] = DASH_CHOICE
                return
            _dash(state, tables, seat, PROTECT)
        state[QAT] = qat + 1
    _end_trick(state, tables)


@inlined
def _land(state: np.ndarray, tables: np.ndarray, seat: int, card: int) -> None:
    """`card` goes to the end of seat's territory, its money into TWORTH/TMAXM/TMAX2."""
    state[state[O_TERR] + seat * state[TCAP] + state[TLEN + seat]] = card
    state[TLEN + seat] += 1
    value = tables[T_CARDS + MONEY * tables[T_DECK] + card]
    state[TWORTH + seat] += value
    state[TMAX2 + seat] = max(state[TMAX2 + seat], min(state[TMAXM + seat], value))
    state[TMAXM + seat] = max(state[TMAXM + seat], value)


@inlined
def _territory_stats(state: np.ndarray, tables: np.ndarray, seat: int) -> None:
    """TWORTH/TMAXM/TMAX2 of seat's territory worked out from its cards."""
    money = T_CARDS + MONEY * tables[T_DECK]
    base = state[O_TERR] + seat * state[TCAP]
    worth = 0
    richest = -1
    second = -1
    for i in range(state[TLEN + seat]):
        value = tables[money + state[base + i]]
        worth += value
        second = max(second, min(richest, value))
        richest = max(richest, value)
    state[TWORTH + seat] = worth
    state[TMAXM + seat] = richest
    state[TMAX2 + seat] = second


@inlined
def _has_stealable(state: np.ndarray, seat: int) -> bool:
    players = state[PLAYERS]
    o_terr, tcap, turn = state[O_TERR], state[TCAP], state[TURN]
    for k in range(1, players):
        victim = _seat_after(seat, k, players)
        if state[PROT + victim] != 0:
            continue
        base = o_terr + victim * tcap
        for i in range(state[TLEN + victim]):
            if not _in_plays(state, PCARD, turn, state[base + i]):
                return True
    return False


@inlined
def _stealable(
    state: np.ndarray, tables: np.ndarray, seat: int, out: np.ndarray, start: int
) -> int:
    """Fill out[start..] with the stealable fish, victims from the next seat on, one
    per (victim, kind of card) (rules.py _stealable); return how many."""
    players = state[PLAYERS]
    o_terr, tcap, turn = state[O_TERR], state[TCAP], state[TURN]
    copies = tables[T_COPIES]
    m = start
    for k in range(1, players):
        victim = _seat_after(seat, k, players)
        if state[PROT + victim] != 0:
            continue
        base = o_terr + victim * tcap
        first = m
        for i in range(state[TLEN + victim]):
            fish = state[base + i]
            if _in_plays(state, PCARD, turn, fish):  # played this trick: never stealable in it
                continue
            if copies > 1 and _kind_seen(tables, out, first, m - first, fish):
                continue
            out[m] = fish
            m += 1
    return m - start


@inlined
def _dash(state: np.ndarray, tables: np.ndarray, seat: int, action: int) -> None:
    if action == PROTECT:
        state[PROT + seat] = 1
        state[EVENTS + E_PROTECTS] += 1
        return
    o_terr, tcap = state[O_TERR], state[TCAP]
    for victim in range(state[PLAYERS]):
        base = o_terr + victim * tcap
        n = state[TLEN + victim]
        i = _index_of(state, base, n, action)
        if i >= 0:
            _remove_at(state, base, n, i)
            state[TLEN + victim] = n - 1
            _territory_stats(state, tables, victim)
            _land(state, tables, seat, action)
            state[EVENTS + E_STEALS] += 1
            return


@inlined
def _cash(state: np.ndarray, tables: np.ndarray, seat: int) -> None:
    money = T_CARDS + MONEY * tables[T_DECK]
    base = state[O_TERR] + seat * state[TCAP]
    n = state[TLEN + seat]
    total = 0
    for i in range(n):
        total += tables[money + state[base + i]]
    state[EVENTS + E_CASH] += 1
    state[EVENTS + E_CASHED] += n
    state[CMONEY + seat] += total
    state[CCOUNT + seat] += n
    state[TLEN + seat] = 0
    state[TWORTH + seat] = 0
    state[TMAXM + seat] = -1
    state[TMAX2 + seat] = -1


@inlined
def _end_trick(state: np.ndarray, tables: np.ndarray) -> None:
    players = state[PLAYERS]
    state[TRICKS] += 1
    for s in range(players):
        state[PROT + s] = 0
    state[QLEN] = 0
    state[QAT] = 0
    _count_lead_change(state)
    if state[NEXT_LEADER] >= 0:
        leader = state[NEXT_LEADER]
    elif tables[T_LEADER_NEXT] == 0:
        leader = state[LEADER]
    else:
        leader = _seat_after(state[LEADER], 1, players)
    pile = state[O_PILE]
    hcap = state[HCAP]
    for k in range(players):
        top = state[PILE_LEN]
        if top == 0:
            break
        seat = _seat_after(leader, k, players)
        state[HANDS + seat * hcap + state[HLEN + seat]] = state[pile + top - 1]
        state[HLEN + seat] += 1
        state[PILE_LEN] = top - 1
    _start_trick(state, leader)


@inlined
def _count_lead_change(state: np.ndarray) -> None:
    """RULES.md §5 (revised): a change is the sole leader passing from one seat to
    another; the first sole leader ever, a tie and no money count nothing."""
    players = state[PLAYERS]
    best = state[CMONEY]
    seat = 0
    count = 1
    for s in range(1, players):
        money = state[CMONEY + s]
        if money > best:
            best, seat, count = money, s, 1
        elif money == best:
            count += 1
    if best <= 0 or count != 1 or seat == state[SOLE]:
        return
    if state[SOLE] >= 0:
        state[EVENTS + E_LEAD] += 1
    state[SOLE] = seat


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
        return _random_move(streams, seat, moves, n)
    if state[PHASE] == PLAY:
        return _heuristic_play(state, tables, params, po, seat, moves, n, iwork, fwork)
    return _heuristic_dash(state, tables, seat, moves, n)


@inlined
def _random_move(streams: np.ndarray, seat: int, moves: np.ndarray, n: int) -> int:
    """RULES.md §4: legal[below(n)] from the seat's own stream."""
    return moves[_below(streams, 1 + seat, n)]


@inlined
def _heuristic_play(
    state: np.ndarray,
    tables: np.ndarray,
    params: np.ndarray,
    po: int,
    seat: int,
    moves: np.ndarray,
    n: int,
    iwork: np.ndarray,
    fwork: np.ndarray,
) -> int:
    """bots.py Heuristic._play: the first card of highest value.

    Python sorts out the whole trick again for every candidate card; here what
    the candidates share is worked out once (`_prepare_play`): each territory's
    money and richest fish, and the trick so far sorted out both ways it can
    go (W_BASE: the lead colour's cards; W_NEKO: the followers, when 猫に小判
    would fire on an off-colour card). A candidate then only places itself in
    one of those lists (`_place`), which gives exactly sort_out's survivors,
    and every off-colour card that 猫に小判 can't save shares one foresight.
    A lead card needs no list: its value has a closed form (`_lead_value`);
    nor does a fish or a cash following when no dash would resolve, where
    order changes nothing and each seat gains from its own card alone
    (`_dashless_place`, `_dashless_value`).
    tests/test_fdc_heuristic_shortcuts.py checks each shortcut against the
    full computation.
    """
    d = tables[T_DECK]
    eff = T_CARDS + EFFECT * d
    col = T_CARDS + COLOUR * d
    turn = state[TURN]
    neko_possible = _prepare_play(state, tables, iwork)
    lead_colour = tables[_u(col + state[PCARD])] if turn > 0 else -1
    best = moves[0]
    best_value = -np.inf
    if turn == 0:
        for i in range(n):
            value = _lead_value(state, tables, params, po, seat, moves[_u(i)], iwork)
            if value > best_value:
                best, best_value = moves[_u(i)], value
        return best
    # Whether W_BASE and W_NEKO hold no dash (then each card's gain is in fwork);
    # one call site each, as every inlined site is compiled again.
    base_dashless = False
    neko_dashless = False
    for which in range(2 if neko_possible else 1):
        wseat, wcard, m, fterm = W_BSEAT, W_BCARD, iwork[W_BLEN], F_BTERM
        if which == 1:
            wseat, wcard, m, fterm = W_NSEAT, W_NCARD, iwork[W_NLEN], F_NTERM
        plain = _dashless_gains(state, tables, params, po, iwork, wseat, wcard, m, fwork, fterm)
        if which == 0:
            base_dashless = plain
        else:
            neko_dashless = plain
    shared = 0.0
    shared_known = False
    for i in range(n):
        card = moves[_u(i)]
        effect = tables[_u(eff + card)]
        in_lead_colour = tables[_u(col + card)] == lead_colour
        mine_survives = False
        # Off colour without 猫に小判: cancelled, and the trick resolves as if it
        # had not been played, the same for every such card.
        off = not neko_possible and not in_lead_colour
        if off and shared_known:
            value = shared
        elif (base_dashless if in_lead_colour or off else neko_dashless) and (
            off or effect != EFFECT_STEAL_OR_PROTECT
        ):
            # No dash resolves: each seat gains from its own card alone.
            mine_survives, removed = False, -1
            if not off:
                mine_survives, removed = _dashless_place(state, tables, card, in_lead_colour, iwork)
            mine = 0.0
            if mine_survives:
                mine = _dashless_gain(state, tables, params, po, seat, card)
            m, fterm = iwork[W_NLEN], F_NTERM
            if in_lead_colour or off:
                m, fterm = iwork[W_BLEN], F_BTERM
            value = _dashless_value(state, params, po, m, removed, mine, fwork, fterm)
        else:
            if off:
                _copy_survivors(iwork, W_BSEAT, W_BCARD, iwork[W_BLEN])
                mine_survives = False
            else:
                mine_survives = _place(state, tables, seat, card, lead_colour, iwork)
            value = _foreseen_value(state, tables, params, po, seat, iwork, fwork)
        if off:
            shared, shared_known = value, True
            value -= params[_u(po + P_COST + effect)]
        elif not mine_survives:
            value -= params[_u(po + P_COST + effect)]
        elif effect == EFFECT_CASH and state[_u(TWORTH + seat)] < params[_u(po + P_CASH_AT)]:
            value -= params[_u(po + P_COST + EFFECT_CASH)]  # too early: keep it for later
        if value > best_value:
            best, best_value = card, value
    return best


@inlined
def _lead_value(
    state: np.ndarray,
    tables: np.ndarray,
    params: np.ndarray,
    po: int,
    seat: int,
    card: int,
    iwork: np.ndarray,
) -> float:
    """bots.py Heuristic._card_value of a lead card, in closed form: it resolves
    alone (猫に小判 needs followers) on territories nothing of this trick has
    touched, so the foresight is one card's gain (a fish's money, a cash of
    TWORTH, a dash's steal of the richest untouched territory's richest fish,
    as `_foresee_few_dashes` picks it) and every other seat's 0.0. The float
    operations are `_foresee`'s and `_foreseen_value`'s, in the same order: each
    gain starts from 0.0, and the best rival is 0.0 unless the only rival is
    the dash's victim."""
    d = tables[T_DECK]
    effect = tables[_u(T_CARDS + EFFECT * d + card)]
    weight = params[_u(po + P_FISH_WEIGHT)]
    mine = 0.0
    rival = 0.0
    if effect == EFFECT_TERRITORY:
        mine += weight * float(tables[_u(T_CARDS + MONEY * d + card)])
    elif effect == EFFECT_CASH:
        mine += (1 - weight) * float(state[_u(TWORTH + seat)])
    elif effect == EFFECT_STEAL_OR_PROTECT:
        players = state[PLAYERS]
        victim = -1
        best_worth, best_money = -1, -1
        for k in range(1, players):
            other = _seat_after(seat, k, players)
            richest = state[_u(TMAXM + other)]
            if state[_u(PROT + other)] != 0 or richest < 0:
                continue
            worth = state[_u(TWORTH + other)]
            if worth > best_worth or (worth == best_worth and richest > best_money):
                victim, best_worth, best_money = other, worth, richest
        if victim >= 0:  # else it protects: nobody gains
            mine += weight * float(best_money)
            if players == 2:
                rival -= weight * float(best_money)
    value = mine - params[_u(po + P_RIVAL_WEIGHT)] * rival
    value *= params[_u(po + P_LEAD_RESOLVES)]
    if effect == EFFECT_CASH and state[_u(TWORTH + seat)] < params[_u(po + P_CASH_AT)]:
        value -= params[_u(po + P_COST + EFFECT_CASH)]  # too early: keep it for later
    return value


@inlined
def _prepare_play(state: np.ndarray, tables: np.ndarray, iwork: np.ndarray) -> bool:
    """What every candidate of `_heuristic_play` shares; returns whether an
    off-colour card would fire 猫に小判.

    (Per seat, the territory's money and its richest and second richest
    card's money are kept in the state, TWORTH/TMAXM/TMAX2: while cards are
    being played, nothing of this trick has landed, so every territory card
    is stealable and those are what a foreseen dash looks at.)
    W_BASE (W_BLEN long): the lead colour's cards of the trick so far with a
    number no other of them has, in descending number order, and the other
    lead-colour cards (W_BCANCELLED of them) from the end of the W_BCARD block
    back (a trick has fewer than MAXP cards, so the two never meet); W_NEKO (W_NLEN):
    the followers so far (numbers unique among them if duplicates cancel), in
    ascending order, play order among equals.
    """
    d = tables[T_DECK]
    col = T_CARDS + COLOUR * d
    turn = state[TURN]
    iwork[W_BLEN] = 0
    iwork[W_NLEN] = 0
    if turn == 0:
        return False
    lead_colour = tables[_u(col + state[PCARD])]
    followers_off = True
    m = 0
    cancelled = 0
    for i in range(turn):
        card = state[_u(PCARD + i)]
        if tables[_u(col + card)] != lead_colour:
            continue
        if i > 0:
            followers_off = False
        if _count_number(tables, state, PCARD, 0, turn, card, lead_colour, True) > 1:
            cancelled += 1
            iwork[_u(W_BCARD + MAXP - cancelled)] = card
            continue
        m = _insert(tables, iwork, W_BSEAT, W_BCARD, m, state[_u(PSEAT + i)], card, False)
    iwork[W_BLEN] = m
    iwork[W_BCANCELLED] = cancelled
    # With the candidate, `turn` followers will have played.
    neko = tables[T_NEKO] != 0 and turn >= tables[T_NEKO_MIN] and followers_off
    if neko:
        dedupe = tables[T_NEKO_DEDUPE] != 0
        m = 0
        for i in range(1, turn):
            card = state[_u(PCARD + i)]
            if dedupe and _count_number(tables, state, PCARD, 1, turn, card, 0, False) > 1:
                continue
            m = _insert(tables, iwork, W_NSEAT, W_NCARD, m, state[_u(PSEAT + i)], card, True)
        iwork[W_NLEN] = m
    return neko


@inlined
def _count_number(
    tables: np.ndarray,
    arr: np.ndarray,
    pcard: int,
    lo: int,
    hi: int,
    card: int,
    colour: int,
    same_colour: bool,
) -> int:
    """How many of arr[pcard + lo .. pcard + hi) have `card`'s number (and, if
    `same_colour`, colour `colour`)."""
    d = tables[T_DECK]
    col = T_CARDS + COLOUR * d
    num = T_CARDS + NUMBER * d
    number = tables[_u(num + card)]
    count = 0
    for j in range(lo, hi):
        other = arr[_u(pcard + j)]
        if tables[_u(num + other)] == number and (
            not same_colour or tables[_u(col + other)] == colour
        ):
            count += 1
    return count


@inlined
def _insert(
    tables: np.ndarray,
    iwork: np.ndarray,
    wseat: int,
    wcard: int,
    m: int,
    seat: int,
    card: int,
    ascending: bool,
) -> int:
    """Insert (seat, card) into the sorted list of m at iwork[wseat..], iwork[wcard..]
    after every equal number (a stable sort: play order among equals); return m + 1."""
    num = T_CARDS + NUMBER * tables[T_DECK]
    number = tables[_u(num + card)]
    pos = m
    while pos > 0:
        before = tables[_u(num + iwork[_u(wcard + pos - 1)])]
        if (before > number) if ascending else (before < number):
            iwork[_u(wseat + pos)] = iwork[_u(wseat + pos - 1)]
            iwork[_u(wcard + pos)] = iwork[_u(wcard + pos - 1)]
            pos -= 1
        else:
            break
    iwork[_u(wseat + pos)] = seat
    iwork[_u(wcard + pos)] = card
    return m + 1


@inlined
def _copy_survivors(iwork: np.ndarray, wseat: int, wcard: int, m: int) -> None:
    """Make iwork[wseat..], iwork[wcard..] (m long) the survivors `_foresee` reads."""
    for i in range(m):
        iwork[_u(W_SSEAT + i)] = iwork[_u(wseat + i)]
        iwork[_u(W_SCARD + i)] = iwork[_u(wcard + i)]
    iwork[W_SLEN] = m


@inlined
def _place(
    state: np.ndarray,
    tables: np.ndarray,
    seat: int,
    card: int,
    lead_colour: int,
    iwork: np.ndarray,
) -> bool:
    """sort_out(trick + (seat, card)) from `_prepare_play`'s lists: the survivors
    into W_SSEAT/W_SCARD (W_SLEN long); returns whether `card` is among them.

    Leading, the card alone resolves (猫に小判 needs a follower). Following in
    the lead colour, 猫に小判 can't fire: the card joins W_BASE unless a lead-
    colour card has its number (then both cancel, the other only if it was
    alone with that number). Off colour, only when 猫に小判 fires (else the
    caller knows it is cancelled): it joins W_NEKO, numbers cancelling alike
    if duplicates cancel.
    """
    d = tables[T_DECK]
    col = T_CARDS + COLOUR * d
    turn = state[TURN]
    if turn == 0:
        iwork[W_SSEAT] = seat
        iwork[W_SCARD] = card
        iwork[W_SLEN] = 1
        return True
    if tables[_u(col + card)] == lead_colour:
        return _place_in_lead_colour(tables, iwork, seat, card)
    same = 0
    if tables[T_NEKO_DEDUPE] != 0:
        same = _count_number(tables, state, PCARD, 1, turn, card, 0, False)
    return _place_in(tables, iwork, W_NSEAT, W_NCARD, iwork[W_NLEN], seat, card, same, True)


# How many lead-colour cards of the trick so far were cancelled (`_prepare_play`).
W_BCANCELLED = W_NLEN + 1


@inlined
def _place_in_lead_colour(tables: np.ndarray, iwork: np.ndarray, seat: int, card: int) -> bool:
    """`_place` of a lead-colour card, in one walk down W_BASE (descending,
    numbers unique): a card there with its number cancels with it (its number
    was alone), one of the cancelled lead-colour cards with its number means it
    alone cancels (the list stays), and otherwise it goes in before the first
    lower number, after every higher one (the order `_insert` gives)."""
    num = T_CARDS + NUMBER * tables[T_DECK]
    number = tables[_u(num + card)]
    m = iwork[W_BLEN]
    p = 0
    while p < m and tables[_u(num + iwork[_u(W_BCARD + p)])] > number:
        iwork[_u(W_SSEAT + p)] = iwork[_u(W_BSEAT + p)]
        iwork[_u(W_SCARD + p)] = iwork[_u(W_BCARD + p)]
        p += 1
    if p < m and tables[_u(num + iwork[_u(W_BCARD + p)])] == number:
        for i in range(p + 1, m):
            iwork[_u(W_SSEAT + i - 1)] = iwork[_u(W_BSEAT + i)]
            iwork[_u(W_SCARD + i - 1)] = iwork[_u(W_BCARD + i)]
        iwork[W_SLEN] = m - 1
        return False
    survives = True
    for j in range(1, iwork[W_BCANCELLED] + 1):
        if tables[_u(num + iwork[_u(W_BCARD + MAXP - j)])] == number:
            survives = False
    at = p
    if survives:
        iwork[_u(W_SSEAT + p)] = seat
        iwork[_u(W_SCARD + p)] = card
        at = p + 1
    for i in range(p, m):
        iwork[_u(W_SSEAT + at + i - p)] = iwork[_u(W_BSEAT + i)]
        iwork[_u(W_SCARD + at + i - p)] = iwork[_u(W_BCARD + i)]
    iwork[W_SLEN] = m + (at - p)
    return survives


@inlined
def _place_in(
    tables: np.ndarray,
    iwork: np.ndarray,
    wseat: int,
    wcard: int,
    m: int,
    seat: int,
    card: int,
    same: int,
    ascending: bool,
) -> bool:
    """The survivors when (seat, card) meets the sorted list at iwork[wseat..]
    whose cards share its number `same` times (0 when duplicates don't cancel)."""
    if same == 0:
        _copy_survivors(iwork, wseat, wcard, m)
        iwork[W_SLEN] = _insert(tables, iwork, W_SSEAT, W_SCARD, m, seat, card, ascending)
        return True
    num = T_CARDS + NUMBER * tables[T_DECK]
    number = tables[_u(num + card)]
    k = 0
    for i in range(m):
        if same == 1 and tables[_u(num + iwork[_u(wcard + i)])] == number:
            continue  # it was alone with that number: the two cancel
        iwork[_u(W_SSEAT + k)] = iwork[_u(wseat + i)]
        iwork[_u(W_SCARD + k)] = iwork[_u(wcard + i)]
        k += 1
    iwork[W_SLEN] = k
    return False


@inlined
def _foreseen_value(
    state: np.ndarray,
    tables: np.ndarray,
    params: np.ndarray,
    po: int,
    seat: int,
    iwork: np.ndarray,
    fwork: np.ndarray,
) -> float:
    """bots.py Heuristic._card_value's `gains[seat] - rival_weight * max(rivals)` for
    the survivors in W_SSEAT/W_SCARD, operation for operation (the same float order)."""
    m = iwork[W_SLEN]
    if not _foresee_few_dashes(state, tables, params, po, m, iwork, fwork):
        _foresee(state, tables, params, po, m, iwork, fwork)
    # max(rivals): equal gains are equal floats (0.0 and -0.0 aside, which give
    # the same value up to its zero's sign, and comparisons ignore that), so a
    # branchless max over the other seats is Python's first-maximal pick.
    players = state[PLAYERS]
    rival = -np.inf
    for k in range(1, players):
        rival = max(rival, fwork[_u(_seat_after(seat, k, players))])
    return fwork[_u(seat)] - params[_u(po + P_RIVAL_WEIGHT)] * rival


@inlined
def _dashless_gain(
    state: np.ndarray, tables: np.ndarray, params: np.ndarray, po: int, seat: int, card: int
) -> float:
    """A fish's or a cash's gain to its owner `seat` in a foreseen trick without a
    dash, as `_foresee_few_dashes` adds it to the seat's 0.0 (0.0 + x is x, up
    to a zero's sign, which no comparison sees): nothing else of the trick
    touches its territory."""
    d = tables[T_DECK]
    weight = params[_u(po + P_FISH_WEIGHT)]
    if tables[_u(T_CARDS + EFFECT * d + card)] == EFFECT_TERRITORY:
        return weight * float(tables[_u(T_CARDS + MONEY * d + card)])
    return (1 - weight) * float(state[_u(TWORTH + seat)])


@inlined
def _dashless_gains(
    state: np.ndarray,
    tables: np.ndarray,
    params: np.ndarray,
    po: int,
    iwork: np.ndarray,
    wseat: int,
    wcard: int,
    m: int,
    fwork: np.ndarray,
    fterm: int,
) -> bool:
    """Whether the list of m at iwork[wseat..], iwork[wcard..] holds no dash; if so
    each card's gain to its owner (`_dashless_gain`) at fwork[fterm..]."""
    eff = T_CARDS + EFFECT * tables[T_DECK]
    for i in range(m):
        card = iwork[_u(wcard + i)]
        if tables[_u(eff + card)] == EFFECT_STEAL_OR_PROTECT:
            return False
        fwork[_u(fterm + i)] = _dashless_gain(state, tables, params, po, iwork[_u(wseat + i)], card)
    return True


@inlined
def _dashless_place(
    state: np.ndarray, tables: np.ndarray, card: int, in_lead_colour: bool, iwork: np.ndarray
) -> tuple[bool, int]:
    """`_place` for a trick without a dash, where order changes nothing: whether
    `card` survives, and the index of the card of W_BASE (in the lead colour)
    or W_NEKO (off it, 猫に小判 firing) that cancels with it (-1: none)."""
    num = T_CARDS + NUMBER * tables[T_DECK]
    number = tables[_u(num + card)]
    if in_lead_colour:
        for i in range(iwork[W_BLEN]):
            if tables[_u(num + iwork[_u(W_BCARD + i)])] == number:
                return False, i  # it was alone with that number: the two cancel
        for j in range(1, iwork[W_BCANCELLED] + 1):
            if tables[_u(num + iwork[_u(W_BCARD + MAXP - j)])] == number:
                return False, -1
        return True, -1
    if tables[T_NEKO_DEDUPE] == 0:
        return True, -1
    same = _count_number(tables, state, PCARD, 1, state[TURN], card, 0, False)
    if same == 0:
        return True, -1
    if same > 1:
        return False, -1
    for i in range(iwork[W_NLEN]):
        if tables[_u(num + iwork[_u(W_NCARD + i)])] == number:
            return False, i
    return False, -1


@inlined
def _dashless_value(
    state: np.ndarray,
    params: np.ndarray,
    po: int,
    m: int,
    removed: int,
    mine: float,
    fwork: np.ndarray,
    fterm: int,
) -> float:
    """`_foreseen_value` of a trick without a dash: the list's cards but
    `removed` resolve, each its owner's (a rival's) whole gain, with `mine` the
    bot's own; rivals without a card gain 0.0. The best rival is the same value
    whatever order max() meets the gains in (0.0 and -0.0 aside, equal to it)."""
    rival = -np.inf
    k = 0
    for i in range(m):
        if i != removed:
            rival = max(rival, fwork[_u(fterm + i)])
            k += 1
    if k < state[PLAYERS] - 1:
        rival = max(rival, 0.0)
    return mine - params[_u(po + P_RIVAL_WEIGHT)] * rival


# `_foresee_few_dashes` keeps, per seat, the money of the richest card a dash
# could take from its territory now (-1: none, or protected) where `_foresee`
# reads the foreseen territories.
W_RICH = W_PROT


@inlined
def _foresee_few_dashes(
    state: np.ndarray,
    tables: np.ndarray,
    params: np.ndarray,
    po: int,
    m: int,
    iwork: np.ndarray,
    fwork: np.ndarray,
) -> bool:
    """`_foresee` without a copy of the territories while at most two dashes
    resolve; False (fwork unfinished) at a third.

    Each seat plays at most one card a trick, so once its own card has resolved
    a territory changes only by being stolen from. Before the first dash,
    territories only grew by landed cards (never stealable this trick) or were
    emptied by a cash: the richest stealable card of each is its richest card
    (TMAXM), or none once cashed. A steal moves that card: the victim's next
    richest is its second richest (TMAX2; the first victim has stolen
    nothing), the thief's the richer of its own and the stolen card. That is
    all a second dash looks at; a dash with no target protects its owner,
    which keeps the second dash out (a protected territory has none: -1).
    Dashes key territories by the foreseen money (W_RUN) and richest card,
    victims from the next seat on, as `_richest_fish` does; only money moves,
    so which of two equal cards is taken changes nothing. The float operations
    are `_foresee`'s, in order.
    """
    players = state[PLAYERS]
    d = tables[T_DECK]
    eff = T_CARDS + EFFECT * d
    money = T_CARDS + MONEY * d
    weight = params[_u(po + P_FISH_WEIGHT)]
    for s in range(players):
        iwork[_u(W_RUN + s)] = state[_u(TWORTH + s)]
        iwork[_u(W_RICH + s)] = -1 if state[_u(PROT + s)] != 0 else state[_u(TMAXM + s)]
        fwork[_u(s)] = 0.0
    dashes = 0
    for i in range(m):
        seat = iwork[_u(W_SSEAT + i)]
        card = iwork[_u(W_SCARD + i)]
        effect = tables[_u(eff + card)]
        if effect == EFFECT_TERRITORY:
            iwork[_u(W_RUN + seat)] += tables[_u(money + card)]
            fwork[_u(seat)] += weight * float(tables[_u(money + card)])
        elif effect == EFFECT_CASH:
            fwork[_u(seat)] += (1 - weight) * float(iwork[_u(W_RUN + seat)])
            iwork[_u(W_RUN + seat)] = 0
            iwork[_u(W_RICH + seat)] = -1
        elif effect == EFFECT_STEAL_OR_PROTECT:
            dashes += 1
            if dashes > 2:
                return False
            victim = -1
            best_worth, best_money = -1, -1
            for k in range(1, players):
                other = _seat_after(seat, k, players)
                richest = iwork[_u(W_RICH + other)]
                if richest < 0:
                    continue
                worth = iwork[_u(W_RUN + other)]
                if worth > best_worth or (worth == best_worth and richest > best_money):
                    victim, best_worth, best_money = other, worth, richest
            if victim < 0:
                iwork[_u(W_RICH + seat)] = -1  # it protects
                continue
            iwork[_u(W_RUN + victim)] -= best_money
            iwork[_u(W_RUN + seat)] += best_money
            iwork[_u(W_RICH + victim)] = state[_u(TMAX2 + victim)]
            if state[_u(PROT + seat)] == 0:  # protected territories stay out of reach
                iwork[_u(W_RICH + seat)] = max(iwork[_u(W_RICH + seat)], best_money)
            fwork[_u(seat)] += weight * float(best_money)
            fwork[_u(victim)] -= weight * float(best_money)
    return True


@inlined
def _foresee(
    state: np.ndarray,
    tables: np.ndarray,
    params: np.ndarray,
    po: int,
    m: int,
    iwork: np.ndarray,
    fwork: np.ndarray,
) -> None:
    """bots.py Heuristic._foresee: fwork[s] = seat s's gain if the m survivors in
    iwork resolve, in order, on a copy of the territories.

    Only asked while cards are being played (nothing of this trick has landed),
    so the copy's played-this-trick cards (unstealable) are exactly those it
    lands itself: each copied card carries that flag (after the territories,
    at W_TERR + P * TCAP), and each territory its money (W_RUN, an exact
    integer, from TWORTH), so a steal neither scans the plays nor re-adds.
    """
    players = state[PLAYERS]
    tcap = state[TCAP]
    o_terr = state[O_TERR]
    fresh = W_TERR + players * tcap
    d = tables[T_DECK]
    eff = T_CARDS + EFFECT * d
    money = T_CARDS + MONEY * d
    weight = params[_u(po + P_FISH_WEIGHT)]
    for s in range(players):
        n = state[_u(TLEN + s)]
        iwork[_u(W_TLEN + s)] = n
        iwork[_u(W_PROT + s)] = state[_u(PROT + s)]
        iwork[_u(W_RUN + s)] = state[_u(TWORTH + s)]
        for i in range(n):
            iwork[_u(W_TERR + s * tcap + i)] = state[_u(o_terr + s * tcap + i)]
            iwork[_u(fresh + s * tcap + i)] = 0
        fwork[_u(s)] = 0.0
    for i in range(m):
        seat = iwork[_u(W_SSEAT + i)]
        card = iwork[_u(W_SCARD + i)]
        effect = tables[_u(eff + card)]
        mine = seat * tcap
        if effect == EFFECT_TERRITORY:
            at = iwork[_u(W_TLEN + seat)]
            iwork[_u(W_TERR + mine + at)] = card
            iwork[_u(fresh + mine + at)] = 1
            iwork[_u(W_TLEN + seat)] = at + 1
            iwork[_u(W_RUN + seat)] += tables[_u(money + card)]
            fwork[_u(seat)] += weight * float(tables[_u(money + card)])
        elif effect == EFFECT_CASH:
            fwork[_u(seat)] += (1 - weight) * float(iwork[_u(W_RUN + seat)])
            iwork[_u(W_TLEN + seat)] = 0
            iwork[_u(W_RUN + seat)] = 0
        elif effect == EFFECT_STEAL_OR_PROTECT:
            victim, at = _richest_foreseen(tables, iwork, fresh, tcap, players, seat)
            if victim < 0:
                iwork[_u(W_PROT + seat)] = 1
                continue
            theirs = victim * tcap
            fish = iwork[_u(W_TERR + theirs + at)]
            n = iwork[_u(W_TLEN + victim)]
            _remove_at(iwork, W_TERR + theirs, n, at)
            _remove_at(iwork, fresh + theirs, n, at)
            iwork[_u(W_TLEN + victim)] = n - 1
            mine_at = iwork[_u(W_TLEN + seat)]
            iwork[_u(W_TERR + mine + mine_at)] = fish
            iwork[_u(fresh + mine + mine_at)] = 0  # stolen, not played this trick
            iwork[_u(W_TLEN + seat)] = mine_at + 1
            worth = tables[_u(money + fish)]
            iwork[_u(W_RUN + victim)] -= worth
            iwork[_u(W_RUN + seat)] += worth
            fwork[_u(seat)] += weight * float(worth)
            fwork[_u(victim)] -= weight * float(worth)


@inlined
def _richest_foreseen(
    tables: np.ndarray, iwork: np.ndarray, fresh: int, tcap: int, players: int, seat: int
) -> tuple[int, int]:
    """`_richest` on `_foresee`'s copy: territory money from W_RUN, played cards by flag."""
    money = T_CARDS + MONEY * tables[T_DECK]
    best_victim, best_at = -1, -1
    best_worth, best_money = -1, -1
    for k in range(1, players):
        victim = _seat_after(seat, k, players)
        worth = iwork[_u(W_RUN + victim)]
        # (worth, money) beats the best only if worth is at least the best's.
        if iwork[_u(W_PROT + victim)] != 0 or worth < best_worth:
            continue
        base = victim * tcap
        for i in range(iwork[_u(W_TLEN + victim)]):
            if iwork[_u(fresh + base + i)] != 0:
                continue
            value = tables[_u(money + iwork[_u(W_TERR + base + i)])]
            if worth > best_worth or value > best_money:
                best_victim, best_at = victim, i
                best_worth, best_money = worth, value
    return best_victim, best_at


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
        victim = _seat_after(seat, k, players)
        worth = state[_u(TWORTH + victim)]
        # (worth, money) beats the best only if worth is at least the best's.
        if state[_u(PROT + victim)] != 0 or worth < best_worth:
            continue
        base = o_terr + victim * tcap
        for i in range(state[_u(TLEN + victim)]):
            fish = state[_u(base + i)]
            if _in_plays(state, PCARD, turn, fish):
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
        if not _in_plays(state, PCARD, turn, fish):
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


# -- a chunk of games -----------------------------------------------------------------


@outermost
def _play_games(
    tables: np.ndarray,
    kinds: np.ndarray,
    params: np.ndarray,
    seed: int,
    start: int,
    stop: int,
    rotate: bool,
    start_rotation: int,
    state: np.ndarray,
    streams: np.ndarray,
    moves: np.ndarray,
    iwork: np.ndarray,
    fwork: np.ndarray,
    scores: np.ndarray,
    length: np.ndarray,
    events: np.ndarray,
    held: np.ndarray,
    words: int,
) -> None:
    """engine.py _play for games start..stop-1: a forced move is played without
    asking its bot (and without a draw from its stream). held[g] gets the kinds
    each seat was dealt (card impact), `words` a seat."""
    players = tables[T_PLAYERS]
    # The slot at seat 0 of game `game` is game % players when seats rotate;
    # counted along, since an integer `%` in here would slow every move.
    rotation = start_rotation - 1
    for game in range(start, stop):
        rotation = rotation + 1 if rotation + 1 < players else 0
        start_game(state, tables, streams, seed, game)
        row = game - start
        _held_at_deal(state, tables, held[row], words)
        while state[PHASE] != OVER:
            n = legal(state, tables, moves)
            if n == 1:
                action = moves[0]
            else:
                seat = current_player(state)
                slot = _seat_after(seat, rotation, players) if rotate else seat
                action = _choose(
                    state, tables, streams, kinds[slot], params, slot * N_PARAMS,
                    moves, n, iwork, fwork,
                )  # fmt: skip
            apply(state, tables, streams, action)
        length[row] = write_record(state, tables, scores[row], events[row])


# =============================================================================
# Stepping: the game played on to the next decision made outside the kernel
# =============================================================================
#
# A plugin bot (sim/kernel_step.py), or a search bot's rollouts, needs the
# compiled game stepped from any position, handing control back only at the
# decisions it makes itself. A *step plan* says, per physical seat, which
# compiled bot plays it (BOT_RANDOM, BOT_HEURISTIC) or that its decisions are
# made outside (BOT_OUTSIDE); `advance_to_outside` plays every forced move and
# every compiled seat's move until an outside seat has a choice or the game
# ends, exactly as `_play_games` would have played them.

BOT_OUTSIDE = -1
"""A seat's kind in a step plan: its decisions (of two moves or more) are made outside."""

# The plan, int64: the kind of physical seat s at PLAN_KIND + s, the offset of
# its parameter row in `params` (see `_choose`) at PLAN_PARAMS + s.
PLAN_KIND, PLAN_PARAMS = 0, MAXP
PLAN_SIZE = 2 * MAXP


def new_cashed(state: np.ndarray) -> np.ndarray:
    """The cashed-cards record of states shaped like `state` (`note_cashed`): seat s's
    count at s, its cards, in the order cashed, at MAXP + s * D."""
    return np.zeros(MAXP + MAXP * int(state[DECK]), np.int64)


def cashed_of(py: fdc.State) -> np.ndarray:
    """`new_cashed` filled from a Python `State`'s cashed cards (to step from its position)."""
    d = py.deck.size
    cashed = np.zeros(MAXP + MAXP * d, np.int64)
    for s, cards in enumerate(py.cashed):
        cashed[s] = len(cards)
        cashed[MAXP + s * d : MAXP + s * d + len(cards)] = cards
    return cashed


@inlined
def note_cashed(state: np.ndarray, cashed: np.ndarray) -> None:
    """Record the cards just cashed, which the state keeps only as money and count;
    called after every `apply`. A cash empties its owner's territory by setting
    its length to 0, and nothing lands there again before `apply` returns (the
    owner's one card of the trick was the cash, and a steal needs a decision),
    so the cards cashed are still at the territory's start."""
    d = state[DECK]
    o_terr, tcap = state[O_TERR], state[TCAP]
    for s in range(state[PLAYERS]):
        seen = cashed[s]
        now = state[CCOUNT + s]
        if now != seen:
            base = o_terr + s * tcap
            dst = MAXP + s * d + seen
            for j in range(now - seen):
                cashed[dst + j] = state[base + j]
            cashed[s] = now


@inlined
def advance_to_outside(
    state: np.ndarray,
    tables: np.ndarray,
    streams: np.ndarray,
    plan: np.ndarray,
    params: np.ndarray,
    moves: np.ndarray,
    iwork: np.ndarray,
    fwork: np.ndarray,
    cashed: np.ndarray,
) -> int:
    """Play on from the current position to the next outside decision: forced
    moves without asking (and without a draw), compiled seats by `_choose`.

    Returns n >= 2 with the outside seat's legal moves in moves[:n] (the
    engine's order; `current_player` is the seat), or 0 when the game is over.
    `cashed` (`new_cashed`, or an empty array: not kept) records cashed cards.
    """
    keep = cashed.shape[0] > 0
    while state[PHASE] != OVER:
        n = legal(state, tables, moves)
        if n == 1:
            action = moves[0]
        else:
            seat = current_player(state)
            kind = plan[PLAN_KIND + seat]
            if kind == BOT_OUTSIDE:
                return n
            action = _choose(
                state, tables, streams, kind, params, plan[PLAN_PARAMS + seat],
                moves, n, iwork, fwork,
            )  # fmt: skip
        apply(state, tables, streams, action)
        if keep:
            note_cashed(state, cashed)
    return 0


# One int64 buffer holds every array of a stepped game, so the call Python
# makes at each outside decision passes one array (numba checks each argument
# it is handed: ten arrays cost about 2 µs a call, one about 0.5). Its header
# is (start, stop) of each block; the uint64 streams and the float64 blocks
# are the buffer's bytes seen as those types.
B_STATE, B_TABLES, B_MOVES, B_IWORK, B_PLAN, B_CASHED = 0, 2, 4, 6, 8, 10
B_STREAMS, B_PARAMS, B_FWORK, B_HELD = 12, 14, 16, 18
B_AHEAD = 20  # the first AHEAD numbers of each outside seat's bot stream, drawn at the deal
B_HELD_WORDS = 22  # GameRecord.held's words per seat
B_HEADER = 23
AHEAD = 48
"""Numbers of an outside seat's bot stream drawn ahead at the deal, for its plugin's
rng (sim/kernel_step.py): a Python draw costs a microsecond of big-integer arithmetic,
a compiled one nanoseconds. About a game's worth of a uniform plugin's draws at five
players; more are drawn by the plugin's rng itself."""

STEP_ON, STEP_APPLY, STEP_DEAL = 0, 1, 2  # step()'s modes


@outermost
def step(buf: np.ndarray, mode: int, action: int, seed: int, game: int) -> int:
    """Python's entry to `advance_to_outside` over a step buffer (`StepGame` makes it).

    `mode` STEP_DEAL first deals game `game` of `seed` (streams, cashed record
    and the held-kinds words reset); STEP_APPLY first plays `action` for the
    outside seat to act; STEP_ON only plays on. Returns n * 8 + seat at an
    outside decision (n >= 2 moves in the moves block, seat to act), or 0
    when the game is over.
    """
    state, tables, moves = block(buf, B_STATE), block(buf, B_TABLES), block(buf, B_MOVES)
    iwork, plan, cashed = block(buf, B_IWORK), block(buf, B_PLAN), block(buf, B_CASHED)
    streams = stream_block(buf, B_STREAMS)
    params = block(buf, B_PARAMS).view(np.float64)
    fwork = block(buf, B_FWORK).view(np.float64)
    if mode == STEP_DEAL:
        start_game(state, tables, streams, seed, game)
        held = block(buf, B_HELD).view(np.uint64)
        _deal_records(state, tables, cashed, held, buf[B_HELD_WORDS])
        kinds = plan[PLAN_KIND : PLAN_KIND + state[PLAYERS]]
        draw_ahead(streams, kinds, BOT_OUTSIDE, block(buf, B_AHEAD).view(np.uint64), AHEAD)
    elif mode == STEP_APPLY:
        apply(state, tables, streams, action)
        if cashed.shape[0] > 0:
            note_cashed(state, cashed)
    n = advance_to_outside(state, tables, streams, plan, params, moves, iwork, fwork, cashed)
    if n == 0:
        return 0
    return n * 8 + current_player(state)


@inlined
def _deal_records(
    state: np.ndarray, tables: np.ndarray, cashed: np.ndarray, held: np.ndarray, words: int
) -> None:
    """After a deal: nothing cashed yet, and the held kinds of the hands dealt."""
    for i in range(cashed.shape[0]):
        cashed[i] = 0
    _held_at_deal(state, tables, held, words)


@inlined
def _held_at_deal(state: np.ndarray, tables: np.ndarray, held: np.ndarray, words: int) -> None:
    """GameRecord.held (games/api.py pack_held) of the hands just dealt, `words` per
    seat, into held[:players * words]: set bit by bit here, where the hands are,
    rather than from a copy of every hand after the chunk (a numpy pass that cost
    about a tenth of a random game)."""
    players = state[PLAYERS]
    for i in range(players * words):
        held[i] = ZERO
    kinds = T_CARDS + KIND * tables[T_DECK]
    hcap = state[HCAP]
    for s in range(players):
        for j in range(state[HLEN + s]):
            kind = tables[kinds + state[HANDS + s * hcap + j]]
            w = s * words + (kind >> 6)
            held[w] = held[w] | (np.uint64(1) << np.uint64(kind & 63))


class StepGame(StepBuffer):
    """Games of one (rules, players) stepped from Python, one after another in one buffer.

    `slots[j]` is bot slot j's compiled bot, (name, parameters), or None for a
    slot whose decisions are made outside (a plugin). Each game is dealt with
    `deal(seed, game, seat_slots)` (seat_slots[s]: the slot sitting at physical
    seat s); `deal` and `play` return the step code of `step` (n * 8 + seat
    at an outside decision, 0 at the end); `legal(code)` is that decision's
    moves as the Python engine lists them (Python ints, its order), `view(seat)`
    the seat's View exactly as `rules.State.view` gives it, and `record()` the
    finished game's GameRecord, held kinds included.
    """

    def _build(self) -> None:
        rules, players, slots = self.rules, self.players, self.slots
        self._deck, self._money = fdc._tables(rules)  # the engine's own objects, for views
        self._uncashed = rules["uncashed_value"]
        self._fish = frozenset(c for c in range(self._deck.size) if self._deck.role[c] == fdc.FISH)
        tables = make_tables(rules, players)
        state = new_state(tables)
        iwork, fwork = new_work(state)
        params = np.zeros(players * N_PARAMS, np.float64)
        for j, slot in enumerate(slots):
            if slot is not None:
                params[j * N_PARAMS : (j + 1) * N_PARAMS] = bot_params(slot[0], slot[1])
        words = held_words(self._deck.size // self._deck.copies)
        kinds = [BOT_OUTSIDE if slot is None else BOT_KINDS[slot[0]] for slot in slots]
        self._plans_for(kinds, N_PARAMS, PLAN_KIND, PLAN_PARAMS, PLAN_SIZE)
        blocks = [
            state,
            tables,
            new_legal(state),
            iwork,
            np.zeros(PLAN_SIZE, np.int64),
            new_cashed(state),
            new_streams(players).view(np.int64).ravel(),
            params.view(np.int64),
            fwork.view(np.int64),
            np.zeros(players * words, np.int64),
            np.zeros(players * AHEAD, np.int64),
        ]
        assert len(blocks) * 2 == B_HELD_WORDS  # block i's (start, stop) at 2i, 2i + 1
        self._pack(blocks, B_HEADER)
        self.buf[B_HELD_WORDS] = words
        block = self._block

        # Views of the buffer, for reading (and the plan for writing) from Python.
        self.state = block(B_STATE)
        self.tables = block(B_TABLES)
        # Sliced and listed at every decision: a memoryview is the quickest to.
        self.moves = memoryview(block(B_MOVES))  # type: ignore[arg-type]
        self.plan = block(B_PLAN)
        self.cashed = block(B_CASHED)
        self.held = block(B_HELD).view(np.uint64)
        self.streams = block(B_STREAMS).view(np.uint64).reshape(players + 1, 2)
        self.ahead = block(B_AHEAD).view(np.uint64)  # AHEAD per seat, after each deal

    # The entry `deal` and `play` call; a loop that writes `play` out (sim/kernel_step.py)
    # calls step(buf, STEP_APPLY, action, 0, 0) itself.
    step = staticmethod(step)
    STEP_DEAL = STEP_DEAL
    STEP_APPLY = STEP_APPLY
    STEP_ON = STEP_ON

    def load(self, py: fdc.State, seat_slots: Sequence[int], seed: int, game: int) -> int:
        """Step from a Python `State`'s position (any, e.g. `State.arranged` or a game
        mid-way), compiled seats drawing from game `game` of `seed`'s bot streams from
        their start; plays on to the first outside decision. Its held kinds are unknown
        (zero), as `from_state` knows no deal."""
        self._check_position(
            py.players, py.rules is self.rules or dict(py.rules) == dict(self.rules)
        )
        state = self.state
        hcap, tcap = int(state[HCAP]), int(state[TCAP])
        if max(len(h) for h in py.hands) > hcap:
            raise ValueError(f"a hand of the position holds more than {hcap} cards")
        other, _ = from_state(py)
        layout = state[PLAYERS : DECK + 1].copy()  # this buffer's own block offsets
        state[:HANDS] = other[:HANDS]
        state[PLAYERS : DECK + 1] = layout
        o_terr, o_pile = int(state[O_TERR]), int(state[O_PILE])
        for k in range(self.players):  # the lists, laid out as this buffer lays them
            state[HANDS + k * hcap : HANDS + k * hcap + len(py.hands[k])] = py.hands[k]
            state[o_terr + k * tcap : o_terr + k * tcap + len(py.territory[k])] = py.territory[k]
        state[o_pile : o_pile + len(py.pile)] = py.pile
        self.cashed[:] = cashed_of(py)
        self.held[:] = 0
        # fdc draws chance only at the deal: the State keeps no stream to go on from.
        return self._play_on_from(seat_slots, seed, game, None)

    def view(self, seat: int) -> fdc.View:
        """`rules.State.view(seat)` of the position, field for field."""
        s: list[int] = self.state.tolist()
        players, hcap, tcap, o_terr = s[PLAYERS], s[HCAP], s[TCAP], s[O_TERR]
        phase, turn = s[PHASE], s[TURN]
        hand = HANDS + seat * hcap
        territories = tuple(
            tuple(s[o_terr + k * tcap : o_terr + k * tcap + s[TLEN + k]]) for k in range(players)
        )
        mine = MAXP + seat * self._deck.size
        dash = phase == DASH_CHOICE
        to_resolve: tuple[tuple[int, int], ...] = ()
        if dash:  # the cards still to resolve after this dash
            qat, qlen = s[QAT], s[QLEN]
            queue = s[QSEAT + qat + 1 : QSEAT + qlen], s[QCARD + qat + 1 : QCARD + qlen]
            to_resolve = tuple(zip(*queue, strict=True))
        # The engine's fish played this trick: set when the trick's plays are
        # sorted out, emptied when it ends, so only a dash choice sees any.
        played = [c for c in s[PCARD : PCARD + turn] if c in self._fish] if dash else ()
        return fdc._new_view(
            seat,
            phase,
            tuple(s[hand : hand + s[HLEN + seat]]),
            s[LEADER],
            tuple(zip(s[PSEAT : PSEAT + turn], s[PCARD : PCARD + turn], strict=True)),
            territories,
            tuple(s[CCOUNT : CCOUNT + players]),
            tuple(self.cashed[mine : mine + self.cashed[seat]].tolist()),
            tuple(s[HLEN : HLEN + players]),
            s[PILE_LEN],
            to_resolve,
            tuple(k for k in range(players) if s[PROT + k]),
            frozenset(played),
            s[TRICKS],
            self.rules,
            self._deck,
            self._money,
        )

    def record(self) -> GameRecord:
        """The finished game's record, as `rules.State.record` gives it (held kinds too)."""
        s: list[int] = self.state[:HANDS].tolist()  # the header and per-seat blocks hold it all
        players, extra = s[PLAYERS], self._uncashed
        events = dict(zip(fdc.EVENTS, s[EVENTS : EVENTS + N_EVENTS], strict=True))
        events["fish_uncashed_at_end"] = sum(s[TLEN : TLEN + players])
        return GameRecord(
            tuple(float(s[CMONEY + k] + extra * s[TLEN + k]) for k in range(players)),
            s[TRICKS],
            events,
            tuple(self.held.tolist()),
        )
