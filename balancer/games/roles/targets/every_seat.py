"""`target: all`: every seat in turn, the owner first, then from its left (all_rivals
with the owner too). The module is not `all.py`: that would hide Python's `all`."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from balancer.games.roles.targets.base import TargetKind

if TYPE_CHECKING:
    import numpy as np

    from balancer.games.roles.engine import State


def seats(state: State, seat: int, chosen: int, argument: str | None) -> list[int]:
    return [(seat + k) % state.players for k in range(state.players)]


def kernel_seat() -> Callable[..., int]:
    from balancer.games.roles.kernel.layout import T_PLAYERS, inlined
    from balancer.games.trick.kernel.lists import seat_after

    @inlined
    def every_seat(
        state: np.ndarray, tables: np.ndarray, row: int, seat: int, chosen: int, j: int
    ) -> int:
        return seat_after(seat, j, tables[T_PLAYERS])

    return every_seat


SPEC = TargetKind(name="all", seats=seats, kernel_seat=kernel_seat, every_seat=True)
