"""The roles' steps compiled (engine.py's methods of the same names): `_step` acts
when a step has one way, `_ways` counts or lists a step's ways (or finds the one a
decision chose), `_act` is one primitive, on the seats `_target` names.

Decisions are the engine's ints (engine.py's docstring): an option taking a
card `takers * D + card`, one choosing rival r `-(1 + ops + i * P + r)`, any
other `-(i + 1)`. A decision's options are not stored: `legal` and `apply`
(interpreter.py) work them out again from the position, which has not changed
since the step stopped for them."""

from __future__ import annotations

import numpy as np

from balancer.games.roles.kernel.layout import (
    CHOICE,
    KIND,
    LEADER,
    NO_MAX,
    OP_ADD,
    OP_ADD_GLOBAL,
    OP_CATCH_UP,
    OP_GUARD,
    OP_MOVE_ALL,
    OP_PLACE,
    OP_SKIP_TURN,
    OP_STEAL,
    OP_WIDTH,
    PCARD,
    PHASE,
    R_A,
    R_B,
    R_C,
    R_D,
    R_E,
    R_EVENT,
    R_OP,
    R_TARGET,
    R_TARGET_ARG,
    R_UNLESS,
    STEP_WIDTH,
    T_CARDS,
    T_COPIES,
    T_DECK,
    T_PLAYERS,
    TGT_ALL,
    TGT_LEADER,
    TGT_NEXT,
    TGT_PREV,
    TGT_RIVAL,
    TGT_SELF,
    TURN,
    X_CDECL,
    X_GDECL,
    X_GLB,
    X_OPS,
    X_SKIP,
    X_STEPS,
    inlined,
)
from balancer.games.roles.kernel.recall import after_move_all, after_steal
from balancer.games.roles.kernel.regions import (
    _counter,
    _event,
    _flag,
    _rb,
    _x,
    _zone_at,
    _zone_len,
)
from balancer.games.roles.kernel.scoring import (
    _amount,
)
from balancer.games.roles.primitives import guard
from balancer.games.trick.kernel.lists import in_plays, index_of, remove_at, seat_after

# Each primitive's compiled act, built once (primitives/base.py says why not at import).
guard_act = guard.SPEC.kernel_act()


@inlined
def out_none(state: np.ndarray) -> np.ndarray:
    """An array `_ways` is never asked to write to (write=False): the state itself."""
    return state


@inlined
def _step(state: np.ndarray, tables: np.ndarray, step: int, seat: int, card: int) -> bool:
    """engine.py _step: act when the step has one way; False when it waits for a decision."""
    at = _x(tables, X_STEPS) + STEP_WIDTH * step
    if tables[at + 2] != 0:  # one op, one way: no ways to count
        _act(state, tables, _x(tables, X_OPS) + OP_WIDTH * tables[at], seat, card, -1, -1)
        return True
    n, row, chosen, taken = _ways(state, tables, step, seat, out_none(state), False, False, 0)
    if n == 1:
        _act(state, tables, row, seat, card, chosen, taken)
    elif n > 1:
        state[PHASE] = CHOICE
        return False
    return True


@inlined
def _ways(
    state: np.ndarray,
    tables: np.ndarray,
    step: int,
    seat: int,
    out: np.ndarray,
    write: bool,
    match: bool,
    want: int,
) -> tuple[int, int, int, int]:
    """The ways step `step` can act for `seat` (engine.py _step and _ways): their count,
    and (op row, chosen rival, taken card) of the way whose action is `want` (`match`)
    or else of the first way. With `write`, out[:n] gets the ways' actions; with
    neither, the count stops at 2 (a decision: which ways is worked out when asked)."""
    players = tables[T_PLAYERS]
    d = tables[T_DECK]
    steps = _x(tables, X_STEPS)
    first_op, nops = tables[steps + STEP_WIDTH * step], tables[steps + STEP_WIDTH * step + 1]
    counting = not write and not match  # _step asks only: none, one, or more
    ops = _x(tables, X_OPS)
    copies = tables[T_COPIES]
    turn = state[TURN]
    m = 0
    takers = 0
    f_row, f_chosen, f_taken = -1, -1, -1
    for index in range(nops):
        row = ops + OP_WIDTH * (first_op + index)
        unless = tables[row + R_UNLESS]
        if tables[row + R_OP] == OP_STEAL:
            zone, fresh = tables[row + R_A], tables[row + R_C]
            for k in range(1, players):
                victim = seat_after(seat, k, players)
                if unless >= 0 and state[_flag(state, tables, unless, victim)] != 0:
                    continue
                base = _zone_at(state, tables, zone, victim)
                for i in range(state[_zone_len(state, tables, zone, victim)]):
                    c = state[base + i]
                    if fresh != 0 and in_plays(state, PCARD, turn, c):
                        continue
                    if copies > 1 and _kind_taken(state, tables, base, i, c, fresh, turn):
                        continue
                    action = takers * d + c
                    if write:
                        out[m] = action
                    if (match and action == want) or (not match and m == 0):
                        f_row, f_chosen, f_taken = row, -1, c
                    m += 1
                    if (counting and m > 1) or (match and f_row >= 0):
                        return m, f_row, f_chosen, f_taken
            takers += 1
        elif tables[row + R_TARGET] == TGT_RIVAL:
            for k in range(1, players):
                r = seat_after(seat, k, players)
                if unless >= 0 and state[_flag(state, tables, unless, r)] != 0:
                    continue
                action = -(1 + nops + index * players + r)
                if write:
                    out[m] = action
                if (match and action == want) or (not match and m == 0):
                    f_row, f_chosen, f_taken = row, r, -1
                m += 1
                if (counting and m > 1) or (match and f_row >= 0):
                    return m, f_row, f_chosen, f_taken
        else:
            action = -(index + 1)
            if write:
                out[m] = action
            if (match and action == want) or (not match and m == 0):
                f_row, f_chosen, f_taken = row, -1, -1
            m += 1
            if (counting and m > 1) or (match and f_row >= 0):
                return m, f_row, f_chosen, f_taken
    return m, f_row, f_chosen, f_taken


@inlined
def _kind_taken(
    state: np.ndarray, tables: np.ndarray, base: int, upto: int, card: int, fresh: int, turn: int
) -> bool:
    """Whether a copy of `card` comes earlier in the zone at base (among the cards a
    steal may take): copies are one way (engine.py _distinct)."""
    kinds = T_CARDS + KIND * tables[T_DECK]
    kind = tables[kinds + card]
    for j in range(upto):
        other = state[base + j]
        if fresh != 0 and in_plays(state, PCARD, turn, other):
            continue
        if tables[kinds + other] == kind:
            return True
    return False


@inlined
def _act(
    state: np.ndarray, tables: np.ndarray, row: int, seat: int, card: int, chosen: int, taken: int
) -> None:
    """engine.py _act: one primitive of op row `row`, for `seat`'s `card`."""
    op = tables[row + R_OP]
    players = tables[T_PLAYERS]
    acted = True
    if op == OP_PLACE:
        zone = tables[row + R_A]
        at = _zone_len(state, tables, zone, seat)
        state[_zone_at(state, tables, zone, seat) + state[at]] = card
        state[at] += 1
    elif op == OP_MOVE_ALL:
        source, goal = tables[row + R_A], tables[row + R_B]
        src_len = _zone_len(state, tables, source, seat)
        dst_len = _zone_len(state, tables, goal, seat)
        moved = state[src_len]
        src = _zone_at(state, tables, source, seat)
        dst = _zone_at(state, tables, goal, seat) + state[dst_len]
        for j in range(moved):
            state[dst + j] = state[src + j]
        after_move_all(state, tables, goal, dst, moved)
        state[dst_len] += moved
        state[src_len] = 0
        acted = moved > 0
        if tables[row + R_C] >= 0:
            state[_event(state, tables, tables[row + R_C])] += moved
    elif op == OP_STEAL:
        source, goal = tables[row + R_A], tables[row + R_B]
        for victim in range(players):
            if victim == seat:
                continue
            at = _zone_len(state, tables, source, victim)
            base = _zone_at(state, tables, source, victim)
            i = index_of(state, base, state[at], taken)
            if i >= 0:
                remove_at(state, base, state[at], i)
                state[at] -= 1
                to = _zone_len(state, tables, goal, seat)
                state[_zone_at(state, tables, goal, seat) + state[to]] = taken
                state[to] += 1
                after_steal(state, tables, source, goal, base, state[at], taken)
                break
    elif op == OP_ADD_GLOBAL:
        g = tables[row + R_A]
        gdecl = _x(tables, X_GDECL) + 3 * g
        at = _rb(state) + _x(tables, X_GLB) + g
        old = state[at]
        value = old + _amount(state, tables, tables[row + R_B], tables[row + R_C], seat, card)
        state[at] = min(max(value, tables[gdecl + 1]), tables[gdecl + 2])
        acted = state[at] != old
    else:
        acted = False
        target = tables[row + R_TARGET]
        count = players - 1 if target == TGT_ALL else 1
        unless = tables[row + R_UNLESS]
        for j in range(count):
            t = _target(state, tables, row, target, seat, chosen, j)
            if unless >= 0 and state[_flag(state, tables, unless, t)] != 0:
                continue
            if _on_target(state, tables, row, op, t, seat, card):
                acted = True
    if acted and tables[row + R_EVENT] >= 0:
        state[_event(state, tables, tables[row + R_EVENT])] += 1


@inlined
def _target(
    state: np.ndarray, tables: np.ndarray, row: int, target: int, seat: int, chosen: int, j: int
) -> int:
    """engine.py _targets: the j-th seat an op acts on."""
    players = tables[T_PLAYERS]
    if target == TGT_SELF:
        return seat
    if target == TGT_RIVAL:
        return chosen
    if target == TGT_NEXT:
        return seat_after(seat, 1, players)
    if target == TGT_PREV:
        return seat_after(seat, players - 1, players)
    if target == TGT_ALL:
        return seat_after(seat, 1 + j, players)
    if target == TGT_LEADER:
        return state[LEADER]
    # top: the rival with the most of the counter, the first from the owner on a tie
    counter = tables[row + R_TARGET_ARG]
    best = seat_after(seat, 1, players)
    for k in range(2, players):
        r = seat_after(seat, k, players)
        if (
            state[_counter(state, tables, counter, r)]
            > state[_counter(state, tables, counter, best)]
        ):
            best = r
    return best


@inlined
def _on_target(
    state: np.ndarray, tables: np.ndarray, row: int, op: int, t: int, seat: int, card: int
) -> bool:
    """engine.py _on_target: guard, skip_turn, add or catch_up on seat `t`; whether it changed."""
    players = tables[T_PLAYERS]
    if op == OP_GUARD:
        return guard_act(state, tables, row, seat, card, t, -1)
    if op == OP_SKIP_TURN:
        state[_rb(state) + _x(tables, X_SKIP) + t] += tables[row + R_A]
        return tables[row + R_A] > 0
    c = tables[row + R_A]
    cdecl = _x(tables, X_CDECL) + 3 * c
    at = _counter(state, tables, c, t)
    if op == OP_ADD:
        old = state[at]
        value = old + _amount(state, tables, tables[row + R_B], tables[row + R_C], seat, card)
        value = max(value, tables[row + R_D])  # NO_MIN never binds
        if tables[row + R_E] != NO_MAX:
            value = min(value, tables[row + R_E])
        state[at] = min(max(value, tables[cdecl + 1]), tables[cdecl + 2])
        return state[at] != old
    # catch_up (OP_CATCH_UP): up to the best rival's less the offset, never down
    best = state[_counter(state, tables, c, seat_after(t, 1, players))]
    for k in range(2, players):
        best = max(best, state[_counter(state, tables, c, seat_after(t, k, players))])
    goal = min(best - tables[row + R_B], tables[cdecl + 2])
    if state[at] < goal:
        state[at] = goal
        return True
    return False


assert OP_CATCH_UP not in (OP_GUARD, OP_SKIP_TURN, OP_ADD)
