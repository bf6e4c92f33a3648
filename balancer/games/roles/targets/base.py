"""The shape every target kind's module fills in: `TargetKind`.

A target kind says which seats an op with a `target:` acts on. As a primitive
(primitives/base.py says why a frozen dataclass), a kind keeps everything about
it in its module: its word, whether it takes an argument (`top: COUNTER`),
whether the owner picks the seat (a decision) or it names every rival, its
Python seats and its compiled seat, built on the kernel's first import.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from balancer.games.roles.engine import State


@dataclass(frozen=True)
class TargetKind:
    # The word a file writes (`target: next`), or the key of its one-key mapping
    # (`target: {top: position}`) when it takes an argument.
    name: str
    # The seats it names for `seat`'s op, in the order they are acted on: (state,
    # seat, chosen, argument) with `chosen` the rival a decision picked (-1 none).
    seats: Callable[[State, int, int, str | None], list[int]]
    # Builds the compiled seat (kernel/acts.py calls it once): numba's njit function
    # seat(state, tables, row, seat, chosen, j) -> the j-th seat it names.
    kernel_seat: Callable[[], Callable[..., int]]
    # What its argument names (a parameter kind of primitives/base.py), None: a word.
    argument: str | None = None
    # The owner picks the seat among the rivals (those not shielded by `unless`):
    # each rival is one way of the op, and the op waits for the decision.
    chosen: bool = False
    # It names every rival, from the owner's left (j = 0 .. players - 2).
    every_rival: bool = False
    # It names every seat, the owner first (j = 0 .. players - 1).
    every_seat: bool = False
