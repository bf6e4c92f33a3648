"""Fish! Dash! Cash!'s kernel (kernel.py) through the one kernel interface (games/kernel_api.py)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import numpy as np

from balancer.games.api import GameRecord
from balancer.games.fdc import kernel as k
from balancer.games.fdc.engine import State
from balancer.games.kernel_api import KernelModule, Position, SeatBots, StepBuffer
from balancer.rng import Stream


class FdcKernel(KernelModule):
    module: ClassVar[Any] = k
    compiled_bots: frozenset[str] = k.COMPILED_BOTS
    step_game: type[StepBuffer] | None = k.StepGame

    def _position(self, state: np.ndarray, tables: np.ndarray, streams: np.ndarray) -> Position:
        # scratch: the heuristic's work arrays; kept: the cashed cards (views show them).
        return Position(
            state, tables, streams, k.new_legal(state), k.new_work(state), (k.new_cashed(state),)
        )

    def new_position(self, rules: Mapping[str, Any], players: int) -> Position:
        tables = k.make_tables(rules, players)
        state = k.new_state(tables)
        return self._position(state, tables, k.new_streams(players))

    def deal(self, position: Position, seed: int, game: int) -> None:
        k.start_game(position.state, position.tables, position.streams, seed, game)

    def from_state(self, state: State, bot_streams: Sequence[Stream]) -> Position:
        arrays, tables = k.from_state(state)
        streams = k.new_streams(state.players)
        # fdc draws chance only at the deal: a position needs the seats' streams alone.
        for row, stream in enumerate(bot_streams, start=1):
            streams[row] = np.uint64(stream.key), np.uint64(stream.counter)
        position = self._position(arrays, tables, streams)
        position.kept[0][:] = k.cashed_of(state)
        return position

    def apply(self, position: Position, action: int) -> None:
        k.apply(position.state, position.tables, position.streams, action)
        k.note_cashed(position.state, position.kept[0])

    def choose(self, position: Position, bots: SeatBots, n: int) -> int:
        seat = self.current_player(position)
        iwork, fwork = position.scratch
        return int(
            k.choose(
                position.state,
                position.tables,
                position.streams,
                int(bots.kinds[seat]),
                bots.params[seat],
                position.moves,
                n,
                iwork,
                fwork,
            )  # fmt: skip
        )

    def record(self, position: Position) -> GameRecord:
        return k.record(position.state, position.tables)

    def scores(self, position: Position) -> np.ndarray:
        players = int(position.state[k.PLAYERS])
        scores = np.zeros(players, np.float64)
        k.write_record(position.state, position.tables, scores, np.zeros(k.N_EVENTS, np.float64))
        return scores


KERNEL = FdcKernel()
