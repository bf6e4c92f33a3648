"""The arrays a Fish! Dash! Cash! kernel works on: their layouts and codes, and the
jit flavours its kernels compile with.


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
"""

from __future__ import annotations

from typing import Any

from balancer import jit
from balancer.games.fdc import engine as fdc

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


BOT_OUTSIDE = -1
"""A seat's kind in a step plan: its decisions (of two moves or more) are made outside."""

# The plan, int64: the kind of physical seat s at PLAN_KIND + s, the offset of
# its parameter row in `params` (see `_choose`) at PLAN_PARAMS + s.
PLAN_KIND, PLAN_PARAMS = 0, MAXP
PLAN_SIZE = 2 * MAXP
