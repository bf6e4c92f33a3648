"""The arrays every compiled game on the trick procedure works on: the words the
procedure owns, the slots it leaves to the game, and the jit flavours its kernels
compile with.

Fish! Dash! Cash!'s kernel (games/fdc/kernel/) and the role games' (games/roles/
kernel/) lay their arrays out on this: the trick's words are where this module
says, and a game names its own words in the slots it leaves free (GAME_*). The
words keep the places fdc's kernel gave them before the procedure had a package
of its own (so every game plays and reads its arrays as before), which is why
the game's slots sit between the trick's words rather than after them.

Tables, int64 (a game's `make_tables`):

    [0, 9)            the procedure's knobs: T_PLAYERS, T_DECK, T_COPIES,
                      T_HAND_SIZE, T_FIRST_RANDOM, T_NEKO, T_NEKO_MIN,
                      T_NEKO_DEDUPE, T_LEADER_NEXT
    [T_GAME, T_CARDS) the game's own header words (fdc: none; a role game: its
                      counts and its program's directory)
    [T_CARDS, +5D)    per-card columns of length D (deck size), column k at
                      T_CARDS + k * D: COLOUR, NUMBER and KIND (card // copies:
                      copies share a kind) are the procedure's; GAME_COLUMNS
                      the game's (fdc: a card's effect and money; a role game:
                      its role, and one unused)

State, int64 (P players, HCAP hand capacity, D deck size; per-seat blocks are
MAXP wide whatever P is):

    header [0, 16)    PHASE, LEADER, TURN (cards played this trick), NORDER,
                      NEXT_LEADER (the first card resolved's owner, -1 none),
                      TRICKS, PILE_LEN, PLAYERS, HCAP, O_GAME (where the game's
                      own region starts, wherever the game puts it), O_PILE,
                      DECK; GAME_WORDS are the game's
    [16, 24)          GAME_HEADER: the game's (fdc's events)
    ORDER             seats playing this trick, leader first
    PSEAT, PCARD      the trick's plays so far, in play order
    SURVIVOR_SEAT/_CARD  the trick's surviving plays in resolution order (`sort_out`)
    GAME_BLOCKS       seven per-seat blocks of the game's, three before HLEN
                      and four after it (fdc's protection, money, territories;
                      a role game leaves them unused)
    HLEN              per seat: hand length
    HANDS [102, ...)  hand of seat s at HANDS + s * HCAP, in the engine's order
    O_PILE            the draw pile, D words where the game lays it (after fdc's
                      territories; right after the hands in a role game); the
                      top card is pile[PILE_LEN - 1]
"""

from __future__ import annotations

from typing import Any

from balancer import jit
from balancer.games.trick.procedure import CHOICE, OVER, PLAY

# What a game's layout takes from here (`import *` there).
__all__ = [
    "BOT_RANDOM",
    "CHOICE",
    "COLOUR",
    "DECK",
    "GAME_BLOCKS",
    "GAME_COLUMNS",
    "GAME_HEADER",
    "GAME_HEADER_WORDS",
    "GAME_WORDS",
    "HANDS",
    "HCAP",
    "HLEN",
    "KIND",
    "LEADER",
    "MAXP",
    "N_COLUMNS",
    "NEXT_LEADER",
    "NORDER",
    "NUMBER",
    "O_GAME",
    "O_PILE",
    "ORDER",
    "OVER",
    "PCARD",
    "PHASE",
    "PILE_LEN",
    "PLAN_KIND",
    "PLAN_PARAMS",
    "PLAN_SIZE",
    "PLAY",
    "PLAYERS",
    "PSEAT",
    "SURVIVOR_CARD",
    "SURVIVOR_SEAT",
    "T_CARDS",
    "T_COPIES",
    "T_DECK",
    "T_FIRST_RANDOM",
    "T_GAME",
    "T_HAND_SIZE",
    "T_LEADER_NEXT",
    "T_NEKO",
    "T_NEKO_DEDUPE",
    "T_NEKO_MIN",
    "T_PLAYERS",
    "TRICKS",
    "TURN",
    "inlined",
    "outermost",
]

MAXP = 6  # the most seats any game on the procedure seats: every per-seat block's width

# -- the state: the procedure's words, and the game's slots among them -------------------

PHASE, LEADER, TURN, NORDER, NEXT_LEADER, TRICKS = 0, 1, 2, 3, 6, 7
PILE_LEN, PLAYERS, HCAP, O_GAME, O_PILE, DECK = 9, 10, 11, 13, 14, 15
GAME_WORDS = (4, 5, 8, 12)  # header words the procedure leaves to the game
GAME_HEADER, GAME_HEADER_WORDS = 16, 8  # the game's block of header words
ORDER = GAME_HEADER + GAME_HEADER_WORDS
PSEAT = ORDER + MAXP
PCARD = PSEAT + MAXP
SURVIVOR_SEAT = PCARD + MAXP
SURVIVOR_CARD = SURVIVOR_SEAT + MAXP
# The game's per-seat blocks: three before HLEN, four after it.
GAME_BLOCKS = tuple(SURVIVOR_CARD + MAXP * k for k in (1, 2, 3, 5, 6, 7, 8))
HLEN = SURVIVOR_CARD + 4 * MAXP
HANDS = GAME_BLOCKS[-1] + MAXP

# -- the tables -------------------------------------------------------------------------

T_PLAYERS, T_DECK, T_COPIES, T_HAND_SIZE, T_FIRST_RANDOM = 0, 1, 2, 3, 4
T_NEKO, T_NEKO_MIN, T_NEKO_DEDUPE, T_LEADER_NEXT = 5, 6, 7, 8
T_GAME = 9  # the game's header words start here
# Room for a game's header words at fixed places (a role game keeps its program's
# directory there, so finding a block of its state is one load, not two).
T_CARDS = 64
COLOUR, NUMBER, KIND = 0, 2, 4  # column k of the per-card tables
GAME_COLUMNS = (1, 3)  # the game's two per-card columns
N_COLUMNS = 5

# -- bots: the random bot every game has, and a step plan -------------------------------

BOT_RANDOM = 0  # RULES.md §4's random bot: each game's bot kind 0 (random_bot.py)
# The plan, int64: the kind of physical seat s at PLAN_KIND + s, the offset of its
# parameter row at PLAN_PARAMS + s.
PLAN_KIND, PLAN_PARAMS = 0, MAXP
PLAN_SIZE = 2 * MAXP

# -- jit flavours -------------------------------------------------------------------------

# Numba keeps atomic reference counts on every array a compiled function is
# handed whenever a call or an exception path lies in between: about 60 ns a
# call in fdc's kernel, most of what a move costs. So kernels are inlined into
# their compiled callers at numba-IR level (`inline="always"`), and integer `%`
# is compiled without Python's ZeroDivisionError path (`error_model="numpy"`; no
# kernel divides by a value that can be 0). Plain Python when jit is off.
_FAST: dict[str, Any] = {"error_model": "numpy", "_nrt": False}

inlined = jit.njit(inline="always", **_FAST)
"""A kernel inlined into its compiled callers."""

outermost = jit.njit(**_FAST)
"""A kernel that is only called from Python."""

assert (PLAY, CHOICE, OVER) == (0, 1, 2)
assert (ORDER, HLEN, HANDS) == (24, 72, 102)  # where fdc's kernel always had them
