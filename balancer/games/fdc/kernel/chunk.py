"""A chunk of whole games in one compiled call (the batch entry point of sim/compiled.py)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from balancer.games.api import held_words
from balancer.games.fdc.kernel.bots import _choose
from balancer.games.fdc.kernel.layout import (
    BOT_KINDS,
    CMONEY,
    N_EVENTS,
    N_PARAMS,
    OVER,
    PHASE,
    PLAYERS,
    T_COPIES,
    T_DECK,
    T_PLAYERS,
    T_UNCASHED,
    TLEN,
    TRICKS,
    inlined,
    outermost,
)
from balancer.games.fdc.kernel.resolution import (
    apply,
    current_player,
    legal,
    start_game,
    write_record,
)
from balancer.games.fdc.kernel.tables import (
    bot_params,
    make_tables,
    new_legal,
    new_state,
    new_streams,
    new_work,
)
from balancer.games.kernel_api import ChunkColumns
from balancer.games.progress import (
    CHOICES,
    DECISION_WORDS,
    FIGURES,
    NO_MARGIN,
    TURNS,
    game_figures,
)
from balancer.games.trick.kernel.lists import seat_after
from balancer.games.trick.kernel.procedure import held_at_deal


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
    """Games start..stop-1 of `seed`, in one compiled call (the contract in games/kernel_api.py).

    The bot in physical seat `seat` of game `i` is slot `(seat + i) % players`
    if `rotate`, else slot `seat`; it draws from stream rng.bot_stream(seat).
    """
    if len(slots) != players:
        raise ValueError(f"{len(slots)} bot slots for {players} players")
    tables = make_tables(rules, players)
    kinds = np.zeros(players, np.int64)
    params = np.zeros(players * N_PARAMS, np.float64)  # slot j's row at j * N_PARAMS
    for j, (name, given) in enumerate(slots):
        params[j * N_PARAMS : (j + 1) * N_PARAMS] = bot_params(name, given)
        kinds[j] = BOT_KINDS[name]
    state = new_state(tables)
    streams = new_streams(players)
    legal_out = new_legal(state)
    iwork, fwork = new_work(state)
    games = max(0, stop - start)
    scores = np.zeros((games, players), np.float64)
    length = np.zeros(games, np.int64)
    events = np.zeros((games, N_EVENTS), np.float64)
    words = held_words(int(tables[T_DECK] // tables[T_COPIES]))
    held = np.zeros((games, players * words), np.uint64)
    # One game's progress at a time, reused: a game has at most a trick per card.
    progress = np.zeros((int(tables[T_DECK]), players), np.int64)
    figures = np.zeros((games, FIGURES), np.float64)
    decisions = np.zeros((games, DECISION_WORDS), np.int64)
    _play_games(
        tables, kinds, params, seed, start, stop, bool(rotate), start % players,
        state, streams, legal_out, iwork, fwork, scores, length, events, held, words,
        progress, figures, margin, decisions,
    )  # fmt: skip
    return ChunkColumns(
        start=start, scores=scores, length=length, events=events, held=held, figures=figures,
        decisions=decisions,
    )  # fmt: skip


# -- a chunk of games -----------------------------------------------------------------


@outermost
def _play_games(
    tables: np.ndarray,
    kinds: np.ndarray,
    params: np.ndarray,
    seed: int,
    start: int,
    stop: int,
    rotate: bool,
    start_rotation: int,
    state: np.ndarray,
    streams: np.ndarray,
    moves: np.ndarray,
    iwork: np.ndarray,
    fwork: np.ndarray,
    scores: np.ndarray,
    length: np.ndarray,
    events: np.ndarray,
    held: np.ndarray,
    words: int,
    progress: np.ndarray,
    figures: np.ndarray,
    margin: int,
    decisions: np.ndarray,
) -> None:
    """engine.py _play for games start..stop-1: a forced move is played without
    asking its bot (and without a draw from its stream). held[g] gets the kinds
    each seat was dealt (card impact), `words` a seat; figures[g] how game g played
    (stats/how_it_plays.py), from each trick's scores kept in `progress`."""
    players = tables[T_PLAYERS]
    # The slot at seat 0 of game `game` is game % players when seats rotate;
    # counted along, since an integer `%` in here would slow every move.
    rotation = start_rotation - 1
    for game in range(start, stop):
        rotation = rotation + 1 if rotation + 1 < players else 0
        start_game(state, tables, streams, seed, game)
        row = game - start
        held_at_deal(state, tables, held[row], words)
        tricks = 0
        while state[PHASE] != OVER:
            n = legal(state, tables, moves)
            decisions[row, TURNS] += 1
            if n == 1:
                action = moves[0]
            else:
                decisions[row, CHOICES] += 1
                seat = current_player(state)
                slot = seat_after(seat, rotation, players) if rotate else seat
                action = _choose(
                    state, tables, streams, kinds[slot], params, slot * N_PARAMS,
                    moves, n, iwork, fwork,
                )  # fmt: skip
            apply(state, tables, streams, action)
            tricks = note_trick(state, tables, tricks, progress)
        length[row] = write_record(state, tables, scores[row], events[row])
        # The final scores are the last trick's row: nothing scores after it.
        game_figures(progress, tricks, progress[tricks - 1], True, margin, figures[row])


@inlined
def note_trick(state: np.ndarray, tables: np.ndarray, tricks: int, progress: np.ndarray) -> int:
    """After a move, `tricks` the tricks before it: if it ended one, progress's row for
    it gets each seat's score were the game to end now (write_record's formula).
    Returns the tricks now. A move ends at most one trick, so watching the counter
    here keeps the rules (and search's play-outs, which share `apply`) as they were."""
    now = state[TRICKS]
    if now != tricks:
        for s in range(state[PLAYERS]):
            progress[now - 1, s] = state[CMONEY + s] + tables[T_UNCASHED] * state[TLEN + s]
    return now
