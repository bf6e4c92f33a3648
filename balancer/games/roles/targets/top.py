"""`target: {top: COUNTER}`: the rival with the most of COUNTER, the first from the
owner's left on a tie. Its op row's R_TARGET_ARG is the counter."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from balancer.games.roles.primitives.base import COUNTER
from balancer.games.roles.targets.base import TargetKind, extreme_rival, kernel_extreme_rival

if TYPE_CHECKING:
    from balancer.games.roles.engine import State


def seats(state: State, seat: int, chosen: int, argument: str | None) -> list[int]:
    return [extreme_rival(state, seat, argument, most=True)]


def kernel_seat() -> Callable[..., int]:
    return kernel_extreme_rival(most=True)


SPEC = TargetKind(name="top", seats=seats, kernel_seat=kernel_seat, argument=COUNTER)
