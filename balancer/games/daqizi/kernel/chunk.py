"""Whole games: a chunk of games in one compiled call (sim/compiled.py), and the
conversions from Python (a State's position, its streams).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from balancer import rng
from balancer.errors import InvariantError
from balancer.games.daqizi import bots as dqz_bots
from balancer.games.daqizi import combos as dc
from balancer.games.daqizi.engine import EVENTS, PLAYERS, State
from balancer.games.daqizi.kernel.heuristic import choose
from balancer.games.daqizi.kernel.layout import (
    BOT_KINDS,
    E_DEALS,
    FD_BEAT,
    FD_CARDS,
    FD_PACKED,
    FD_SEAT,
    FD_UP,
    FD_WIDTH,
    MAX_LEGAL,
    N_EVENTS,
    N_PARAMS,
    PARAM_NAMES,
    R_MAX_DEALS,
    S_BEST,
    S_BEST_SEAT,
    S_CAPTURED,
    S_CHIPS,
    S_DEAL,
    S_DEALER,
    S_DOWN,
    S_EVENTS,
    S_FD,
    S_FD_N,
    S_HAND_LEFT,
    S_HANDS,
    S_LAST_TRICK,
    S_LAST_WINNER,
    S_LEADER,
    S_LED,
    S_MULT,
    S_NCAP,
    S_OVER,
    S_PACKED,
    S_PUBLIC,
    S_PUBLIC_PACKED,
    S_SIZES,
    S_STREAK,
    S_TO_ACT,
    S_TRICKS,
    S_TURN,
    S_UP,
    S_UP_PLAYED,
    STATE_SIZE,
    K,
    encode_rules,
    new_state,
    new_streams,
)
from balancer.games.daqizi.kernel.resolution import apply, legal, new_game
from balancer.games.kernel_api import ChunkColumns
from balancer.games.progress import (
    CHOICES,
    DECISION_WORDS,
    FIGURES,
    NO_MARGIN,
    TURNS,
    game_figures,
)
from balancer.jit import njit
from balancer.rng import Stream


@njit
def _play_to_end(
    state: np.ndarray,
    tables: np.ndarray,
    streams: np.ndarray,
    seat_bots: np.ndarray,
    seat_params: np.ndarray,
    moves: np.ndarray,
    progress: np.ndarray,
    decisions: np.ndarray,
) -> int:
    """Play from `state` to the end: seat s plays bot seat_bots[s] with seat_params[s],
    each turn counted in `decisions` (TURNS, and CHOICES when it offers more than one
    move: games/progress.py).

    A forced move is played without asking its bot (engine.py's rule). The chunk
    loop's own (`play_out` is the rollouts' entry, with every kernel's signature).
    Row d - 1 of `progress` gets the chips after deal d; returns the deals played.
    """
    deals = state[S_EVENTS + E_DEALS]
    while state[S_OVER] == 0:
        n = legal(state, tables, moves)
        decisions[TURNS] += 1
        if n == 1:
            action = moves[0]
        else:
            decisions[CHOICES] += 1
            seat = state[S_TO_ACT]
            action = choose(state, tables, streams, moves, n, seat_bots[seat], seat_params[seat])
        apply(state, tables, streams, action)
        deals = note_deal(state, deals, progress)
    return deals


@njit(inline="always")  # once a move: a call there would cost more than its work
def note_deal(state: np.ndarray, deals: int, progress: np.ndarray) -> int:
    """After a move, `deals` the deals paid before it: if it ended one, progress's row
    for it gets the chips. Returns the deals now. A move ends at most one deal, so
    watching the count keeps `apply` (and search's play-outs, which share it) as it was."""
    now = state[S_EVENTS + E_DEALS]
    if now != deals:
        for s in range(PLAYERS):
            progress[now - 1, s] = state[S_CHIPS + s]
    return now


@njit
def _play_games(
    tables: np.ndarray,
    seed: int,
    start: int,
    stop: int,
    slot_bots: np.ndarray,
    slot_params: np.ndarray,
    rotate: bool,
    scores: np.ndarray,
    length: np.ndarray,
    events: np.ndarray,
    dealt: np.ndarray,
    figures: np.ndarray,
    margin: int,
    decisions: np.ndarray,
) -> None:
    """dealt[g, s, k] gets the opening hand's count of kind k (card impact), figures[g]
    how game g played (stats/how_it_plays.py) from the chips after each of its deals."""
    state = np.zeros(STATE_SIZE, dtype=np.int64)
    progress = np.zeros((tables[R_MAX_DEALS], PLAYERS), dtype=np.int64)
    final = np.zeros(PLAYERS, dtype=np.int64)
    streams = np.zeros((1 + PLAYERS, 2), dtype=np.uint64)
    moves = np.zeros(MAX_LEGAL, dtype=np.int64)
    seat_bots = np.zeros(PLAYERS, dtype=np.int64)
    seat_params = np.zeros((PLAYERS, slot_params.shape[1]), dtype=np.float64)
    for game in range(start, stop):
        for seat in range(PLAYERS):
            slot = (seat + game) % PLAYERS if rotate else seat
            seat_bots[seat] = slot_bots[slot]
            for p in range(slot_params.shape[1]):
                seat_params[seat, p] = slot_params[slot, p]
        rng.init_streams(streams, seed, game)
        new_game(state, tables, streams)
        row = game - start
        for seat in range(PLAYERS):
            for k in range(K):
                dealt[row, seat, k] = state[S_HANDS + seat * K + k]
        deals = _play_to_end(
            state, tables, streams, seat_bots, seat_params, moves, progress, decisions[row]
        )
        for seat in range(PLAYERS):
            scores[row, seat] = state[S_CHIPS + seat]
            final[seat] = state[S_CHIPS + seat]
        game_figures(progress, deals, final, True, margin, figures[row])
        length[row] = state[S_EVENTS + E_DEALS]
        for e in range(N_EVENTS):
            events[row, e] = state[S_EVENTS + e]


# -- from Python --------------------------------------------------------------------


def bot_arrays(
    slots: Sequence[tuple[str, Mapping[str, Any]]],
) -> tuple[np.ndarray, np.ndarray]:
    """(bot kind per slot, float64 params per slot in bots.PARAMS order)."""
    kinds = np.zeros(len(slots), dtype=np.int64)
    params = np.zeros((len(slots), N_PARAMS), dtype=np.float64)
    defaults = {p.name: p.default for p in dqz_bots.PARAMS}
    for j, (name, values) in enumerate(slots):
        if name not in BOT_KINDS:
            raise ValueError(f"da-qi-zi has no compiled bot {name!r}")
        kinds[j] = BOT_KINDS[name]
        merged = {**defaults, **values}
        for p, param in enumerate(PARAM_NAMES):
            params[j, p] = float(merged[param])
    return kinds, params


def play_chunk(
    rules: Mapping[str, Any],
    players: int,
    seed: int,
    start: int,
    stop: int,
    slots: Sequence[tuple[str, Mapping[str, Any]]],
    rotate: bool,
    margin: int = NO_MARGIN,
) -> ChunkColumns:
    """Games start..stop-1 of `seed` in one compiled call (the contract in games/kernel_api.py)."""
    if players != PLAYERS:
        raise ValueError(f"da-qi-zi needs {PLAYERS} players, got {players}")
    tables = encode_rules(rules)
    kinds, params = bot_arrays(slots)
    games = stop - start
    scores = np.zeros((games, PLAYERS), dtype=np.float64)
    length = np.zeros(games, dtype=np.int64)
    events = np.zeros((games, N_EVENTS), dtype=np.float64)
    dealt = np.zeros((games, PLAYERS, K), dtype=np.int64)
    figures = np.zeros((games, FIGURES), dtype=np.float64)
    decisions = np.zeros((games, DECISION_WORDS), dtype=np.int64)
    _play_games(
        tables, seed, start, stop, kinds, params, bool(rotate), scores, length, events, dealt,
        figures, margin, decisions,
    )  # fmt: skip
    return ChunkColumns(start, scores, length, events, held_masks(dealt), figures, decisions)


def held_masks(dealt: np.ndarray) -> np.ndarray:
    """rules.held_of_counts for many games at once: counts [games, seats, kinds] to
    uint64 [games, seats] bitmasks over rules.CARD_KINDS (ranks, then suits)."""
    by_rank_suit = dealt.reshape(dealt.shape[0], PLAYERS, -1, 2)  # kind k: rank k // 2, suit k % 2
    held = np.concatenate([by_rank_suit.sum(axis=3) > 0, by_rank_suit.sum(axis=2) > 0], axis=2)
    bits = np.left_shift(np.uint64(1), np.arange(held.shape[2], dtype=np.uint64))
    return (held.astype(np.uint64) * bits).sum(axis=2, dtype=np.uint64)


def from_python(state: State) -> np.ndarray:
    """The kernel state of a Python `State` (engine.py), at the same point of play.

    The trick's cards in play and the discard pile are not kept: nothing that is
    still to come depends on them. The deal's face-down discards are, as the kernel
    records them (`_face_down_record`): `determinize` reads them.
    """
    out = new_state()
    for seat in range(PLAYERS):
        out[S_HANDS + seat * K : S_HANDS + (seat + 1) * K] = state.hands[seat]
        out[S_CAPTURED + seat * K : S_CAPTURED + (seat + 1) * K] = state.captured[seat]
        out[S_PACKED + seat] = state.packed[seat]
        out[S_NCAP + seat] = state.n_captured[seat]
        out[S_SIZES + seat] = state.sizes[seat]
        out[S_CHIPS + seat] = state.chips[seat]
    out[S_PUBLIC : S_PUBLIC + K] = state.public
    out[S_PUBLIC_PACKED] = dc.pack(state.public)
    out[S_DEAL] = state.deal
    out[S_DEALER] = state.dealer
    out[S_MULT] = state.multiplier
    out[S_STREAK] = state.streak
    out[S_LAST_WINNER] = state.last_winner
    out[S_LEADER] = state.leader
    out[S_TURN] = state.turn
    out[S_TO_ACT] = state.to_act
    out[S_BEST] = state.best
    out[S_BEST_SEAT] = state.best_seat
    out[S_LED] = state.led_size
    out[S_HAND_LEFT] = state.hand_left
    out[S_LAST_TRICK] = state.last_trick
    out[S_UP] = len(state.trick_up)
    out[S_DOWN] = state.trick_down
    out[S_TRICKS] = state.tricks
    out[S_OVER] = state.over
    for e, name in enumerate(EVENTS):
        out[S_EVENTS + e] = int(state.events[name])
    _face_down_record(state, out)
    return out


def _face_down_record(state: State, out: np.ndarray) -> None:
    """S_FD_N, S_UP_PLAYED and S_FD as resolution.py's `_note_face_down` would have
    written them had the kernel played this deal: from State.face_down (seat, cards,
    what the discard revealed (S_BEST's move id, or -1), plays_before), the discarded
    kinds from State.own_down (each seat's discard move ids, in the same order), and
    each seat's face-up plays from State.history (FD_UP: those made before the
    discard, plays_before of them)."""
    up_played = [0] * PLAYERS
    history = state.history
    played = 0  # history[:played] is in up_played
    taken = [0] * PLAYERS  # each seat's own_down entries used so far
    for j, (seat, cards, revealed, plays_before) in enumerate(state.face_down):
        for s, move in history[played:plays_before]:
            up_played[s] += dc.MOVE_PACKED[move]
        played = plays_before  # entries are in play order
        own = state.own_down[seat]
        if taken[seat] >= len(own) or dc.MOVE_SIZE[own[taken[seat]]] != cards:
            raise InvariantError(f"seat {seat}: face_down and own_down out of step")
        move = own[taken[seat]]
        taken[seat] += 1
        e = S_FD + j * FD_WIDTH
        out[e + FD_SEAT] = seat
        out[e + FD_CARDS] = cards
        out[e + FD_PACKED] = dc.MOVE_PACKED[move]
        out[e + FD_BEAT] = revealed
        out[e + FD_UP] = up_played[seat]
    for s, move in history[played:]:
        up_played[s] += dc.MOVE_PACKED[move]
    out[S_FD_N] = len(state.face_down)
    out[S_UP_PLAYED : S_UP_PLAYED + PLAYERS] = up_played


def streams_from(chance: Stream, bots: Sequence[Stream]) -> np.ndarray:
    """The kernel's stream array holding Python streams at their current counters."""
    out = new_streams()
    for row, stream in enumerate([chance, *bots]):
        out[row, 0] = np.uint64(stream.key)
        out[row, 1] = np.uint64(stream.counter)
    return out
