"""Whole games and play-outs on the role interpreter: a chunk of games in one compiled
call (sim/compiled.py's entry), `play_out` from any position and `determinize` from
a seat's view (a search bot's two steps), with the same names and signatures as
every kernel's (games/kernel_api.py).

`determinize` deals again what the seat can't see: the other seats' hands, the
cards of the other seats' face-down zones (the game file's `face: down`: a view
shows them as a count) that it can't recall (recall.py: it recalls every card it
saw go in, unless a steal between face-down zones hid it), and the pile, each
keeping its size; the pool is listed by card number (a flag per card), never in
the order the true state holds it, so two states that differ only in hidden
cards give the same world from the same rng. As roles/determinize.py does from
the view, a zone keeps the cards recalled first, in their order, then the dealt.
Role games draw chance only at the deal: `out_streams` is left as it is.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from balancer.games.api import held_words
from balancer.games.fdc.kernel.bots import _random_move
from balancer.games.fdc.kernel.stepping import _held_at_deal
from balancer.games.kernel_api import ChunkColumns
from balancer.games.roles.kernel.interpreter import (
    _event,
    _x,
    _zone_at,
    _zone_len,
    apply,
    current_player,
    legal,
    scores_of,
    start_game,
    write_record,
)
from balancer.games.roles.kernel.layout import (
    BOT_KINDS,
    DECK,
    HANDS,
    HCAP,
    HLEN,
    N_PARAMS,
    O_PILE,
    OVER,
    PHASE,
    PILE_LEN,
    PLAN_KIND,
    PLAN_SIZE,
    T_COPIES,
    T_DECK,
    T_NEVENTS,
    T_NZONES,
    T_PLAYERS,
    TRICKS,
    X_ZFACE,
    inlined,
    outermost,
)
from balancer.games.roles.kernel.recall import unsure_at
from balancer.games.roles.kernel.tables import make_tables, new_legal, new_state, new_streams
from balancer.games.roles.model import RoleGame
from balancer.rng_kernels import shuffle


def _check_bots(names: Sequence[str]) -> None:
    for name in names:
        if name not in BOT_KINDS:
            raise ValueError(f"no compiled role-game bot {name!r}; compiled: {sorted(BOT_KINDS)}")


def play_chunk(
    game: RoleGame,
    rules: Mapping[str, Any],
    players: int,
    seed: int,
    start: int,
    stop: int,
    slots: Sequence[tuple[str, Mapping[str, Any]]],
    rotate: bool,
) -> ChunkColumns:
    """Games start..stop-1 of `seed` in one compiled call (games/kernel_api.py's contract).

    Every compiled bot is `random`, which draws from its physical seat's stream:
    the seats' slots (and their rotation) choose nothing else."""
    if len(slots) != players:
        raise ValueError(f"{len(slots)} bot slots for {players} players")
    _check_bots([name for name, _ in slots])
    tables = make_tables(game, rules, players)
    state = new_state(tables)
    streams = new_streams(players)
    moves = new_legal(state, tables)
    games = max(0, stop - start)
    scores = np.zeros((games, players), np.float64)
    length = np.zeros(games, np.int64)
    events = np.zeros((games, len(game.events)), np.float64)
    words = held_words(int(tables[T_DECK] // tables[T_COPIES]))
    held = np.zeros((games, players * words), np.uint64)
    _play_games(
        tables, seed, start, stop, state, streams, moves, scores, length, events, held, words
    )
    return ChunkColumns(start=start, scores=scores, length=length, events=events, held=held)


@outermost
def _play_games(
    tables: np.ndarray,
    seed: int,
    start: int,
    stop: int,
    state: np.ndarray,
    streams: np.ndarray,
    moves: np.ndarray,
    scores: np.ndarray,
    length: np.ndarray,
    events: np.ndarray,
    held: np.ndarray,
    words: int,
) -> None:
    """engine.py's games start..stop-1 with `random` in every seat, as sim/play.py
    plays them: a forced move is played without asking (no draw from the stream)."""
    for game in range(start, stop):
        start_game(state, tables, streams, seed, game)
        row = game - start
        _held_at_deal(state, tables, held[row], words)
        while state[PHASE] != OVER:
            n = legal(state, tables, moves)
            if n == 1:
                action = moves[0]
            else:
                action = _random_move(streams, current_player(state, tables), moves, n)
            apply(state, tables, streams, action)
        length[row] = write_record(state, tables, scores[row], events[row])


# -- rollouts -------------------------------------------------------------------------------


def encode_bots(seats: Sequence[tuple[str, Mapping[str, Any]]]) -> tuple[np.ndarray, np.ndarray]:
    """(plan, params) for `play_out`: seats[s] is physical seat s's compiled bot."""
    _check_bots([name for name, _ in seats])
    plan = np.zeros(PLAN_SIZE, np.int64)
    for s, (name, _) in enumerate(seats):
        plan[PLAN_KIND + s] = BOT_KINDS[name]
    return plan, np.zeros(len(seats) * N_PARAMS, np.float64)


def new_scratch(state: np.ndarray, tables: np.ndarray) -> np.ndarray:
    """`play_out`'s work space: the legal-move buffer."""
    return new_legal(state, tables)


@inlined
def play_out(
    state: np.ndarray,
    tables: np.ndarray,
    streams: np.ndarray,
    plan: np.ndarray,
    params: np.ndarray,
    scratch: np.ndarray,
    scores: np.ndarray,
) -> int:
    """Play from `state` to the end, seat s drawing from stream 1 + s (every compiled
    bot is `random`: `plan` and `params` choose nothing else yet); a forced move is
    played without asking. scores[s] gets seat s's score; returns the length."""
    while state[PHASE] != OVER:
        n = legal(state, tables, scratch)
        if n == 1:
            action = scratch[0]
        else:
            action = _random_move(streams, current_player(state, tables), scratch, n)
        apply(state, tables, streams, action)
    scores_of(state, tables, scores)
    return state[TRICKS]


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
    recall of it, after the cards it recalls); the rest is the pile.
    The event counts are reset, as in every world. Returns 0: every deal of the pool
    is a position the seat can't tell from the true one."""
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
    for e in range(tables[T_NEVENTS]):
        out[_event(out, tables, e)] = 0
    return 0


@inlined
def choose(
    state: np.ndarray, tables: np.ndarray, streams: np.ndarray, kind: int, moves: np.ndarray, n: int
) -> int:
    """The move of compiled bot `kind` (only `random` so far) for the seat to act among
    moves[:n] (n >= 2): legal[below(n)] from the seat's own stream (RULES.md §4)."""
    return _random_move(streams, current_player(state, tables), moves, n)
