"""The one interpreter of every role game, compiled: the trick procedure (the trick
package's kernels, games/trick/kernel/, as Fish! Dash! Cash!'s kernel calls them) and
roles read from the tables (layout.py), step for step as the Python interpreter
(roles/engine.py) plays them.

Entry points, as every kernel's: `start_game`, `current_player`, `legal`,
`apply`, `write_record`. The rest mirrors engine.py's methods of the same
names: `_sort_out` queues the trick's tasks, `_run` works through them until
a step needs its owner's decision, and `_end_trick` closes the trick. The
interpreter is split by job: this module holds the deal, the contract and the
trick procedure; acts.py a step's ways and primitives (and how a decision is
coded); scoring.py the score terms and what reads them; regions.py where the
state keeps each thing. What the kernel's other modules imported from here
before the split is still here: the `name as name` imports re-export it.
"""

from __future__ import annotations

import numpy as np

from balancer.games.roles.kernel.acts import (
    _act,
    _step,
    _ways,
    out_none,
    unmet,
)
from balancer.games.roles.kernel.layout import (
    CHOICE,
    LEADER,
    NEXT_LEADER,
    ORDER,
    OVER,
    PCARD,
    PHASE,
    PLAY,
    PSEAT,
    ROLE,
    S_ENDED,
    S_HOOKS,
    S_NTASK,
    S_STEP_AT,
    S_TASK_AT,
    SURVIVOR_CARD,
    SURVIVOR_SEAT,
    T_CARDS,
    T_DECK,
    T_NCOUNTERS,
    T_NEVENTS,
    T_NFLAGS,
    T_NGLOBALS,
    T_PLAYERS,
    TRICKS,
    TURN,
    X_ANY_CANCELLED,
    X_CANCELLED_EVENTS,
    X_CDECL,
    X_FDECL,
    X_GDECL,
    X_GLB,
    X_LISTS,
    X_NEKO_EVENTS,
    X_REGION,
    X_ROLES,
    X_SKIP,
    X_SOLE,
    X_TCARD,
    X_TLIST,
    X_TRES,
    X_TRICK_END,
    X_TSEAT,
    inlined,
)
from balancer.games.roles.kernel.regions import (
    _counter,
    _event,
    _flag,
    _rb,
    _scalar,
    _x,
)
from balancer.games.roles.kernel.regions import _place as _place
from balancer.games.roles.kernel.regions import _zone_at as _zone_at
from balancer.games.roles.kernel.regions import _zone_len as _zone_len
from balancer.games.roles.kernel.scoring import _amount as _amount
from balancer.games.roles.kernel.scoring import (
    _arrive,
    _count_lead_changes,
    _goal_reached,
)
from balancer.games.roles.kernel.scoring import _terms as _terms
from balancer.games.roles.kernel.scoring import scores_of as scores_of
from balancer.games.roles.kernel.scoring import write_record as write_record
from balancer.games.roles.kernel.secret_goals import deal_goals
from balancer.games.trick.kernel.lists import seat_after
from balancer.games.trick.kernel.procedure import (
    cancelled_pass,
    deal,
    draw_round,
    holding,
    legal_plays,
    next_leader,
    open_trick,
    play_card,
    sort_out,
)
from balancer.rng_kernels import init_streams

# -- the deal and the contract ----------------------------------------------------------


@inlined
def start_game(
    state: np.ndarray, tables: np.ndarray, streams: np.ndarray, seed: int, game: int
) -> None:
    """Set the streams to game `game` of `seed` and deal it (engine.py State.__init__):
    the trick's deal (the same shuffle, hands, pile and first leader as fdc's), then
    the role region at its start, and the secret goals (a file's that has them)."""
    init_streams(streams, seed, game)
    deal(state, tables, streams)
    _init_roles(state, tables)
    deal_goals(state, tables, streams)


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
        return legal_plays(state, tables, out)
    if phase == CHOICE:
        seat, card, step = _waiting(state, tables)
        n, _, _, _ = _ways(
            state, tables, step, seat, unmet(state, tables, step, seat), out, True, False, 0
        )
        return n
    return 0


@inlined
def apply(state: np.ndarray, tables: np.ndarray, streams: np.ndarray, action: int) -> None:
    """Play `action` (one of `legal`) for the current player; the game runs on to the
    next decision. A random discard draws from streams[CHANCE] (primitives/discard.py),
    going on from the deal, as the engine's State.chance."""
    phase = state[PHASE]
    run = False  # one call site of _run, which inlines every primitive
    if phase == PLAY:
        run = play_card(state, action)
        if run:
            _sort_out(state, tables)
    elif phase == CHOICE:
        seat, card, step = _waiting(state, tables)
        _, row, chosen, taken = _ways(
            state, tables, step, seat, unmet(state, tables, step, seat), out_none(state),
            False, True, action,
        )  # fmt: skip
        state[PHASE] = PLAY
        _act(state, tables, streams, row, seat, card, chosen, taken)
        state[_scalar(state, tables, S_STEP_AT)] += 1
        run = True
    if run:
        _run(state, tables, streams)


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


# -- the trick procedure ------------------------------------------------------------------


@inlined
def _start_trick(state: np.ndarray, tables: np.ndarray, leader: int) -> None:
    """engine.py _start_trick: the seats that play, naps counted down (or lapsed); the
    trick opened as the trick procedure opens one (`open_trick`)."""
    players = tables[T_PLAYERS]
    seats = holding(state)  # a bit per seat with cards
    if state[_scalar(state, tables, S_ENDED)] != 0 or seats == 0:
        state[PHASE] = OVER
        return
    skip = _rb(state) + _x(tables, X_SKIP)
    waiting = 0  # a bit per seat with cards that does not sit this trick out
    for s in range(players):
        if (seats >> s) & 1 != 0 and state[skip + s] == 0:
            waiting |= 1 << s
    if waiting != 0:
        for s in range(players):
            if state[skip + s] > 0:
                state[skip + s] -= 1
    else:  # every seat with cards would sit out: the naps lapse
        for s in range(players):
            state[skip + s] = 0
        waiting = seats
    open_trick(state, leader, waiting)


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
    """engine.py _sort_out: the trick's sort_out, then the tasks: each cancelled card's
    on_cancelled steps (in procedure.sort_out's order of the cancelled: the lead
    under 猫に小判, else the off-colour cards; then the duplicates, in play order:
    the trick's `cancelled_pass`), then each survivor's role in resolution order."""
    turn = state[TURN]
    m, cancelled, neko = sort_out(
        tables, state, PSEAT, PCARD, turn, state, SURVIVOR_SEAT, SURVIVOR_CARD
    )
    if neko:
        _count_engine(state, tables, _x(tables, X_NEKO_EVENTS), 1)
    _count_engine(state, tables, _x(tables, X_CANCELLED_EVENTS), cancelled)
    state[_scalar(state, tables, S_NTASK)] = 0
    state[_scalar(state, tables, S_TASK_AT)] = 0
    state[_scalar(state, tables, S_STEP_AT)] = 0
    state[_scalar(state, tables, S_HOOKS)] = 0
    state[NEXT_LEADER] = state[SURVIVOR_SEAT] if m > 0 else -1
    if cancelled > 0 and _x(tables, X_ANY_CANCELLED) != 0:
        role = T_CARDS + ROLE * tables[T_DECK]
        roles = _x(tables, X_ROLES)
        # Two passes over the plays give the engine's order of the cancelled cards.
        for sweep in range(2):
            for i in range(turn):
                if cancelled_pass(state, tables, i, m, neko) == sweep:
                    card = state[PCARD + i]
                    listed = tables[roles + 2 * tables[role + card] + 1]
                    if listed >= 0:
                        _push_task(state, tables, state[PSEAT + i], card, listed, 0)
    role = T_CARDS + ROLE * tables[T_DECK]
    roles = _x(tables, X_ROLES)
    for i in range(m):
        card = state[SURVIVOR_CARD + i]
        _push_task(
            state,
            tables,
            state[SURVIVOR_SEAT + i],
            card,
            tables[roles + 2 * tables[role + card]],
            1,
        )


@inlined
def _run(state: np.ndarray, tables: np.ndarray, streams: np.ndarray) -> None:
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
                    if not _step(state, tables, streams, first + state[at_step], seat, card):
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
            _push_task(state, tables, seat_after(state[LEADER], k, players), -1, hook, 0)
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
    leader = next_leader(state, tables)
    draw_round(state, leader)
    _start_trick(state, tables, leader)
