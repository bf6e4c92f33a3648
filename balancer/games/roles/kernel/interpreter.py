"""The one interpreter of every role game, compiled: the trick procedure (fdc's own
kernel functions) and roles read from the tables (layout.py), step for step as the
Python interpreter (roles/engine.py) plays them.

Entry points, as every kernel's: `start_game`, `current_player`, `legal`,
`apply`, `write_record`. The rest mirrors engine.py's methods of the same
names: `_sort_out` queues the trick's tasks, `_run` works through them until
a step needs its owner's decision, `_step` counts a step's ways (`_ways`) and
acts at once when there is one, `_act` is one primitive.

Decisions are the engine's ints (engine.py's docstring): an option taking a
card `takers * D + card`, one choosing rival r `-(1 + ops + i * P + r)`, any
other `-(i + 1)`. A decision's options are not stored: `legal` and `apply`
work them out again from the position, which has not changed since the step
stopped for them.
"""

from __future__ import annotations

import numpy as np

from balancer.games.fdc.kernel.resolution import (
    _in_plays,
    _index_of,
    _kind_seen,
    _remove_at,
    _seat_after,
    deal,
    sort_out,
)
from balancer.games.roles.kernel.layout import (
    AMT_CONST,
    AMT_NUMBER,
    CHOICE,
    COLOUR,
    END_COUNTER,
    END_TRICKS,
    END_WIDTH,
    EV_AT_END,
    EV_WIDTH,
    HANDS,
    HCAP,
    HLEN,
    KIND,
    LEADER,
    M_BEYOND,
    M_BEYOND_EVENT,
    M_COUNTER,
    M_EVENT,
    M_INDEX,
    M_PLACES,
    M_REACHES,
    NEXT_LEADER,
    NO_MAX,
    NORDER,
    NUMBER,
    O_PILE,
    O_ROLES,
    OP_ADD,
    OP_ADD_GLOBAL,
    OP_CATCH_UP,
    OP_GUARD,
    OP_MOVE_ALL,
    OP_PLACE,
    OP_SKIP_TURN,
    OP_STEAL,
    OP_WIDTH,
    ORDER,
    OVER,
    PCARD,
    PHASE,
    PILE_LEN,
    PLAY,
    PSEAT,
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
    ROLE,
    S_ENDED,
    S_HOOKS,
    S_NTASK,
    S_STEP_AT,
    S_TASK_AT,
    STEP_WIDTH,
    SURV_CARD,
    SURV_SEAT,
    T_CARDS,
    T_COPIES,
    T_DECK,
    T_LEADER_NEXT,
    T_NCOUNTERS,
    T_NEVENTS,
    T_NFLAGS,
    T_NGLOBALS,
    T_PLAYERS,
    T_PROG,
    TERM_COUNTER,
    TERM_PLACE,
    TERM_WIDTH,
    TERM_ZONE,
    TGT_ALL,
    TGT_LEADER,
    TGT_NEXT,
    TGT_PREV,
    TGT_RIVAL,
    TGT_SELF,
    TRICKS,
    TURN,
    X_ANY_CANCELLED,
    X_CANCELLED_EVENTS,
    X_CDECL,
    X_CNT,
    X_ENDS,
    X_EVDECL,
    X_EVT,
    X_FDECL,
    X_FLG,
    X_GDECL,
    X_GLB,
    X_LEAD_EVENTS,
    X_LISTS,
    X_NEKO_EVENTS,
    X_NENDS,
    X_NSCORE,
    X_OPS,
    X_PLC,
    X_REGION,
    X_ROLES,
    X_SCALARS,
    X_SCORE,
    X_SKIP,
    X_SOLE,
    X_STEPS,
    X_TCARD,
    X_TERMS,
    X_TLIST,
    X_TRES,
    X_TRICK_END,
    X_TSEAT,
    X_ZCARDS,
    X_ZLEN,
    inlined,
)
from balancer.games.roles.kernel.recall import after_move_all, after_steal
from balancer.rng_kernels import init_streams


@inlined
def _rb(state: np.ndarray) -> int:
    """Where the state's role region starts: after the pile."""
    return state[O_ROLES]


@inlined
def _x(tables: np.ndarray, key: int) -> int:
    """Directory entry `key` of the program."""
    return tables[tables[T_PROG] + key]


@inlined
def _scalar(state: np.ndarray, tables: np.ndarray, which: int) -> int:
    return _rb(state) + _x(tables, X_SCALARS) + which


@inlined
def _zone_len(state: np.ndarray, tables: np.ndarray, zone: int, seat: int) -> int:
    """Index of the length of `zone` of `seat`."""
    return _rb(state) + _x(tables, X_ZLEN) + zone * tables[T_PLAYERS] + seat


@inlined
def _zone_at(state: np.ndarray, tables: np.ndarray, zone: int, seat: int) -> int:
    """Index of the first card of `zone` of `seat`."""
    players = tables[T_PLAYERS]
    return _rb(state) + _x(tables, X_ZCARDS) + (zone * players + seat) * tables[T_DECK]


@inlined
def _flag(state: np.ndarray, tables: np.ndarray, flag: int, seat: int) -> int:
    return _rb(state) + _x(tables, X_FLG) + flag * tables[T_PLAYERS] + seat


@inlined
def _counter(state: np.ndarray, tables: np.ndarray, counter: int, seat: int) -> int:
    return _rb(state) + _x(tables, X_CNT) + counter * tables[T_PLAYERS] + seat


@inlined
def _place(state: np.ndarray, tables: np.ndarray, glob: int, seat: int) -> int:
    """Index of `seat`'s place behind global `glob` (0: none yet)."""
    return _rb(state) + _x(tables, X_PLC) + glob * tables[T_PLAYERS] + seat


@inlined
def _event(state: np.ndarray, tables: np.ndarray, event: int) -> int:
    return _rb(state) + _x(tables, X_EVT) + event


# -- the deal and the contract ----------------------------------------------------------


@inlined
def start_game(
    state: np.ndarray, tables: np.ndarray, streams: np.ndarray, seed: int, game: int
) -> None:
    """Set the streams to game `game` of `seed` and deal it (engine.py State.__init__):
    fdc's deal (the same shuffle, hands, pile and first leader), then the role region
    at its start."""
    init_streams(streams, seed, game)
    deal(state, tables, streams)
    _init_roles(state, tables)


@inlined
def _init_roles(state: np.ndarray, tables: np.ndarray) -> None:
    rb = _rb(state)
    for i in range(rb, rb + _x(tables, X_REGION)):
        state[i] = 0
    players = tables[T_PLAYERS]
    cdecl = _x(tables, X_CDECL)
    for c in range(tables[T_NCOUNTERS]):
        for s in range(players):
            state[_counter(state, tables, c, s)] = tables[cdecl + 3 * c]
    gdecl = _x(tables, X_GDECL)
    for g in range(tables[T_NGLOBALS]):
        state[rb + _x(tables, X_GLB) + g] = tables[gdecl + 3 * g]
    for e in range(tables[T_NEVENTS]):
        state[rb + _x(tables, X_SOLE) + e] = -1


@inlined
def current_player(state: np.ndarray, tables: np.ndarray) -> int:
    """The seat to act, or -1 when the game is over."""
    phase = state[PHASE]
    if phase == PLAY:
        return state[ORDER + state[TURN]]
    if phase == CHOICE:
        rb = _rb(state)
        return state[rb + _x(tables, X_TSEAT) + state[_scalar(state, tables, S_TASK_AT)]]
    return -1


@inlined
def legal(state: np.ndarray, tables: np.ndarray, out: np.ndarray) -> int:
    """Fill out[:n] with the legal actions, in the engine's order; return n (0 when over)."""
    phase = state[PHASE]
    if phase == PLAY:
        seat = state[ORDER + state[TURN]]
        base = HANDS + seat * state[HCAP]
        copies = tables[T_COPIES]
        m = 0
        for i in range(state[HLEN + seat]):
            card = state[base + i]
            if copies > 1 and _kind_seen(tables, state, base, i, card):
                continue
            out[m] = card
            m += 1
        return m
    if phase == CHOICE:
        seat, card, step = _waiting(state, tables)
        n, _, _, _ = _ways(state, tables, step, seat, out, True, False, 0)
        return n
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
            _sort_out(state, tables)
            _run(state, tables)
    elif phase == CHOICE:
        seat, card, step = _waiting(state, tables)
        _, row, chosen, taken = _ways(
            state, tables, step, seat, out_none(state), False, True, action
        )
        state[PHASE] = PLAY
        _act(state, tables, row, seat, card, chosen, taken)
        state[_scalar(state, tables, S_STEP_AT)] += 1
        _run(state, tables)


@inlined
def out_none(state: np.ndarray) -> np.ndarray:
    """An array `_ways` is never asked to write to (write=False): the state itself."""
    return state


@inlined
def _waiting(state: np.ndarray, tables: np.ndarray) -> tuple[int, int, int]:
    """The task that waits for a decision: (owner, card, step index)."""
    rb = _rb(state)
    t = state[_scalar(state, tables, S_TASK_AT)]
    seat = state[rb + _x(tables, X_TSEAT) + t]
    card = state[rb + _x(tables, X_TCARD) + t]
    listed = state[rb + _x(tables, X_TLIST) + t]
    first_step = tables[_x(tables, X_LISTS) + 2 * listed]
    return seat, card, first_step + state[_scalar(state, tables, S_STEP_AT)]


@inlined
def write_record(
    state: np.ndarray, tables: np.ndarray, scores: np.ndarray, events: np.ndarray
) -> int:
    """A finished game's per-seat scores and events (the file's order); its length."""
    players = tables[T_PLAYERS]
    first, n = _x(tables, X_SCORE), _x(tables, X_NSCORE)
    for s in range(players):
        scores[s] = float(_terms(state, tables, first, n, s))
    evdecl = _x(tables, X_EVDECL)
    for e in range(tables[T_NEVENTS]):
        if tables[evdecl + EV_WIDTH * e] == EV_AT_END:
            total = 0
            for s in range(players):
                total += _terms(
                    state, tables, tables[evdecl + EV_WIDTH * e + 1],
                    tables[evdecl + EV_WIDTH * e + 2], s,
                )  # fmt: skip
            events[e] = float(total)
        else:
            events[e] = float(state[_event(state, tables, e)])
    return state[TRICKS]


@inlined
def scores_of(state: np.ndarray, tables: np.ndarray, scores: np.ndarray) -> None:
    """The record's scores alone (a play-out's end)."""
    first, n = _x(tables, X_SCORE), _x(tables, X_NSCORE)
    for s in range(tables[T_PLAYERS]):
        scores[s] = float(_terms(state, tables, first, n, s))


# -- the trick procedure ------------------------------------------------------------------


@inlined
def _start_trick(state: np.ndarray, tables: np.ndarray, leader: int) -> None:
    """engine.py _start_trick: the seats that play, naps counted down (or lapsed)."""
    players = tables[T_PLAYERS]
    anyone = False
    for s in range(players):
        if state[HLEN + s] > 0:
            anyone = True
    if state[_scalar(state, tables, S_ENDED)] != 0 or not anyone:
        state[PHASE] = OVER
        return
    skip = _rb(state) + _x(tables, X_SKIP)
    waiting = 0  # a bit per seat with cards that does not sit this trick out
    for s in range(players):
        if state[HLEN + s] > 0 and state[skip + s] == 0:
            waiting |= 1 << s
    if waiting != 0:
        for s in range(players):
            if state[skip + s] > 0:
                state[skip + s] -= 1
    else:
        for s in range(players):
            state[skip + s] = 0
            if state[HLEN + s] > 0:
                waiting |= 1 << s
    while (waiting >> leader) & 1 == 0:
        leader = _seat_after(leader, 1, players)
    state[LEADER] = leader
    n = 0
    for k in range(players):
        seat = _seat_after(leader, k, players)
        if (waiting >> seat) & 1 != 0:
            state[ORDER + n] = seat
            n += 1
    state[NORDER] = n
    state[TURN] = 0
    state[PHASE] = PLAY


@inlined
def _count_engine(state: np.ndarray, tables: np.ndarray, events: int, by: int) -> None:
    """Add `by` to each event whose bit is set in `events` (a directory mask)."""
    e = 0
    while (events >> e) != 0:
        if (events >> e) & 1 != 0:
            state[_event(state, tables, e)] += by
        e += 1


@inlined
def _push_task(
    state: np.ndarray, tables: np.ndarray, seat: int, card: int, listed: int, resolving: int
) -> None:
    rb = _rb(state)
    at = _scalar(state, tables, S_NTASK)
    t = state[at]
    state[rb + _x(tables, X_TSEAT) + t] = seat
    state[rb + _x(tables, X_TCARD) + t] = card
    state[rb + _x(tables, X_TLIST) + t] = listed
    state[rb + _x(tables, X_TRES) + t] = resolving
    state[at] = t + 1


@inlined
def _sort_out(state: np.ndarray, tables: np.ndarray) -> None:
    """engine.py _sort_out: fdc's sort_out, then the tasks: each cancelled card's
    on_cancelled steps (in procedure.sort_out's order of the cancelled: the lead
    under 猫に小判, else the off-colour cards; then the duplicates, in play order),
    then each survivor's role in resolution order."""
    turn = state[TURN]
    m, cancelled, neko = sort_out(tables, state, PSEAT, PCARD, turn, state, SURV_SEAT, SURV_CARD)
    if neko:
        _count_engine(state, tables, _x(tables, X_NEKO_EVENTS), 1)
    _count_engine(state, tables, _x(tables, X_CANCELLED_EVENTS), cancelled)
    state[_scalar(state, tables, S_NTASK)] = 0
    state[_scalar(state, tables, S_TASK_AT)] = 0
    state[_scalar(state, tables, S_STEP_AT)] = 0
    state[_scalar(state, tables, S_HOOKS)] = 0
    state[NEXT_LEADER] = state[SURV_SEAT] if m > 0 else -1
    if cancelled > 0 and _x(tables, X_ANY_CANCELLED) != 0:
        d = tables[T_DECK]
        col = T_CARDS + COLOUR * d
        role = T_CARDS + ROLE * d
        roles = _x(tables, X_ROLES)
        lead_colour = tables[col + state[PCARD]]
        # Two passes over the plays give the engine's order of the cancelled cards.
        for sweep in range(2):
            for i in range(turn):
                card = state[PCARD + i]
                if _survives(state, m, card):
                    continue
                first = i == 0 if neko else tables[col + card] != lead_colour
                if first == (sweep == 0):
                    listed = tables[roles + 2 * tables[role + card] + 1]
                    if listed >= 0:
                        _push_task(state, tables, state[PSEAT + i], card, listed, 0)
    role = T_CARDS + ROLE * tables[T_DECK]
    roles = _x(tables, X_ROLES)
    for i in range(m):
        card = state[SURV_CARD + i]
        _push_task(
            state, tables, state[SURV_SEAT + i], card, tables[roles + 2 * tables[role + card]], 1
        )


@inlined
def _survives(state: np.ndarray, m: int, card: int) -> bool:
    for i in range(m):  # noqa: SIM110
        if state[SURV_CARD + i] == card:
            return True
    return False


@inlined
def _run(state: np.ndarray, tables: np.ndarray) -> None:
    """engine.py _run: the queued tasks' steps until one needs a decision, the
    on_trick_end hook for each seat from the leader, then the trick's end."""
    rb = _rb(state)
    lists = _x(tables, X_LISTS)
    at_task = _scalar(state, tables, S_TASK_AT)
    at_step = _scalar(state, tables, S_STEP_AT)
    ntask = _scalar(state, tables, S_NTASK)
    while True:
        while state[at_task] < state[ntask]:
            t = state[at_task]
            seat = state[rb + _x(tables, X_TSEAT) + t]
            card = state[rb + _x(tables, X_TCARD) + t]
            listed = state[rb + _x(tables, X_TLIST) + t]
            if listed >= 0:
                first, steps = tables[lists + 2 * listed], tables[lists + 2 * listed + 1]
                while state[at_step] < steps:
                    if not _step(state, tables, first + state[at_step], seat, card):
                        return  # waiting for the owner's decision
                    state[at_step] += 1
            state[at_task] = t + 1
            state[at_step] = 0
        hook = _x(tables, X_TRICK_END)
        hooks = _scalar(state, tables, S_HOOKS)
        if state[hooks] != 0 or hook < 0:
            break
        state[hooks] = 1
        players = tables[T_PLAYERS]
        for k in range(players):
            _push_task(state, tables, _seat_after(state[LEADER], k, players), -1, hook, 0)
    _end_trick(state, tables)


@inlined
def _end_trick(state: np.ndarray, tables: np.ndarray) -> None:
    players = tables[T_PLAYERS]
    state[TRICKS] += 1
    fdecl = _x(tables, X_FDECL)
    for f in range(tables[T_NFLAGS]):
        if tables[fdecl + f] != 0:
            for s in range(players):
                state[_flag(state, tables, f, s)] = 0
    state[_scalar(state, tables, S_NTASK)] = 0
    state[_scalar(state, tables, S_TASK_AT)] = 0
    state[_scalar(state, tables, S_STEP_AT)] = 0
    _arrive(state, tables)
    _count_lead_changes(state, tables)
    state[_scalar(state, tables, S_ENDED)] = _goal_reached(state, tables)
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
    _start_trick(state, tables, leader)


@inlined
def _arrive(state: np.ndarray, tables: np.ndarray) -> None:
    """engine.py _arrive: per place term, the seats with no place whose counter reached
    the gate take places, the furthest first (the lower seat first on equal counters,
    as the engine's stable sort), equal counters sharing the place before; the global
    goes up by the arrivals, up to its declared high."""
    players = tables[T_PLAYERS]
    terms = _x(tables, X_TERMS)
    first = _x(tables, X_SCORE)
    for i in range(first, first + _x(tables, X_NSCORE)):
        row = terms + TERM_WIDTH * i
        if tables[row] != TERM_PLACE:
            continue
        glob, counter = tables[row + M_INDEX], tables[row + M_COUNTER]
        gate, last = tables[row + M_REACHES], tables[row + M_PLACES]
        waiting = 0  # a bit per seat arriving this trick, not yet placed
        for s in range(players):
            if (
                state[_place(state, tables, glob, s)] == 0
                and state[_counter(state, tables, counter, s)] >= gate
            ):
                waiting |= 1 << s
        at_glob = _rb(state) + _x(tables, X_GLB) + glob
        taken = state[at_glob]
        rank = 0
        previous = -1
        while waiting != 0:
            seat = -1
            for s in range(players):
                if (waiting >> s) & 1 != 0 and (
                    seat < 0
                    or state[_counter(state, tables, counter, s)]
                    > state[_counter(state, tables, counter, seat)]
                ):
                    seat = s
            waiting &= ~(1 << seat)
            value = state[_counter(state, tables, counter, seat)]
            if rank > 0 and value == state[_counter(state, tables, counter, previous)]:
                place = state[_place(state, tables, glob, previous)]
            else:
                place = taken + rank + 1
            state[_place(state, tables, glob, seat)] = place
            if place <= last and tables[row + M_EVENT] >= 0:
                state[_event(state, tables, tables[row + M_EVENT])] += 1
            if place > last and tables[row + M_BEYOND_EVENT] >= 0:
                state[_event(state, tables, tables[row + M_BEYOND_EVENT])] += 1
            previous = seat
            rank += 1
        if rank > 0:
            high = tables[_x(tables, X_GDECL) + 3 * glob + 2]
            state[at_glob] = min(taken + rank, high)


@inlined
def _goal_reached(state: np.ndarray, tables: np.ndarray) -> int:
    ends = _x(tables, X_ENDS)
    players = tables[T_PLAYERS]
    for g in range(_x(tables, X_NENDS)):
        row = ends + END_WIDTH * g
        kind, index = tables[row], tables[row + 1]
        target = _amount(state, tables, tables[row + 2], tables[row + 3], players - 1, -1)
        if kind == END_TRICKS:
            if state[TRICKS] >= target:
                return 1
        elif kind == END_COUNTER:
            best = state[_counter(state, tables, index, 0)]
            for s in range(1, players):
                best = max(best, state[_counter(state, tables, index, s)])
            if best >= target:
                return 1
        elif state[_rb(state) + _x(tables, X_GLB) + index] >= target:
            return 1
    return 0


@inlined
def _count_lead_changes(state: np.ndarray, tables: np.ndarray) -> None:
    """engine.py _count_lead_changes: per lead_changes event, its sole leader in its
    terms; a change when it passes from one seat to another."""
    players = tables[T_PLAYERS]
    evdecl = _x(tables, X_EVDECL)
    lead = _x(tables, X_LEAD_EVENTS)
    e = -1
    while (lead >> (e + 1)) != 0:
        e += 1
        if (lead >> e) & 1 == 0:
            continue
        row = evdecl + EV_WIDTH * e
        best = _terms(state, tables, tables[row + 1], tables[row + 2], 0)
        sole = 0
        count = 1
        for s in range(1, players):
            value = _terms(state, tables, tables[row + 1], tables[row + 2], s)
            if value > best:
                best, sole, count = value, s, 1
            elif value == best:
                count += 1
        if best <= 0 or count != 1:
            continue
        at = _rb(state) + _x(tables, X_SOLE) + e
        if sole == state[at]:
            continue
        if state[at] >= 0:
            state[_event(state, tables, e)] += 1
        state[at] = sole


@inlined
def _amount(
    state: np.ndarray, tables: np.ndarray, kind: int, value: int, seat: int, card: int
) -> int:
    """engine.py _amount, knobs already filled in: a constant, the card's number (0
    for no card), or how many cards `seat` holds in zone `value`."""
    if kind == AMT_CONST:
        return value
    if kind == AMT_NUMBER:
        if card < 0:
            return 0
        return tables[T_CARDS + NUMBER * tables[T_DECK] + card]
    return state[_zone_len(state, tables, value, seat)]


@inlined
def _terms(state: np.ndarray, tables: np.ndarray, first: int, n: int, seat: int) -> int:
    """engine.py _terms: score terms `first..first + n` of the terms table for `seat`."""
    total = 0
    terms = _x(tables, X_TERMS)
    num = T_CARDS + NUMBER * tables[T_DECK]
    for i in range(first, first + n):
        row = terms + TERM_WIDTH * i
        kind, index = tables[row], tables[row + 1]
        if kind == TERM_ZONE:
            length = state[_zone_len(state, tables, index, seat)]
            per_card = _amount(state, tables, tables[row + 2], tables[row + 3], seat, -1)
            per_number = _amount(state, tables, tables[row + 4], tables[row + 5], seat, -1)
            total += per_card * length
            if per_number != 0:
                base = _zone_at(state, tables, index, seat)
                numbers = 0
                for j in range(length):
                    numbers += tables[num + state[base + j]]
                total += per_number * numbers
        elif kind == TERM_COUNTER:
            times = _amount(state, tables, tables[row + 6], tables[row + 7], seat, -1)
            total += times * state[_counter(state, tables, index, seat)]
        elif kind == TERM_PLACE:
            place = state[_place(state, tables, index, seat)]
            places = tables[row + M_PLACES]
            if place > places:
                total += tables[row + M_BEYOND]
            elif place > 0:
                total += places + 1 - place
    return total


# -- the roles' steps ---------------------------------------------------------------------


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
                victim = _seat_after(seat, k, players)
                if unless >= 0 and state[_flag(state, tables, unless, victim)] != 0:
                    continue
                base = _zone_at(state, tables, zone, victim)
                for i in range(state[_zone_len(state, tables, zone, victim)]):
                    c = state[base + i]
                    if fresh != 0 and _in_plays(state, PCARD, turn, c):
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
                r = _seat_after(seat, k, players)
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
        if fresh != 0 and _in_plays(state, PCARD, turn, other):
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
            i = _index_of(state, base, state[at], taken)
            if i >= 0:
                _remove_at(state, base, state[at], i)
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
        return _seat_after(seat, 1, players)
    if target == TGT_PREV:
        return _seat_after(seat, players - 1, players)
    if target == TGT_ALL:
        return _seat_after(seat, 1 + j, players)
    if target == TGT_LEADER:
        return state[LEADER]
    # top: the rival with the most of the counter, the first from the owner on a tie
    counter = tables[row + R_TARGET_ARG]
    best = _seat_after(seat, 1, players)
    for k in range(2, players):
        r = _seat_after(seat, k, players)
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
        at = _flag(state, tables, tables[row + R_A], t)
        was = state[at]
        state[at] = 1
        return was == 0
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
    best = state[_counter(state, tables, c, _seat_after(t, 1, players))]
    for k in range(2, players):
        best = max(best, state[_counter(state, tables, c, _seat_after(t, k, players))])
    goal = min(best - tables[row + R_B], tables[cdecl + 2])
    if state[at] < goal:
        state[at] = goal
        return True
    return False


assert OP_CATCH_UP not in (OP_GUARD, OP_SKIP_TURN, OP_ADD)
