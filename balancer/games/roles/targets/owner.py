"""`target: self`: the op's owner (the default of a targeted primitive)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from balancer.games.roles.targets.base import TargetKind

if TYPE_CHECKING:
    import numpy as np

    from balancer.games.roles.engine import State


def seats(state: State, seat: int, chosen: int, argument: str | None) -> list[int]:
    return [seat]


def kernel_seat() -> Callable[..., int]:
    from balancer.games.roles.kernel.layout import inlined

    @inlined
    def owner(
        state: np.ndarray, tables: np.ndarray, row: int, seat: int, chosen: int, j: int
    ) -> int:
        return seat

    return owner


SPEC = TargetKind(name="self", seats=seats, kernel_seat=kernel_seat)
