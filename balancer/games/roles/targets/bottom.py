"""`target: {bottom: COUNTER}`: the rival with the fewest of COUNTER, the first from the
owner's left on a tie (top's mirror). Its op row's R_TARGET_ARG is the counter."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from balancer.games.roles.primitives.base import COUNTER
from balancer.games.roles.targets.base import TargetKind

if TYPE_CHECKING:
    import numpy as np

    from balancer.games.roles.engine import State


def seats(state: State, seat: int, chosen: int, argument: str | None) -> list[int]:
    counter = state.counters[argument or ""]
    rivals = [(seat + k) % state.players for k in range(1, state.players)]
    # min keeps the first of equal keys: the tie goes to the rival nearest the left.
    return [min(rivals, key=lambda r: counter[r])]


def kernel_seat() -> Callable[..., int]:
    from balancer.games.roles.kernel.layout import R_TARGET_ARG, T_PLAYERS, inlined
    from balancer.games.roles.kernel.regions import counter_at
    from balancer.games.trick.kernel.lists import seat_after

    @inlined
    def bottom(
        state: np.ndarray, tables: np.ndarray, row: int, seat: int, chosen: int, j: int
    ) -> int:
        players = tables[T_PLAYERS]
        counter = tables[row + R_TARGET_ARG]
        best = seat_after(seat, 1, players)
        for k in range(2, players):
            r = seat_after(seat, k, players)
            # Strictly fewer: on a tie the rival met first (nearest the left) stays.
            if (
                state[counter_at(state, tables, counter, r)]
                < state[counter_at(state, tables, counter, best)]
            ):
                best = r
        return best

    return bottom


SPEC = TargetKind(name="bottom", seats=seats, kernel_seat=kernel_seat, argument=COUNTER)
