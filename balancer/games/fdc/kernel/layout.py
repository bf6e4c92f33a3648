"""The arrays a Fish! Dash! Cash! kernel works on: their layouts and codes, and the
jit flavours its kernels compile with.


The trick's words and the jit flavours are the trick procedure's
(games/trick/kernel/layout.py); fdc names its own in the slots it leaves.

Tables, int64 (`make_tables`): the trick's header, then fdc's words from T_GAME
(T_UNCASHED, T_TERRITORY_CARDS), and five per-card columns of length D (deck
size) from `T_CARDS`: the trick's colour, number and kind (card // copies:
copies share a kind), and fdc's two (trick's GAME_COLUMNS): the card's effect
and its money when cashed (by `cash_value`), at `T_CARDS + k * D`.

State, int64, self-describing (`new_state`; P players, HCAP hand capacity,
TCAP territory capacity, D deck size):

    [0, 24)                 header: the trick's PHASE, LEADER, TURN (= cards
                            played this trick), NORDER, NEXT_LEADER, TRICKS,
                            PILE_LEN, PLAYERS, HCAP, O_TERR (the trick's
                            O_GAME: the territories), O_PILE, DECK; fdc's
                            QLEN, QAT, SOLE (sole money leader, -1 none), TCAP
                            in the trick's GAME_WORDS, and the eight events
                            (SPEC.events order) from EVENTS (its GAME_HEADER)
    ORDER   [24, 30)        seats playing this trick, leader first
    PSEAT, PCARD            the trick's plays so far, in play order
    QSEAT, QCARD            surviving plays in resolution order (the trick's
                            SURVIVOR_SEAT/_CARD; QAT..QLEN-1 to go)
    PROT                    1 if the seat is protected this trick
    CMONEY, CCOUNT          per seat: money cashed, and how many cards cashed
    HLEN, TLEN              per seat: hand (the trick's) and territory lengths
    TWORTH, TMAXM, TMAX2    per seat: its territory's money, its richest and second
                            richest card's money (-1: none), kept as cards land,
                            are stolen and are cashed (`_territory_stats`): the
                            heuristic reads them at every decision
    HANDS   [102, O_TERR)   hand of seat s at HANDS + s * HCAP, in the engine's order
    O_TERR  [.., O_PILE)    territory of seat s at O_TERR + s * TCAP, in order
    O_PILE  [.., +D)        the draw pile; the top card is pile[PILE_LEN - 1]

(the thirteen per-seat blocks are MAXP = 6 wide whatever P is; PROT..TMAX2 but
HLEN are the trick's GAME_BLOCKS). Cashed cards are kept only as money and
count: nothing in the game reads which they were.
"""

from __future__ import annotations

import os

from balancer import jit
from balancer.games.fdc import engine as fdc
from balancer.games.trick.kernel import layout as trick

# The trick procedure's words and jit flavours are fdc's too: its modules import them
# from here.
from balancer.games.trick.kernel.layout import *  # noqa: F403

# The kernels inline the trick procedure's: an edit there must recompile them too
# (numba's cache stamps a kernel package by its own files).
jit.stamp_with(os.path.dirname(__file__), os.path.dirname(trick.__file__))

# -- effects, phases, actions ---------------------------------------------------

EFFECT_TERRITORY = 0
EFFECT_STEAL_OR_PROTECT = 1
EFFECT_CASH = 2
N_EFFECTS = 3
ROLE_EFFECTS = {"fish": EFFECT_TERRITORY, "dash": EFFECT_STEAL_OR_PROTECT, "cash": EFFECT_CASH}

PROTECT = fdc.PROTECT
PLAY, DASH_CHOICE, OVER = fdc.PLAY, fdc.DASH_CHOICE, fdc.OVER  # the trick's phases

# -- the state layout: fdc's words in the trick's slots ------------------------------

QLEN, QAT, SOLE, TCAP = trick.GAME_WORDS
O_TERR = trick.O_GAME  # the territories are fdc's own region
EVENTS = trick.GAME_HEADER
N_EVENTS = len(fdc.EVENTS)
E_NEKO, E_CANCELLED, E_STEALS, E_PROTECTS, E_CASH, E_CASHED, E_UNCASHED, E_LEAD = range(8)
QSEAT, QCARD = trick.SURVIVOR_SEAT, trick.SURVIVOR_CARD  # the resolution queue
PROT, CMONEY, CCOUNT, TLEN, TWORTH, TMAXM, TMAX2 = trick.GAME_BLOCKS

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
assert fdc.SPEC.max_players <= trick.MAXP and N_EVENTS <= trick.GAME_HEADER_WORDS

# -- the tables layout ------------------------------------------------------------

T_UNCASHED = trick.T_GAME
T_TERRITORY_CARDS = T_UNCASHED + 1  # cards with EFFECT_TERRITORY: no territory holds more
EFFECT, MONEY = trick.GAME_COLUMNS  # fdc's per-card columns

# -- bots: kinds, parameters, work arrays -----------------------------------------

BOT_HEURISTIC = 1  # after the trick's BOT_RANDOM
BOT_KINDS = {"random": trick.BOT_RANDOM, "heuristic": BOT_HEURISTIC}
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
F_GAIN, F_BTERM, F_NTERM = 0, trick.MAXP, 2 * trick.MAXP
F_SIZE = 3 * trick.MAXP


BOT_OUTSIDE = -1
"""A seat's kind in a step plan: its decisions (of two moves or more) are made outside."""

# The plan is the trick's (PLAN_KIND, PLAN_PARAMS: the offset of a seat's parameter
# row in `params`, see `_choose`).
