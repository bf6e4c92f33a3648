"""`target: prev`: the seat before the owner's."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from balancer.games.roles.targets.base import TargetKind

if TYPE_CHECKING:
    import numpy as np

    from balancer.games.roles.engine import State


def seats(state: State, seat: int, chosen: int, argument: str | None) -> list[int]:
    return [(seat - 1) % state.players]


def kernel_seat() -> Callable[..., int]:
    from balancer.games.roles.kernel.layout import T_PLAYERS, inlined
    from balancer.games.trick.kernel.lists import seat_after

    @inlined
    def prev_seat(
        state: np.ndarray, tables: np.ndarray, row: int, seat: int, chosen: int, j: int
    ) -> int:
        players = tables[T_PLAYERS]
        return seat_after(seat, players - 1, players)

    return prev_seat


SPEC = TargetKind(name="prev", seats=seats, kernel_seat=kernel_seat)
