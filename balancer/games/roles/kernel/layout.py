"""The arrays a role game's kernel works on: the compiled rules (tables) and the state.

The trick procedure is the trick package's (games/trick/), and so is the first
part of both arrays: the role engine plays games/trick/procedure.py, and the
role kernel its compiled twin (games/trick/kernel/: the deal, who plays, a play,
sort_out, next leader, draw, the random bot) over arrays laid out on
games/trick/kernel/layout.py, as Fish! Dash! Cash!'s kernel does. What differs
is only what a resolved card does, read from the program part of the tables.

Tables, int64 (`tables.make_tables`):

    [0, T_CARDS)       the trick's header: T_PLAYERS, T_DECK, T_COPIES,
                       T_HAND_SIZE, T_FIRST_RANDOM, T_NEKO, T_NEKO_MIN,
                       T_NEKO_DEDUPE, T_LEADER_NEXT, then from its T_GAME the
                       role game's counts (T_NZONES ...), T_LOWER_WINS, and
                       from T_DIR the program's directory of offsets (X_*): at
                       a fixed place, so `regions._x` is one load (the state's
                       stores make numba re-read it after each; a directory
                       found through a header word cost two dependent loads)
    [T_CARDS, +5D)     per-card columns: the trick's COLOUR, NUMBER, KIND, and
                       in its first game column ROLE (index into the deck's
                       roles; the second is unused)
    [T_CARDS + 5D, ...) the program's tables: zones' faces, counters' and
                       globals' (start, low, high), flags' lifetimes, events'
                       sources, per role its step lists, step lists, steps, op
                       rows, score terms, ends, rank points, the goal cards'
                       term rows

An op row is OP_WIDTH ints: R_OP (its primitive's op number, primitives/
__init__.py), R_EVENT (the event it counts, -1 none), R_TARGET and
R_TARGET_ARG (its target kind's number, targets/__init__.py, and the kind's
argument: for `top`, its counter), R_UNLESS (a flag, -1
none), then R_A..R_E, the primitive's own words (its module's docstring and
`encode` say which), its condition's words R_IF..., and R_TAKES.

An amount is (AMT_* kind, value): a whole number (knobs are filled in when the
tables are built: nothing is compiled per game file or knob value), the
played card's number times a whole number, how many cards the owner holds in
a zone, the sum of their numbers, or the owner's counter.

State, int64: the trick's layout up to the pile (PHASE, LEADER, TURN, NORDER,
NEXT_LEADER = the first card resolved's owner, TRICKS, PILE_LEN, PLAYERS,
HCAP, O_PILE, DECK, ORDER, PSEAT, PCARD, SURVIVOR_SEAT/_CARD (a trick's
survivors, while its tasks are queued), HLEN, the hands, the pile; the
trick's GAME_WORDS, GAME_HEADER and GAME_BLOCKS are unused here), then the
role region from `state[O_ROLES]` (the trick's O_GAME word; = O_PILE + D),
whose blocks' offsets (relative) the tables hold at X_ZLEN...: zone lengths
and cards (zone z of seat s at (z * P + s) * D), counters, flags, globals,
skips, events, each lead_changes event's sole leader, each global's places
(per seat: 0 none yet, else the place a place term's arrival took), the task
queue (seat, card, step list, resolving), each card's unsure flag (1: in a
face-down zone where not every seat can tell it is: recall.py), the
scalars S_NTASK, S_TASK_AT, S_STEP_AT, S_HOOKS (on_trick_end queued), S_ENDED,
and last each seat's secret goals and the goal cards' work block (empty in a
file without goals, so every other file's region is laid out as before).
"""

from __future__ import annotations

import os

from balancer import jit
from balancer.games.roles.model import MAX_OPTIONS
from balancer.games.trick.kernel import layout as trick

# The trick's words and jit flavours are the role kernel's too: its modules import them
# from here.
from balancer.games.trick.kernel.layout import *  # noqa: F403

# The interpreter inlines the trick procedure's kernels, the primitives' compiled acts,
# the target kinds' seats and the score terms' values (games/roles/primitives/,
# targets/, scores/): an edit there must recompile it too (numba's cache stamps a
# kernel package by its own files; fdc_bridge.py adds fdc's kernel, whose heuristic
# it inlines).
_ROLES = os.path.dirname(os.path.dirname(__file__))
jit.stamp_with(
    os.path.dirname(__file__),
    os.path.dirname(trick.__file__),
    os.path.join(_ROLES, "primitives"),
    os.path.join(_ROLES, "targets"),
    os.path.join(_ROLES, "scores"),
)

# -- the role game's names for the trick's words ----------------------------------------
O_ROLES = trick.O_GAME  # where the role region starts
ROLE = trick.GAME_COLUMNS[0]  # a card's role: the trick's first game column
BOT_LOOKAHEAD = 1  # roles/lookahead.py's bot, compiled (kernel/lookahead.py)
BOT_KINDS = {"random": trick.BOT_RANDOM, "lookahead": BOT_LOOKAHEAD}
# A seat's parameter row (float64): lookahead's samples, goal_weight and win_bonus;
# random has none and leaves its row at 0.
P_SAMPLES, P_GOAL_WEIGHT, P_WIN_BONUS = 0, 1, 2
N_PARAMS = 3

# -- the role game's header words (the trick leaves T_GAME..T_CARDS to the game) --------
T_NZONES, T_NCOUNTERS, T_NFLAGS, T_NGLOBALS, T_NEVENTS = 9, 10, 11, 12, 13
# 1 when the lowest score wins (the file's `win: lowest`): what a bot's values read.
T_LOWER_WINS = 14
assert trick.T_GAME <= T_NZONES

# -- the program's directory: tables[T_DIR + X_*] ----------------------------------------
# Offsets of state blocks, relative to the role region's start (state[O_PILE] + D):
X_ZLEN, X_ZCARDS, X_CNT, X_FLG, X_GLB, X_SKIP, X_EVT, X_SOLE = 0, 1, 2, 3, 4, 5, 6, 7
X_TSEAT, X_TCARD, X_TLIST, X_TRES, X_SCALARS, X_REGION = 8, 9, 10, 11, 12, 13
# Offsets of program tables (absolute, in `tables`):
X_ZFACE, X_CDECL, X_FDECL, X_GDECL, X_EVDECL, X_ROLES = 14, 15, 16, 17, 18, 19
X_LISTS, X_STEPS, X_OPS, X_TERMS, X_ENDS = 20, 21, 22, 23, 24
X_TRICK_END, X_SCORE, X_NSCORE, X_NENDS, X_MAXWAYS = 25, 26, 27, 28, 29
X_ANY_CANCELLED = 30  # 1 when some role (or the hook) has on_cancelled steps
# Bit e set for each event counted from 猫に小判, from cancelled cards, from lead
# changes: a trick's end visits only those (a file declares at most MAX_EVENTS).
X_NEKO_EVENTS, X_CANCELLED_EVENTS, X_LEAD_EVENTS = 31, 32, 33
# Offset of the places block (relative, as X_ZLEN...): per global, each seat's place
# (0: none yet), for a place term's global (a global hands out places for one term).
X_PLC = 34
# Offset of the unsure block (relative): per card, 1 if it lies in a face-down zone
# where not every seat can tell it is (engine.py State.unsure, View.recalled).
X_UNSURE = 35
# Offset of the rank terms' points (absolute): each rank term's list, knobs filled in.
X_POINTS = 36
# The secret goals (roles/goals.py; every block and count 0 in a file without them):
# X_GOALS, the offset (relative) of each seat's goals, seat s's j-th at s * deal + j;
# X_GOAL_POOL, of a work block of one word per goal card, where the deal and a world
# shuffle the goal cards (kernel/secret_goals.py); X_GOAL_ROWS, where (absolute) each
# goal card's (first term row, terms) lie; X_GOAL_DEAL, the goals each seat holds;
# X_NGOALS, the goal cards.
X_GOALS, X_GOAL_POOL, X_GOAL_ROWS, X_GOAL_DEAL, X_NGOALS = 37, 38, 39, 40, 41
# 1 when some op draws from the chance stream while the game is played (a random
# discard): determinize then gives a world a chance of its own (play.py).
X_DRAWS_CHANCE = 42
N_DIRECTORY = 43
T_DIR = T_LOWER_WINS + 1  # where the directory lies: header words the trick leaves to the game
assert T_LOWER_WINS < T_DIR and T_DIR + N_DIRECTORY <= trick.T_CARDS
MAX_EVENTS = 62

S_NTASK, S_TASK_AT, S_STEP_AT, S_HOOKS, S_ENDED = 0, 1, 2, 3, 4
N_SCALARS = 5
TASKS_PER_SEAT = 3  # a cancelled card, a surviving card and an on_trick_end hook

# -- op rows, targets, amounts, terms, events, ends ------------------------------------
# A step: its first op row, how many (a `choose`'s options), 1 when it is one op
# that always acts one way (not a steal, not a `rival` target): it acts at once,
# without counting ways, and 1 when some op of it has an `if:`: acts.py reads the
# conditions only then, once per step, into a bit per op (a `choose` has at most
# model.MAX_OPTIONS options), so a step without one pays one load for them.
STEP_WIDTH = 4
assert MAX_OPTIONS <= 63
R_OP, R_EVENT, R_TARGET, R_TARGET_ARG, R_UNLESS, R_A, R_B, R_C, R_D, R_E = range(10)
# The op's condition (roles/conditions.py): its kind (IF_NONE: none), its counter, flag
# or zone, the seat it reads (a target kind and its argument: R_IF_OF - R_TARGET ==
# R_IF_OF_ARG - R_TARGET_ARG, so the kinds' seats read them at row + IF_SHIFT), and
# the lowest and highest value that meets it.
R_IF, R_IF_INDEX, R_IF_OF, R_IF_OF_ARG, R_IF_LOW, R_IF_HIGH = range(10, 16)
IF_SHIFT = R_IF_OF - R_TARGET
assert R_IF_OF_ARG - R_TARGET_ARG == IF_SHIFT
# 1 when the op takes a card, a way per card (Primitive.takes: a steal, a chosen discard).
R_TAKES = 16
OP_WIDTH = 17
# A condition's kind (R_IF); a bound not written never binds (as add's NO_MIN / NO_MAX).
IF_NONE, IF_COUNTER, IF_FLAG, IF_COUNT = 0, 1, 2, 3
IF_NO_LOW, IF_NO_HIGH = -(2**62), 2**62

# An amount's kind; its value word: the constant, number's factor (K of number * K),
# the zone (count, value) or the counter (counter).
AMT_CONST, AMT_NUMBER, AMT_COUNT, AMT_VALUE, AMT_COUNTER = 0, 1, 2, 3, 4

# A term row: kind (its TERM number, games/roles/scores/), zone or counter, then
# (kind, value) of per_card, per_number, times.
M_KIND, M_INDEX, M_PC_KIND, M_PC, M_PN_KIND, M_PN, M_TIMES_KIND, M_TIMES = range(8)
# A place term's row: kind, its global, then its counter, reaches, places and beyond
# (whole numbers: knobs filled in), its event and beyond_event (-1 none).
M_COUNTER, M_REACHES, M_PLACES, M_BEYOND, M_EVENT, M_BEYOND_EVENT = range(2, 8)
# A rank term's row (roles/rank.py): kind, its counter, 1 when the fewest rank first,
# then where its points start (from X_POINTS) and how many.
M_LOWEST, M_FIRST_POINT, M_POINTS = 2, 3, 4
TERM_WIDTH = 8

EV_OPS, EV_NEKO, EV_CANCELLED, EV_AT_END, EV_LEAD = 0, 1, 2, 3, 4
EV_WIDTH = 3  # source, first term, terms

END_TRICKS, END_COUNTER, END_GLOBAL = 0, 1, 2
END_WIDTH = 4  # kind, counter or global, the goal as an amount (kind, value)
