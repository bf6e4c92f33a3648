"""`target: all_rivals`: every rival in turn, from the owner's left."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from balancer.games.roles.targets.base import TargetKind

if TYPE_CHECKING:
    import numpy as np

    from balancer.games.roles.engine import State


def seats(state: State, seat: int, chosen: int, argument: str | None) -> list[int]:
    return [(seat + k) % state.players for k in range(1, state.players)]


def kernel_seat() -> Callable[..., int]:
    from balancer.games.roles.kernel.layout import T_PLAYERS, inlined
    from balancer.games.trick.kernel.lists import seat_after

    @inlined
    def all_rivals(
        state: np.ndarray, tables: np.ndarray, row: int, seat: int, chosen: int, j: int
    ) -> int:
        return seat_after(seat, 1 + j, tables[T_PLAYERS])

    return all_rivals


SPEC = TargetKind(name="all_rivals", seats=seats, kernel_seat=kernel_seat, every_rival=True)
