"""A world of a role game from one seat's view, compiled: `determinize`, with the
same name and signature as every kernel's (games/kernel_api.py; a search bot's
worlds and the lookahead bot's, kernel/lookahead.py).

`determinize` deals again what the seat can't see: the other seats' hands, the
cards of the other seats' face-down zones (the game file's `face: down`: a view
shows them as a count) that it can't recall (recall.py: it recalls every card it
saw go in, unless a steal between face-down zones hid it), and the pile, each
keeping its size; the pool is listed by card number (a flag per card), never in
the order the true state holds it, so two states that differ only in hidden
cards give the same world from the same rng. As roles/determinize.py does from
the view, a zone keeps the cards recalled first, in their order, then the dealt.
Then the rivals' secret goals are dealt again from the goal cards the seat has not
seen, listed by number too (secret_goals.py `redeal_goals`).
A file whose ops draw chance in play (a random discard: tables X_DRAWS_CHANCE) gets
out_streams[CHANCE] keyed from one more draw of rng, last, as roles/determinize.py
keys the world's State.chance: the world never draws the true game's future. Any
other file's `out_streams` is left as it is (and rng drawn no more).
"""

from __future__ import annotations

import numpy as np

from balancer.games.roles.kernel.interpreter import _event, _x, _zone_at, _zone_len
from balancer.games.roles.kernel.layout import (
    DECK,
    HANDS,
    HCAP,
    HLEN,
    O_PILE,
    PILE_LEN,
    T_NEVENTS,
    T_NZONES,
    T_PLAYERS,
    X_DRAWS_CHANCE,
    X_ZFACE,
    inlined,
)
from balancer.games.roles.kernel.recall import unsure_at
from balancer.games.roles.kernel.secret_goals import redeal_goals
from balancer.rng import CHANCE
from balancer.rng_kernels import next_u64, shuffle, stream_key


@inlined
def unseen_pool(state: np.ndarray, tables: np.ndarray, seat: int, out: np.ndarray) -> int:
    """List the cards `seat` can't see, by card number, at out's pile block; how many."""
    pile, d = state[O_PILE], state[DECK]
    for c in range(d):
        out[pile + c] = 0
    hcap = state[HCAP]
    players = tables[T_PLAYERS]
    face = _x(tables, X_ZFACE)
    unsure = unsure_at(state, tables)
    for s in range(players):
        if s == seat:
            continue
        for j in range(state[HLEN + s]):
            out[pile + state[HANDS + s * hcap + j]] = 1
        for z in range(tables[T_NZONES]):
            if tables[face + z] != 0:
                base = _zone_at(state, tables, z, s)
                for j in range(state[_zone_len(state, tables, z, s)]):
                    if state[unsure + state[base + j]] != 0:  # else recalled: seen
                        out[pile + state[base + j]] = 1
    for j in range(state[PILE_LEN]):
        out[pile + state[pile + j]] = 1
    n = 0
    for c in range(d):  # compacted in place: n <= c
        if out[pile + c] != 0:
            out[pile + n] = c
            n += 1
    return n


@inlined
def determinize(
    state: np.ndarray,
    tables: np.ndarray,
    seat: int,
    rng: np.ndarray,
    out: np.ndarray,
    out_streams: np.ndarray,
) -> int:
    """A world for `seat` into `out` (the module's docstring): `state` copied, the
    unseen pool shuffled on rng's stream 0 and dealt seat by seat from 0 (not `seat`):
    the hands, then each face-down zone in the file's order (what the seat can't
    recall of it, after the cards it recalls); the rest is the pile; then the rivals'
    secret goals from the same stream. The event counts are reset, as in every world.
    Returns 0: every deal of the pool is a position the seat can't tell from the true one."""
    for i in range(state.shape[0]):
        out[i] = state[i]
    n = unseen_pool(state, tables, seat, out)
    pile = state[O_PILE]
    unsure = unsure_at(state, tables)
    for k in range(n):  # a card dealt into a hand or the pile is sure of nothing
        out[unsure + out[pile + k]] = 0
    shuffle(rng, 0, out[pile : pile + n], n)
    hcap = state[HCAP]
    players = tables[T_PLAYERS]
    at = 0
    for s in range(players):
        if s != seat:
            for j in range(state[HLEN + s]):
                out[HANDS + s * hcap + j] = out[pile + at]
                at += 1
    face = _x(tables, X_ZFACE)
    for z in range(tables[T_NZONES]):
        if tables[face + z] != 0:
            for s in range(players):
                if s != seat:
                    base = _zone_at(state, tables, z, s)
                    size = state[_zone_len(state, tables, z, s)]
                    kept = 0
                    for j in range(size):  # the cards recalled first, in their order
                        if state[unsure + state[base + j]] == 0:
                            out[base + kept] = state[base + j]
                            kept += 1
                    for j in range(kept, size):
                        out[base + j] = out[pile + at]
                        out[unsure + out[pile + at]] = 1
                        at += 1
    for k in range(n - at):  # moved down in place: at >= 0
        out[pile + k] = out[pile + at + k]
    # Then the rivals' secret goals, from the same stream (determinize.py's order).
    redeal_goals(state, tables, seat, rng, out)
    for e in range(tables[T_NEVENTS]):
        out[_event(out, tables, e)] = 0
    if _x(tables, X_DRAWS_CHANCE) != 0:  # last: Stream(rng.next_u64(), 0, CHANCE)
        out_streams[CHANCE, 0] = stream_key(int(next_u64(rng, 0)), 0, CHANCE)
        out_streams[CHANCE, 1] = 0
    return 0
