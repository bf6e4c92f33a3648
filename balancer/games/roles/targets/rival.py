"""`target: rival`: the rival its owner picks (a decision: each rival not shielded
by the op's `unless` flag is one way)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from balancer.games.roles.targets.base import TargetKind

if TYPE_CHECKING:
    import numpy as np

    from balancer.games.roles.engine import State


def seats(state: State, seat: int, chosen: int, argument: str | None) -> list[int]:
    return [chosen]


def kernel_seat() -> Callable[..., int]:
    from balancer.games.roles.kernel.layout import inlined

    @inlined
    def rival(
        state: np.ndarray, tables: np.ndarray, row: int, seat: int, chosen: int, j: int
    ) -> int:
        return chosen

    return rival


SPEC = TargetKind(name="rival", seats=seats, kernel_seat=kernel_seat, chosen=True)
