"""The score terms compiled, and what reads them (engine.py's methods of the same
names): `_amount` and `_terms` (each kind's value: games/roles/scores/), a finished
game's record (`write_record`, `scores_of`), and a trick's end: the seats that
reach a place term's gate (`_arrive`), whether a goal ends the game
(`_goal_reached`), the lead changes (`_count_lead_changes`)."""

from __future__ import annotations

import numpy as np

from balancer.games.roles.kernel.amounts import amount as _amount
from balancer.games.roles.kernel.layout import (
    END_COUNTER,
    END_TRICKS,
    END_WIDTH,
    EV_AT_END,
    EV_WIDTH,
    M_BEYOND_EVENT,
    M_COUNTER,
    M_EVENT,
    M_INDEX,
    M_PLACES,
    M_REACHES,
    T_NEVENTS,
    T_PLAYERS,
    TERM_WIDTH,
    TRICKS,
    X_ENDS,
    X_EVDECL,
    X_GDECL,
    X_GLB,
    X_GOAL_DEAL,
    X_LEAD_EVENTS,
    X_NENDS,
    X_NSCORE,
    X_SCORE,
    X_SOLE,
    X_TERMS,
    inlined,
    outermost,
)
from balancer.games.roles.kernel.regions import (
    _counter,
    _event,
    _place,
    _rb,
    _x,
)
from balancer.games.roles.scores import (
    TERM_COUNTER,
    TERM_GOALS,
    TERM_PLACE,
    TERM_RANK,
    TERM_ZONE,
    counter,
    goals,
    place,
    rank,
    zone,
)


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
def score_row(state: np.ndarray, tables: np.ndarray, row: np.ndarray) -> None:
    """Each seat's score were the game to end now, into int64 `row` (a trick's progress:
    stats/how_it_plays.py)."""
    first, n = _x(tables, X_SCORE), _x(tables, X_NSCORE)
    for s in range(tables[T_PLAYERS]):
        row[s] = _terms(state, tables, first, n, s)


@inlined
def scores_of(state: np.ndarray, tables: np.ndarray, scores: np.ndarray) -> None:
    """The record's scores alone (a play-out's end)."""
    first, n = _x(tables, X_SCORE), _x(tables, X_NSCORE)
    for s in range(tables[T_PLAYERS]):
        scores[s] = float(_terms(state, tables, first, n, s))


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


# Each score term kind's compiled value (games/roles/scores/), built once; `_terms` calls
# each at one place, as numba inlines a function at every call site.
zone_value = zone.SPEC.compiled()
counter_value = counter.SPEC.compiled()
place_value = place.SPEC.compiled()
rank_value = rank.SPEC.compiled()
goal_row = goals.SPEC.compiled()


@inlined
def _terms(state: np.ndarray, tables: np.ndarray, first: int, n: int, seat: int) -> int:
    """engine.py terms: score terms `first..first + n` of the terms table for `seat`,
    one dispatch line per kind."""
    total = 0
    terms = _x(tables, X_TERMS)
    for i in range(first, first + n):
        row = terms + TERM_WIDTH * i
        kind = tables[row]
        if kind == TERM_ZONE:
            total += zone_value(state, tables, row, seat)
        elif kind == TERM_COUNTER:
            total += counter_value(state, tables, row, seat)
        elif kind == TERM_PLACE:
            total += place_value(state, tables, row, seat)
        elif kind == TERM_RANK:
            total += rank_value(state, tables, row, seat)
        elif kind == TERM_GOALS:
            total += _goal_terms(state, tables, row, seat)
    return total


# Called, not inlined: a `{goals: true}` row is rare and its goals' rows are read here,
# so every other row keeps `_terms` as it was (the lead-changes event sums the terms at
# every trick's end) and each kind's value one inlined copy per caller.
@outermost
def _goal_terms(state: np.ndarray, tables: np.ndarray, row: int, seat: int) -> int:
    """A `{goals: true}` row for `seat`: the term rows of each goal card it holds
    (scores/goals.py says where they lie; a goal's terms are zone, counter and rank
    terms), summed."""
    total = 0
    terms = _x(tables, X_TERMS)
    for j in range(_x(tables, X_GOAL_DEAL)):
        at = goal_row(state, tables, row, seat, j)
        for k in range(tables[at], tables[at] + tables[at + 1]):
            one = terms + TERM_WIDTH * k
            kind = tables[one]
            if kind == TERM_ZONE:
                total += zone_value(state, tables, one, seat)
            elif kind == TERM_COUNTER:
                total += counter_value(state, tables, one, seat)
            elif kind == TERM_RANK:
                total += rank_value(state, tables, one, seat)
    return total
