"""`target: trick_leader`: the seat that led the trick being resolved."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from balancer.games.roles.targets.base import TargetKind

if TYPE_CHECKING:
    import numpy as np

    from balancer.games.roles.engine import State


def seats(state: State, seat: int, chosen: int, argument: str | None) -> list[int]:
    return [state.leader]


def kernel_seat() -> Callable[..., int]:
    from balancer.games.roles.kernel.layout import LEADER, inlined

    @inlined
    def trick_leader(
        state: np.ndarray, tables: np.ndarray, row: int, seat: int, chosen: int, j: int
    ) -> int:
        return state[LEADER]

    return trick_leader


SPEC = TargetKind(name="trick_leader", seats=seats, kernel_seat=kernel_seat)
