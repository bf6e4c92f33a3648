"""Whole games: a chunk of games in one compiled call (sim/compiled.py)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from balancer.games.kernel_api import ChunkColumns
from balancer.games.kimekimera.kernel.convert import encode_slots
from balancer.games.kimekimera.kernel.layout import (
    MAX_FREE,
    N_EVENTS,
    N_PARAMS,
    PLAN_KIND,
    PLAN_PARAMS,
    PLAN_SIZE,
    S_EVENTS,
    S_HELD,
    S_PROGRESS,
    S_ROUND,
    S_TOTALS,
    STATE_SIZE,
    T_PLAYERS,
    T_ROUNDS,
    encode_rules,
)
from balancer.games.kimekimera.kernel.resolution import new_game
from balancer.games.kimekimera.kernel.stepping import advance_to_outside
from balancer.games.progress import DECISION_WORDS, FIGURES, NO_MARGIN, game_figures
from balancer.jit import njit
from balancer.rng_kernels import init_streams

# -- whole games --------------------------------------------------------------------


@njit
def play_games(
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
    held: np.ndarray,
    figures: np.ndarray,
    margin: int,
    decisions: np.ndarray,
) -> None:
    """Games start..stop-1 into scores/length/events/held/figures rows 0..stop-start-1.

    Each game is played by `advance_to_outside` with no seat outside: the loop
    a plugin run steps (`step`) is this one, so the two play the same games.
    The state is one game's rounds longer than STATE_SIZE, so `_advance` keeps
    each round's totals in it (S_PROGRESS), read into the game's figures at its end.
    """
    players = tables[T_PLAYERS]
    rounds = tables[T_ROUNDS]
    state = np.zeros(STATE_SIZE + rounds * players, dtype=np.int64)
    progress = state[S_PROGRESS:].reshape((rounds, players))
    final = state[S_TOTALS : S_TOTALS + players]
    streams = np.zeros((1 + players, 2), dtype=np.uint64)
    moves = np.zeros(MAX_FREE + 1, dtype=np.int64)
    scratch = np.zeros(16, dtype=np.int64)
    plan = np.zeros(PLAN_SIZE, dtype=np.int64)
    params = slot_params.ravel()
    for g in range(start, stop):
        for seat in range(players):  # the plan of this game's seating
            slot = (seat + g) % players if rotate else seat
            plan[PLAN_KIND + seat] = slot_bots[slot]
            plan[PLAN_PARAMS + seat] = slot * N_PARAMS
        init_streams(streams, seed, g)
        new_game(state, tables, streams)
        advance_to_outside(
            state, tables, streams, plan, params, moves, scratch, decisions[g - start]
        )
        row = g - start
        for s in range(players):
            scores[row, s] = state[S_TOTALS + s]
        length[row] = state[S_ROUND]
        for e in range(N_EVENTS):
            events[row, e] = state[S_EVENTS + e]
        for s in range(players):
            held[row, s] = state[S_HELD + s]
        # Kimekimera's lowest total wins.
        game_figures(progress, state[S_ROUND], final, False, margin, figures[row])


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
    if len(slots) != players:
        raise ValueError(f"{len(slots)} bot slots for {players} players")
    tables = encode_rules(rules, players)
    ids, params = encode_slots(slots)
    games = stop - start
    scores = np.zeros((games, players), dtype=np.float64)
    length = np.zeros(games, dtype=np.int64)
    events = np.zeros((games, N_EVENTS), dtype=np.float64)
    held = np.zeros((games, players), dtype=np.int64)
    figures = np.zeros((games, FIGURES), dtype=np.float64)
    decisions = np.zeros((games, DECISION_WORDS), dtype=np.int64)
    play_games(
        tables, seed, start, stop, ids, params, bool(rotate), scores, length, events, held, figures,
        margin, decisions,
    )  # fmt: skip
    return ChunkColumns(start, scores, length, events, held.astype(np.uint64), figures, decisions)
