"""Fish! Dash! Cash!'s compiled `heuristic` seated at a role game that plays its roles:
the role kernel's one bridge to fdc's kernel (no other module of the package imports
fdc; both stand on the trick procedure, games/trick/kernel/).

roles/fdc_heuristic.py seats the hand-written heuristic on such a file step by step:
it writes the role game's view as the hand-written engine's. This module does the
same inside the role kernel: it writes the role kernel's position as fdc's kernel
state (games/fdc/kernel/layout.py), asks fdc's compiled decision (its public
`choose`, the heuristic's play or dash choice, move for move games/fdc/bots.py's),
and plays its answer. Only for files `heuristic_compiles` accepts
(roles/fdc_heuristic.py): fish, dash and cash as fdc's, in zones and a flag of the
same names, and the bank scored by the two money knobs.

What fdc's heuristic reads, and where it comes from here:

- tables: the trick's knobs and the per-card colour, number and kind are the role
  tables' own words (both games lay them out on the trick's layout); a card's effect is
  what its role does first (a `place` is a fish, a `move_all` a cash, a choice of
  guard or steal a dash), whatever order the deck lists the roles in; its money is
  the file's first score term on the face-down zone (the bank):
  per_card + per_number * number, the money knobs as fdc_view reads them;
- state: the phase, the turn, the trick's order and plays (the trick's words, where
  both states keep them); each territory (the face-up zone) in order, with its money
  and its richest and second richest card's money, as fdc's kernel keeps them;
  protection (the file's one flag); at a dash, its owner and the cards still to
  resolve after it (the queued tasks that resolve a card), as fdc_view's to_resolve.

Moves need no mapping: the role interpreter numbers a card as fdc does, a dash's
guard (its first option) is -1, fdc's PROTECT, and a steal is the card taken.

The work space is the tail of the bots' scratch (`words`): fdc's tables, fdc's
state, the heuristic's int and float work and its parameter row, written afresh at
every decision (a position may come from any game, rules or world).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

import numpy as np

from balancer import jit
from balancer.games.fdc.kernel import layout as fdc
from balancer.games.fdc.kernel.bots import choose as fdc_choose
from balancer.games.fdc.kernel.tables import bot_params as fdc_bot_params
from balancer.games.roles.kernel.interpreter import _flag, _scalar, _x, _zone_at, _zone_len
from balancer.games.roles.kernel.layout import (
    CHOICE,
    M_INDEX,
    M_KIND,
    M_PC,
    M_PN,
    MAXP,
    O_ROLES,
    OP_WIDTH,
    ORDER,
    PCARD,
    PHASE,
    PSEAT,
    R_OP,
    ROLE,
    S_NTASK,
    S_TASK_AT,
    STEP_WIDTH,
    T_CARDS,
    T_DECK,
    T_NZONES,
    T_PLAYERS,
    TERM_WIDTH,
    TURN,
    X_LISTS,
    X_NSCORE,
    X_OPS,
    X_ROLES,
    X_SCORE,
    X_STEPS,
    X_TCARD,
    X_TERMS,
    X_TRES,
    X_TSEAT,
    X_ZFACE,
    inlined,
)
from balancer.games.roles.primitives import OP_MOVE_ALL, OP_PLACE
from balancer.games.roles.scores import TERM_ZONE

# fdc's heuristic is inlined into `heuristic_move`, cached in this package: an edit to
# fdc's kernel must recompile it (numba's cache stamps a package by its own files).
jit.stamp_with(os.path.dirname(__file__), os.path.dirname(fdc.__file__))

BOT_HEURISTIC = 2  # its kind among the role kernel's compiled bots (after layout.py's)
N_PARAMS = fdc.N_PARAMS  # its parameter row: fdc's (games/fdc/kernel/tables.py bot_params)

# The one flag of such a file (`protected`): plays_fdc_roles asks for fdc's flags.
PROTECTED = 0


def heuristic_params(given: Mapping[str, Any]) -> np.ndarray:
    """The heuristic's parameter row as fdc's kernel reads it (its four parameters, as
    given with defaults filled in, and the discard costs)."""
    return fdc_bot_params("heuristic", given)


def words(players: int, deck: int) -> int:
    """The size of the work space (int64 words) for `players` and a deck of `deck`."""
    return sum(block_sizes(players, deck))


def block_sizes(players: int, deck: int) -> tuple[int, int, int, int]:
    """fdc's tables, fdc's state (hands left out, a territory per seat holding at most
    the deck), the heuristic's int work, its float work and parameter row (as bits)."""
    return (
        fdc.T_CARDS + fdc.N_COLUMNS * deck,
        fdc.HANDS + players * deck,
        fdc.W_TERR + 2 * players * deck,
        fdc.F_SIZE + N_PARAMS,
    )


# The same sizes inside the kernel; `words` stays plain Python, so making a scratch
# compiles nothing (a compiled `words` cost every process its first 0.75 s).
_sizes = inlined(block_sizes)


# Not inlined: the chunk loop, `play_out` and `choose` each call one compiled copy
# (fdc's heuristic inlined into every caller would multiply their compile time).
@jit.njit(error_model="numpy", _nrt=False)
def heuristic_move(
    state: np.ndarray,
    tables: np.ndarray,
    streams: np.ndarray,
    params: np.ndarray,
    po: int,
    moves: np.ndarray,
    n: int,
    scratch: np.ndarray,
) -> int:
    """fdc's heuristic (its parameter row at params[po:][:N_PARAMS]) for the seat to act
    among moves[:n], n >= 2; its work space is the last `words` of `scratch`."""
    players, d = tables[T_PLAYERS], tables[T_DECK]
    nt, ns, ni, nf = _sizes(players, d)
    at = scratch.shape[0] - (nt + ns + ni + nf)
    ftables = scratch[at : at + nt]
    fstate = scratch[at + nt : at + nt + ns]
    iwork = scratch[at + nt + ns : at + nt + ns + ni]
    floats = scratch[at + nt + ns + ni : at + nt + ns + ni + nf].view(np.float64)
    fwork, row = floats[: fdc.F_SIZE], floats[fdc.F_SIZE :]
    for i in range(N_PARAMS):
        row[i] = params[po + i]
    territory, bank = _zones(tables)
    _write_tables(tables, bank, ftables)
    _write_state(state, tables, territory, ftables, fstate)
    return fdc_choose(fstate, ftables, streams, fdc.BOT_HEURISTIC, row, moves, n, iwork, fwork)


@inlined
def _zones(tables: np.ndarray) -> tuple[int, int]:
    """(territory, bank): the file's face-up zone and its face-down one."""
    face = _x(tables, X_ZFACE)
    territory, bank = -1, -1
    for z in range(tables[T_NZONES]):
        if tables[face + z] == 0:
            territory = z
        else:
            bank = z
    return territory, bank


@inlined
def _write_tables(tables: np.ndarray, bank: int, out: np.ndarray) -> None:
    """fdc's tables of the position's rules: the shared header words and columns, each
    card's effect and its money (the module's docstring)."""
    d = tables[T_DECK]
    for i in range(out.shape[0]):
        out[i] = tables[i]
    for i in range(fdc.T_LEADER_NEXT + 1, fdc.T_CARDS):  # the role game's words here
        out[i] = 0
    per_card, per_number = 0, 0
    found = False
    terms, first = _x(tables, X_TERMS), _x(tables, X_SCORE)
    for t in range(first, first + _x(tables, X_NSCORE)):
        term = terms + TERM_WIDTH * t
        if not found and tables[term + M_KIND] == TERM_ZONE and tables[term + M_INDEX] == bank:
            per_card, per_number = tables[term + M_PC], tables[term + M_PN]
            found = True
    roles, lists = _x(tables, X_ROLES), _x(tables, X_LISTS)
    steps, ops = _x(tables, X_STEPS), _x(tables, X_OPS)
    for card in range(d):
        listed = tables[roles + 2 * tables[T_CARDS + ROLE * d + card]]
        step = tables[lists + 2 * listed]
        op = tables[ops + OP_WIDTH * tables[steps + STEP_WIDTH * step] + R_OP]
        effect = fdc.EFFECT_STEAL_OR_PROTECT
        if op == OP_PLACE:
            effect = fdc.EFFECT_TERRITORY
        elif op == OP_MOVE_ALL:
            effect = fdc.EFFECT_CASH
        out[fdc.T_CARDS + fdc.EFFECT * d + card] = effect
        number = tables[T_CARDS + fdc.NUMBER * d + card]
        out[fdc.T_CARDS + fdc.MONEY * d + card] = per_card + per_number * number


@inlined
def _write_state(
    state: np.ndarray, tables: np.ndarray, territory: int, ftables: np.ndarray, out: np.ndarray
) -> None:
    """fdc's state of the position, what the heuristic reads of it (the module's docstring)."""
    players, d = tables[T_PLAYERS], tables[T_DECK]
    money = fdc.T_CARDS + fdc.MONEY * d
    out[fdc.PHASE] = state[PHASE]
    out[fdc.TURN] = state[TURN]
    out[fdc.PLAYERS] = players
    out[fdc.HCAP] = 0
    out[fdc.TCAP] = d
    out[fdc.O_TERR] = fdc.HANDS
    out[fdc.DECK] = d
    for i in range(MAXP):
        out[fdc.ORDER + i] = state[ORDER + i]
        out[fdc.PSEAT + i] = state[PSEAT + i]
        out[fdc.PCARD + i] = state[PCARD + i]
    for s in range(players):
        base = _zone_at(state, tables, territory, s)
        size = state[_zone_len(state, tables, territory, s)]
        worth, richest, second = 0, -1, -1
        for j in range(size):
            card = state[base + j]
            out[fdc.HANDS + s * d + j] = card
            value = ftables[money + card]
            worth += value
            if value > richest:
                richest, second = value, richest
            elif value > second:
                second = value
        out[fdc.TLEN + s] = size
        out[fdc.TWORTH + s] = worth
        out[fdc.TMAXM + s] = richest
        out[fdc.TMAX2 + s] = second
        out[fdc.PROT + s] = state[_flag(state, tables, PROTECTED, s)]
    out[fdc.QAT] = 0
    out[fdc.QLEN] = 0
    if state[PHASE] == CHOICE:
        _write_to_resolve(state, tables, out)


@inlined
def _write_to_resolve(state: np.ndarray, tables: np.ndarray, out: np.ndarray) -> None:
    """At a dash: its owner and card first (fdc's current player is QSEAT[QAT]), then
    every queued task after it that resolves a card, in order."""
    rb = state[O_ROLES]
    tseat, tcard, tres = rb + _x(tables, X_TSEAT), rb + _x(tables, X_TCARD), rb + _x(tables, X_TRES)
    now = state[_scalar(state, tables, S_TASK_AT)]
    out[fdc.QSEAT] = state[tseat + now]
    out[fdc.QCARD] = state[tcard + now]
    m = 1
    for t in range(now + 1, state[_scalar(state, tables, S_NTASK)]):
        if state[tres + t] != 0:
            out[fdc.QSEAT + m] = state[tseat + t]
            out[fdc.QCARD + m] = state[tcard + t]
            m += 1
    out[fdc.QLEN] = m
