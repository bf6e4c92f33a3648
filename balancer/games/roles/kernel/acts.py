"""The roles' steps compiled (engine.py's methods of the same names): `_step` acts
when a step has one way, `_ways` counts or lists a step's ways (or finds the one a
decision chose), `_act` is one primitive, on the seats `_target` names; what each
primitive does is its module's (primitives/<name>.py), `_apply` dispatches to it.

Decisions are the engine's ints (engine.py's docstring): an option taking a
card `takers * D + card`, one choosing rival r `-(1 + ops + i * P + r)`, any
other `-(i + 1)`. A decision's options are not stored: `legal` and `apply`
(interpreter.py) work them out again from the position, which has not changed
since the step stopped for them.

`streams` (the game's, rng.CHANCE first) goes down from interpreter.apply to the acts
that draw chance (a random discard: primitives/discard.py); the others take none."""

from __future__ import annotations

import numpy as np

from balancer.games.roles.kernel.layout import (
    CHOICE,
    IF_COUNTER,
    IF_FLAG,
    IF_NONE,
    IF_SHIFT,
    OP_WIDTH,
    PHASE,
    R_EVENT,
    R_IF,
    R_IF_HIGH,
    R_IF_INDEX,
    R_IF_LOW,
    R_IF_OF,
    R_OP,
    R_TAKES,
    R_TARGET,
    R_UNLESS,
    STEP_WIDTH,
    T_DECK,
    T_PLAYERS,
    X_OPS,
    X_STEPS,
    inlined,
    outermost,
)
from balancer.games.roles.kernel.regions import _event, _flag, _x, counter_at, zone_len
from balancer.games.roles.primitives import (
    OP_ADD,
    OP_ADD_GLOBAL,
    OP_CATCH_UP,
    OP_CLEAR,
    OP_DISCARD,
    OP_DRAW,
    OP_GUARD,
    OP_MOVE_ALL,
    OP_PLACE,
    OP_SKIP_TURN,
    OP_STEAL,
    TARGETED,
    add,
    add_global,
    catch_up,
    clear,
    discard,
    draw,
    guard,
    move_all,
    place,
    skip_turn,
    steal,
)
from balancer.games.roles.targets import (
    CHOSEN,
    EVERY_RIVAL,
    EVERY_SEAT,
    TGT_ALL_RIVALS,
    TGT_BOTTOM,
    TGT_EVERY_SEAT,
    TGT_NEXT_SEAT,
    TGT_OWNER,
    TGT_PREV_SEAT,
    TGT_RIVAL,
    TGT_TOP,
    TGT_TRICK_LEADER,
    all_rivals,
    bottom,
    every_seat,
    next_seat,
    owner,
    prev_seat,
    rival,
    top,
    trick_leader,
)
from balancer.games.trick.kernel.lists import seat_after

# Each primitive's compiled act (primitives/<name>.py), built here once: building it
# imports numba, which validating a game file does not (primitives/base.py).
place_act = place.SPEC.kernel_act()
move_all_act = move_all.SPEC.kernel_act()
steal_act = steal.SPEC.kernel_act()
steal_ways = steal.kernel_ways()
guard_act = guard.SPEC.kernel_act()
add_act = add.SPEC.kernel_act()
catch_up_act = catch_up.SPEC.kernel_act()
skip_turn_act = skip_turn.SPEC.kernel_act()
add_global_act = add_global.SPEC.kernel_act()
clear_act = clear.SPEC.kernel_act()
draw_act = draw.SPEC.kernel_act()
discard_act = discard.SPEC.kernel_act()
discard_ways = discard.kernel_ways()
# And each target kind's compiled seat (targets/<kind>.py).
owner_seat = owner.SPEC.kernel_seat()
rival_seat = rival.SPEC.kernel_seat()
next_seat_seat = next_seat.SPEC.kernel_seat()
prev_seat_seat = prev_seat.SPEC.kernel_seat()
all_rivals_seat = all_rivals.SPEC.kernel_seat()
trick_leader_seat = trick_leader.SPEC.kernel_seat()
top_seat = top.SPEC.kernel_seat()
bottom_seat = bottom.SPEC.kernel_seat()
every_seat_seat = every_seat.SPEC.kernel_seat()


@inlined
def out_none(state: np.ndarray) -> np.ndarray:
    """An array `_ways` is never asked to write to (write=False): the state itself."""
    return state


@inlined
def _step(
    state: np.ndarray, tables: np.ndarray, streams: np.ndarray, step: int, seat: int, card: int
) -> bool:
    """engine.py _step: act when the step has one way; False when it waits for a decision.
    `_act` has one call site here (and `_apply` one in `_act`): numba inlines every
    primitive at each, and each copy costs compile time, not run time."""
    at = _x(tables, X_STEPS) + STEP_WIDTH * step
    if tables[at + 2] != 0:  # one op, one way: no ways to count
        n, row, chosen, taken = 1, _x(tables, X_OPS) + OP_WIDTH * tables[at], -1, -1
        if tables[at + 3] != 0 and unmet_options(state, tables, step, seat) != 0:
            n = 0
    else:
        n, row, chosen, taken = _ways(
            state, tables, step, seat, unmet(state, tables, step, seat), out_none(state),
            False, False, 0,
        )  # fmt: skip
    if n > 1:
        state[PHASE] = CHOICE
        return False
    if n == 1:
        _act(state, tables, streams, row, seat, card, chosen, taken)
    return True


@inlined
def _ways(
    state: np.ndarray,
    tables: np.ndarray,
    step: int,
    seat: int,
    unmet: int,
    out: np.ndarray,
    write: bool,
    match: bool,
    want: int,
) -> tuple[int, int, int, int]:
    """The ways step `step` can act for `seat` (engine.py _step and _ways): their count,
    and (op row, chosen rival, taken card) of the way whose action is `want` (`match`)
    or else of the first way. `unmet` (from `unmet`) has bit i set when op i's `if:`
    is false: that op offers no way. With `write`, out[:n] gets the ways' actions; with
    neither, the count stops at 2 (a decision: which ways is worked out when asked)."""
    players = tables[T_PLAYERS]
    d = tables[T_DECK]
    steps = _x(tables, X_STEPS)
    first_op, nops = tables[steps + STEP_WIDTH * step], tables[steps + STEP_WIDTH * step + 1]
    counting = not write and not match  # _step asks only: none, one, or more
    ops = _x(tables, X_OPS)
    m = 0
    takers = 0
    f_row, f_chosen, f_taken = -1, -1, -1
    for index in range(nops):
        row = ops + OP_WIDTH * (first_op + index)
        unless = tables[row + R_UNLESS]
        op = tables[row + R_OP]
        takes = tables[row + R_TAKES] != 0  # a card a way (Primitive.takes)
        if (unmet >> index) & 1:
            # Its condition false: no way (an op taking a card still counts among the takers).
            if takes:
                takers += 1
            continue
        if takes:
            if op == OP_STEAL:
                m, card, stop = steal_ways(
                    state, tables, row, seat, takers * d, m, out, write, match, want, counting
                )
            else:
                m, card, stop = discard_ways(
                    state, tables, row, seat, takers * d, m, out, write, match, want, counting
                )
            if card >= 0:
                f_row, f_chosen, f_taken = row, -1, card
            if stop:
                return m, f_row, f_chosen, f_taken
            takers += 1
        elif (CHOSEN >> tables[row + R_TARGET]) & 1:  # the owner picks a rival
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
def unmet(state: np.ndarray, tables: np.ndarray, step: int, seat: int) -> int:
    """`unmet_options` of step `step` for `seat`: 0 at once for a step without an `if:`."""
    if tables[_x(tables, X_STEPS) + STEP_WIDTH * step + 3] == 0:
        return 0
    return unmet_options(state, tables, step, seat)


@outermost  # called, not inlined: off the path of every step without an `if:`
def unmet_options(state: np.ndarray, tables: np.ndarray, step: int, seat: int) -> int:
    """Bit i set when op i of step `step` has an `if:` that is false for `seat`. The
    conditions are read once per step, here, so that `_ways`, which `_step`, `legal`
    and `apply` each inline, holds no call of its own for them."""
    steps = _x(tables, X_STEPS)
    first_op, nops = tables[steps + STEP_WIDTH * step], tables[steps + STEP_WIDTH * step + 1]
    ops = _x(tables, X_OPS)
    bits = 0
    for index in range(nops):
        row = ops + OP_WIDTH * (first_op + index)
        if tables[row + R_IF] != IF_NONE and not _met(state, tables, row, seat):
            bits |= 1 << index
    return bits


@inlined
def _met(state: np.ndarray, tables: np.ndarray, row: int, seat: int) -> bool:
    """roles/conditions.py met: whether op row `row`'s condition holds for `seat`'s step:
    the value it reads (a counter, a flag, a zone's count) of the seat its target kind
    names, within [R_IF_LOW, R_IF_HIGH]."""
    kind, index = tables[row + R_IF], tables[row + R_IF_INDEX]
    on = _target(state, tables, row + IF_SHIFT, tables[row + R_IF_OF], seat, -1, 0)
    if kind == IF_COUNTER:
        value = state[counter_at(state, tables, index, on)]
    elif kind == IF_FLAG:
        value = state[_flag(state, tables, index, on)]
    else:
        value = state[zone_len(state, tables, index, on)]
    return tables[row + R_IF_LOW] <= value <= tables[row + R_IF_HIGH]


@inlined
def _act(
    state: np.ndarray,
    tables: np.ndarray,
    streams: np.ndarray,
    row: int,
    seat: int,
    card: int,
    chosen: int,
    taken: int,
) -> None:
    """engine.py _act: one primitive of op row `row`, for `seat`'s `card`; a targeted
    one on each of its seats but those whose `unless` flag is set, an untargeted one
    once, with the decision's chosen rival; the taken card goes to either (a targeted
    op that takes one, a chosen discard, targets the owner)."""
    op = tables[row + R_OP]
    targeted = (TARGETED >> op) & 1 != 0
    target = tables[row + R_TARGET]
    count = 1
    if targeted and (EVERY_RIVAL >> target) & 1:
        count = tables[T_PLAYERS] - 1
    elif targeted and (EVERY_SEAT >> target) & 1:
        count = tables[T_PLAYERS]
    unless = tables[row + R_UNLESS]
    acted = False
    for j in range(count):
        on = chosen
        if targeted:
            on = _target(state, tables, row, target, seat, chosen, j)
            if unless >= 0 and state[_flag(state, tables, unless, on)] != 0:
                continue
        if _apply(state, tables, streams, row, op, seat, card, on, taken):
            acted = True
    if acted and tables[row + R_EVENT] >= 0:
        state[_event(state, tables, tables[row + R_EVENT])] += 1


@inlined
def _apply(
    state: np.ndarray,
    tables: np.ndarray,
    streams: np.ndarray,
    row: int,
    op: int,
    seat: int,
    card: int,
    target: int,
    taken: int,
) -> bool:
    """The compiled act of primitive `op`: whether it changed anything. One line per op:
    numba inlines a function it is given by name, not one looked up at run time."""
    if op == OP_PLACE:
        return place_act(state, tables, row, seat, card, target, taken)
    if op == OP_MOVE_ALL:
        return move_all_act(state, tables, row, seat, card, target, taken)
    if op == OP_STEAL:
        return steal_act(state, tables, row, seat, card, target, taken)
    if op == OP_GUARD:
        return guard_act(state, tables, row, seat, card, target, taken)
    if op == OP_ADD:
        return add_act(state, tables, row, seat, card, target, taken)
    if op == OP_CATCH_UP:
        return catch_up_act(state, tables, row, seat, card, target, taken)
    if op == OP_SKIP_TURN:
        return skip_turn_act(state, tables, row, seat, card, target, taken)
    if op == OP_ADD_GLOBAL:
        return add_global_act(state, tables, row, seat, card, target, taken)
    if op == OP_CLEAR:
        return clear_act(state, tables, row, seat, card, target, taken)
    if op == OP_DRAW:
        return draw_act(state, tables, row, seat, card, target, taken)
    if op == OP_DISCARD:
        return discard_act(state, tables, streams, row, seat, card, target, taken)
    return False


@inlined
def _target(
    state: np.ndarray, tables: np.ndarray, row: int, target: int, seat: int, chosen: int, j: int
) -> int:
    """engine.py _targets: the j-th seat target kind `target` names (targets/<kind>.py).
    One line per kind, as _apply's per op."""
    if target == TGT_OWNER:
        return owner_seat(state, tables, row, seat, chosen, j)
    if target == TGT_RIVAL:
        return rival_seat(state, tables, row, seat, chosen, j)
    if target == TGT_NEXT_SEAT:
        return next_seat_seat(state, tables, row, seat, chosen, j)
    if target == TGT_PREV_SEAT:
        return prev_seat_seat(state, tables, row, seat, chosen, j)
    if target == TGT_ALL_RIVALS:
        return all_rivals_seat(state, tables, row, seat, chosen, j)
    if target == TGT_TRICK_LEADER:
        return trick_leader_seat(state, tables, row, seat, chosen, j)
    if target == TGT_TOP:
        return top_seat(state, tables, row, seat, chosen, j)
    if target == TGT_BOTTOM:
        return bottom_seat(state, tables, row, seat, chosen, j)
    if target == TGT_EVERY_SEAT:
        return every_seat_seat(state, tables, row, seat, chosen, j)
    return seat
