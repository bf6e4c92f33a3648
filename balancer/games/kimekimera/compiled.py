"""Kimekimera's kernel (kernel.py) seen through the one kernel interface (games/kernel_api.py)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import numpy as np

from balancer.games.api import GameRecord
from balancer.games.kernel_api import KernelModule, Position, SeatBots, StepBuffer
from balancer.games.kimekimera import kernel as k
from balancer.games.kimekimera.engine import EVENTS, State
from balancer.rng import Stream
from balancer.rng_kernels import init_streams


class KimekimeraKernel(KernelModule):
    module: ClassVar[Any] = k
    compiled_bots: frozenset[str] = k.COMPILED_BOTS
    step_game: type[StepBuffer] | None = k.StepGame

    def _position(self, state: np.ndarray, tables: np.ndarray, streams: np.ndarray) -> Position:
        moves = np.zeros(k.MAX_FREE + 1, np.int64)
        return Position(state, tables, streams, moves, (np.zeros(16, np.int64),))

    def new_position(self, rules: Mapping[str, Any], players: int) -> Position:
        streams = np.zeros((1 + players, 2), np.uint64)
        tables = k.encode_rules(rules, players)
        return self._position(np.zeros(k.STATE_SIZE, np.int64), tables, streams)

    def deal(self, position: Position, seed: int, game: int) -> None:
        init_streams(position.streams, seed, game)
        k.new_game(position.state, position.tables, position.streams)

    def from_state(self, state: State, bot_streams: Sequence[Stream]) -> Position:
        arrays, tables = k.from_state(state)
        return self._position(arrays, tables, k.streams_of(state.rng, bot_streams))

    def apply(self, position: Position, action: int) -> None:
        k.apply(position.state, position.tables, position.streams, action)

    def choose(self, position: Position, bots: SeatBots, n: int) -> int:
        seat = self.current_player(position)
        return int(
            k.bot_action(
                int(bots.kinds[seat]),
                bots.params[seat],
                position.state,
                position.tables,
                position.streams,
                position.moves,
                n,
                position.scratch[0],
            )  # fmt: skip
        )

    def scores(self, position: Position) -> np.ndarray:
        players = len(position.streams) - 1
        return position.state[k.S_TOTALS : k.S_TOTALS + players].astype(np.float64)

    def record(self, position: Position) -> GameRecord:
        s: list[int] = position.state.tolist()
        players = len(position.streams) - 1
        return GameRecord(
            tuple(float(t) for t in s[k.S_TOTALS : k.S_TOTALS + players]),
            s[k.S_ROUND],
            {name: float(s[k.S_EVENTS + e]) for e, name in enumerate(EVENTS)},
            tuple(s[k.S_HELD : k.S_HELD + players]),
        )


KERNEL = KimekimeraKernel()
