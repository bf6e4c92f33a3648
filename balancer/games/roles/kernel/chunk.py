"""A chunk of whole role games in one compiled call (sim/compiled.py's entry), every
seat played by its compiled bot (kernel/bots.py)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from balancer.games.api import held_words
from balancer.games.kernel_api import ChunkColumns
from balancer.games.progress import (
    CHOICES,
    DECISION_WORDS,
    FIGURES,
    NO_MARGIN,
    TURNS,
    game_figures,
)
from balancer.games.roles.fdc_heuristic import heuristic_compiles
from balancer.games.roles.kernel.bots import (
    KINDS,
    ROW,
    bot_move,
    bot_params,
    check_bots,
    scratch_for,
)
from balancer.games.roles.kernel.interpreter import (
    apply,
    current_player,
    legal,
    start_game,
    write_record,
)
from balancer.games.roles.kernel.layout import (
    KIND,
    OVER,
    PHASE,
    T_CARDS,
    T_DECK,
    T_PLAYERS,
    TRICKS,
    outermost,
)
from balancer.games.roles.kernel.scoring import score_row
from balancer.games.roles.kernel.tables import make_tables, new_legal, new_state, new_streams
from balancer.games.roles.model import RoleGame
from balancer.games.trick.kernel.lists import seat_after
from balancer.games.trick.kernel.procedure import held_at_deal


def play_chunk(
    game: RoleGame,
    rules: Mapping[str, Any],
    players: int,
    seed: int,
    start: int,
    stop: int,
    slots: Sequence[tuple[str, Mapping[str, Any]]],
    rotate: bool,
    margin: int = NO_MARGIN,
) -> ChunkColumns:
    """Games start..stop-1 of `seed` in one compiled call (games/kernel_api.py's contract).

    The bot in physical seat `seat` of game `i` is slot `(seat + i) % players` if
    `rotate`, else slot `seat`; it draws from stream rng.bot_stream(seat)."""
    if len(slots) != players:
        raise ValueError(f"{len(slots)} bot slots for {players} players")
    check_bots([name for name, _ in slots])
    if any(name == "heuristic" for name, _ in slots) and not heuristic_compiles(game):
        raise ValueError(f"{game.name} does not play Fish! Dash! Cash!'s heuristic compiled")
    tables = make_tables(game, rules, players)
    kinds = np.zeros(players, np.int64)
    params = np.zeros(players * ROW, np.float64)  # slot j's row at j * ROW
    for j, (name, given) in enumerate(slots):
        kinds[j] = KINDS[name]
        params[j * ROW : (j + 1) * ROW] = bot_params(name, given)
    state = new_state(tables)
    streams = new_streams(players)
    moves = new_legal(state, tables)
    scratch = scratch_for(state, tables, params)
    games = max(0, stop - start)
    scores = np.zeros((games, players), np.float64)
    length = np.zeros(games, np.int64)
    events = np.zeros((games, len(game.events)), np.float64)
    d = int(tables[T_DECK])  # the kinds: 0 .. the largest KIND (roles/deck.py)
    words = held_words(int(tables[T_CARDS + KIND * d : T_CARDS + (KIND + 1) * d].max()) + 1)
    held = np.zeros((games, players * words), np.uint64)
    # One game's progress at a time, reused: every trick plays a card (engine.py).
    progress = np.zeros((int(tables[T_DECK]), players), np.int64)
    figures = np.zeros((games, FIGURES), np.float64)
    decisions = np.zeros((games, DECISION_WORDS), np.int64)
    _play_games(
        tables, kinds, params, seed, start, stop, bool(rotate), start % players,
        state, streams, moves, scratch, scores, length, events, held, words,
        progress, figures, margin, decisions,
    )  # fmt: skip
    return ChunkColumns(
        start=start, scores=scores, length=length, events=events, held=held, figures=figures,
        decisions=decisions,
    )  # fmt: skip


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
    scratch: np.ndarray,
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
    """engine.py's games start..stop-1 as sim/play.py plays them: a forced move is
    played without asking its bot (no draw from its stream). figures[g]: how game g
    played (stats/how_it_plays.py), from each trick's scores kept in `progress`."""
    players = tables[T_PLAYERS]
    # The slot at seat 0 of game `game` is game % players when seats rotate;
    # counted along, as fdc's chunk loop does.
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
                seat = current_player(state, tables)
                slot = seat_after(seat, rotation, players) if rotate else seat
                action = bot_move(
                    state, tables, streams, kinds[slot], params, slot * ROW,
                    moves, n, scratch,
                )  # fmt: skip
            apply(state, tables, streams, action)
            if state[TRICKS] != tricks:  # a move ends at most one trick
                tricks = state[TRICKS]
                score_row(state, tables, progress[tricks - 1])
        length[row] = write_record(state, tables, scores[row], events[row])
        game_figures(progress, tricks, progress[tricks - 1], True, margin, figures[row])
