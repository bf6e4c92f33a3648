"""Da Qi Zi's kernel (kernel.py) seen through the one kernel interface (games/kernel_api.py)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any, ClassVar

import numpy as np

from balancer.games.api import GameRecord
from balancer.games.daqizi import kernel as k
from balancer.games.daqizi.engine import EVENTS, State
from balancer.games.kernel_api import KernelModule, Position, SeatBots, StepBuffer
from balancer.rng import Stream
from balancer.rng_kernels import init_streams


class DaQiZiKernel(KernelModule):
    module: ClassVar[Any] = k
    compiled_bots: frozenset[str] = k.COMPILED_BOTS
    step_game: type[StepBuffer] | None = k.StepGame

    def _position(self, state: np.ndarray, tables: np.ndarray, streams: np.ndarray) -> Position:
        return Position(state, tables, streams, np.zeros(k.MAX_LEGAL, np.int64))

    def new_position(self, rules: Mapping[str, Any], players: int) -> Position:
        return self._position(k.new_state(), _tables(rules), k.new_streams())

    def deal(self, position: Position, seed: int, game: int) -> None:
        init_streams(position.streams, seed, game)
        k.new_game(position.state, position.tables, position.streams)

    def from_state(self, state: State, bot_streams: Sequence[Stream]) -> Position:
        streams = k.streams_from(state.rng, bot_streams)
        return self._position(k.from_python(state), _tables(state.rules), streams)

    def apply(self, position: Position, action: int) -> None:
        k.apply(position.state, position.tables, position.streams, action)

    def choose(self, position: Position, bots: SeatBots, n: int) -> int:
        seat = self.current_player(position)
        return int(
            k.choose(
                position.state,
                position.tables,
                position.streams,
                position.moves,
                n,
                int(bots.kinds[seat]),
                bots.params[seat],
            )  # fmt: skip
        )

    # Da Qi Zi's alone (a deal is this game's unit of payment): a search's `horizon: deal`.
    def deal_of(self, position: Position) -> int:
        """The deal being played (1-based; the last one once the game is over)."""
        return int(position.state[k.S_DEAL])

    def play_deal_out(self, position: Position, bots: SeatBots, deal: int) -> None:
        """Play on while deal `deal` lasts (kernel `play_deal_out`): its payments are
        then in `scores`; the position is for reading chips, not for playing on."""
        k.play_deal_out(
            position.state, position.tables, position.streams, bots.plan, bots.flat,
            k.new_scratch(position.state), np.zeros(k.PLAYERS, np.float64), deal,
        )  # fmt: skip

    def scores(self, position: Position) -> np.ndarray:
        return position.state[k.S_CHIPS : k.S_CHIPS + k.PLAYERS].astype(np.float64)

    def record(self, position: Position) -> GameRecord:
        s: list[int] = position.state.tolist()
        return GameRecord(
            tuple(float(c) for c in s[k.S_CHIPS : k.S_CHIPS + k.PLAYERS]),
            s[k.S_EVENTS + k.E_DEALS],
            {name: float(s[k.S_EVENTS + e]) for e, name in enumerate(EVENTS)},
        )


def _tables(rules: Mapping[str, Any]) -> np.ndarray:
    """The rules' tables (about 0.3 ms to make: a search lays a world in the kernel at
    every sample), made once per distinct rules when they are read-only (hashable)."""
    try:
        return _tables_of(rules)
    except TypeError:  # a caller's own mutable dict: made afresh
        return k.encode_rules(rules)


@lru_cache(maxsize=16)
def _tables_of(rules: Mapping[str, Any]) -> np.ndarray:
    # Shared by every position of these rules: no kernel writes its tables. (Not marked
    # read-only: numba would compile every entry point again for read-only arrays.)
    return k.encode_rules(rules)


KERNEL = DaQiZiKernel()
